//! What the person sees, decided here and only rendered by JS: the popup's view model
//! ([`PopupView`]), the consent window's ([`ConsentView`]), a note in a page ([`Note`]) and the
//! toolbar (badge, menus, alarms: [`ToolbarView`]). Text the person reads is a message key of
//! `extension/_locales/*/messages.json` with its substitutions ([`Msg`]); the adapters localize it.

use apc_core::page_link::PinState;
use apc_core::{display_origin, is_loopback_url};
use serde::Serialize;

use super::state::{GiveBackStatus, HubState, PairedBy, State};
use super::time::iso;

/// How long the popup's Revoke waits for its confirming second click.
pub const REVOKE_CONFIRM_MS: u32 = 4000;
/// The hub the popup offers first for pairing with a code.
pub const DEFAULT_HUB: &str = "http://127.0.0.1:7410";
/// How long the consent window must have been visible and focused before Allow is enabled (as
/// browsers do for install prompts), and the least time between asking and an Allow the background takes.
pub const ALLOW_DELAY_MS: u32 = 1000;

/// A localized message: a key of `messages.json` and its substitutions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Msg {
    pub key: &'static str,
    pub subs: Vec<String>,
}

impl Msg {
    pub fn new<const N: usize>(key: &'static str, subs: [String; N]) -> Self {
        Self {
            key,
            subs: subs.into(),
        }
    }
}

/// What a note's text is: a message to localize, or an error's own words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum NoteText {
    Msg(Msg),
    Plain(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    Info,
    Error,
    /// The agent got the text; offers Undo.
    Pointed,
    /// The extension's own note about an app (Direct only, could not check), with its link.
    Note,
}

/// A note in a page, shown by the content script in a closed shadow root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    pub kind: NoteKind,
    pub text: NoteText,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_token: Option<String>,
}

impl Note {
    pub fn info(msg: Msg) -> Self {
        Self {
            kind: NoteKind::Info,
            text: NoteText::Msg(msg),
            link: None,
            undo_token: None,
        }
    }
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            kind: NoteKind::Error,
            text: NoteText::Plain(text.into()),
            link: None,
            undo_token: None,
        }
    }
}

/// Context menu ids: one entry per live pairing, `point:<pairing id>`.
pub const MENU_PREFIX: &str = "point:";

/// The toolbar badge: a dot while a pin is unread, a check once the agent read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Badge {
    None,
    Unread,
    Read,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MenuEntry {
    pub id: String,
    pub title: Msg,
}

/// Badge, context menu entries and alarms after a change of the pairings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolbarView {
    pub badge: Badge,
    pub menus: Vec<MenuEntry>,
    /// While a pin is unread, ask the hubs now and then whether the agent read it.
    pub pin_status_alarm: bool,
    /// When the next give back is due (epoch ms), if one waits.
    pub give_back_at_ms: Option<u64>,
}

impl Badge {
    /// Whether any live pairing's pin is unread, any is read, or none.
    pub fn of(state: &State) -> Self {
        let pins = state.live_pairings().filter_map(|p| p.pin.as_ref());
        let mut badge = Badge::None;
        for pin in pins {
            if pin.seen_at.is_none() {
                return Badge::Unread;
            }
            badge = Badge::Read;
        }
        badge
    }
}

impl ToolbarView {
    /// Badge, one menu entry per live pairing (naming its agent and its hub), and the alarms.
    pub fn of(state: &State) -> Self {
        let menus = state
            .live_pairings()
            .map(|p| MenuEntry {
                id: format!("{MENU_PREFIX}{}", p.id),
                title: Msg::new(
                    "menuPointAgent",
                    [
                        // Chromium would put the selection in place of `%s`.
                        p.agent_name.replace('%', "%\u{200B}"),
                        apc_core::display_origin(&p.hub_origin),
                    ],
                ),
            })
            .collect();
        let badge = Badge::of(state);
        ToolbarView {
            badge,
            menus,
            pin_status_alarm: badge == Badge::Unread,
            give_back_at_ms: state.next_give_back_ms(),
        }
    }
}

/// A pin as the popup shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum PinView {
    None,
    Unread { pinned_at: String },
    Read { seen_at: String },
}

impl From<Option<&PinState>> for PinView {
    fn from(pin: Option<&PinState>) -> Self {
        match pin {
            None => PinView::None,
            Some(PinState {
                seen_at: Some(seen),
                ..
            }) => PinView::Read {
                seen_at: seen.clone(),
            },
            Some(pin) => PinView::Unread {
                pinned_at: pin.pinned_at.clone(),
            },
        }
    }
}

