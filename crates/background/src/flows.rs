//! The extension's flows, each from one event to its end: a drop, a consent answer, pointing at a
//! selection (context menu, keyboard command, popup), unpin and undo, revoke and its give back, and
//! the popup's view. The rules they apply come from `apc-core` (payload, `apc.json`, notes),
//! `apc-content` (the reading) and [`crate::drop_answer`]; this module sequences them.

use apc_content::{build_reading, Observation};
use apc_core::page_link::PageReading;
use apc_core::{display_host, parse_drag_payload};
use serde_json::{json, Value};

use crate::browser::BrowserError;
use crate::effects::{self, Feedback};
use crate::hub::{self, HubError, HubInfo};
use crate::secrets::{self, SecretError};
use crate::state::{HubState, PairingRecord, PinView};
use crate::storage::{self, PendingConsent};
use apc_core::drop_answer::{answer_drop, AppCheck, DropAnswer};

/// How long the popup's Revoke waits for its confirming second click.
pub const REVOKE_CONFIRM_MS: u32 = 4000;
/// The hub the popup offers first for pairing with a code.
pub const DEFAULT_HUB: &str = "http://127.0.0.1:7410";

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error(transparent)]
    Browser(#[from] BrowserError),
    #[error(transparent)]
    Hub(#[from] HubError),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error("this drag is not an agent's mark from an APC hub: {0}")]
    BadPayload(String),
    #[error(transparent)]
    Content(#[from] apc_content::ContentError),
    #[error("select some text on the page first")]
    NoSelection,
    #[error("the extension cannot read this page; reload it and try again")]
    PageUnreachable,
    #[error("pointing works on web pages (http and https) only")]
    NotAWebPage,
    #[error("no agent is paired yet: drag an agent's mark from your hub's dock page onto the page first")]
    NoPairing,
    #[error("that pairing is gone")]
    UnknownPairing,
    #[error("that request to pair is gone (answered, or the browser was restarted)")]
    UnknownConsent,
    #[error("{0} is not the address of a hub (like http://127.0.0.1:7410)")]
    HubInvalid(String),
}

impl FlowError {
    pub fn code(&self) -> &str {
        match self {
            Self::Browser(_) => "browser_error",
            Self::Hub(e) => e.code(),
            Self::Secret(_) => "storage_error",
            Self::BadPayload(_) => "invalid_payload",
            Self::Content(e) => e.code(),
            Self::NoSelection => "no_selection",
            Self::PageUnreachable => "page_unreachable",
            Self::NotAWebPage => "not_a_web_page",
            Self::NoPairing => "no_pairing",
            Self::UnknownPairing => "unknown_pairing",
            Self::UnknownConsent => "consent_unknown",
            Self::HubInvalid(_) => "hub_invalid",
        }
    }
}

pub type Flow<T> = Result<T, FlowError>;

pub fn now() -> String {
    js_sys::Date::new_0().to_iso_string().into()
}

fn random_id() -> String {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).unwrap_or_default();
    js_sys::Reflect::get(&crypto, &"randomUUID".into())
        .ok()
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
        .and_then(|f| f.call0(&crypto).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| format!("{}", js_sys::Math::random().to_bits()))
}

fn grant_key(pairing_id: &str) -> String {
    format!("grant:{pairing_id}")
}

/// The origin and the host (with a port that is not the default) of an http(s) page URL.
fn page_origin(url: &str) -> Option<(String, String)> {
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let host = parsed.host_str()?;
    let host = match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    Some((parsed.origin().ascii_serialization(), host))
}

fn host_of(origin: &str) -> String {
    page_origin(origin)
        .map(|(_, host)| display_host(&host))
        .unwrap_or_else(|| origin.to_owned())
}

fn reading_from(observation: Value, page_url: &str) -> Flow<PageReading> {
    let observation = Observation::from_json(&observation.to_string())?;
    let reading = build_reading(&observation, &now())?;
    // The page's own account of its address must be the page the browser says sent it.
    if page_origin(&reading.url).map(|o| o.0) != page_origin(page_url).map(|o| o.0) {
        return Err(FlowError::PageUnreachable);
    }
    Ok(reading)
}

/// Reads a page origin's `apc.json` and says what it gave.
async fn check_app(origin: &str) -> AppCheck {
    match hub::fetch_apc_json(origin).await {
        Ok(r) if (200..300).contains(&r.status) => AppCheck::Body {
            content_type: r.content_type,
            body: r.body,
        },
        Ok(r) if (400..500).contains(&r.status) => AppCheck::Missing,
        Ok(r) => AppCheck::Unreadable(format!("HTTP {}", r.status)),
        Err(e) => AppCheck::Unreadable(e.to_string()),
    }
}

/// A trusted drop of an agent's mark on a page (the content script checked `isTrusted`).
pub async fn drop(tab_id: i64, page_url: &str, payload: &str, observation: Value) -> Flow<Value> {
    let outcome = drop_inner(tab_id, page_url, payload, observation).await;
    if let Err(e) = &outcome {
        effects::feedback(tab_id, Feedback::error(e.to_string())).await;
    }
    outcome
}

async fn drop_inner(tab_id: i64, page_url: &str, payload: &str, observation: Value) -> Flow<Value> {
    let payload = parse_drag_payload(payload).map_err(|e| FlowError::BadPayload(e.to_string()))?;
    let (Some(hub_origin), Some(ticket)) = (payload.hub.clone(), payload.ticket.clone()) else {
        return Err(FlowError::BadPayload(
            "it names no hub to pair through".into(),
        ));
    };
    let (origin, host) = page_origin(page_url).ok_or(FlowError::NotAWebPage)?;
    match answer_drop(&origin, &host, check_app(&origin).await) {
        DropAnswer::Ordinary => {}
        DropAnswer::DirectOnly(note) | DropAnswer::CouldNotCheck(note) => {
            let answered = json!({ "answered": true, "note": note.text, "link": note.link });
            effects::feedback(
                tab_id,
                Feedback {
                    kind: "note",
                    text: note.text,
                    link: note.link,
                    undo_token: None,
                },
            )
            .await;
            return Ok(answered);
        }
    }
    let reading = reading_from(observation, page_url)?;
    let state = storage::load().await?;
    if let Some(record) = state.find_live(&hub_origin, &payload.agent).cloned() {
        let focus = pin_with(&record, &reading, Some(tab_id)).await?;
        return Ok(json!({ "pinned": focus }));
    }
    let hub = hub::read_hub(&hub_origin).await?;
    let preview = hub::preview(&hub, &ticket).await?;
    if preview.agent.handle != payload.agent {
        return Err(FlowError::BadPayload(
            "its ticket was made for another agent".into(),
        ));
    }
    let consent = PendingConsent {
        id: random_id(),
        created_at: now(),
        how: "drop".into(),
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints.clone()),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket,
        tab_id: Some(tab_id),
        page_url: Some(reading.url.clone()),
        reading: Some(reading),
    };
    storage::put_consent(&consent).await?;
    if let Some(window) = effects::open_consent(&consent.id).await? {
        storage::put_consent_window(window, &consent.id).await?;
    }
    let text = format!(
        "Answer in the extension's window: pair {} through {}?",
        consent.agent_name,
        host_of(&hub.origin)
    );
    effects::feedback(tab_id, Feedback::info(text)).await;
    Ok(json!({ "consent": consent.id }))
}

