//! The page UI port over the browser: notes in a page (sent to the content script, which renders
//! them), the consent window, the active tab, the toolbar badge, context menu entries and alarms.
//! What to show, and when, is decided by the logic (`crate::logic::views`); this only says it to the
//! browser, localizing message keys with `i18n.getMessage`.

use apc_core::page_link::How;
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;

use super::browser;
use crate::logic::events::{GIVE_BACK_ALARM, PIN_STATUS_ALARM};
use crate::logic::ports::{CollectAt, Collected, FrameSeen, FrameShown, PageUi, PortError, Tab};
use crate::logic::views::{Badge, Msg, Note, NoteText, ToolbarView};

fn js(value: &Value) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// Localized text from `_locales`; the key and its substitutions when the key is missing.
pub fn localize(msg: &Msg) -> String {
    localized(msg).unwrap_or_else(|| format!("{} {}", msg.key, msg.subs.join(" ")))
}

/// Localized text from `_locales`, if the browser has the key.
pub fn localized(msg: &Msg) -> Option<String> {
    let text = browser::api("i18n").ok().and_then(|i18n| {
        let subs: js_sys::Array = msg.subs.iter().map(|s| JsValue::from_str(s)).collect();
        js_sys::Reflect::get(&i18n, &"getMessage".into())
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
            .and_then(|f| f.call2(&i18n, &JsValue::from_str(msg.key), &subs).ok())
            .and_then(|v| v.as_string())
    });
    text.filter(|t| !t.is_empty())
}

/// The browser's UI.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserUi;