/// How a pairing's hub last answered, as the popup shows it: the stored [`HubState`] is kept for
/// the logic, this is what the person reads of it, decided here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HubView {
    /// The popup's mark of it (its `data-hub-state`, the dot's colour).
    pub state: HubMark,
    /// What the person reads.
    pub text: Msg,
    /// When the hub was last asked, for the "checked" tooltip; none if it never was.
    pub checked_at: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HubMark {
    Unknown,
    Reachable,
    Unreachable,
    RevokedByHub,
    Forgotten,
}

impl From<&HubState> for HubView {
    fn from(hub: &HubState) -> Self {
        let (state, text, at) = match hub {
            HubState::Unknown => (HubMark::Unknown, Msg::new("hubUnknown", []), None),
            HubState::Reachable { at } => {
                (HubMark::Reachable, Msg::new("hubReachable", []), Some(at))
            }
            HubState::Unreachable { at, reason } => (
                HubMark::Unreachable,
                match reason.as_str() {
                    "" => Msg::new("hubUnreachable", []),
                    reason => Msg::new("hubUnreachableReason", [reason.to_owned()]),
                },
                Some(at),
            ),
            HubState::RevokedByHub { at, by } => (
                HubMark::RevokedByHub,
                match by.as_str() {
                    "" => Msg::new("hubRevoked", []),
                    by => Msg::new("hubRevokedBy", [by.to_owned()]),
                },
                Some(at),
            ),
            HubState::Forgotten { at } => {
                (HubMark::Forgotten, Msg::new("hubForgotten", []), Some(at))
            }
        };
        HubView {
            state,
            text,
            checked_at: at.filter(|at| !at.is_empty()).cloned(),
        }
    }
}

/// Why Point is off for a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PointBlocked {
    /// The active tab is not an http(s) page.
    NoPage,
    /// The hub revoked or forgot the pairing.
    HubGone,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairingView {
    pub id: String,
    pub hub_display: String,
    pub hub_name: String,
    /// The hub is on this computer (loopback).
    pub hub_loopback: bool,
    pub agent_handle: String,
    pub agent_name: String,
    pub created_at: String,
    /// What the keyboard command points.
    pub command_default: bool,
    pub pin: PinView,
    pub hub: HubView,
    pub can_point: bool,
    pub point_blocked: Option<PointBlocked>,
    /// Unpin is offered.
    pub can_unpin: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GiveBackView {
    /// Trying again at `next_try_at`.
    Waiting {
        pairing_id: String,
        hub_display: String,
        agent_name: String,
        revoked_at: String,
        attempts: u32,
        last_error: Option<String>,
        next_try_at: String,
    },
    /// Stopped trying: the grant is deleted here, the hub may still list the pairing.
    Stopped {
        pairing_id: String,
        hub_display: String,
        agent_name: String,
        revoked_at: String,
        attempts: u32,
        last_error: Option<String>,
        stopped_at: String,
    },
}

/// The popup's whole view: popup.js renders it and decides nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PopupView {
    pub pairings: Vec<PairingView>,
    pub give_backs: Vec<GiveBackView>,
    pub revoke_confirm_ms: u32,
    pub default_hub: &'static str,
    /// The active tab is a page the extension can point at.
    pub can_point: bool,
}

impl PopupView {
    pub fn new(state: &State, active_page_is_web: bool) -> Self {
        let pairings = state
            .pairings
            .iter()
            .map(|p| {
                let point_blocked = if !active_page_is_web {
                    Some(PointBlocked::NoPage)
                } else if p.hub.is_gone() {
                    Some(PointBlocked::HubGone)
                } else {
                    None
                };
                PairingView {
                    id: p.id.clone(),
                    hub_display: display_origin(&p.hub_origin),
                    hub_name: p.hub_name.clone(),
                    hub_loopback: is_loopback_url(&p.hub_origin),
                    agent_handle: p.agent_handle.clone(),
                    agent_name: p.agent_name.clone(),
                    created_at: p.created_at.clone(),
                    command_default: state.command_default().map(|d| d.id.as_str())
                        == Some(p.id.as_str()),
                    pin: p.pin.as_ref().into(),
                    hub: HubView::from(&p.hub),
                    can_point: point_blocked.is_none(),
                    point_blocked,
                    can_unpin: p.pin.is_some() && p.is_live(),
                }
            })
            .collect();
        let give_backs = state
            .give_backs
            .iter()
            .map(|g| {
                let (pairing_id, hub_display, agent_name, revoked_at, attempts, last_error) = (
                    g.pairing_id.clone(),
                    display_origin(&g.hub_origin),
                    g.agent_name.clone(),
                    g.revoked_at.clone(),
                    g.attempts,
                    g.last_error.clone(),
                );
                match &g.status {
                    GiveBackStatus::Waiting { next_try_ms } => GiveBackView::Waiting {
                        pairing_id,
                        hub_display,
                        agent_name,
                        revoked_at,
                        attempts,
                        last_error,
                        next_try_at: iso(*next_try_ms),
                    },
                    GiveBackStatus::Stopped { at } => GiveBackView::Stopped {
                        pairing_id,
                        hub_display,
                        agent_name,
                        revoked_at,
                        attempts,
                        last_error,
                        stopped_at: at.clone(),
                    },
                }
            })
            .collect();
        PopupView {
            pairings,
            give_backs,
            revoke_confirm_ms: REVOKE_CONFIRM_MS,
            default_hub: DEFAULT_HUB,
            can_point: active_page_is_web,
        }
    }
}

