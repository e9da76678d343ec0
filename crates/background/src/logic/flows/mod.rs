//! The extension's flows, each from one event to its end, one file each:
//!
//! | file | starts with | ends with |
//! |---|---|---|
//! | [`drop`] | a trusted drop of an agent's mark (`page.drop`) | an app's own note, a pin, or the consent window open |
//! | [`page_text`] | a drop's second message (`page.drop_text`) | its page text at the hub, joined, or held |
//! | [`consent`] | a new pairing asked for (drop, or the dock's code) | the person's answer: paired (and pinned), or not |
//! | [`point`] | Point in the popup, the context menu, the keyboard command | the selection pinned, or the refusal shown |
//! | [`pin`] | a reading to pin; Unpin and Undo | the pin kept (page told, with Undo), or gone |
//! | [`revoke`] | Revoke in the popup; the give-back alarm | revoked at once; the grant given back, pending or dismissed |
//! | [`status`] | the pin-status alarm, the popup, start-up | each pairing's hub state and pin as the hub said |
//!
//! [`outcome`] holds [`FlowError`] and every typed answer; [`reading`] turns a content script's
//! observation into what a flow pins; [`shared`] has the small steps many flows take (the time as
//! the wire writes it, the toolbar shown). This file only names them: a flow that needed something
//! defined here while this file re-exports the flow would be an import circle. Each flow is a plain async function over the ports ([`Env`])
//! and returns a typed answer; the rules they apply come from `apc-core` (payload, origins,
//! `apc.json`, notes, the pairing code, hub answers), `apc-content` (the reading) and [`State`].
//!
//! [`Env`]: crate::logic::ports::Env
//! [`State`]: crate::logic::state::State

pub mod consent;
pub mod drop;
pub mod outcome;
pub mod page_text;
pub mod pin;
pub mod point;
mod reading;
pub mod revoke;
mod shared;
pub mod status;

pub use consent::{consent_answer, consent_get, pair_code, window_closed};
pub use drop::{drop, drop_first};
pub use outcome::*;
pub use page_text::drop_text;
pub use pin::{note_hidden, parse_undo_token, undo, undo_token, unpin};
pub use point::{point_selection, MenuFrame, PointBy};
pub use revoke::{dismiss_give_back, retry_give_backs, revoke};
pub use status::{popup_state, refresh_status, start};
