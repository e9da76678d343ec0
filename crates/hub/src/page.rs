//! The page app's endpoints (`docs/page-app-link.md`): `apc.json`, pair with a ticket (and pin a
//! drop's reading with it), pin (a drop's pin spends its drag's ticket), unpin, status and give back. Only extension origins are served; every refusal is JSON with the link's code.
//! A grant is looked up by its hash; a revoked one answers 403 `RevokedAnswer`, an unknown one 404,
//! before the body is read.

use std::collections::HashMap;
use std::sync::Arc;

use apc_core::page_link::{
    AgentRef, GrantStatus, How, HubRef, PageLinkError, PageReading, PageTextRequest,
    PageTextResponse, PairRequest, PairResponse, Pairing, PinRequest, PinResponse, PinState,
    TicketPreview, LINK_ID_MAX, PAGE_APP_ID, PAGE_TEXT_DUE_MS, PAGE_TEXT_WAIT_MS,
    READING_MAX_BYTES,
};
use apc_core::APC_STANDARD_VERSION;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
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
use crate::store::{Agent, PairingRow, PairingStatus, PinRow, TextState};

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

/// The preamble of every page endpoint but `apc.json`, checked before anything else (so that a
/// refused request spends no ticket and reads no body): the caller is the extension, by its
/// `Origin`. A read (`GET`) may come without one: Chromium sends none on an extension background's
/// `GET`, a read changes nothing, and the `Host` check already stops DNS rebinding.
pub struct FromExtension;

impl FromRequestParts<Arc<Hub>> for FromExtension {
    type Rejection = HubError;

    async fn from_request_parts(parts: &mut Parts, _: &Arc<Hub>) -> HubResult<Self> {
        if parts.method == Method::GET {
            extension_origin_if_any(&parts.headers)?;
        } else {
            extension_origin(&parts.headers)?;
        }
        Ok(Self)
    }
}

/// The preamble of the endpoints a grant opens: [`FromExtension`], then the active pairing of the
/// request's bearer grant ([`pairing_of`]), before the body is read.
pub struct Granted(pub PairingRow);

impl FromRequestParts<Arc<Hub>> for Granted {
    type Rejection = HubError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> HubResult<Self> {
        FromExtension::from_request_parts(parts, hub).await?;
        Ok(Self(pairing_of(hub, &parts.headers).await?))
    }
}

