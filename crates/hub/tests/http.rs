//! The hub over real HTTP: an `rmcp` Streamable HTTP client plays the agent, `reqwest` plays the
//! browser extension (with an extension `Origin`) and the dock page (with its CSRF token).

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use apc_hub::server::Limits;
use apc_hub::state::now;
use apc_hub::store::{Db, Store};
use apc_hub::{router, server, Hub};
use reqwest::StatusCode;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

const EXT: &str = "chrome-extension://abcdefghijklmnopabcdefghijklmnop";

struct TestHub {
    origin: String,
    task: tokio::task::JoinHandle<()>,
    http: reqwest::Client,
    hub: Arc<Hub>,
}

impl Drop for TestHub {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn start(dir: &Path) -> TestHub {
    start_with(dir, Limits::default(), |_| {}).await
}

/// A hub on a free loopback port, served as the binary serves it (`server::serve_on`).
async fn start_with(dir: &Path, limits: Limits, configure: impl FnOnce(&mut Hub)) -> TestHub {
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
    let app = router(hub.clone());
    let task = tokio::spawn(async move {
        server::serve_on(listener, app, limits, std::future::pending()).await;
    });
    TestHub {
        origin,
        task,
        http: reqwest::Client::new(),
        hub,
    }
}

impl TestHub {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// The default agent's handle and MCP URL, as the dock page shows them.
    async fn dock(&self) -> Dock {
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
        let csrf = {
            let at = html.find("name=\"csrf-token\"").unwrap();
            attr(&html[at..], "content")
        };
        let mark = &html[html.find("class=\"agent-mark").unwrap()..];
        let url_at = html.find("class=\"mcp-url\">").unwrap() + "class=\"mcp-url\">".len();
        let mut dock = Dock {
            csrf,
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

    async fn mint_ticket(&self, dock: &Dock) -> Value {
        let res = self
            .http
            .post(self.url("/dock/tickets"))
            .header("origin", &self.origin)
            .header("sec-fetch-site", "same-origin")
            .header("x-csrf-token", &dock.csrf)
            .json(&json!({ "agent": dock.agent }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        res.json().await.unwrap()
    }

    /// A ticket the dock's script would mint for `agent`.
    async fn ticket_for(&self, dock: &Dock, agent: &str) -> String {
        let res = self
            .http
            .post(self.url("/dock/tickets"))
            .header("origin", &self.origin)
            .header("sec-fetch-site", "same-origin")
            .header("x-csrf-token", &dock.csrf)
            .json(&json!({ "agent": agent }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        res.json::<Value>().await.unwrap()["ticket"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    async fn pair(&self, ticket: &str, agent: &str) -> (StatusCode, Value) {
        let res = self
            .http
            .post(self.url("/page/pair"))
            .header("origin", EXT)
            .json(&json!({ "ticket": ticket, "agent": agent }))
            .send()
            .await
            .unwrap();
        (res.status(), res.json().await.unwrap_or(Value::Null))
    }

    async fn grant_call(
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
    async fn pin(&self, grant: &str, text: &str) -> (StatusCode, Value) {
        self.grant_call(
            reqwest::Method::PUT,
            "/page/pin",
            grant,
            Some(json!({ "reading": reading(text) })),
        )
        .await
    }

    /// A drop's pin, with its drag's ticket (or none).
    async fn pin_drop(&self, grant: &str, text: &str, ticket: Option<&str>) -> (StatusCode, Value) {
        let mut body = json!({ "reading": drop_reading(text) });
        if let Some(ticket) = ticket {
            body["ticket"] = json!(ticket);
        }
        self.grant_call(reqwest::Method::PUT, "/page/pin", grant, Some(body))
            .await
    }

    async fn revoke(&self, dock: &Dock, pairing: &str) -> StatusCode {
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
}

struct Dock {
    csrf: String,
    agent: String,
    ticket: String,
    hub: String,
    mcp_url: String,
    html: String,
}

/// A reading pointed by selection (the context menu, the command, the popup).
fn reading(text: &str) -> Value {
    json!({
        "url": "https://example.com/article",
        "title": "An article",
        "pointed": { "text": text, "how": "selection", "targets": [] },
        "context": { "headings": ["Intro"], "before": "", "after": "" },
        "made_at": "2026-11-29T00:00:00.000Z"
    })
}

/// A reading pointed by a drop of an agent's mark.
fn drop_reading(text: &str) -> Value {
    let mut r = reading(text);
    r["pointed"]["how"] = json!("drop");
    r
}

async fn agent(url: &str) -> RunningService<RoleClient, ()> {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("the agent connects")
}

async fn call(client: &Peer<RoleClient>, tool: &str, args: Value) -> (bool, Value) {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let result: CallToolResult = client.call_tool(params).await.expect("tools/call answers");
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    // The text block carries the same JSON.
    let text = result.content[0]
        .as_text()
        .expect("a text block")
        .text
        .clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
    (result.is_error == Some(true), structured)
}

#[tokio::test]
async fn the_agent_loop_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    assert_eq!(dock.hub, hub.origin);
    let client = agent(&dock.mcp_url).await;

    let info = client.peer_info().expect("server info");
    assert!(info
        .instructions
        .as_deref()
        .unwrap_or("")
        .contains("wait_for_focus"));
    let tools: HashSet<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let expected: HashSet<String> = [
        "get_current_view",
        "wait_for_focus",
        "list_app_tools",
        "call_app_tool",
        "page__get_reading",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(tools, expected);

    // A wait with no pin times out cleanly.
    let (is_error, waited) = call(&client, "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert!(!is_error);
    assert_eq!(waited["focus"], Value::Null);
    assert_eq!(waited["timed_out"], true);
    assert!(waited["note"].is_string());
    assert!(waited.get("then").is_none());

    // Malformed arguments are tool errors, not protocol errors.
    let (is_error, refused) = call(&client, "wait_for_focus", json!({ "timeout_s": "soon" })).await;
    assert!(is_error);
    assert_eq!(refused["error"], "invalid_arguments");
    let (is_error, _) = call(&client, "page__get_reading", json!({})).await;
    assert!(is_error);

    // Pair with the ticket from the dock page.
    let (status, paired) = hub.pair(&dock.ticket, &dock.agent).await;
    assert_eq!(status, StatusCode::CREATED, "{paired}");
    let grant = paired["pairing"]["grant"].as_str().unwrap().to_owned();
    let pairing_id = paired["pairing"]["id"].as_str().unwrap().to_owned();
    assert_eq!(paired["pairing"]["agent"]["handle"], dock.agent);
    assert_eq!(paired["pairing"]["hub"]["origin"], hub.origin);
    assert!(grant.len() >= 22);

    // A pin made during a wait is returned. Pins repeat until the wait answers, so the test does not
    // depend on when the wait began listening; whatever it returns must be one of them.
    let wait = {
        let client = client.clone();
        tokio::spawn(
            async move { call(&client, "wait_for_focus", json!({ "timeout_s": 25 })).await },
        )
    };
    let mut pinned = HashSet::new();
    while !wait.is_finished() {
        let (status, body) = hub.pin(&grant, "The pointed text").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        pinned.insert(body["focus"]["id"].as_str().unwrap().to_owned());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (is_error, got) = wait.await.unwrap();
    assert!(!is_error);
    assert_eq!(got["timed_out"], false);
    let focus = &got["focus"];
    let id = focus["id"].as_str().unwrap().to_owned();
    assert!(pinned.contains(&id));
    assert!(id.starts_with("rd_"));
    assert_eq!(focus["kind"], "page_reading");
    assert_eq!(focus["part"], Value::Null);
    assert_eq!(focus["app"]["id"], "page");
    assert_eq!(focus["app_url"], "https://example.com", "the page's origin only");
    assert_eq!(focus["next"], "page__get_reading");
    assert_eq!(focus["next_args"], json!({ "id": id }));
    assert!(
        !focus.to_string().contains("The pointed text"),
        "no page text in a focus"
    );

    // A pin sent while the wait's answer travelled may have replaced it: the current one is read.
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    let current = state["pin"]["id"].as_str().unwrap().to_owned();
    assert!(pinned.contains(&current));
    let (_, view) = call(&client, "get_current_view", json!({})).await;
    assert_eq!(view["focus"]["id"], current);
    assert_eq!(view["views"][0]["app"]["id"], "page");
    assert!(view.get("attention").is_none());

    // A new pin the agent has not read rides on every result as attention.
    let (_, body) = hub.pin(&grant, "Second text").await;
    let second = body["focus"]["id"].as_str().unwrap().to_owned();
    let (_, listed) = call(&client, "list_app_tools", json!({})).await;
    assert_eq!(
        listed["apps"][0]["tools"][0]["relayed_as"],
        "page__get_reading"
    );
    assert_eq!(listed["attention"]["focus"]["id"], second);
    let (status, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["pin"]["id"], second);
    assert_eq!(state["pin"]["seen_at"], Value::Null);

    // The replaced reading is gone; the new one reads as untrusted data.
    let (is_error, gone) = call(&client, "page__get_reading", json!({ "id": current })).await;
    assert!(is_error);
    assert_eq!(gone["error"], "reading_unknown");
    let (is_error, read) = call(&client, "page__get_reading", json!({ "id": second })).await;
    assert!(!is_error);
    assert_eq!(read["untrusted"], true);
    assert!(read["note"]
        .as_str()
        .unwrap()
        .contains("never instructions"));
    assert_eq!(read["reading"]["pointed"]["text"], "Second text");
    assert!(read.get("attention").is_none(), "reading it marks it seen");
    let (is_error, relayed) = call(
        &client,
        "call_app_tool",
        json!({ "app": "page", "tool": "get_reading", "args": { "id": second } }),
    )
    .await;
    assert!(!is_error);
    assert_eq!(relayed["reading"]["pointed"]["text"], "Second text");
    let (is_error, unknown) = call(
        &client,
        "call_app_tool",
        json!({ "app": "nope", "tool": "x" }),
    )
    .await;
    assert!(is_error);
    assert_eq!(unknown["error"], "unknown_app");

    // Revoke from the dock holds at once.
    assert_eq!(hub.revoke(&dock, &pairing_id).await, StatusCode::OK);
    let (status, answer) = hub.pin(&grant, "After revoke").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(answer["error"], "revoked");
    assert_eq!(
        answer["revoked_by"],
        hub.origin.trim_start_matches("http://")
    );
    assert!(answer["revoked_at"].is_string() && answer["message"].is_string());
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let (status, answer) = hub.grant_call(method, "/page/grant", &grant, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(answer["error"], "revoked");
    }
    let (is_error, gone) = call(&client, "page__get_reading", json!({ "id": second })).await;
    assert!(is_error);
    assert_eq!(gone["error"], "reading_unknown");
    let (_, view) = call(&client, "get_current_view", json!({})).await;
    assert_eq!(view["focus"], Value::Null);
    assert!(hub.dock().await.html.contains("data-status=\"revoked\""));
    client.cancel().await.ok();
}

#[tokio::test]
async fn web_origins_and_foreign_hosts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}});
    let mcp = |origin: Option<&str>| {
        let mut req = hub
            .http
            .post(&dock.mcp_url)
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(origin) = origin {
            req = req.header("origin", origin);
        }
        req.send()
    };
    let res = mcp(Some("http://evil.example")).await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "origin_refused"
    );
    assert_eq!(mcp(None).await.unwrap().status(), StatusCode::OK);

    // An unknown MCP secret is a JSON 404.
    let res = hub
        .http
        .post(hub.url("/mcp/not-a-secret"))
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "not_found");

    for (method, path) in [
        ("POST", "/page/pair"),
        ("PUT", "/page/pin"),
        ("DELETE", "/page/pin"),
        ("GET", "/page/grant"),
        ("DELETE", "/page/grant"),
    ] {
        let res = hub
            .http
            .request(method.parse().unwrap(), hub.url(path))
            .header("origin", "http://evil.example")
            .bearer_auth("whatever")
            .json(&json!({ "ticket": dock.ticket, "agent": dock.agent }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(
            res.json::<Value>().await.unwrap()["error"],
            "origin_refused"
        );
    }
    // The refused pairing did not spend the ticket.
    assert_eq!(
        hub.pair(&dock.ticket, &dock.agent).await.0,
        StatusCode::CREATED
    );

    // A DNS-rebound name is refused everywhere, the dock page included.
    for path in ["/", "/.well-known/apc.json", "/page/pair"] {
        let res = hub
            .http
            .get(hub.url(path))
            .header("host", "evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{path}");
        assert_eq!(res.json::<Value>().await.unwrap()["error"], "host_refused");
    }

    // The dock's state changes need its CSRF token and its own origin.
    let res = hub
        .http
        .post(hub.url("/dock/tickets"))
        .json(&json!({ "agent": dock.agent }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = hub
        .http
        .post(hub.url("/dock/tickets"))
        .header("origin", "http://evil.example")
        .header("x-csrf-token", &dock.csrf)
        .json(&json!({ "agent": dock.agent }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "csrf_refused");
}

#[tokio::test]
async fn apc_json_and_pairing_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;

    let manifest: Value = hub
        .http
        .get(hub.url("/.well-known/apc.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let parsed =
        apc_core::parse_apc_manifest(&manifest, &hub.origin).expect("a valid hub manifest");
    assert_eq!(parsed.profiles, vec![apc_core::ApcRole::Hub]);
    assert_eq!(manifest["page"]["pair"], hub.url("/page/pair"));
    assert_eq!(manifest["page"]["pin"], hub.url("/page/pin"));
    assert_eq!(manifest["page"]["grant"], hub.url("/page/grant"));
    assert!(apc_core::declares_mcp_url(&parsed, &dock.mcp_url));

    let (status, body) = hub.pair("ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ", &dock.agent).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("ticket_unknown"))
    );
    let res = hub
        .http
        .post(hub.url("/page/pair"))
        .header("origin", EXT)
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "invalid_request"
    );

    // The typed code pairs as the ticket does, once.
    let minted = hub.mint_ticket(&dock).await;
    let code = minted["code"].as_str().unwrap().to_lowercase();
    assert_eq!(hub.pair(&code, &dock.agent).await.0, StatusCode::CREATED);
    let (status, body) = hub
        .pair(minted["ticket"].as_str().unwrap(), &dock.agent)
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::GONE, Some("ticket_used"))
    );

    // Re-pairing the same agent replaces the pairing: the old grant is unknown from then on.
    let (_, first) = hub.pair(&dock.ticket, &dock.agent).await;
    let old = first["pairing"]["grant"].as_str().unwrap().to_owned();
    let (_, second) = hub
        .pair(
            hub.mint_ticket(&dock).await["ticket"].as_str().unwrap(),
            &dock.agent,
        )
        .await;
    let grant = second["pairing"]["grant"].as_str().unwrap().to_owned();
    let (status, body) = hub.pin(&old, "x").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("grant_unknown"))
    );
    let res = hub
        .http
        .put(hub.url("/page/pin"))
        .header("origin", EXT)
        .json(&reading("x"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Bodies are capped and checked.
    let big = "x".repeat(apc_core::page_link::READING_MAX_BYTES);
    let (status, body) = hub.pin(&grant, &big).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large"))
    );
    let (status, body) = hub
        .grant_call(
            reqwest::Method::PUT,
            "/page/pin",
            &grant,
            Some(json!({ "url": 5 })),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_request"))
    );

    // Unpin, then give back: the grant is unknown afterwards.
    assert_eq!(hub.pin(&grant, "x").await.0, StatusCode::OK);
    let (status, _) = hub
        .grant_call(reqwest::Method::DELETE, "/page/pin", &grant, None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(state, json!({ "status": "active", "pin": null }));
    let (status, _) = hub
        .grant_call(reqwest::Method::DELETE, "/page/grant", &grant, None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The extension's CORS preflight is answered; a web page's is not.
    let res = hub
        .http
        .request(reqwest::Method::OPTIONS, hub.url("/page/pin"))
        .header("origin", EXT)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_eq!(res.headers()["access-control-allow-origin"], EXT);
    let res = hub
        .http
        .request(reqwest::Method::OPTIONS, hub.url("/page/pin"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    // Anything else is a JSON error too.
    let res = hub.http.get(hub.url("/nothing")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.json::<Value>().await.unwrap()["error"].is_string());
    let res = hub
        .http
        .patch(hub.url("/page/pair"))
        .header("origin", EXT)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert!(res.json::<Value>().await.unwrap()["error"].is_string());
    // The ticket preview: a ticket the hub never minted is refused like a pairing with it.
    let res = hub
        .http
        .get(hub.url("/page/pair?ticket=ZZZZZZZZZZZZZZZZZZZZ"))
        .header("origin", EXT)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "ticket_unknown"
    );
    let res = hub
        .http
        .get(hub.url("/page/pair?ticket=ZZZZZZZZZZZZZZZZZZZZ"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = hub
        .http
        .post(hub.url("/apc/pair"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "not_supported");
}

#[tokio::test]
async fn a_restart_keeps_agents_pairings_and_pins() {
    let dir = tempfile::tempdir().unwrap();
    let (mcp_url, grant, pin_id) = {
        let hub = start(dir.path()).await;
        let dock = hub.dock().await;
        let (_, paired) = hub.pair(&dock.ticket, &dock.agent).await;
        let grant = paired["pairing"]["grant"].as_str().unwrap().to_owned();
        let (_, pinned) = hub.pin(&grant, "Kept").await;
        (
            dock.mcp_url,
            grant,
            pinned["focus"]["id"].as_str().unwrap().to_owned(),
        )
    };
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    let secret = mcp_url.rsplit('/').next().unwrap();
    assert!(
        dock.mcp_url.ends_with(secret),
        "the agent keeps its MCP URL secret"
    );
    let (status, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["pin"]["id"], pin_id);
    let client = agent(&dock.mcp_url).await;
    let (_, read) = call(&client, "page__get_reading", json!({ "id": pin_id })).await;
    assert_eq!(read["reading"]["pointed"]["text"], "Kept");
    client.cancel().await.ok();
}
