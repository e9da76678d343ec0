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
//! | [`BrowserEnv`] | `Env`, `Clock` | `Date.now`, `crypto.randomUUID`; the origins' `apc.json` answers kept while the background lives |

pub mod browser;
pub mod grant_vault;
pub mod http;
pub mod storage;
pub mod ui;

use crate::logic::app_checks::AppChecks;
use crate::logic::page_texts::PageTexts;
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
    fn app_checks(&self) -> &AppChecks {
        background_app_checks()
    }
    fn page_texts(&self) -> &PageTexts {
        background_page_texts()
    }
}

/// The one [`PageTexts`] of this background, like [`background_app_checks`].
fn background_page_texts() -> &'static PageTexts {
    thread_local! {
        static TEXTS: &'static PageTexts = Box::leak(Box::default());
    }
    TEXTS.with(|texts| *texts)
}

/// The one [`AppChecks`] of this background (each message gets a fresh `BrowserEnv`; the answers
/// it keeps must outlive it). Leaked once: it lives as long as the worker or event page does.
fn background_app_checks() -> &'static AppChecks {
    thread_local! {
        static CHECKS: &'static AppChecks = Box::leak(Box::default());
    }
    CHECKS.with(|checks| *checks)
}
