//! The hub client: the page app link's calls (`docs/page-app-link.md`) and what each answer means.
//! Reading a hub's answer is a plain function ([`interpret`]) so every status and body maps to one
//! [`HubError`] in one place, tested natively; the calls themselves go through [`crate::http`].

use apc_core::page_link::{
    GrantStatus, PageEndpoints, PageReading, PairRequest, PairResponse, Pairing, PinResponse,
    TicketPreview,
};
use apc_core::{
    is_revoked_answer, parse_apc_manifest, url_on_origin, ApcRole, FocusPayload,
    APC_JSON_MAX_BYTES, APC_JSON_PATH,
};
use gloo_net::http::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::http::{self, HttpError, HttpRequest};

/// The standard's transport rule for `apc.json`: 3 s.
pub const APC_JSON_TIMEOUT_MS: u32 = 3000;
/// How long a call to the hub may take, body included.
pub const HUB_TIMEOUT_MS: u32 = 5000;
/// The most bytes of a hub's answer the extension reads (a pin's focus, a status, a pairing).
pub const HUB_ANSWER_MAX_BYTES: usize = 64 * 1024;

/// A hub as its `apc.json` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubInfo {
    pub origin: String,
    pub name: String,
    pub endpoints: PageEndpoints,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
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
}

impl HubError {
    /// The wire code the popup and the page see.
    pub fn code(&self) -> &str {
        match self {
            Self::Unreachable(_) => "hub_unreachable",
            Self::NotAHub(..) => "hub_not_a_hub",
            Self::Revoked { .. } => "revoked_by_hub",
            Self::GrantUnknown => "grant_unknown",
            Self::Refused { code, .. } => code,
            Self::BadAnswer(_) => "hub_bad_answer",
        }
    }
}

impl From<HttpError> for HubError {
    fn from(e: HttpError) -> Self {
        Self::Unreachable(e.to_string())
    }
}

/// Checks a hub's `apc.json` read from `origin`: a valid manifest that lists `hub`, with `page`
/// endpoints that are URLs on the hub's own origin.
pub fn check_hub_manifest(raw: &Value, origin: &str) -> Result<HubInfo, HubError> {
    let not_a_hub = |why: &str| HubError::NotAHub(origin.to_owned(), why.to_owned());
    let manifest = parse_apc_manifest(raw, origin).map_err(|e| not_a_hub(&e.to_string()))?;
    if !manifest.profiles.contains(&ApcRole::Hub) {
        return Err(not_a_hub("its apc.json does not say it is a hub"));
    }
    let page = raw
        .get("page")
        .ok_or_else(|| not_a_hub("its apc.json has no page endpoints"))?;
    let on_origin = |key: &str| {
        page.get(key)
            .and_then(Value::as_str)
            .and_then(|url| url_on_origin(url, origin))
            .ok_or_else(|| not_a_hub(&format!("page.{key} is not a URL on {origin}")))
    };
    Ok(HubInfo {
        origin: origin.to_owned(),
        name: manifest.name,
        endpoints: PageEndpoints {
            pair: on_origin("pair")?,
            pin: on_origin("pin")?,
            grant: on_origin("grant")?,
        },
    })
}

/// What a hub's answer means: the body of a success, or the one error it stands for.
pub fn interpret(status: u16, body: &[u8]) -> Result<Value, HubError> {
    let json: Option<Value> = serde_json::from_slice(body).ok();
    match status {
        200..=299 => Ok(json.unwrap_or(Value::Null)),
        // A hub that answers 5xx is not working, whatever its body says: out of reach for now.
        500..=599 => Err(HubError::Unreachable(format!("it answered HTTP {status}"))),
        403 if json.as_ref().is_some_and(is_revoked_answer) => Err(HubError::Revoked {
            by: json
                .as_ref()
                .and_then(|j| j["revoked_by"].as_str())
                .unwrap_or_default()
                .to_owned(),
        }),
        _ => {
            let code = json
                .as_ref()
                .and_then(|j| j["error"].as_str())
                .map(str::to_owned);
            let message = json
                .as_ref()
                .and_then(|j| j["message"].as_str())
                .map(str::to_owned);
            match (status, code) {
                (404, Some(code)) if code == "grant_unknown" => Err(HubError::GrantUnknown),
                (404, None) => Err(HubError::GrantUnknown),
                (_, Some(code))
                    if code.len() <= 40
                        && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
                {
                    Err(HubError::Refused {
                        message: message.unwrap_or_else(|| format!("the hub refused ({code})")),
                        code,
                    })
                }
                (status, _) => Err(HubError::BadAnswer(format!("HTTP {status}"))),
            }
        }
    }
}

