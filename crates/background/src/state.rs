//! The extension's pairings as it keeps them in `storage.local` (no secrets: grants live in
//! `secrets`), and every change to them as a plain function, so the rules are tested natively.

use serde::{Deserialize, Serialize};

pub use apc_core::page_link::PageEndpoints as Endpoints;

/// What the extension last learnt of a pairing's pin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinView {
    pub id: String,
    pub pinned_at: String,
    pub seen_at: Option<String>,
}

/// How the hub last answered for a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum HubState {
    Unknown,
    Reachable {
        at: String,
    },
    Unreachable {
        at: String,
        reason: String,
    },
    /// The hub's person revoked the pairing on the dock: 403 with a `RevokedAnswer`.
    RevokedByHub {
        at: String,
        by: String,
    },
    /// The hub no longer knows the grant (404).
    Forgotten {
        at: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingRecord {
    pub id: String,
    pub hub_origin: String,
    pub hub_name: String,
    pub agent_handle: String,
    pub agent_name: String,
    pub created_at: String,
    pub endpoints: Endpoints,
    pub pin: Option<PinView>,
    pub hub: HubState,
}

impl PairingRecord {
    /// A pairing the extension may still send its grant for (pins, status).
    pub fn is_live(&self) -> bool {
        !matches!(
            self.hub,
            HubState::RevokedByHub { .. } | HubState::Forgotten { .. }
        )
    }
}

/// A grant the person revoked in the extension, still to be given back to its hub.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GiveBack {
    pub pairing_id: String,
    pub hub_origin: String,
    pub agent_name: String,
    pub grant_url: String,
    pub revoked_at: String,
    pub attempts: u32,
    pub last_error: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    #[serde(default)]
    pub pairings: Vec<PairingRecord>,
    #[serde(default)]
    pub give_backs: Vec<GiveBack>,
    /// The pairing the person pointed last: what the keyboard command points.
    #[serde(default)]
    pub last_used: Option<String>,
}

