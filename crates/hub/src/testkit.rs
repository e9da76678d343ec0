//! What the hub's own tests, examples and benchmark share, so that starting a hub, minting a ticket
//! and pairing are written once (feature `test-support`, which only this crate's tests and examples
//! turn on; the binary never has it):
//! - [`TestHub`]: a hub served in this process exactly as the binary serves it (`serve_on`), with
//!   the requests the dock's script and the extension make;
//! - [`spawn`]: the binary started as a person starts it, its origin read from its first line;
//! - the requests any hub answers, in process or not ([`dock_csrf`], [`mint`], [`pair_grant`]),
//!   and the readings they pin ([`reading`], [`drop_reading`]);
//! - an `rmcp` client playing the agent ([`agent_client`], [`call`]).

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use reqwest::StatusCode;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

use crate::server::{self, Limits};
use crate::state::{now, Hub};
use crate::store::{Agent, Db, Store};

/// The extension's origin in every test (an unpacked Chromium extension's id).
pub const EXT: &str = "chrome-extension://abcdefghijklmnopabcdefghijklmnop";

/// A hub served in this process on a free loopback port, as the binary serves it; stopped when
/// dropped.
pub struct TestHub {
    pub origin: String,
    pub hub: Arc<Hub>,
    pub http: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
    _dir: Option<tempfile::TempDir>,
}

