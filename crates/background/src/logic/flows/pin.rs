//! Pins and their Undo. A pin starts from a drop ([`super::drop`]), a consent's Allow
//! ([`super::consent`]) or a selection ([`super::point`]): [`pin_with`] sends the reading to the
//! hub and ends with the pin kept in the pairing's record, the toolbar updated and the page told
//! (with Undo). Unpin starts from the popup or the page's Undo and ends with the hub's pin gone
//! (only when it is still the pin Undo named). What a failed call says of a pairing is kept here
//! too ([`note_hub_error`]), for every flow that calls a hub with a grant.

use apc_core::page_link::{PageReading, PinState};
use apc_core::{display_origin, FocusPayload};

use super::outcome::{Flow, FlowError, Unpinned};
use super::shared::{now, show_toolbar};
use crate::logic::hub_api::{self, HubCallError};
use crate::logic::ports::{Env, GrantVault, PageUi, Store};
use crate::logic::state::{HubState, PairingRecord};
use crate::logic::views::{Msg, Note, NoteKind, NoteText};

/// Undo in a page names the pin it undoes: `<pairing id>:<reading id>`. Both are link ids (core's
/// `is_link_id`: never a `:`), so the token splits one way only.
pub fn undo_token(pairing_id: &str, reading_id: &str) -> String {
    format!("{pairing_id}:{reading_id}")
}

pub fn parse_undo_token(token: &str) -> Option<(&str, &str)> {
    let (p, r) = token.split_once(':')?;
    let ok = apc_core::page_link::is_link_id(p) && apc_core::page_link::is_link_id(r);
    ok.then_some((p, r))
}

/// Pins a reading for a pairing (with a drop's ticket, or none for a selection), and keeps what
/// the hub said of it.
pub(super) async fn pin_with<E: Env>(
    env: &E,
    record: &PairingRecord,
    reading: &PageReading,
    ticket: Option<&str>,
    tab_id: Option<i64>,
    text_follows: bool,
) -> Flow<FocusPayload> {
    let outcome = match env.vault().get(&record.id).await? {
        Some(grant) => {
            hub_api::pin(
                env.http(),
                &record.endpoints,
                &grant,
                reading,
                ticket,
                text_follows,
            )
            .await
        }
        None => Err(HubCallError::GrantUnknown),
    };
    match outcome {
        Ok(focus) => {
            kept_pin(env, record, &focus, tab_id).await?;
            Ok(focus)
        }
        Err(e) => {
            note_hub_error(env, &record.id, &e).await?;
            Err(e.into())
        }
    }
}

/// Keeps a pin the hub made, and tells the page (with Undo).
pub(super) async fn kept_pin<E: Env>(
    env: &E,
    record: &PairingRecord,
    focus: &FocusPayload,
    tab_id: Option<i64>,
) -> Flow<()> {
    let pin = PinState {
        id: focus.target.id.clone().unwrap_or_default(),
        pinned_at: focus.pinned_at.clone(),
        seen_at: None,
    };
    let at = now(env);
    let (_, state) = env
        .store()
        .update(|s| s.pinned(&record.id, pin.clone(), &at))
        .await?;
    show_toolbar(env, &state).await;
    if let Some(tab) = tab_id {
        let note = Note {
            kind: NoteKind::Pointed,
            text: NoteText::Msg(Msg::new(
                "notePointed",
                [
                    record.agent_name.clone(),
                    display_origin(&record.hub_origin),
                ],
            )),
            link: None,
            undo_token: Some(undo_token(&record.id, &pin.id)),
        };
        env.ui().note(tab, &note).await;
    }
    Ok(())
}

/// Keeps what a failed call says of the pairing: revoked or forgotten by the hub (its grant is then
/// deleted: it will never work again), or the hub out of reach. A refusal of one request (a ticket
/// used, a reading too large) says nothing of the pairing.
pub(super) async fn note_hub_error<E: Env>(
    env: &E,
    pairing_id: &str,
    error: &HubCallError,
) -> Flow<()> {
    let at = now(env);
    let hub_state = match error {
        HubCallError::Revoked { by } => HubState::RevokedByHub { at, by: by.clone() },
        HubCallError::GrantUnknown => HubState::Forgotten { at },
        HubCallError::Unreachable(reason) => HubState::Unreachable {
            at,
            reason: reason.clone(),
        },
        _ => return Ok(()),
    };
    let (gone, state) = env
        .store()
        .update(|s| s.hub_said(pairing_id, hub_state))
        .await?;
    if gone {
        env.vault().delete(pairing_id).await?;
    }
    show_toolbar(env, &state).await;
    Ok(())
}

/// Unpins a pairing's reading (the popup's Unpin; Undo in the page when the pin is still that one).
pub async fn unpin<E: Env>(
    env: &E,
    pairing_id: &str,
    only_reading: Option<&str>,
) -> Flow<Unpinned> {
    let state = env.store().load().await?;
    let record = state
        .live(pairing_id)
        .cloned()
        .ok_or(FlowError::UnknownPairing)?;
    if let Some(reading) = only_reading {
        if record.pin.as_ref().map(|p| p.id.as_str()) != Some(reading) {
            return Ok(Unpinned { unpinned: false });
        }
    }
    let grant = env
        .vault()
        .get(pairing_id)
        .await?
        .ok_or(FlowError::Hub(HubCallError::GrantUnknown))?;
    if let Err(e) = hub_api::unpin(env.http(), &record.endpoints, &grant).await {
        note_hub_error(env, pairing_id, &e).await?;
        return Err(e.into());
    }
    let (_, state) = env
        .store()
        .update(|s| {
            if let Some(p) = s.get_mut(pairing_id) {
                p.pin = None;
            }
        })
        .await?;
    show_toolbar(env, &state).await;
    Ok(Unpinned { unpinned: true })
}

/// Undo in the page.
pub async fn undo<E: Env>(env: &E, tab_id: i64, token: &str) -> Flow<Unpinned> {
    let out = match parse_undo_token(token) {
        Some((pairing, reading)) => unpin(env, pairing, Some(reading)).await,
        None => Err(FlowError::UnknownPairing),
    };
    let note = match &out {
        Ok(Unpinned { unpinned: true }) => Note::info(Msg::new("noteUndone", [])),
        Ok(Unpinned { unpinned: false }) => Note::info(Msg::new("noteUndoStale", [])),
        Err(e) => e.note(),
    };
    env.ui().note(tab_id, &note).await;
    out
}

/// The content script says the page hid the note it showed: the toolbar button of that tab says
/// what the note could not.
pub async fn note_hidden<E: Env>(env: &E, tab_id: i64) -> Flow<()> {
    env.ui()
        .alert_tab(tab_id, &Msg::new("noteHiddenByPage", []))
        .await;
    Ok(())
}