impl State {
    pub fn get(&self, id: &str) -> Option<&PairingRecord> {
        self.pairings.iter().find(|p| p.id == id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut PairingRecord> {
        self.pairings.iter_mut().find(|p| p.id == id)
    }

    /// The live pairing for a hub and an agent handle, if any.
    pub fn find_live(&self, hub_origin: &str, agent: &str) -> Option<&PairingRecord> {
        self.pairings
            .iter()
            .find(|p| p.hub_origin == hub_origin && p.agent_handle == agent && p.is_live())
    }

    /// Adds a new pairing; one with the same hub and agent is replaced (the hub replaced it too).
    /// Returns the id of a replaced pairing, whose grant the caller deletes.
    pub fn add(&mut self, record: PairingRecord) -> Option<String> {
        let old = self
            .pairings
            .iter()
            .position(|p| {
                p.hub_origin == record.hub_origin && p.agent_handle == record.agent_handle
            })
            .map(|i| self.pairings.remove(i).id);
        self.last_used = Some(record.id.clone());
        self.pairings.push(record);
        old
    }

    /// Revoke in the extension: the pairing leaves the working set at once, and its give back is
    /// queued. Returns false when there was no such pairing.
    pub fn revoke(&mut self, id: &str, now: &str) -> bool {
        let Some(i) = self.pairings.iter().position(|p| p.id == id) else {
            return false;
        };
        let record = self.pairings.remove(i);
        if self.last_used.as_deref() == Some(id) {
            self.last_used = None;
        }
        // A hub that revoked or forgot the grant takes nothing back: there is nothing to tell it.
        if record.is_live() {
            self.give_backs.push(GiveBack {
                pairing_id: record.id,
                hub_origin: record.hub_origin,
                agent_name: record.agent_name,
                grant_url: record.endpoints.grant,
                revoked_at: now.to_owned(),
                attempts: 0,
                last_error: None,
            });
        }
        true
    }

    /// The give back reached the hub (or the hub no longer knows the grant): done.
    pub fn give_back_done(&mut self, pairing_id: &str) {
        self.give_backs.retain(|g| g.pairing_id != pairing_id);
    }

    pub fn give_back_failed(&mut self, pairing_id: &str, error: String) {
        if let Some(g) = self
            .give_backs
            .iter_mut()
            .find(|g| g.pairing_id == pairing_id)
        {
            g.attempts += 1;
            g.last_error = Some(error);
        }
    }

    /// Whether any pin is unread, any is read, or none: what the toolbar badge shows.
    pub fn badge(&self) -> Badge {
        let pins = self
            .pairings
            .iter()
            .filter(|p| p.is_live())
            .filter_map(|p| p.pin.as_ref());
        let mut badge = Badge::None;
        for pin in pins {
            if pin.seen_at.is_none() {
                return Badge::Unread;
            }
            badge = Badge::Read;
        }
        badge
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Badge {
    None,
    Unread,
    Read,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, agent: &str) -> PairingRecord {
        PairingRecord {
            id: id.into(),
            hub_origin: "http://127.0.0.1:7410".into(),
            hub_name: "apc-hub".into(),
            agent_handle: agent.into(),
            agent_name: agent.to_uppercase(),
            created_at: "2026-11-29T00:00:00Z".into(),
            endpoints: Endpoints {
                pair: "http://127.0.0.1:7410/page/pair".into(),
                pin: "http://127.0.0.1:7410/page/pin".into(),
                grant: "http://127.0.0.1:7410/page/grant".into(),
            },
            pin: None,
            hub: HubState::Unknown,
        }
    }

    #[test]
    fn revoke_leaves_the_working_set_at_once_and_queues_the_give_back() {
        let mut s = State::default();
        s.add(record("p1", "claude"));
        assert!(s.revoke("p1", "t1"));
        assert!(s.find_live("http://127.0.0.1:7410", "claude").is_none());
        assert_eq!(s.give_backs.len(), 1);
        assert_eq!(
            s.give_backs[0].grant_url,
            "http://127.0.0.1:7410/page/grant"
        );
        assert_eq!(s.last_used, None);
        s.give_back_failed("p1", "hub down".into());
        assert_eq!(s.give_backs[0].attempts, 1);
        s.give_back_done("p1");
        assert!(s.give_backs.is_empty());
        assert!(!s.revoke("p1", "t2"));
    }

    #[test]
    fn a_grant_the_hub_revoked_is_not_given_back() {
        let mut s = State::default();
        s.add(record("p1", "claude"));
        s.get_mut("p1").unwrap().hub = HubState::RevokedByHub {
            at: "t".into(),
            by: "h".into(),
        };
        assert!(s.find_live("http://127.0.0.1:7410", "claude").is_none());
        s.revoke("p1", "t1");
        assert!(s.give_backs.is_empty());
    }

    #[test]
    fn pairing_again_replaces_the_old_record() {
        let mut s = State::default();
        s.add(record("p1", "claude"));
        assert_eq!(s.add(record("p2", "claude")), Some("p1".into()));
        assert_eq!(s.pairings.len(), 1);
        assert_eq!(s.last_used.as_deref(), Some("p2"));
    }

    #[test]
    fn badge_follows_the_pins() {
        let mut s = State::default();
        s.add(record("p1", "a"));
        s.add(record("p2", "b"));
        assert_eq!(s.badge(), Badge::None);
        s.get_mut("p1").unwrap().pin = Some(PinView {
            id: "rd_1".into(),
            pinned_at: "t".into(),
            seen_at: Some("t2".into()),
        });
        assert_eq!(s.badge(), Badge::Read);
        s.get_mut("p2").unwrap().pin = Some(PinView {
            id: "rd_2".into(),
            pinned_at: "t".into(),
            seen_at: None,
        });
        assert_eq!(s.badge(), Badge::Unread);
    }
}
