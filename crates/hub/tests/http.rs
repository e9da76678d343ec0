//! The hub over real HTTP: an `rmcp` Streamable HTTP client plays the agent, `reqwest` plays the
//! browser extension (with an extension `Origin`) and the dock page (with its CSRF token).

use std::collections::HashSet;
use std::time::Duration;

use apc_hub::server::Limits;
use apc_hub::state::now;
use apc_hub::testkit::{
    agent_client as agent, call, drop_reading, reading, start, start_with, Dock, TestHub, EXT,
};
use reqwest::StatusCode;
use rmcp::service::RunningService;
use rmcp::RoleClient;
use serde_json::{json, Value};

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
    assert_eq!(
        focus["app_url"], "https://example.com",
        "the page's origin only"
    );
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

/// A paired hub: the dock, an agent client and the pairing's grant.
async fn paired(hub: &TestHub) -> (Dock, RunningService<RoleClient, ()>, String) {
    let dock = hub.dock().await;
    let (status, paired) = hub.pair(&dock.ticket, &dock.agent).await;
    assert_eq!(status, StatusCode::CREATED, "{paired}");
    let grant = paired["pairing"]["grant"].as_str().unwrap().to_owned();
    let client = agent(&dock.mcp_url).await;
    (dock, client, grant)
}

