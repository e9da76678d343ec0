//! Pointing at a selection. It starts with the person's own act in browser UI: the popup's Point,
//! the context menu's entry naming an agent, or the keyboard command (the agent last chosen). The
//! tab's selection is collected (in the menu's frame, or in the document with the focus, top or
//! frame), read into a reading and pinned without a ticket; it ends with the
//! pin kept (and, when the person chose the agent, that agent made the command's default) or the
//! refusal shown in the page.

use apc_core::page_link::How;
use apc_core::web_origin;

use super::outcome::{Flow, FlowError, Pinned};
use super::pin::pin_with;
use super::reading::reading_from;
use crate::logic::frames::{same_origin, Document, FrameOfPage, MAX_FRAME_DEPTH};
use crate::logic::ports::{CollectAt, Collected, Env, FrameSeen, PageUi, Store, Tab};
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

/// The frame a context menu click was in, as the browser gives it (`info.frameId`, `info.frameUrl`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuFrame {
    pub id: i64,
    pub url: Option<String>,
}

/// Points a pairing's agent at the selection of a tab (popup, context menu, keyboard command): in
/// the frame the menu was opened in, else in the document that has the focus (the top, or a frame
/// of it at any depth). No ticket: these are the person's own acts in browser UI.
pub async fn point_selection<E: Env>(
    env: &E,
    by: PointBy,
    tab: Option<Tab>,
    menu: Option<MenuFrame>,
) -> Flow<Pinned> {
    let tab = match tab {
        Some(tab) => tab,
        None => env.ui().active_tab().await.ok_or(FlowError::NotAWebPage)?,
    };
    let outcome = point_inner(env, by, &tab, menu.as_ref()).await;
    if let Err(e) = &outcome {
        env.ui().note(tab.id, &e.note()).await;
    }
    outcome
}

async fn point_inner<E: Env>(
    env: &E,
    by: PointBy,
    tab: &Tab,
    menu: Option<&MenuFrame>,
) -> Flow<Pinned> {
    web_origin(&tab.url).ok_or(FlowError::NotAWebPage)?;
    let state = env.store().load().await?;
    let (record, how, chosen) = chosen_pairing(&state, &by)?;
    let (observation, doc) = selection_of(env, tab, how, menu).await?;
    let reading = reading_from(env, &observation, &doc, &[how])?;
    let focus = pin_with(env, &record, &reading, None, Some(tab.id), false).await?;
    if chosen {
        env.store().update(|s| s.choose(&record.id)).await?;
    }
    Ok(Pinned {
        pinned: Box::new(focus),
    })
}

/// The selection's observation and the document it is of: the menu's frame's, or the focused
/// document's, found from the top down one frame at a time (each frame knows only whether the
/// focus is in one of its own frames, and which).
async fn selection_of<E: Env>(
    env: &E,
    tab: &Tab,
    how: How,
    menu: Option<&MenuFrame>,
) -> Flow<(String, Document)> {
    let mut at = match menu {
        Some(frame) => CollectAt::Frame(frame.id),
        None => CollectAt::Focus,
    };
    for _ in 0..=MAX_FRAME_DEPTH {
        let answer = env
            .ui()
            .collect(tab.id, how, &at)
            .await
            .map_err(|_| FlowError::PageUnreachable)?;
        let (json, seen) = match answer {
            Collected::Observation { json, frame } => (json, frame),
            Collected::InFrame(path) if deeper(&at, &path) => {
                at = CollectAt::Path(path);
                continue;
            }
            Collected::InFrame(_) => return Err(FlowError::PageUnreachable),
            Collected::Refused(code) if code == "no_selection" => {
                return Err(FlowError::NoSelection)
            }
            Collected::Refused(_) => return Err(FlowError::PageUnreachable),
        };
        return Ok((json, document_of(tab, &at, seen, menu)?));
    }
    Err(FlowError::PageUnreachable)
}

/// The focus leads one frame down from where it was asked, never elsewhere.
fn deeper(at: &CollectAt, path: &[u32]) -> bool {
    match at {
        CollectAt::Focus => path.len() == 1,
        CollectAt::Path(asked) => path.len() == asked.len() + 1 && path.starts_with(asked),
        CollectAt::Frame(_) => false,
    }
}

/// The document that answered: the top (the tab as the browser gives it), or a frame, which must
/// say what it is, and be the frame the menu named when a menu named one.
fn document_of(
    tab: &Tab,
    at: &CollectAt,
    seen: Option<FrameSeen>,
    menu: Option<&MenuFrame>,
) -> Flow<Document> {
    let top = matches!(at, CollectAt::Focus | CollectAt::Frame(0));
    match (top, seen) {
        (true, None) => Ok(Document::top(tab.url.clone())),
        (false, Some(seen)) => {
            let named = menu.and_then(|m| m.url.as_deref());
            if named.is_some_and(|url| url != seen.url && !same_origin(url, &seen.url)) {
                return Err(FlowError::PageUnreachable);
            }
            Ok(Document {
                url: seen.url,
                frame: Some(FrameOfPage {
                    origin: seen.origin,
                    top_url: tab.url.clone(),
                    top_title: tab.title.clone(),
                }),
            })
        }
        _ => Err(FlowError::PageUnreachable),
    }
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
