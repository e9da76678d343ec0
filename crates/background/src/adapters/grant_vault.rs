//! The grant vault over the extension origin's IndexedDB. `storage.local` is readable by content
//! scripts, IndexedDB of the extension's own origin is not, so a grant is never where a page, or a
//! content script a page has subverted, can read it.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbFactory, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

use super::browser::js_message;
use crate::logic::ports::{GrantVault, PortError};

const DB_NAME: &str = "apc-secrets";
const STORE: &str = "grants";

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("IndexedDB is not available here")]
    Unavailable,
    #[error("IndexedDB: {0}")]
    Db(String),
}

fn db_err(e: JsValue) -> SecretError {
    SecretError::Db(js_message(&e))
}

/// Resolves when an IDB request succeeds (with its result), rejects when it fails.
async fn settle(request: &IdbRequest) -> Result<JsValue, SecretError> {
    let req = request.clone();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let r = req.clone();
        let ok = Closure::once_into_js(move |_: JsValue| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = req.clone();
        let fail = Closure::once_into_js(move |_: JsValue| {
            let error = r
                .error()
                .ok()
                .flatten()
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED);
            let _ = reject.call1(&JsValue::NULL, &error);
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(fail.unchecked_ref()));
    });
    JsFuture::from(promise).await.map_err(db_err)
}

async fn open() -> Result<IdbDatabase, SecretError> {
    let factory: IdbFactory = Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or(SecretError::Unavailable)?;
    let request: IdbOpenDbRequest = factory.open_with_u32(DB_NAME, 1).map_err(db_err)?;
    let upgrade = Closure::once_into_js({
        let request = request.clone();
        move |_: JsValue| {
            if let Ok(db) = request.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
                if !db.object_store_names().contains(STORE) {
                    let _ = db.create_object_store(STORE);
                }
            }
        }
    });
    request.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    let db = settle(&request).await?;
    db.dyn_into().map_err(db_err)
}

async fn with_store<T>(
    mode: IdbTransactionMode,
    f: impl FnOnce(&web_sys::IdbObjectStore) -> Result<IdbRequest, JsValue>,
    map: impl FnOnce(JsValue) -> T,
) -> Result<T, SecretError> {
    let db = open().await?;
    let tx = db
        .transaction_with_str_and_mode(STORE, mode)
        .map_err(db_err)?;
    let store = tx.object_store(STORE).map_err(db_err)?;
    let request = f(&store).map_err(db_err)?;
    let out = settle(&request).await;
    db.close();
    out.map(map)
}

async fn put(key: &str, secret: &str) -> Result<(), SecretError> {
    let (k, v) = (JsValue::from_str(key), JsValue::from_str(secret));
    with_store(
        IdbTransactionMode::Readwrite,
        |s| s.put_with_key(&v, &k),
        |_| (),
    )
    .await
}

async fn get(key: &str) -> Result<Option<String>, SecretError> {
    let k = JsValue::from_str(key);
    with_store(
        IdbTransactionMode::Readonly,
        |s| s.get(&k),
        |v| v.as_string(),
    )
    .await
}

async fn delete(key: &str) -> Result<(), SecretError> {
    let k = JsValue::from_str(key);
    with_store(IdbTransactionMode::Readwrite, |s| s.delete(&k), |_| ()).await
}

fn grant_key(pairing_id: &str) -> String {
    format!("grant:{pairing_id}")
}

fn port(e: SecretError) -> PortError {
    PortError(e.to_string())
}

/// Grants in IndexedDB, keyed `grant:<pairing id>`.
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexedDbVault;

impl GrantVault for IndexedDbVault {
    async fn get(&self, pairing_id: &str) -> Result<Option<String>, PortError> {
        get(&grant_key(pairing_id)).await.map_err(port)
    }
    async fn put(&self, pairing_id: &str, grant: &str) -> Result<(), PortError> {
        put(&grant_key(pairing_id), grant).await.map_err(port)
    }
    async fn delete(&self, pairing_id: &str) -> Result<(), PortError> {
        delete(&grant_key(pairing_id)).await.map_err(port)
    }
}
