//! The page app's pin as the agent sees it: a focus of kind `page_reading` that carries only
//! identifiers (the reading id and the page's origin), never the page's text, title, path, query or
//! fragment: a page sets those freely (`history.replaceState`), and a focus travels outside the
//! untrusted envelope of `page__get_reading`. The full URL stays inside the reading.

use apc_core::page_link::{PAGE_APP_ID, PAGE_GET_READING_TOOL, PAGE_READING_KIND};
use apc_core::{AppRef, FocusPayload, FocusTarget};

use crate::store::PinRow;

/// The page app's name as the hub shows it to agents.
pub const PAGE_APP_NAME: &str = "Web page";

/// The hub's name for an app's tool: `<app>__<tool>`.
pub fn relayed_tool(app: &str, tool: &str) -> String {
    apc_core::app_tool_name(app, tool).unwrap_or_else(|_| format!("{app}__{tool}"))
}

pub fn page_app() -> AppRef {
    AppRef {
        id: PAGE_APP_ID.to_owned(),
        name: PAGE_APP_NAME.to_owned(),
        origin: None,
        unverified: None,
        declared_name: None,
    }
}

/// The page's origin as a browser serializes it (`https://example.com`, `"null"` for a `file:` page):
/// the only part of a reading's URL a focus carries.
pub fn page_origin(url: &url::Url) -> String {
    apc_core::manifest::js_origin(url)
}

/// The focus of a pin: the reading's id, the page's origin, and the hub's tool call that reads it.
pub fn focus_for(pin: &PinRow) -> FocusPayload {
    let mut next_args = serde_json::Map::new();
    next_args.insert("id".into(), pin.reading_id.clone().into());
    FocusPayload {
        target: FocusTarget {
            kind: PAGE_READING_KIND.to_owned(),
            id: Some(pin.reading_id.clone()),
            part: None,
            params: None,
        },
        app_url: pin.app_url.clone(),
        pinned_at: pin.pinned_at.clone(),
        next: relayed_tool(PAGE_APP_ID, PAGE_GET_READING_TOOL),
        next_args,
        part_note: None,
        trimmed: None,
        gone: None,
        app: Some(page_app()),
    }
}
