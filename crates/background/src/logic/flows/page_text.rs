//! The second message of a drop in two. It starts when the content script sends the whole page's
//! observation (`page.drop_text`, same tab, frame and `drop_id` as the drop's first message), and ends
//! with that page text at the hub for the reading the first message pinned (never a second pin),
//! joined into the reading a consent window will pin, or held until the pin is made; a tab, frame
//! or drop id that no first message named is refused.

use apc_core::page_link::PageReading;

use super::outcome::{Flow, FlowError, PageTextOutcome, PageTextSent};
use super::pin::note_hub_error;
use super::reading::page_text_from;
use crate::logic::frames::{Document, PageSource};
use crate::logic::hub_api::{self, HubCallError};
use crate::logic::memory::Memory;
use crate::logic::page_texts::{Arrival, Destination};
use crate::logic::ports::{Clock, Env, GrantVault, Store};

/// The whole page's observation (`""` when the page could not be read), naming its drop.
pub async fn drop_text<E: Env>(
    env: &E,
    memory: &Memory,
    source: &PageSource,
    drop_id: &str,
    observation: &str,
) -> Flow<PageTextSent> {
    let now = env.clock().now_ms();
    let arrival =
        memory
            .page_texts
            .arrived(source.tab_id, source.frame_id, drop_id, observation, now);
    let page_text = match arrival {
        Arrival::Unknown => return Err(FlowError::UnknownDrop),
        Arrival::Held => PageTextOutcome::Held,
        Arrival::Go(to) => send_page_text(env, to, &source.doc, observation).await?,
    };
    Ok(PageTextSent { page_text })
}

/// Sends a drop's page text where it goes.
pub(super) async fn send_page_text<E: Env>(
    env: &E,
    to: Destination,
    doc: &Document,
    observation: &str,
) -> Flow<PageTextOutcome> {
    match to {
        Destination::Pin {
            pairing_id,
            reading_id,
            pointed,
        } => {
            let text = page_text_from(observation, doc, &pointed);
            to_pin(env, &pairing_id, &reading_id, text).await
        }
        Destination::Consent { consent_id } => to_consent(env, &consent_id, doc, observation).await,
    }
}

/// To the hub, for the reading pinned. A page with no main text sends an empty one (whole); only
/// an unreadable page sends none (the hub then stops waiting and says it did not come).
async fn to_pin<E: Env>(
    env: &E,
    pairing_id: &str,
    reading_id: &str,
    text: Option<apc_content::PageText>,
) -> Flow<PageTextOutcome> {
    let state = env.store().load().await?;
    let record = state.live(pairing_id).ok_or(FlowError::UnknownPairing)?;
    let grant = env
        .vault()
        .get(&record.id)
        .await?
        .ok_or(HubCallError::GrantUnknown)?;
    let sent = hub_api::page_text(
        env.http(),
        &record.endpoints,
        &grant,
        reading_id,
        text.as_ref().map(|t| t.text.as_deref().unwrap_or("")),
        text.as_ref().and_then(|t| t.markdown.as_deref()),
        text.as_ref().is_some_and(|t| t.truncated),
    )
    .await;
    match sent {
        Ok(true) => Ok(PageTextOutcome::Sent),
        Ok(false) => Ok(PageTextOutcome::Already),
        Err(e) => {
            note_hub_error(env, &record.id, &e).await?;
            Err(e.into())
        }
    }
}

/// Into the reading a consent window keeps; a text that is not coming leaves it marked as cut.
async fn to_consent<E: Env>(
    env: &E,
    consent_id: &str,
    doc: &Document,
    observation: &str,
) -> Flow<PageTextOutcome> {
    let mut consent = env
        .store()
        .get_consent(consent_id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    let Some(reading) = consent.reading.as_mut() else {
        return Err(FlowError::UnknownConsent);
    };
    join_text(reading, doc, observation);
    consent.text_of_drop = None;
    env.store().put_consent(&consent).await?;
    Ok(PageTextOutcome::Joined)
}

fn join_text(reading: &mut PageReading, doc: &Document, observation: &str) {
    match page_text_from(observation, doc, reading) {
        Some(text) => {
            reading.page_text = text.text;
            if let Some(md) = reading.markdown.as_mut() {
                md.page = text.markdown;
            }
            if text.truncated {
                reading.truncated = Some(true);
            }
        }
        // Not coming: the reading is pinned without it, marked as cut.
        None => reading.truncated = Some(true),
    }
}
