//! Reading an origin's `/.well-known/apc.json` by the standard's transport rules (a `GET` that
//! follows no redirect, answered within [`APC_JSON_TIMEOUT_MS`], at most `APC_JSON_MAX_BYTES`):
//! a web page's origin, to learn what a drop on it gets ([`check_app`]; `app_checks` keeps the
//! answer), and a hub's, whose answer the hub client reads and checks (`hub_api::read_hub`).

use apc_core::drop_answer::AppCheck;
use apc_core::{APC_JSON_MAX_BYTES, APC_JSON_PATH};

use super::ports::{Http, HttpRequest, Method};

/// The standard's transport rule for `apc.json`: 3 s.
pub const APC_JSON_TIMEOUT_MS: u32 = 3000;

/// The request for an origin's `apc.json`.
pub fn request(origin: &str) -> HttpRequest {
    HttpRequest {
        method: Method::Get,
        url: format!("{origin}{APC_JSON_PATH}"),
        bearer: None,
        json_body: None,
        timeout_ms: APC_JSON_TIMEOUT_MS,
        max_bytes: APC_JSON_MAX_BYTES,
    }
}

/// Reads a page origin's `apc.json` and says what it gave (core's [`AppCheck::from_http`]).
pub async fn check_app(http: &impl Http, origin: &str) -> AppCheck {
    match http.send(request(origin)).await {
        Ok(r) => AppCheck::from_http(r.status, &r.content_type, r.body),
        Err(e) => AppCheck::Unreadable(e.to_string()),
    }
}
