//! The standard targets on or around the pointed text: `data-focus` (with `data-focus-part` and
//! `data-focus-params`) read with the standard's grammar, invalid ones dropped (never guessed),
//! deduplicated by their canonical string, at most [`MAX_TARGETS`].

use std::collections::HashSet;

use apc_core::FocusTarget;

use crate::observation::Node;

/// Most targets a reading carries.
pub const MAX_TARGETS: usize = 20;

/// Reads the targets of `elements` (in the order given, nearest first), dropping invalid ones and
/// repeats, keeping at most [`MAX_TARGETS`].
pub(crate) fn targets<'a>(elements: impl IntoIterator<Item = &'a Node>) -> Vec<FocusTarget> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for node in elements {
        let Some(focus) = node.attr("data-focus") else {
            continue;
        };
        let Some(target) = grammar::parse_focus_attrs(
            Some(focus),
            node.attr("data-focus-part"),
            node.attr("data-focus-params"),
        ) else {
            continue;
        };
        if seen.insert(grammar::canonical_target(&target)) {
            out.push(target);
            if out.len() == MAX_TARGETS {
                break;
            }
        }
    }
    out
}

/// The standard's grammar. apc-core owns it (`parse_focus_attrs`, `canonical_target`).
///
/// SWITCH: apc-core's `target` module is being written right now and is not exported yet; until it
/// is, this is a private stand-in with the same signatures, ported from the standard's
/// `dist/target.js`. Replace the body of this module with
/// `pub(super) use apc_core::{canonical_target, parse_focus_attrs};` as soon as it lands.
mod grammar {
    use apc_core::{FocusParams, FocusTarget, KeyValue};
    use serde_json::Value;

    const PARAMS_MAX_BYTES: usize = 1024;

    fn is_kind(s: &str) -> bool {
        let b = s.as_bytes();
        (1..=32).contains(&b.len())
            && b[0].is_ascii_lowercase()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
    }
    fn is_id(s: &str) -> bool {
        (1..=80).contains(&s.len())
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-'))
    }
    fn is_token_chars(s: &str) -> bool {
        (1..=80).contains(&s.len())
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'|' | b'-'))
    }
    fn is_part(s: &str) -> bool {
        match s.split_once(':') {
            None => is_kind(s),
            Some((h, t)) => is_kind(h) && is_token_chars(t),
        }
    }
    fn is_number(s: &str) -> bool {
        let s = s.strip_prefix(['-', '+']).unwrap_or(s);
        let (i, f) = match s.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (s, None),
        };
        let digits = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit());
        digits(i) && f.is_none_or(digits)
    }
    fn is_token(v: &Value) -> Option<String> {
        let s = v.as_str()?;
        (is_token_chars(s) && !is_number(s)).then(|| s.to_owned())
    }
    fn parse_params(raw: &Value) -> Option<FocusParams> {
        let obj = raw.as_object()?;
        let mut out = FocusParams::new();
        for (k, v) in obj {
            if !is_kind(k) {
                return None;
            }
            let value = match v {
                Value::Array(items) => {
                    if items.is_empty() || items.len() > 20 {
                        return None;
                    }
                    KeyValue::Many(items.iter().map(is_token).collect::<Option<_>>()?)
                }
                other => KeyValue::One(is_token(other)?),
            };
            out.insert(k.clone(), value);
        }
        (serde_json::to_string(&out).ok()?.len() <= PARAMS_MAX_BYTES).then_some(out)
    }

    pub(super) fn parse_focus_attrs(
        focus: Option<&str>,
        part: Option<&str>,
        params: Option<&str>,
    ) -> Option<FocusTarget> {
        let focus = focus.filter(|f| !f.is_empty())?;
        let colon = focus.find(':').filter(|&i| i >= 1)?;
        let (kind, id) = (&focus[..colon], &focus[colon + 1..]);
        if !is_kind(kind) {
            return None;
        }
        let id = if id.is_empty() { None } else { Some(id) };
        if id.is_some_and(|id| !is_id(id)) {
            return None;
        }
        let part = part.filter(|p| !p.is_empty());
        if part.is_some_and(|p| !is_part(p)) {
            return None;
        }
        let params = match params.filter(|p| !p.is_empty()) {
            None => None,
            Some(text) => {
                let v: Value = serde_json::from_str(text).ok()?;
                if v.is_null() {
                    None
                } else {
                    Some(parse_params(&v)?)
                }
            }
        };
        if id.is_none() && params.is_none() {
            return None;
        }
        Some(FocusTarget {
            kind: kind.to_owned(),
            id: id.map(str::to_owned),
            part: part.map(str::to_owned),
            params,
        })
    }

    pub(super) fn canonical_target(t: &FocusTarget) -> String {
        let params = t.params.as_ref().map(|p| {
            let mut sorted: Vec<_> = p.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(b.0));
            sorted
                .into_iter()
                .map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or(Value::Null)))
                .collect::<serde_json::Map<_, _>>()
        });
        serde_json::to_string(&(&t.kind, &t.id, &t.part, params)).unwrap_or_default()
    }
}
