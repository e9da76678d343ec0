//! Hosts as people read them: `display_host`, the one form the extension's notes, its popup and
//! its consent window show a page's or a hub's domain in ("the domain first"), and the parsing
//! of `host[:port]` the hub's naming rules share.
//!
//! The display rule, per label of the host after IDNA processing (lower case, punycode):
//! - an ASCII label is shown as is;
//! - a punycode label (`xn--`) is shown in Unicode only when every character of it, apart from
//!   ASCII digits and `-`, belongs to one script group: Latin (ASCII letters and the Latin
//!   letter blocks), Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic, Devanagari, Bengali,
//!   Tamil, Thai, Hangul (with Han, as Korean), Japanese (Han, Hiragana, Katakana) or Chinese (Han);
//! - a Greek or Cyrillic label made only of letters that look like Latin ones (`аррӏе`) stays in
//!   punycode: it could pass for a Latin name;
//! - anything else (mixed scripts such as Latin with Cyrillic, symbols, emoji, a label that does
//!   not decode) stays in punycode.
//!
//! IP addresses are shown as the URL parser writes them; the port, when given, follows as is.

use url::Host;

use crate::manifest::js_origin;
use crate::url_parse::{new_url, parse_host};

/// An http(s) page's origin, and its host as the URL writes it (a port that is not the scheme's
/// default kept): what the extension compares pages by and shows them as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebOrigin {
    /// `https://example.com`, `http://127.0.0.1:8080`.
    pub origin: String,
    /// `example.com`, `127.0.0.1:8080`.
    pub host: String,
}

/// The origin of an http(s) URL; `None` for any other scheme (`chrome:`, `file:`, `about:`).
pub fn web_origin(url: &str) -> Option<WebOrigin> {
    let parsed = new_url(url)?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let host = parsed.host_str()?;
    let host = match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    Some(WebOrigin {
        origin: js_origin(&parsed),
        host,
    })
}

/// The host of an http(s) URL or origin as a person reads it ([`display_host`]); anything else is
/// shown cleaned, as [`display_host`] shows what is no host.
pub fn display_origin(url: &str) -> String {
    match web_origin(url) {
        Some(o) => display_host(&o.host),
        None => display_host(url),
    }
}

/// A hub's address as a person types it (`127.0.0.1:7410`, `http://hub.example/dock`): its
/// origin, `http://` assumed when no scheme is given. `None` when it is no http(s) address.
pub fn hub_address_origin(typed: &str) -> Option<String> {
    let typed = typed.trim();
    if typed.is_empty() || typed.len() > 2048 {
        return None;
    }
    let with_scheme = if typed.contains("://") {
        typed.to_owned()
    } else {
        format!("http://{typed}")
    };
    let parsed = new_url(&with_scheme)?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return None;
    }
    web_origin(&with_scheme).map(|o| o.origin)
}

/// Whether an http(s) URL's host is this computer: `localhost` (and `*.localhost`), `127.0.0.0/8`
/// or `[::1]`. A hub anywhere else is "elsewhere" to the person, whatever its name says.
pub fn is_loopback_url(url: &str) -> bool {
    let Some(parsed) = new_url(url) else {
        return false;
    };
    match parsed.host() {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        Some(Host::Domain(d)) => d == "localhost" || d.ends_with(".localhost"),
        None => false,
    }
}

/// A `host[:port]` split and checked: the host as the URL parser gives it (IDNA to ASCII,
/// lower case, IPv4 normalized), and the port if one was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPort {
    pub host: Host<String>,
    pub port: Option<u16>,
}

/// Reads `host`, `host:port`, `[v6]` or `[v6]:port`. `None` when it is not a host.
pub fn parse_host_port(input: &str) -> Option<HostPort> {
    let (host, port) = if input.starts_with('[') {
        let end = input.find(']')?;
        let rest = &input[end + 1..];
        let port = match rest {
            "" => None,
            _ => Some(rest.strip_prefix(':')?),
        };
        (&input[..=end], port)
    } else {
        match input.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (input, None),
        }
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    if host.is_empty() || host.contains(['/', '?', '#', '@', '\\']) {
        return None;
    }
    let host = parse_host(host)?;
    Some(HostPort { host, port })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Georgian,
    Hebrew,
    Arabic,
    Devanagari,
    Bengali,
    Tamil,
    Thai,
    Hangul,
    Hiragana,
    Katakana,
    Han,
}

fn script(c: char) -> Option<Script> {
    use Script::*;
    let s = match c as u32 {
        0x61..=0x7A | 0xDF..=0xF6 | 0xF8..=0xFF | 0x100..=0x24F | 0x1E00..=0x1EFF => Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Greek,
        0x400..=0x52F => Cyrillic,
        0x531..=0x58F => Armenian,
        0x10A0..=0x10FF => Georgian,
        0x591..=0x5F4 => Hebrew,
        0x620..=0x6FF | 0x750..=0x77F => Arabic,
        0x900..=0x97F => Devanagari,
        0x980..=0x9FF => Bengali,
        0xB80..=0xBFF => Tamil,
        0xE01..=0xE5B => Thai,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => Hangul,
        0x3041..=0x309F => Hiragana,
        0x30A0..=0x30FF => Katakana,
        0x3005 | 0x3400..=0x4DBF | 0x4E00..=0x9FFF => Han,
        _ => return None,
    };
    Some(s)
}

/// The script groups a label may be shown in: one script, or the sets a language writes together.
const GROUPS: &[&[Script]] = {
    use Script::*;
    &[
        &[Latin],
        &[Greek],
        &[Cyrillic],
        &[Armenian],
        &[Georgian],
        &[Hebrew],
        &[Arabic],
        &[Devanagari],
        &[Bengali],
        &[Tamil],
        &[Thai],
        &[Hangul, Han],
        &[Han, Hiragana, Katakana],
    ]
};

