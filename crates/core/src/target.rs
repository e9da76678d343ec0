//! The focus grammar (APC 0.1.0, "Target and focus"): what a target may name (`kind`, `id`,
//! `part`, key-only `params`), its one canonical string, and the three DOM attributes a pointable
//! element carries. Inputs that come from a page or the wire are `serde_json::Value`s: anything
//! malformed is `None`, never a panic.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::js;
use crate::types::{FocusParams, FocusTarget, KeyValue};

/// The part grammar (`PART_RE`), as a pattern; `is_part` checks it.
pub const PART_RE: &str = r"^[a-z][a-z0-9_]{0,31}(:[A-Za-z0-9_.|:-]{1,80})?$";
/// The most bytes the compact JSON of a target's params may take.
pub const PARAMS_MAX_BYTES: usize = 1024;
/// The most tokens in one param's list.
pub const PARAM_LIST_MAX: usize = 20;

fn all_of(s: &str, min: usize, max: usize, ok: impl Fn(u8) -> bool) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(ok)
}

/// `[a-z][a-z0-9_]{0,31}`: a kind, a param key, and the head of a part.
pub fn is_kind(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && all_of(s, 1, 32, |b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'
        })
}

/// A param key follows the kind grammar.
pub fn is_param_key(s: &str) -> bool {
    is_kind(s)
}

/// `[A-Za-z0-9_.:-]{1,80}`: a row id.
pub fn is_id(s: &str) -> bool {
    all_of(s, 1, 80, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-')
    })
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'|' | b'-')
}

/// `PART_RE`: a kind-like head, then optionally `:` and 1 to 80 token characters.
pub fn is_part(s: &str) -> bool {
    match s.split_once(':') {
        None => is_kind(s),
        Some((head, tail)) => is_kind(head) && all_of(tail, 1, 80, is_token_char),
    }
}

/// A bare number (`[-+]?\d+(\.\d+)?`): an amount, never a key.
pub fn is_bare_number(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (int, frac) = match s.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (s, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    digits(int) && frac.is_none_or(digits)
}

/// A param value token: 1 to 80 of `[A-Za-z0-9_.:|-]`, and not a bare number (months pass).
pub fn is_token(s: &str) -> bool {
    all_of(s, 1, 80, is_token_char) && !is_bare_number(s)
}

fn token(v: &Value) -> Option<String> {
    v.as_str().filter(|s| is_token(s)).map(str::to_owned)
}

/// Key-only params: an object of string tokens or lists of 1 to 20 of them, at most
/// `PARAMS_MAX_BYTES` of compact JSON. `None` for null, and for anything else that is wrong.
pub fn parse_params(raw: &Value) -> Option<FocusParams> {
    let map = raw.as_object()?;
    let mut out = FocusParams::new();
    for key in js::own_keys(map) {
        if !is_param_key(key) {
            return None;
        }
        let value = match &map[key] {
            Value::Array(items) => {
                if items.is_empty() || items.len() > PARAM_LIST_MAX {
                    return None;
                }
                KeyValue::Many(items.iter().map(token).collect::<Option<_>>()?)
            }
            other => KeyValue::One(token(other)?),
        };
        out.insert(key.clone(), value);
    }
    let bytes = serde_json::to_string(&out).ok()?.len();
    (bytes <= PARAMS_MAX_BYTES).then_some(out)
}

/// `null`, `undefined` or `""`: an absent id or part.
fn absent(v: Option<&Value>) -> bool {
    js::is_nullish(v) || v.and_then(Value::as_str) == Some("")
}

/// A valid target, or `None`. It names a row (`id`), a computation (`params`), or both.
/// `raw` is the object a page or the wire gave; anything but an object is `None`.
pub fn parse_target(raw: &Value) -> Option<FocusTarget> {
    let get = |k: &str| raw.as_object().and_then(|m| m.get(k));
    let kind = get("kind")?.as_str().filter(|k| is_kind(k))?.to_owned();
    let id = match get("id") {
        v if absent(v) => None,
        v => Some(v?.as_str().filter(|s| is_id(s))?.to_owned()),
    };
    let part = match get("part") {
        v if absent(v) => None,
        v => Some(v?.as_str().filter(|s| is_part(s))?.to_owned()),
    };
    let params = match get("params") {
        v if js::is_nullish(v) => None,
        v => Some(parse_params(v?)?),
    };
    if id.is_none() && params.is_none() {
        return None;
    }
    Some(FocusTarget {
        kind,
        id,
        part,
        params,
    })
}

// The collation itself lives in its own file (`collate.rs`: ICU4X plus V8's order of Han).
#[path = "collate.rs"]
mod collate;

/// `a.localeCompare(b)` as V8 answers it with no locale or options: ICU's root collation
/// (CLDR; the `en` locale has no tailoring), tertiary strength, canonically equivalent strings
/// equal, Han ideographs by radical and stroke. ICU4X's `icu_collator` holds the same tables but
/// for Han's order, which `collate` takes from V8 itself; the differential run
/// (`scripts/differential.sh`) checks it against V8.
pub fn locale_compare(a: &str, b: &str) -> std::cmp::Ordering {
    collate::locale_compare(a, b)
}

/// Where a character of a param key (`[a-z0-9_]`) sorts in the root collation: `_` before the
/// digits before the letters, each with its own primary weight and no contraction.
fn param_key_weight(b: u8) -> u8 {
    match b {
        b'_' => 0,
        b'0'..=b'9' => 1 + b - b'0',
        _ => 11 + b.wrapping_sub(b'a'),
    }
}

/// `locale_compare` for two param keys (`is_param_key`), without the collation tables: over
/// `[a-z0-9_]` the root collation is plain lexicographic order of `param_key_weight`. The test
/// `param_key_order_is_locale_compare` proves it equal to `locale_compare` on every pair of keys
/// of up to three characters (and on random longer ones); the differential run checks both
/// against V8.
pub fn param_key_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(param_key_weight)
        .cmp(b.bytes().map(param_key_weight))
}

