//! The URL parser as the standard's JavaScript meets it (`new URL(…)`): every URL and host the
//! core reads goes through [`new_url`] or [`parse_host`], never through `url` directly.
//!
//! It is the `url` crate (WHATWG URL, UTS 46 through ICU4X) with one difference: a domain holding a
//! code point that Unicode 17 leaves unassigned is refused. ICU4X 2.4's data already assigns
//! Unicode 18's new characters, so the crate accepts them in hosts; the URL parsers of today's
//! runtimes (node 24's Ada 3.4, Chromium 156, Firefox 153 ESR, all on Unicode 17) refuse them, and
//! with them the standard's JavaScript. Measured by putting every scalar value in a host
//! (`differential --every-host-char`, run by node 24, and `scripts/differential-browsers.sh`):
//! 12,983 code points, the ranges of [`NEWER_THAN_UNICODE_17`], were the only ones the crate
//! accepted and all three refused.

use url::{Host, Url};

/// The code points the `url` crate's IDNA accepts in a domain that Unicode 17 leaves unassigned
/// (V8's `\p{Cn}` under ICU 78), as inclusive ranges: the characters new in Unicode 18.
const NEWER_THAN_UNICODE_17: &[(u32, u32)] = &[
    (0x558, 0x558),
    (0x58B, 0x58C),
    (0x5C8, 0x5C9),
    (0xB53, 0xB54),
    (0x1ADE, 0x1ADF),
    (0x1AEC, 0x1AF0),
    (0x208F, 0x208F),
    (0x209D, 0x209F),
    (0x20C2, 0x20C4),
    (0x2E60, 0x2E63),
    (0xA7DD, 0xA7DD),
    (0xA7E2, 0xA7E2),
    (0xAB6C, 0xAB6D),
    (0x107BB, 0x107BF),
    (0x10ECB, 0x10ECF),
    (0x10EF0, 0x10EF9),
    (0x11B0A, 0x11B0A),
    (0x11DF0, 0x11DF1),
    (0x1246F, 0x1246F),
    (0x12475, 0x1247F),
    (0x12550, 0x12686),
    (0x18CD6, 0x18CDA),
    (0x18D1F, 0x18D20),
    (0x18E00, 0x19191),
    (0x191A0, 0x191D2),
    (0x1B123, 0x1B128),
    (0x1B168, 0x1B168),
    (0x1CED2, 0x1CED4),
    (0x1CEDD, 0x1CEDF),
    (0x1CEF1, 0x1CEFD),
    (0x1D127, 0x1D128),
    (0x1D1EB, 0x1D1FF),
    (0x1D250, 0x1D281),
    (0x1D6A6, 0x1D6A6),
    (0x1DB00, 0x1DB1C),
    (0x1DF1F, 0x1DF24),
    (0x1DF2B, 0x1DF81),
    (0x1DF90, 0x1DF96),
    (0x1DFCD, 0x1DFFF),
    (0x1F1AE, 0x1F1AE),
    (0x1F6D9, 0x1F6D9),
    (0x1F7DA, 0x1F7DB),
    (0x1F7F1, 0x1F7FF),
    (0x1FA8B, 0x1FA8D),
    (0x1FACC, 0x1FACC),
    (0x1FADD, 0x1FADD),
    (0x1FAEB, 0x1FAEB),
    (0x1FAF9, 0x1FAFA),
    (0x2B81E, 0x2B81E),
    (0x3D000, 0x3FC3F),
];

