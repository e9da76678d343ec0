//! Every committed conformance case (`tests/conformance/cases.jsonl`, written by `gen_cases.mjs`)
//! run through the library and compared with what the standard's reference JavaScript answered
//! (`expected.jsonl`), `detail` left out (its wording is ours) and a throw compared as a throw.
//! How to refresh `expected.jsonl` and diff live: the module doc of `apc_core::conformance`.

use serde_json::Value;

const CASES: &str = include_str!("conformance/cases.jsonl");
const EXPECTED: &str = include_str!("conformance/expected.jsonl");

/// Drops what may differ: `out.detail`, and the message of a throw.
fn normalize(mut v: Value) -> Value {
    if let Some(out) = v.get_mut("out").and_then(Value::as_object_mut) {
        out.shift_remove("detail");
    }
    if v.get("throws").is_some() {
        return serde_json::json!({ "throws": true });
    }
    v
}

#[test]
fn every_case_matches_the_reference() {
    let cases: Vec<&str> = CASES.lines().filter(|l| !l.trim().is_empty()).collect();
    let expected: Vec<&str> = EXPECTED.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(cases.len(), expected.len(), "one expected line per case");
    assert!(cases.len() >= 300, "a few hundred cases");
    let mut failures = Vec::new();
    for (case, want) in cases.iter().zip(&expected) {
        let got = apc_core::conformance::run_line(case).expect("a case line gives an answer");
        let got_v = normalize(serde_json::from_str(&got).expect("the runner writes JSON"));
        let want_v = normalize(serde_json::from_str(want).expect("expected.jsonl is JSON"));
        if got_v != want_v {
            failures.push(format!("case {case}\n want {want}\n  got {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The runner's own output is what `JSON.stringify` writes, byte for byte, wherever the
/// reference's answer holds no `detail` and no throw.
#[test]
fn answers_are_byte_identical_without_detail() {
    for (case, want) in CASES.lines().zip(EXPECTED.lines()) {
        if want.contains("\"detail\"") || want.contains("\"throws\"") {
            continue;
        }
        assert_eq!(
            apc_core::conformance::run_line(case).as_deref(),
            Some(want),
            "{case}"
        );
    }
}