/// The order `canonicalTarget` sorts any JSON keys in: `param_key_order` when both are param keys,
/// else the full `locale_compare` (the same order, proven above, with the tables).
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    if is_param_key(a) && is_param_key(b) {
        param_key_order(a, b)
    } else {
        locale_compare(a, b)
    }
}

/// The order `canonical_target` sorts a target's keys in, without the collation tables (they
/// would add about 1.2 MB to the extension's WebAssembly): param keys, the only keys a target
/// `parse_target` accepts can hold, by `param_key_order`, which is `localeCompare` on them; keys
/// outside the grammar (a `FocusTarget` built by hand) after them, in UTF-16 order. A total order
/// either way, so the sort is well defined.
fn target_key_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (is_param_key(a), is_param_key(b)) {
        (true, true) => param_key_order(a, b),
        (true, false) => std::cmp::Ordering::Less,
        (false, true) => std::cmp::Ordering::Greater,
        (false, false) => a.encode_utf16().cmp(b.encode_utf16()),
    }
}

/// `Object.entries(value)` of a JSON value: an object's own properties, an array's or a string's
/// indices, nothing for other values.
fn entries(value: &Value) -> Vec<(String, Value)> {
    match value {
        Value::Object(map) => js::own_keys(map)
            .into_iter()
            .map(|k| (k.clone(), map[k].clone()))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v.clone()))
            .collect(),
        // A string's entries are its UTF-16 units: see `string_entries_json`.
        _ => Vec::new(),
    }
}

/// `JSON.stringify(Object.fromEntries(Object.entries(s)))` for a string: one key per UTF-16 unit,
/// so a character outside the BMP gives its two surrogates, each written as `JSON.stringify`
/// writes a lone surrogate (`"\ud83d"`).
fn string_entries_json(s: &str) -> String {
    let mut out = String::from("{");
    let mut units = [0u16; 2];
    let mut i = 0usize;
    for c in s.chars() {
        for unit in c.encode_utf16(&mut units).iter() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&format!("\"{i}\":"));
            if c.len_utf16() == 2 {
                out.push_str(&format!("\"\\u{unit:04x}\""));
            } else {
                out.push_str(&js::stringify(&Value::String(c.to_string())));
            }
            i += 1;
        }
    }
    out.push('}');
    out
}

