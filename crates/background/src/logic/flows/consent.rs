//! Asking the person before a new pairing. It starts when a drop names a hub and agent not paired
//! yet ([`super::drop`]) or the person types the dock's code in the popup ([`pair_code`]): the
//! request is kept and the consent window opens. The window asks what it is for
//! ([`consent_get`]); the flow ends with the person's answer ([`consent_answer`], or the window
//! closed, which says no): Allow pairs at the hub and, for a drop, pins that drop's reading in
//! the same request, spending its ticket once.

use apc_core::display_origin;
use apc_core::hub_address_origin;
use apc_core::page_link::{HubPage, PairResponse, ReadingFrame};
use apc_core::pairing_code::normalize_pairing_code;

use super::outcome::{ConsentAsked, ConsentOpened, ConsentOutcome, Flow, FlowError};
use super::pin::kept_pin;
use super::shared::{now, show_toolbar};
use crate::logic::hub_api;
use crate::logic::memory::Memory;
use crate::logic::ports::{Clock, Env, GrantVault, PageUi, PendingConsent, Store};
use crate::logic::state::{HubState, PairedBy, PairingRecord};
use crate::logic::views::{ConsentView, Msg, Note, NoteKind, NoteText, ALLOW_DELAY_MS};

/// Keeps a consent request and opens its window.
pub(super) async fn open_consent<E: Env>(env: &E, consent: &PendingConsent) -> Flow<()> {
    env.store().put_consent(consent).await?;
    if let Some(window) = env.ui().open_consent(&consent.id).await? {
        env.store().put_consent_window(window, &consent.id).await?;
    }
    Ok(())
}

/// Pairing with the code the dock shows: the hub is checked, then the person answers in the consent
/// window.
pub async fn pair_code<E: Env>(env: &E, hub_address: &str, code: &str) -> Flow<ConsentOpened> {
    let origin = hub_address_origin(hub_address)
        .ok_or_else(|| FlowError::HubInvalid(hub_address.trim().chars().take(200).collect()))?;
    let ticket = normalize_pairing_code(code)?;
    let hub = hub_api::read_hub(env.http(), &origin).await?;
    let preview = hub_api::preview(env.http(), &hub, &ticket).await?;
    let consent = PendingConsent {
        id: env.clock().new_id(),
        created_at_ms: env.clock().now_ms(),
        how: PairedBy::Code,
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket,
        ..PendingConsent::default()
    };
    open_consent(env, &consent).await?;
    Ok(ConsentOpened {
        consent: consent.id,
    })
}

/// The consent window asks what it is for.
pub async fn consent_get<E: Env>(env: &E, id: &str) -> Flow<ConsentAsked> {
    let c = env
        .store()
        .get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    let state = env.store().load().await?;
    let frame = c.reading.as_ref().and_then(|r| r.frame.as_ref());
    Ok(ConsentAsked {
        consent: ConsentView {
            hub_display: display_origin(&c.hub_origin),
            hub_new: !state.knows_hub(&c.hub_origin),
            hub_loopback: apc_core::is_loopback_url(&c.hub_origin),
            page_display: c.page_url.as_deref().map(display_origin),
            from_frame: frame.is_some(),
            frame_display: frame.and_then(frame_display),
            id: c.id,
            how: c.how,
            hub_origin: c.hub_origin,
            hub_name: c.hub_name,
            agent_handle: c.agent_handle,
            agent_name: c.agent_name,
            allow_after_ms: ALLOW_DELAY_MS,
        },
    })
}

/// A frame's host as the consent window names it: its address's, else its origin's; none for a
/// frame with neither (an opaque one: a sandboxed frame's document, a `data:` URL).
fn frame_display(frame: &ReadingFrame) -> Option<String> {
    let named = frame.url.as_deref().unwrap_or(&frame.origin);
    apc_core::web_origin(named).map(|o| o.host)
}

/// The person's answer in the consent window. Allow pairs (and, for a drop, pins that drop's reading
/// in the same request, spending its ticket once).
pub async fn consent_answer<E: Env>(
    env: &E,
    memory: &Memory,
    id: &str,
    allow: bool,
) -> Flow<ConsentOutcome> {
    let c = take_consent(env, memory, id, allow).await?;
    if !allow {
        tell(
            env,
            &c,
            Note::info(Msg::new("noteNotAllowed", [c.agent_name.clone()])),
        )
        .await;
        return Ok(ConsentOutcome {
            paired: false,
            pinned: false,
            agent_name: None,
        });
    }
    let (hub, answer) = pair_at_hub(env, &c).await?;
    let record = keep_pairing(env, &c, &hub, &answer).await?;
    let pinned = match &answer.focus {
        Some(focus) => {
            kept_pin(env, &record, focus, c.tab_id).await?;
            true
        }
        None => {
            if c.reading.is_some() {
                let text = Msg::new("notePairedNotPinned", [record.agent_name.clone()]);
                tell(env, &c, Note::info(text)).await;
            }
            false
        }
    };
    Ok(ConsentOutcome {
        paired: true,
        pinned,
        agent_name: Some(record.agent_name),
    })
}

