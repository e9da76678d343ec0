//! The message router: every `runtime.onMessage` request is a JSON object with a `type` tag,
//! parsed into [`Request`] and answered with a typed [`Answer`] (each flow's own answer) or a
//! [`RouterError`].
//!
//! Wire shape of every answer: `{ "ok": true, ...fields }` or
//! `{ "ok": false, "error": code, "message": text }` (with `field` when a pair-by-code error is about
//! one field of the popup's form).
//!
//! To add a request: add a variant to [`Request`] (its `type` is the variant name in snake_case, its
//! fields the message's other keys), a variant to [`Answer`], and an arm in [`route`].

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::flows::{self, FlowError, PointBy};
use super::frames::{Document, DropFrame, FrameOfPage, PageSource};
use super::memory::Memory;
use super::ports::Env;
use super::views::{Msg, PopupView};

/// What a message asks for. Keys a request does not know are ignored.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// `{ "type": "ping" }`: is the background up, and which standard and version does it speak?
    Ping,
    /// From a content script: a trusted drop of an agent's mark, the raw payload and what the page
    /// showed (the observation as JSON text, read straight into `apc_content::Observation`).
    /// With `drop_id`, the drop comes in two messages: this one's observation is what lies around
    /// the point, and `page.drop_text` with the same `drop_id` brings the whole page's. From a
    /// frame, `frame` says what the frame saw of the drop's place (was it visible there).
    #[serde(rename = "page.drop")]
    PageDrop {
        payload: String,
        observation: String,
        #[serde(default)]
        drop_id: Option<String>,
        #[serde(default)]
        frame: Option<DropFrame>,
    },
    /// From a content script: the second message of a drop in two, the whole page's observation
    /// (`""`: the page could not be read).
    #[serde(rename = "page.drop_text")]
    PageDropText {
        drop_id: String,
        observation: String,
    },
    /// From a content script: Undo on the in-page note (shown in the top frame only).
    #[serde(rename = "page.undo")]
    PageUndo {
        token: String,
    },
    /// From a content script: the page hid the extension's note.
    #[serde(rename = "page.note_hidden")]
    PageNoteHidden,
    /// From the popup: the pairings as kept, at once.
    PopupState,
    /// From the popup: the pairings after asking their hubs, and due give backs retried.
    PopupRefresh,
    /// From the popup: point this pairing's agent at the active tab's selection.
    PointSelection {
        pairing: String,
    },
    Unpin {
        pairing: String,
    },
    Revoke {
        pairing: String,
    },
    /// From the popup: forget a give back the extension stopped trying.
    DismissGiveBack {
        pairing: String,
    },
    /// From the popup: pair with the code the dock page shows.
    PairCode {
        hub: String,
        code: String,
    },
    /// From the consent window.
    ConsentGet {
        id: String,
    },
    ConsentAnswer {
        id: String,
        allow: bool,
    },
    /// Any `type` this build does not know.
    #[serde(other)]
    Unknown,
}

/// A successful answer's fields (`ok: true` is added on the wire).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Pong(Pong),
    Drop(flows::DropOutcome),
    DropFirst(DropFirst),
    PageText(flows::PageTextSent),
    Pinned(flows::Pinned),
    Unpinned(flows::Unpinned),
    Popup(Box<PopupView>),
    Revoked(flows::Revoked),
    ConsentOpened(flows::ConsentOpened),
    Consent(Box<flows::ConsentAsked>),
    ConsentAnswered(flows::ConsentOutcome),
    Done {},
}

/// The answer to a drop's first message: the drop's outcome, and whether the background waits for
/// its page text (`page.drop_text`): the content script collects the whole page only then, after
/// the pin is made (so that walk does not compete with the pin for the machine).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DropFirst {
    #[serde(flatten)]
    pub outcome: flows::DropOutcome,
    pub send_page_text: bool,
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
    #[error("{0} messages are not taken from this sender")]
    NotAllowed(&'static str),
    #[error("{message}")]
    Flow {
        code: String,
        message: String,
        /// The form field a pair-by-code error is about (`hub` or `code`).
        field: Option<&'static str>,
        /// The message in the extension's own words, to localize.
        msg: Option<Msg>,
    },
}

impl From<FlowError> for RouterError {
    fn from(e: FlowError) -> Self {
        RouterError::Flow {
            code: e.code().to_owned(),
            message: e.to_string(),
            field: e.field(),
            msg: e.msg(),
        }
    }
}

