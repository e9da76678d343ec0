//! The drop flow. It starts when a content script reports a trusted drop of an agent's mark on a
//! page (`page.drop`: one message with the whole observation, or the first of two, naming a
//! `drop_id`), and ends in one of three answers: the page is an APC app that answers for itself
//! (the extension's own note, nothing paired), an existing pairing pinned the reading with the
//! drag's own fresh ticket, or the consent window opened for a new pairing (its answer is
//! [`super::consent`]'s). A drop in two messages goes on in [`super::page_text`] with its second.

use apc_core::drop_answer::{answer_drop, DropAnswer};
use apc_core::page_link::{How, PageReading};
use apc_core::{display_origin, parse_drag_payload, web_origin, DragPayload};

use super::consent::open_consent;
use super::outcome::{DropOutcome, Flow, FlowError};
use super::page_text::send_page_text;
use super::pin::pin_with;
use super::reading::reading_or_pointed_from;
use crate::logic::app_checks::check_app;
use crate::logic::frames::{drop_was_seen, DropFrame, PageSource};
use crate::logic::hub_api;
use crate::logic::memory::Memory;
use crate::logic::page_texts::Destination;
use crate::logic::ports::{Clock, Env, PageUi, PendingConsent, Store};
use crate::logic::state::{PairedBy, PairingRecord};
use crate::logic::views::{Msg, Note, NoteKind, NoteText};

/// A trusted drop of an agent's mark on a page (the content script checked `isTrusted`; the
/// message came from `source`, a tab's top document or one of its frames, with what the frame saw
/// of the drop's place in `seen`), its observation whole: one message, one reading with its page
/// text.
pub async fn drop<E: Env>(
    env: &E,
    memory: &Memory,
    source: &PageSource,
    seen: Option<&DropFrame>,
    payload: &str,
    observation: &str,
) -> Flow<DropOutcome> {
    let outcome = drop_inner(env, memory, source, seen, payload, observation, None).await;
    if let Err(e) = &outcome {
        env.ui().note(source.tab_id, &e.note()).await;
    }
    outcome
}

/// The first message of a drop in two (`drop_id` names it, chosen by its content script): the
/// observation is what lies around the point. The reading made of it is pinned at once without
/// `page_text` (the same checks and ticket as [`drop`]); the page text follows in
/// [`super::drop_text`], to the same reading.
pub async fn drop_first<E: Env>(
    env: &E,
    memory: &Memory,
    source: &PageSource,
    seen: Option<&DropFrame>,
    payload: &str,
    observation: &str,
    drop_id: &str,
) -> Flow<DropOutcome> {
    let tab_id = source.tab_id;
    if !apc_core::page_link::is_link_id(drop_id) {
        let e = FlowError::BadPayload("its drop id is not an id".into());
        env.ui().note(tab_id, &e.note()).await;
        return Err(e);
    }
    let from = source.frame_id;
    memory
        .page_texts
        .expect(tab_id, from, drop_id, env.clock().now_ms());
    let outcome = drop_inner(
        env,
        memory,
        source,
        seen,
        payload,
        observation,
        Some(drop_id),
    )
    .await;
    if !matches!(
        outcome,
        Ok(DropOutcome::Pinned { .. } | DropOutcome::Consent { .. })
    ) {
        // Nothing pinned nor asked: its page text goes nowhere.
        memory.page_texts.forget(tab_id, from, drop_id);
    }
    if let Err(e) = &outcome {
        env.ui().note(tab_id, &e.note()).await;
    }
    outcome
}

/// One drop, as both messages' first part: a frame's drop counts only if the person saw the frame
/// there; then the payload checked, the dropped-on document's `apc.json` asked, then the reading
/// pinned for an existing pairing or a consent asked for a new one.
async fn drop_inner<E: Env>(
    env: &E,
    memory: &Memory,
    source: &PageSource,
    seen: Option<&DropFrame>,
    payload: &str,
    observation: &str,
    drop_id: Option<&str>,
) -> Flow<DropOutcome> {
    drop_was_seen(env, source, seen).await?;
    let (payload, hub_origin, ticket) = hub_and_ticket(payload)?;
    web_origin(source.doc.page_url()).ok_or(FlowError::NotAWebPage)?;
    let app = source.doc.app_origin().ok_or(FlowError::NotAWebPage)?;
    let page = web_origin(&app).ok_or(FlowError::NotAWebPage)?;
    // The page's apc.json is asked for first and the reading is made while that request is out
    // (`join` polls in order: the request goes, then the reading runs); the reading goes nowhere
    // unless the answer says this is an ordinary page, and its own refusal comes after that answer.
    let (check, reading) =
        futures::future::join(check_app(env, &memory.app_checks, &page.origin), async {
            reading_or_pointed_from(
                env,
                observation,
                &source.doc,
                &[How::Drop],
                drop_id.is_some(),
            )
        })
        .await;
    if let Some(answered) = app_answers(
        env,
        source.tab_id,
        answer_drop(&page.origin, &page.host, check),
    )
    .await
    {
        return Ok(answered);
    }
    let reading = reading?;
    let drop = Dropped {
        source,
        drop_id,
        ticket,
        reading,
    };
    let state = env.store().load().await?;
    match state.find_live(&hub_origin, &payload.agent).cloned() {
        Some(record) => pin_on_pairing(env, memory, &record, drop).await,
        None => ask_consent(env, memory, &hub_origin, &payload, drop).await,
    }
}

