//! The answers origins gave for their `apc.json`, kept for later drops on them.
//!
//! Every drop asks the page's origin for `/.well-known/apc.json` before it pins (a Direct-only app
//! gets a note instead), and that round trip is most of the time from the drop to the agent on a
//! remote site. What the origin said stands for [`APP_CHECK_REUSE_MS`] (core's rule, with
//! [`AppCheck::reusable`]); nothing else is kept. The cache lives as long as the background does
//! (a service worker that stops starts empty): it is a shortcut, never a source of truth. It is
//! part of the logic's [`Memory`](super::memory::Memory), not of the ports.

use super::apc_json;
use super::ports::{Clock, Env};
use apc_core::drop_answer::{AppCheck, APP_CHECK_REUSE_MS};
use std::cell::RefCell;
use std::collections::HashMap;

/// At most this many origins are kept; the oldest answer goes first.
const MAX_ORIGINS: usize = 64;

/// Origin → (its answer, when it was given, in ms).
#[derive(Debug, Default)]
pub struct AppChecks {
    entries: RefCell<HashMap<String, (AppCheck, u64)>>,
}

impl AppChecks {
    /// The origin's answer if one was given less than [`APP_CHECK_REUSE_MS`] before `now_ms`.
    pub fn fresh(&self, origin: &str, now_ms: u64) -> Option<AppCheck> {
        let entries = self.entries.borrow();
        let (check, at) = entries.get(origin)?;
        (now_ms >= *at && now_ms - at < APP_CHECK_REUSE_MS).then(|| check.clone())
    }

    /// Keeps a reusable answer (a failure to read the file is never kept; it also drops what the
    /// origin said before, so the next drop asks again).
    pub fn keep(&self, origin: &str, check: &AppCheck, now_ms: u64) {
        let mut entries = self.entries.borrow_mut();
        if !check.reusable() {
            entries.remove(origin);
            return;
        }
        entries.retain(|_, (_, at)| now_ms >= *at && now_ms - *at < APP_CHECK_REUSE_MS);
        if entries.len() >= MAX_ORIGINS && !entries.contains_key(origin) {
            if let Some(oldest) = entries
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(o, _)| o.clone())
            {
                entries.remove(&oldest);
            }
        }
        entries.insert(origin.to_owned(), (check.clone(), now_ms));
    }
}

/// The origin's `apc.json` answer: a fresh one `checks` kept, or asked now (and kept if reusable).
pub async fn check_app<E: Env>(env: &E, checks: &AppChecks, origin: &str) -> AppCheck {
    if let Some(check) = checks.fresh(origin, env.clock().now_ms()) {
        return check;
    }
    let check = apc_json::check_app(env.http(), origin).await;
    checks.keep(origin, &check, env.clock().now_ms());
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_stands_for_its_time_and_a_failure_is_never_kept() {
        let checks = AppChecks::default();
        checks.keep("https://a.example", &AppCheck::Missing, 1_000);
        assert_eq!(
            checks.fresh("https://a.example", 1_000 + APP_CHECK_REUSE_MS - 1),
            Some(AppCheck::Missing)
        );
        assert_eq!(
            checks.fresh("https://a.example", 1_000 + APP_CHECK_REUSE_MS),
            None
        );
        assert_eq!(checks.fresh("https://b.example", 1_000), None);
        // A clock that went back does not make an answer fresh forever.
        assert_eq!(checks.fresh("https://a.example", 999), None);
        // A failure to read replaces what the origin said before.
        checks.keep(
            "https://a.example",
            &AppCheck::Unreadable("HTTP 503".into()),
            2_000,
        );
        assert_eq!(checks.fresh("https://a.example", 2_000), None);
    }

    #[test]
    fn at_most_max_origins_are_kept_the_oldest_going_first() {
        let checks = AppChecks::default();
        for i in 0..MAX_ORIGINS as u64 + 1 {
            checks.keep(&format!("https://{i}.example"), &AppCheck::Missing, 10 + i);
        }
        assert_eq!(checks.entries.borrow().len(), MAX_ORIGINS);
        assert_eq!(checks.fresh("https://0.example", 100), None);
        assert!(checks.fresh("https://1.example", 100).is_some());
    }
}
