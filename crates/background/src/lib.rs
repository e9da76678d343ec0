//! `apc-background`: the WebAssembly side of the extension's background.
//!
//! It owns what the background decides: the typed router for `runtime.onMessage` requests from the
//! popup, extension pages and content scripts ([`router`]), the handling of browser events such as
//! `runtime.onInstalled` ([`events`]) and, as they arrive, extension storage and the hub client. Rules of
//! the standard and of the page app link are not here: they come from `apc-core` (and page readings
//! from `apc-content`); this crate calls them.
//!
//! Shape: the logic lives in plain Rust modules that take and give `serde_json::Value`, so
//! `cargo test -p apc-background` runs natively. The `#[wasm_bindgen]` exports below are the only
//! bindings: they convert `JsValue`s, call the logic, and always resolve to a value (an answer or
//! a clear error object), never throw. `extension/background.js` registers the browser's listeners
//! synchronously and forwards every event to these exports once the module is ready.

pub mod browser;
pub mod effects;
pub mod events;
pub mod flows;
pub mod http;
pub mod hub;
pub mod router;
pub mod secrets;
pub mod state;
pub mod storage;

use wasm_bindgen::prelude::*;

/// The extension's version: the crate's version, which `extension/manifest.json` repeats (a test
/// checks that they agree).
pub const EXTENSION_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `runtime.onMessage`: route one message. Resolves to `{ ok: true, ... }` or
/// `{ ok: false, error, message }`; it never rejects for bad input.
#[wasm_bindgen(js_name = handleMessage)]
pub async fn handle_message(message: JsValue, sender: JsValue) -> JsValue {
    let sender: router::Sender = serde_wasm_bindgen::from_value(sender).unwrap_or_default();
    let kind = sender.kind(&extension_id(), &extension_base().await);
    let reply = match serde_wasm_bindgen::from_value::<serde_json::Value>(message) {
        Ok(message) => router::route(message, &kind).await,
        Err(e) => Err(router::RouterError::Unreadable(e.to_string())),
    };
    to_js(&router::to_wire(reply))
}

/// Any other browser event the loader forwards, named as the loader names it (`"runtime.onInstalled"`)
/// with the listener's arguments as an array. Resolves to `{ ok: true }` or an error object.
#[wasm_bindgen(js_name = handleEvent)]
pub async fn handle_event(name: String, args: JsValue) -> JsValue {
    let reply = match serde_wasm_bindgen::from_value::<Vec<serde_json::Value>>(args) {
        Ok(args) => events::handle(&name, args).await,
        Err(e) => Err(events::EventError::Unreadable(e.to_string())),
    };
    to_js(&events::to_wire(reply))
}

/// This extension's id (`runtime.id`).
fn extension_id() -> String {
    browser::api("runtime.id")
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The URL every page of this extension starts with (`runtime.getURL("")`).
async fn extension_base() -> String {
    browser::call("runtime", "getURL", &[JsValue::from_str("")])
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

/// Runs a future that never waits (the handlers' futures, in native tests).
#[cfg(test)]
pub(crate) fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("a handler waited on something in a native test"),
    }
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
