//! The background's logic: every decision the extension's background makes, as plain Rust over
//! small traits ([`ports`]), so `cargo test -p apc-background` runs all of it natively with in-memory
//! fakes.
//!
//! Why a module tree and not a crate: the logic and its browser adapters ship as one WebAssembly
//! module, and the split only has to be visible and enforced, not separately versioned. The rule is
//! checked by a test (`logic_uses_no_browser_crate`): nothing under `src/logic/` names `web_sys`,
//! `js_sys`, `wasm_bindgen`, `gloo` or the adapters.
//!
//! | module | owns |
//! |---|---|
//! | [`ports`] | the traits the browser adapters implement: store, grant vault, HTTP, page UI, clock |
//! | [`state`] | the pairings as kept, and every change to them as a `State` method |
//! | [`hub_api`] | the page app link's calls as requests over [`ports::Http`], and what each answer means |
//! | [`frames`] | which document of a tab a page event is from (top or frame), whether a dropped-on frame was seen, a frame's reading |
//! | [`apc_json`] | an origin's `apc.json` read by the standard's transport rules: a page's (what a drop gets), a hub's |
//! | [`memory`] | what the logic remembers while the background lives, held apart from the ports: the two below |
//! | [`app_checks`] | what origins' `apc.json` said, kept for later drops on them |
//! | [`page_texts`] | where each drop's page text goes (its second message) |
//! | [`flows`] | each flow from one event to its end, a file each: drop, page text, consent, point, pin/undo, revoke, status |
//! | [`views`] | what the person sees: the popup's and the consent window's view models, page notes, toolbar |
//! | [`router`] | `runtime.onMessage` requests, typed, with who may send which |
//! | [`events`] | the other browser events (menus, command, alarms, windows, start-up) |
//! | [`time`] | epoch milliseconds to RFC 3339 (the clock port gives milliseconds only) |
//!
//! Rules of the standard and of the page app link are not here: they live in `apc-core` (and page
//! readings in `apc-content`); this tree calls them.

pub mod apc_json;
pub mod app_checks;
pub mod events;
pub mod flows;
pub mod frames;
pub mod hub_api;
pub mod memory;
pub mod page_texts;
pub mod ports;
pub mod router;
pub mod state;
pub mod time;
pub mod views;

#[cfg(test)]
mod tests;

/// The extension's version: the crate's version, which `extension/manifest.json` repeats (a test
/// checks that they agree). Here, not in `lib.rs`, so the router answering `ping` with it names no
/// module above the logic.
pub const EXTENSION_VERSION: &str = env!("CARGO_PKG_VERSION");
