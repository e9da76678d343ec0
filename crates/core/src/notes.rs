//! The extension's own notes for an agent dropped on a page it cannot pair (APC 0.5.0 "A drop an
//! app cannot take"): when the page's `apc.json` offers only Direct, or could not be read. The
//! extension speaks for itself: the domain comes first (`display_host`), the page's name only as
//! what the page calls itself, cleaned and cut short, and the way to connect directly as a link.

use serde::{Deserialize, Serialize};

use crate::host::{display_host, parse_host_port};
use crate::js;
use crate::url_parse::new_url;

/// The most characters (UTF-16 units) of a declared name the notes quote.
pub const DECLARED_NAME_MAX_CHARS: usize = 60;

/// A note for the person: its text, and the page it points to, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtensionNote {
    pub text: String,
    pub link: Option<String>,
}

/// A page's name made safe to quote: control and format characters (bidi overrides included)
/// removed, whitespace runs made one space, double quotes made single, cut to
/// `DECLARED_NAME_MAX_CHARS` with an ellipsis.
pub fn sanitize_declared_name(name: &str) -> String {
    let cleaned = js::strip_cc_cf(name).replace('"', "'");
    let words: Vec<&str> = cleaned
        .split(js::is_js_whitespace)
        .filter(|w| !w.is_empty())
        .collect();
    let joined = words.join(" ");
    if js::utf16_len(&joined) <= DECLARED_NAME_MAX_CHARS {
        return joined;
    }
    let mut out = String::new();
    for c in joined.chars() {
        if js::utf16_len(&out) + c.len_utf16() > DECLARED_NAME_MAX_CHARS - 1 {
            break;
        }
        out.push(c);
    }
    format!("{}…", out.trim_end())
}

/// The connect page as a link, only when it is an http(s) URL without credentials on `host`.
fn connect_link(host: &str, connect: &str) -> Option<String> {
    let url = new_url(connect)?;
    let expected = parse_host_port(host)?;
    let ok = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.host().map(|h| h.to_owned()) == Some(expected.host)
        && expected
            .port
            .is_none_or(|p| url.port_or_known_default() == Some(p));
    ok.then(|| url.as_str().to_owned())
}

fn who(host: &str, declared_name: &str) -> String {
    let shown = display_host(host);
    match sanitize_declared_name(declared_name) {
        name if name.is_empty() => shown,
        name => format!("{shown} (calls itself \"{name}\")"),
    }
}

/// What the extension says when the person drops an agent on a page whose `apc.json` offers
/// only Direct: the domain, the name the page gives itself, and its connect page.
pub fn page_direct_only_note(host: &str, declared_name: &str, connect: &str) -> ExtensionNote {
    let shown = display_host(host);
    let link = connect_link(host, connect);
    let how = if link.is_some() {
        format!("To use your agent here, open the connect page of {shown} and connect it there.")
    } else {
        format!("To use your agent here, look on {shown} for a way to connect it directly.")
    };
    ExtensionNote {
        text: format!(
            "{} connects agents directly, not through a dock, so your agent was not paired. {how}",
            who(host, declared_name)
        ),
        link,
    }
}

/// What the extension says when it could not read the page's `apc.json`: it cannot tell how the
/// page connects agents, so it paired nothing.
pub fn page_could_not_check_note(host: &str) -> ExtensionNote {
    let shown = display_host(host);
    ExtensionNote {
        text: format!(
            "{shown} did not say how it connects agents (its apc.json could not be read), so your agent was not paired. Try the drop again in a moment, or select the text and point your agent from the right-click menu."
        ),
        link: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.5.0: the extension puts the domain first and the name only as what the page says it is.
    #[test]
    fn direct_only_domain_first() {
        let n = page_direct_only_note(
            "signals.example",
            "Signals",
            "https://signals.example/?connect",
        );
        assert!(n
            .text
            .starts_with("signals.example (calls itself \"Signals\") connects agents directly"));
        assert_eq!(n.link.as_deref(), Some("https://signals.example/?connect"));
    }

    /// A connect page on another host is never offered as the link.
    #[test]
    fn link_only_on_host() {
        let n = page_direct_only_note("signals.example", "", "https://evil.example/");
        assert_eq!(n.link, None);
        assert!(n
            .text
            .starts_with("signals.example connects agents directly"));
        let n = page_direct_only_note("a.example:8443", "A", "https://a.example:8443/c");
        assert_eq!(n.link.as_deref(), Some("https://a.example:8443/c"));
        let n = page_direct_only_note("a.example", "A", "javascript:alert(1)");
        assert_eq!(n.link, None);
    }

    /// A page's name cannot reorder the text or pose as another domain in quotes.
    #[test]
    fn declared_name_sanitized() {
        assert_eq!(
            sanitize_declared_name("  Pay\u{202E}Pal \n\"bank\"  "),
            "PayPal 'bank'"
        );
        let long = sanitize_declared_name(&"x".repeat(100));
        assert_eq!(js::utf16_len(&long), DECLARED_NAME_MAX_CHARS);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn could_not_check() {
        let n = page_could_not_check_note("\u{430}pple.com");
        assert!(n.text.starts_with("xn--pple-43d.com did not say"));
        assert_eq!(n.link, None);
    }
}
