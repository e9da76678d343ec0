//! Who may call what. Every request must name this hub in `Host`, read with the core's host rules (so
//! a DNS-rebound web page cannot reach it); the MCP endpoint refuses any request that carries a web
//! `Origin` (MCP clients send none); the page endpoints take only extension origins; the dock page's
//! state changes need the same origin and the page's CSRF token, minting a ticket also the browser's
//! word that the page's own script asks (`Sec-Fetch-Site`); a hub listening beyond loopback guards its
//! dock with a password.

use std::sync::Arc;

use apc_core::page_link::{is_extension_origin, PageLinkError};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::HubError;
use crate::secrets;
use crate::state::Hub;

/// The header the dock page's script sends its CSRF token in.
pub const CSRF_HEADER: &str = "x-csrf-token";

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether a `Host` header names this hub: a loopback name (`127.0.0.1`, `localhost`, `[::1]`, with
/// or without a port), or one the person listens on. The value is read with the core's host rules
/// (`apc_core::host::parse_host_port`), so `[::1]evil.example:PORT` or `127.0.0.1@evil` is no host.
pub fn host_allowed(host: &str, extra_hosts: &[String]) -> bool {
    let Some(parsed) = apc_core::host::parse_host_port(host) else {
        return false;
    };
    let name = match &parsed.host {
        url::Host::Domain(d) => d.to_ascii_lowercase(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    };
    matches!(name.as_str(), "127.0.0.1" | "localhost" | "::1")
        || extra_hosts.iter().any(|h| {
            let h = h.trim_start_matches('[').trim_end_matches(']');
            h.eq_ignore_ascii_case(&name)
        })
}

/// Whether a `Host` header names a loopback address.
fn host_is_loopback(host: &str) -> bool {
    host_allowed(host, &[])
}

/// The longest request target the hub takes, in bytes. Longer ones answer `414` as JSON (hyper's own
/// limit, far above, is never reached first by a sane client).
pub const URI_MAX_BYTES: usize = 8 * 1024;

/// Middleware: refuses an over-long request target with `414 uri_too_long`.
pub async fn check_uri_length(request: Request, next: Next) -> Response {
    let len = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if len > URI_MAX_BYTES {
        return HubError::Transport(
            axum::http::StatusCode::URI_TOO_LONG,
            format!("The request's URL is longer than {URI_MAX_BYTES} bytes."),
        )
        .into_response();
    }
    next.run(request).await
}

/// The most header bytes the hub takes in one request (names, values and their separators). hyper's
/// own read buffer (about 400 KiB) is a soft bound: a request that arrives in one large read may pass
/// it whole, so this is the limit a client can rely on.
pub const HEADERS_MAX_BYTES: usize = 64 * 1024;

/// Middleware: refuses a request whose headers pass [`HEADERS_MAX_BYTES`] with `431
/// headers_too_large`, and closes the connection (a client that sends such headers is not one to keep).
pub async fn check_header_size(request: Request, next: Next) -> Response {
    let bytes: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if bytes > HEADERS_MAX_BYTES {
        let mut refused = HubError::Transport(
            axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("The request's headers are larger than {HEADERS_MAX_BYTES} bytes."),
        )
        .into_response();
        refused.headers_mut().insert(
            header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return refused;
    }
    next.run(request).await
}

/// Middleware: refuses a request whose `Host` is not this hub's.
pub async fn check_host(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let host = header_str(request.headers(), header::HOST)
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    match host {
        Some(host) if host_allowed(&host, &hub.extra_hosts) => next.run(request).await,
        _ => HubError::HostRefused(
            "This hub answers only on its own address (127.0.0.1 or localhost).".into(),
        )
        .into_response(),
    }
}

/// The origin a request reached the hub at (`http://` and its `Host`), or the hub's own.
pub fn request_origin(headers: &HeaderMap, hub: &Hub) -> String {
    match header_str(headers, header::HOST) {
        Some(host) if host_allowed(host, &hub.extra_hosts) => format!("http://{host}"),
        _ => hub.origin.clone(),
    }
}

/// The request's `Origin`, if it has one.
pub fn origin_of(headers: &HeaderMap) -> Option<&str> {
    header_str(headers, header::ORIGIN)
}

/// The hub's own origins: each loopback name with the hub's port (and the hosts the person allowed).
pub fn own_origins(hub: &Hub) -> Vec<String> {
    let port = hub.origin.rsplit_once(':').map_or("", |(_, p)| p);
    let mut names = vec![
        "127.0.0.1".to_owned(),
        "localhost".to_owned(),
        "[::1]".to_owned(),
    ];
    names.extend(hub.extra_hosts.iter().cloned());
    names
        .into_iter()
        .map(|n| format!("http://{n}:{port}"))
        .collect()
}

/// The MCP endpoint takes no request from a web page: an `Origin` other than the hub's own is
/// refused (MCP clients send none; the hub's own pages are the only web origin it trusts).
pub fn check_mcp_origin(headers: &HeaderMap, hub: &Hub) -> Result<(), HubError> {
    match origin_of(headers) {
        None => Ok(()),
        Some(origin)
            if own_origins(hub)
                .iter()
                .any(|o| o.eq_ignore_ascii_case(origin)) =>
        {
            Ok(())
        }
        Some(origin) => Err(HubError::McpOriginRefused(format!(
            "The MCP endpoint does not take requests from web pages (Origin {origin:?})."
        ))),
    }
}

/// The page endpoints take only a browser extension's requests; this is its origin.
/// For a read (GET): an `Origin`, when there is one, must be an extension's. Browsers leave `Origin`
/// off some GETs, extensions' own included (Chromium's background fetches); a read changes nothing,
/// the `Host` check already stops DNS rebinding, and a web page cannot read a cross-origin answer
/// without CORS, which only extension origins get.
pub fn extension_origin_if_any(headers: &HeaderMap) -> Result<(), HubError> {
    match origin_of(headers) {
        None => Ok(()),
        Some(_) => extension_origin(headers).map(drop),
    }
}

pub fn extension_origin(headers: &HeaderMap) -> Result<String, HubError> {
    match origin_of(headers) {
        Some(origin) if is_extension_origin(origin) => Ok(origin.to_owned()),
        Some(origin) => Err(HubError::page(
            PageLinkError::OriginRefused,
            format!("Only the browser extension may call this endpoint, not {origin:?}."),
        )),
        None => Err(HubError::page(
            PageLinkError::OriginRefused,
            "Only the browser extension may call this endpoint: the request has no Origin.",
        )),
    }
}

/// Minting a ticket: only the dock page's own script may. The browser must say so: `Sec-Fetch-Site`
/// `same-origin` (or `none`; browsers send it to loopback hubs, the only ones that need it), and an
/// `Origin` that is the hub's; and the page's CSRF token. A web page's `no-cors` request, a form, a
/// navigation or another site's script mints nothing.
pub fn check_dock_mint(headers: &HeaderMap, hub: &Hub) -> Result<(), HubError> {
    let refused = |why: &str| {
        Err(HubError::CsrfRefused(format!(
            "Tickets are minted only for the dock page's own script: {why}."
        )))
    };
    let own = request_origin(headers, hub);
    match origin_of(headers) {
        Some(origin) if origin == own => {}
        Some(_) => return refused("the request comes from another origin"),
        None => return refused("the request has no Origin"),
    }
    let on_loopback = header_str(headers, header::HOST).is_some_and(host_is_loopback);
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some("same-origin" | "none") => {}
        Some(_) => return refused("the browser says the request comes from another site"),
        // Browsers send `Sec-Fetch-*` only to trustworthy origins: a remote hub over plain HTTP
        // gets none, and stands on its `Origin` and token (and the dock's password).
        None if on_loopback => {
            return refused("the browser did not say where the request comes from")
        }
        None => {}
    }
    check_dock_change(headers, hub, None)
}

/// A dock read the page's script makes (`GET /dock/pairings`): its CSRF token, and not from another
/// site when the browser says.
pub fn check_dock_read(headers: &HeaderMap, hub: &Hub) -> Result<(), HubError> {
    check_dock_change(headers, hub, None)
}

/// Middleware for the dock's routes: when the hub listens beyond loopback (`--allow-remote`), every
/// dock request must give the dock's password (HTTP Basic, any user name): the dock shows MCP secrets.
pub async fn check_dock_password(
    State(hub): State<Arc<Hub>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(password) = hub.dock_password.as_deref() else {
        return next.run(request).await;
    };
    let given = header_str(request.headers(), header::AUTHORIZATION)
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(b.trim())
                .ok()
        })
        .and_then(|raw| String::from_utf8(raw).ok())
        .and_then(|pair| pair.split_once(':').map(|(_, p)| p.to_owned()));
    match given {
        Some(p) if secrets::ct_eq(p.as_bytes(), password.as_bytes()) => next.run(request).await,
        _ => HubError::PasswordRequired(
            "This hub's dock needs its password (the hub listens beyond this computer).".into(),
        )
        .into_response(),
    }
}

