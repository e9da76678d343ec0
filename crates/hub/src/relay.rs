//! `apc-hub mcp --agent NAME`: MCP over stdin and stdout, for clients that can only spawn a process
//! (Claude Desktop's `mcpServers`, `claude mcp add NAME -- apc-hub mcp`), relayed message by message
//! to the running hub's Streamable HTTP endpoint of that agent. It keeps no MCP state of its own, so
//! both eras pass through as they are: a 2025 client's `initialize` and the requests after it (sent
//! with the `MCP-Protocol-Version` the hub answered), and a stateless 2026-07-28 client's requests,
//! each carrying its version in `_meta` (sent with that version and the `Mcp-Method` / `Mcp-Name`
//! headers that revision asks for).
//!
//! Each request is its own HTTP request, answered as the hub answers it (JSON or an SSE stream whose
//! messages are written out as they come), with no time limit: a `wait_for_focus` waits as long
//! over stdio as over HTTP. `notifications/cancelled` closes that request's connection, which ends
//! the wait at the hub, as a client going away does over HTTP. When stdin closes, every request
//! still open is dropped the same way and the relay exits.
//!
//! A request the hub cannot answer (not running, restarting) gets a JSON-RPC error saying so and
//! how to start it; the relay looks the hub up again for the next request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// How the relay finds the agent's MCP URL: asked again after a failure (the hub may have been
/// restarted, on another port).
pub trait Locate: Send + Sync + 'static {
    /// The agent's MCP URL, or what is wrong and how to fix it.
    fn mcp_url(&self) -> Result<String, String>;
}

impl<F> Locate for F
where
    F: Fn() -> Result<String, String> + Send + Sync + 'static,
{
    fn mcp_url(&self) -> Result<String, String> {
        self()
    }
}

/// The JSON-RPC error code of a relayed request the hub did not answer.
const HUB_UNREACHABLE: i64 = -32603;

/// The state the relay keeps between messages: the version an `initialize` settled on, the URL
/// found last, and the requests in flight (to cancel them).
struct Shared {
    negotiated: Mutex<Option<String>>,
    url: Mutex<Option<String>>,
    in_flight: Mutex<HashMap<String, tokio::task::AbortHandle>>,
}

/// A JSON-RPC id as a map key.
fn id_key(id: &Value) -> String {
    id.to_string()
}

fn error_message(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// The protocol version a request names in its `_meta` (2026-07-28 and later).
fn meta_version(message: &Value) -> Option<String> {
    message
        .get("params")?
        .get("_meta")?
        .get("io.modelcontextprotocol/protocolVersion")?
        .as_str()
        .map(str::to_owned)
}

/// The headers a message is posted with: the protocol version (its own `_meta`'s, else the one
/// `initialize` settled on; none on `initialize` itself), and from 2026-07-28 `Mcp-Method` and, for
/// `tools/call` and `prompts/get`, `Mcp-Name`.
pub fn request_headers(message: &Value, negotiated: Option<&str>) -> Vec<(&'static str, String)> {
    let method = message.get("method").and_then(Value::as_str);
    let mut headers = Vec::new();
    let version = match method {
        Some("initialize") => None,
        _ => meta_version(message).or_else(|| negotiated.map(str::to_owned)),
    };
    if let Some(version) = version {
        if version.as_str() >= "2026-07-28" {
            if let Some(method) = method {
                headers.push(("mcp-method", method.to_owned()));
                let name = message
                    .get("params")
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
                    .filter(|n| n.bytes().all(|b| (0x21..0x7f).contains(&b)));
                if let (Some(name), true) = (name, matches!(method, "tools/call" | "prompts/get")) {
                    headers.push(("mcp-name", name.to_owned()));
                }
            }
        }
        headers.push(("mcp-protocol-version", version));
    }
    headers
}

/// The JSON-RPC messages in a `text/event-stream` body so far: each complete event's `data`
/// lines joined; what is left is the start of the next event.
fn take_sse_messages(buf: &mut String) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let normalized_end = buf.find("\n\n").map(|i| (i, 2));
        let crlf_end = buf.find("\r\n\r\n").map(|i| (i, 4));
        let end = match (normalized_end, crlf_end) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        let Some((at, len)) = end else { break };
        let event: String = buf.drain(..at + len).collect();
        let data: Vec<&str> = event
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        if data.is_empty() {
            continue;
        }
        if let Ok(message) = serde_json::from_str::<Value>(&data.join("\n")) {
            out.push(message);
        }
    }
    out
}

