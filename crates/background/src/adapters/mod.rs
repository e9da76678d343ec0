//! The browser adapters: each implements one port of `crate::logic::ports` with extension APIs and
//! decides nothing (what to store, send, show or when is the logic's). They run only in a browser;
//! the logic's tests use in-memory fakes instead.
//!
//! | module | port | browser API |
//! |---|---|---|
//! | [`storage`] | `Store` | `storage.local`, `storage.session` |
//! | [`grant_vault`] | `GrantVault` | IndexedDB of the extension's origin |
//! | [`http`] | `Http` | `fetch` with an abort timer and a streamed byte cap |
//! | [`ui`] | `PageUi` | `tabs`, `windows`, `contextMenus`, `action`, `alarms`, `i18n` |
//! | [`browser`] | (all) | `browser.*` / `chrome.*` reached by name |
//! | [`BrowserEnv`] | `Env`, `Clock` | `Date.now`, `crypto.randomUUID` |
//!
//! What the logic remembers between events (`logic::memory::Memory`) is no port: `lib.rs` keeps it.

pub mod browser;
pub mod grant_vault;
pub mod http;
pub mod storage;
pub mod ui;

use crate::logic::ports::{Clock, Env};

/// The clock and ids of the browser.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }

    fn new_id(&self) -> String {
        let global = js_sys::global();
        let crypto = js_sys::Reflect::get(&global, &"crypto".into()).unwrap_or_default();
        js_sys::Reflect::get(&crypto, &"randomUUID".into())
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
            .and_then(|f| f.call0(&crypto).ok())
            .and_then(|v| v.as_string())
            .unwrap_or_else(|| format!("{:x}", js_sys::Math::random().to_bits()))
    }
}

/// All the adapters together: what the exports in `lib.rs` hand to the logic.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserEnv {
    store: storage::ExtensionStorage,
    vault: grant_vault::IndexedDbVault,
    http: http::Fetch,
    ui: ui::BrowserUi,
    clock: BrowserClock,
}

impl Env for BrowserEnv {
    type Store = storage::ExtensionStorage;
    type Vault = grant_vault::IndexedDbVault;
    type Http = http::Fetch;
    type Ui = ui::BrowserUi;
    type Clock = BrowserClock;
    fn store(&self) -> &Self::Store {
        &self.store
    }
    fn vault(&self) -> &Self::Vault {
        &self.vault
    }
    fn http(&self) -> &Self::Http {
        &self.http
    }
    fn ui(&self) -> &Self::Ui {
        &self.ui
    }
    fn clock(&self) -> &Self::Clock {
        &self.clock
    }
}