/// Greek and Cyrillic lower-case letters that pass for Latin ones in a domain.
const LATIN_LOOKALIKES: &str = "авгеёіјкмнопрстухыьѕһԁԛԝӏүҽαβγεηικνορτυχω";

/// Whether a decoded label may be shown in Unicode (see the module doc).
fn safe_unicode_label(label: &str) -> bool {
    let mut scripts = Vec::new();
    for c in label.chars() {
        if c.is_ascii_digit() || c == '-' {
            continue;
        }
        match script(c) {
            Some(s) if !scripts.contains(&s) => scripts.push(s),
            Some(_) => {}
            None => return false,
        }
    }
    let Some(group) = GROUPS
        .iter()
        .find(|g| scripts.iter().all(|s| g.contains(s)))
    else {
        return false;
    };
    if group[0] == Script::Greek || group[0] == Script::Cyrillic {
        let letters = label.chars().filter(|c| !c.is_ascii_digit() && *c != '-');
        return !letters.clone().all(|c| LATIN_LOOKALIKES.contains(c));
    }
    true
}

/// The host (and port) as a person should read it: see the module doc. Input that is no host
/// comes back lower-cased with control and format characters removed.
pub fn display_host(host: &str) -> String {
    let Some(hp) = parse_host_port(host) else {
        return crate::js::strip_cc_cf(host).to_lowercase();
    };
    let shown = match &hp.host {
        Host::Domain(ascii) => ascii
            .split('.')
            .map(|label| {
                if !label.starts_with("xn--") {
                    return label.to_owned();
                }
                match idna::domain_to_unicode(label) {
                    (uni, Ok(())) if safe_unicode_label(&uni) => uni,
                    _ => label.to_owned(),
                }
            })
            .collect::<Vec<_>>()
            .join("."),
        other => other.to_string(),
    };
    match hp.port {
        Some(port) => format!("{shown}:{port}"),
        None => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_latin_hosts() {
        assert_eq!(display_host("Example.COM"), "example.com");
        assert_eq!(display_host("bücher.example"), "bücher.example");
        assert_eq!(
            display_host("xn--bcher-kva.example:8443"),
            "bücher.example:8443"
        );
        assert_eq!(display_host("127.0.0.1:7411"), "127.0.0.1:7411");
        assert_eq!(display_host("[::1]:80"), "[::1]:80");
    }

    /// The extension's notes put the domain first: a lookalike must not read as the Latin name.
    #[test]
    fn lookalikes_stay_punycode() {
        // Cyrillic "аpple" mixed with Latin.
        assert_eq!(display_host("\u{430}pple.com"), "xn--pple-43d.com");
        // All-Cyrillic lookalike of "apple".
        let all = display_host("\u{430}\u{440}\u{440}\u{4cf}\u{435}.com");
        assert!(all.starts_with("xn--"), "{all}");
        // Greek "ορο" reads as "opo".
        assert!(display_host("\u{3bf}\u{3c1}\u{3bf}.example").starts_with("xn--"));
        // Emoji.
        assert!(display_host("\u{1F600}.example").starts_with("xn--"));
    }

    #[test]
    fn single_script_non_latin_shows_unicode() {
        assert_eq!(display_host("пример.рф"), "пример.рф");
        assert_eq!(display_host("例え.jp"), "例え.jp");
        assert_eq!(display_host("한국.kr"), "한국.kr");
    }

    #[test]
    fn web_origins_keep_a_port_that_is_not_the_default() {
        let o = web_origin("http://127.0.0.1:8080/a?b").unwrap();
        assert_eq!(
            (o.origin.as_str(), o.host.as_str()),
            ("http://127.0.0.1:8080", "127.0.0.1:8080")
        );
        let o = web_origin("https://Example.com:443/").unwrap();
        assert_eq!(
            (o.origin.as_str(), o.host.as_str()),
            ("https://example.com", "example.com")
        );
        assert_eq!(web_origin("chrome://settings"), None);
        assert_eq!(web_origin("file:///etc/passwd"), None);
        assert_eq!(
            display_origin("http://xn--bcher-kva.example:81/x"),
            "bücher.example:81"
        );
    }

    #[test]
    fn typed_hub_addresses() {
        assert_eq!(
            hub_address_origin(" 127.0.0.1:7410 ").as_deref(),
            Some("http://127.0.0.1:7410")
        );
        assert_eq!(
            hub_address_origin("https://hub.example/dock").as_deref(),
            Some("https://hub.example")
        );
        assert_eq!(hub_address_origin("ftp://hub.example"), None);
        assert_eq!(hub_address_origin("http://u:p@hub.example"), None);
        assert_eq!(hub_address_origin(""), None);
    }

    #[test]
    fn loopback_is_this_computer_only() {
        for here in [
            "http://127.0.0.1:7410",
            "http://127.8.9.1",
            "http://[::1]:7410",
            "http://localhost:7410",
            "http://hub.localhost",
        ] {
            assert!(is_loopback_url(here), "{here}");
        }
        for there in [
            "http://192.168.1.4:7410",
            "https://hub.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.nip.io",
            "http://[::2]",
            "not a url",
        ] {
            assert!(!is_loopback_url(there), "{there}");
        }
    }

    #[test]
    fn not_a_host() {
        assert_eq!(display_host("a/b\u{202E}"), "a/b");
        assert_eq!(parse_host_port("a.example:99999"), None);
        assert_eq!(parse_host_port("a.example:"), None);
    }
}