/// Pins a reading for a pairing, and keeps what the hub said of it.
async fn pin_with(
    record: &PairingRecord,
    reading: &PageReading,
    tab_id: Option<i64>,
) -> Flow<apc_core::FocusPayload> {
    let outcome = match secrets::get(&grant_key(&record.id)).await? {
        Some(grant) => hub::pin(&record.endpoints, &grant, reading).await,
        None => Err(HubError::GrantUnknown),
    };
    let at = now();
    let id = record.id.clone();
    let result = match outcome {
        Ok(focus) => {
            let pin = PinView {
                id: focus.target.id.clone().unwrap_or_default(),
                pinned_at: focus.pinned_at.clone(),
                seen_at: None,
            };
            let (_, state) = storage::update(|s| {
                s.last_used = Some(id.clone());
                if let Some(p) = s.get_mut(&id) {
                    p.pin = Some(pin.clone());
                    p.hub = HubState::Reachable { at: at.clone() };
                }
            })
            .await?;
            effects::after_change(&state).await;
            if let Some(tab) = tab_id {
                let text = format!(
                    "{} can read this now, through {}.",
                    record.agent_name,
                    host_of(&record.hub_origin)
                );
                let undo = Some(format!("{}:{}", record.id, pin.id));
                effects::feedback(
                    tab,
                    Feedback {
                        kind: "pointed",
                        text,
                        link: None,
                        undo_token: undo,
                    },
                )
                .await;
            }
            return Ok(focus);
        }
        Err(e) => e,
    };
    note_hub_error(&id, &result).await?;
    Err(result.into())
}

