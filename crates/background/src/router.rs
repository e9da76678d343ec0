//! The message router: every `runtime.onMessage` request is a JSON object with a `type` tag,
//! parsed into [`Request`] and answered with a [`Answer`] or a [`RouterError`].
//!
//! Wire shape of every answer: `{ "ok": true, ...fields }` or
//! `{ "ok": false, "error": code, "message": text }`.
//!
//! To add a request: add a variant to [`Request`] (its `type` is the variant name in snake_case, its
//! fields the message's other keys), a variant to [`Answer`], and an arm in [`route`].

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a message asks for. Keys a request does not know are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// `{ "type": "ping" }`: is the background up, and which standard and version does it speak?
    Ping,
    /// Any `type` this build does not know.
    #[serde(other)]
    Unknown,
}

/// A successful answer's fields (`ok: true` is added on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Pong(Pong),
}

/// The answer to `ping`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pong {
    /// The APC standard version, from `apc-core`.
    pub standard: &'static str,
    /// The extension's version.
    pub version: &'static str,
}

/// Why a message got no answer. Each maps to one wire code ([`RouterError::code`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RouterError {
    #[error("a message must be a JSON object with a string \"type\"")]
    NotAMessage,
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    #[error("malformed {kind:?} message: {reason}")]
    Malformed { kind: String, reason: String },
    #[error("the message could not be read: {0}")]
    Unreadable(String),
}

impl RouterError {
    /// The wire's `error` code.
    pub fn code(&self) -> &'static str {
        match self {
            RouterError::NotAMessage => "not_a_message",
            RouterError::UnknownType(_) => "unknown_type",
            RouterError::Malformed { .. } => "malformed_message",
            RouterError::Unreadable(_) => "unreadable_message",
        }
    }
}

/// Who sent a message (the browser's `runtime.MessageSender`, the fields we read). Requests that
/// need trust (pairing, grants) will check it; a sender that cannot be read is the default: nobody.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sender {
    /// The sending extension's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The sending document's URL.
    #[serde(default)]
    pub url: Option<String>,
    /// The sending document's origin (Chrome only).
    #[serde(default)]
    pub origin: Option<String>,
    /// The tab of a content script's page; absent for extension pages such as the popup.
    #[serde(default)]
    pub tab: Option<SenderTab>,
    #[serde(default)]
    pub frame_id: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct SenderTab {
    #[serde(default)]
    pub id: Option<i64>,
}

/// Parse a message into a [`Request`], telling apart "not a message", "unknown type" and
/// "known type, bad fields".
pub fn parse(message: Value) -> Result<Request, RouterError> {
    let kind = match message.get("type") {
        Some(Value::String(kind)) if message.is_object() => kind.clone(),
        _ => return Err(RouterError::NotAMessage),
    };
    match serde_json::from_value::<Request>(message) {
        Ok(Request::Unknown) => Err(RouterError::UnknownType(kind)),
        Ok(request) => Ok(request),
        Err(e) => Err(RouterError::Malformed {
            kind,
            reason: e.to_string(),
        }),
    }
}

/// Route one message. Async because requests to come (storage, the hub) are.
pub async fn route(message: Value, _sender: &Sender) -> Result<Answer, RouterError> {
    match parse(message)? {
        Request::Ping => Ok(Answer::Pong(Pong {
            standard: apc_core::APC_STANDARD_VERSION,
            version: crate::EXTENSION_VERSION,
        })),
        // `parse` already turned this into `UnknownType` with its name; kept total, never a panic.
        Request::Unknown => Err(RouterError::UnknownType(String::new())),
    }
}

/// The wire form of a reply.
pub fn to_wire(reply: Result<Answer, RouterError>) -> Value {
    match reply {
        Ok(answer) => {
            let mut wire = serde_json::to_value(answer).unwrap_or_else(|_| json!({}));
            if let Value::Object(fields) = &mut wire {
                fields.insert("ok".into(), Value::Bool(true));
            }
            wire
        }
        Err(e) => json!({ "ok": false, "error": e.code(), "message": e.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(message: Value) -> Value {
        to_wire(crate::block_on(route(message, &Sender::default())))
    }

    #[test]
    fn ping_answers_the_standard_from_core_and_the_extension_version() {
        assert_eq!(
            run(json!({ "type": "ping" })),
            json!({ "ok": true, "standard": apc_core::APC_STANDARD_VERSION, "version": crate::EXTENSION_VERSION })
        );
    }

    #[test]
    fn extra_keys_are_ignored() {
        assert_eq!(
            parse(json!({ "type": "ping", "later": [1, 2] })),
            Ok(Request::Ping)
        );
    }

    #[test]
    fn unknown_type_is_a_clear_error() {
        let wire = run(json!({ "type": "make_coffee" }));
        assert_eq!(wire["ok"], json!(false));
        assert_eq!(wire["error"], json!("unknown_type"));
        assert!(wire["message"].as_str().unwrap().contains("make_coffee"));
    }

    #[test]
    fn things_that_are_not_messages_are_refused() {
        for message in [
            json!(null),
            json!("ping"),
            json!(42),
            json!(["ping"]),
            json!({}),
            json!({ "type": 7 }),
            json!({ "kind": "ping" }),
        ] {
            let wire = run(message.clone());
            assert_eq!(wire["error"], json!("not_a_message"), "{message}");
            assert_eq!(wire["ok"], json!(false));
        }
    }

    #[test]
    fn every_error_has_its_own_code() {
        let errors = [
            RouterError::NotAMessage,
            RouterError::UnknownType("x".into()),
            RouterError::Malformed {
                kind: "x".into(),
                reason: "y".into(),
            },
            RouterError::Unreadable("z".into()),
        ];
        let mut codes: Vec<_> = errors.iter().map(RouterError::code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
    }

    #[test]
    fn a_sender_reads_the_fields_it_knows() {
        let sender: Sender = serde_json::from_value(json!({
            "id": "abc", "url": "https://example.org/", "tab": { "id": 3, "title": "x" }, "frameId": 0,
            "documentLifecycle": "active"
        }))
        .unwrap();
        assert_eq!(sender.tab.and_then(|t| t.id), Some(3));
        assert_eq!(sender.frame_id, Some(0));
    }
}
