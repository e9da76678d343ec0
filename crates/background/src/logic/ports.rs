//! The ports: what the logic needs from the browser, as small traits. The browser adapters
//! (`crate::adapters`) implement them by calling extension APIs and decide nothing; the tests
//! implement them in memory.
//!
//! The traits use `async fn` without `Send` bounds on purpose: the background is one thread (a
//! service worker or an event page), and so are the native tests.
#![allow(async_fn_in_trait)]

use apc_core::page_link::How;
use serde::{Deserialize, Serialize};

use super::state::{PairedBy, State};
use super::views::{Msg, Note, ToolbarView};

/// A browser API failed (storage, IndexedDB, tabs, windows): its message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PortError(pub String);

/// A pairing the person has not said yes or no to yet (kept in `storage.session`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PendingConsent {
    pub id: String,
    /// When it was asked, epoch milliseconds (Allow is refused before [`super::views::ALLOW_DELAY_MS`]).
    #[serde(default)]
    pub created_at_ms: u64,
    /// A drop the person made on a page, or a code they typed in the popup.
    #[serde(default)]
    pub how: PairedBy,
    pub hub_origin: String,
    pub hub_name: String,
    pub endpoints: Option<apc_core::page_link::PageEndpoints>,
    pub agent_handle: String,
    pub agent_name: String,
    /// The drag's ticket, or the ticket a typed code stands for: spent by `POST {page.pair}`.
    pub ticket: String,
    /// The tab the drop came from, told the outcome.
    pub tab_id: Option<i64>,
    pub page_url: Option<String>,
    /// What to pin with the pairing (a drop's reading); none for a code.
    pub reading: Option<apc_core::page_link::PageReading>,
    /// The drop whose page text is still to join `reading` (its second message), if any.
    #[serde(default)]
    pub text_of_drop: Option<String>,
    /// The frame of the tab that drop was in (`0`, and in records older than frames: the top).
    #[serde(default)]
    pub drop_frame_id: i64,
}

/// The pairings and the consents waiting for an answer.
pub trait Store {
    /// The pairings as stored; a missing or unreadable record is no pairings.
    async fn load(&self) -> Result<State, PortError>;
    /// Loads, changes and saves under one lock, so two events handled at once cannot lose each
    /// other's change; gives the closure's result and the new state.
    async fn update<R>(
        &self,
        change: impl FnOnce(&mut State) -> R,
    ) -> Result<(R, State), PortError>;
    async fn put_consent(&self, consent: &PendingConsent) -> Result<(), PortError>;
    async fn get_consent(&self, id: &str) -> Result<Option<PendingConsent>, PortError>;
    async fn delete_consent(&self, id: &str) -> Result<(), PortError>;
    /// Remembers which consent a window shows, so closing it answers "no".
    async fn put_consent_window(&self, window_id: i64, consent_id: &str) -> Result<(), PortError>;
    /// The consent a closed window showed, forgetting the link.
    async fn take_consent_window(&self, window_id: i64) -> Result<Option<String>, PortError>;
}

/// Where grants (bearer secrets) live, by pairing id: never where a page can read them.
pub trait GrantVault {
    async fn get(&self, pairing_id: &str) -> Result<Option<String>, PortError>;
    async fn put(&self, pairing_id: &str, grant: &str) -> Result<(), PortError>;
    async fn delete(&self, pairing_id: &str) -> Result<(), PortError>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
}

/// One HTTP request. The adapter sends it with a time limit that covers the body, a byte cap,
/// and never follows a redirect (the standard's transport rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub method: Method,
    pub url: String,
    pub bearer: Option<String>,
    pub json_body: Option<String>,
    pub timeout_ms: u32,
    pub max_bytes: usize,
}

/// What came back: the status and at most `max_bytes` of body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    /// The `Content-Type` header, lower-cased, without parameters.
    pub content_type: String,
    pub body: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    #[error("no answer within {0} ms")]
    Timeout(u32),
    #[error("could not reach it ({0})")]
    Unreachable(String),
    #[error("it answered with a redirect")]
    Redirected,
    #[error("its answer is larger than {0} bytes")]
    TooLarge(usize),
}

