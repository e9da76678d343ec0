//! Tickets: minted only for the dock page's own script (on demand, never per page view), single use,
//! five minutes at most, each for one agent. A ticket opens one pairing (`POST {page.pair}`) or one
//! drop's pin (`PUT {page.pin}`), and is spent with it. Kept in memory: a restart retires them, which
//! costs the person one more drag at most.
//!
//! Each agent holds at most [`LIVE_PER_AGENT`] live tickets: minting past it retires that agent's
//! oldest, so a flood of mints for one agent cannot evict another agent's ticket.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use apc_core::page_link::{PageLinkError, TICKET_TTL_S};

use crate::error::HubError;
use crate::secrets;

/// How long a spent or expired ticket is remembered, so that it answers "used" or "expired" rather
/// than "unknown".
const REMEMBER: Duration = Duration::from_secs(3600);
/// The most live (fresh, unexpired) tickets one agent holds; minting past it retires its oldest.
pub const LIVE_PER_AGENT: usize = 16;
/// The most spent or expired tickets remembered (to answer "used"/"expired"); past it the oldest of
/// those are forgotten. Live tickets never count against it.
const MAX_REMEMBERED: usize = 10_000;

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

    /// How many tickets the hub holds (live, spent and expired ones it still remembers).
    pub fn held(&self) -> usize {
        self.map().len()
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// A fresh ticket for `agent`.
    pub fn mint(&self, agent: &str) -> String {
        let mut map = self.map();
        let now = Instant::now();
        let ttl = self.ttl;
        map.retain(|_, t| now.duration_since(t.minted) < ttl + REMEMBER);
        let live = |t: &Ticket| t.state != State::Used && now.duration_since(t.minted) < ttl;
        // This agent's live tickets, oldest first: past the cap the oldest are retired.
        let mut mine: Vec<(String, Instant)> = map
            .iter()
            .filter(|(_, t)| t.agent == agent && t.state == State::Fresh && live(t))
            .map(|(k, t)| (k.clone(), t.minted))
            .collect();
        if mine.len() >= LIVE_PER_AGENT {
            mine.sort_by_key(|(_, minted)| *minted);
            let excess = mine.len() + 1 - LIVE_PER_AGENT;
            for (key, _) in mine.into_iter().take(excess) {
                map.remove(&key);
            }
        }
        let remembered: Vec<(String, Instant)> = map
            .iter()
            .filter(|(_, t)| !live(t))
            .map(|(k, t)| (k.clone(), t.minted))
            .collect();
        if remembered.len() >= MAX_REMEMBERED {
            let mut remembered = remembered;
            remembered.sort_by_key(|(_, minted)| *minted);
            let excess = remembered.len() + 1 - MAX_REMEMBERED;
            for (key, _) in remembered.into_iter().take(excess) {
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
            // Another agent's ticket is refused as unknown: it opens nothing for this agent.
            State::Fresh if entry.agent != agent => Err(unknown()),
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
        let code = apc_core::pairing_code::pairing_code_display(&t).to_lowercase();
        assert_eq!(
            code_of(tickets.begin(&t, "ag_2").unwrap_err()),
            "ticket_unknown"
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
    fn one_agents_flood_evicts_none_of_another_agents_tickets() {
        let tickets = Tickets::default();
        let theirs = tickets.mint("ag_person");
        let mut flood = Vec::new();
        for _ in 0..20_000 {
            flood.push(tickets.mint("ag_flood"));
        }
        assert_eq!(tickets.peek(&theirs).unwrap().0, "ag_person");
        // The flooding agent keeps only its newest few.
        let live = flood.iter().filter(|t| tickets.peek(t).is_ok()).count();
        assert_eq!(live, LIVE_PER_AGENT);
        assert!(tickets.peek(flood.last().unwrap()).is_ok());
        assert!(tickets.map().len() <= LIVE_PER_AGENT + 1);
        let held = tickets.begin(&theirs, "ag_person").unwrap();
        tickets.finish(&held, true);
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
