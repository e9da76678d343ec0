//! `apc-background`: the WebAssembly side of the extension's background.
//!
//! Two halves, each with its own module tree:
//! - [`logic`]: every decision — the message router, the event handlers, the flows (drop, consent,
//!   point, undo, revoke and give back, status), the pairings' state and the popup's and consent
//!   window's view models — as plain Rust over small traits ([`logic::ports`]). It runs natively
//!   under `cargo test -p apc-background` with in-memory fakes.
//! - [`adapters`]: the browser's implementations of those traits (extension storage, IndexedDB,
//!   `fetch`, tabs, windows, menus, alarms, notes). They decide nothing.
//!
//! Rules of the standard and of the page app link are in neither: they come from `apc-core` (and
//! page readings from `apc-content`).
//!
//! The `#[wasm_bindgen]` exports below are the only bindings: they convert `JsValue`s, call the logic
//! with the browser's [`adapters::BrowserEnv`] and the logic's one [`Memory`], and always resolve to a value (an answer or a clear
//! error object), never throw. `extension/background.js` registers the browser's listeners
//! synchronously and forwards every event to these exports once the module is ready.

pub mod adapters;
pub mod logic;

use std::rc::Rc;

use adapters::BrowserEnv;
use logic::memory::Memory;
use logic::{events, router};
use wasm_bindgen::prelude::*;

thread_local! {
    /// What the logic remembers while this background lives (a worker or event page that stops
    /// starts with an empty one). Each message and event gets a fresh [`BrowserEnv`]; this
    /// outlives them.
    static MEMORY: Rc<Memory> = Rc::default();
}

fn memory() -> Rc<Memory> {
    MEMORY.with(Rc::clone)
}

pub use logic::EXTENSION_VERSION;

/// Runs once when the module is instantiated: a panic is reported on the console (with its message
/// and place) instead of an opaque "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    apc_content::timing::set_timer(apc_content::timing::Timer {
        now: timing::now,
        record: timing::record,
    });
}

/// How long the reading's WebAssembly work takes inside the extension, for benchmarks: each
/// `Observation::from_json`, `build_reading`/`build_pointed` and `page_text_for` call leaves a
/// user-timing measure (`apc:from_json`, `apc:build_reading`, `apc:page_text`) on the background's global `performance`, which
/// `scripts/bench/point.mjs` reads from the worker. Two `performance.now()` calls and one measure
/// per call; at most [`timing::KEPT`] measures of each name are kept (older ones are cleared).
/// Nothing reads them in the product.
mod timing {
    use std::sync::atomic::{AtomicU32, Ordering};
    use wasm_bindgen::prelude::*;

    /// Measures of one name kept before they are cleared.
    pub const KEPT: u32 = 200;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
        #[wasm_bindgen(js_namespace = performance, js_name = measure, catch)]
        fn performance_measure(name: &str, options: &JsValue) -> Result<JsValue, JsValue>;
        #[wasm_bindgen(js_namespace = performance, js_name = clearMeasures, catch)]
        fn performance_clear_measures(name: &str) -> Result<(), JsValue>;
    }

    static COUNT_FROM_JSON: AtomicU32 = AtomicU32::new(0);
    static COUNT_BUILD: AtomicU32 = AtomicU32::new(0);
    static COUNT_PAGE_TEXT: AtomicU32 = AtomicU32::new(0);

    pub fn now() -> f64 {
        performance_now()
    }

    pub fn record(name: &'static str, start: f64, end: f64) {
        let (label, count) = match name {
            "from_json" => ("apc:from_json", &COUNT_FROM_JSON),
            "build_reading" => ("apc:build_reading", &COUNT_BUILD),
            "page_text" => ("apc:page_text", &COUNT_PAGE_TEXT),
            _ => return,
        };
        if count.fetch_add(1, Ordering::Relaxed) + 1 > KEPT {
            count.store(1, Ordering::Relaxed);
            let _ = performance_clear_measures(label);
        }
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"start".into(), &start.into());
        let _ = js_sys::Reflect::set(&options, &"end".into(), &end.into());
        // A browser without user timing level 3 refuses the options: then nothing is recorded.
        let _ = performance_measure(label, &options);
    }
}

/// `runtime.onMessage`: route one message. Resolves to `{ ok: true, ... }` or
/// `{ ok: false, error, message }`; it never rejects for bad input.
#[wasm_bindgen(js_name = handleMessage)]
pub async fn handle_message(message: JsValue, sender: JsValue) -> JsValue {
    let sender: router::Sender = serde_wasm_bindgen::from_value(sender).unwrap_or_default();
    let kind = sender.kind(&extension_id(), &extension_base().await);
    // An observation over its cap is refused while it is still a JS string, before it is copied.
    let observation = js_sys::Reflect::get(&message, &JsValue::from_str("observation")).ok();
    let reply = if observation.is_some_and(|o| adapters::ui::observation_too_large(&o)) {
        Err(router::RouterError::from(logic::flows::FlowError::Content(
            apc_content::ContentError::TooLarge("observation JSON"),
        )))
    } else {
        let env = BrowserEnv::default();
        let memory = memory();
        // The message straight into its type; only one that is not a known request is read as
        // JSON, to say which of "not a message", "unknown type" and "malformed" it is.
        match serde_wasm_bindgen::from_value::<router::Request>(message.clone()) {
            Ok(request) if request != router::Request::Unknown => {
                router::route_request(&env, &memory, request, &kind).await
            }
            _ => match serde_wasm_bindgen::from_value::<serde_json::Value>(message) {
                Ok(message) => router::route(&env, &memory, message, &kind).await,
                Err(e) => Err(router::RouterError::Unreadable(e.to_string())),
            },
        }
    };
    to_js(&router::to_wire_localized(reply, adapters::ui::localized))
}

/// Any other browser event the loader forwards, named as the loader names it (`"runtime.onInstalled"`)
/// with the listener's arguments as an array. Resolves to `{ ok: true }` or an error object.
#[wasm_bindgen(js_name = handleEvent)]
pub async fn handle_event(name: String, args: JsValue) -> JsValue {
    let reply = match serde_wasm_bindgen::from_value::<Vec<serde_json::Value>>(args) {
        Ok(args) => events::handle(&BrowserEnv::default(), &memory(), &name, args).await,
        Err(e) => Err(events::EventError::Unreadable(e.to_string())),
    };
    to_js(&events::to_wire(reply))
}

/// This extension's id (`runtime.id`).
fn extension_id() -> String {
    adapters::browser::api("runtime.id")
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The URL every page of this extension starts with (`runtime.getURL("")`).
async fn extension_base() -> String {
    adapters::browser::call("runtime", "getURL", &[JsValue::from_str("")])
        .await
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// JSON values become plain JS objects (not `Map`s) so the browser can pass them between contexts.
fn to_js(value: &serde_json::Value) -> JsValue {
    use serde::Serialize;
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or_else(|e| JsValue::from_str(&format!("apc-background: cannot answer: {e}")))
}

#[cfg(test)]
mod tests {
    /// The manifest repeats the crate's version; they must agree.
    #[test]
    fn manifest_version_is_the_crate_version() {
        let manifest: serde_json::Value =
            serde_json::from_str(include_str!("../../../extension/manifest.json")).unwrap();
        assert_eq!(manifest["version"], super::EXTENSION_VERSION);
    }
}