impl Drop for TestHub {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A hub on the data in `dir`.
pub async fn start(dir: &Path) -> TestHub {
    start_with(dir, Limits::default(), |_| {}).await
}

/// A hub on a throwaway data directory that goes with it.
pub async fn start_temp() -> TestHub {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut hub = start(dir.path()).await;
    hub._dir = Some(dir);
    hub
}

/// A hub on the data in `dir`, with its connection limits and any change to its state before it
/// serves (e.g. a shorter ticket lifetime).
pub async fn start_with(dir: &Path, limits: Limits, configure: impl FnOnce(&mut Hub)) -> TestHub {
    let store = Store::open(dir).unwrap();
    store
        .ensure_default_agent(server::DEFAULT_AGENT, &now())
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = server::origin_of_addr(listener.local_addr().unwrap());
    store.set_meta(server::META_ORIGIN, &origin).unwrap();
    let mut hub = Hub::new(Db::spawn(store), origin.clone(), vec![]);
    configure(&mut hub);
    let hub = Arc::new(hub);
    let app = crate::router(hub.clone());
    let task = tokio::spawn(async move {
        server::serve_on(listener, app, limits, std::future::pending()).await;
    });
    TestHub {
        origin,
        hub,
        http: reqwest::Client::new(),
        task,
        _dir: None,
    }
}

/// What the dock page shows for the default agent, and a ticket its script minted.
pub struct Dock {
    pub csrf: String,
    pub agent: String,
    pub ticket: String,
    pub hub: String,
    pub mcp_url: String,
    pub html: String,
}

impl TestHub {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// The default agent's handle and MCP URL, as the dock page shows them, and a ticket minted as
    /// its script mints one.
    pub async fn dock(&self) -> Dock {
        let html = self
            .http
            .get(self.url("/"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let attr = |html: &str, name: &str| -> String {
            let start = html.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            html[start..start + html[start..].find('"').unwrap()].to_owned()
        };
        let mark = &html[html.find("class=\"agent-mark").unwrap()..];
        let url_at = html.find("class=\"mcp-url\">").unwrap() + "class=\"mcp-url\">".len();
        let mut dock = Dock {
            csrf: csrf(&html),
            agent: attr(mark, "data-agent"),
            ticket: String::new(),
            hub: attr(mark, "data-hub"),
            mcp_url: html[url_at..url_at + html[url_at..].find('<').unwrap()].to_owned(),
            html: html.clone(),
        };
        // The dock page carries no ticket: its script mints one when the person reaches for a mark.
        assert!(!html.contains("data-ticket"));
        dock.ticket = self.mint_ticket(&dock).await["ticket"]
            .as_str()
            .unwrap()
            .to_owned();
        dock
    }

    /// A ticket for the dock's agent, minted as the dock's script mints it: `{ ticket, code, … }`.
    pub async fn mint_ticket(&self, dock: &Dock) -> Value {
        let res = mint(&self.http, &self.origin, &dock.csrf, &dock.agent).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        res.json().await.unwrap()
    }

    /// A ticket the dock's script would mint for `agent`.
    pub async fn ticket_for(&self, dock: &Dock, agent: &str) -> String {
        let res = mint(&self.http, &self.origin, &dock.csrf, agent).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        res.json::<Value>().await.unwrap()["ticket"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// `POST /page/pair { ticket, agent }` from the extension.
    pub async fn pair(&self, ticket: &str, agent: &str) -> (StatusCode, Value) {
        let res = pair_request(&self.http, &self.origin, ticket, agent).await;
        (res.status(), res.json().await.unwrap_or(Value::Null))
    }

    /// A request of the extension with a grant: its status and JSON body (`null` for none).
    pub async fn grant_call(
        &self,
        method: reqwest::Method,
        path: &str,
        grant: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .http
            .request(method, self.url(path))
            .header("origin", EXT)
            .bearer_auth(grant);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.unwrap();
        (res.status(), res.json().await.unwrap_or(Value::Null))
    }

    /// A pin by selection (no ticket).
    pub async fn pin(&self, grant: &str, text: &str) -> (StatusCode, Value) {
        self.grant_call(
            reqwest::Method::PUT,
            "/page/pin",
            grant,
            Some(json!({ "reading": reading(text) })),
        )
        .await
    }

    /// A drop's pin, with its drag's ticket (or none).
    pub async fn pin_drop(
        &self,
        grant: &str,
        text: &str,
        ticket: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut body = json!({ "reading": drop_reading(text) });
        if let Some(ticket) = ticket {
            body["ticket"] = json!(ticket);
        }
        self.grant_call(reqwest::Method::PUT, "/page/pin", grant, Some(body))
            .await
    }

    /// The dock's Revoke, as its script sends it.
    pub async fn revoke(&self, dock: &Dock, pairing: &str) -> StatusCode {
        self.http
            .post(self.url("/dock/revoke"))
            .header("origin", &self.origin)
            .header("x-csrf-token", &dock.csrf)
            .json(&json!({ "pairing": pairing }))
            .send()
            .await
            .unwrap()
            .status()
    }

    /// The agent called `name`, added when the hub has none of that name.
    pub async fn agent(&self, name: &str) -> Agent {
        let name = name.to_owned();
        self.hub
            .db
            .run(move |s| {
                let found = s.agents()?.into_iter().find(|a| a.name == name);
                match found {
                    Some(a) => Ok(a),
                    None => s.add_agent(&name, &now()),
                }
            })
            .await
            .unwrap()
    }

    /// A pairing of `agent` by a ticket the dock's script would mint: its grant.
    pub async fn pair_agent(&self, agent: &Agent) -> String {
        pair_grant(&self.http, &self.origin, &self.hub.csrf, &agent.handle).await
    }
}

/// The dock's CSRF token in its page.
pub fn csrf(html: &str) -> String {
    let at = html.find("name=\"csrf-token\" content=\"").unwrap() + 27;
    html[at..at + html[at..].find('"').unwrap()].to_owned()
}

/// The body of `GET url`.
pub async fn get_text(http: &reqwest::Client, url: &str) -> String {
    http.get(url).send().await.unwrap().text().await.unwrap()
}

/// The CSRF token of the dock page the hub at `origin` serves.
pub async fn dock_csrf(http: &reqwest::Client, origin: &str) -> String {
    csrf(&get_text(http, &format!("{origin}/")).await)
}

/// `POST /dock/tickets { agent }` as the dock's own script sends it.
pub async fn mint(
    http: &reqwest::Client,
    origin: &str,
    csrf: &str,
    agent: &str,
) -> reqwest::Response {
    http.post(format!("{origin}/dock/tickets"))
        .header("origin", origin)
        .header("sec-fetch-site", "same-origin")
        .header("x-csrf-token", csrf)
        .json(&json!({ "agent": agent }))
        .send()
        .await
        .unwrap()
}

/// `POST /page/pair { ticket, agent }` as the extension sends it.
pub async fn pair_request(
    http: &reqwest::Client,
    origin: &str,
    ticket: &str,
    agent: &str,
) -> reqwest::Response {
    http.post(format!("{origin}/page/pair"))
        .header("origin", EXT)
        .json(&json!({ "ticket": ticket, "agent": agent }))
        .send()
        .await
        .unwrap()
}

/// A ticket minted for `agent` and the pairing it opens: the grant.
pub async fn pair_grant(http: &reqwest::Client, origin: &str, csrf: &str, agent: &str) -> String {
    let minted: Value = mint(http, origin, csrf, agent).await.json().await.unwrap();
    let ticket = minted["ticket"].as_str().expect("a ticket");
    let res = pair_request(http, origin, ticket, agent).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json::<Value>().await.unwrap()["pairing"]["grant"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A reading pointed by selection (the context menu, the command, the popup).
pub fn reading(text: &str) -> Value {
    json!({
        "url": "https://example.com/article",
        "title": "An article",
        "pointed": { "text": text, "how": "selection", "targets": [] },
        "context": { "headings": ["Intro"], "before": "", "after": "" },
        "made_at": "2026-11-29T00:00:00.000Z"
    })
}

/// A reading pointed by a drop of an agent's mark.
pub fn drop_reading(text: &str) -> Value {
    let mut r = reading(text);
    r["pointed"]["how"] = json!("drop");
    r
}

/// An agent connected to an MCP URL over Streamable HTTP.
pub async fn agent_client(url: &str) -> RunningService<RoleClient, ()> {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("the agent connects")
}

/// A tool call: whether it is a tool error, and its structured content, checked to be carried
/// again, compact, in its one text block.
pub async fn call(client: &Peer<RoleClient>, tool: &str, args: Value) -> (bool, Value) {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let result: CallToolResult = client.call_tool(params).await.expect("tools/call answers");
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    let text = result.content[0]
        .as_text()
        .expect("a text block")
        .text
        .clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
    // Compact, on one line: the agent reads every whitespace token of a pretty one, and each woken wait
    // escapes it into its answer (a line break inside a value is escaped, so none is raw).
    assert!(!text.contains('\n'), "a pretty-printed text block: {text}");
    (result.is_error == Some(true), structured)
}

/// The binary `bin` serving the data in `data_dir` on a free loopback port (`--log warn`), with
/// `extra` arguments: the child and the origin from its first line of stdout.
pub fn spawn(
    bin: impl AsRef<OsStr>,
    data_dir: &Path,
    extra: &[&str],
    stderr: Stdio,
) -> (Child, String) {
    let mut command = Command::new(bin);
    command
        .args(["--listen", "127.0.0.1:0", "--log", "warn", "--data-dir"])
        .arg(data_dir)
        .args(extra)
        .stderr(stderr);
    spawn_command(command)
}

/// Starts `command` (an `apc-hub` serving) with its stdout piped: the child and the origin from its
/// first line; the rest of stdout is drained, as a terminal would.
pub fn spawn_command(mut command: Command) -> (Child, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .expect("apc-hub starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let origin = first
        .trim()
        .strip_prefix("apc-hub listening on ")
        .unwrap_or_else(|| panic!("first line: {first:?}"))
        .to_owned();
    (child, origin)
}
