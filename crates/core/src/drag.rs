//! The drag payload (APC 0.1.0, "Drag payload and pairing"): what an agent's mark carries under
//! `APC_DRAG_MIME` when it is dragged from a dock or the extension, and its checked parser. The
//! payload comes from whatever was dropped, so every field is checked and nothing is trusted.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::manifest::js_origin;
use crate::url_parse::new_url;

/// The drag data type of an agent's mark.
pub const APC_DRAG_MIME: &str = "application/x-apc-agent";
/// The most bytes of drag data `parse_drag_payload` reads.
pub const DRAG_PAYLOAD_MAX_BYTES: usize = 4096;
/// The most characters of an agent handle.
pub const AGENT_HANDLE_MAX: usize = 64;
/// The fewest and most characters of a ticket.
pub const TICKET_MIN: usize = 16;
pub const TICKET_MAX: usize = 128;

/// `{ v: 1, agent, hub?, ticket? }`: a public handle, and with a hub its origin and a single-use
/// ticket that opens a pairing request and nothing else. Never a secret or an MCP URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DragPayload {
    /// Always 1.
    pub v: u8,
    pub agent: String,
    /// The hub's origin, normalized (`https://hub.example`, no trailing slash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ticket: Option<String>,
}

/// Why drag data is not an APC drag payload.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DragPayloadError {
    #[error("the drag data is over {DRAG_PAYLOAD_MAX_BYTES} bytes")]
    TooLarge,
    #[error("the drag data is not a JSON object")]
    NotAnObject,
    #[error("the drag payload's version is not 1")]
    BadVersion,
    #[error("the agent is not a handle (1 to 64 of A-Z a-z 0-9 _ . -)")]
    BadAgent,
    #[error("the hub is not a bare http(s) origin")]
    BadHub,
    #[error("the ticket is not a token (16 to 128 of A-Z a-z 0-9 _ -)")]
    BadTicket,
    #[error("a ticket came without its hub")]
    TicketWithoutHub,
}