async fn wait_until_waiting(hub: &TestHub, agent: &str, n: usize) {
    for _ in 0..500 {
        if hub.hub.pin_waiters(agent) >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{n} waits never started");
}

#[tokio::test]
async fn wait_for_focus_returns_an_unread_pin_at_once_and_never_misses_one() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (dock, client, grant) = paired(&hub).await;

    // A pin made before the wait (while the agent was answering the person) is returned at once.
    let (_, pinned) = hub.pin(&grant, "Before the wait").await;
    let before = pinned["focus"]["id"].clone();
    let (_, got) = call(&client, "wait_for_focus", json!({ "timeout_s": 3 })).await;
    assert_eq!(got["timed_out"], false, "{got}");
    assert_eq!(got["focus"]["id"], before);
    // Returned once: it is seen now, so the next wait waits.
    let (_, next) = call(&client, "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert_eq!(next["timed_out"], true, "{next}");

    // Two pins in a row: the wait returns the latest, once.
    hub.pin(&grant, "First of two").await;
    let (_, second) = hub.pin(&grant, "Second of two").await;
    let (_, got) = call(&client, "wait_for_focus", json!({ "timeout_s": 3 })).await;
    assert_eq!(got["focus"]["id"], second["focus"]["id"]);
    let (_, next) = call(&client, "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert_eq!(next["timed_out"], true);

    // The agent's read marks a pin seen: the next wait blocks.
    let (_, third) = hub.pin(&grant, "Read directly").await;
    let id = third["focus"]["id"].as_str().unwrap();
    let (_, read) = call(&client, "page__get_reading", json!({ "id": id })).await;
    assert_eq!(read["reading"]["pointed"]["text"], "Read directly");
    let (_, next) = call(&client, "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert_eq!(next["timed_out"], true);

    // A pin made while a wait is starting (before, during or after it subscribes) is never missed.
    for round in 0..25 {
        let wait = {
            let client = client.clone();
            tokio::spawn(
                async move { call(&client, "wait_for_focus", json!({ "timeout_s": 5 })).await },
            )
        };
        if round % 2 == 0 {
            wait_until_waiting(&hub, &dock.agent, 1).await;
        }
        let (_, pinned) = hub.pin(&grant, &format!("Round {round}")).await;
        let (_, got) = wait.await.unwrap();
        assert_eq!(got["timed_out"], false, "round {round}: {got}");
        assert_eq!(got["focus"]["id"], pinned["focus"]["id"], "round {round}");
    }
    client.cancel().await.ok();
}

#[tokio::test]
async fn a_pin_reaches_every_waiting_session_of_its_agent_and_is_marked_seen_once() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (dock, first, grant) = paired(&hub).await;
    let mut sessions = vec![first];
    for _ in 0..19 {
        sessions.push(agent(&dock.mcp_url).await);
    }
    let waits: Vec<_> = sessions
        .iter()
        .map(|s| {
            let s = s.peer().clone();
            tokio::spawn(
                async move { call(&s, "wait_for_focus", json!({ "timeout_s": 20 })).await },
            )
        })
        .collect();
    wait_until_waiting(&hub, &dock.agent, sessions.len()).await;
    let (_, pinned) = hub.pin(&grant, "For every session").await;
    for wait in waits {
        let (_, got) = wait.await.unwrap();
        assert_eq!(got["focus"]["id"], pinned["focus"]["id"], "{got}");
    }
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert!(state["pin"]["seen_at"].is_string(), "{state}");
    // Seen: a new wait in any session blocks.
    let (_, next) = call(&sessions[7], "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert_eq!(next["timed_out"], true);
    for s in sessions {
        s.cancel().await.ok();
    }
}

/// The waits one pin wakes share one answer, built once: each pin's waits get that pin's answer (never
/// an earlier pin's), the same in every session, and `attention`-free (the pin is seen).
#[tokio::test]
async fn each_pin_wakes_its_agents_waits_with_its_own_answer() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (dock, first, grant) = paired(&hub).await;
    let mut sessions = vec![first];
    for _ in 0..4 {
        sessions.push(agent(&dock.mcp_url).await);
    }
    let mut previous = Value::Null;
    for round in 0..3 {
        let waits: Vec<_> = sessions
            .iter()
            .map(|s| {
                let s = s.peer().clone();
                tokio::spawn(
                    async move { call(&s, "wait_for_focus", json!({ "timeout_s": 20 })).await },
                )
            })
            .collect();
        wait_until_waiting(&hub, &dock.agent, sessions.len()).await;
        let (_, pinned) = hub.pin(&grant, &format!("Round {round}")).await;
        let mut answers = Vec::new();
        for wait in waits {
            let (is_error, got) = wait.await.unwrap();
            assert!(!is_error, "{got}");
            assert_eq!(got["timed_out"], false, "round {round}: {got}");
            assert_eq!(got["focus"]["id"], pinned["focus"]["id"], "round {round}");
            assert!(got.get("attention").is_none(), "round {round}: {got}");
            answers.push(got);
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "round {round}");
        assert_ne!(
            answers[0], previous,
            "round {round} got the last pin's answer"
        );
        previous = answers.swap_remove(0);
    }
    for s in sessions {
        s.cancel().await.ok();
    }
}

/// A wait whose client went away stops waiting: it no longer listens for its agent's pins, and the
/// next pin stays unread for the agent's next wait (an abandoned wait used to live on to its timeout,
/// and a pin meanwhile was marked seen by a wait nobody read).
#[tokio::test]
async fn a_wait_whose_client_went_away_stops_and_leaves_the_next_pin_unread() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (dock, client, grant) = paired(&hub).await;
    let gone = reqwest::Client::new();
    let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait_for_focus","arguments":{"timeout_s":20}}});
    let res = gone
        .post(&dock.mcp_url)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body)
        .send();
    // The answer's headers may come only with its body (a JSON answer): the request runs meanwhile.
    let res = tokio::spawn(res);
    wait_until_waiting(&hub, &dock.agent, 1).await;
    res.abort();
    drop(res);
    drop(gone);
    let mut stopped = false;
    for _ in 0..100 {
        if hub.hub.pin_waiters(&dock.agent) == 0 {
            stopped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stopped, "the abandoned wait still listens for pins");
    let (_, pinned) = hub.pin(&grant, "After the client left").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(state["pin"]["seen_at"], Value::Null, "{state}");
    let (_, got) = call(&client, "wait_for_focus", json!({ "timeout_s": 1 })).await;
    assert_eq!(got["timed_out"], false, "{got}");
    assert_eq!(got["focus"]["id"], pinned["focus"]["id"]);
    client.cancel().await.ok();
}

#[tokio::test]
async fn a_drop_pins_only_with_a_fresh_ticket_of_its_agent() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (dock, client, grant) = paired(&hub).await;

    // No ticket: refused; a selection needs none.
    let (status, body) = hub.pin_drop(&grant, "x", None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("ticket_required"))
    );
    assert_eq!(hub.pin(&grant, "selected").await.0, StatusCode::OK);
    // A ticket the hub never minted, or the pairing's own (spent) ticket: refused.
    let (status, body) = hub
        .pin_drop(&grant, "x", Some("ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ"))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("ticket_unknown"))
    );
    let (status, body) = hub.pin_drop(&grant, "x", Some(&dock.ticket)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::GONE, Some("ticket_used"))
    );
    // Another agent's ticket opens nothing for this one.
    let other = hub
        .hub
        .db
        .run(|s| s.add_agent("other", &now()))
        .await
        .unwrap();
    let theirs = hub.ticket_for(&dock, &other.handle).await;
    let (status, body) = hub.pin_drop(&grant, "x", Some(&theirs)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("ticket_unknown"))
    );
    // A fresh ticket of this agent pins, once: a replay of the same drag pins nothing.
    let fresh = hub.mint_ticket(&dock).await["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = hub.pin_drop(&grant, "Dropped", Some(&fresh)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let dropped = body["focus"]["id"].clone();
    let (status, body) = hub.pin_drop(&grant, "Replayed", Some(&fresh)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::GONE, Some("ticket_used"))
    );
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", &grant, None)
        .await;
    assert_eq!(state["pin"]["id"], dropped);
    // A refused pin spends nothing: the same ticket still pins after an invalid reading.
    let fresh = hub.mint_ticket(&dock).await["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut bad = drop_reading("x");
    bad["url"] = json!("javascript:alert(1)");
    let (status, _) = hub
        .grant_call(
            reqwest::Method::PUT,
            "/page/pin",
            &grant,
            Some(json!({ "reading": bad, "ticket": fresh })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        hub.pin_drop(&grant, "y", Some(&fresh)).await.0,
        StatusCode::OK
    );
    // The ticket's agent is checked against the pairing's even when the other agent's pairing
    // exists: its grant cannot use this agent's ticket either.
    let mine = hub.mint_ticket(&dock).await["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, their_pairing) = hub
        .pair(&hub.ticket_for(&dock, &other.handle).await, &other.handle)
        .await;
    let their_grant = their_pairing["pairing"]["grant"].as_str().unwrap();
    let (status, body) = hub.pin_drop(their_grant, "x", Some(&mine)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("ticket_unknown"))
    );
    client.cancel().await.ok();
}

#[tokio::test]
async fn an_expired_ticket_pins_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start_with(dir.path(), Limits::default(), |hub| {
        hub.tickets = apc_hub::tickets::Tickets::new(Duration::from_millis(300));
    })
    .await;
    let (dock, _client, grant) = paired(&hub).await;
    let ticket = hub.mint_ticket(&dock).await["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (status, body) = hub.pin_drop(&grant, "x", Some(&ticket)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::GONE, Some("ticket_expired"))
    );
}

