//! The few JavaScript semantics the standard's rules lean on, so the Rust port behaves like the
//! reference on the same input: string length in UTF-16 units, the `\p{Cc}\p{Cf}` strip and
//! `String.prototype.trim`, `Number(string)`, `Number.prototype.toString`, `String(value)`,
//! truthiness, and `JSON.stringify` of JSON values (property order and number format included).

use serde_json::{Map, Value};

/// Bytes a character takes in JSON text as `JSON.stringify` (and serde_json) write it: two for
/// `"`, `\\` and the short escapes, six for another control character, else its UTF-8 length.
pub fn json_char_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// `s.length` in JavaScript: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Unicode general category Cf (format), as V8 matches `\p{Cf}` (ICU 78, Unicode 17).
const CF_RANGES: &[(u32, u32)] = &[
    (0xAD, 0xAD),
    (0x600, 0x605),
    (0x61C, 0x61C),
    (0x6DD, 0x6DD),
    (0x70F, 0x70F),
    (0x890, 0x891),
    (0x8E2, 0x8E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is in general category Cf.
pub fn is_format(c: char) -> bool {
    let c = c as u32;
    CF_RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Whether `c` is in general category Cc (`char::is_control` is exactly Cc).
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// Removes every Cc and Cf character (`s.replace(/[\p{Cc}\p{Cf}]/gu, "")`).
pub fn strip_cc_cf(s: &str) -> String {
    s.chars()
        .filter(|&c| !is_control(c) && !is_format(c))
        .collect()
}

/// ECMAScript WhiteSpace and LineTerminator: what `trim()` and `Number()` remove.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{A}' | '\u{B}' | '\u{C}' | '\u{D}' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `s.trim()`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `Number(s)` for a string: whitespace-trimmed, empty is 0, `0x`/`0o`/`0b` integers,
/// `Infinity` with an optional sign, decimal literals with an optional sign; anything else NaN.
pub fn string_to_number(s: &str) -> f64 {
    let s = trim(s);
    if s.is_empty() {
        return 0.0;
    }
    let radix_digits = |rest: &str, radix: u32| -> f64 {
        if rest.is_empty() || !rest.chars().all(|c| c.is_digit(radix)) {
            return f64::NAN;
        }
        rest.chars().fold(0.0, |acc, c| {
            acc * radix as f64 + c.to_digit(radix).unwrap_or(0) as f64
        })
    };
    let lower2: String = s.chars().take(2).collect::<String>().to_ascii_lowercase();
    match lower2.as_str() {
        "0x" => return radix_digits(&s[2..], 16),
        "0o" => return radix_digits(&s[2..], 8),
        "0b" => return radix_digits(&s[2..], 2),
        _ => {}
    }
    let (sign, unsigned) = match s.as_bytes()[0] {
        b'+' => (1.0, &s[1..]),
        b'-' => (-1.0, &s[1..]),
        _ => (1.0, s),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !is_decimal_literal(unsigned) {
        return f64::NAN;
    }
    unsigned
        .parse::<f64>()
        .map(|v| sign * v)
        .unwrap_or(f64::NAN)
}

/// StrUnsignedDecimalLiteral without `Infinity`: `1`, `1.`, `1.5`, `.5`, each with an optional exponent.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let int = digits(&mut i);
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac = digits(&mut i);
    }
    if int == 0 && frac == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `String(n)` for a number (Number::toString with radix 10).
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Shortest round-trip digits, from Rust's own formatter: "d.ddddde<exp>".
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n_exp = exp.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n_exp && n_exp <= 21 {
        format!("{digits}{}", "0".repeat((n_exp - k) as usize))
    } else if 0 < n_exp && n_exp <= 21 {
        format!(
            "{}.{}",
            &digits[..n_exp as usize],
            &digits[n_exp as usize..]
        )
    } else if -6 < n_exp && n_exp <= 0 {
        format!("0.{}{digits}", "0".repeat((-n_exp) as usize))
    } else {
        let e = n_exp - 1;
        let e = if e < 0 {
            format!("-{}", -e)
        } else {
            format!("+{e}")
        };
        if k == 1 {
            format!("{digits}e{e}")
        } else {
            format!("{}.{}e{e}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

/// A JSON number as JavaScript holds it (a double).
pub fn value_number(n: &serde_json::Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// A double as a JSON value the way `JSON.stringify` writes it: `null` when not finite.
pub fn number_value(n: f64) -> Value {
    if !n.is_finite() {
        return Value::Null;
    }
    if n == n.trunc() && n.abs() < 9_007_199_254_740_992.0 {
        return Value::from(n as i64);
    }
    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// `String(value)` (or a template literal's `${value}`); `None` is `undefined`.
pub fn to_string(value: Option<&Value>) -> String {
    match value {
        None => "undefined".into(),
        Some(Value::Null) => "null".into(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => number_to_string(value_number(n)),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::Null => String::new(),
                v => to_string(Some(v)),
            })
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".into(),
    }
}

/// Whether `String(value)` throws: an object with its own `toString` key (never a function in
/// JSON, so `ToPrimitive` finds no primitive), alone or as an element of an array being joined.
pub fn to_string_throws(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Object(map)) => map.contains_key("toString"),
        Some(Value::Array(items)) => items.iter().any(|v| to_string_throws(Some(v))),
        _ => false,
    }
}

/// JavaScript truthiness of a JSON value; `None` is `undefined`.
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => {
            let n = value_number(n);
            n != 0.0 && !n.is_nan()
        }
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// `null` or `undefined` (`v === null || v === undefined`).
pub fn is_nullish(value: Option<&Value>) -> bool {
    matches!(value, None | Some(Value::Null))
}

/// `!!v && typeof v === "object" && !Array.isArray(v)`.
pub fn as_plain_object(value: Option<&Value>) -> Option<&Map<String, Value>> {
    match value {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// Whether a property key is an array index, which JavaScript objects list first, ascending.
fn array_index(key: &str) -> Option<u32> {
    let n: u32 = key.parse().ok()?;
    (n != u32::MAX && n.to_string() == key).then_some(n)
}

/// Property keys of an object in JavaScript's own order: array indices ascending, then the rest
/// as inserted.
pub fn own_keys(map: &Map<String, Value>) -> Vec<&String> {
    let mut indices: Vec<(u32, &String)> = map
        .keys()
        .filter_map(|k| array_index(k).map(|n| (n, k)))
        .collect();
    indices.sort_by_key(|(n, _)| *n);
    let mut keys: Vec<&String> = indices.into_iter().map(|(_, k)| k).collect();
    keys.extend(map.keys().filter(|k| array_index(k).is_none()));
    keys
}

/// A value with every object's keys in JavaScript's order, so serializing it gives what
/// `JSON.stringify` gives for the same object.
pub fn js_ordered(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            own_keys(map)
                .into_iter()
                .map(|k| (k.clone(), js_ordered(&map[k])))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(js_ordered).collect()),
        other => other.clone(),
    }
}

/// `JSON.stringify(value)` for a JSON value: compact, keys in JavaScript order, numbers as
/// JavaScript writes them.
pub fn stringify(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value);
    out
}

fn write_json(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let n = value_number(n);
            if n.is_finite() {
                out.push_str(&number_to_string(n));
            } else {
                out.push_str("null");
            }
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, key) in own_keys(map).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, key);
                out.push(':');
                write_json(out, &map[key]);
            }
            out.push('}');
        }
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{C}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_char_len_is_what_serde_json_writes() {
        for c in [
            'a', '"', '\\', '\n', '\t', '\u{8}', '\u{c}', '\u{1}', '\u{1f}', '\u{7f}', 'é', '語',
            '😀',
        ] {
            let written = serde_json::to_string(&c.to_string()).unwrap().len() - 2;
            assert_eq!(json_char_len(c), written, "{c:?}");
        }
    }

    #[test]
    fn number_parses_like_js() {
        assert_eq!(string_to_number(""), 0.0);
        assert_eq!(string_to_number("01"), 1.0);
        assert_eq!(string_to_number(" 2\n"), 2.0);
        assert_eq!(string_to_number("0x1F"), 31.0);
        assert_eq!(string_to_number("1e3"), 1000.0);
        assert_eq!(string_to_number(".5"), 0.5);
        assert_eq!(string_to_number("5."), 5.0);
        assert_eq!(string_to_number("-Infinity"), f64::NEG_INFINITY);
        for nan in ["a", ".", "1_0", "-0x1", "inf", "1e", "NaN", "0x", "1 2"] {
            assert!(string_to_number(nan).is_nan(), "{nan}");
        }
    }

    #[test]
    fn numbers_print_like_js() {
        assert_eq!(number_to_string(3.0), "3");
        assert_eq!(number_to_string(-0.5), "-0.5");
        assert_eq!(number_to_string(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number_to_string(1e21), "1e+21");
        assert_eq!(number_to_string(1.5e-7), "1.5e-7");
        assert_eq!(number_to_string(123e18), "123000000000000000000");
        assert_eq!(number_to_string(0.000001), "0.000001");
    }

    #[test]
    fn stringify_orders_index_keys_first() {
        let v = json!({"b": 1, "2": [1.5, null], "a": "x\u{1}", "1": true});
        assert_eq!(
            stringify(&v),
            r#"{"1":true,"2":[1.5,null],"b":1,"a":"x\u0001"}"#
        );
    }

    #[test]
    fn to_string_and_truthiness() {
        assert_eq!(to_string(Some(&json!([1, null, "a", [2, 3]]))), "1,,a,2,3");
        assert_eq!(to_string(Some(&json!({}))), "[object Object]");
        assert_eq!(to_string(None), "undefined");
        assert!(!truthy(Some(&json!(0))));
        assert!(truthy(Some(&json!([]))));
    }

    #[test]
    fn strip_and_trim() {
        assert_eq!(trim(&strip_cc_cf("\u{200B} A\u{AD}b\u{3000}\u{7}")), "Ab");
        assert_eq!(utf16_len("a😀"), 3);
    }
}
