//! The page app's endpoints (`docs/page-app-link.md`): `apc.json`, pair with a ticket, pin, unpin,
//! status and give back. Only extension origins are served; every refusal is JSON with the link's code.
//! A grant is looked up by its hash; a revoked one answers 403 `RevokedAnswer`, an unknown one 404,
//! before the body is read.

use std::collections::HashMap;
use std::sync::Arc;

use apc_core::page_link::{
    AgentRef, GrantStatus, HubRef, PageLinkError, PageReading, PairRequest, PairResponse, Pairing,
    PinResponse, PinState, TicketPreview, PAGE_APP_ID, READING_MAX_BYTES,
};
use apc_core::APC_STANDARD_VERSION;
use axum::body::{Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::error::{revoked_answer, HubError, HubResult};
use crate::focus::focus_for;
use crate::secrets;
use crate::security::{extension_origin, extension_origin_if_any, origin_of, request_origin};
use crate::state::{now, Hub, HUB_NAME};
use crate::store::{PairingRow, PairingStatus, PinRow};

pub use apc_core::manifest::APC_JSON_PATH;
pub const PAGE_PAIR_PATH: &str = "/page/pair";
pub const PAGE_PIN_PATH: &str = "/page/pin";
pub const PAGE_GRANT_PATH: &str = "/page/grant";
pub const DOCK_PAIR_PATH: &str = "/apc/pair";
pub const DOCK_CONFIRM_PATH: &str = "/apc/confirm";
/// The most bytes of a pairing request.
const PAIR_MAX_BYTES: usize = 16 * 1024;

/// `GET /.well-known/apc.json`: what this origin is (a hub) and where its endpoints are.
pub async fn apc_json(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    let origin = request_origin(&headers, &hub);
    Json(json!({
        "name": HUB_NAME,
        "standard": APC_STANDARD_VERSION,
        "origin": origin,
        "profiles": ["hub"],
        "mcp": { "path": "/mcp/" },
        "dock": {
            "pair": format!("{origin}{DOCK_PAIR_PATH}"),
            "confirm": format!("{origin}{DOCK_CONFIRM_PATH}"),
        },
        "page": {
            "pair": format!("{origin}{PAGE_PAIR_PATH}"),
            "pin": format!("{origin}{PAGE_PIN_PATH}"),
            "grant": format!("{origin}{PAGE_GRANT_PATH}"),
        },
    }))
    .into_response()
}

/// `/apc/pair` and `/apc/confirm`: the Dock profile's pairing of web apps, which this hub does not do.
pub async fn dock_profile_not_supported() -> HubError {
    HubError::NotSupported(
        "This hub pairs only the page app (the browser extension): it does not pair APC web apps yet."
            .into(),
    )
}

/// Middleware for the page endpoints: answers an extension's CORS preflight and lets it read the
/// answers; any other origin is refused before the handler runs.
pub async fn cors(request: Request, next: Next) -> Response {
    let origin = origin_of(request.headers()).map(str::to_owned);
    if request.method() == Method::OPTIONS {
        return match extension_origin(request.headers()) {
            Ok(origin) => {
                let mut response = StatusCode::NO_CONTENT.into_response();
                let h = response.headers_mut();
                allow_origin(h, &origin);
                h.insert(
                    header::ACCESS_CONTROL_ALLOW_METHODS,
                    HeaderValue::from_static("GET, POST, PUT, DELETE"),
                );
                h.insert(
                    header::ACCESS_CONTROL_ALLOW_HEADERS,
                    HeaderValue::from_static("authorization, content-type"),
                );
                h.insert(
                    header::ACCESS_CONTROL_MAX_AGE,
                    HeaderValue::from_static("600"),
                );
                response
            }
            Err(e) => e.into_response(),
        };
    }
    let mut response = next.run(request).await;
    if let Some(origin) = origin.filter(|o| apc_core::page_link::is_extension_origin(o)) {
        allow_origin(response.headers_mut(), &origin);
    }
    response
}

fn allow_origin(headers: &mut HeaderMap, origin: &str) {
    if let Ok(value) = HeaderValue::from_str(origin) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
}

async fn read_body(body: Body, limit: usize, what: &str) -> HubResult<Bytes> {
    axum::body::to_bytes(body, limit).await.map_err(|_| {
        HubError::page(
            PageLinkError::TooLarge,
            format!(
                "The {what} is larger than {} KiB, or was cut off.",
                limit / 1024
            ),
        )
    })
}

fn parse_json<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> HubResult<T> {
    serde_json::from_slice(bytes).map_err(|e| {
        HubError::page(
            PageLinkError::InvalidRequest,
            format!("The {what} is not valid: {e}."),
        )
    })
}

/// `POST /page/pair { ticket, agent }` → 201 with the pairing and its grant, given this once.
pub async fn pair(State(hub): State<Arc<Hub>>, request: Request) -> HubResult<Response> {
    let (parts, body) = request.into_parts();
    extension_origin(&parts.headers)?;
    let bytes = read_body(body, PAIR_MAX_BYTES, "pairing request").await?;
    let req: PairRequest = parse_json(&bytes, "pairing request")?;
    if req.agent.is_empty() || req.agent.len() > 100 {
        return Err(HubError::page(
            PageLinkError::InvalidRequest,
            "The pairing request names no agent.",
        ));
    }
    let ticket = hub.tickets.begin(&req.ticket, &req.agent)?;
    let result = (|| -> HubResult<Pairing> {
        let agent = hub.store.agent_by_handle(&req.agent)?.ok_or_else(|| {
            HubError::page(
                PageLinkError::TicketUnknown,
                "The agent this ticket was made for is no longer on this hub.",
            )
        })?;
        let grant = secrets::new_secret();
        let created_at = now();
        let row = hub.store.create_pairing(
            &agent.handle,
            PAGE_APP_ID,
            &secrets::hash(&grant),
            &created_at,
        )?;
        Ok(Pairing {
            id: row.id,
            agent: AgentRef {
                handle: agent.handle,
                name: agent.name,
            },
            hub: HubRef {
                origin: request_origin(&parts.headers, &hub),
                name: HUB_NAME.to_owned(),
            },
            grant,
            created_at,
        })
    })();
    hub.tickets.finish(&ticket, result.is_ok());
    let pairing = result?;
    Ok((
        StatusCode::CREATED,
        Json(PairResponse {
            pairing,
            focus: None,
        }),
    )
        .into_response())
}

/// `GET /page/pair?ticket=…` → 200 `TicketPreview`: which agent a live ticket or code is for, so the
/// extension's consent names it as the hub does. Spends nothing; the same refusals as pairing.
pub async fn ticket_preview(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> HubResult<Response> {
    extension_origin_if_any(&headers)?;
    let raw = query.get("ticket").map(String::as_str).unwrap_or_default();
    let (handle, expires_in) = hub.tickets.peek(raw)?;
    let agent = hub.store.agent_by_handle(&handle)?.ok_or_else(|| {
        HubError::page(
            PageLinkError::TicketUnknown,
            "The agent this ticket was made for is no longer on this hub.",
        )
    })?;
    let preview = TicketPreview {
        agent: AgentRef {
            handle: agent.handle,
            name: agent.name,
        },
        hub: HubRef {
            origin: request_origin(&headers, &hub),
            name: HUB_NAME.to_owned(),
        },
        expires_in,
    };
    Ok(Json(preview).into_response())
}

/// The active pairing the request's bearer grant opens: 404 for none, 403 `RevokedAnswer` for a
/// revoked one.
fn pairing_of(hub: &Hub, headers: &HeaderMap) -> HubResult<PairingRow> {
    let unknown = || {
        HubError::page(
            PageLinkError::GrantUnknown,
            "This hub holds no such grant: it was never given, was replaced by a newer pairing, or was given back.",
        )
    };
    let grant = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|g| !g.is_empty() && g.len() <= 200)
        .ok_or_else(unknown)?;
    let pairing = hub.store.pairing_by_grant(grant)?.ok_or_else(unknown)?;
    match pairing.status {
        PairingStatus::Active => Ok(pairing),
        PairingStatus::Revoked => Err(HubError::Revoked(revoked_answer(
            hub.host(),
            pairing.revoked_at.as_deref().unwrap_or(&pairing.created_at),
        ))),
    }
}

fn check_reading(reading: &PageReading) -> HubResult<()> {
    let bad = |m: &str| HubError::page(PageLinkError::InvalidRequest, m.to_owned());
    let url = url::Url::parse(&reading.url).map_err(|_| bad("The reading's url is not a URL."))?;
    if !matches!(url.scheme(), "http" | "https" | "file") || reading.url.len() > 4096 {
        return Err(bad("The reading's url is not an http(s) page URL."));
    }
    if reading.pointed.targets.len() > 100 {
        return Err(bad("The reading has more than 100 targets."));
    }
    Ok(())
}

/// `PUT /page/pin` with a reading → 200 `{ focus }`; wakes the agent's waits.
pub async fn put_pin(State(hub): State<Arc<Hub>>, request: Request) -> HubResult<Response> {
    let (parts, body) = request.into_parts();
    extension_origin(&parts.headers)?;
    let pairing = pairing_of(&hub, &parts.headers)?;
    let bytes = read_body(body, READING_MAX_BYTES, "reading").await?;
    let reading: PageReading = parse_json(&bytes, "reading")?;
    check_reading(&reading)?;
    let pin = PinRow {
        pairing_id: pairing.id.clone(),
        reading_id: secrets::new_reading_id(),
        reading_json: serde_json::to_string(&reading)
            .map_err(|e| HubError::BadRequest(e.to_string()))?,
        app_url: reading.url.clone(),
        pinned_at: now(),
        seen_at: None,
    };
    hub.store.set_pin(&pin)?;
    hub.notify_pin(&pairing.agent);
    Ok(Json(PinResponse {
        focus: focus_for(&pin),
    })
    .into_response())
}

/// `DELETE /page/pin` → 204: the pin and its reading go.
pub async fn delete_pin(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<StatusCode> {
    extension_origin(&headers)?;
    let pairing = pairing_of(&hub, &headers)?;
    hub.store.delete_pin(&pairing.id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /page/grant` → 200 `{ status: "active", pin }`.
pub async fn grant_status(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<Response> {
    extension_origin_if_any(&headers)?;
    let pairing = pairing_of(&hub, &headers)?;
    let pin = hub.store.pin(&pairing.id)?.map(|p| PinState {
        id: p.reading_id,
        pinned_at: p.pinned_at,
        seen_at: p.seen_at,
    });
    Ok(Json(GrantStatus {
        status: "active".into(),
        pin,
    })
    .into_response())
}

/// `DELETE /page/grant` → 204: the extension gives the grant back; the pairing, pin and reading go
/// and the grant is unknown (404) from then on.
pub async fn give_back(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<StatusCode> {
    extension_origin(&headers)?;
    let pairing = pairing_of(&hub, &headers)?;
    hub.store.delete_pairing(&pairing.id)?;
    Ok(StatusCode::NO_CONTENT)
}