fn decode<T: DeserializeOwned>(value: Value) -> Result<T, HubError> {
    serde_json::from_value(value).map_err(|e| HubError::BadAnswer(e.to_string()))
}

async fn call(
    method: Method,
    url: &str,
    bearer: Option<&str>,
    body: Option<String>,
) -> Result<Value, HubError> {
    let response = http::send(HttpRequest {
        method,
        url,
        bearer,
        json_body: body,
        timeout_ms: HUB_TIMEOUT_MS,
        max_bytes: HUB_ANSWER_MAX_BYTES,
    })
    .await?;
    interpret(response.status, &response.body)
}

/// An origin's `apc.json` by the standard's transport rules: no redirect followed, 3 s, 16 KiB.
pub async fn fetch_apc_json(origin: &str) -> Result<http::HttpResponse, HttpError> {
    let url = format!("{origin}{APC_JSON_PATH}");
    http::send(HttpRequest {
        method: Method::GET,
        url: &url,
        bearer: None,
        json_body: None,
        timeout_ms: APC_JSON_TIMEOUT_MS,
        max_bytes: APC_JSON_MAX_BYTES,
    })
    .await
}

/// Reads and checks a hub's `apc.json`.
pub async fn read_hub(origin: &str) -> Result<HubInfo, HubError> {
    let response = fetch_apc_json(origin).await.map_err(|e| match e {
        HttpError::Redirected | HttpError::TooLarge(_) => {
            HubError::NotAHub(origin.to_owned(), e.to_string())
        }
        other => other.into(),
    })?;
    if response.status != 200 {
        return Err(HubError::NotAHub(
            origin.to_owned(),
            format!("its apc.json answered HTTP {}", response.status),
        ));
    }
    let raw: Value = serde_json::from_slice(&response.body)
        .map_err(|_| HubError::NotAHub(origin.to_owned(), "its apc.json is not JSON".into()))?;
    check_hub_manifest(&raw, origin)
}

/// Which agent a live ticket (or typed code) is for, as the hub names it; spends nothing.
pub async fn preview(hub: &HubInfo, ticket: &str) -> Result<TicketPreview, HubError> {
    let mut url =
        url::Url::parse(&hub.endpoints.pair).map_err(|e| HubError::BadAnswer(e.to_string()))?;
    url.query_pairs_mut().append_pair("ticket", ticket);
    let preview: TicketPreview = decode(call(Method::GET, url.as_str(), None, None).await?)?;
    if preview.hub.origin != hub.origin {
        return Err(HubError::BadAnswer(
            "the ticket it described is not one of this hub".into(),
        ));
    }
    Ok(preview)
}

pub async fn pair(hub: &HubInfo, ticket: &str, agent: &str) -> Result<Pairing, HubError> {
    let body = serde_json::to_string(&PairRequest {
        ticket: ticket.to_owned(),
        agent: agent.to_owned(),
        reading: None,
    })
    .map_err(|e| HubError::BadAnswer(e.to_string()))?;
    let pairing: PairResponse =
        decode(call(Method::POST, &hub.endpoints.pair, None, Some(body)).await?)?;
    if pairing.pairing.grant.len() < 22 || pairing.pairing.hub.origin != hub.origin {
        return Err(HubError::BadAnswer(
            "the pairing it gave is not one for this hub".into(),
        ));
    }
    Ok(pairing.pairing)
}