/// A request body of at most `limit` bytes as `T`: `413 too_large` past it, `400 invalid_request`
/// for JSON that is not a `T`.
async fn read_json<T: serde::de::DeserializeOwned>(
    body: Body,
    limit: usize,
    what: &str,
) -> HubResult<T> {
    parse_json(&read_body(body, limit, what).await?, what)
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
pub async fn pair(
    State(hub): State<Arc<Hub>>,
    _: FromExtension,
    headers: HeaderMap,
    body: Body,
) -> HubResult<Response> {
    let limit = PAIR_MAX_BYTES + READING_MAX_BYTES;
    let req: PairRequest = read_json(body, limit, "pairing request").await?;
    if req.agent.is_empty() || req.agent.len() > LINK_ID_MAX {
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
                    origin: request_origin(&headers, &hub),
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
    _: FromExtension,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> HubResult<Response> {
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

/// `PUT /page/pin`: a pin `{ reading, ticket?, text_follows? }` (below), or the page text of one
/// `{ reading_id, page_text, truncated? }` ([`put_page_text`]), told apart by `reading_id`.
pub async fn put_pin(
    State(hub): State<Arc<Hub>>,
    Granted(pairing): Granted,
    body: Body,
) -> HubResult<Response> {
    let bytes = read_body(body, READING_MAX_BYTES + PIN_TICKET_OVERHEAD, "reading").await?;
    /// Which of the two bodies this is (the values are skipped, not kept).
    #[derive(serde::Deserialize)]
    struct Shape {
        #[serde(default)]
        reading_id: Option<serde::de::IgnoredAny>,
    }
    let shape: Shape = parse_json(&bytes, "pin request")?;
    if shape.reading_id.is_some() {
        let req: PageTextRequest = parse_json(&bytes, "page text")?;
        return put_page_text(&hub, &pairing, req).await;
    }
    let req: PinRequest = parse_json(&bytes, "pin request")?;
    pin_reading(&hub, &pairing, req).await
}

/// A pin `{ reading, ticket?, text_follows? }` → 200 `{ focus }`; wakes the agent's waits. A drop's
/// pin must carry its drag's ticket, minted for this pairing's agent, live and unspent: it is spent
/// with the pin (and stays unspent when the pin fails). With `text_follows`, the reading is the
/// pointed part and its page text is expected ([`put_page_text`]).
async fn pin_reading(hub: &Hub, pairing: &PairingRow, req: PinRequest) -> HubResult<Response> {
    let text_follows = req.text_follows;
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
    let result = hub
        .db
        .run(move |s| match text_follows {
            true => s.set_pin_text_coming(&stored, &json),
            false => s.set_pin(&stored, &json),
        })
        .await;
    if let Some(t) = &ticket {
        hub.tickets.finish(t, result.is_ok());
    }
    result?;
    let focus = focus_for(&pin);
    hub.notify_pin(&pairing.agent, pin);
    Ok(Json(PinResponse { focus }).into_response())
}

/// `{ reading_id, page_text, page_markdown?, truncated? }` → 200 `{ attached }`: the page text of the reading this
/// pairing pinned with `text_follows` (its current pin; another pairing's reading, or one replaced,
/// is `404 reading_unknown`). `page_text: null`: it will not come, and `page__get_reading` stops
/// waiting for it. The first answer stands; a repeat is `{ attached: false }` and changes nothing.
/// The reading with its text must fit the reading's cap and rules (`413 too_large`, `400`).
async fn put_page_text(
    hub: &Hub,
    pairing: &PairingRow,
    req: PageTextRequest,
) -> HubResult<Response> {
    let unknown = || {
        HubError::page(
            PageLinkError::ReadingUnknown,
            "This pairing's pin is not that reading: it was replaced, unpinned, or never pinned here.",
        )
    };
    let (pairing_id, reading_id) = (pairing.id.clone(), req.reading_id.clone());
    let stored = hub
        .db
        .run(move |s| s.pairing_reading(&pairing_id, &reading_id))
        .await?
        .ok_or_else(unknown)?;
    if stored.text != TextState::Coming {
        return Ok(Json(PageTextResponse { attached: false }).into_response());
    }
    let json = match req.page_text {
        Some(text) => {
            let mut reading: PageReading = serde_json::from_str(&stored.json).map_err(|e| {
                tracing::error!("a stored reading does not parse: {e}");
                HubError::page(
                    PageLinkError::ReadingUnknown,
                    "The hub could not read this reading back.",
                )
            })?;
            reading.page_text = (!text.is_empty()).then_some(text);
            // Its Markdown goes with it, into the reading's Markdown (a pointed part made without
            // any has none to join).
            if let (Some(md), Some(page)) = (reading.markdown.as_mut(), req.page_markdown) {
                md.page = (!page.is_empty() && reading.page_text.is_some()).then_some(page);
            }
            if req.truncated == Some(true) {
                reading.truncated = Some(true);
            }
            check_reading(&reading)?;
            let json =
                serde_json::to_string(&reading).map_err(|e| HubError::BadRequest(e.to_string()))?;
            Some(json)
        }
        None => None,
    };
    let (pairing_id, reading_id) = (pairing.id.clone(), req.reading_id);
    let attached = hub
        .db
        .run(move |s| s.set_page_text(&pairing_id, &reading_id, json.as_deref()))
        .await?;
    if attached {
        hub.page_text_arrived();
    }
    Ok(Json(PageTextResponse { attached }).into_response())
}

/// Whether a reading an agent gets has its page text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageTextStatus {
    /// The reading is whole (its page text came with the pin or was attached).
    Whole,
    /// Still expected, but not within this call's wait: a later call may have it.
    Pending,
    /// It will not come (the extension said so, or [`PAGE_TEXT_DUE_MS`] passed since the pin).
    Missing,
}

impl PageTextStatus {
    /// The field and note `page__get_reading` adds for a reading without its page text.
    pub fn note(self) -> Option<(&'static str, &'static str)> {
        match self {
            Self::Whole => None,
            Self::Pending => Some((
                "pending",
                "The page's main text (page_text) had not reached the hub yet; the pointed text and its context are complete. Call page__get_reading again shortly for the page text.",
            )),
            Self::Missing => Some((
                "missing",
                "The page's main text (page_text) did not arrive (the page was closed, changed or could not be read); the pointed text and its context are complete.",
            )),
        }
    }
}

/// The agent's reading `reading_id` (of one of its active pairings) for `page__get_reading`. If its
/// page text is still coming, waits for it, at most [`PAGE_TEXT_WAIT_MS`] and never past
/// [`PAGE_TEXT_DUE_MS`] after the pin, then gives what there is and whether the text is there. The
/// wait holds no database job and no lock: it watches the texts arriving and looks again.
pub async fn agent_reading_with_text(
    hub: &Hub,
    agent: &str,
    reading_id: &str,
) -> HubResult<Option<(crate::store::StoredReading, PageTextStatus)>> {
    use std::time::Duration;
    let mut texts = hub.watch_page_texts();
    let until = tokio::time::Instant::now() + Duration::from_millis(PAGE_TEXT_WAIT_MS);
    loop {
        texts.borrow_and_update();
        let (a, r) = (agent.to_owned(), reading_id.to_owned());
        let Some(stored) = hub.db.run(move |s| s.agent_reading(&a, &r)).await? else {
            return Ok(None);
        };
        let status = match stored.text {
            TextState::Whole => return Ok(Some((stored, PageTextStatus::Whole))),
            TextState::Missing => return Ok(Some((stored, PageTextStatus::Missing))),
            TextState::Coming => PageTextStatus::Pending,
        };
        // How long it may still come: what is left of this call's wait and of its due time.
        let since_pin = chrono::DateTime::parse_from_rfc3339(&stored.pin.pinned_at)
            .map(|at| {
                (chrono::Utc::now() - at.with_timezone(&chrono::Utc))
                    .num_milliseconds()
                    .max(0) as u64
            })
            .unwrap_or(u64::MAX);
        let due_left = PAGE_TEXT_DUE_MS.saturating_sub(since_pin);
        if due_left == 0 {
            return Ok(Some((stored, PageTextStatus::Missing)));
        }
        let deadline = until.min(tokio::time::Instant::now() + Duration::from_millis(due_left));
        if tokio::time::Instant::now() >= deadline {
            return Ok(Some((stored, status)));
        }
        if tokio::time::timeout_at(deadline, texts.changed())
            .await
            .is_err()
        {
            // Out of time: one last look (it may have come at the very end).
            let (a, r) = (agent.to_owned(), reading_id.to_owned());
            let Some(last) = hub.db.run(move |s| s.agent_reading(&a, &r)).await? else {
                return Ok(None);
            };
            let status = match last.text {
                TextState::Whole => PageTextStatus::Whole,
                TextState::Missing => PageTextStatus::Missing,
                TextState::Coming if due_left <= PAGE_TEXT_WAIT_MS => PageTextStatus::Missing,
                TextState::Coming => PageTextStatus::Pending,
            };
            return Ok(Some((last, status)));
        }
    }
}

/// `DELETE /page/pin` → 204: the pin and its reading go.
pub async fn delete_pin(
    State(hub): State<Arc<Hub>>,
    Granted(pairing): Granted,
) -> HubResult<StatusCode> {
    hub.db.run(move |s| s.delete_pin(&pairing.id)).await?;
    hub.dock_changed();
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /page/grant` → 200 `{ status: "active", pin }`.
pub async fn grant_status(
    State(hub): State<Arc<Hub>>,
    Granted(pairing): Granted,
) -> HubResult<Response> {
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
pub async fn give_back(
    State(hub): State<Arc<Hub>>,
    Granted(pairing): Granted,
) -> HubResult<StatusCode> {
    hub.db.run(move |s| s.delete_pairing(&pairing.id)).await?;
    hub.dock_changed();
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    //! The page text that follows a pin, over real HTTP (`reqwest` plays the extension, an `rmcp`
    //! client the agent).
    use super::*;
    use crate::server;
    use crate::testkit::{self, TestHub, EXT};
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::ServiceExt;
    use serde_json::Value;
    use std::time::{Duration, Instant};

    async fn start() -> TestHub {
        testkit::start_temp().await
    }

    impl TestHub {
        async fn put(&self, grant: &str, body: Value) -> (StatusCode, Value) {
            let res = self
                .http
                .put(format!("{}{PAGE_PIN_PATH}", self.origin))
                .header("origin", EXT)
                .bearer_auth(grant)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = res.status();
            (
                StatusCode::from_u16(status.as_u16()).unwrap(),
                res.json().await.unwrap_or(Value::Null),
            )
        }

        /// A pin of the pointed part (by selection: no ticket), its page text to follow: the id.
        async fn pin_first(&self, grant: &str, text: &str) -> String {
            let (status, body) = self
                .put(
                    grant,
                    json!({ "reading": reading(text), "text_follows": true }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body["focus"]["id"].as_str().unwrap().to_owned()
        }

        async fn get_reading(&self, agent: &crate::store::Agent, id: &str) -> Value {
            let url = Hub::mcp_url(&self.origin, &agent.secret);
            let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
            let params = CallToolRequestParams::new("page__get_reading")
                .with_arguments(json!({ "id": id }).as_object().cloned().unwrap());
            let result = client.call_tool(params).await.unwrap();
            assert_ne!(result.is_error, Some(true), "{result:?}");
            result.structured_content.unwrap()
        }
    }

    use testkit::reading;

    #[tokio::test]
    async fn page_text_attaches_to_the_pin_it_follows_once() {
        let t = start().await;
        let agent = t.agent(server::DEFAULT_AGENT).await;
        let grant = t.pair_agent(&agent).await;
        let id = t.pin_first(&grant, "The pointed paragraph.").await;
        let (status, body) = t
            .put(
                &grant,
                json!({ "reading_id": id, "page_text": "The whole article.", "truncated": true }),
            )
            .await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, json!({ "attached": true }))
        );
        // A repeat (a retry after a lost answer) changes nothing.
        let (status, body) = t
            .put(
                &grant,
                json!({ "reading_id": id, "page_text": "Something else." }),
            )
            .await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, json!({ "attached": false }))
        );
        let read = t.get_reading(&agent, &id).await;
        assert_eq!(read["reading"]["pointed"]["text"], "The pointed paragraph.");
        assert_eq!(read["reading"]["page_text"], "The whole article.");
        assert_eq!(read["reading"]["truncated"], true);
        assert!(read.get("page_text_status").is_none());
        // One focus: the agent's latest pin is still that reading.
        let latest = t
            .hub
            .db
            .run(move |s| s.latest_pin(&agent.handle))
            .await
            .unwrap();
        assert_eq!(latest.unwrap().reading_id, id);
    }

    #[tokio::test]
    async fn page_text_for_another_pairings_reading_or_a_replaced_one_is_refused() {
        let t = start().await;
        let a = t.agent(server::DEFAULT_AGENT).await;
        let b = t.agent("other").await;
        let (grant_a, grant_b) = (t.pair_agent(&a).await, t.pair_agent(&b).await);
        let id_a = t.pin_first(&grant_a, "A's paragraph.").await;
        let (status, body) = t
            .put(
                &grant_b,
                json!({ "reading_id": id_a, "page_text": "Injected." }),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["error"], "reading_unknown");
        // A newer pin replaced it: its text has nowhere to go.
        let id_a2 = t.pin_first(&grant_a, "A's next paragraph.").await;
        let (status, body) = t
            .put(
                &grant_a,
                json!({ "reading_id": id_a, "page_text": "Late." }),
            )
            .await;
        assert_eq!(
            (status, body["error"].clone()),
            (StatusCode::NOT_FOUND, json!("reading_unknown"))
        );
        // Malformed: a missing page_text is not "none"; a grant is required as for a pin.
        let (status, _) = t.put(&grant_a, json!({ "reading_id": id_a2 })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = t
            .put(
                "not-a-grant-at-all-xxxxxxxx",
                json!({ "reading_id": id_a2, "page_text": "x" }),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        // Too large together with the pinned part: refused, and the pin still waits for its text.
        let big = "x".repeat(READING_MAX_BYTES);
        let (status, body) = t
            .put(&grant_a, json!({ "reading_id": id_a2, "page_text": big }))
            .await;
        assert_eq!(
            (status, body["error"].clone()),
            (StatusCode::PAYLOAD_TOO_LARGE, json!("too_large"))
        );
        let (status, body) = t
            .put(
                &grant_a,
                json!({ "reading_id": id_a2, "page_text": "Fits." }),
            )
            .await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, json!({ "attached": true }))
        );
        // B's agent never sees A's reading; A's has its text.
        let read = t.get_reading(&a, &id_a2).await;
        assert_eq!(read["reading"]["page_text"], "Fits.");
    }

    #[tokio::test]
    async fn get_reading_waits_for_page_text_still_coming_then_answers_with_it() {
        let t = start().await;
        let agent = t.agent(server::DEFAULT_AGENT).await;
        let grant = t.pair_agent(&agent).await;
        let id = t.pin_first(&grant, "Pointed.").await;
        let started = Instant::now();
        let (read, put) = tokio::join!(t.get_reading(&agent, &id), async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            t.put(&grant, json!({ "reading_id": id, "page_text": "Arrived." }))
                .await
        });
        assert_eq!(put.0, StatusCode::OK);
        assert_eq!(read["reading"]["page_text"], "Arrived.");
        assert!(read.get("page_text_status").is_none());
        // It waited for the text (not for its whole bound).
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_millis(PAGE_TEXT_WAIT_MS), "{took:?}");
    }

    #[tokio::test]
    async fn get_reading_answers_without_page_text_that_does_not_come_and_says_so() {
        let t = start().await;
        let agent = t.agent(server::DEFAULT_AGENT).await;
        let grant = t.pair_agent(&agent).await;
        let id = t.pin_first(&grant, "Pointed.").await;
        // Nothing comes within the call's bound: the reading as pinned, and a note that it is pending.
        let started = Instant::now();
        let read = t.get_reading(&agent, &id).await;
        assert!(started.elapsed() >= Duration::from_millis(PAGE_TEXT_WAIT_MS));
        assert_eq!(read["reading"]["pointed"]["text"], "Pointed.");
        assert!(read["reading"].get("page_text").is_none());
        assert_eq!(read["page_text_status"], "pending");
        assert!(read["page_text_note"]
            .as_str()
            .unwrap()
            .contains("page_text"));
        assert_eq!(read["untrusted"], true);
        // Another request is not held up by a waiting get_reading.
        let (slow, quick) = tokio::join!(t.get_reading(&agent, &id), async {
            let started = Instant::now();
            let (status, _) = t
                .put(&grant, json!({ "reading_id": id, "page_text": null }))
                .await;
            (status, started.elapsed())
        });
        assert_eq!(quick.0, StatusCode::OK);
        assert!(quick.1 < Duration::from_millis(PAGE_TEXT_WAIT_MS));
        // The extension said it will not come: the wait ends, and every later read says so at once.
        assert_eq!(slow["page_text_status"], "missing");
        let started = Instant::now();
        let read = t.get_reading(&agent, &id).await;
        assert!(started.elapsed() < Duration::from_millis(PAGE_TEXT_WAIT_MS));
        assert_eq!(read["page_text_status"], "missing");
    }

    #[tokio::test]
    async fn a_one_step_pin_is_whole_and_never_waited_for() {
        let t = start().await;
        let agent = t.agent(server::DEFAULT_AGENT).await;
        let grant = t.pair_agent(&agent).await;
        let mut whole = reading("Pointed.");
        whole["page_text"] = json!("All of it.");
        let (status, body) = t.put(&grant, json!({ "reading": whole })).await;
        assert_eq!(status, StatusCode::OK);
        let id = body["focus"]["id"].as_str().unwrap().to_owned();
        let started = Instant::now();
        let read = t.get_reading(&agent, &id).await;
        assert!(started.elapsed() < Duration::from_millis(PAGE_TEXT_WAIT_MS));
        assert_eq!(read["reading"]["page_text"], "All of it.");
        assert!(read.get("page_text_status").is_none());
        // Page text for a whole reading changes nothing.
        let (status, body) = t
            .put(&grant, json!({ "reading_id": id, "page_text": "Other." }))
            .await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, json!({ "attached": false }))
        );
    }
}