/// Keeps what a failed call says of the pairing: revoked or forgotten by the hub (its grant is then
/// deleted: it will never work again), or the hub out of reach.
async fn note_hub_error(pairing_id: &str, error: &HubError) -> Flow<()> {
    let at = now();
    let hub_state = match error {
        HubError::Revoked { by } => HubState::RevokedByHub { at, by: by.clone() },
        HubError::GrantUnknown => HubState::Forgotten { at },
        HubError::Unreachable(reason) => HubState::Unreachable {
            at,
            reason: reason.clone(),
        },
        _ => return Ok(()),
    };
    let dead = matches!(
        hub_state,
        HubState::RevokedByHub { .. } | HubState::Forgotten { .. }
    );
    let (_, state) = storage::update(|s| {
        if let Some(p) = s.get_mut(pairing_id) {
            p.hub = hub_state;
            if dead {
                p.pin = None;
            }
        }
    })
    .await?;
    if dead {
        secrets::delete(&grant_key(pairing_id)).await?;
    }
    effects::after_change(&state).await;
    Ok(())
}

/// The consent window asks what it is for.
pub async fn consent_get(id: &str) -> Flow<Value> {
    let c = storage::get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    Ok(json!({ "consent": {
        "id": c.id, "how": c.how, "hub_origin": c.hub_origin, "hub_display": host_of(&c.hub_origin),
        "hub_name": c.hub_name, "agent_handle": c.agent_handle, "agent_name": c.agent_name,
        "page_display": c.page_url.as_deref().map(host_of),
    }}))
}

/// The person's answer in the consent window.
pub async fn consent_answer(id: &str, allow: bool) -> Flow<Value> {
    let c = storage::get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    storage::delete_consent(id).await?;
    let tell = |text: String, error: bool| async move {
        if let Some(tab) = c.tab_id {
            effects::feedback(
                tab,
                if error {
                    Feedback::error(text)
                } else {
                    Feedback::info(text)
                },
            )
            .await;
        }
    };
    if !allow {
        tell(
            format!("Not paired: you did not allow {}.", c.agent_name),
            false,
        )
        .await;
        return Ok(json!({ "paired": false, "pinned": false }));
    }
    let hub = match &c.endpoints {
        Some(endpoints) => HubInfo {
            origin: c.hub_origin.clone(),
            name: c.hub_name.clone(),
            endpoints: endpoints.clone(),
        },
        None => hub::read_hub(&c.hub_origin).await?,
    };
    let pairing = match hub::pair(&hub, &c.ticket, &c.agent_handle).await {
        Ok(p) => p,
        Err(e) => {
            tell(format!("Not paired: {e}"), true).await;
            return Err(e.into());
        }
    };
    secrets::put(&grant_key(&pairing.id), &pairing.grant).await?;
    let record = PairingRecord {
        id: pairing.id.clone(),
        hub_origin: hub.origin.clone(),
        hub_name: pairing.hub.name.clone(),
        agent_handle: pairing.agent.handle.clone(),
        agent_name: pairing.agent.name.clone(),
        created_at: pairing.created_at.clone(),
        endpoints: hub.endpoints.clone(),
        pin: None,
        hub: HubState::Reachable { at: now() },
    };
    let (replaced, state) = storage::update(|s| s.add(record.clone())).await?;
    if let Some(old) = replaced {
        secrets::delete(&grant_key(&old)).await?;
    }
    effects::after_change(&state).await;
    let pinned = match &c.reading {
        Some(reading) => pin_with(&record, reading, c.tab_id).await.is_ok(),
        None => false,
    };
    Ok(json!({ "paired": true, "pinned": pinned, "agent_name": record.agent_name }))
}

/// A window closed: if it was a consent window still waiting, closing it said no.
pub async fn window_closed(window_id: i64) -> Flow<()> {
    if let Some(id) = storage::take_consent_window(window_id).await? {
        if storage::get_consent(&id).await?.is_some() {
            consent_answer(&id, false).await?;
        }
    }
    Ok(())
}

/// Pairing with the code the dock shows: the hub is checked, then the person answers in the consent window.
pub async fn pair_code(hub_address: &str, code: &str) -> Flow<Value> {
    let address = hub_address.trim();
    let with_scheme = if address.contains("://") {
        address.to_owned()
    } else {
        format!("http://{address}")
    };
    let (origin, _) =
        page_origin(&with_scheme).ok_or_else(|| FlowError::HubInvalid(address.to_owned()))?;
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.is_empty()
        || code.len() > 128
        || !code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(HubError::Refused {
            code: "ticket_unknown".into(),
            message: "That is not a pairing code.".into(),
        }
        .into());
    }
    let hub = hub::read_hub(&origin).await?;
    let preview = hub::preview(&hub, &code).await?;
    let consent = PendingConsent {
        id: random_id(),
        created_at: now(),
        how: "code".into(),
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket: code,
        ..PendingConsent::default()
    };
    storage::put_consent(&consent).await?;
    if let Some(window) = effects::open_consent(&consent.id).await? {
        storage::put_consent_window(window, &consent.id).await?;
    }
    Ok(json!({ "consent": consent.id }))
}