pub async fn pin(
    endpoints: &PageEndpoints,
    grant: &str,
    reading: &PageReading,
) -> Result<FocusPayload, HubError> {
    let body = serde_json::to_string(reading).map_err(|e| HubError::BadAnswer(e.to_string()))?;
    let answer: PinResponse =
        decode(call(Method::PUT, &endpoints.pin, Some(grant), Some(body)).await?)?;
    Ok(answer.focus)
}

pub async fn unpin(endpoints: &PageEndpoints, grant: &str) -> Result<(), HubError> {
    call(Method::DELETE, &endpoints.pin, Some(grant), None)
        .await
        .map(drop)
}

pub async fn status(endpoints: &PageEndpoints, grant: &str) -> Result<GrantStatus, HubError> {
    decode(call(Method::GET, &endpoints.grant, Some(grant), None).await?)
}

/// Gives a grant back. A hub that no longer knows it, or revoked it itself, has nothing to take back:
/// that counts as done.
pub async fn give_back(grant_url: &str, grant: &str) -> Result<(), HubError> {
    match call(Method::DELETE, grant_url, Some(grant), None).await {
        Ok(_) | Err(HubError::GrantUnknown) | Err(HubError::Revoked { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HUB: &str = "http://127.0.0.1:7410";

    fn manifest() -> Value {
        json!({
            "name": "apc-hub", "standard": "0.7.0", "origin": HUB, "profiles": ["hub"],
            "mcp": { "path": "/mcp/" },
            "dock": { "pair": format!("{HUB}/apc/pair"), "confirm": format!("{HUB}/apc/confirm") },
            "page": { "pair": format!("{HUB}/page/pair"), "pin": format!("{HUB}/page/pin"), "grant": format!("{HUB}/page/grant") }
        })
    }

    #[test]
    fn a_hub_manifest_gives_its_page_endpoints() {
        let info = check_hub_manifest(&manifest(), HUB).unwrap();
        assert_eq!(info.name, "apc-hub");
        assert_eq!(info.endpoints.pin, format!("{HUB}/page/pin"));
    }

    #[test]
    fn refuses_what_is_not_a_hub_of_that_origin() {
        let mut app = manifest();
        app["profiles"] = json!(["dock"]);
        assert!(matches!(
            check_hub_manifest(&app, HUB),
            Err(HubError::NotAHub(..))
        ));
        let mut elsewhere = manifest();
        elsewhere["page"]["pin"] = json!("http://evil.example/page/pin");
        assert!(matches!(
            check_hub_manifest(&elsewhere, HUB),
            Err(HubError::NotAHub(..))
        ));
        let mut no_page = manifest();
        no_page.as_object_mut().unwrap().remove("page");
        assert!(matches!(
            check_hub_manifest(&no_page, HUB),
            Err(HubError::NotAHub(..))
        ));
        assert!(matches!(
            check_hub_manifest(&manifest(), "http://127.0.0.1:9999"),
            Err(HubError::NotAHub(..))
        ));
    }

    #[test]
    fn every_answer_maps_to_one_meaning() {
        assert_eq!(interpret(200, br#"{"a":1}"#), Ok(json!({"a":1})));
        assert_eq!(interpret(204, b""), Ok(Value::Null));
        let revoked =
            json!({"error":"revoked","revoked_by":"127.0.0.1:7410","revoked_at":"t","message":"m"});
        assert_eq!(
            interpret(403, revoked.to_string().as_bytes()),
            Err(HubError::Revoked {
                by: "127.0.0.1:7410".into()
            })
        );
        assert_eq!(interpret(404, b"{}"), Err(HubError::GrantUnknown));
        assert_eq!(
            interpret(404, br#"{"error":"grant_unknown","message":"x"}"#),
            Err(HubError::GrantUnknown)
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
