//! What the background does to the browser's UI: the toolbar badge, the context menu entries, the
//! note in a page (rendered by the content script in a closed shadow root), the consent window.
//! What to show is decided by the callers; these only say it to the browser.

use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;

use crate::browser::{self, BrowserError};
use crate::state::{Badge, State};

/// Context menu ids: one entry per live pairing.
pub const MENU_PREFIX: &str = "point:";

fn js(value: &Value) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A note in the page.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Feedback {
    pub kind: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_token: Option<String>,
}

impl Feedback {
    pub fn info(text: impl Into<String>) -> Self {
        Self {
            kind: "info",
            text: text.into(),
            ..Self::default()
        }
    }
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            kind: "error",
            text: text.into(),
            ..Self::default()
        }
    }
}

/// Tells the page in `tab_id` (its top frame); a page that cannot hear it is left alone.
pub async fn feedback(tab_id: i64, feedback: Feedback) {
    let mut message = serde_json::to_value(&feedback).unwrap_or(Value::Null);
    message["type"] = json!("page.feedback");
    let _ = browser::call(
        "tabs",
        "sendMessage",
        &[
            JsValue::from_f64(tab_id as f64),
            js(&message),
            js(&json!({ "frameId": 0 })),
        ],
    )
    .await;
}

/// The toolbar badge: a dot while a pin is unread, a check once the agent read it, nothing otherwise.
pub async fn badge(state: &State) {
    let (text, color) = match state.badge() {
        Badge::Unread => ("●", "#1a73e8"),
        Badge::Read => ("✓", "#188038"),
        Badge::None => ("", "#5f6368"),
    };
    let _ = browser::call(
        "action",
        "setBadgeBackgroundColor",
        &[js(&json!({ "color": color }))],
    )
    .await;
    let _ = browser::call("action", "setBadgeText", &[js(&json!({ "text": text }))]).await;
}

/// Localized text from `_locales`, with the key itself when it is missing.
pub fn message(key: &str, substitutions: &[&str]) -> String {
    let Ok(i18n) = browser::api("i18n") else {
        return key.to_owned();
    };
    let subs: js_sys::Array = substitutions.iter().map(|s| JsValue::from_str(s)).collect();
    let get = js_sys::Reflect::get(&i18n, &"getMessage".into()).ok();
    let text = get
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
        .and_then(|f| f.call2(&i18n, &JsValue::from_str(key), &subs).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    if text.is_empty() {
        key.to_owned()
    } else {
        text
    }
}

/// One "Point ‹agent› at this" entry per live pairing, on a selection.
pub async fn menus(state: &State) -> Result<(), BrowserError> {
    browser::call("contextMenus", "removeAll", &[]).await?;
    for p in state.pairings.iter().filter(|p| p.is_live()) {
        let title = menu_title(&p.agent_name);
        let item = json!({ "id": format!("{MENU_PREFIX}{}", p.id), "title": title, "contexts": ["selection"] });
        browser::call("contextMenus", "create", &[js(&item)]).await?;
    }
    Ok(())
}

/// Badge and menus after a change of the pairings; while a pin is unread, an alarm asks the hubs
/// now and then whether the agent read it, so the badge does not stay "unread" once it has.
pub async fn after_change(state: &State) {
    badge(state).await;
    let _ = menus(state).await;
    keep_alarm(PIN_STATUS_ALARM, state.badge() == Badge::Unread).await;
}

pub const PIN_STATUS_ALARM: &str = "apc-pin-status";

/// A menu title from an agent's name: Chromium would put the selection in place of `%s`.
pub fn menu_title(agent_name: &str) -> String {
    let name = agent_name.replace('%', "%\u{200B}");
    let title = message("menuPointAgent", &[&name]);
    if title == "menuPointAgent" {
        format!("Point {name} at this")
    } else {
        title
    }
}

/// Opens the consent window for a pending pairing; gives the window's id.
pub async fn open_consent(id: &str) -> Result<Option<i64>, BrowserError> {
    let url = browser::call(
        "runtime",
        "getURL",
        &[JsValue::from_str(&format!("consent/consent.html?id={id}"))],
    )
    .await?;
    let url = url.as_string().unwrap_or_default();
    let window =
        json!({ "url": url, "type": "popup", "width": 460, "height": 580, "focused": true });
    let created = browser::call("windows", "create", &[js(&window)]).await?;
    let created: Value = serde_wasm_bindgen::from_value(created).unwrap_or(Value::Null);
    Ok(created["id"].as_i64())
}

/// Asks the content script of a tab for what it sees of the selection.
pub async fn collect(tab_id: i64, how: &str) -> Result<Value, BrowserError> {
    let message = json!({ "type": "page.collect", "how": how });
    let answer = browser::call(
        "tabs",
        "sendMessage",
        &[
            JsValue::from_f64(tab_id as f64),
            js(&message),
            js(&json!({ "frameId": 0 })),
        ],
    )
    .await?;
    Ok(serde_wasm_bindgen::from_value(answer).unwrap_or(Value::Null))
}

/// The active tab of the focused window: its id and URL.
pub async fn active_tab() -> Option<(i64, String)> {
    let tabs = browser::call(
        "tabs",
        "query",
        &[js(&json!({ "active": true, "lastFocusedWindow": true }))],
    )
    .await
    .ok()?;
    let tabs: Value = serde_wasm_bindgen::from_value(tabs).ok()?;
    let tab = tabs.get(0)?;
    Some((
        tab["id"].as_i64()?,
        tab["url"].as_str().unwrap_or_default().to_owned(),
    ))
}

/// Keeps an alarm that retries give backs while any wait, and clears it when none do.
pub async fn give_back_alarm(pending: bool) {
    keep_alarm(GIVE_BACK_ALARM, pending).await;
}

/// An alarm every 30 s (the browsers' shortest) while `wanted`, none otherwise.
async fn keep_alarm(name: &str, wanted: bool) {
    if !wanted {
        let _ = browser::call("alarms", "clear", &[JsValue::from_str(name)]).await;
        return;
    }
    let existing = browser::call("alarms", "get", &[JsValue::from_str(name)]).await;
    if existing.is_ok_and(|a| a.is_object()) {
        return;
    }
    let period = js(&json!({ "periodInMinutes": 0.5 }));
    let _ = browser::call("alarms", "create", &[JsValue::from_str(name), period]).await;
}

pub const GIVE_BACK_ALARM: &str = "apc-give-back";