/// What the consent window shows: the hub's domain first, whether the person has paired with it
/// before, whether it is on this computer, and the agent as the hub names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentView {
    pub id: String,
    pub how: PairedBy,
    pub hub_origin: String,
    pub hub_display: String,
    pub hub_name: String,
    /// The person never paired with this hub.
    pub hub_new: bool,
    /// The hub is on this computer (loopback); otherwise it is elsewhere on the network.
    pub hub_loopback: bool,
    pub agent_handle: String,
    pub agent_name: String,
    pub page_display: Option<String>,
    /// The drop landed in a frame of that page: the frame's host (none for a frame with no host of
    /// its own), said beside the page's.
    pub from_frame: bool,
    pub frame_display: Option<String>,
    /// Allow is enabled once the window has been visible and focused this long.
    pub allow_after_ms: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::state::tests::record;

    #[test]
    fn badge_and_menus_follow_the_pairings() {
        let mut s = State::default();
        s.add(record("p1", "a", PairedBy::Code)).unwrap();
        s.add(record("p2", "b", PairedBy::Drop)).unwrap();
        assert_eq!(Badge::of(&s), Badge::None);
        s.pinned(
            "p1",
            PinState {
                id: "rd_1".into(),
                pinned_at: "t".into(),
                seen_at: Some("t2".into()),
            },
            "t",
        );
        assert_eq!(Badge::of(&s), Badge::Read);
        s.pinned(
            "p2",
            PinState {
                id: "rd_2".into(),
                pinned_at: "t".into(),
                seen_at: None,
            },
            "t",
        );
        assert_eq!(Badge::of(&s), Badge::Unread);
        let toolbar = ToolbarView::of(&s);
        assert!(toolbar.pin_status_alarm);
        assert_eq!(
            toolbar
                .menus
                .iter()
                .map(|m| m.id.as_str())
                .collect::<Vec<_>>(),
            ["point:p1", "point:p2"]
        );
        assert_eq!(
            toolbar.menus[0].title.subs,
            ["A".to_owned(), "127.0.0.1:7410".to_owned()]
        );
    }

    /// The popup renders the hub's state from these alone (`popup.js` chooses no message): the
    /// wire shape `tests/ui/lib/canned.mjs` copies.
    #[test]
    fn each_hub_state_has_its_mark_its_message_and_when_it_was_checked() {
        let view = |hub: HubState| serde_json::to_value(HubView::from(&hub)).unwrap();
        let at = || "2026-11-29T00:00:00Z".to_owned();
        assert_eq!(
            view(HubState::Unknown),
            serde_json::json!({ "state": "unknown", "text": { "key": "hubUnknown", "subs": [] }, "checked_at": null })
        );
        assert_eq!(
            view(HubState::Reachable { at: at() }),
            serde_json::json!({ "state": "reachable", "text": { "key": "hubReachable", "subs": [] }, "checked_at": at() })
        );
        let unreachable = |reason: &str| HubState::Unreachable {
            at: at(),
            reason: reason.into(),
        };
        assert_eq!(
            view(unreachable("connection refused"))["text"],
            serde_json::json!({ "key": "hubUnreachableReason", "subs": ["connection refused"] })
        );
        assert_eq!(view(unreachable(""))["text"]["key"], "hubUnreachable");
        let revoked = |by: &str| HubState::RevokedByHub {
            at: at(),
            by: by.into(),
        };
        assert_eq!(view(revoked("the dock page"))["state"], "revoked_by_hub");
        assert_eq!(
            view(revoked("the dock page"))["text"]["subs"],
            serde_json::json!(["the dock page"])
        );
        assert_eq!(view(revoked(""))["text"]["key"], "hubRevoked");
        assert_eq!(
            view(HubState::Forgotten { at: String::new() }),
            serde_json::json!({ "state": "forgotten", "text": { "key": "hubForgotten", "subs": [] }, "checked_at": null })
        );
    }
}