/// The request answered is taken out of storage (an Allow before the window could have been seen
/// is refused and leaves it). A drop's page text that had not joined its reading by now never
/// will: the reading is pinned without it, marked as cut.
async fn take_consent<E: Env>(
    env: &E,
    memory: &Memory,
    id: &str,
    allow: bool,
) -> Flow<PendingConsent> {
    let mut c = env
        .store()
        .get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    if allow && env.clock().now_ms() < c.created_at_ms + u64::from(ALLOW_DELAY_MS) {
        return Err(FlowError::AllowTooSoon);
    }
    env.store().delete_consent(id).await?;
    if let (Some(drop_id), Some(tab), Some(reading)) =
        (c.text_of_drop.take(), c.tab_id, c.reading.as_mut())
    {
        memory.page_texts.forget(tab, c.drop_frame_id, &drop_id);
        reading.truncated = Some(true);
    }
    Ok(c)
}

/// The tab the request came from (if any) is told how it ended.
async fn tell<E: Env>(env: &E, c: &PendingConsent, note: Note) {
    if let Some(tab) = c.tab_id {
        env.ui().note(tab, &note).await;
    }
}

/// `POST {page.pair}` with the request's ticket (and a drop's reading). A refusal is told to the
/// tab in the hub's own words (or the transport's), after "Not paired:".
async fn pair_at_hub<E: Env>(env: &E, c: &PendingConsent) -> Flow<(HubPage, PairResponse)> {
    let hub = match &c.endpoints {
        Some(endpoints) => HubPage {
            origin: c.hub_origin.clone(),
            name: c.hub_name.clone(),
            endpoints: endpoints.clone(),
        },
        None => hub_api::read_hub(env.http(), &c.hub_origin).await?,
    };
    match hub_api::pair(
        env.http(),
        &hub,
        &c.ticket,
        &c.agent_handle,
        c.reading.as_ref(),
    )
    .await
    {
        Ok(answer) => Ok((hub, answer)),
        Err(e) => {
            let note = Note {
                kind: NoteKind::Error,
                text: NoteText::Msg(Msg::new("noteNotPaired", [e.to_string()])),
                link: None,
                undo_token: None,
            };
            tell(env, c, note).await;
            Err(e.into())
        }
    }
}

/// Keeps the new pairing (replacing an older one of the same hub and agent, whose grant goes) and
/// its grant in the vault.
async fn keep_pairing<E: Env>(
    env: &E,
    c: &PendingConsent,
    hub: &HubPage,
    answer: &PairResponse,
) -> Flow<PairingRecord> {
    let pairing = &answer.pairing;
    let record = PairingRecord {
        id: pairing.id.clone(),
        hub_origin: hub.origin.clone(),
        hub_name: pairing.hub.name.clone(),
        agent_handle: pairing.agent.handle.clone(),
        agent_name: pairing.agent.name.clone(),
        created_at: pairing.created_at.clone(),
        endpoints: hub.endpoints.clone(),
        paired_by: c.how,
        pin: None,
        hub: HubState::Reachable { at: now(env) },
    };
    let (added, state) = env.store().update(|s| s.add(record.clone())).await?;
    let replaced = match added {
        Ok(replaced) => replaced,
        Err(duplicate) => {
            tell(env, c, Note::error(duplicate.to_string())).await;
            return Err(duplicate.into());
        }
    };
    env.vault().put(&pairing.id, &pairing.grant).await?;
    if let Some(old) = replaced {
        env.vault().delete(&old).await?;
    }
    show_toolbar(env, &state).await;
    Ok(record)
}

/// A window closed: if it was a consent window still waiting, closing it said no.
pub async fn window_closed<E: Env>(env: &E, memory: &Memory, window_id: i64) -> Flow<()> {
    if let Some(id) = env.store().take_consent_window(window_id).await? {
        if env.store().get_consent(&id).await?.is_some() {
            consent_answer(env, memory, &id, false).await?;
        }
    }
    Ok(())
}
