//! The extension's pairings as it keeps them in `storage.local` (no secrets: grants live in the
//! grant vault), and every change to them as a `State` method, so the rules are tested natively:
//! which pairing the keyboard command points, when a pairing leaves the working set, how a give back
//! backs off and when it stops (what the badge and the menus show of them is `views.rs`'s).

use apc_core::page_link::PinState;
use serde::{Deserialize, Serialize};

pub use apc_core::page_link::PageEndpoints as Endpoints;

use super::time::iso;

/// The first wait before giving a grant back again, then doubled each time.
pub const GIVE_BACK_FIRST_DELAY_MS: u64 = 30_000;
/// The longest wait between two tries.
pub const GIVE_BACK_MAX_DELAY_MS: u64 = 60 * 60_000;
/// Tries before the extension stops (about four hours after the revoke).
pub const GIVE_BACK_MAX_ATTEMPTS: u32 = 10;

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

impl HubState {
    /// The hub will never take this pairing's grant again.
    pub fn is_gone(&self) -> bool {
        matches!(self, Self::RevokedByHub { .. } | Self::Forgotten { .. })
    }
}

/// How a pairing was made: by a drop the person allowed, or by a code the person typed in the popup.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairedBy {
    /// A drop on a page: a page can start that, so it never becomes the command's default alone.
    #[default]
    Drop,
    /// A code typed in the popup: the person's own act in browser UI.
    Code,
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
    #[serde(default)]
    pub paired_by: PairedBy,
    /// What the extension last learnt of the pairing's pin.
    pub pin: Option<PinState>,
    pub hub: HubState,
}

impl PairingRecord {
    /// A pairing the extension may still send its grant for (pins, status).
    pub fn is_live(&self) -> bool {
        !self.hub.is_gone()
    }
}

/// Where a give back stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GiveBackStatus {
    /// Waiting; the next try is due at this time (epoch ms).
    Waiting { next_try_ms: u64 },
    /// The extension stopped trying: the grant is deleted here; the hub may still list the pairing.
    Stopped { at: String },
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
    #[serde(default = "due_now")]
    pub status: GiveBackStatus,
}

fn due_now() -> GiveBackStatus {
    GiveBackStatus::Waiting { next_try_ms: 0 }
}

/// The wait after `attempts` failed tries: 30 s, 1 min, 2 min, ... at most an hour.
pub fn give_back_delay_ms(attempts: u32) -> u64 {
    let doubled =
        GIVE_BACK_FIRST_DELAY_MS.saturating_mul(1u64 << attempts.saturating_sub(1).min(20));
    doubled.min(GIVE_BACK_MAX_DELAY_MS)
}

/// Who asked for a give back to be tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TryBy {
    /// A timer (the give back alarm, the background's start).
    Timer,
    /// The person (revoking, opening the popup).
    Person,
}