impl RouterError {
    /// The wire's `error` code.
    pub fn code(&self) -> &'static str {
        match self {
            RouterError::NotAMessage => "not_a_message",
            RouterError::UnknownType(_) => "unknown_type",
            RouterError::Malformed { .. } => "malformed_message",
            RouterError::Unreadable(_) => "unreadable_message",
            RouterError::NotAllowed(_) => "not_allowed",
            RouterError::Flow { .. } => "flow_error",
        }
    }

    /// The code on the wire: a flow's own, or this error's.
    pub fn wire_code(&self) -> &str {
        match self {
            RouterError::Flow { code, .. } => code,
            other => other.code(),
        }
    }
}

/// Who sent a message (the browser's `runtime.MessageSender`, the fields we read). [`route`] takes
/// requests that touch pairings only from the extension's own pages and page events only from its
/// content scripts; a sender that cannot be read is the default: nobody.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sender {
    /// The sending extension's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The sending document's URL.
    #[serde(default)]
    pub url: Option<String>,
    /// The sending document's origin (`null` for an opaque one): a frame without an address of
    /// its own (`about:srcdoc`) has its creator's.
    #[serde(default)]
    pub origin: Option<String>,
    /// The tab of a content script's page; absent for extension pages such as the popup.
    #[serde(default)]
    pub tab: Option<SenderTab>,
    #[serde(default)]
    pub frame_id: Option<i64>,
}

/// The sender's tab: its id, and its top document's URL and title (the page the person is on).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct SenderTab {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
}

/// Who a sender is, for the requests that care.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SenderKind {
    /// One of this extension's own pages (popup, consent window).
    ExtensionPage,
    /// This extension's content script in a tab whose page is an http(s) one: in its top frame, or
    /// in one of its frames (`frame`), whose own document may have no address (`about:srcdoc`).
    ContentScript {
        tab_id: i64,
        url: String,
        frame: Option<SubFrame>,
    },
    /// Anything else: another extension, a page we do not run in.
    Other,
}

/// A frame below a tab's top, as the browser names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubFrame {
    pub frame_id: i64,
    pub origin: String,
    pub top_url: String,
    pub top_title: String,
}

impl SenderKind {
    /// Where a content script's message came from.
    fn source(tab_id: i64, url: &str, frame: Option<&SubFrame>) -> PageSource {
        match frame {
            None => PageSource::top(tab_id, url),
            Some(f) => PageSource {
                tab_id,
                frame_id: f.frame_id,
                doc: Document {
                    url: url.to_owned(),
                    frame: Some(FrameOfPage {
                        origin: f.origin.clone(),
                        top_url: f.top_url.clone(),
                        top_title: f.top_title.clone(),
                    }),
                },
            },
        }
    }
}

/// A frame's own address as a content script may run there: a web page, or a document without
/// an address of its own that the browser runs the extension's script in (`match_about_blank`,
/// `match_origin_as_fallback`).
fn is_frame_address(url: &str) -> bool {
    [
        "http://",
        "https://",
        "about:blank",
        "about:srcdoc",
        "data:",
        "blob:",
    ]
    .iter()
    .any(|scheme| url.starts_with(scheme))
}

impl Sender {
    /// Tells this extension's pages (their URL under `extension_base`, e.g. `chrome-extension://id/`)
    /// from its content scripts (a tab; its top frame with an http(s) URL, or another frame of a tab
    /// whose top is an http(s) page) and from anyone else.
    pub fn kind(&self, extension_id: &str, extension_base: &str) -> SenderKind {
        if self.id.as_deref() != Some(extension_id) || extension_base.is_empty() {
            return SenderKind::Other;
        }
        let url = self.url.clone().unwrap_or_default();
        if url.starts_with(extension_base) {
            return SenderKind::ExtensionPage;
        }
        let web = |u: &str| u.starts_with("http://") || u.starts_with("https://");
        let Some((tab_id, frame_id)) = self.tab.as_ref().and_then(|t| t.id).zip(self.frame_id)
        else {
            return SenderKind::Other;
        };
        let tab = self.tab.clone().unwrap_or_default();
        let top_url = tab.url.unwrap_or_default();
        match frame_id {
            0 if web(&url) => SenderKind::ContentScript {
                tab_id,
                url,
                frame: None,
            },
            id if id > 0 && web(&top_url) && is_frame_address(&url) => SenderKind::ContentScript {
                tab_id,
                frame: Some(SubFrame {
                    frame_id: id,
                    origin: self.origin.clone().unwrap_or_else(|| "null".into()),
                    top_url,
                    top_title: tab.title.unwrap_or_default(),
                }),
                url,
            },
            _ => SenderKind::Other,
        }
    }
}

