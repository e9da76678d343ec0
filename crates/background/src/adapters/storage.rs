//! The store port over extension storage: the pairings (`storage.local`, no secrets) and the
//! consents the person has not answered yet (`storage.session`, gone with the browser session).
//! Every change of the pairings goes through `update`, which holds a lock across load, change and
//! save, so two events handled at once cannot lose each other's change. What changes is the logic's.

use futures::lock::Mutex;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};
use wasm_bindgen::JsValue;

use super::browser::{self, BrowserError};
use crate::logic::ports::{PendingConsent, PortError, Store};
use crate::logic::state::State;

const STATE_KEY: &str = "apc_state";

static STATE_LOCK: Mutex<()> = Mutex::new(());

fn to_js(value: &Value) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

async fn get<T: DeserializeOwned>(area: &str, key: &str) -> Result<Option<T>, BrowserError> {
    let got = browser::call(area, "get", &[JsValue::from_str(key)]).await?;
    let got: Value = serde_wasm_bindgen::from_value(got).unwrap_or(Value::Null);
    Ok(got
        .get(key)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok()))
}

async fn set(area: &str, key: &str, value: &impl Serialize) -> Result<(), BrowserError> {
    let value = serde_json::to_value(value).unwrap_or(Value::Null);
    browser::call(area, "set", &[to_js(&json!({ key: value }))])
        .await
        .map(drop)
}

/// The pairings as stored; a missing or unreadable record is no pairings.
async fn load_state() -> Result<State, BrowserError> {
    Ok(get::<State>("storage.local", STATE_KEY)
        .await?
        .unwrap_or_default())
}

/// Loads, changes and saves the pairings under the lock; returns the closure's result and the new state.
async fn update_state<R>(change: impl FnOnce(&mut State) -> R) -> Result<(R, State), BrowserError> {
    let _guard = STATE_LOCK.lock().await;
    let mut state = load_state().await?;
    let out = change(&mut state);
    set("storage.local", STATE_KEY, &state).await?;
    Ok((out, state))
}

fn consent_key(id: &str) -> String {
    format!("consent:{id}")
}

/// `storage.session` where the browser has it, else `storage.local` (cleared when answered).
async fn session_area() -> &'static str {
    if browser::api("storage.session").is_ok() {
        "storage.session"
    } else {
        "storage.local"
    }
}

async fn put_consent_in(consent: &PendingConsent) -> Result<(), BrowserError> {
    set(session_area().await, &consent_key(&consent.id), consent).await
}

async fn get_consent_in(id: &str) -> Result<Option<PendingConsent>, BrowserError> {
    get(session_area().await, &consent_key(id)).await
}

async fn delete_consent_in(id: &str) -> Result<(), BrowserError> {
    browser::call(
        session_area().await,
        "remove",
        &[JsValue::from_str(&consent_key(id))],
    )
    .await
    .map(drop)
}

fn window_key(window_id: i64) -> String {
    format!("consent_window:{window_id}")
}

/// Remembers which consent a window shows, so closing it answers "no".
async fn put_consent_window_in(window_id: i64, consent_id: &str) -> Result<(), BrowserError> {
    set(session_area().await, &window_key(window_id), &consent_id).await
}

/// The consent a closed window showed, forgetting the link.
async fn take_consent_window_in(window_id: i64) -> Result<Option<String>, BrowserError> {
    let area = session_area().await;
    let id: Option<String> = get(area, &window_key(window_id)).await?;
    if id.is_some() {
        browser::call(area, "remove", &[JsValue::from_str(&window_key(window_id))]).await?;
    }
    Ok(id)
}

fn port(e: BrowserError) -> PortError {
    PortError(e.to_string())
}

/// `storage.local` and `storage.session`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExtensionStorage;

impl Store for ExtensionStorage {
    async fn load(&self) -> Result<State, PortError> {
        load_state().await.map_err(port)
    }
    async fn update<R>(
        &self,
        change: impl FnOnce(&mut State) -> R,
    ) -> Result<(R, State), PortError> {
        update_state(change).await.map_err(port)
    }
    async fn put_consent(&self, consent: &PendingConsent) -> Result<(), PortError> {
        put_consent_in(consent).await.map_err(port)
    }
    async fn get_consent(&self, id: &str) -> Result<Option<PendingConsent>, PortError> {
        get_consent_in(id).await.map_err(port)
    }
    async fn delete_consent(&self, id: &str) -> Result<(), PortError> {
        delete_consent_in(id).await.map_err(port)
    }
    async fn put_consent_window(&self, window_id: i64, consent_id: &str) -> Result<(), PortError> {
        put_consent_window_in(window_id, consent_id)
            .await
            .map_err(port)
    }
    async fn take_consent_window(&self, window_id: i64) -> Result<Option<String>, PortError> {
        take_consent_window_in(window_id).await.map_err(port)
    }
}