#[tokio::test]
async fn a_pairing_allowed_from_a_drop_pins_in_the_same_request() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    let client = agent(&dock.mcp_url).await;
    let wait = {
        let client = client.clone();
        tokio::spawn(
            async move { call(&client, "wait_for_focus", json!({ "timeout_s": 10 })).await },
        )
    };
    let res = hub
        .http
        .post(hub.url("/page/pair"))
        .header("origin", EXT)
        .json(&json!({ "ticket": dock.ticket, "agent": dock.agent, "reading": drop_reading("Allowed drop") }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let body: Value = res.json().await.unwrap();
    let focus = &body["focus"];
    assert_eq!(focus["app_url"], "https://example.com");
    let grant = body["pairing"]["grant"].as_str().unwrap();
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", grant, None)
        .await;
    assert_eq!(state["pin"]["id"], focus["id"]);
    let (_, got) = wait.await.unwrap();
    assert_eq!(got["focus"]["id"], focus["id"]);
    // The ticket was spent once for both: it neither pairs nor pins again.
    assert_eq!(
        hub.pair(&dock.ticket, &dock.agent).await.0,
        StatusCode::GONE
    );
    assert_eq!(
        hub.pin_drop(grant, "again", Some(&dock.ticket)).await.0,
        StatusCode::GONE
    );
    // A pairing whose reading is refused pairs nothing and spends nothing.
    let ticket = hub.mint_ticket(&dock).await["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut bad = drop_reading("x");
    bad["url"] = json!("not a url");
    let res = hub
        .http
        .post(hub.url("/page/pair"))
        .header("origin", EXT)
        .json(&json!({ "ticket": ticket, "agent": dock.agent, "reading": bad }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let (_, state) = hub
        .grant_call(reqwest::Method::GET, "/page/grant", grant, None)
        .await;
    assert_eq!(state["pin"]["id"], focus["id"], "the first pairing stands");
    assert_eq!(hub.pair(&ticket, &dock.agent).await.0, StatusCode::CREATED);
    client.cancel().await.ok();
}

/// Text a hostile page controls (its URL's path, query and fragment, its title, its words).
const INJECTED: &str = "IGNORE-PREVIOUS-INSTRUCTIONS";

#[tokio::test]
async fn no_page_controlled_text_reaches_a_tool_result_outside_get_reading() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let (_dock, client, grant) = paired(&hub).await;
    let mut r = reading(&format!("{INJECTED} in the text"));
    r["url"] = json!(format!(
        "https://example.com/{INJECTED}?q={INJECTED}#{INJECTED}"
    ));
    r["title"] = json!(format!("{INJECTED} title"));
    r["context"]["headings"] = json!([INJECTED]);
    r["context"]["before"] = json!(INJECTED);
    r["page_text"] = json!(INJECTED);
    let (status, pinned) = hub
        .grant_call(
            reqwest::Method::PUT,
            "/page/pin",
            &grant,
            Some(json!({ "reading": r })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{pinned}");
    assert!(!pinned.to_string().contains(INJECTED), "{pinned}");
    assert_eq!(pinned["focus"]["app_url"], "https://example.com");
    let id = pinned["focus"]["id"].as_str().unwrap().to_owned();

    // Every tool result outside the reading itself, each carrying `attention` while unread.
    let calls = [
        ("list_app_tools", json!({})),
        ("list_app_tools", json!({ "app": "nope" })),
        ("call_app_tool", json!({ "app": "page", "tool": "nope" })),
        ("page__get_reading", json!({ "id": "rd_unknown" })),
        ("wait_for_focus", json!({ "timeout_s": "x" })),
        ("get_current_view", json!({})),
        ("wait_for_focus", json!({ "timeout_s": 1 })),
    ];
    let mut saw_attention = false;
    for (tool, args) in calls {
        let (_, result) = call(&client, tool, args).await;
        saw_attention |= result.get("attention").is_some();
        assert!(!result.to_string().contains(INJECTED), "{tool}: {result}");
    }
    assert!(
        saw_attention,
        "the unread pin rode on the results as attention"
    );
    let (_, view) = call(&client, "get_current_view", json!({})).await;
    assert_eq!(view["focus"]["id"], id);

    // The page's words reach the agent only inside the reading, marked untrusted.
    let (_, read) = call(&client, "page__get_reading", json!({ "id": id })).await;
    assert_eq!(read["untrusted"], true);
    assert!(read["reading"].to_string().contains(INJECTED));
    let mut outside = read.as_object().unwrap().clone();
    outside.remove("reading");
    assert!(!Value::Object(outside).to_string().contains(INJECTED));
    client.cancel().await.ok();
}

#[tokio::test]
async fn get_mints_nothing_and_only_the_docks_own_script_mints() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    let held = hub.hub.tickets.held();
    // A page's no-cors loop of GETs (and the dock page's views) mint nothing.
    for _ in 0..200 {
        let res = hub
            .http
            .get(hub.url("/"))
            .header("sec-fetch-site", "cross-site")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
    assert_eq!(hub.hub.tickets.held(), held);

    let mint = |origin: Option<&str>, site: Option<&str>, csrf: Option<&str>| {
        let mut req = hub
            .http
            .post(hub.url("/dock/tickets"))
            .json(&json!({ "agent": dock.agent }));
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(s) = site {
            req = req.header("sec-fetch-site", s);
        }
        if let Some(c) = csrf {
            req = req.header("x-csrf-token", c);
        }
        req.send()
    };
    let own = hub.origin.as_str();
    let csrf = Some(dock.csrf.as_str());
    for (origin, site, token) in [
        (None, Some("same-origin"), csrf),
        (Some("http://evil.example"), Some("same-origin"), csrf),
        (Some(own), None, csrf),
        (Some(own), Some("cross-site"), csrf),
        (Some(own), Some("same-site"), csrf),
        (Some(own), Some("same-origin"), None),
        (Some(own), Some("same-origin"), Some("wrong")),
    ] {
        let res = mint(origin, site, token).await.unwrap();
        assert_eq!(
            res.status(),
            StatusCode::FORBIDDEN,
            "{origin:?} {site:?} {token:?}"
        );
        assert_eq!(res.json::<Value>().await.unwrap()["error"], "csrf_refused");
    }
    assert_eq!(hub.hub.tickets.held(), held);
    assert_eq!(
        mint(Some(own), Some("same-origin"), csrf)
            .await
            .unwrap()
            .status(),
        StatusCode::CREATED
    );
    assert_eq!(
        mint(Some(own), Some("none"), csrf).await.unwrap().status(),
        StatusCode::CREATED
    );

    // One agent's flood of mints evicts none of another agent's tickets.
    let other = hub
        .hub
        .db
        .run(|s| s.add_agent("other", &now()))
        .await
        .unwrap();
    let theirs = hub.ticket_for(&dock, &other.handle).await;
    for _ in 0..300 {
        hub.mint_ticket(&dock).await;
    }
    assert_eq!(
        hub.pair(&theirs, &other.handle).await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        hub.pair(&dock.ticket, &dock.agent).await.0,
        StatusCode::NOT_FOUND,
        "its own oldest ticket was retired"
    );
}

/// A raw TCP connection to the hub.
async fn raw(hub: &TestHub) -> tokio::net::TcpStream {
    tokio::net::TcpStream::connect(hub.origin.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Reads until the hub closes the connection (or 10 s pass): what it sent.
async fn read_to_close(stream: &mut tokio::net::TcpStream) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let mut out = Vec::new();
    match tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut out)).await {
        Ok(_) => Some(String::from_utf8_lossy(&out).into_owned()),
        Err(_) => None,
    }
}

#[tokio::test]
async fn half_sent_and_idle_connections_are_closed_and_connections_are_capped() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        header_read_timeout: Duration::from_millis(500),
        max_connections: 4,
    };
    let hub = start_with(dir.path(), limits, |_| {}).await;
    // Half a request's headers: closed.
    let mut half = raw(&hub).await;
    half.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    assert!(
        read_to_close(&mut half).await.is_some(),
        "a half-sent request is not held"
    );
    // Nothing sent at all: closed.
    let mut silent = raw(&hub).await;
    assert!(
        read_to_close(&mut silent).await.is_some(),
        "a silent connection is not held"
    );
    // An idle keep-alive connection after its answer: closed.
    let mut idle = raw(&hub).await;
    let host = hub.origin.trim_start_matches("http://").to_owned();
    idle.write_all(
        format!("GET /.well-known/apc.json HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let answered = read_to_close(&mut idle).await.expect("closed after idling");
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");

    // At the cap, a new connection waits until one closes.
    let hub = start_with(
        dir.path(),
        Limits {
            header_read_timeout: Duration::from_secs(30),
            max_connections: 4,
        },
        |_| {},
    )
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(raw(&hub).await);
    }
    let request = {
        let url = hub.url("/.well-known/apc.json");
        tokio::spawn(async move {
            reqwest::Client::new()
                .get(url)
                .send()
                .await
                .map(|r| r.status())
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !request.is_finished(),
        "a fifth connection is not served while four are open"
    );
    held.pop();
    let status = tokio::time::timeout(Duration::from_secs(10), request)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn every_refusal_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    let json_error = |res: reqwest::Response| async move {
        let status = res.status();
        let kind = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned());
        let text = res.text().await.unwrap();
        let body: Value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("{status}: not JSON: {text:?} ({kind:?})"));
        assert!(
            body["error"].is_string() && body["message"].is_string(),
            "{body}"
        );
        (status, body["error"].as_str().unwrap().to_owned())
    };
    // axum's body limit on the dock.
    let res = hub
        .http
        .post(hub.url("/dock/revoke"))
        .header("origin", &hub.origin)
        .header("x-csrf-token", &dock.csrf)
        .body(vec![b'x'; 2 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_error(res).await,
        (StatusCode::PAYLOAD_TOO_LARGE, "too_large".into())
    );
    // rmcp's refusals: no Accept (406), a body over its cap (413), a GET with no session (400 or 405).
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}});
    let res = hub
        .http
        .post(&dock.mcp_url)
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(json_error(res).await.0, StatusCode::NOT_ACCEPTABLE);
    let res = hub
        .http
        .post(&dock.mcp_url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(vec![b' '; 2 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    let (status, _) = json_error(res).await;
    assert!(status.is_client_error(), "{status}");
    let res = hub
        .http
        .get(&dock.mcp_url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    let (status, _) = json_error(res).await;
    assert!(status.is_client_error(), "{status}");
    let res = hub
        .http
        .post(&dock.mcp_url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "text/plain")
        .body("hello")
        .send()
        .await
        .unwrap();
    let (status, _) = json_error(res).await;
    assert!(status.is_client_error(), "{status}");
    // A long URL.
    let res = hub
        .http
        .get(hub.url(&format!("/?q={}", "a".repeat(20_000))))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_error(res).await,
        (StatusCode::URI_TOO_LONG, "uri_too_long".into())
    );
    // What hyper refuses before the hub sees it (a URL over 64 KiB, headers over its buffer, garbage),
    // and headers past the hub's own 64 KiB that hyper lets through: each answered as JSON and closed.
    // hyper's buffer is a soft bound (a request read in one large read may pass it whole), so the
    // 500 KB case is refused by either; the 100 KB one only by the hub.
    let port_host = hub.origin.trim_start_matches("http://").to_owned();
    for (request, status, code) in [
        (
            format!(
                "GET /?{} HTTP/1.1\r\nHost: {port_host}\r\n\r\n",
                "a".repeat(70_000)
            ),
            "414",
            "uri_too_long",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: {port_host}\r\nX: {}\r\n\r\n",
                "a".repeat(500_000)
            ),
            "431",
            "headers_too_large",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: {port_host}\r\nX: {}\r\n\r\n",
                "a".repeat(100_000)
            ),
            "431",
            "headers_too_large",
        ),
        (
            "NOT HTTP AT ALL\r\n\r\n".to_owned(),
            "400",
            "invalid_request",
        ),
    ] {
        use tokio::io::AsyncWriteExt;
        let mut stream = raw(&hub).await;
        let _ = stream.write_all(request.as_bytes()).await;
        let answer = read_to_close(&mut stream)
            .await
            .expect("answered and closed");
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{answer}"
        );
        let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["error"], code);
        assert!(answer
            .to_ascii_lowercase()
            .contains("content-type: application/json"));
    }
    // A Host that is no host, though it starts like loopback.
    let port = hub.origin.rsplit(':').next().unwrap();
    for host in [
        format!("[::1]evil.example:{port}"),
        format!("127.0.0.1@evil.example:{port}"),
    ] {
        let res = hub
            .http
            .get(hub.url("/"))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(
            json_error(res).await,
            (StatusCode::FORBIDDEN, "host_refused".into()),
            "{host}"
        );
    }
}

