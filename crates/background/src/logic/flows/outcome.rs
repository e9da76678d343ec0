//! What every flow answers: [`FlowError`] (each error mapped once to its wire code, its message key
//! and the popup field it is about) and the typed outcomes the router hands back to the page, the
//! popup and the consent window. No flow logic lives here.

use apc_core::pairing_code::PairingCodeError;
use apc_core::FocusPayload;
use serde::Serialize;

use crate::logic::hub_api::HubCallError;
use crate::logic::ports::PortError;
use crate::logic::views::{ConsentView, Msg, Note, NoteKind, NoteText};

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("the browser failed: {0}")]
    Browser(#[from] PortError),
    #[error(transparent)]
    Hub(#[from] HubCallError),
    #[error("this drag is not an agent's mark from an APC hub: {0}")]
    BadPayload(String),
    #[error(transparent)]
    Content(#[from] apc_content::ContentError),
    #[error("select some text on the page first")]
    NoSelection,
    #[error("the extension cannot read this page; reload it and try again")]
    PageUnreachable,
    #[error("pointing works on web pages (http and https) only")]
    NotAWebPage,
    #[error("no agent is paired yet: drag an agent's mark from your hub's dock page onto the page first")]
    NoPairing,
    #[error("choose the agent first: use Point in the toolbar popup, or its entry in the page's context menu")]
    NoCommandDefault,
    #[error("that pairing is gone")]
    UnknownPairing,
    #[error("that request to pair is gone (answered, or the browser was restarted)")]
    UnknownConsent,
    #[error("Allow came before the window had been shown for a moment; nothing was paired")]
    AllowTooSoon,
    #[error("{0} is not the address of a hub (like http://127.0.0.1:7410)")]
    HubInvalid(String),
    #[error(transparent)]
    Code(#[from] PairingCodeError),
    #[error(transparent)]
    Duplicate(#[from] crate::logic::state::DuplicateId),
    #[error("no drop of this page waits for its page text")]
    UnknownDrop,
    #[error("the drop landed in a frame you could not see there (hidden, see-through or covered); nothing was pointed")]
    FrameNotSeen,
}

impl FlowError {
    pub fn code(&self) -> &str {
        match self {
            Self::Browser(_) => "browser_error",
            Self::Hub(e) => e.code(),
            Self::BadPayload(_) => "invalid_payload",
            Self::Content(e) => e.code(),
            Self::NoSelection => "no_selection",
            Self::PageUnreachable => "page_unreachable",
            Self::NotAWebPage => "not_a_web_page",
            Self::NoPairing => "no_pairing",
            Self::NoCommandDefault => "no_command_default",
            Self::UnknownPairing => "unknown_pairing",
            Self::UnknownConsent => "consent_unknown",
            Self::AllowTooSoon => "allow_too_soon",
            Self::HubInvalid(_) => "hub_invalid",
            Self::Code(_) => "code_invalid",
            Self::Duplicate(_) => "hub_bad_answer",
            Self::UnknownDrop => "drop_unknown",
            Self::FrameNotSeen => "frame_not_seen",
        }
    }

    /// The error in the extension's own words, as a message key of `_locales` (localized by the
    /// adapters). Every error has one: no parser's, browser's or hub's internal wording reaches the
    /// person (always `Some`; an `Option` for the router's wire form).
    pub fn msg(&self) -> Option<Msg> {
        let m = match self {
            Self::Browser(_) => Msg::new("errBrowser", []),
            Self::Hub(e) => hub_msg(e),
            Self::BadPayload(why) => Msg::new("errBadPayload", [why.clone()]),
            Self::Content(e) => content_msg(e),
            Self::NoSelection => Msg::new("errNoSelection", []),
            Self::PageUnreachable => Msg::new("errPageUnreachable", []),
            Self::NotAWebPage => Msg::new("errNotAWebPage", []),
            Self::NoPairing => Msg::new("errNoPairing", []),
            Self::NoCommandDefault => Msg::new("errNoCommandDefault", []),
            Self::UnknownPairing => Msg::new("errUnknownPairing", []),
            Self::UnknownConsent => Msg::new("errUnknownConsent", []),
            Self::AllowTooSoon => Msg::new("errAllowTooSoon", []),
            Self::FrameNotSeen => Msg::new("errFrameNotSeen", []),
            Self::HubInvalid(address) => Msg::new("errHubInvalid", [address.clone()]),
            Self::Code(PairingCodeError::Empty) => Msg::new("errCodeEmpty", []),
            Self::Code(PairingCodeError::Malformed) => Msg::new("errCodeMalformed", []),
            Self::Duplicate(_) => Msg::new("errHubBadAnswer", []),
            Self::UnknownDrop => Msg::new("errDropUnknown", []),
        };
        Some(m)
    }

    /// The error as a note in a page.
    pub fn note(&self) -> Note {
        Note {
            kind: NoteKind::Error,
            text: NoteText::Msg(self.msg().unwrap_or_else(|| Msg::new("errBrowser", []))),
            link: None,
            undo_token: None,
        }
    }

    /// Which field of the popup's pair-by-code form an error is about.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::HubInvalid(_) => Some("hub"),
            Self::Code(_) => Some("code"),
            Self::Hub(HubCallError::Refused { code, .. }) if code.starts_with("ticket_") => {
                Some("code")
            }
            Self::Hub(_) | Self::Duplicate(_) => Some("hub"),
            _ => None,
        }
    }
}

pub type Flow<T> = Result<T, FlowError>;

/// A failed call to a hub in the extension's words: what the person can do about it, never the
/// HTTP client's or a parser's text; a hub's refusal by its code (the hub's own message, in
/// English, is not shown).
fn hub_msg(e: &HubCallError) -> Msg {
    match e {
        HubCallError::Unreachable(_) => Msg::new("errHubUnreachable", []),
        HubCallError::NotAHub(origin, _) => Msg::new("errHubNotAHub", [origin.clone()]),
        HubCallError::Revoked { by } => Msg::new("errHubRevoked", [by.clone()]),
        HubCallError::GrantUnknown => Msg::new("errGrantUnknown", []),
        HubCallError::Refused { code, .. } => match code.as_str() {
            "ticket_unknown" => Msg::new("errTicketUnknown", []),
            "ticket_used" => Msg::new("errTicketUsed", []),
            "ticket_expired" => Msg::new("errTicketExpired", []),
            "ticket_required" => Msg::new("errTicketRequired", []),
            "pairing_in_progress" => Msg::new("errPairingInProgress", []),
            "too_large" => Msg::new("errReadingTooLarge", []),
            "reading_unknown" => Msg::new("errReadingUnknown", []),
            "grant_unknown" => Msg::new("errGrantUnknown", []),
            other => Msg::new("errHubRefused", [other.chars().take(64).collect()]),
        },
        HubCallError::BadAnswer(_) | HubCallError::Answer(_) => Msg::new("errHubBadAnswer", []),
    }
}

/// Why the page's text could not be read, by the reader's code (never its internal wording, e.g.
/// "malformed observation: point.caret: no such node").
fn content_msg(e: &apc_content::ContentError) -> Msg {
    match e.code() {
        "too_large" => Msg::new("errPageTooLarge", []),
        "unsupported_page" => Msg::new("errNotAWebPage", []),
        "nothing_pointed" => Msg::new("errNothingPointed", []),
        "field_secret" => Msg::new("errFieldSecret", []),
        "closed_shadow_root" => Msg::new("errClosedShadowRoot", []),
        _ => Msg::new("errPageUnreadable", []),
    }
}

/// The answer to a drop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DropOutcome {
    /// The page's origin is an app that answers for itself: the extension's own note, nothing paired.
    Answered {
        answered: bool,
        note: String,
        link: Option<String>,
    },
    /// An existing pairing: pinned with the drag's ticket.
    Pinned { pinned: Box<FocusPayload> },
    /// A new pairing: the consent window is open.
    Consent { consent: String },
}

/// The answer to the consent window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentOutcome {
    pub paired: bool,
    pub pinned: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_name: Option<String>,
}

