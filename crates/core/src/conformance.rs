//! The standard's exported functions by their JavaScript names, taking and giving JSON as the
//! reference does, so this crate can be diffed against the reference JavaScript on the same cases.
//! `call` is one call; `run_line` is one line of the runner (`examples/conformance.rs`).
//!
//! The committed cases are `tests/conformance/cases.jsonl` and what the reference answered,
//! `tests/conformance/expected.jsonl`; `tests/conformance.rs` checks them without the reference.
//! To diff live against the reference (it stays outside this repository), from the repository root:
//!
//! ```text
//! C=crates/core/tests/conformance
//! node $C/gen_cases.mjs > $C/cases.jsonl              # only when the cases change
//! node ../shared/tools/apc-oracle/oracle.mjs < $C/cases.jsonl > /tmp/want.jsonl
//! cargo run -q -p apc-core --example conformance < $C/cases.jsonl > /tmp/got.jsonl
//! N='del(.out.detail?) | if has("throws") then {throws: true} else . end'
//! diff <(jq -c "$N" /tmp/want.jsonl) <(jq -c "$N" /tmp/got.jsonl)   # empty when we agree
//! cp /tmp/want.jsonl $C/expected.jsonl                # then commit both files
//! ```
//!
//! Where the reference throws (a `TypeError` on `null`), the runner answers `{"throws": …}` too;
//! only the fact that it threw is compared, like `detail`, whose wording is ours.

use serde_json::{json, Map, Value};

use crate::{core_rules, js, manifest, target};

/// Why a call gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The reference would throw here (a `TypeError` on its input).
    #[error("{0}")]
    Throws(String),
    #[error("unknown function {0}")]
    UnknownFn(String),
}

fn throws(what: &str) -> CallError {
    CallError::Throws(format!("TypeError: {what}"))
}

/// Calls the function the reference exports as `name` with JSON `args` (missing ones are
/// `undefined`), and gives what it returns as JSON.
pub fn call(name: &str, args: &[Value]) -> Result<Value, CallError> {
    let arg = |i: usize| args.get(i);
    let non_null = |i: usize| arg(i).filter(|v| !v.is_null());
    let out = match name {
        "parseParams" => to_json(target::parse_params(arg(0).unwrap_or(&Value::Null))),
        "parseTarget" => {
            let raw = non_null(0).ok_or_else(|| throws("cannot read properties of raw"))?;
            to_json(target::parse_target(raw))
        }
        "canonicalTarget" => {
            let t = non_null(0).ok_or_else(|| throws("cannot read properties of target"))?;
            Value::String(target::canonical_target_json(t))
        }
        "focusAttrs" => {
            let t = non_null(0).ok_or_else(|| throws("cannot read properties of target"))?;
            let field = |k: &str| t.as_object().and_then(|m| m.get(k));
            if js::to_string_throws(field("kind")) || js::to_string_throws(field("id")) {
                return Err(throws("cannot convert object to primitive value"));
            }
            Value::Object(target::focus_attrs_json(t))
        }
        "parseFocusAttrs" => match arg(0) {
            f if !js::truthy(f) => Value::Null,
            Some(Value::String(focus)) => {
                to_json(target::parse_focus_attrs_json(focus, arg(1), arg(2)))
            }
            Some(Value::Array(_)) => Value::Null,
            _ => return Err(throws("focus.indexOf is not a function")),
        },
        "urlOnOrigin" => to_json(manifest::url_on_origin_json(
            arg(0),
            arg(1).and_then(Value::as_str),
        )),
        "compareStandard" => match (arg(0), arg(1)) {
            (Some(Value::String(a)), Some(Value::String(b))) => {
                js::number_value(manifest::compare_standard(a, b))
            }
            _ => return Err(throws("split is not a function")),
        },
        "parseApcManifest" => {
            let raw = arg(0).unwrap_or(&Value::Null);
            match manifest::parse_apc_manifest_from(raw, arg(1).and_then(Value::as_str)) {
                // The reference writes the origin it was given into the detail (`${origin}`).
                Err(manifest::ManifestError::WrongOrigin { .. })
                    if js::to_string_throws(arg(1)) =>
                {
                    return Err(throws("cannot convert object to primitive value"))
                }
                Ok(m) => json!({ "ok": true, "manifest": m }),
                Err(e) => json!({ "ok": false, "error": e.code(), "detail": e.to_string() }),
            }
        }
        "declaresMcpUrl" => declares_mcp_url(arg(0), arg(1))?,
        "directOnlyNote" | "couldNotCheckNote" | "revokedAnswer"
            if js::to_string_throws(arg(0)) =>
        {
            return Err(throws("cannot convert object to primitive value"))
        }
        "directOnlyNote" => Value::String(manifest::direct_only_note(&js::to_string(arg(0)))),
        "couldNotCheckNote" => {
            Value::String(manifest::could_not_check_note(&js::to_string(arg(0))))
        }
        "revokedAnswer" => {
            let answer = core_rules::revoked_answer(&js::to_string(arg(0)), &js::to_string(arg(1)));
            let mut out = Map::new();
            out.insert("error".into(), answer.error.into());
            // The reference echoes both arguments as given; `undefined` leaves the key out.
            if let Some(host) = arg(0) {
                out.insert("revoked_by".into(), host.clone());
            }
            if let Some(at) = arg(1) {
                out.insert("revoked_at".into(), at.clone());
            }
            out.insert("message".into(), answer.message.into());
            Value::Object(out)
        }
        "isRevokedAnswer" => Value::Bool(core_rules::is_revoked_answer(
            arg(0).unwrap_or(&Value::Null),
        )),
        "oppositePath" => {
            let word = arg(0).and_then(Value::as_str).unwrap_or("");
            Value::String(core_rules::opposite_path_word(word).into())
        }
        other => return Err(CallError::UnknownFn(other.into())),
    };
    Ok(out)
}

