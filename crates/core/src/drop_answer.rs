//! How the extension answers a drop on a page, by that origin's `apc.json` (APC 0.5, "a drop an
//! app cannot take"): an ordinary page is pointed at; a Direct-only app gets the extension's own
//! note with its connect link; a file that cannot be read gets the "could not check" note. Nothing
//! is paired or pinned in the last two cases.

use crate::{
    page_could_not_check_note, page_direct_only_note, parse_apc_manifest, ApcRole, ExtensionNote,
};
use serde_json::Value;

/// What reading `{origin}/.well-known/apc.json` gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppCheck {
    /// Answered 2xx with this body and content type.
    Body { content_type: String, body: Vec<u8> },
    /// Answered 4xx: the origin has no such file.
    Missing,
    /// A redirect, a time limit, a byte cap, a 5xx or no answer at all.
    Unreadable(String),
}

impl AppCheck {
    /// What an HTTP answer to `GET {origin}/.well-known/apc.json` gave: 2xx a body, 4xx no file,
    /// anything else (a 1xx, a 3xx that was not followed, a 5xx) a file that could not be read.
    pub fn from_http(status: u16, content_type: &str, body: Vec<u8>) -> Self {
        match status {
            200..=299 => AppCheck::Body {
                content_type: content_type.to_owned(),
                body,
            },
            400..=499 => AppCheck::Missing,
            _ => AppCheck::Unreadable(format!("HTTP {status}")),
        }
    }

    /// Whether this answer may stand for the origin's next drops, for [`APP_CHECK_REUSE_MS`]:
    /// what the origin said (a file, or no file) may; a failure to read it may not, so the next
    /// drop asks again rather than repeating a "could not check" note.
    pub fn reusable(&self) -> bool {
        !matches!(self, AppCheck::Unreadable(_))
    }
}

/// How long an origin's `apc.json` answer stands for later drops on it (2 minutes): a person
/// pointing at one page several times waits for that round trip once, and an app that starts
/// serving the file is seen within that time.
pub const APP_CHECK_REUSE_MS: u64 = 120_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropAnswer {
    /// Not an APC app that answers for itself: point the agent at the text.
    Ordinary,
    DirectOnly(ExtensionNote),
    CouldNotCheck(ExtensionNote),
}

/// Decides, for a page of `origin` (host `host` as in its URL), what a drop gets.
pub fn answer_drop(origin: &str, host: &str, check: AppCheck) -> DropAnswer {
    let could_not_check = || DropAnswer::CouldNotCheck(page_could_not_check_note(host));
    let (content_type, body) = match check {
        AppCheck::Missing => return DropAnswer::Ordinary,
        AppCheck::Unreadable(_) => return could_not_check(),
        AppCheck::Body { content_type, body } => (content_type, body),
    };
    let Ok(raw) = serde_json::from_slice::<Value>(&body) else {
        // Many sites answer every path with their HTML page: that is no apc.json, not a broken one.
        let says_json = content_type == "application/json" || content_type.ends_with("+json");
        return if says_json {
            could_not_check()
        } else {
            DropAnswer::Ordinary
        };
    };
    match parse_apc_manifest(&raw, origin) {
        Err(_) => could_not_check(),
        Ok(manifest) => {
            let direct = manifest.profiles.contains(&ApcRole::Direct);
            let dock = manifest.profiles.contains(&ApcRole::Dock);
            match (direct, dock, manifest.direct) {
                (true, false, Some(d)) => {
                    DropAnswer::DirectOnly(page_direct_only_note(host, &manifest.name, &d.connect))
                }
                _ => DropAnswer::Ordinary,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const O: &str = "http://127.0.0.1:8080";
    const H: &str = "127.0.0.1:8080";

    fn body(v: Value) -> AppCheck {
        AppCheck::Body {
            content_type: "application/json".into(),
            body: v.to_string().into_bytes(),
        }
    }

    fn direct_only() -> Value {
        json!({ "name": "Signals", "standard": "0.7.0", "origin": O, "profiles": ["direct"],
                "mcp": { "path": crate::APC_DEFAULT_MCP_PATH }, "direct": { "connect": format!("{O}/connect") } })
    }

    #[test]
    fn a_direct_only_app_gets_the_domain_first_note_and_its_connect_link() {
        let DropAnswer::DirectOnly(note) = answer_drop(O, H, body(direct_only())) else {
            panic!()
        };
        assert!(note.text.starts_with(H), "{}", note.text);
        assert!(note.text.contains("Signals"));
        assert_eq!(note.link.as_deref(), Some("http://127.0.0.1:8080/connect"));
    }

    #[test]
    fn an_app_that_takes_dock_agents_or_a_hub_is_pointed_at_like_any_page() {
        let mut both = direct_only();
        both["profiles"] = json!(["direct", "dock"]);
        assert_eq!(answer_drop(O, H, body(both)), DropAnswer::Ordinary);
    }

    #[test]
    fn what_the_origin_said_is_reused_and_a_failure_to_read_it_is_not() {
        assert!(body(direct_only()).reusable());
        assert!(AppCheck::Missing.reusable());
        assert!(!AppCheck::from_http(503, "text/html", vec![]).reusable());
        assert!(!AppCheck::Unreadable("no answer within 3000 ms".into()).reusable());
    }

    #[test]
    fn http_statuses_map_to_what_the_check_gave() {
        assert!(matches!(
            AppCheck::from_http(200, "application/json", b"{}".to_vec()),
            AppCheck::Body { .. }
        ));
        assert_eq!(AppCheck::from_http(404, "", vec![]), AppCheck::Missing);
        assert_eq!(AppCheck::from_http(410, "", vec![]), AppCheck::Missing);
        assert_eq!(
            AppCheck::from_http(503, "", vec![]),
            AppCheck::Unreadable("HTTP 503".into())
        );
        assert_eq!(
            AppCheck::from_http(302, "", vec![]),
            AppCheck::Unreadable("HTTP 302".into())
        );
    }

    #[test]
    fn no_file_is_an_ordinary_page() {
        assert_eq!(answer_drop(O, H, AppCheck::Missing), DropAnswer::Ordinary);
        let html = AppCheck::Body {
            content_type: "text/html".into(),
            body: b"<!doctype html>".to_vec(),
        };
        assert_eq!(answer_drop(O, H, html), DropAnswer::Ordinary);
    }

    #[test]
    fn an_unreadable_or_broken_file_could_not_be_checked() {
        for check in [
            AppCheck::Unreadable("it answered with a redirect".into()),
            AppCheck::Body {
                content_type: "application/json".into(),
                body: b"{".to_vec(),
            },
            body(json!({ "name": "x" })),
            body({
                let mut m = direct_only();
                m["origin"] = json!("http://elsewhere.example");
                m
            }),
        ] {
            let DropAnswer::CouldNotCheck(note) = answer_drop(O, H, check) else {
                panic!()
            };
            assert!(note.text.starts_with(H));
            assert_eq!(note.link, None);
        }
    }
}