/// Runs the relay on this process's stdin and stdout until stdin closes.
pub async fn run(locate: impl Locate) -> std::io::Result<()> {
    relay(tokio::io::stdin(), tokio::io::stdout(), locate).await
}

/// The relay over any pair of streams (tests drive it over pipes).
pub async fn relay(
    input: impl tokio::io::AsyncRead + Unpin,
    mut output: impl tokio::io::AsyncWrite + Unpin + Send + 'static,
    locate: impl Locate,
) -> std::io::Result<()> {
    let http = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .build()
        .map_err(std::io::Error::other)?;
    let locate: Arc<dyn Locate> = Arc::new(locate);
    let shared = Arc::new(Shared {
        negotiated: Mutex::new(None),
        url: Mutex::new(None),
        in_flight: Mutex::new(HashMap::new()),
    });
    // One writer: whole lines, in the order the answers come.
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let writer = tokio::spawn(async move {
        while let Some(message) = rx.recv().await {
            let mut line = serde_json::to_vec(&message).unwrap_or_default();
            line.push(b'\n');
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let mut lines = tokio::io::BufReader::new(input).lines();
    while let Some(line) = lines.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(m) => m,
            Err(e) => {
                let _ = tx.send(error_message(
                    &Value::Null,
                    -32700,
                    &format!("Parse error: {e}"),
                ));
                continue;
            }
        };
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id").cloned();
        if method == Some("notifications/cancelled") {
            let cancelled = message
                .get("params")
                .and_then(|p| p.get("requestId"))
                .map(id_key);
            if let Some(key) = cancelled {
                if let Some(task) = lock(&shared.in_flight).remove(&key) {
                    task.abort();
                }
            }
            continue;
        }
        // A request is registered before it starts, so that it can be cancelled and that it takes
        // itself off the list when it ends.
        let key = id.filter(|_| method.is_some()).map(|id| id_key(&id));
        let (registered, started) = tokio::sync::oneshot::channel::<()>();
        let task = {
            let (http, locate, shared, tx, key) = (
                http.clone(),
                locate.clone(),
                shared.clone(),
                tx.clone(),
                key.clone(),
            );
            tokio::spawn(async move {
                let _ = started.await;
                forward(http, locate, shared.clone(), message, tx).await;
                if let Some(key) = key {
                    lock(&shared.in_flight).remove(&key);
                }
            })
        };
        if let Some(key) = key {
            lock(&shared.in_flight).insert(key, task.abort_handle());
        }
        let _ = registered.send(());
    }
    // The client is gone: every request still open goes with it (their waits end at the hub).
    for (_, task) in lock(&shared.in_flight).drain() {
        task.abort();
    }
    drop(tx);
    let _ = writer.await;
    Ok(())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Posts one message and writes out whatever the hub answers to it.
async fn forward(
    http: reqwest::Client,
    locate: Arc<dyn Locate>,
    shared: Arc<Shared>,
    message: Value,
    out: mpsc::UnboundedSender<Value>,
) {
    let id = message.get("id").cloned();
    let is_request = id.is_some() && message.get("method").is_some();
    let is_initialize = message.get("method").and_then(Value::as_str) == Some("initialize");
    let fail = |text: String| {
        if let (true, Some(id)) = (is_request, &id) {
            let _ = out.send(error_message(id, HUB_UNREACHABLE, &text));
        }
    };
    let url = {
        let known = lock(&shared.url).clone();
        match known {
            Some(url) => url,
            None => match locate.mcp_url() {
                Ok(url) => {
                    *lock(&shared.url) = Some(url.clone());
                    url
                }
                Err(why) => return fail(why),
            },
        }
    };
    let negotiated = lock(&shared.negotiated).clone();
    let mut req = http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message.to_string());
    for (name, value) in request_headers(&message, negotiated.as_deref()) {
        req = req.header(name, value);
    }
    let mut res = match req.send().await {
        Ok(res) => res,
        Err(e) => {
            // Look the hub up again next time: it may be back on another port.
            *lock(&shared.url) = None;
            let why = match locate.mcp_url() {
                Ok(_) => format!("The hub did not answer ({e}). It may be restarting: try again."),
                Err(why) => why,
            };
            return fail(why);
        }
    };
    let status = res.status();
    let is_sse = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    let mut answered = false;
    // Whether `m` answers this request (and, for `initialize`, the version it settled on).
    let answers = |m: &Value| {
        if is_initialize {
            if let Some(v) = m.pointer("/result/protocolVersion").and_then(Value::as_str) {
                *lock(&shared.negotiated) = Some(v.to_owned());
            }
        }
        m.get("id") == id.as_ref() && (m.get("result").is_some() || m.get("error").is_some())
    };
    if is_sse {
        let mut buf = String::new();
        loop {
            match res.chunk().await {
                Ok(Some(chunk)) => {
                    buf.push_str(&String::from_utf8_lossy(&chunk));
                    for m in take_sse_messages(&mut buf) {
                        answered |= answers(&m);
                        let _ = out.send(m);
                    }
                    if answered {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    if !answered {
                        fail(format!("The hub's answer was cut off ({e})."));
                    }
                    return;
                }
            }
        }
        if !answered {
            fail("The hub closed the answer without a result.".into());
        }
        return;
    }
    let body = res.bytes().await.unwrap_or_default();
    let messages: Vec<Value> = match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Array(items)) => items,
        Ok(m) if m.get("jsonrpc").is_some() => vec![m],
        Ok(other) => {
            let text = other
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| other.to_string());
            if !status.is_success() {
                return fail(format!("The hub refused the request ({status}): {text}"));
            }
            vec![]
        }
        Err(_) if status.is_success() => vec![],
        Err(_) => return fail(format!("The hub refused the request ({status}).")),
    };
    for m in messages {
        answered |= answers(&m);
        let _ = out.send(m);
    }
    if !answered && is_request && status != reqwest::StatusCode::ACCEPTED {
        fail(format!("The hub answered {status} without a result."));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_era_gets_its_headers() {
        let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "protocolVersion": "2025-06-18" } });
        assert!(request_headers(&init, None).is_empty());
        let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
        assert_eq!(
            request_headers(&list, Some("2025-06-18")),
            vec![("mcp-protocol-version", "2025-06-18".to_owned())]
        );
        let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "wait_for_focus", "arguments": {},
            "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } });
        assert_eq!(
            request_headers(&call, None),
            vec![
                ("mcp-method", "tools/call".to_owned()),
                ("mcp-name", "wait_for_focus".to_owned()),
                ("mcp-protocol-version", "2026-07-28".to_owned()),
            ]
        );
    }

    #[test]
    fn sse_events_are_read_whole_and_split() {
        let mut buf = String::from(
            "id: 0\nretry: 3000\ndata:\n\n: keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\ndata: {\"jso",
        );
        let got = take_sse_messages(&mut buf);
        assert_eq!(
            got,
            vec![json!({ "jsonrpc": "2.0", "id": 1, "result": {} })]
        );
        assert_eq!(buf, "data: {\"jso");
        buf.push_str("nrpc\":\"2.0\",\"method\":\"x\"}\r\n\r\n");
        assert_eq!(
            take_sse_messages(&mut buf),
            vec![json!({ "jsonrpc": "2.0", "method": "x" })]
        );
    }
}