/// Points a pairing's agent at the selection of a tab (context menu, keyboard command, popup).
pub async fn point_selection(
    pairing_id: Option<&str>,
    tab: Option<(i64, String)>,
    how: &str,
) -> Flow<Value> {
    let (tab_id, url) = match tab {
        Some(tab) => tab,
        None => effects::active_tab().await.ok_or(FlowError::NotAWebPage)?,
    };
    let outcome = point_inner(pairing_id, tab_id, &url, how).await;
    if let Err(e) = &outcome {
        effects::feedback(tab_id, Feedback::error(e.to_string())).await;
    }
    outcome
}

async fn point_inner(pairing_id: Option<&str>, tab_id: i64, url: &str, how: &str) -> Flow<Value> {
    page_origin(url).ok_or(FlowError::NotAWebPage)?;
    let state = storage::load().await?;
    let live = |id: &str| state.get(id).filter(|p| p.is_live()).cloned();
    let record = match pairing_id {
        Some(id) => live(id).ok_or(FlowError::UnknownPairing)?,
        None => state
            .last_used
            .as_deref()
            .and_then(live)
            .or_else(|| state.pairings.iter().rev().find(|p| p.is_live()).cloned())
            .ok_or(FlowError::NoPairing)?,
    };
    let answer = effects::collect(tab_id, how)
        .await
        .map_err(|_| FlowError::PageUnreachable)?;
    if answer["ok"] != json!(true) {
        return Err(match answer["error"].as_str() {
            Some("no_selection") => FlowError::NoSelection,
            _ => FlowError::PageUnreachable,
        });
    }
    let reading = reading_from(answer["observation"].clone(), url)?;
    let focus = pin_with(&record, &reading, Some(tab_id)).await?;
    Ok(json!({ "pinned": focus }))
}

/// Unpins a pairing's reading (the popup's Unpin; Undo in the page when the pin is still that one).
pub async fn unpin(pairing_id: &str, only_reading: Option<&str>) -> Flow<Value> {
    let state = storage::load().await?;
    let record = state
        .get(pairing_id)
        .filter(|p| p.is_live())
        .cloned()
        .ok_or(FlowError::UnknownPairing)?;
    if let Some(reading) = only_reading {
        if record.pin.as_ref().map(|p| p.id.as_str()) != Some(reading) {
            return Ok(json!({ "unpinned": false }));
        }
    }
    let grant = secrets::get(&grant_key(pairing_id))
        .await?
        .ok_or(FlowError::Hub(HubError::GrantUnknown))?;
    if let Err(e) = hub::unpin(&record.endpoints, &grant).await {
        note_hub_error(pairing_id, &e).await?;
        return Err(e.into());
    }
    let (_, state) = storage::update(|s| {
        if let Some(p) = s.get_mut(pairing_id) {
            p.pin = None;
        }
    })
    .await?;
    effects::after_change(&state).await;
    Ok(json!({ "unpinned": true }))
}

/// Undo in the page: `<pairing>:<reading>`.
pub async fn undo(tab_id: i64, token: &str) -> Flow<Value> {
    let (pairing, reading) = token.split_once(':').ok_or(FlowError::UnknownPairing)?;
    let out = unpin(pairing, Some(reading)).await;
    match &out {
        Ok(_) => {
            effects::feedback(
                tab_id,
                Feedback::info("Undone: the agent no longer has that text."),
            )
            .await
        }
        Err(e) => effects::feedback(tab_id, Feedback::error(e.to_string())).await,
    }
    out
}

/// Revoke in the extension: holds at once, whatever the hub; then the grant is given back.
pub async fn revoke(pairing_id: &str) -> Flow<Value> {
    let at = now();
    let (revoked, state) = storage::update(|s| {
        let live = s.get(pairing_id).map(PairingRecord::is_live);
        (s.revoke(pairing_id, &at), live)
    })
    .await?;
    effects::after_change(&state).await;
    match revoked {
        (false, _) => return Err(FlowError::UnknownPairing),
        (true, Some(false)) => secrets::delete(&grant_key(pairing_id)).await?,
        _ => {}
    }
    let pending = retry_give_backs().await?;
    let give_back = if pending.iter().any(|id| id == pairing_id) {
        "pending"
    } else {
        "done"
    };
    Ok(json!({ "give_back": give_back }))
}