/// An agent handle: 1 to 64 of `[A-Za-z0-9_.-]`, so never a URL (no `:` or `/`).
pub fn is_agent_handle(s: &str) -> bool {
    (1..=AGENT_HANDLE_MAX).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A ticket: 16 to 128 of `[A-Za-z0-9_-]`.
pub fn is_ticket(s: &str) -> bool {
    (TICKET_MIN..=TICKET_MAX).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

/// A bare http(s) origin (no credentials, no path but `/`, no query or fragment), normalized as
/// its origin: `HTTPS://Hub.Example:443/` gives `https://hub.example`.
pub fn bare_origin(raw: &str) -> Option<String> {
    let url = new_url(raw)?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none();
    bare.then(|| js_origin(&url))
}

/// Reads drag data of type `APC_DRAG_MIME`. Unknown keys are ignored; `null` is absent.
pub fn parse_drag_payload(raw: &str) -> Result<DragPayload, DragPayloadError> {
    if raw.len() > DRAG_PAYLOAD_MAX_BYTES {
        return Err(DragPayloadError::TooLarge);
    }
    let value: Value = serde_json::from_str(raw).map_err(|_| DragPayloadError::NotAnObject)?;
    let obj = value.as_object().ok_or(DragPayloadError::NotAnObject)?;
    if obj.get("v").and_then(Value::as_f64) != Some(1.0) {
        return Err(DragPayloadError::BadVersion);
    }
    let agent = obj
        .get("agent")
        .and_then(Value::as_str)
        .filter(|a| is_agent_handle(a))
        .ok_or(DragPayloadError::BadAgent)?
        .to_owned();
    let present = |k: &str| obj.get(k).filter(|v| !v.is_null());
    let hub = present("hub")
        .map(|h| {
            h.as_str()
                .and_then(bare_origin)
                .ok_or(DragPayloadError::BadHub)
        })
        .transpose()?;
    let ticket = present("ticket")
        .map(|t| {
            t.as_str()
                .filter(|t| is_ticket(t))
                .map(str::to_owned)
                .ok_or(DragPayloadError::BadTicket)
        })
        .transpose()?;
    if ticket.is_some() && hub.is_none() {
        return Err(DragPayloadError::TicketWithoutHub);
    }
    Ok(DragPayload {
        v: 1,
        agent,
        hub,
        ticket,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use DragPayloadError as E;

    const T: &str = "tk_0123456789abcdef";

    /// 0.1.0: `{ v: 1, agent }`, with a hub `hub` (a bare origin) and `ticket`.
    #[test]
    fn valid_payloads() {
        let p = parse_drag_payload(r#"{"v":1,"agent":"claude.work"}"#).unwrap();
        assert_eq!(
            (p.agent.as_str(), p.hub, p.ticket),
            ("claude.work", None, None)
        );
        let p = parse_drag_payload(&format!(
            r#"{{"v":1,"agent":"a","hub":"HTTP://127.0.0.1:7411/","ticket":"{T}","extra":true}}"#
        ))
        .unwrap();
        assert_eq!(p.hub.as_deref(), Some("http://127.0.0.1:7411"));
        assert_eq!(p.ticket.as_deref(), Some(T));
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            format!(r#"{{"v":1,"agent":"a","hub":"http://127.0.0.1:7411","ticket":"{T}"}}"#)
        );
    }

    /// 0.1.0: the handle is public and never an MCP URL.
    #[test]
    fn agent_is_a_handle() {
        for bad in [
            r#"{"v":1,"agent":"https://hub.example/mcp/secret"}"#,
            r#"{"v":1,"agent":"a:b"}"#,
            r#"{"v":1,"agent":""}"#,
            r#"{"v":1,"agent":7}"#,
            r#"{"v":1}"#,
        ] {
            assert_eq!(parse_drag_payload(bad), Err(E::BadAgent), "{bad}");
        }
        let long = format!(r#"{{"v":1,"agent":"{}"}}"#, "a".repeat(65));
        assert_eq!(parse_drag_payload(&long), Err(E::BadAgent));
    }

    #[test]
    fn version_and_shape() {
        assert_eq!(
            parse_drag_payload(r#"{"v":2,"agent":"a"}"#),
            Err(E::BadVersion)
        );
        assert_eq!(
            parse_drag_payload(r#"{"v":"1","agent":"a"}"#),
            Err(E::BadVersion)
        );
        assert_eq!(parse_drag_payload("[1]"), Err(E::NotAnObject));
        assert_eq!(parse_drag_payload("not json"), Err(E::NotAnObject));
        let big = format!(r#"{{"v":1,"agent":"a","pad":"{}"}}"#, "x".repeat(5000));
        assert_eq!(parse_drag_payload(&big), Err(E::TooLarge));
    }

    /// 0.1.0: `hub` is a bare http(s) origin.
    #[test]
    fn hub_is_a_bare_origin() {
        for bad in [
            "https://hub.example/apc",
            "https://u:p@hub.example",
            "https://hub.example/?x",
            "https://hub.example/#x",
            "ftp://hub.example",
            "blob:https://hub.example/x",
            "hub.example",
        ] {
            let raw = format!(r#"{{"v":1,"agent":"a","hub":"{bad}","ticket":"{T}"}}"#);
            assert_eq!(parse_drag_payload(&raw), Err(E::BadHub), "{bad}");
        }
        assert_eq!(
            bare_origin("https://bücher.example").as_deref(),
            Some("https://xn--bcher-kva.example")
        );
    }

    /// 0.1.0: a ticket is a short token, and opens a pairing only with its hub.
    #[test]
    fn ticket_rules() {
        let raw = format!(r#"{{"v":1,"agent":"a","ticket":"{T}"}}"#);
        assert_eq!(parse_drag_payload(&raw), Err(E::TicketWithoutHub));
        let raw = r#"{"v":1,"agent":"a","hub":"https://h.example","ticket":"short"}"#;
        assert_eq!(parse_drag_payload(raw), Err(E::BadTicket));
        let raw = r#"{"v":1,"agent":"a","hub":"https://h.example","ticket":"tk/0123456789abcdef"}"#;
        assert_eq!(parse_drag_payload(raw), Err(E::BadTicket));
    }
}
