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

    /// The error in the extension's own words, as a message key (localized by the adapters); `None`
    /// when the words are a hub's or a parser's, shown as they are.
    pub fn msg(&self) -> Option<Msg> {
        let m = match self {
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
            Self::BadPayload(why) => Msg::new("errBadPayload", [why.clone()]),
            Self::Hub(HubCallError::Unreachable(why)) => {
                Msg::new("errHubUnreachable", [why.clone()])
            }
            Self::Hub(HubCallError::Revoked { by }) => Msg::new("errHubRevoked", [by.clone()]),
            Self::Hub(HubCallError::GrantUnknown) => Msg::new("errGrantUnknown", []),
            _ => return None,
        };
        Some(m)
    }

    /// The error as a note in a page.
    pub fn note(&self) -> Note {
        match self.msg() {
            Some(msg) => Note {
                kind: NoteKind::Error,
                text: NoteText::Msg(msg),
                link: None,
                undo_token: None,
            },
            None => Note::error(self.to_string()),
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
