//! The hub client: the page app link's calls (`docs/page-app-link.md`) as requests over the
//! [`Http`] port, and what each answer means. (A web page's own `apc.json` is no hub's answer: it is
//! read by [`apc_json`] and kept by `app_checks`.) Every status and body maps to one [`HubCallError`] in
//! [`interpret`]; every success body is parsed into its `apc-core` type and checked with core's
//! limits before anything keeps or shows it.

use apc_core::page_link::{
    check_pinned_focus, parse_hub_page, GrantStatus, HubAnswerError, HubPage, PageEndpoints,
    PageReading, PageTextRequest, PageTextResponse, PairRequest, PairResponse, PinRequest,
    PinResponse, TicketPreview,
};
use apc_core::{is_revoked_answer, FocusPayload};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::apc_json;
use super::ports::{Http, HttpError, HttpRequest, Method};

/// How long a call to the hub may take, body included.
pub const HUB_TIMEOUT_MS: u32 = 5000;
/// The most bytes of a hub's answer the extension reads (a pin's focus, a status, a pairing).
pub const HUB_ANSWER_MAX_BYTES: usize = 64 * 1024;

/// Why a call from the extension to a hub failed (the client side; the hub's own error type is
/// `apc_hub::error::HubError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubCallError {
    #[error("the hub could not be reached: {0}")]
    Unreachable(String),
    #[error("{0} is not an APC hub the extension can pair with: {1}")]
    NotAHub(String, String),
    #[error("the hub's person revoked this pairing at {by}")]
    Revoked { by: String },
    #[error("the hub no longer knows this pairing")]
    GrantUnknown,
    #[error("{message}")]
    Refused { code: String, message: String },
    #[error("the hub gave an answer the extension cannot read ({0})")]
    BadAnswer(String),
    #[error(transparent)]
    Answer(#[from] HubAnswerError),
}

impl HubCallError {
    /// The wire code the popup and the page see.
    pub fn code(&self) -> &str {
        match self {
            Self::Unreachable(_) => "hub_unreachable",
            Self::NotAHub(..) => "hub_not_a_hub",
            Self::Revoked { .. } => "revoked_by_hub",
            Self::GrantUnknown => "grant_unknown",
            Self::Refused { code, .. } => code,
            Self::BadAnswer(_) | Self::Answer(_) => "hub_bad_answer",
        }
    }
}

impl From<HttpError> for HubCallError {
    fn from(e: HttpError) -> Self {
        Self::Unreachable(e.to_string())
    }
}

/// What a hub's answer means: the body of a success, or the one error it stands for.
pub fn interpret(status: u16, body: &[u8]) -> Result<Value, HubCallError> {
    let json: Option<Value> = serde_json::from_slice(body).ok();
    match status {
        200..=299 => Ok(json.unwrap_or(Value::Null)),
        // A hub that answers 5xx is not working, whatever its body says: out of reach for now.
        500..=599 => Err(HubCallError::Unreachable(format!(
            "it answered HTTP {status}"
        ))),
        403 if json.as_ref().is_some_and(is_revoked_answer) => Err(HubCallError::Revoked {
            by: json
                .as_ref()
                .and_then(|j| j["revoked_by"].as_str())
                .map(|by| by.chars().take(200).collect())
                .unwrap_or_default(),
        }),
        _ => {
            let code = json
                .as_ref()
                .and_then(|j| j["error"].as_str())
                .map(str::to_owned);
            let message = json
                .as_ref()
                .and_then(|j| j["message"].as_str())
                .map(|m| m.chars().take(300).collect::<String>());
            match (status, code) {
                (404, Some(code)) if code == "grant_unknown" => Err(HubCallError::GrantUnknown),
                (404, None) => Err(HubCallError::GrantUnknown),
                (_, Some(code))
                    if code.len() <= 40
                        && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
                {
                    Err(HubCallError::Refused {
                        message: message.unwrap_or_else(|| format!("the hub refused ({code})")),
                        code,
                    })
                }
                (status, _) => Err(HubCallError::BadAnswer(format!("HTTP {status}"))),
            }
        }
    }
}

