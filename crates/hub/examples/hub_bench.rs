//! The hub's benchmark (`scripts/bench/hub.sh` runs it): a real `apc-hub` binary on loopback, driven
//! by raw Streamable HTTP MCP sessions (initialize, then `tools/call` answered over SSE) and by the
//! page app's endpoints, with a bounded load. Prints one markdown section: waiters and memory, wake
//! times, pins per second, the dock with many agents. Figures from one run; nothing here asserts.
//!
//! `hub_bench <apc-hub binary> [agents=1000] [sessions=1000]`; with `APC_BENCH_DOCK_ONLY=1` it measures
//! the dock page only.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use apc_hub::store::Store;
use apc_hub::testkit::{self, csrf, pair_grant as pair, EXT};
use serde_json::{json, Value};

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// A process's CPU time so far, in milliseconds: the sum of its threads' time on a CPU from
/// `/proc/<pid>/task/*/schedstat` (nanoseconds), else user + system from `/proc/<pid>/stat` (10 ms
/// ticks, too coarse for one wake of a few tens of milliseconds).
fn cpu_ms(pid: u32) -> f64 {
    let from_schedstat = std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()
        .map(|tasks| {
            tasks
                .flatten()
                .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
                .filter_map(|s| s.split_whitespace().next()?.parse::<f64>().ok())
                .sum::<f64>()
                / 1e6
        });
    match from_schedstat {
        Some(ms) if ms > 0.0 => ms,
        _ => cpu_ticks_ms(pid),
    }
}

/// User + system CPU time from `/proc/<pid>/stat`, in milliseconds (10 ms resolution).
fn cpu_ticks_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime is the 12th, stime the 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) * 1000.0 / USER_HZ
}

/// CLOCK_MONOTONIC now, in seconds (the clock `perf record -k CLOCK_MONOTONIC` stamps samples with).
fn monotonic_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the struct it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// Runs `$APC_BENCH_WAKE_HOOK start|end <hub pid>` around each wake of the many clients, when set:
/// e.g. a script calling `callgrind_control -i on|off` for a hub run under callgrind, whose
/// instruction counts compare builds where a busy machine's CPU times cannot.
fn wake_hook(phase: &str, pid: u32) {
    if let Some(hook) = std::env::var_os("APC_BENCH_WAKE_HOOK") {
        let _ = Command::new(hook).arg(phase).arg(pid.to_string()).status();
    }
}

/// The unit of `/proc/<pid>/stat`'s CPU times on Linux: 100 per second.
const USER_HZ: f64 = 100.0;
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn stats(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (
        percentile(&v, 0.5),
        percentile(&v, 0.95),
        *v.last().unwrap_or(&f64::NAN),
    )
}

struct Hub {
    child: Child,
    origin: String,
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(bin: &str, data: &Path) -> Hub {
    let (child, origin) = testkit::spawn(bin, data, &[], Stdio::inherit());
    Hub { child, origin }
}

/// One MCP session over raw Streamable HTTP.
struct Session {
    http: reqwest::Client,
    url: String,
    id: Option<String>,
}

/// Adds the session's id, when the server gave one.
fn with_session(req: reqwest::RequestBuilder, id: &Option<String>) -> reqwest::RequestBuilder {
    match id {
        Some(id) => req.header("mcp-session-id", id),
        None => req,
    }
}

/// The JSON-RPC result in an answer that is JSON or an SSE stream.
async fn rpc_result(res: reqwest::Response) -> Value {
    let mut res = res;
    let mut buf = String::new();
    while let Ok(Some(chunk)) = res.chunk().await {
        buf.push_str(&String::from_utf8_lossy(&chunk));
        for line in buf.lines() {
            if let Some(data) = line.strip_prefix("data:") {
                if let Ok(v) = serde_json::from_str::<Value>(data.trim()) {
                    if v.get("result").is_some() || v.get("error").is_some() {
                        return v;
                    }
                }
            }
        }
        if let Ok(v) = serde_json::from_str::<Value>(&buf) {
            return v;
        }
    }
    serde_json::from_str(&buf).unwrap_or(Value::Null)
}

impl Session {
    async fn open(http: &reqwest::Client, url: &str) -> Session {
        let res = http
            .post(url)
            .header("accept", "application/json, text/event-stream")
            .json(&json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}))
            .send()
            .await
            .expect("initialize");
        // A stateless server gives no session id; the calls then carry none.
        let id = res
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_owned());
        rpc_result(res).await;
        with_session(
            http.post(url)
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2025-06-18"),
            &id,
        )
        .json(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}))
        .send()
        .await
        .expect("initialized");
        Session {
            http: http.clone(),
            url: url.to_owned(),
            id,
        }
    }

    async fn call(&self, tool: &str, args: Value) -> Value {
        let res = with_session(
            self.http
                .post(&self.url)
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2025-06-18"),
            &self.id,
        )
        .json(&json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":tool,"arguments":args}}))
            .send()
            .await
            .expect("tools/call");
        rpc_result(res).await["result"]["structuredContent"].clone()
    }

    async fn close(&self) {
        if self.id.is_some() {
            let _ = with_session(self.http.delete(&self.url), &self.id)
                .send()
                .await;
        }
    }
}

