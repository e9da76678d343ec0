//! The `apc-hub` binary as a person runs it: it holds what it acknowledged through `kill -9`, and it
//! refuses to listen beyond loopback unless told to, with a dock password.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use apc_hub::testkit::{self, EXT};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn hub_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_apc-hub"))
}

/// Starts the hub and reads the origin from its first line of stdout.
fn spawn(data_dir: &Path, extra: &[&str]) -> (Child, String) {
    testkit::spawn(
        env!("CARGO_BIN_EXE_apc-hub"),
        data_dir,
        extra,
        Stdio::null(),
    )
}

fn agent_handle(data_dir: &Path, name: &str) -> String {
    let out = hub_bin()
        .args(["agent", "list", "--json", "--data-dir"])
        .arg(data_dir)
        .output()
        .unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap()["handle"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn pair(http: &reqwest::Client, origin: &str, agent: &str) -> String {
    let csrf = testkit::dock_csrf(http, origin).await;
    testkit::pair_grant(http, origin, &csrf, agent).await
}

fn reading(n: usize) -> Value {
    json!({ "reading": testkit::reading(&format!("pin {n}")) })
}

async fn grant_state(http: &reqwest::Client, origin: &str, grant: &str) -> (StatusCode, Value) {
    let res = http
        .get(format!("{origin}/page/grant"))
        .header("origin", EXT)
        .bearer_auth(grant)
        .send()
        .await
        .unwrap();
    (res.status(), res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_a_stream_of_pins_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let http = reqwest::Client::new();
    let mut pairings: Vec<(String, Option<String>)> = Vec::new();
    for round in 0..20usize {
        let name = format!("agent{round}");
        assert!(hub_bin()
            .args(["agent", "add", &name, "--data-dir"])
            .arg(&data)
            .stdout(Stdio::null())
            .status()
            .unwrap()
            .success());
        let handle = agent_handle(&data, &name);
        let (mut child, origin) = spawn(&data, &[]);
        let grant = pair(&http, &origin, &handle).await;
        // Pins one after another until the hub is killed: each acknowledged one is remembered.
        let stream = {
            let (http, origin, grant) = (http.clone(), origin.clone(), grant.clone());
            tokio::spawn(async move {
                let mut acked = Vec::new();
                for n in 0.. {
                    let res = http
                        .put(format!("{origin}/page/pin"))
                        .header("origin", EXT)
                        .bearer_auth(&grant)
                        .json(&reading(n))
                        .send()
                        .await;
                    match res {
                        Ok(res) if res.status() == StatusCode::OK => {
                            let body: Value = match res.json().await {
                                Ok(body) => body,
                                Err(_) => break,
                            };
                            acked.push(body["focus"]["id"].as_str().unwrap().to_owned());
                        }
                        _ => break,
                    }
                }
                acked
            })
        };
        tokio::time::sleep(Duration::from_millis(40 + 13 * round as u64)).await;
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let acked = stream.await.unwrap();
        pairings.push((grant, acked.last().cloned()));

        // After a restart, every pairing acknowledged so far stands, each with its last pin (or a
        // later one whose answer the kill cut off), never an older one.
        let (mut child, origin) = spawn(&data, &[]);
        for (i, (grant, last)) in pairings.iter_mut().enumerate() {
            let (status, state) = grant_state(&http, &origin, grant).await;
            assert_eq!(
                status,
                StatusCode::OK,
                "round {round}, pairing {i}: {state}"
            );
            let stored = state["pin"]["id"].as_str().map(str::to_owned);
            if i == round {
                if let Some(newest) = last.as_deref() {
                    let stored = stored.as_deref().expect("the pin is kept");
                    let older = &acked[..acked.len() - 1];
                    assert!(
                        stored == newest || !older.iter().any(|o| o == stored),
                        "round {round}: {stored} is older than {newest}"
                    );
                }
                // What this restart found is the pairing's pin from now on (the kill may have cut
                // off the answer to a later pin that was stored).
                *last = stored;
            } else {
                assert_eq!(&stored, last, "round {round}, pairing {i}");
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let pinned = pairings.iter().filter(|(_, last)| last.is_some()).count();
    assert!(
        pinned >= 10,
        "most rounds acknowledged pins before the kill ({pinned}/20)"
    );
}

#[test]
fn a_non_loopback_listen_is_refused_unless_allowed_with_a_dock_password() {
    let dir = tempfile::tempdir().unwrap();
    let out = hub_bin()
        .args(["--listen", "0.0.0.0:0", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--allow-remote"),
        "{out:?}"
    );
    let out = hub_bin()
        .args(["--listen", "0.0.0.0:0", "--allow-remote", "--data-dir"])
        .arg(dir.path())
        .env_remove("APC_HUB_DOCK_PASSWORD")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("password"),
        "{out:?}"
    );
}

#[tokio::test]
async fn a_remote_hubs_dock_asks_for_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = hub_bin();
    command
        .args([
            "--listen",
            "0.0.0.0:0",
            "--allow-remote",
            "--log",
            "warn",
            "--data-dir",
        ])
        .arg(dir.path())
        .env("APC_HUB_DOCK_PASSWORD", "correct horse battery")
        .stderr(Stdio::null());
    let (mut child, origin) = testkit::spawn_command(command);
    let http = reqwest::Client::new();
    for path in ["/", "/dock.js", "/dock/pairings", "/dock/connect?agent=x"] {
        let res = http.get(format!("{origin}{path}")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{path}");
        assert!(res.headers().contains_key("www-authenticate"));
        assert_eq!(
            res.json::<Value>().await.unwrap()["error"],
            "password_required"
        );
    }
    let res = http
        .get(format!("{origin}/"))
        .basic_auth("me", Some("wrong password!"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = http
        .get(format!("{origin}/"))
        .basic_auth("me", Some("correct horse battery"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("agent-mark"));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test]
async fn a_second_hub_on_the_same_data_refuses_and_status_tells_the_truth_after_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut first, origin) = spawn(&data, &[]);
    let second = hub_bin()
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(3), "{second:?}");
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("already serving"), "{said}");
    assert!(said.contains(&origin), "{said}");
    // The first is untouched.
    let res = reqwest::get(format!("{origin}/.well-known/apc.json"))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let status = |data: &Path| -> Value {
        let out = hub_bin()
            .args(["status", "--json", "--data-dir"])
            .arg(data)
            .env("HOME", dir.path())
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let running = status(&data);
    assert_eq!(running["running"]["origin"], origin);
    assert_eq!(running["running"]["answers"], true);
    // Killed, it leaves its run file behind; the lock went with it, and status says so.
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(data.join("hub.run.json").exists());
    let stopped = status(&data);
    assert_eq!(stopped["running"], Value::Null);
    let ids: Vec<_> = stopped["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.contains(&"not_running".to_owned()), "{ids:?}");
    // And a new hub starts on that data.
    let (mut again, _) = spawn(&data, &[]);
    again.kill().unwrap();
    again.wait().unwrap();
}

/// A launcher that stops the hub right after its first line (`apc-hub listening on …`) is heard:
/// SIGTERM then, forty times over two hubs at once, and each exits. The signal streams are made
/// before that line; made after it, a stop in between was caught and lost, and the hub ran on (a CI
/// run saw it; a loop of 1,600 such stops on two loaded cores lost 7 before the fix, none after).
#[cfg(unix)]
#[test]
fn a_stop_right_after_the_first_line_is_heard() {
    let stop_quickly = || {
        for _ in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let (mut child, _) = spawn(dir.path(), &[]);
            let pid = child.id() as i32;
            // SAFETY: kill sends a signal to the child this test started and still owns.
            assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
            // Waits for the exit itself, on a thread, for at most 10 s.
            let (exited, exit) = std::sync::mpsc::channel();
            let waiter = std::thread::spawn(move || exited.send(child.wait().unwrap()));
            let status = exit.recv_timeout(Duration::from_secs(10)).ok();
            if status.is_none() {
                // SAFETY: as above; the waiter reaps it.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            let _ = waiter.join();
            assert!(
                status.is_some_and(|s| s.success()),
                "the hub did not stop on SIGTERM within 10 s: {status:?}"
            );
        }
    };
    let other = std::thread::spawn(stop_quickly);
    stop_quickly();
    other.join().unwrap();
}