/// The canonical string of any JSON target (as `canonical_target`); a non-object names nothing.
pub fn canonical_target_json(target: &Value) -> String {
    let get = |k: &str| {
        target
            .as_object()
            .and_then(|m| m.get(k))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let params = target.as_object().and_then(|m| m.get("params"));
    if let Some(Value::String(text)) = params.filter(|p| js::truthy(Some(p))) {
        let head = js::stringify(&Value::Array(vec![get("kind"), get("id"), get("part")]));
        let head = head.strip_suffix(']').unwrap_or(&head);
        return format!("{head},{}]", string_entries_json(text));
    }
    let params = if js::truthy(params) {
        let mut sorted = entries(params.unwrap_or(&Value::Null));
        sorted.sort_by(|(a, _), (b, _)| key_order(a, b));
        Value::Object(sorted.into_iter().collect())
    } else {
        Value::Null
    };
    js::stringify(&Value::Array(vec![
        get("kind"),
        get("id"),
        get("part"),
        params,
    ]))
}

/// One string per target, whatever the order of its params: `[kind, id, part, params]` as JSON,
/// params sorted by key.
pub fn canonical_target(target: &FocusTarget) -> String {
    let params = target.params.as_ref().map(|params| {
        let mut sorted: Vec<(&String, &KeyValue)> = params.iter().collect();
        sorted.sort_by(|(a, _), (b, _)| target_key_order(a, b));
        Value::Object(
            sorted
                .into_iter()
                .map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or(Value::Null)))
                .collect(),
        )
    });
    let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::String);
    js::stringify(&Value::Array(vec![
        Value::String(target.kind.clone()),
        text(&target.id),
        text(&target.part),
        params.unwrap_or(Value::Null),
    ]))
}

/// The three DOM attributes a pointable element carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FocusAttrs {
    #[serde(rename = "data-focus")]
    pub data_focus: String,
    #[serde(
        rename = "data-focus-part",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub data_focus_part: Option<String>,
    #[serde(
        rename = "data-focus-params",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub data_focus_params: Option<String>,
}

/// The attributes of any JSON target (as `focus_attrs`): `data-focus` is `kind:id`, the other two
/// only when `part` and `params` are set.
pub fn focus_attrs_json(target: &Value) -> Map<String, Value> {
    let get = |k: &str| target.as_object().and_then(|m| m.get(k));
    let id = match get("id") {
        v if js::is_nullish(v) => String::new(),
        v => js::to_string(v),
    };
    let mut attrs = Map::new();
    attrs.insert(
        "data-focus".into(),
        Value::String(format!("{}:{id}", js::to_string(get("kind")))),
    );
    if js::truthy(get("part")) {
        attrs.insert("data-focus-part".into(), get("part").cloned().into());
    }
    if let Some(params) = get("params").filter(|p| js::truthy(Some(p))) {
        attrs.insert("data-focus-params".into(), js::stringify(params).into());
    }
    attrs
}

/// The attributes that mark an element as pointing at `target`.
pub fn focus_attrs(target: &FocusTarget) -> FocusAttrs {
    let value = serde_json::to_value(target).unwrap_or(Value::Null);
    let attrs = focus_attrs_json(&value);
    let text = |k: &str| attrs.get(k).and_then(Value::as_str).map(str::to_owned);
    FocusAttrs {
        data_focus: text("data-focus").unwrap_or_default(),
        data_focus_part: text("data-focus-part"),
        data_focus_params: text("data-focus-params"),
    }
}

/// A target read from an element's attributes: `focus` is `kind:id` (the id may be empty when
/// params name the target), `part` as is, `params` as JSON text. `None` when anything is wrong.
pub fn parse_focus_attrs(
    focus: Option<&str>,
    part: Option<&str>,
    params: Option<&str>,
) -> Option<FocusTarget> {
    let part = part.map(|p| Value::String(p.to_owned()));
    let params = params.map(|p| Value::String(p.to_owned()));
    parse_focus_attrs_json(focus?, part.as_ref(), params.as_ref())
}