/// A drop's name as a content script makes it (`newDropId`): kept by the background until the
/// drop's second message, so its size and alphabet are checked, not trusted.
fn is_drop_id(id: &str) -> bool {
    (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
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
        Ok(
            Request::PageDrop {
                drop_id: Some(ref id),
                ..
            }
            | Request::PageDropText {
                drop_id: ref id, ..
            },
        ) if !is_drop_id(id) => Err(RouterError::Malformed {
            kind,
            reason: "drop_id is not 1 to 32 ASCII letters and digits".into(),
        }),
        Ok(request) => Ok(request),
        Err(e) => Err(RouterError::Malformed {
            kind,
            reason: e.to_string(),
        }),
    }
}

/// Route one message from a sender of `kind`. Requests that touch pairings are taken only from the
/// extension's own pages; page events only from its content scripts.
pub async fn route<E: Env>(
    env: &E,
    memory: &Memory,
    message: Value,
    kind: &SenderKind,
) -> Result<Answer, RouterError> {
    route_request(env, memory, parse(message)?, kind).await
}

/// Route one request already read into its type (the browser's path: the message goes from the
/// `JsValue` straight into [`Request`], its observation as JSON text read by `apc-content`).
pub async fn route_request<E: Env>(
    env: &E,
    memory: &Memory,
    request: Request,
    kind: &SenderKind,
) -> Result<Answer, RouterError> {
    let page_only = matches!(
        request,
        Request::PageDrop { .. }
            | Request::PageDropText { .. }
            | Request::PageUndo { .. }
            | Request::PageNoteHidden
    );
    // The note (its Undo, its being hidden) lives in the top frame only: no frame speaks for it.
    let top_only = matches!(request, Request::PageUndo { .. } | Request::PageNoteHidden);
    match (&request, kind) {
        (Request::Ping | Request::Unknown, _) => {}
        (_, SenderKind::ContentScript { frame: Some(_), .. }) if top_only => {
            return Err(RouterError::NotAllowed("frame"))
        }
        (_, SenderKind::ContentScript { .. }) if page_only => {}
        (_, SenderKind::ExtensionPage) if !page_only => {}
        _ => {
            return Err(RouterError::NotAllowed(if page_only {
                "page"
            } else {
                "extension page"
            }))
        }
    }
    Ok(match (request, kind) {
        (Request::Ping, _) => Answer::Pong(Pong {
            standard: apc_core::APC_STANDARD_VERSION,
            version: crate::EXTENSION_VERSION,
        }),
        (
            Request::PageDrop {
                payload,
                observation,
                drop_id,
                frame: seen,
            },
            SenderKind::ContentScript { tab_id, url, frame },
        ) => {
            let source = SenderKind::source(*tab_id, url, frame.as_ref());
            let seen = seen.as_ref();
            match drop_id {
                Some(id) => {
                    let outcome =
                        flows::drop_first(env, memory, &source, seen, &payload, &observation, &id)
                            .await?;
                    let waits = memory.page_texts.waits(*tab_id, source.frame_id, &id);
                    Answer::DropFirst(DropFirst {
                        outcome,
                        send_page_text: waits,
                    })
                }
                None => Answer::Drop(
                    flows::drop(env, memory, &source, seen, &payload, &observation).await?,
                ),
            }
        }
        (
            Request::PageDropText {
                drop_id,
                observation,
            },
            SenderKind::ContentScript { tab_id, url, frame },
        ) => {
            let source = SenderKind::source(*tab_id, url, frame.as_ref());
            Answer::PageText(flows::drop_text(env, memory, &source, &drop_id, &observation).await?)
        }
        (Request::PageUndo { token }, SenderKind::ContentScript { tab_id, .. }) => {
            Answer::Unpinned(flows::undo(env, *tab_id, &token).await?)
        }
        (Request::PageNoteHidden, SenderKind::ContentScript { tab_id, .. }) => {
            flows::note_hidden(env, *tab_id).await?;
            Answer::Done {}
        }
        (Request::PopupState, _) => Answer::Popup(Box::new(flows::popup_state(env, false).await?)),
        (Request::PopupRefresh, _) => Answer::Popup(Box::new(flows::popup_state(env, true).await?)),
        (Request::PointSelection { pairing }, _) => {
            Answer::Pinned(flows::point_selection(env, PointBy::Popup(pairing), None, None).await?)
        }
        (Request::Unpin { pairing }, _) => {
            Answer::Unpinned(flows::unpin(env, &pairing, None).await?)
        }
        (Request::Revoke { pairing }, _) => Answer::Revoked(flows::revoke(env, &pairing).await?),
        (Request::DismissGiveBack { pairing }, _) => {
            flows::dismiss_give_back(env, &pairing).await?;
            Answer::Done {}
        }
        (Request::PairCode { hub, code }, _) => {
            Answer::ConsentOpened(flows::pair_code(env, &hub, &code).await?)
        }
        (Request::ConsentGet { id }, _) => {
            Answer::Consent(Box::new(flows::consent_get(env, &id).await?))
        }
        (Request::ConsentAnswer { id, allow }, _) => {
            Answer::ConsentAnswered(flows::consent_answer(env, memory, &id, allow).await?)
        }
        // `parse` already turned this into `UnknownType` with its name; kept total, never a panic.
        (Request::Unknown, _) => return Err(RouterError::UnknownType(String::new())),
        (_, _) => return Err(RouterError::NotAllowed("page")),
    })
}

