//! From a content script's observation (JSON text) to what a flow pins: the whole reading, the
//! pointed part of a drop's first message, or the page text of its second, each checked to be the
//! page the browser says sent it. Shared by the drop, page-text and point flows.

use apc_content::{build_pointed, build_reading, page_text_for, Observation, PageText};
use apc_core::page_link::{How, PageReading};
use apc_core::web_origin;

use super::outcome::{Flow, FlowError};
use super::shared::now;
use crate::logic::ports::Env;

/// Reads an observation into a reading, and checks it is the page the browser says sent it,
/// pointed the way this flow expects.
pub(super) fn reading_from<E: Env>(
    env: &E,
    observation: &str,
    page_url: &str,
    how: &[How],
) -> Flow<PageReading> {
    reading_or_pointed_from(env, observation, page_url, how, false)
}

/// [`reading_from`], or with `pointed_only` the reading's pointed part (no page text) from the
/// first message of a drop.
pub(super) fn reading_or_pointed_from<E: Env>(
    env: &E,
    observation: &str,
    page_url: &str,
    how: &[How],
    pointed_only: bool,
) -> Flow<PageReading> {
    let observation = Observation::from_json(observation)?;
    if !how.contains(&observation.how) {
        return Err(FlowError::PageUnreachable);
    }
    let reading = match pointed_only {
        true => build_pointed(&observation, &now(env))?,
        false => build_reading(&observation, &now(env))?,
    };
    // The page's own account of its address must be the page the browser says sent it.
    if !same_origin(&reading.url, page_url) {
        return Err(FlowError::PageUnreachable);
    }
    Ok(reading)
}

/// The page text of `pointed` from a whole-page observation of the page the browser says sent it;
/// `None` when there is none to give (the page could not be read, or it is another page).
pub(super) fn page_text_from(
    observation: &str,
    page_url: &str,
    pointed: &PageReading,
) -> Option<PageText> {
    if observation.is_empty() {
        return None;
    }
    let observation = Observation::from_json(observation).ok()?;
    if observation.how != How::Drop || !same_origin(page_url, &pointed.url) {
        return None;
    }
    page_text_for(&observation, pointed).ok()
}

/// Both are web URLs of one origin.
fn same_origin(a: &str, b: &str) -> bool {
    let origin = |url: &str| web_origin(url).map(|o| o.origin);
    origin(a).is_some() && origin(a) == origin(b)
}