/// Tries every waiting give back once; returns the pairing ids still waiting.
pub async fn retry_give_backs() -> Flow<Vec<String>> {
    let state = storage::load().await?;
    for g in &state.give_backs {
        let outcome = match secrets::get(&grant_key(&g.pairing_id)).await? {
            Some(grant) => hub::give_back(&g.grant_url, &grant).await,
            None => Ok(()),
        };
        let id = g.pairing_id.clone();
        match outcome {
            Ok(()) => {
                secrets::delete(&grant_key(&id)).await?;
                storage::update(|s| s.give_back_done(&id)).await?;
            }
            Err(e) => {
                storage::update(|s| s.give_back_failed(&id, e.to_string())).await?;
            }
        }
    }
    let state = storage::load().await?;
    let pending: Vec<String> = state
        .give_backs
        .iter()
        .map(|g| g.pairing_id.clone())
        .collect();
    effects::give_back_alarm(!pending.is_empty()).await;
    Ok(pending)
}

/// Asks each hub how its pairing's pin stands.
pub async fn refresh_status() -> Flow<()> {
    let state = storage::load().await?;
    let live: Vec<&PairingRecord> = state.pairings.iter().filter(|p| p.is_live()).collect();
    let mut grants = Vec::new();
    for record in &live {
        grants.push(secrets::get(&grant_key(&record.id)).await?);
    }
    // All hubs at once: a hub that is down costs its time limit once, not once per pairing.
    let asks = live.iter().zip(&grants).map(|(record, grant)| async move {
        match grant {
            Some(grant) => Some(hub::status(&record.endpoints, grant).await),
            None => None,
        }
    });
    let answers = futures::future::join_all(asks).await;
    for (record, answer) in live.into_iter().zip(answers) {
        let Some(answer) = answer else { continue };
        match answer {
            Ok(status) => {
                let at = now();
                let (_, state) = storage::update(|s| {
                    if let Some(p) = s.get_mut(&record.id) {
                        p.hub = HubState::Reachable { at };
                        p.pin = status.pin.map(|pin| PinView {
                            id: pin.id,
                            pinned_at: pin.pinned_at,
                            seen_at: pin.seen_at,
                        });
                    }
                })
                .await?;
                effects::after_change(&state).await;
            }
            Err(e) => note_hub_error(&record.id, &e).await?,
        }
    }
    Ok(())
}

/// What the popup shows; with `refresh`, after asking the hubs and retrying give backs.
pub async fn popup_state(refresh: bool) -> Flow<Value> {
    if refresh {
        refresh_status().await?;
        retry_give_backs().await?;
    }
    let state = storage::load().await?;
    let can_point = match effects::active_tab().await {
        Some((_, url)) => page_origin(&url).is_some(),
        None => false,
    };
    let pairings: Vec<Value> = state
        .pairings
        .iter()
        .map(|p| {
            json!({
                "id": p.id, "hub_origin": p.hub_origin, "hub_display": host_of(&p.hub_origin), "hub_name": p.hub_name,
                "agent_handle": p.agent_handle, "agent_name": p.agent_name, "created_at": p.created_at,
                "last_used": state.last_used.as_deref() == Some(p.id.as_str()), "pin": p.pin, "hub": p.hub,
            })
        })
        .collect();
    let give_backs: Vec<Value> = state
        .give_backs
        .iter()
        .map(|g| {
            json!({
                "pairing_id": g.pairing_id, "hub_display": host_of(&g.hub_origin), "agent_name": g.agent_name,
                "revoked_at": g.revoked_at, "attempts": g.attempts, "last_error": g.last_error,
            })
        })
        .collect();
    Ok(json!({
        "pairings": pairings, "give_backs": give_backs, "revoke_confirm_ms": REVOKE_CONFIRM_MS,
        "default_hub": DEFAULT_HUB, "can_point": can_point,
    }))
}

/// Start-up of the background (installed, updated, browser started): badge, menus, give backs.
pub async fn start() -> Flow<()> {
    let state = storage::load().await?;
    effects::after_change(&state).await;
    retry_give_backs().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_origin_keeps_a_port_that_is_not_the_default() {
        assert_eq!(
            page_origin("http://127.0.0.1:8080/a?b"),
            Some(("http://127.0.0.1:8080".into(), "127.0.0.1:8080".into()))
        );
        assert_eq!(
            page_origin("https://example.com/"),
            Some(("https://example.com".into(), "example.com".into()))
        );
        assert_eq!(page_origin("chrome://settings"), None);
        assert_eq!(page_origin("file:///etc/passwd"), None);
    }
}