/// `declaresMcpUrl` over JSON, in the reference's order: the URL is parsed first (a string, or
/// what `String(value)` gives), then the manifest's origin and path are read.
fn declares_mcp_url(manifest: Option<&Value>, mcp_url: Option<&Value>) -> Result<Value, CallError> {
    // `new URL(value)` converts first; a conversion that throws is caught like a bad URL.
    if js::to_string_throws(mcp_url) {
        return Ok(Value::Bool(false));
    }
    let sent = js::to_string(mcp_url);
    let Some(url) = crate::url_parse::new_url(&sent) else {
        return Ok(Value::Bool(false));
    };
    let m = manifest
        .filter(|m| !m.is_null())
        .ok_or_else(|| throws("cannot read properties of manifest"))?;
    let field = |k: &str| m.as_object().and_then(|o| o.get(k));
    let origin = field("origin").and_then(Value::as_str);
    if manifest::url_on_origin_json(Some(&Value::String(url.as_str().into())), origin).is_none() {
        return Ok(Value::Bool(false));
    }
    let mcp = field("mcp")
        .filter(|v| !v.is_null())
        .ok_or_else(|| throws("cannot read properties of mcp"))?;
    // `mcp.path` as the reference reads it: `startsWith` converts it to a string, `.length` is a
    // string's UTF-16 length, an array's length, or undefined (then the comparison is false and
    // `slice` takes the whole path).
    let raw_path = mcp.as_object().and_then(|o| o.get("path"));
    // `startsWith(path)` converts it first; an object with its own `toString` key throws there.
    if js::to_string_throws(raw_path) {
        return Err(throws("cannot convert mcp.path to a string"));
    }
    let path = js::to_string(raw_path);
    let path_len = match raw_path {
        Some(Value::String(s)) => Some(js::utf16_len(s)),
        Some(Value::Array(items)) => Some(items.len()),
        _ => None,
    };
    let pathname = url.path();
    if !pathname.starts_with(&path) || path_len.is_some_and(|l| pathname.len() <= l) {
        return Ok(Value::Bool(false));
    }
    if !matches!(mcp_url, Some(Value::String(_))) {
        return Err(throws("mcpUrl.split is not a function"));
    }
    if matches!(raw_path, Some(Value::String(_))) {
        return Ok(Value::Bool(manifest::declares_mcp_url_on(
            origin.unwrap_or_default(),
            &path,
            &sent,
        )));
    }
    // A path that is no string (never in a manifest `parse_apc_manifest` accepts): the
    // reference's remaining checks on what follows it. `pathname` is ASCII.
    let rest = pathname.get(path_len.unwrap_or(0)..).unwrap_or_default();
    let encoded = |s: &str| {
        let lower = s.to_ascii_lowercase();
        ["%2f", "%5c", "%2e", "%25"]
            .iter()
            .any(|e| lower.contains(e))
    };
    let sent_path = sent.split(['?', '#']).next().unwrap_or_default();
    Ok(Value::Bool(
        !encoded(rest)
            && !encoded(sent_path)
            && !rest.contains('\\')
            && !rest.split('/').any(|s| s == "." || s == ".."),
    ))
}

fn to_json<T: serde::Serialize>(v: Option<T>) -> Value {
    v.and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or(Value::Null)
}

/// One line of the runner: `{"fn": name, "args": [...]}` in, `{"out": …}`, `{"throws": …}` or
/// `{"error": …}` out, written as the reference's `JSON.stringify` writes it. A blank line gives
/// nothing (the reference skips it too).
pub fn run_line(line: &str) -> Option<String> {
    if js::trim(line).is_empty() {
        return None;
    }
    let answer = match serde_json::from_str::<Value>(line) {
        Err(e) => json!({ "error": format!("not JSON: {e}") }),
        Ok(v) => match (v.get("fn").and_then(Value::as_str), v.get("args")) {
            (Some(name), args) => {
                let args = match args {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(a)) => a.clone(),
                    Some(_) => {
                        return Some(js::stringify(&json!({ "error": "args is not a list" })))
                    }
                };
                match call(name, &args) {
                    Ok(out) => json!({ "out": out }),
                    Err(CallError::Throws(msg)) => json!({ "throws": msg }),
                    Err(e) => json!({ "error": e.to_string() }),
                }
            }
            _ => json!({ "error": "a case is {\"fn\": name, \"args\": [...]}" }),
        },
    };
    Some(js::stringify(&answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatches_and_never_panics() {
        let out = run_line(r#"{"fn":"parseTarget","args":[{"kind":"customer","id":"cus_1"}]}"#);
        assert_eq!(
            out.as_deref(),
            Some(r#"{"out":{"kind":"customer","id":"cus_1","part":null,"params":null}}"#)
        );
        assert!(run_line(r#"{"fn":"nope","args":[]}"#)
            .unwrap()
            .starts_with(r#"{"error""#));
        assert!(run_line("{not json").unwrap().starts_with(r#"{"error""#));
        assert!(run_line(r#"{"fn":"parseTarget","args":[null]}"#)
            .unwrap()
            .starts_with(r#"{"throws""#));
        assert_eq!(run_line("  "), None);
    }

    /// `compareStandard` gives NaN as JSON null, like `JSON.stringify(NaN)`.
    #[test]
    fn nan_is_null() {
        assert_eq!(
            call("compareStandard", &[json!("a.0.0"), json!("0.0.0")]),
            Ok(Value::Null)
        );
    }
}
