//! Reads an observation (JSON) on stdin and writes its reading (JSON) on stdout: the bridge the
//! browser tests (`tests/content/collect.test.mjs`) use to run what the content script collected
//! through the same Rust the extension's background runs.
//!
//! `cargo run -q -p apc-content --example reading [-- MADE_AT] < observation.json`
//! On a refusal it writes `{ "error": code, "message": text }` and exits with status 2.

use std::io::Read;

fn main() {
    let made_at = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "2026-01-01T00:00:00Z".to_owned());
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