impl PageUi for BrowserUi {
    async fn note(&self, tab_id: i64, note: &Note) {
        let text = match &note.text {
            NoteText::Msg(msg) => localize(msg),
            NoteText::Plain(text) => text.clone(),
        };
        let message = json!({
            "type": "page.feedback", "kind": note.kind, "text": text,
            "link": note.link, "undo_token": note.undo_token,
        });
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

    async fn collect(&self, tab_id: i64, how: How, at: &CollectAt) -> Result<Collected, PortError> {
        // A frame named by the browser is sent to; a place below the top goes to every frame of
        // the tab, and only the frame at that place answers.
        let (message, frame) = match at {
            CollectAt::Frame(id) => (json!({ "type": "page.collect", "how": how }), Some(*id)),
            CollectAt::Focus => (
                json!({ "type": "page.collect", "how": how, "follow_focus": true }),
                Some(0),
            ),
            CollectAt::Path(path) => (
                json!({ "type": "page.collect", "how": how, "follow_focus": true, "path": path }),
                None,
            ),
        };
        let mut args = vec![JsValue::from_f64(tab_id as f64), js(&message)];
        if let Some(id) = frame {
            args.push(js(&json!({ "frameId": id })));
        }
        let answer = browser::call("tabs", "sendMessage", &args)
            .await
            .map_err(|e| PortError(e.to_string()))?;
        Ok(collected(&answer))
    }

    async fn frame_shown(
        &self,
        tab_id: i64,
        frame_id: i64,
        child: i64,
        x: f64,
        y: f64,
    ) -> Result<FrameShown, PortError> {
        let message = json!({ "type": "page.frame_shown", "child": child, "x": x, "y": y });
        let answer = browser::call(
            "tabs",
            "sendMessage",
            &[
                JsValue::from_f64(tab_id as f64),
                js(&message),
                js(&json!({ "frameId": frame_id })),
            ],
        )
        .await
        .map_err(|e| PortError(e.to_string()))?;
        let answer: Value = serde_wasm_bindgen::from_value(answer).unwrap_or(Value::Null);
        let number = |key: &str| answer[key].as_f64().filter(|n| n.is_finite());
        match (answer["shown"].as_bool(), number("x"), number("y")) {
            (Some(shown), Some(x), Some(y)) => Ok(FrameShown {
                shown,
                x,
                y,
                parent: answer["parent"].as_i64(),
            }),
            _ => Err(PortError("the frame gave no answer".into())),
        }
    }

    async fn open_consent(&self, consent_id: &str) -> Result<Option<i64>, PortError> {
        let url = browser::call(
            "runtime",
            "getURL",
            &[JsValue::from_str(&format!(
                "consent/consent.html?id={consent_id}"
            ))],
        )
        .await
        .map_err(|e| PortError(e.to_string()))?;
        let url = url.as_string().unwrap_or_default();
        let window =
            json!({ "url": url, "type": "popup", "width": 460, "height": 620, "focused": true });
        let created = browser::call("windows", "create", &[js(&window)])
            .await
            .map_err(|e| PortError(e.to_string()))?;
        let created: Value = serde_wasm_bindgen::from_value(created).unwrap_or(Value::Null);
        Ok(created["id"].as_i64())
    }

    async fn active_tab(&self) -> Option<Tab> {
        let tabs = browser::call(
            "tabs",
            "query",
            &[js(&json!({ "active": true, "lastFocusedWindow": true }))],
        )
        .await
        .ok()?;
        let tabs: Value = serde_wasm_bindgen::from_value(tabs).ok()?;
        let tab = tabs.get(0)?;
        Some(Tab {
            id: tab["id"].as_i64()?,
            url: tab["url"].as_str().unwrap_or_default().to_owned(),
            title: tab["title"].as_str().unwrap_or_default().to_owned(),
        })
    }

    async fn show_toolbar(&self, view: &ToolbarView) {
        let (text, color) = match view.badge {
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
        if browser::call("contextMenus", "removeAll", &[])
            .await
            .is_ok()
        {
            for entry in &view.menus {
                let item = json!({ "id": entry.id, "title": localize(&entry.title), "contexts": ["selection"] });
                // One entry that fails must not stop the others.
                let _ = browser::call("contextMenus", "create", &[js(&item)]).await;
            }
        }
        let pin_status = view
            .pin_status_alarm
            .then(|| json!({ "periodInMinutes": 0.5 }));
        keep_alarm(PIN_STATUS_ALARM, pin_status, false).await;
        let give_back = view.give_back_at_ms.map(|at| json!({ "when": at as f64 }));
        keep_alarm(GIVE_BACK_ALARM, give_back, true).await;
    }

    async fn alert_tab(&self, tab_id: i64, msg: &Msg) {
        let _ = browser::call(
            "action",
            "setBadgeText",
            &[js(&json!({ "tabId": tab_id, "text": "!" }))],
        )
        .await;
        let _ = browser::call(
            "action",
            "setTitle",
            &[js(&json!({ "tabId": tab_id, "title": localize(msg) }))],
        )
        .await;
    }
}

/// The content script's answer to `page.collect`: `{ ok: true, observation: "<json>", frame? }`
/// (`frame`: `{ url, origin }` from a frame below the top), `{ ok: false, error: "in_frame", path }`
/// (the focus is in that frame) or `{ ok: false, error }`. The observation's length is checked
/// against `apc-content`'s cap while it is still a JS string, before it is copied into WebAssembly
/// memory.
fn collected(answer: &JsValue) -> Collected {
    let get = |key: &str| js_sys::Reflect::get(answer, &JsValue::from_str(key)).ok();
    if get("ok").and_then(|v| v.as_bool()) != Some(true) {
        let code = get("error").and_then(|v| v.as_string()).unwrap_or_default();
        if code == "in_frame" {
            let path = get("path").and_then(|p| serde_wasm_bindgen::from_value(p).ok());
            return path.map_or(Collected::Refused("malformed".into()), Collected::InFrame);
        }
        return Collected::Refused(code.chars().take(40).collect());
    }
    let frame = get("frame")
        .and_then(|f| serde_wasm_bindgen::from_value::<Value>(f).ok())
        .and_then(|f| {
            Some(FrameSeen {
                url: f["url"].as_str()?.chars().take(16 * 1024).collect(),
                origin: f["origin"].as_str()?.chars().take(400).collect(),
            })
        });
    match get("observation") {
        Some(v) if observation_too_large(&v) => Collected::Refused("too_large".into()),
        Some(v) => match v.as_string() {
            Some(json) => Collected::Observation { json, frame },
            None => Collected::Refused("malformed".into()),
        },
        None => Collected::Refused("malformed".into()),
    }
}

/// Whether a JS string is longer than an observation may be, without copying it.
pub fn observation_too_large(value: &JsValue) -> bool {
    wasm_bindgen::JsCast::dyn_ref::<js_sys::JsString>(value)
        .is_some_and(|s| s.length() as usize > apc_content::observation::MAX_JSON_BYTES)
}

/// Keeps an alarm while `wanted` (its options), none otherwise. A one-shot alarm (`replace`) is set
/// again for its new time; a periodic one is left running.
async fn keep_alarm(name: &str, wanted: Option<Value>, replace: bool) {
    let Some(options) = wanted else {
        let _ = browser::call("alarms", "clear", &[JsValue::from_str(name)]).await;
        return;
    };
    if !replace {
        let existing = browser::call("alarms", "get", &[JsValue::from_str(name)]).await;
        if existing.is_ok_and(|a| a.is_object()) {
            return;
        }
    }
    let _ = browser::call("alarms", "create", &[JsValue::from_str(name), js(&options)]).await;
}
