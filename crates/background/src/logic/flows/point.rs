//! Pointing at a selection. It starts with the person's own act in browser UI: the popup's Point,
//! the context menu's entry naming an agent, or the keyboard command (the agent last chosen). The
//! tab's selection is collected, read into a reading and pinned without a ticket; it ends with the
//! pin kept (and, when the person chose the agent, that agent made the command's default) or the
//! refusal shown in the page.

use apc_core::page_link::How;
use apc_core::web_origin;

use super::outcome::{Flow, FlowError, Pinned};
use super::pin::pin_with;
use super::reading::reading_from;
use crate::logic::ports::{Collected, Env, PageUi, Store, Tab};
use crate::logic::state::{PairingRecord, State};

/// Who chose the pairing to point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointBy {
    /// The popup's Point on a pairing: the person chose it.
    Popup(String),
    /// The context menu entry naming a pairing: the person chose it.
    Menu(String),
    /// The keyboard command: the pairing the person last chose.
    Command,
}

/// Points a pairing's agent at the selection of a tab (popup, context menu, keyboard command). No
/// ticket: these are the person's own acts in browser UI.
pub async fn point_selection<E: Env>(env: &E, by: PointBy, tab: Option<Tab>) -> Flow<Pinned> {
    let tab = match tab {
        Some(tab) => tab,
        None => env.ui().active_tab().await.ok_or(FlowError::NotAWebPage)?,
    };
    let outcome = point_inner(env, by, &tab).await;
    if let Err(e) = &outcome {
        env.ui().note(tab.id, &e.note()).await;
    }
    outcome
}

async fn point_inner<E: Env>(env: &E, by: PointBy, tab: &Tab) -> Flow<Pinned> {
    web_origin(&tab.url).ok_or(FlowError::NotAWebPage)?;
    let state = env.store().load().await?;
    let (record, how, chosen) = chosen_pairing(&state, &by)?;
    let observation = match env
        .ui()
        .collect(tab.id, how)
        .await
        .map_err(|_| FlowError::PageUnreachable)?
    {
        Collected::Observation(json) => json,
        Collected::Refused(code) if code == "no_selection" => return Err(FlowError::NoSelection),
        Collected::Refused(_) => return Err(FlowError::PageUnreachable),
    };
    let reading = reading_from(env, &observation, &tab.url, &[how])?;
    let focus = pin_with(env, &record, &reading, None, Some(tab.id), false).await?;
    if chosen {
        env.store().update(|s| s.choose(&record.id)).await?;
    }
    Ok(Pinned {
        pinned: Box::new(focus),
    })
}

/// The pairing to point, how the observation is asked for, and whether the person named it.
fn chosen_pairing(state: &State, by: &PointBy) -> Flow<(PairingRecord, How, bool)> {
    match by {
        PointBy::Popup(id) | PointBy::Menu(id) => Ok((
            state.live(id).cloned().ok_or(FlowError::UnknownPairing)?,
            How::Selection,
            true,
        )),
        PointBy::Command => {
            let record = state.command_default().cloned().ok_or_else(|| {
                if state.pairings.iter().any(PairingRecord::is_live) {
                    FlowError::NoCommandDefault
                } else {
                    FlowError::NoPairing
                }
            })?;
            Ok((record, How::Command, false))
        }
    }
}
