//! The stdio relay (`apc-hub mcp`) against a hub served in this process, so the test can see the
//! hub's own waits: a 2026-07-28 exchange (no `initialize`) lists, waits and reads; a wait through
//! the relay is not cut short; a wait the client cancels ends at the hub, and the pin made after it
//! stays unread for the next wait, as over HTTP when a client goes away.

use std::time::Duration;

use apc_hub::state::Hub;
use apc_hub::testkit::{self, TestHub};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

/// A client's end of a relay to `hub`'s default agent.
struct Stdio {
    to_relay: DuplexStream,
    from_relay: Lines<BufReader<DuplexStream>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn relay_to(hub: &TestHub) -> Stdio {
    let agent = hub.agent("default").await;
    let url = Hub::mcp_url(&hub.origin, &agent.secret);
    let (client_in, relay_in) = tokio::io::duplex(1 << 20);
    let (relay_out, client_out) = tokio::io::duplex(1 << 20);
    let task = tokio::spawn(apc_hub::relay::relay(
        relay_in,
        relay_out,
        move || -> Result<String, String> { Ok(url.clone()) },
    ));
    Stdio {
        to_relay: client_in,
        from_relay: BufReader::new(client_out).lines(),
        task,
    }
}

impl Stdio {
    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.to_relay.write_all(line.as_bytes()).await.unwrap();
    }

    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.from_relay.next_line())
            .await
            .expect("an answer")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    }
}

/// A 2026-07-28 request: its version and the client's capabilities in `_meta`.
fn modern(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

async fn wait_for_waits(hub: &TestHub, agent: &str, n: usize) {
    for _ in 0..1000 {
        if hub.hub.pin_waiters(agent) == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the hub never had {n} waits");
}

#[tokio::test]
async fn a_stateless_client_lists_waits_and_reads_through_the_relay() {
    let hub = testkit::start_temp().await;
    let agent = hub.agent("default").await;
    let grant = hub.pair_agent(&agent).await;
    let mut stdio = relay_to(&hub).await;

    stdio.send(modern(1, "server/discover", json!({}))).await;
    let discover = stdio.receive().await;
    let versions = discover["result"]["supportedVersions"].as_array().unwrap();
    assert!(versions.contains(&json!("2026-07-28")), "{discover}");
    assert!(discover["result"]["instructions"]
        .as_str()
        .unwrap()
        .contains("wait_for_focus"));

    stdio.send(modern(2, "tools/list", json!({}))).await;
    let tools = stdio.receive().await;
    assert_eq!(
        tools["result"]["tools"].as_array().unwrap().len(),
        5,
        "{tools}"
    );

    // A wait longer than a few seconds is not cut short by the relay; the pin during it wakes it.
    stdio
        .send(modern(
            3,
            "tools/call",
            json!({ "name": "wait_for_focus", "arguments": { "timeout_s": 25 } }),
        ))
        .await;
    wait_for_waits(&hub, &agent.handle, 1).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(hub.hub.pin_waiters(&agent.handle), 1, "still waiting");
    let (status, pinned) = hub.pin(&grant, "Through stdio").await;
    assert_eq!(status, 200, "{pinned}");
    let woken = stdio.receive().await;
    assert_eq!(woken["id"], 3);
    let focus = &woken["result"]["structuredContent"]["focus"];
    assert_eq!(focus["id"], pinned["focus"]["id"]);

    stdio
        .send(modern(
            4,
            "tools/call",
            json!({ "name": "page__get_reading", "arguments": { "id": focus["id"] } }),
        ))
        .await;
    let read = stdio.receive().await;
    assert_eq!(
        read["result"]["structuredContent"]["reading"]["pointed"]["text"],
        "Through stdio"
    );
    drop(stdio.to_relay);
    stdio.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_cancelled_wait_ends_at_the_hub_and_leaves_the_next_pin_unread() {
    let hub = testkit::start_temp().await;
    let agent = hub.agent("default").await;
    let grant = hub.pair_agent(&agent).await;
    let mut stdio = relay_to(&hub).await;
    stdio
        .send(
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "test", "version": "1" } } }),
        )
        .await;
    assert_eq!(
        stdio.receive().await["result"]["protocolVersion"],
        "2025-11-25"
    );
    stdio
        .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .await;
    stdio
        .send(json!({ "jsonrpc": "2.0", "id": "w", "method": "tools/call",
            "params": { "name": "wait_for_focus", "arguments": { "timeout_s": 25 } } }))
        .await;
    wait_for_waits(&hub, &agent.handle, 1).await;
    stdio
        .send(
            json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": { "requestId": "w", "reason": "the person moved on" } }),
        )
        .await;
    // The hub's wait ends (its connection closed), long before its 25 s.
    wait_for_waits(&hub, &agent.handle, 0).await;
    let (status, pinned) = hub.pin(&grant, "After the cancel").await;
    assert_eq!(status, 200);
    stdio
        .send(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "wait_for_focus", "arguments": { "timeout_s": 5 } } }))
        .await;
    let next = stdio.receive().await;
    assert_eq!(next["id"], 2, "the cancelled wait sends no answer: {next}");
    let result = &next["result"]["structuredContent"];
    assert_eq!(result["timed_out"], false);
    assert_eq!(result["focus"]["id"], pinned["focus"]["id"]);
    // Closing stdin ends the relay, and any wait still open ends with it.
    stdio
        .send(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": { "name": "wait_for_focus", "arguments": { "timeout_s": 25 } } }))
        .await;
    wait_for_waits(&hub, &agent.handle, 1).await;
    drop(stdio.to_relay);
    stdio.task.await.unwrap().unwrap();
    wait_for_waits(&hub, &agent.handle, 0).await;
}