fn decode<T: DeserializeOwned>(value: Value) -> Result<T, HubCallError> {
    serde_json::from_value(value).map_err(|e| HubCallError::BadAnswer(e.to_string()))
}

fn body_of(value: &impl serde::Serialize) -> Result<String, HubCallError> {
    serde_json::to_string(value).map_err(|e| HubCallError::BadAnswer(e.to_string()))
}

async fn call(
    http: &impl Http,
    method: Method,
    url: &str,
    bearer: Option<&str>,
    json_body: Option<String>,
) -> Result<Value, HubCallError> {
    let response = http
        .send(HttpRequest {
            method,
            url: url.to_owned(),
            bearer: bearer.map(str::to_owned),
            json_body,
            timeout_ms: HUB_TIMEOUT_MS,
            max_bytes: HUB_ANSWER_MAX_BYTES,
        })
        .await?;
    interpret(response.status, &response.body)
}

/// Reads and checks a hub's `apc.json`.
pub async fn read_hub(http: &impl Http, origin: &str) -> Result<HubPage, HubCallError> {
    let not_a_hub = |why: String| HubCallError::NotAHub(origin.to_owned(), why);
    let response = http
        .send(apc_json::request(origin))
        .await
        .map_err(|e| match e {
            HttpError::Redirected | HttpError::TooLarge(_) => not_a_hub(e.to_string()),
            other => other.into(),
        })?;
    match response.status {
        200 => {}
        500..=599 => {
            return Err(HubCallError::Unreachable(format!(
                "it answered HTTP {}",
                response.status
            )))
        }
        status => return Err(not_a_hub(format!("its apc.json answered HTTP {status}"))),
    }
    let raw: Value = serde_json::from_slice(&response.body)
        .map_err(|_| not_a_hub("its apc.json is not JSON".into()))?;
    Ok(parse_hub_page(&raw, origin)?)
}

/// Which agent a live ticket (or typed code) is for, as the hub names it; spends nothing.
pub async fn preview(
    http: &impl Http,
    hub: &HubPage,
    ticket: &str,
) -> Result<TicketPreview, HubCallError> {
    let mut url = apc_core::url_parse::new_url(&hub.endpoints.pair)
        .ok_or_else(|| HubCallError::BadAnswer("the hub's pair endpoint is not a URL".into()))?;
    url.query_pairs_mut().append_pair("ticket", ticket);
    let preview: TicketPreview = decode(call(http, Method::Get, url.as_str(), None, None).await?)?;
    preview.check(&hub.origin)?;
    Ok(preview)
}

/// `POST {page.pair}`: pairs, and with a drop's reading pins it in the same request (the ticket
/// spent once for both).
pub async fn pair(
    http: &impl Http,
    hub: &HubPage,
    ticket: &str,
    agent: &str,
    reading: Option<&PageReading>,
) -> Result<PairResponse, HubCallError> {
    let body = body_of(&PairRequest {
        ticket: ticket.to_owned(),
        agent: agent.to_owned(),
        reading: reading.cloned(),
    })?;
    let answer: PairResponse =
        decode(call(http, Method::Post, &hub.endpoints.pair, None, Some(body)).await?)?;
    answer.check(&hub.origin)?;
    Ok(answer)
}

/// `PUT {page.pin}`: a drop's reading with that drag's ticket; a selection's with none. With
/// `text_follows`, the reading is the pointed part and its page text follows ([`page_text`]).
pub async fn pin(
    http: &impl Http,
    endpoints: &PageEndpoints,
    grant: &str,
    reading: &PageReading,
    ticket: Option<&str>,
    text_follows: bool,
) -> Result<FocusPayload, HubCallError> {
    let body = body_of(&PinRequest {
        reading: reading.clone(),
        ticket: ticket.map(str::to_owned),
        text_follows,
    })?;
    let answer: PinResponse =
        decode(call(http, Method::Put, &endpoints.pin, Some(grant), Some(body)).await?)?;
    check_pinned_focus(&answer.focus)?;
    Ok(answer.focus)
}