/// `parse_focus_attrs` with `part` and `params` as the JSON values a caller held (`params` is
/// read as JSON text when truthy, `part` goes to `parse_target` as is).
pub fn parse_focus_attrs_json(
    focus: &str,
    part: Option<&Value>,
    params: Option<&Value>,
) -> Option<FocusTarget> {
    let colon = focus.find(':').filter(|&i| i >= 1)?;
    let parsed_params = if js::truthy(params) {
        serde_json::from_str::<Value>(&js::to_string(params)).ok()?
    } else {
        Value::Null
    };
    let mut raw = Map::new();
    raw.insert("kind".into(), focus[..colon].into());
    raw.insert("id".into(), focus[colon + 1..].into());
    if let Some(part) = part {
        raw.insert("part".into(), part.clone());
    }
    raw.insert("params".into(), parsed_params);
    parse_target(&Value::Object(raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(v: Value) -> Option<Value> {
        parse_params(&v).map(|p| serde_json::to_value(p).unwrap())
    }

    /// 0.1.0 "params carries keys only": a bare number is an amount and is refused; months pass.
    #[test]
    fn bare_numbers_refused_months_pass() {
        assert_eq!(params(json!({"n": "12"})), None);
        assert_eq!(params(json!({"n": "-1.5"})), None);
        assert_eq!(params(json!({"n": "+3"})), None);
        assert_eq!(
            params(json!({"month": "2026-03"})),
            Some(json!({"month": "2026-03"}))
        );
        assert_eq!(params(json!({"v": "1.2.3"})), Some(json!({"v": "1.2.3"})));
        assert_eq!(params(json!({"n": 12})), None);
    }

    /// 0.1.0: lists of at most 20 tokens, none empty.
    #[test]
    fn twenty_item_lists() {
        let list = |n: usize| (0..n).map(|i| format!("t{i}")).collect::<Vec<_>>();
        assert!(params(json!({ "ids": list(20) })).is_some());
        assert_eq!(params(json!({ "ids": list(21) })), None);
        assert_eq!(params(json!({ "ids": [] })), None);
        assert_eq!(params(json!({ "ids": ["a", 1] })), None);
    }

    /// 0.1.0: params fit in 1 KB of compact JSON (`PARAMS_MAX_BYTES`).
    #[test]
    fn one_kib_cap() {
        // A token is at most 80 characters, so fill with several keys, then size the last one.
        let mut map = Map::new();
        let mut n = 0;
        while serde_json::to_string(&map).unwrap().len() < 1024 - 90 {
            map.insert(format!("k{n}"), json!("y".repeat(80)));
            n += 1;
        }
        let len = serde_json::to_string(&map).unwrap().len();
        // One more key "kz" with a value sized to land exactly on 1024: ,"kz":"..." is 8 + len.
        let fill = 1024 - len - 8;
        let mut exact = map.clone();
        exact.insert("kz".into(), json!("z".repeat(fill)));
        assert_eq!(serde_json::to_string(&exact).unwrap().len(), 1024);
        assert!(parse_params(&Value::Object(exact)).is_some());
        let mut over = map;
        over.insert("kz".into(), json!("z".repeat(fill + 1)));
        assert!(parse_params(&Value::Object(over)).is_none());
    }

    /// 0.1.0: an id and params both missing is invalid; `{}` params name a computation.
    #[test]
    fn target_needs_id_or_params() {
        assert_eq!(parse_target(&json!({"kind": "customer"})), None);
        assert_eq!(parse_target(&json!({"kind": "customer", "id": ""})), None);
        let t = parse_target(&json!({"kind": "figure", "params": {}})).unwrap();
        assert_eq!(t.params, Some(FocusParams::new()));
        assert_eq!(parse_target(&json!({"kind": "Customer", "id": "a"})), None);
        assert_eq!(parse_target(&json!(null)), None);
    }

    /// 0.1.0 `PART_RE`.
    #[test]
    fn part_grammar() {
        for ok in ["seats", "step:new", "a:b:c", "x_1:A.b|c-d"] {
            assert!(is_part(ok), "{ok}");
        }
        for bad in [
            "",
            "Step",
            ":x",
            "step:",
            "1a",
            &format!("a:{}", "x".repeat(81)),
        ] {
            assert!(!is_part(bad), "{bad}");
        }
    }

    /// 0.1.0 `canonicalTarget`: param order does not matter, and `_` sorts before digits.
    #[test]
    fn canonical_ignores_param_order() {
        let a = parse_target(&json!({"kind": "k", "params": {"a0": "x", "a_": "y", "b": "z"}}));
        let b = parse_target(&json!({"kind": "k", "params": {"b": "z", "a_": "y", "a0": "x"}}));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(canonical_target(&a), canonical_target(&b));
        assert_eq!(
            canonical_target(&a),
            r#"["k",null,null,{"a_":"y","a0":"x","b":"z"}]"#
        );
    }

    /// Issue 11: `localeCompare` puts a key that starts with a tab first (in the root collation a
    /// tab is white space, which sorts before every letter); the hand-made table put it last.
    #[test]
    fn a_key_starting_with_a_tab_sorts_as_in_javascript() {
        let t = json!({"kind": "figure", "id": null, "part": null,
            "params": {"z": ["b", "a"], "a": "q", "\tk\tk\u{2026}": "x"}});
        assert_eq!(
            canonical_target_json(&t),
            "[\"figure\",null,null,{\"\\tk\\tk\u{2026}\":\"x\",\"a\":\"q\",\"z\":[\"b\",\"a\"]}]"
        );
        assert_eq!(locale_compare("\tk", "a"), std::cmp::Ordering::Less);
        assert_eq!(locale_compare("\ta", "b"), std::cmp::Ordering::Less);
        // Case is tertiary: "a" < "A" < "b"; accents secondary: "e" < "é" < "f".
        assert_eq!(locale_compare("a", "A"), std::cmp::Ordering::Less);
        assert_eq!(locale_compare("A", "b"), std::cmp::Ordering::Less);
        assert_eq!(locale_compare("\u{e9}", "f"), std::cmp::Ordering::Less);
        // Canonically equivalent strings are equal, as in V8.
        assert_eq!(
            locale_compare("e\u{301}", "\u{e9}"),
            std::cmp::Ordering::Equal
        );
    }

    /// `param_key_order` is `locale_compare` on every key of up to three characters of
    /// `[a-z0-9_]`: sorted by the small rule, each key is strictly below the next under the full
    /// collation, and as both are total orders they agree on every pair. Longer keys: random.
    #[test]
    fn param_key_order_is_locale_compare() {
        const CHARS: &[u8] = b"_0123456789abcdefghijklmnopqrstuvwxyz";
        let mut keys: Vec<String> = Vec::new();
        for a in CHARS {
            keys.push((*a as char).to_string());
            for b in CHARS {
                keys.push(format!("{}{}", *a as char, *b as char));
                for c in CHARS {
                    keys.push(format!("{}{}{}", *a as char, *b as char, *c as char));
                }
            }
        }
        keys.sort_by(|a, b| param_key_order(a, b));
        for pair in keys.windows(2) {
            assert_eq!(
                locale_compare(&pair[0], &pair[1]),
                std::cmp::Ordering::Less,
                "{pair:?}"
            );
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut key = || {
            let len = 1 + (seed % 32) as usize;
            (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    CHARS[(seed % CHARS.len() as u64) as usize] as char
                })
                .collect::<String>()
        };
        for _ in 0..20_000 {
            let (a, b) = (key(), key());
            assert_eq!(param_key_order(&a, &b), locale_compare(&a, &b), "{a} {b}");
        }
    }

    /// `canonical_target` (no collation tables) and `canonical_target_json` (the reference's
    /// `canonicalTarget` on any JSON) give one string for every target `parse_target` accepts.
    #[test]
    fn typed_canonical_is_the_json_one() {
        for raw in [
            json!({"kind": "k", "id": "i", "params": {"z_z": "a", "z1": "b", "zz": "c", "z": "d", "z_": "e"}}),
            json!({"kind": "k", "params": {"b": ["x", "y"], "a_": "p", "a0": "q", "a": "r"}, "part": "p:x"}),
            json!({"kind": "k", "id": "i"}),
            json!({"kind": "k", "params": {}}),
        ] {
            let t = parse_target(&raw).unwrap();
            let json = serde_json::to_value(&t).unwrap();
            assert_eq!(canonical_target(&t), canonical_target_json(&json));
        }
        // Keys outside the grammar (a hand-built target) still sort, after the param keys.
        let mut t = parse_target(&json!({"kind": "k", "params": {"b": "x"}})).unwrap();
        if let Some(p) = t.params.as_mut() {
            p.insert("\tkey".into(), KeyValue::One("y".into()));
            p.insert("a".into(), KeyValue::One("z".into()));
        }
        assert_eq!(
            canonical_target(&t),
            r#"["k",null,null,{"a":"z","b":"x","\tkey":"y"}]"#
        );
    }

    /// `Object.entries` of a string gives its UTF-16 units: an astral character is two entries,
    /// each a lone surrogate, written as `JSON.stringify` writes one.
    #[test]
    fn string_params_are_utf16_units() {
        let t = json!({"kind": "k", "params": "a\u{1F600}\u{e9}"});
        assert_eq!(
            canonical_target_json(&t),
            r#"["k",null,null,{"0":"a","1":"\ud83d","2":"\ude00","3":"é"}]"#
        );
    }

    /// 0.1.0: `data-focus="kind:id"`, with part and params attributes when needed; and back.
    #[test]
    fn attrs_round_trip() {
        let t =
            parse_target(&json!({"kind": "invoice", "part": "total", "params": {"m": "2026-03"}}))
                .unwrap();
        let attrs = focus_attrs(&t);
        assert_eq!(attrs.data_focus, "invoice:");
        assert_eq!(attrs.data_focus_part.as_deref(), Some("total"));
        let back = parse_focus_attrs(
            Some(&attrs.data_focus),
            attrs.data_focus_part.as_deref(),
            attrs.data_focus_params.as_deref(),
        );
        assert_eq!(back, Some(t));
        assert_eq!(parse_focus_attrs(Some(":x"), None, None), None);
        assert_eq!(parse_focus_attrs(Some("a:b"), None, Some("{bad")), None);
    }
}