/// Why a pairing from a hub was not added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the hub gave pairing id {0}, which another hub's pairing already has")]
pub struct DuplicateId(pub String);

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    #[serde(default)]
    pub pairings: Vec<PairingRecord>,
    #[serde(default)]
    pub give_backs: Vec<GiveBack>,
    /// The pairing the person last chose in browser UI (popup Point, a menu entry naming it, or
    /// paired by a typed code): what the keyboard command points. Never set by a drop alone.
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

    /// The pairings the extension may still send its grant for, in order.
    pub fn live_pairings(&self) -> impl Iterator<Item = &PairingRecord> {
        self.pairings.iter().filter(|p| p.is_live())
    }

    /// A live pairing by id.
    pub fn live(&self, id: &str) -> Option<&PairingRecord> {
        self.get(id).filter(|p| p.is_live())
    }

    /// The live pairing for a hub and an agent handle, if any.
    pub fn find_live(&self, hub_origin: &str, agent: &str) -> Option<&PairingRecord> {
        self.pairings
            .iter()
            .find(|p| p.hub_origin == hub_origin && p.agent_handle == agent && p.is_live())
    }

    /// Whether the person ever paired with this hub (a pairing still listed, live or not).
    pub fn knows_hub(&self, hub_origin: &str) -> bool {
        self.pairings.iter().any(|p| p.hub_origin == hub_origin)
    }

    /// Adds a new pairing; one with the same hub and agent is replaced (the hub replaced it too).
    /// Returns the id of a replaced pairing, whose grant the caller deletes. A pairing made from a
    /// drop does not become the keyboard command's default; one paired by a typed code does. An id
    /// another hub's pairing has is refused (menus and Undo name pairings by id).
    pub fn add(&mut self, record: PairingRecord) -> Result<Option<String>, DuplicateId> {
        let same = |p: &PairingRecord| {
            p.hub_origin == record.hub_origin && p.agent_handle == record.agent_handle
        };
        if self.pairings.iter().any(|p| p.id == record.id && !same(p)) {
            return Err(DuplicateId(record.id));
        }
        let old = self
            .pairings
            .iter()
            .position(same)
            .map(|i| self.pairings.remove(i).id);
        if let Some(old) = &old {
            if self.last_used.as_ref() == Some(old) {
                self.last_used = None;
            }
        }
        if record.paired_by == PairedBy::Code {
            self.last_used = Some(record.id.clone());
        }
        self.pairings.push(record);
        Ok(old.filter(|o| *o != self.pairings.last().map_or("", |p| &p.id)))
    }

    /// The person chose this pairing in browser UI (popup Point, its menu entry): the keyboard
    /// command points it from now on.
    pub fn choose(&mut self, id: &str) {
        if self.live(id).is_some() {
            self.last_used = Some(id.to_owned());
        }
    }

    /// What the keyboard command points: the live pairing the person last chose, else none.
    pub fn command_default(&self) -> Option<&PairingRecord> {
        self.last_used.as_deref().and_then(|id| self.live(id))
    }

    /// Keeps a pin the hub made, and that the hub answered.
    pub fn pinned(&mut self, id: &str, pin: PinState, at: &str) {
        if let Some(p) = self.get_mut(id) {
            p.pin = Some(pin);
            p.hub = HubState::Reachable { at: at.to_owned() };
        }
    }

    /// Keeps what a failed call said of a pairing. Returns true when the pairing is gone for good
    /// (revoked by its hub, or forgotten): its grant is then to be deleted.
    pub fn hub_said(&mut self, id: &str, hub: HubState) -> bool {
        let gone = hub.is_gone();
        if let Some(p) = self.get_mut(id) {
            p.hub = hub;
            if gone {
                p.pin = None;
            }
        }
        if gone && self.last_used.as_deref() == Some(id) {
            self.last_used = None;
        }
        gone
    }

    /// Revoke in the extension: the pairing leaves the working set at once, and its give back is
    /// queued, due now. Returns `None` when there was no such pairing, else whether a give back was
    /// queued (a hub that revoked or forgot the grant takes nothing back).
    pub fn revoke(&mut self, id: &str, now: &str) -> Option<bool> {
        let i = self.pairings.iter().position(|p| p.id == id)?;
        let record = self.pairings.remove(i);
        if self.last_used.as_deref() == Some(id) {
            self.last_used = None;
        }
        if !record.is_live() {
            return Some(false);
        }
        self.give_backs.push(GiveBack {
            pairing_id: record.id,
            hub_origin: record.hub_origin,
            agent_name: record.agent_name,
            grant_url: record.endpoints.grant,
            revoked_at: now.to_owned(),
            attempts: 0,
            last_error: None,
            status: due_now(),
        });
        Some(true)
    }

    /// The give backs to try now: those due at `now_ms` (a timer), or every one still waiting when
    /// the person asked (opened the popup, revoked).
    pub fn due_give_backs(&self, now_ms: u64, by: TryBy) -> Vec<GiveBack> {
        self.give_backs
            .iter()
            .filter(|g| match g.status {
                GiveBackStatus::Waiting { next_try_ms } => {
                    by == TryBy::Person || next_try_ms <= now_ms
                }
                GiveBackStatus::Stopped { .. } => false,
            })
            .cloned()
            .collect()
    }

    /// The give back reached the hub (or the hub no longer knows the grant): done.
    pub fn give_back_done(&mut self, pairing_id: &str) {
        self.give_backs.retain(|g| g.pairing_id != pairing_id);
    }

    /// A try failed: wait twice as long as last time, or stop after [`GIVE_BACK_MAX_ATTEMPTS`]
    /// timed tries. A try the person asked for is extra: it neither counts nor moves the next timed
    /// one. Returns true when the extension stopped trying (the caller deletes the grant).
    pub fn give_back_failed(
        &mut self,
        pairing_id: &str,
        error: String,
        now_ms: u64,
        by: TryBy,
    ) -> bool {
        let Some(g) = self
            .give_backs
            .iter_mut()
            .find(|g| g.pairing_id == pairing_id)
        else {
            return false;
        };
        g.last_error = Some(error);
        if by == TryBy::Person && g.attempts > 0 {
            return false;
        }
        g.attempts += 1;
        g.status = if g.attempts >= GIVE_BACK_MAX_ATTEMPTS {
            GiveBackStatus::Stopped { at: iso(now_ms) }
        } else {
            GiveBackStatus::Waiting {
                next_try_ms: now_ms + give_back_delay_ms(g.attempts),
            }
        };
        matches!(g.status, GiveBackStatus::Stopped { .. })
    }

    /// The person read that the extension stopped: the entry goes.
    pub fn dismiss_give_back(&mut self, pairing_id: &str) -> bool {
        let before = self.give_backs.len();
        self.give_backs.retain(|g| {
            g.pairing_id != pairing_id || matches!(g.status, GiveBackStatus::Waiting { .. })
        });
        before != self.give_backs.len()
    }

    /// When the next give back is due, if any waits.
    pub fn next_give_back_ms(&self) -> Option<u64> {
        self.give_backs
            .iter()
            .filter_map(|g| match g.status {
                GiveBackStatus::Waiting { next_try_ms } => Some(next_try_ms),
                GiveBackStatus::Stopped { .. } => None,
            })
            .min()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn record(id: &str, agent: &str, by: PairedBy) -> PairingRecord {
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
            paired_by: by,
            pin: None,
            hub: HubState::Unknown,
        }
    }

    #[test]
    fn revoke_leaves_the_working_set_at_once_and_queues_the_give_back() {
        let mut s = State::default();
        s.add(record("p1", "claude", PairedBy::Code)).unwrap();
        assert_eq!(s.revoke("p1", "t1"), Some(true));
        assert!(s.find_live("http://127.0.0.1:7410", "claude").is_none());
        assert_eq!(s.give_backs.len(), 1);
        assert_eq!(s.due_give_backs(0, TryBy::Timer).len(), 1);
        assert_eq!(s.last_used, None);
        assert!(!s.give_back_failed("p1", "hub down".into(), 1000, TryBy::Person));
        assert_eq!(s.give_backs[0].attempts, 1);
        assert!(s.due_give_backs(1000, TryBy::Timer).is_empty());
        // The person asks again: tried, not counted, the timer's next try unmoved.
        assert_eq!(s.due_give_backs(1000, TryBy::Person).len(), 1);
        assert!(!s.give_back_failed("p1", "hub down".into(), 2000, TryBy::Person));
        assert_eq!(s.give_backs[0].attempts, 1);
        assert_eq!(s.next_give_back_ms(), Some(31_000));
        s.give_back_done("p1");
        assert!(s.give_backs.is_empty());
        assert_eq!(s.revoke("p1", "t2"), None);
    }

    #[test]
    fn a_give_back_backs_off_exponentially_and_stops() {
        let mut s = State::default();
        s.add(record("p1", "claude", PairedBy::Drop)).unwrap();
        s.revoke("p1", "t");
        let mut now = 0;
        let mut waits = Vec::new();
        loop {
            assert_eq!(s.due_give_backs(now, TryBy::Timer).len(), 1);
            if s.give_back_failed("p1", "down".into(), now, TryBy::Timer) {
                break;
            }
            let next = s.next_give_back_ms().unwrap();
            assert!(s.due_give_backs(next - 1, TryBy::Timer).is_empty());
            waits.push(next - now);
            now = next;
        }
        assert_eq!(
            &waits[..4],
            &[30_000, 60_000, 120_000, 240_000],
            "doubles from 30 s"
        );
        assert!(waits.iter().all(|w| *w <= GIVE_BACK_MAX_DELAY_MS));
        assert_eq!(s.give_backs[0].attempts, GIVE_BACK_MAX_ATTEMPTS);
        assert!(now < 5 * 3_600_000, "stops within hours, not never");
        assert!(matches!(
            s.give_backs[0].status,
            GiveBackStatus::Stopped { .. }
        ));
        assert_eq!(s.next_give_back_ms(), None);
        assert!(s.due_give_backs(u64::MAX, TryBy::Timer).is_empty());
        assert!(s.due_give_backs(u64::MAX, TryBy::Person).is_empty());
        assert!(s.dismiss_give_back("p1"));
        assert!(s.give_backs.is_empty());
    }

    #[test]
    fn a_grant_the_hub_revoked_is_not_given_back() {
        let mut s = State::default();
        s.add(record("p1", "claude", PairedBy::Code)).unwrap();
        assert!(s.hub_said(
            "p1",
            HubState::RevokedByHub {
                at: "t".into(),
                by: "h".into(),
            }
        ));
        assert!(s.find_live("http://127.0.0.1:7410", "claude").is_none());
        assert_eq!(s.command_default(), None);
        assert_eq!(s.revoke("p1", "t1"), Some(false));
        assert!(s.give_backs.is_empty());
    }

    #[test]
    fn pairing_again_replaces_the_old_record() {
        let mut s = State::default();
        s.add(record("p1", "claude", PairedBy::Code)).unwrap();
        assert_eq!(
            s.add(record("p2", "claude", PairedBy::Code)),
            Ok(Some("p1".into()))
        );
        assert_eq!(s.pairings.len(), 1);
        assert_eq!(s.last_used.as_deref(), Some("p2"));
    }

    #[test]
    fn a_drop_pairing_is_not_the_commands_default_until_chosen() {
        let mut s = State::default();
        s.add(record("p1", "mine", PairedBy::Code)).unwrap();
        s.add(record("p2", "evil", PairedBy::Drop)).unwrap();
        assert_eq!(s.command_default().map(|p| p.id.as_str()), Some("p1"));
        s.choose("p2");
        assert_eq!(s.command_default().map(|p| p.id.as_str()), Some("p2"));
        let mut only_drop = State::default();
        only_drop.add(record("p3", "a", PairedBy::Drop)).unwrap();
        assert_eq!(only_drop.command_default(), None);
    }

    #[test]
    fn an_id_another_hubs_pairing_has_is_refused() {
        let mut s = State::default();
        s.add(record("p1", "a", PairedBy::Code)).unwrap();
        let mut other = record("p1", "b", PairedBy::Drop);
        other.hub_origin = "http://hub.example".into();
        assert_eq!(s.add(other), Err(DuplicateId("p1".into())));
        assert_eq!(s.pairings.len(), 1);
    }
}