/// The wire form of a reply, messages in English (the logic's own words).
pub fn to_wire(reply: Result<Answer, RouterError>) -> Value {
    to_wire_localized(reply, |_| None)
}

/// The wire form of a reply; an error in the extension's own words is said with `localize` (the
/// browser's `i18n`) when it knows the message.
pub fn to_wire_localized(
    reply: Result<Answer, RouterError>,
    localize: impl Fn(&Msg) -> Option<String>,
) -> Value {
    match reply {
        Ok(answer) => {
            let mut wire = serde_json::to_value(answer).unwrap_or_else(|_| json!({}));
            if let Value::Object(fields) = &mut wire {
                fields.insert("ok".into(), Value::Bool(true));
            }
            wire
        }
        Err(e) => {
            let mut wire = json!({ "ok": false, "error": e.wire_code(), "message": e.to_string() });
            if let RouterError::Flow { field, msg, .. } = &e {
                if let Some(field) = field {
                    wire["field"] = json!(field);
                }
                if let Some(text) = msg.as_ref().and_then(&localize) {
                    wire["message"] = json!(text);
                }
            }
            wire
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::logic::tests::fakes::World;

    fn run(message: Value) -> Value {
        let world = World::new();
        to_wire(world.run(route(&world, &world.memory, message, &SenderKind::Other)))
    }

    #[test]
    fn ping_answers_the_standard_from_core_and_the_extension_version() {
        assert_eq!(
            run(json!({ "type": "ping" })),
            json!({ "ok": true, "standard": apc_core::APC_STANDARD_VERSION, "version": crate::EXTENSION_VERSION })
        );
    }

    #[test]
    fn an_error_in_the_extensions_own_words_is_localized_and_keeps_its_field() {
        let error = RouterError::from(FlowError::HubInvalid("ftp://x".into()));
        let wire = to_wire_localized(Err(error.clone()), |m| {
            Some(format!("[{}:{}]", m.key, m.subs.join(",")))
        });
        assert_eq!(wire["message"], "[errHubInvalid:ftp://x]");
        assert_eq!(wire["field"], "hub");
        assert_eq!(wire["error"], "hub_invalid");
        // No translation: the English words.
        let english = to_wire(Err(error));
        assert!(english["message"]
            .as_str()
            .unwrap()
            .contains("not the address of a hub"));
        // A hub's refusal is said in the extension's words too, by its code (the hub's own
        // English words are not shown).
        let hub = RouterError::from(FlowError::Hub(
            crate::logic::hub_api::HubCallError::Refused {
                code: "ticket_used".into(),
                message: "That ticket was used.".into(),
            },
        ));
        let wire = to_wire_localized(Err(hub), |m| Some(format!("[{}]", m.key)));
        assert_eq!(wire["message"], "[errTicketUsed]");
        assert_eq!(wire["field"], "code");
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
            RouterError::NotAllowed("page"),
            RouterError::Flow {
                code: "c".into(),
                message: "m".into(),
                field: None,
                msg: None,
            },
        ];
        let mut codes: Vec<_> = errors.iter().map(RouterError::code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
    }

    #[test]
    fn a_drop_id_is_checked_not_trusted() {
        for bad in [
            String::new(),
            "d".repeat(33),
            "d1 ".into(),
            "d\u{e9}".into(),
        ] {
            for message in [
                json!({ "type": "page.drop", "payload": "{}", "observation": "{}", "drop_id": bad }),
                json!({ "type": "page.drop_text", "drop_id": bad, "observation": "" }),
            ] {
                assert!(
                    matches!(parse(message.clone()), Err(RouterError::Malformed { .. })),
                    "{message}"
                );
            }
        }
        let ok =
            json!({ "type": "page.drop_text", "drop_id": "d0123abcdef456789", "observation": "" });
        assert!(parse(ok).is_ok());
    }

    #[test]
    fn pairing_requests_are_refused_from_anyone_but_the_extensions_pages() {
        for message in [
            json!({ "type": "revoke", "pairing": "p1" }),
            json!({ "type": "popup_state" }),
            json!({ "type": "consent_answer", "id": "c", "allow": true }),
        ] {
            let kind = SenderKind::ContentScript {
                tab_id: 1,
                url: "https://example.org/".into(),
                frame: None,
            };
            let world = World::new();
            let wire = to_wire(world.run(route(&world, &world.memory, message.clone(), &kind)));
            assert_eq!(wire["error"], json!("not_allowed"), "{message}");
        }
        for drop in [
            json!({ "type": "page.drop", "payload": "{}", "observation": "{}" }),
            json!({ "type": "page.drop", "payload": "{}", "observation": "{}", "drop_id": "d1" }),
            json!({ "type": "page.drop_text", "drop_id": "d1", "observation": "{}" }),
        ] {
            let world = World::new();
            let wire = to_wire(world.run(route(
                &world,
                &world.memory,
                drop,
                &SenderKind::ExtensionPage,
            )));
            assert_eq!(wire["error"], json!("not_allowed"));
        }
        // From a page: a second part no first part announced is refused with its own code.
        let world = World::new();
        let page = SenderKind::ContentScript {
            tab_id: 7,
            url: "https://example.org/a".into(),
            frame: None,
        };
        let text = json!({ "type": "page.drop_text", "drop_id": "d1", "observation": "" });
        let wire = to_wire(world.run(route(&world, &world.memory, text, &page)));
        assert_eq!(wire["error"], json!("drop_unknown"));
        // A drop's first message that pins (or asks) is answered with its outcome and a call for
        // its page text; one that fails asks for none (the error answer has no such field).
        let page = SenderKind::ContentScript {
            tab_id: 7,
            url: crate::logic::tests::fakes::PAGE.into(),
            frame: None,
        };
        let first = |ticket: &str| {
            json!({
                "type": "page.drop", "drop_id": "d2",
                "payload": crate::logic::tests::fakes::payload("ag_claude", ticket),
                "observation": crate::logic::tests::fakes::pointed_observation(crate::logic::tests::fakes::PAGE),
            })
        };
        let ticket = world.hub.mint("ag_claude");
        let wire = to_wire(world.run(route(&world, &world.memory, first(&ticket), &page)));
        assert_eq!(wire["ok"], json!(true), "{wire}");
        assert!(wire["consent"].is_string());
        assert_eq!(wire["send_page_text"], json!(true));
        let mut refused = first(&ticket);
        refused["payload"] = json!("{}");
        let wire = to_wire(world.run(route(&world, &world.memory, refused, &page)));
        assert_eq!(wire["ok"], json!(false));
        assert!(wire.get("send_page_text").is_none());
    }

    #[test]
    fn senders_are_told_apart_by_id_url_tab_and_frame() {
        let base = "chrome-extension://abc/";
        let sender = |v: Value| serde_json::from_value::<Sender>(v).unwrap();
        let popup =
            sender(json!({ "id": "abc", "url": "chrome-extension://abc/popup/popup.html" }));
        assert_eq!(popup.kind("abc", base), SenderKind::ExtensionPage);
        let page = sender(
            json!({ "id": "abc", "url": "https://example.org/a", "tab": { "id": 7 }, "frameId": 0 }),
        );
        assert_eq!(
            page.kind("abc", base),
            SenderKind::ContentScript {
                tab_id: 7,
                url: "https://example.org/a".into(),
                frame: None,
            }
        );
        // A frame of a web page is the extension's content script in that frame, named as the
        // browser names it: its own URL and origin, and its tab's page.
        let tab = json!({ "id": 7, "url": "https://news.example/story", "title": "Story" });
        let frame = sender(
            json!({ "id": "abc", "url": "https://widget.example/c", "origin": "https://widget.example", "tab": tab, "frameId": 3 }),
        );
        assert_eq!(
            frame.kind("abc", base),
            SenderKind::ContentScript {
                tab_id: 7,
                url: "https://widget.example/c".into(),
                frame: Some(SubFrame {
                    frame_id: 3,
                    origin: "https://widget.example".into(),
                    top_url: "https://news.example/story".into(),
                    top_title: "Story".into(),
                }),
            }
        );
        // Frames without an address of their own, which the extension's script runs in too.
        for url in [
            "about:srcdoc",
            "about:blank",
            "data:text/html,x",
            "blob:https://news.example/1",
        ] {
            let frame = sender(
                json!({ "id": "abc", "url": url, "origin": "https://news.example", "tab": tab, "frameId": 4 }),
            );
            assert!(
                matches!(
                    frame.kind("abc", base),
                    SenderKind::ContentScript { frame: Some(_), .. }
                ),
                "{url}"
            );
        }
        // No origin from the browser: an opaque one.
        let frame = sender(json!({ "id": "abc", "url": "about:blank", "tab": tab, "frameId": 4 }));
        assert!(matches!(
            frame.kind("abc", base),
            SenderKind::ContentScript { frame: Some(SubFrame { ref origin, .. }), .. } if origin == "null"
        ));
        // A frame of a tab that is no web page, or a frame that is another extension's or a file.
        let file_tab = json!({ "id": 7, "url": "file:///x.html" });
        let frame = sender(
            json!({ "id": "abc", "url": "https://widget.example/c", "tab": file_tab, "frameId": 3 }),
        );
        assert_eq!(frame.kind("abc", base), SenderKind::Other);
        for url in [
            "chrome-extension://zzz/x.html",
            "file:///x.html",
            "javascript:1",
        ] {
            let frame = sender(json!({ "id": "abc", "url": url, "tab": tab, "frameId": 3 }));
            assert_eq!(frame.kind("abc", base), SenderKind::Other, "{url}");
        }
        let other =
            sender(json!({ "id": "zzz", "url": "chrome-extension://abc/popup/popup.html" }));
        assert_eq!(other.kind("abc", base), SenderKind::Other);
        let file = sender(
            json!({ "id": "abc", "url": "file:///x.html", "tab": { "id": 7 }, "frameId": 0 }),
        );
        assert_eq!(file.kind("abc", base), SenderKind::Other);
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

    #[test]
    fn a_frame_may_drop_but_never_speak_for_the_note_of_its_tab() {
        let frame = SenderKind::ContentScript {
            tab_id: 7,
            url: "https://widget.example/c".into(),
            frame: Some(SubFrame {
                frame_id: 3,
                origin: "https://widget.example".into(),
                top_url: crate::logic::tests::fakes::PAGE.into(),
                top_title: "An article".into(),
            }),
        };
        for message in [
            json!({ "type": "page.undo", "token": "p1:rd_1" }),
            json!({ "type": "page.note_hidden" }),
            json!({ "type": "popup_state" }),
        ] {
            let world = World::new();
            let wire = to_wire(world.run(route(&world, &world.memory, message.clone(), &frame)));
            assert_eq!(wire["error"], json!("not_allowed"), "{message}");
            assert!(world.ui.alerts.borrow().is_empty(), "{message}");
        }
        // A drop it takes: answered (here, a bad payload, said in the top frame's note).
        let world = World::new();
        let drop = json!({ "type": "page.drop", "payload": "{}", "observation": "{}",
            "frame": { "visible": true, "x": 3.0, "y": 4.0 } });
        let wire = to_wire(world.run(route(&world, &world.memory, drop, &frame)));
        assert_eq!(wire["error"], json!("invalid_payload"), "{wire}");
        assert_eq!(world.ui.notes.borrow().len(), 1);
    }
}