struct Agent {
    mcp_url: String,
    grant: String,
}

fn reading(n: usize) -> Value {
    let mut reading = testkit::reading(&format!("pin {n}"));
    reading["title"] = json!("A");
    reading["url"] = json!("https://example.com/a");
    reading["context"] =
        json!({ "headings": ["H"], "before": "before ".repeat(40), "after": "after ".repeat(40) });
    json!({ "reading": reading })
}

async fn pin(http: &reqwest::Client, origin: &str, grant: &str, n: usize) -> bool {
    http.put(format!("{origin}/page/pin"))
        .header("origin", EXT)
        .bearer_auth(grant)
        .json(&reading(n))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
}

/// Waits until the hub's RSS stops moving (or 3 s), then reads it.
async fn settled_rss(pid: u32) -> u64 {
    let mut last = rss_kib(pid);
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = rss_kib(pid);
        if now.abs_diff(last) < 256 {
            return now;
        }
        last = now;
    }
    last
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// Prints the markdown section: the measures, then the goals with this run's figures.
fn report(bin: &str, rows: Vec<(String, String)>, goals: Vec<(&str, String, bool)>) {
    println!("## Hub (apc-hub)\n");
    println!("Loopback, one run: a real `apc-hub` (`{}`), raw Streamable HTTP MCP clients as agents (one connection each). Goals (issue 10): 1,000 waiting agents < 64 MiB RSS and wake p95 ≤ 10 ms; 1,000 sessions (clients) of one agent woken p95 ≤ 100 ms; memory returns after they close; ≥ 2,000 pins/s for one pairing; the dock with 1,000 agents < 100 ms.\n", Path::new(bin).file_name().unwrap().to_string_lossy());
    println!("| measure | value |");
    println!("|---|---|");
    for (k, v) in rows {
        println!("| {k} | {v} |");
    }
    println!();
    println!("| goal (issue 10) | this run | met? |");
    println!("|---|---|---|");
    for (goal, value, met) in goals {
        let met = if met { "met" } else { "**not met**" };
        println!("| {goal} | {value} | {met} |");
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = args
        .get(1)
        .expect("usage: hub_bench <apc-hub> [agents] [sessions]");
    let n_agents: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1000);
    let n_sessions: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1000);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    {
        let store = Store::open(&data).unwrap();
        for i in 0..n_agents {
            store
                .add_agent(&format!("agent{i}"), "2026-11-30T00:00:00.000Z")
                .unwrap();
        }
    }
    let hub = start(bin, &data);
    let pid = hub.child.id();
    let origin = hub.origin.clone();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .build()
        .unwrap();
    let mut rows: Vec<(String, String)> = Vec::new();
    // Issue 10's goals, each with this run's figure and whether it is met.
    let mut goals: Vec<(&str, String, bool)> = Vec::new();
    let idle_kib = settled_rss(pid).await;
    rows.push(("Hub RSS, idle".into(), mib(idle_kib)));

    // The dock with every agent: time to serve, and its size.
    let mut dock_ms = Vec::new();
    let mut html = String::new();
    for _ in 0..20 {
        let t = Instant::now();
        html = testkit::get_text(&http, &format!("{origin}/")).await;
        dock_ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let (p50, p95, _) = stats(dock_ms);
    goals.push((
        "the dock with 1,000 agents served in < 100 ms (p95)",
        format!("{p95:.1} ms"),
        p95 < 100.0,
    ));
    rows.push((
        format!("Dock page, {n_agents} agents (GET /)"),
        format!(
            "p50 {p50:.1} ms, p95 {p95:.1} ms, {} KiB",
            html.len() / 1024
        ),
    ));
    // `APC_BENCH_DOCK_ONLY=1`: the dock's figures alone, in seconds instead of minutes.
    if std::env::var_os("APC_BENCH_DOCK_ONLY").is_some_and(|v| v == "1") {
        report(bin, rows, goals);
        return;
    }
    let token = csrf(&html);

    // Every agent paired, each with one MCP session waiting.
    let listed = Command::new(bin)
        .args(["agent", "list", "--json", "--data-dir"])
        .arg(&data)
        .args(["--listen", origin.trim_start_matches("http://")])
        .output()
        .unwrap();
    let listed: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let mut agents = Vec::new();
    for a in listed.iter().filter(|a| a["name"] != "default") {
        let handle = a["handle"].as_str().unwrap().to_owned();
        let grant = pair(&http, &origin, &token, &handle).await;
        agents.push(Arc::new(Agent {
            mcp_url: a["mcp_url"].as_str().unwrap().to_owned(),
            grant,
        }));
    }
    let mut sessions = Vec::new();
    for a in &agents {
        sessions.push(Arc::new(Session::open(&http, &a.mcp_url).await));
    }
    rows.push((
        format!(
            "Hub RSS, {} agents, each with an initialized MCP client",
            agents.len()
        ),
        mib(settled_rss(pid).await),
    ));
    let started = Instant::now();
    let mut waits = Vec::new();
    for s in &sessions {
        let s = s.clone();
        waits.push(tokio::spawn(async move {
            let got = s.call("wait_for_focus", json!({ "timeout_s": 25 })).await;
            (Instant::now(), got)
        }));
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let waiting_kib = rss_kib(pid);
    goals.push((
        "1,000 waiting agents in < 64 MiB RSS",
        mib(waiting_kib),
        waiting_kib < 64 * 1024,
    ));
    rows.push((
        format!("Hub RSS, {} agents each waiting", agents.len()),
        mib(waiting_kib),
    ));
    // Wake each waiting agent in turn: the time from the pin's acknowledgement to its wait's answer.
    let sample = agents.len().min(200);
    let mut wake_ms = Vec::new();
    let mut waits = waits.into_iter();
    for (i, a) in agents.iter().take(sample).enumerate() {
        let wait = waits.next().unwrap();
        let t = Instant::now();
        pin(&http, &origin, &a.grant, i).await;
        let (answered, got) = wait.await.unwrap();
        if got["timed_out"] == false {
            wake_ms.push(answered.saturating_duration_since(t).as_secs_f64() * 1000.0);
        }
    }
    let (p50, p95, max) = stats(wake_ms.clone());
    goals.push((
        "one of 1,000 waiting agents woken in ≤ 10 ms (p95)",
        format!("{p95:.1} ms"),
        p95 <= 10.0,
    ));
    rows.push((
        format!(
            "Wake, 1 of {} waiting agents (pin sent → wait answered)",
            agents.len()
        ),
        format!(
            "p50 {p50:.1} ms, p95 {p95:.1} ms, max {max:.1} ms ({} of {sample} woken)",
            wake_ms.len()
        ),
    ));
    let _ = started;
    for s in &sessions {
        s.close().await;
    }
    for w in waits {
        w.abort();
    }
    drop(sessions);

    // One agent with many sessions, all waiting: how long until each is woken by one pin.
    // Their own HTTP client, so that dropping it closes their connections (a stateless MCP client
    // is gone when its connection is).
    let one = agents[0].clone();
    let many_http = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .build()
        .unwrap();
    let mut many = Vec::new();
    for _ in 0..n_sessions {
        many.push(Arc::new(Session::open(&many_http, &one.mcp_url).await));
    }
    let mut waiting_rss = 0;
    let mut client_cpu = Vec::new();
    let mut rounds = Vec::new();
    let mut last_ms = Vec::new();
    let mut fanout_cpu = Vec::new();
    // More rounds for profiling (`APC_BENCH_ROUNDS`); the bench's figures are from 3.
    let n_rounds: usize = std::env::var("APC_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for round in 0..n_rounds {
        let mut waits = Vec::new();
        for s in &many {
            let s = s.clone();
            waits.push(tokio::spawn(async move {
                let got = s.call("wait_for_focus", json!({ "timeout_s": 25 })).await;
                (Instant::now(), got)
            }));
        }
        tokio::time::sleep(Duration::from_secs(3)).await;
        waiting_rss = waiting_rss.max(rss_kib(pid));
        wake_hook("start", pid);
        let client_before = cpu_ms(std::process::id());
        let cpu_before = cpu_ms(pid);
        let t = Instant::now();
        pin(&http, &origin, &one.grant, 10_000 + round).await;
        let mut times = Vec::new();
        for w in waits {
            let (answered, got) = w.await.unwrap();
            if got["timed_out"] == false {
                times.push(answered.saturating_duration_since(t).as_secs_f64() * 1000.0);
            }
        }
        wake_hook("end", pid);
        let (_, _, max) = stats(times.clone());
        if std::env::var_os("APC_BENCH_ROUNDS").is_some() {
            // For `perf record -k CLOCK_MONOTONIC`: the window of this round's wake.
            let at = monotonic_s() - t.elapsed().as_secs_f64();
            eprintln!("wake window {at:.3} {:.3}", at + max / 1000.0);
        }
        last_ms.push(max);
        fanout_cpu.push(cpu_ms(pid) - cpu_before);
        client_cpu.push(cpu_ms(std::process::id()) - client_before);
        if std::env::var_os("APC_BENCH_ROUNDS").is_some() {
            // Each round's figures, for comparing builds on a busy machine (the least loaded round).
            let (p50, p95, _) = stats(times.clone());
            eprintln!(
                "round {round}: p50 {p50:.1} p95 {p95:.1} last {max:.1} ms, hub cpu {:.1} ms, clients cpu {:.1} ms",
                fanout_cpu[round],
                client_cpu[round]
            );
        }
        rounds.extend(times);
    }
    rows.push((
        format!("Hub RSS, 1 agent with {n_sessions} clients waiting (most of the rounds)"),
        mib(waiting_rss),
    ));
    let woken = rounds.len();
    let (p50, p95, _) = stats(rounds);
    goals.push((
        "one agent's 1,000 clients woken by one pin in ≤ 100 ms (p95)",
        format!("{p95:.1} ms"),
        p95 <= 100.0,
    ));
    let (_, _, worst_last) = stats(last_ms);
    rows.push((
        format!("Wake, 1 agent's {n_sessions} waiting clients, one pin ({n_rounds} rounds)"),
        format!("p50 {p50:.1} ms, p95 {p95:.1} ms, last woken ≤ {worst_last:.1} ms ({woken} of {} woken)", n_rounds * n_sessions),
    ));
    let (cpu50, _, _) = stats(fanout_cpu);
    let (client50, _, _) = stats(client_cpu);
    rows.push((
        format!("Hub CPU for one pin waking {n_sessions} clients"),
        format!("{cpu50:.0} ms (median of {n_rounds}; the bench's {n_sessions} clients took {client50:.0} ms of the same 2 cores)"),
    ));
    // The hub hands freed memory back every 10 s.
    tokio::time::sleep(Duration::from_secs(11)).await;
    rows.push((
        format!("Hub RSS, {n_sessions} idle keep-alive connections, 11 s after their last answer"),
        mib(settled_rss(pid).await),
    ));
    for s in &many {
        s.close().await;
    }
    drop(many);
    drop(many_http);
    tokio::time::sleep(Duration::from_secs(11)).await;
    let closed_kib = settled_rss(pid).await;
    // "Returns" read as: back within 16 MiB of the idle hub once the clients are gone.
    goals.push((
        "memory returns after the clients close (within 16 MiB of idle)",
        format!("{} (idle {})", mib(closed_kib), mib(idle_kib)),
        closed_kib <= idle_kib + 16 * 1024,
    ));
    rows.push((
        "Hub RSS, 11 s after those clients closed their connections".into(),
        mib(closed_kib),
    ));

    // Sustained pins for one pairing: 8 pins in flight at a time for 3 s.
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let until = Instant::now() + Duration::from_secs(3);
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let (http, origin, grant, done) = (
            http.clone(),
            origin.clone(),
            one.grant.clone(),
            done.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut n = worker * 1_000_000;
            while Instant::now() < until {
                if pin(&http, &origin, &grant, n).await {
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                n += 1;
            }
        }));
    }
    let t = Instant::now();
    for task in tasks {
        task.await.unwrap();
    }
    let pins = done.load(std::sync::atomic::Ordering::Relaxed);
    let per_s = pins as f64 / t.elapsed().as_secs_f64();
    goals.push((
        "≥ 2,000 pins/s for one pairing, acknowledged",
        format!("{per_s:.0}/s"),
        per_s >= 2000.0,
    ));
    rows.push((
        "Pins per second, one pairing (8 in flight, acknowledged)".into(),
        format!(
            "{:.0}/s ({pins} in {:.1} s)",
            pins as f64 / t.elapsed().as_secs_f64(),
            t.elapsed().as_secs_f64()
        ),
    ));
    rows.push(("Hub RSS, at the end".into(), mib(rss_kib(pid))));

    report(bin, rows, goals);
    drop(hub);
}