/// The answer to a pin (by a drop or a selection): the focus the hub made of it. A pin's other
/// names: core's `PinState` (on the wire and as kept), `views::PinView` (as the popup shows it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pinned {
    pub pinned: Box<FocusPayload>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentOpened {
    pub consent: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unpinned {
    pub unpinned: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GiveBackOutcome {
    Done,
    Pending,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Revoked {
    pub give_back: GiveBackOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentAsked {
    pub consent: ConsentView,
}

/// What became of a drop's page text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageTextOutcome {
    /// At the hub, with its reading (or, when the page could not be read, the hub told it will not come).
    Sent,
    /// The hub had that reading's answer already.
    Already,
    /// Its drop is still being pinned: it goes once the pin is made.
    Held,
    /// Joined the reading the consent window will pin.
    Joined,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageTextSent {
    pub page_text: PageTextOutcome,
}

#[cfg(test)]
mod tests {
    use super::*;
    use apc_content::ContentError;
    use apc_core::page_link::HubAnswerError;
    use apc_core::reading_rules::ReadingError;

    /// Every error a flow can end in, with every reader's and hub's error under it.
    fn every_error() -> Vec<FlowError> {
        let mut all = vec![
            FlowError::Browser(PortError("storage.local.get failed: QuotaExceeded".into())),
            FlowError::BadPayload("the ticket is not a token".into()),
            FlowError::NoSelection,
            FlowError::PageUnreachable,
            FlowError::NotAWebPage,
            FlowError::NoPairing,
            FlowError::NoCommandDefault,
            FlowError::UnknownPairing,
            FlowError::UnknownConsent,
            FlowError::AllowTooSoon,
            FlowError::HubInvalid("ftp://x".into()),
            FlowError::Code(PairingCodeError::Empty),
            FlowError::Code(PairingCodeError::Malformed),
            FlowError::Duplicate(crate::logic::state::DuplicateId("p1".into())),
            FlowError::UnknownDrop,
        ];
        for hub in [
            HubCallError::Unreachable("could not reach it (TypeError: NetworkError)".into()),
            HubCallError::NotAHub("http://x".into(), "its apc.json has no page app".into()),
            HubCallError::Revoked {
                by: "127.0.0.1:7410".into(),
            },
            HubCallError::GrantUnknown,
            HubCallError::BadAnswer("missing field `focus` at line 1 column 2".into()),
            HubCallError::Answer(HubAnswerError::BadId("pairing id")),
        ]
        .into_iter()
        .chain(
            [
                "ticket_unknown",
                "ticket_used",
                "ticket_expired",
                "ticket_required",
                "pairing_in_progress",
                "too_large",
                "reading_unknown",
                "grant_unknown",
                "origin_refused",
                "something_new",
            ]
            .map(|code| HubCallError::Refused {
                code: code.into(),
                message: "the hub's own words".into(),
            }),
        ) {
            all.push(FlowError::Hub(hub));
        }
        for content in [
            ContentError::Malformed("point.caret: no such node".into()),
            ContentError::TooLarge("node count"),
            ContentError::UnsupportedVersion(2),
            ContentError::BadUrl,
            ContentError::NothingPointed,
            ContentError::BadTimestamp,
            ContentError::SecretField,
            ContentError::ClosedShadowRoot,
            ContentError::Rule(ReadingError::TooLarge("reading")),
            ContentError::Rule(ReadingError::NothingPointed),
        ] {
            all.push(FlowError::Content(content));
        }
        all
    }

    fn locale(name: &str) -> serde_json::Value {
        let path = format!(
            "{}/../../extension/_locales/{name}/messages.json",
            env!("CARGO_MANIFEST_DIR")
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// No internal wording ever reaches the person: every error a page note or the popup shows is
    /// a message of `_locales`, in every locale, with its placeholders filled; none repeats the
    /// words of a parser, the browser or the HTTP client.
    #[test]
    fn every_error_the_person_sees_is_a_message_of_every_locale() {
        let dir = format!("{}/../../extension/_locales", env!("CARGO_MANIFEST_DIR"));
        let locales: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(locales.len() >= 2, "{locales:?}");
        for e in every_error() {
            let msg = e.msg().unwrap_or_else(|| panic!("{e:?} has no message"));
            let NoteText::Msg(in_note) = e.note().text else {
                panic!("{e:?}: the note is not a message");
            };
            assert_eq!(in_note, msg);
            for name in &locales {
                let entry = &locale(name)[msg.key];
                let text = entry["message"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{name} has no {}", msg.key));
                let placeholders = entry["placeholders"].as_object().map_or(0, |p| p.len());
                assert_eq!(placeholders, msg.subs.len(), "{name}.{}", msg.key);
                assert!(!text.contains("malformed") && !text.contains("observation"));
            }
            for sub in &msg.subs {
                for internal in [
                    "NetworkError",
                    "line 1 column",
                    "no such node",
                    "QuotaExceeded",
                ] {
                    assert!(!sub.contains(internal), "{e:?} shows {sub:?}");
                }
            }
        }
    }

    #[test]
    fn the_readers_refusals_each_say_what_the_person_can_do() {
        let key = |e: ContentError| FlowError::Content(e).msg().unwrap().key;
        assert_eq!(key(ContentError::SecretField), "errFieldSecret");
        assert_eq!(key(ContentError::ClosedShadowRoot), "errClosedShadowRoot");
        assert_eq!(key(ContentError::NothingPointed), "errNothingPointed");
        assert_eq!(key(ContentError::TooLarge("text")), "errPageTooLarge");
        assert_eq!(key(ContentError::BadUrl), "errNotAWebPage");
        assert_eq!(
            key(ContentError::Malformed("point.caret: no such node".into())),
            "errPageUnreadable"
        );
    }
}