/// A dock state change: same origin as the dock page (when the browser says), and its CSRF token.
pub fn check_dock_change(
    headers: &HeaderMap,
    hub: &Hub,
    form_token: Option<&str>,
) -> Result<(), HubError> {
    let own = request_origin(headers, hub);
    if let Some(origin) = origin_of(headers) {
        if origin != own {
            return Err(HubError::CsrfRefused(format!(
                "The dock takes changes only from its own page, not from {origin:?}."
            )));
        }
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site != "same-origin" && site != "none" {
            return Err(HubError::CsrfRefused(
                "The dock takes changes only from its own page.".into(),
            ));
        }
    }
    let token = headers
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .or(form_token)
        .unwrap_or("");
    if secrets::ct_eq(token.as_bytes(), hub.csrf.as_bytes()) {
        Ok(())
    } else {
        Err(HubError::CsrfRefused(
            "The dock page's token is missing or old: reload the dock page.".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_unless_told() {
        assert!(host_allowed("127.0.0.1:7410", &[]));
        assert!(host_allowed("localhost", &[]));
        assert!(host_allowed("[::1]:7410", &[]));
        assert!(!host_allowed("evil.example:7410", &[]));
        assert!(!host_allowed("127.0.0.1.evil.example", &[]));
        assert!(host_allowed("192.168.1.5:7410", &["192.168.1.5".into()]));
        assert!(host_allowed("LOCALHOST:7410", &[]));
        // Not hosts at all, though a hand-made parser took the first as `::1`.
        assert!(!host_allowed("[::1]evil.example:7410", &[]));
        assert!(!host_allowed("[::1]evil.example", &[]));
        assert!(!host_allowed("127.0.0.1:7410:80", &[]));
        assert!(!host_allowed("127.0.0.1@evil.example", &[]));
        assert!(!host_allowed("localhost:99999", &[]));
        assert!(!host_allowed("", &[]));
    }

    #[test]
    fn mcp_refuses_web_origins_but_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path()).unwrap();
        let hub = Hub::new(
            crate::store::Db::spawn(store),
            "http://127.0.0.1:7410".into(),
            vec![],
        );
        let with = |origin: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ORIGIN, origin.parse().unwrap());
            check_mcp_origin(&h, &hub)
        };
        assert!(check_mcp_origin(&HeaderMap::new(), &hub).is_ok());
        assert!(with("http://localhost:7410").is_ok());
        assert!(with("http://evil.example").is_err());
        assert!(with("http://localhost:3000").is_err());
        assert!(with("null").is_err());
        assert!(with("chrome-extension://abcdefghijklmnopabcdefghijklmnop").is_err());
    }
}
