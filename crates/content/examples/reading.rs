//! Reads an observation (JSON) on stdin and writes its reading (JSON) on stdout: the bridge the
//! browser tests (`tests/content/collect.test.mjs`) use to run what the content script collected
//! through the same Rust the extension's background runs.
//!
//! `cargo run -q -p apc-content --example reading [-- MADE_AT] < observation.json`
//! On a refusal it writes `{ "error": code, "message": text }` and exits with status 2.
//!
//! `--batch` (used by `scripts/bench/reader.mjs`): one observation per input line, one answer per
//! output line, `{ "reading": …, "parse_us": n, "build_us": n }` or `{ "error": code, … }`, where
//! the times are `Observation::from_json` and `build_reading` measured here.

use std::io::{BufRead, Read, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let batch = args.iter().any(|a| a == "--batch");
    let made_at = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "2026-01-01T00:00:00Z".to_owned());
    if batch {
        run_batch(&made_at);
        return;
    }
    let mut raw = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut raw) {
        eprintln!("stdin: {e}");
        std::process::exit(1);
    }
    let result = apc_content::Observation::from_json(&raw)
        .and_then(|obs| apc_content::build_reading(&obs, &made_at));
    match result {
        Ok(reading) => println!(
            "{}",
            serde_json::to_string(&reading).expect("a reading serializes")
        ),
        Err(e) => {
            println!(
                "{}",
                serde_json::json!({ "error": e.code(), "message": e.to_string() })
            );
            std::process::exit(2);
        }
    }
}

fn run_batch(made_at: &str) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let t0 = Instant::now();
        let parsed = apc_content::Observation::from_json(&line);
        let parse_us = t0.elapsed().as_micros();
        let answer = match parsed {
            Ok(obs) => {
                let t1 = Instant::now();
                let built = apc_content::build_reading(&obs, made_at);
                let build_us = t1.elapsed().as_micros();
                match built {
                    Ok(reading) => serde_json::json!({
                        "reading": reading, "parse_us": parse_us, "build_us": build_us,
                    }),
                    Err(e) => serde_json::json!({ "error": e.code(), "message": e.to_string() }),
                }
            }
            Err(e) => serde_json::json!({ "error": e.code(), "message": e.to_string() }),
        };
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
