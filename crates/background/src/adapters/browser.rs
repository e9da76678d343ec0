//! The extension API (`browser.*` in Firefox, `chrome.*` in Chromium), reached from Rust by name.
//! Both browsers answer MV3 calls with promises, so one dynamic path serves both without a binding
//! per method; what is called, and with what, is decided by the callers in this crate.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    #[error("the browser has no extension API {0}")]
    Missing(String),
    #[error("{call} failed: {message}")]
    Failed { call: String, message: String },
}

/// The extension namespace: `browser` where it exists (Firefox), else `chrome`.
pub fn namespace() -> Result<JsValue, BrowserError> {
    let global = js_sys::global();
    for name in ["browser", "chrome"] {
        let ns = Reflect::get(&global, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        if ns.is_object() && Reflect::has(&ns, &JsValue::from_str("runtime")).unwrap_or(false) {
            return Ok(ns);
        }
    }
    Err(BrowserError::Missing("browser/chrome".into()))
}

/// `namespace.a.b.c` for a dotted path such as `storage.local`.
pub fn api(path: &str) -> Result<JsValue, BrowserError> {
    let mut value = namespace()?;
    for part in path.split('.') {
        value = Reflect::get(&value, &JsValue::from_str(part)).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            return Err(BrowserError::Missing(path.into()));
        }
    }
    Ok(value)
}

/// Calls `namespace.<object>.<method>(...args)` and awaits its promise (a plain value passes through).
pub async fn call(object: &str, method: &str, args: &[JsValue]) -> Result<JsValue, BrowserError> {
    let call = format!("{object}.{method}");
    let target = api(object)?;
    let func: Function = Reflect::get(&target, &JsValue::from_str(method))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| BrowserError::Missing(call.clone()))?;
    let array: Array = args.iter().collect();
    let out = func
        .apply(&target, &array)
        .map_err(|e| BrowserError::Failed {
            call: call.clone(),
            message: js_message(&e),
        })?;
    match out.dyn_into::<Promise>() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .map_err(|e| BrowserError::Failed {
                call,
                message: js_message(&e),
            }),
        Err(value) => Ok(value),
    }
}

/// A readable message from a thrown JS value.
pub fn js_message(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    Reflect::get(value, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