/// A drop that may pin: where it came from, the drag's ticket and the reading made of it.
struct Dropped<'a> {
    source: &'a PageSource,
    drop_id: Option<&'a str>,
    ticket: String,
    reading: PageReading,
}

/// The drag payload, with the hub and ticket a drop pairs through.
fn hub_and_ticket(payload: &str) -> Flow<(DragPayload, String, String)> {
    let payload = parse_drag_payload(payload).map_err(|e| FlowError::BadPayload(e.to_string()))?;
    match (payload.hub.clone(), payload.ticket.clone()) {
        (Some(hub), Some(ticket)) => Ok((payload, hub, ticket)),
        _ => Err(FlowError::BadPayload(
            "it names no hub and ticket to pair through".into(),
        )),
    }
}

/// An APC app's own answer to a drop (Direct-only, or its `apc.json` could not be read): shown in
/// the extension's words, and the drop ends there. `None` for an ordinary page.
async fn app_answers<E: Env>(env: &E, tab_id: i64, answer: DropAnswer) -> Option<DropOutcome> {
    let note = match answer {
        DropAnswer::Ordinary => return None,
        DropAnswer::DirectOnly(note) | DropAnswer::CouldNotCheck(note) => note,
    };
    let shown = Note {
        kind: NoteKind::Note,
        text: NoteText::Plain(note.text.clone()),
        link: note.link.clone(),
        undo_token: None,
    };
    env.ui().note(tab_id, &shown).await;
    Some(DropOutcome::Answered {
        answered: true,
        note: note.text,
        link: note.link,
    })
}

/// An existing pairing still pins a drop only with this drag's own fresh ticket. A page text
/// that came while the pin was being made goes at once.
async fn pin_on_pairing<E: Env>(
    env: &E,
    memory: &Memory,
    record: &PairingRecord,
    drop: Dropped<'_>,
) -> Flow<DropOutcome> {
    let focus = pin_with(
        env,
        record,
        &drop.reading,
        Some(&drop.ticket),
        Some(drop.source.tab_id),
        drop.drop_id.is_some(),
    )
    .await?;
    if let Some(drop_id) = drop.drop_id {
        let to = Destination::Pin {
            pairing_id: record.id.clone(),
            reading_id: focus.target.id.clone().unwrap_or_default(),
            pointed: Box::new(drop.reading),
        };
        send_early_text(env, memory, drop.source, drop_id, to).await;
    }
    Ok(DropOutcome::Pinned {
        pinned: Box::new(focus),
    })
}

/// A new pairing: the hub and the ticket's agent checked, then the consent window asks the person.
async fn ask_consent<E: Env>(
    env: &E,
    memory: &Memory,
    hub_origin: &str,
    payload: &DragPayload,
    drop: Dropped<'_>,
) -> Flow<DropOutcome> {
    let hub = hub_api::read_hub(env.http(), hub_origin).await?;
    let preview = hub_api::preview(env.http(), &hub, &drop.ticket).await?;
    if preview.agent.handle != payload.agent {
        return Err(FlowError::BadPayload(
            "its ticket was made for another agent".into(),
        ));
    }
    let consent = PendingConsent {
        id: env.clock().new_id(),
        created_at_ms: env.clock().now_ms(),
        how: PairedBy::Drop,
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints.clone()),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket: drop.ticket,
        tab_id: Some(drop.source.tab_id),
        page_url: Some(drop.reading.url.clone()),
        reading: Some(drop.reading),
        text_of_drop: drop.drop_id.map(str::to_owned),
        drop_frame_id: drop.source.frame_id,
    };
    open_consent(env, &consent).await?;
    if let Some(drop_id) = drop.drop_id {
        let to = Destination::Consent {
            consent_id: consent.id.clone(),
        };
        send_early_text(env, memory, drop.source, drop_id, to).await;
    }
    let text = Msg::new(
        "noteAnswerInWindow",
        [consent.agent_name.clone(), display_origin(&hub.origin)],
    );
    env.ui().note(drop.source.tab_id, &Note::info(text)).await;
    Ok(DropOutcome::Consent {
        consent: consent.id,
    })
}

/// The drop's place is known now: a page text held while it was being found goes there.
async fn send_early_text<E: Env>(
    env: &E,
    memory: &Memory,
    source: &PageSource,
    drop_id: &str,
    to: Destination,
) {
    let texts = &memory.page_texts;
    if let Some(early) = texts.ready(source.tab_id, source.frame_id, drop_id, to.clone()) {
        send_page_text(env, to, &source.doc, &early).await.ok();
    }
}