#[tokio::test]
async fn the_dock_shows_every_clients_entry_for_each_agent() {
    let dir = tempfile::tempdir().unwrap();
    let hub = start(dir.path()).await;
    let dock = hub.dock().await;
    // The page holds where they come: the agent's list, filled when the person opens it.
    assert!(dock.html.contains(&format!(
        "<dl class=\"clients\" data-agent=\"{}\"></dl>",
        dock.agent
    )));
    let connect = |agent: &str, csrf: Option<&str>| {
        let mut req = hub
            .http
            .get(hub.url(&format!("/dock/connect?agent={agent}")));
        if let Some(csrf) = csrf {
            req = req.header("x-csrf-token", csrf);
        }
        req.send()
    };
    let res = connect(&dock.agent, Some(&dock.csrf)).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()["content-security-policy"],
        hub.http.get(hub.url("/")).send().await.unwrap().headers()["content-security-policy"]
    );
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["agent"], dock.agent.as_str());
    let html = body["html"].as_str().unwrap();
    for client in apc_hub::clients::Client::ALL {
        let at = html
            .find(&format!("data-client=\"{}\"", client.id()))
            .unwrap_or_else(|| panic!("{client:?} is missing"));
        let entry = &html[at..at + html[at..].find("</dd>").unwrap()];
        if client.uses_stdio() {
            assert!(entry.contains("&quot;mcp&quot;"), "{entry}");
        } else {
            assert!(entry.contains(&dock.mcp_url), "{client:?}: {entry}");
        }
    }
    assert!(html.contains("href=\"vscode:mcp/install?"));
    assert!(html.contains(
        "href=\"cursor://anysphere.cursor-deeplink/mcp/install?name=apc-default&amp;config="
    ));
    // Only for the dock's own script (it shows the MCP URL), and only for an agent the hub has.
    let res = connect(&dock.agent, None).await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "csrf_refused");
    let res = connect(&dock.agent, Some("not-the-token")).await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = connect("ag_0000000000000000", Some(&dock.csrf))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "not_found");
}
