//! The page app's endpoints (`docs/page-app-link.md`): `apc.json`, pair with a ticket (and pin a
//! drop's reading with it), pin (a drop's pin spends its drag's ticket), unpin, status and give back. Only extension origins are served; every refusal is JSON with the link's code.
//! A grant is looked up by its hash; a revoked one answers 403 `RevokedAnswer`, an unknown one 404,
//! before the body is read.

use std::collections::HashMap;
use std::sync::Arc;

use apc_core::page_link::{
    AgentRef, GrantStatus, How, HubRef, PageLinkError, PageReading, PairRequest, PairResponse,
    Pairing, PinRequest, PinResponse, PinState, TicketPreview, PAGE_APP_ID, READING_MAX_BYTES,
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
use crate::focus::{focus_for, page_origin};
use crate::secrets;
use crate::security::{extension_origin, extension_origin_if_any, origin_of, request_origin};
use crate::state::{now, Hub, HUB_NAME};
use crate::store::{Agent, PairingRow, PairingStatus, PinRow};

pub use apc_core::manifest::APC_JSON_PATH;
pub const PAGE_PAIR_PATH: &str = "/page/pair";
pub const PAGE_PIN_PATH: &str = "/page/pin";
pub const PAGE_GRANT_PATH: &str = "/page/grant";
pub const DOCK_PAIR_PATH: &str = "/apc/pair";
pub const DOCK_CONFIRM_PATH: &str = "/apc/confirm";
/// The most bytes of a pairing request, besides its reading.
const PAIR_MAX_BYTES: usize = 16 * 1024;
/// The most bytes a pin request adds to its reading (`{ "reading": …, "ticket": … }`).
const PIN_TICKET_OVERHEAD: usize = 1024;

/// `GET /.well-known/apc.json`: what this origin is (a hub) and where its endpoints are.
pub async fn apc_json(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    let origin = request_origin(&headers, &hub);
    Json(json!({
        "name": HUB_NAME,
        "standard": APC_STANDARD_VERSION,
        "origin": origin,
        "profiles": ["hub"],
        "mcp": { "path": apc_core::APC_DEFAULT_MCP_PATH },
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

/// A pin of `reading` for `pairing_id` (set when stored): a new reading id, the page's origin as
/// the focus's `app_url`, and the reading as stored JSON.
fn new_pin(reading: &PageReading) -> HubResult<(PinRow, String)> {
    let url = apc_core::url_parse::new_url(&reading.url).ok_or_else(|| {
        HubError::page(
            PageLinkError::InvalidRequest,
            "The reading's url is not a URL.",
        )
    })?;
    let pin = PinRow {
        pairing_id: String::new(),
        reading_id: secrets::new_reading_id(),
        app_url: page_origin(&url),
        pinned_at: now(),
        seen_at: None,
    };
    let json = serde_json::to_string(reading).map_err(|e| HubError::BadRequest(e.to_string()))?;
    if json.len() > READING_MAX_BYTES {
        return Err(HubError::page(
            PageLinkError::TooLarge,
            format!(
                "The reading is larger than {} KiB.",
                READING_MAX_BYTES / 1024
            ),
        ));
    }
    Ok((pin, json))
}

/// `POST /page/pair { ticket, agent, reading? }` → 201 with the pairing and its grant, given this
/// once; with a reading (a drop the person allowed), the pairing's first pin in the same transaction,
/// the ticket spent once for both, and its focus.
pub async fn pair(State(hub): State<Arc<Hub>>, request: Request) -> HubResult<Response> {
    let (parts, body) = request.into_parts();
    extension_origin(&parts.headers)?;
    let limit = PAIR_MAX_BYTES + READING_MAX_BYTES;
    let bytes = read_body(body, limit, "pairing request").await?;
    let req: PairRequest = parse_json(&bytes, "pairing request")?;
    if req.agent.is_empty() || req.agent.len() > 100 {
        return Err(HubError::page(
            PageLinkError::InvalidRequest,
            "The pairing request names no agent.",
        ));
    }
    let pin = match &req.reading {
        Some(reading) => {
            check_reading(reading)?;
            Some(new_pin(reading)?)
        }
        None => None,
    };
    let ticket = hub.tickets.begin(&req.ticket, &req.agent)?;
    let result = async {
        let agent = ticket_agent(&hub, req.agent.clone()).await?;
        let grant = secrets::new_secret();
        let created_at = now();
        let (handle, hash, at, stored_pin) = (
            agent.handle.clone(),
            secrets::hash(&grant),
            created_at.clone(),
            pin.clone(),
        );
        let row = hub
            .db
            .run(move |s| {
                s.create_pairing(
                    &handle,
                    PAGE_APP_ID,
                    &hash,
                    &at,
                    stored_pin.as_ref().map(|(p, json)| (p, json.as_str())),
                )
            })
            .await?;
        let pin = pin.map(|(p, _)| PinRow {
            pairing_id: row.id.clone(),
            ..p
        });
        Ok::<_, HubError>((
            Pairing {
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
            },
            pin,
        ))
    }
    .await;
    hub.tickets.finish(&ticket, result.is_ok());
    let (pairing, pin) = result?;
    let focus = pin.as_ref().map(focus_for);
    match pin {
        Some(pin) => hub.notify_pin(&pairing.agent.handle, pin),
        None => hub.dock_changed(),
    }
    Ok((StatusCode::CREATED, Json(PairResponse { pairing, focus })).into_response())
}

/// The agent a live ticket was made for, still on this hub (a ticket outlives nothing it names).
async fn ticket_agent(hub: &Hub, handle: String) -> HubResult<Agent> {
    hub.db
        .run(move |s| s.agent_by_handle(&handle))
        .await?
        .ok_or_else(|| {
            HubError::page(
                PageLinkError::TicketUnknown,
                "The agent this ticket was made for is no longer on this hub.",
            )
        })
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
    let agent = ticket_agent(&hub, handle).await?;
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
async fn pairing_of(hub: &Hub, headers: &HeaderMap) -> HubResult<PairingRow> {
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
        .ok_or_else(unknown)?
        .to_owned();
    let pairing = hub
        .db
        .run(move |s| s.pairing_by_grant(&grant))
        .await?
        .ok_or_else(unknown)?;
    match pairing.status {
        PairingStatus::Active => Ok(pairing),
        PairingStatus::Revoked => Err(HubError::Revoked(revoked_answer(
            hub.host(),
            pairing.revoked_at.as_deref().unwrap_or(&pairing.created_at),
        ))),
    }
}

/// The one rule set for a reading (`apc_core::reading_rules`), the same the extension applies. A
/// reading over its whole cap (RR6) is the page link's `413 too_large`; any other broken rule is
/// `400 invalid_request`.
fn check_reading(reading: &PageReading) -> HubResult<()> {
    reading.check().map_err(|e| {
        let code = if e.is_over_the_reading_cap() {
            PageLinkError::TooLarge
        } else {
            PageLinkError::InvalidRequest
        };
        HubError::page(code, format!("{e}."))
    })
}

/// `PUT /page/pin` `{ reading, ticket? }` → 200 `{ focus }`; wakes the agent's waits. A drop's pin
/// must carry its drag's ticket, minted for this pairing's agent, live and unspent: it is spent with
/// the pin (and stays unspent when the pin fails).
pub async fn put_pin(State(hub): State<Arc<Hub>>, request: Request) -> HubResult<Response> {
    let (parts, body) = request.into_parts();
    extension_origin(&parts.headers)?;
    let pairing = pairing_of(&hub, &parts.headers).await?;
    let bytes = read_body(body, READING_MAX_BYTES + PIN_TICKET_OVERHEAD, "reading").await?;
    let req: PinRequest = parse_json(&bytes, "pin request")?;
    let reading = req.reading;
    check_reading(&reading)?;
    let ticket = match (reading.pointed.how, req.ticket.as_deref()) {
        (How::Drop, None) => {
            return Err(HubError::page(
                PageLinkError::TicketRequired,
                "A drop's pin must carry the ticket of that drag: drag the agent's mark from the dock again.",
            ))
        }
        (How::Drop, Some(raw)) => Some(hub.tickets.begin(raw, &pairing.agent)?),
        // Pointing by selection is the person's act in browser UI: no ticket, and one sent is ignored.
        _ => None,
    };
    let (pin, json) = match new_pin(&reading) {
        Ok(made) => made,
        Err(e) => {
            if let Some(t) = &ticket {
                hub.tickets.finish(t, false);
            }
            return Err(e);
        }
    };
    let pin = PinRow {
        pairing_id: pairing.id.clone(),
        ..pin
    };
    let stored = pin.clone();
    let result = hub.db.run(move |s| s.set_pin(&stored, &json)).await;
    if let Some(t) = &ticket {
        hub.tickets.finish(t, result.is_ok());
    }
    result?;
    let focus = focus_for(&pin);
    hub.notify_pin(&pairing.agent, pin);
    Ok(Json(PinResponse { focus }).into_response())
}

/// `DELETE /page/pin` → 204: the pin and its reading go.
pub async fn delete_pin(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<StatusCode> {
    extension_origin(&headers)?;
    let pairing = pairing_of(&hub, &headers).await?;
    hub.db.run(move |s| s.delete_pin(&pairing.id)).await?;
    hub.dock_changed();
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /page/grant` → 200 `{ status: "active", pin }`.
pub async fn grant_status(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<Response> {
    extension_origin_if_any(&headers)?;
    let pairing = pairing_of(&hub, &headers).await?;
    let pin = hub
        .db
        .run(move |s| s.pin(&pairing.id))
        .await?
        .map(|p| PinState {
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
    let pairing = pairing_of(&hub, &headers).await?;
    hub.db.run(move |s| s.delete_pairing(&pairing.id)).await?;
    hub.dock_changed();
    Ok(StatusCode::NO_CONTENT)
}