/// Whether `c` is one of [`NEWER_THAN_UNICODE_17`].
fn newer_than_unicode_17(c: char) -> bool {
    let c = c as u32;
    NEWER_THAN_UNICODE_17
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether a domain as the parser writes it (lower case, punycode) holds only characters Unicode
/// 17 assigns: an `xn--` label given as such in the input comes out as it went in. One that does
/// not decode was refused by the parser already.
fn domain_is_unicode_17(domain: &str) -> bool {
    domain.split('.').all(|label| {
        let Some(encoded) = label.strip_prefix("xn--") else {
            return true;
        };
        idna::punycode::decode_to_string(encoded)
            .is_none_or(|decoded| !decoded.chars().any(newer_than_unicode_17))
    })
}

/// The character that stands in for a newer one in [`new_url`]'s second parse: U+0378, unassigned
/// in every Unicode version, so refused in any domain and percent-encoded anywhere else.
const NEVER_ASSIGNED: char = '\u{378}';

/// `input` with every newer character, as is or percent-encoded (UTF-8, either hex case), put as
/// [`NEVER_ASSIGNED`]; `None` when it holds none. A domain's characters may be written either way
/// (the parser percent-decodes a host before IDNA).
fn newer_put_as_never_assigned(input: &str) -> Option<String> {
    let mut out = String::with_capacity(input.len());
    let mut found = false;
    let bytes = input.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let escaped = |i: usize| -> Option<u8> {
        if bytes.get(i) != Some(&b'%') {
            return None;
        }
        Some((hex(*bytes.get(i + 1)?)? * 16 + hex(*bytes.get(i + 2)?)?) as u8)
    };
    let mut i = 0;
    while i < bytes.len() {
        // A run of `%XX` that spells one newer character in UTF-8.
        if let Some(lead) = escaped(i) {
            let len = match lead {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            };
            let spelled: Option<Vec<u8>> = (0..len).map(|k| escaped(i + 3 * k)).collect();
            let newer = spelled
                .as_deref()
                .and_then(|b| std::str::from_utf8(b).ok())
                .and_then(|s| s.chars().next())
                .is_some_and(newer_than_unicode_17);
            if newer {
                out.push(NEVER_ASSIGNED);
                found = true;
                i += 3 * len;
            } else {
                out.push_str(&input[i..i + 3]);
                i += 3;
            }
            continue;
        }
        let c = input[i..].chars().next().unwrap_or_default();
        if newer_than_unicode_17(c) {
            out.push(NEVER_ASSIGNED);
            found = true;
        } else {
            out.push(c);
        }
        i += c.len_utf8();
    }
    found.then_some(out)
}

/// `new URL(input)`: the parsed URL, or `None` where the constructor throws.
pub fn new_url(input: &str) -> Option<Url> {
    let url = Url::parse(input).ok()?;
    // Only a special scheme's host is a domain that goes through IDNA; another scheme's host is
    // opaque (`foo://xn--a/` keeps its text), as in the URL standard.
    if !url.is_special() {
        return Some(url);
    }
    if let Some(Host::Domain(domain)) = url.host() {
        if !domain_is_unicode_17(domain) {
            return None;
        }
    }
    // A newer character IDNA maps to an older one leaves no trace in the parsed domain: parse
    // again with each newer character put as one no parser accepts in a domain. Only a newer
    // character in the host makes that second parse fail.
    if let Some(marked) = newer_put_as_never_assigned(input) {
        if Url::parse(&marked).is_err() {
            return None;
        }
    }
    Some(url)
}

/// `new URL(input, base)`: `input` (a link's `href`) resolved against `base`, with
/// [`new_url`]'s refusal of a host the browsers refuse. `None` where the constructor throws.
pub fn join_url(base: &Url, input: &str) -> Option<Url> {
    let input = input.trim_matches(|c: char| c <= ' ');
    let url = base.join(input).ok()?;
    // A host that came from `input` (an absolute or scheme-relative link) is checked as
    // `new_url` checks it; one from `base` was checked when the base was read.
    let scheme_relative =
        input.len() >= 2 && input.bytes().take(2).all(|b| b == b'/' || b == b'\\');
    let has_scheme = input.split_once(':').is_some_and(|(scheme, _)| {
        scheme
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    });
    if scheme_relative {
        new_url(&format!("{}:{input}", base.scheme()))?;
    } else if has_scheme {
        new_url(input)?;
    }
    Some(url)
}

/// A host as the URL parser reads it in a special URL (percent-decoded, IDNA to ASCII, lower
/// case, IPv4 normalized), with [`new_url`]'s refusal; `None` when it is no host.
pub fn parse_host(input: &str) -> Option<Host<String>> {
    let host = Host::parse(input).ok()?;
    if let Host::Domain(domain) = &host {
        if !domain_is_unicode_17(domain) || newer_put_as_never_assigned(input).is_some() {
            return None;
        }
    }
    Some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 3492 encoding, for the tests' own punycode labels.
    fn punycode(s: &str) -> String {
        idna::punycode::encode_str(s).unwrap()
    }

    #[test]
    fn join_url_resolves_links_and_refuses_what_new_url_refuses() {
        let base = new_url("https://docs.example/guide/intro.html?x=1").unwrap();
        let j = |s: &str| join_url(&base, s).map(String::from);
        assert_eq!(
            j("setup.html").as_deref(),
            Some("https://docs.example/guide/setup.html")
        );
        assert_eq!(j("/api#x").as_deref(), Some("https://docs.example/api#x"));
        assert_eq!(
            j("//cdn.example/a").as_deref(),
            Some("https://cdn.example/a")
        );
        assert_eq!(j(" ../b ").as_deref(), Some("https://docs.example/b"));
        assert_eq!(j("mailto:a@b.c").as_deref(), Some("mailto:a@b.c"));
        assert_eq!(j("http://[::1"), None);
    }

    #[test]
    fn the_table_is_sorted_and_disjoint() {
        for pair in NEWER_THAN_UNICODE_17.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:x?}");
        }
    }

    #[test]
    fn a_host_with_a_character_new_in_unicode_18_is_refused_as_the_runtimes_refuse_it() {
        for &(lo, hi) in NEWER_THAN_UNICODE_17 {
            for cp in [lo, (lo + hi) / 2, hi] {
                let c = char::from_u32(cp).unwrap();
                let url = format!("https://a{c}b.example/x");
                // The crate alone accepts it: that is the difference this module exists for.
                assert!(
                    Url::parse(&url).is_ok(),
                    "{cp:X}: the url crate now refuses it"
                );
                assert!(new_url(&url).is_none(), "{cp:X}");
                // The same host written in punycode, and as a bare host.
                // Its own punycode (a character IDNA keeps; one it maps is refused as punycode
                // by the crate already).
                let own = format!("xn--{}", punycode(&format!("a{c}b")));
                assert!(
                    new_url(&format!("https://{own}.example/")).is_none(),
                    "{own}"
                );
                assert!(parse_host(&format!("a{c}b.example")).is_none(), "{cp:X}");
                // Percent-encoded in the host, either hex case.
                let mut utf8 = [0; 4];
                let spelled: String = c
                    .encode_utf8(&mut utf8)
                    .bytes()
                    .map(|b| format!("%{b:02x}"))
                    .collect();
                assert!(
                    new_url(&format!("https://a{spelled}b.example/")).is_none(),
                    "{spelled}"
                );
                let upper = spelled.to_ascii_uppercase();
                assert!(
                    new_url(&format!("https://a{upper}b.example/")).is_none(),
                    "{upper}"
                );
                // Anywhere but the host, it is only text.
                assert!(
                    new_url(&format!("https://a.example/{c}?{spelled}#{c}")).is_some(),
                    "{cp:X}"
                );
                assert!(
                    new_url(&format!("https://u{c}:p{spelled}@a.example/")).is_some(),
                    "{cp:X}"
                );
            }
        }
    }

    #[test]
    fn assigned_characters_ascii_addresses_and_opaque_hosts_still_parse() {
        for ok in [
            "https://münchen.example/",
            "https://xn--mnchen-3ya.de/a",
            "https://a\u{561}b.example/",
            "https://\u{4E2D}\u{6587}.example/",
            "http://127.0.0.1:7410/mcp",
            "http://[::1]/",
            "foo://xn--a/x",
            "blob:https://signals.example/1",
        ] {
            assert!(new_url(ok).is_some(), "{ok}");
        }
        // An opaque host keeps a new character's text: no IDNA runs there.
        assert!(new_url("foo://a\u{558}b/").is_some());
        assert!(parse_host("xn--mnchen-3ya.de").is_some());
    }
}
