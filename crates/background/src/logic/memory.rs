//! What the logic remembers while the background lives, held apart from the ports (which are the
//! browser's): what origins' `apc.json` said ([`AppChecks`]) and where each drop's page text goes
//! ([`PageTexts`]). Neither is a source of truth: a background that stops starts with an empty
//! one. The background's entry points (`lib.rs`) keep one for as long as the background runs and
//! hand it to the router and the event handler with the ports; each test world has its own.

use super::app_checks::AppChecks;
use super::page_texts::PageTexts;

#[derive(Debug, Default)]
pub struct Memory {
    /// Origins' `apc.json` answers, kept for later drops on them.
    pub app_checks: AppChecks,
    /// Where drops' page texts go (their second messages).
    pub page_texts: PageTexts,
}