/// `PUT {page.pin}` `{ reading_id, page_text, page_markdown?, truncated? }`: the page text of a
/// reading pinned with `text_follows` (`None`: it will not come), with its Markdown when it fit.
/// `true` when the hub attached it, `false` when the reading had its answer already.
pub async fn page_text(
    http: &impl Http,
    endpoints: &PageEndpoints,
    grant: &str,
    reading_id: &str,
    text: Option<&str>,
    markdown: Option<&str>,
    truncated: bool,
) -> Result<bool, HubCallError> {
    let body = body_of(&PageTextRequest {
        reading_id: reading_id.to_owned(),
        page_text: text.map(str::to_owned),
        truncated: truncated.then_some(true),
        page_markdown: text.and(markdown).map(str::to_owned),
    })?;
    let answer: PageTextResponse =
        decode(call(http, Method::Put, &endpoints.pin, Some(grant), Some(body)).await?)?;
    Ok(answer.attached)
}

pub async fn unpin(
    http: &impl Http,
    endpoints: &PageEndpoints,
    grant: &str,
) -> Result<(), HubCallError> {
    call(http, Method::Delete, &endpoints.pin, Some(grant), None)
        .await
        .map(drop)
}

pub async fn status(
    http: &impl Http,
    endpoints: &PageEndpoints,
    grant: &str,
) -> Result<GrantStatus, HubCallError> {
    let status: GrantStatus =
        decode(call(http, Method::Get, &endpoints.grant, Some(grant), None).await?)?;
    status.check()?;
    Ok(status)
}

/// Gives a grant back. A hub that no longer knows it, or revoked it itself, has nothing to take back:
/// that counts as done.
pub async fn give_back(http: &impl Http, grant_url: &str, grant: &str) -> Result<(), HubCallError> {
    match call(http, Method::Delete, grant_url, Some(grant), None).await {
        Ok(_) | Err(HubCallError::GrantUnknown) | Err(HubCallError::Revoked { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_answer_maps_to_one_meaning() {
        assert_eq!(interpret(200, br#"{"a":1}"#), Ok(json!({"a":1})));
        assert_eq!(interpret(204, b""), Ok(Value::Null));
        let revoked =
            json!({"error":"revoked","revoked_by":"127.0.0.1:7410","revoked_at":"t","message":"m"});
        assert_eq!(
            interpret(403, revoked.to_string().as_bytes()),
            Err(HubCallError::Revoked {
                by: "127.0.0.1:7410".into()
            })
        );
        assert_eq!(interpret(404, b"{}"), Err(HubCallError::GrantUnknown));
        assert_eq!(
            interpret(404, br#"{"error":"grant_unknown","message":"x"}"#),
            Err(HubCallError::GrantUnknown)
        );
        // A ticket the hub does not know is a refusal of that drop, not a forgotten pairing.
        assert_eq!(
            interpret(404, br#"{"error":"ticket_unknown","message":"x"}"#)
                .unwrap_err()
                .code(),
            "ticket_unknown"
        );
        let used = interpret(
            410,
            br#"{"error":"ticket_used","message":"That ticket was used."}"#,
        )
        .unwrap_err();
        assert_eq!(used.code(), "ticket_used");
        assert_eq!(used.to_string(), "That ticket was used.");
        // A 403 without a RevokedAnswer is a refusal, not a revoke.
        assert_eq!(
            interpret(403, br#"{"error":"origin_refused","message":"no"}"#)
                .unwrap_err()
                .code(),
            "origin_refused"
        );
        assert_eq!(
            interpret(500, b"<html>").unwrap_err().code(),
            "hub_unreachable"
        );
        assert_eq!(
            interpret(503, br#"{"error":"down","message":"x"}"#)
                .unwrap_err()
                .code(),
            "hub_unreachable"
        );
        assert_eq!(
            interpret(418, b"<html>").unwrap_err().code(),
            "hub_bad_answer"
        );
        // A code that is not a plain word is not passed on as one.
        assert_eq!(
            interpret(400, br#"{"error":"<script>"}"#)
                .unwrap_err()
                .code(),
            "hub_bad_answer"
        );
    }
}
