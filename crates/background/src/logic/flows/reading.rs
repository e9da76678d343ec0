//! From a content script's observation (JSON text) to what a flow pins: the whole reading, the
//! pointed part of a drop's first message, or the page text of its second, each checked to be the
//! document the browser says sent it (a frame's read as part of its page: `crate::logic::frames`).
//! Shared by the drop, page-text and point flows.

use apc_content::{build_pointed, build_reading, page_text_for, Observation, PageText};
use apc_core::page_link::{How, PageReading};

use super::outcome::{Flow, FlowError};
use super::shared::now;
use crate::logic::frames::{name_frame, page_of, Document};
use crate::logic::ports::Env;

/// Reads an observation into a reading, and checks it is the document the browser says sent it,
/// pointed the way this flow expects.
pub(super) fn reading_from<E: Env>(
    env: &E,
    observation: &str,
    doc: &Document,
    how: &[How],
) -> Flow<PageReading> {
    reading_or_pointed_from(env, observation, doc, how, false)
}

/// [`reading_from`], or with `pointed_only` the reading's pointed part (no page text) from the
/// first message of a drop.
pub(super) fn reading_or_pointed_from<E: Env>(
    env: &E,
    observation: &str,
    doc: &Document,
    how: &[How],
    pointed_only: bool,
) -> Flow<PageReading> {
    let mut observation = Observation::from_json(observation)?;
    if !how.contains(&observation.how) {
        return Err(FlowError::PageUnreachable);
    }
    // The page's own account of its address must be the document the browser says sent it.
    let frame = page_of(&mut observation, doc)?;
    let mut reading = match pointed_only {
        true => build_pointed(&observation, &now(env))?,
        false => build_reading(&observation, &now(env))?,
    };
    name_frame(&mut reading, frame, doc)?;
    Ok(reading)
}

/// The page text of `pointed` from a whole-page observation of the document the browser says
/// sent it; `None` when there is none to give (the page could not be read, or it is another page).
pub(super) fn page_text_from(
    observation: &str,
    doc: &Document,
    pointed: &PageReading,
) -> Option<PageText> {
    if observation.is_empty() {
        return None;
    }
    let mut observation = Observation::from_json(observation).ok()?;
    if observation.how != How::Drop {
        return None;
    }
    page_of(&mut observation, doc).ok()?;
    page_text_for(&observation, pointed).ok()
}