pub trait Http {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError>;
}

/// A tab: its id, and the URL and title of its top document (the page the person is on).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tab {
    pub id: i64,
    pub url: String,
    pub title: String,
}

/// Which document of a tab is asked for its selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CollectAt {
    /// The frame the browser named (the context menu's `frameId`; `0` the top): it answers for its
    /// own selection.
    Frame(i64),
    /// The top document, following the focus: when the focus is in one of its frames, it says
    /// which ([`Collected::InFrame`]).
    Focus,
    /// The frame at this place below the top (each step its index among its parent's
    /// `window.frames`), where the focus led; it too may say the focus is deeper still.
    Path(Vec<u32>),
}

/// What a content script answered when asked for the selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Collected {
    /// The observation as the content script encoded it (JSON text), read by `apc-content`; from
    /// a frame, that frame as its content script names it.
    Observation {
        json: String,
        frame: Option<FrameSeen>,
    },
    /// The focus is in a frame of the document asked: that frame's place ([`CollectAt::Path`]).
    InFrame(Vec<u32>),
    /// The content script said why not (`no_selection`, `native_drops`, ...).
    Refused(String),
}

/// A frame as its own content script names it: its URL and origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameSeen {
    pub url: String,
    pub origin: String,
}

/// A frame's answer about one of its own frames at a point ([`PageUi::frame_shown`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameShown {
    /// The frame's element is there, under nothing, with nothing above it making it invisible.
    pub shown: bool,
    /// The point in the asked frame's own viewport.
    pub x: f64,
    pub y: f64,
    /// The asked frame's own parent frame; `None` for the tab's top frame.
    pub parent: Option<i64>,
}

/// The browser's UI around pages: notes in a page, the consent window, the toolbar.
pub trait PageUi {
    /// Shows a note in a tab's top frame; a page that cannot hear it is left alone.
    async fn note(&self, tab_id: i64, note: &Note);
    /// Asks a tab's content script (in the document `at` names) for what it sees of the selection.
    async fn collect(&self, tab_id: i64, how: How, at: &CollectAt) -> Result<Collected, PortError>;
    /// Asks frame `frame_id` of a tab whether its frame `child` is shown at point (`x`, `y`) of
    /// `child`'s viewport: where the browser cannot tell a frame itself whether it is visible.
    async fn frame_shown(
        &self,
        tab_id: i64,
        frame_id: i64,
        child: i64,
        x: f64,
        y: f64,
    ) -> Result<FrameShown, PortError>;
    /// Opens the consent window for a pending pairing; gives the window's id.
    async fn open_consent(&self, consent_id: &str) -> Result<Option<i64>, PortError>;
    /// The active tab of the focused window.
    async fn active_tab(&self) -> Option<Tab>;
    /// Badge, context menu entries and alarms, as the logic computed them.
    async fn show_toolbar(&self, view: &ToolbarView);
    /// Marks the toolbar button of one tab (badge `!` and its tooltip): what the person sees when a
    /// page hid the note meant for them.
    async fn alert_tab(&self, tab_id: i64, msg: &Msg);
}

/// The time, and fresh ids.
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
    /// A fresh random id (a consent's).
    fn new_id(&self) -> String;
}

/// Every port the flows need, as one value the adapters (and the tests) provide. What the logic
/// itself remembers between events is not a port: `memory::Memory`.
pub trait Env {
    type Store: Store;
    type Vault: GrantVault;
    type Http: Http;
    type Ui: PageUi;
    type Clock: Clock;
    fn store(&self) -> &Self::Store;
    fn vault(&self) -> &Self::Vault;
    fn http(&self) -> &Self::Http;
    fn ui(&self) -> &Self::Ui;
    fn clock(&self) -> &Self::Clock;
}
