//! Pairing tickets: minted only by the dock page, single use, five minutes at most, each for one
//! agent. Kept in memory: a restart retires them, which costs the person one more drag at most.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use apc_core::page_link::{PageLinkError, TICKET_TTL_S};

use crate::error::HubError;
use crate::secrets;

/// How long a spent or expired ticket is remembered, so that it answers "used" or "expired" rather
/// than "unknown".
const REMEMBER: Duration = Duration::from_secs(3600);
/// The most tickets held at once; past it the oldest are dropped.
const MAX_TICKETS: usize = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Fresh,
    InProgress,
    Used,
}

#[derive(Debug)]
struct Ticket {
    agent: String,
    minted: Instant,
    state: State,
}

#[derive(Debug)]
pub struct Tickets {
    ttl: Duration,
    inner: Mutex<HashMap<String, Ticket>>,
}

impl Default for Tickets {
    fn default() -> Self {
        Self::new(Duration::from_secs(TICKET_TTL_S))
    }
}

impl Tickets {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            inner: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Ticket>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// A fresh ticket for `agent`.
    pub fn mint(&self, agent: &str) -> String {
        let mut map = self.map();
        let now = Instant::now();
        map.retain(|_, t| now.duration_since(t.minted) < self.ttl + REMEMBER);
        if map.len() >= MAX_TICKETS {
            let mut by_age: Vec<(String, Instant)> =
                map.iter().map(|(k, t)| (k.clone(), t.minted)).collect();
            by_age.sort_by_key(|(_, minted)| *minted);
            for (key, _) in by_age.into_iter().take(map.len() + 1 - MAX_TICKETS) {
                map.remove(&key);
            }
        }
        let ticket = secrets::new_ticket();
        map.insert(
            ticket.clone(),
            Ticket {
                agent: agent.to_owned(),
                minted: now,
                state: State::Fresh,
            },
        );
        ticket
    }

    /// Starts a pairing with `raw` (a ticket or its typed code) for `agent`: the ticket is held until
    /// [`Tickets::finish`]. Refusals are the page link's codes.
    pub fn begin(&self, raw: &str, agent: &str) -> Result<String, HubError> {
        let unknown = || {
            HubError::page(
                PageLinkError::TicketUnknown,
                "This hub has no such ticket. Drag the agent from the dock page again, or ask it for a new code.",
            )
        };
        let ticket = secrets::normalize_ticket(raw).ok_or_else(unknown)?;
        let mut map = self.map();
        let entry = map.get_mut(&ticket).ok_or_else(unknown)?;
        match entry.state {
            State::Used => Err(HubError::page(
                PageLinkError::TicketUsed,
                "This ticket was used already: each drag or code pairs once. Drag the agent again.",
            )),
            State::InProgress => Err(HubError::page(
                PageLinkError::PairingInProgress,
                "This ticket is being paired right now.",
            )),
            State::Fresh if entry.minted.elapsed() >= self.ttl => Err(HubError::page(
                PageLinkError::TicketExpired,
                "This ticket expired (tickets live five minutes). Drag the agent again.",
            )),
            State::Fresh if entry.agent != agent => Err(HubError::page(
                PageLinkError::InvalidRequest,
                "This ticket was made for another agent.",
            )),
            State::Fresh => {
                entry.state = State::InProgress;
                Ok(ticket)
            }
        }
    }

    /// What a live ticket (or its typed code) is for, without spending it: its agent's handle and
    /// the seconds it has left. The same refusals as [`Tickets::begin`].
    pub fn peek(&self, raw: &str) -> Result<(String, u64), HubError> {
        let unknown = || {
            HubError::page(
                PageLinkError::TicketUnknown,
                "This hub has no such ticket. Drag the agent from the dock page again, or ask it for a new code.",
            )
        };
        let ticket = secrets::normalize_ticket(raw).ok_or_else(unknown)?;
        let map = self.map();
        let entry = map.get(&ticket).ok_or_else(unknown)?;
        let elapsed = entry.minted.elapsed();
        match entry.state {
            State::Used => Err(HubError::page(
                PageLinkError::TicketUsed,
                "This ticket was used already: each drag or code pairs once. Drag the agent again.",
            )),
            _ if elapsed >= self.ttl => Err(HubError::page(
                PageLinkError::TicketExpired,
                "This ticket expired (tickets live five minutes). Drag the agent again.",
            )),
            _ => Ok((entry.agent.clone(), (self.ttl - elapsed).as_secs())),
        }
    }

    /// Ends a pairing started with [`Tickets::begin`]: the ticket is spent if it paired, and free again
    /// if the hub failed.
    pub fn finish(&self, ticket: &str, paired: bool) {
        if let Some(entry) = self.map().get_mut(ticket) {
            entry.state = if paired { State::Used } else { State::Fresh };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peek_tells_the_agent_without_spending_the_ticket() {
        let tickets = Tickets::default();
        let ticket = tickets.mint("ag_1");
        assert_eq!(tickets.peek(&ticket).unwrap().0, "ag_1");
        assert_eq!(tickets.peek(&ticket).unwrap().0, "ag_1");
        let held = tickets.begin(&ticket, "ag_1").unwrap();
        tickets.finish(&held, true);
        assert_eq!(code_of(tickets.peek(&ticket).unwrap_err()), "ticket_used");
        assert_eq!(code_of(tickets.peek("NOPE").unwrap_err()), "ticket_unknown");
    }

    fn code_of(e: HubError) -> &'static str {
        match e {
            HubError::Page { kind, .. } => kind.code(),
            _ => "other",
        }
    }

    #[test]
    fn a_ticket_pairs_once_by_ticket_or_code() {
        let tickets = Tickets::default();
        let t = tickets.mint("ag_1");
        let code = secrets::ticket_code(&t).to_lowercase();
        assert_eq!(
            code_of(tickets.begin(&t, "ag_2").unwrap_err()),
            "invalid_request"
        );
        let held = tickets.begin(&code, "ag_1").unwrap();
        assert_eq!(
            code_of(tickets.begin(&t, "ag_1").unwrap_err()),
            "pairing_in_progress"
        );
        tickets.finish(&held, true);
        assert_eq!(
            code_of(tickets.begin(&t, "ag_1").unwrap_err()),
            "ticket_used"
        );
        assert_eq!(
            code_of(
                tickets
                    .begin("ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ", "ag_1")
                    .unwrap_err()
            ),
            "ticket_unknown"
        );
        assert_eq!(
            code_of(tickets.begin("nonsense!", "ag_1").unwrap_err()),
            "ticket_unknown"
        );
    }

    #[test]
    fn a_ticket_expires() {
        let tickets = Tickets::new(Duration::ZERO);
        let t = tickets.mint("ag_1");
        assert_eq!(
            code_of(tickets.begin(&t, "ag_1").unwrap_err()),
            "ticket_expired"
        );
    }
}
