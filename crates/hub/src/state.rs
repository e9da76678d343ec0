//! The running hub's shared state, a leaf of the module tree (it imports the store, tickets and
//! secrets, never the HTTP or MCP layers): the database handle, tickets, the dock's CSRF token and
//! password, where it is served, one pin signal per agent that wakes its `wait_for_focus`, and the
//! dock's change counter that its live pairings list waits on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;
use tokio::sync::watch;

use crate::secrets;
use crate::store::{Db, PinRow, Result};
use crate::tickets::Tickets;

/// The hub's name in `apc.json` and in pairings.
pub const HUB_NAME: &str = "apc-hub";
/// The default ceiling of `wait_for_focus({ timeout_s })`, in seconds.
pub const DEFAULT_WAIT_CEILING_S: u64 = 25;

/// Now, as the wire's timestamps are written: RFC 3339, UTC, milliseconds.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A pin as its agent's waits learn of it: the pin (without its reading), whether one of the
/// agent's tools has already marked it seen, so that a thousand woken waits write `seen_at` once,
/// and the answer those waits return, built once and shared by all of them.
#[derive(Debug)]
pub struct PinNews {
    pub pin: PinRow,
    seen: AtomicBool,
    answer: OnceLock<SharedAnswer>,
}

/// A tool's answer as its JSON and the text block that carries the same JSON: what every wait woken
/// by one pin returns (a thousand waits of one agent serialized the same focus a thousand times).
#[derive(Debug)]
pub struct SharedAnswer {
    pub json: Value,
    pub text: String,
}

impl PinNews {
    pub fn new(pin: PinRow) -> Self {
        Self {
            pin,
            seen: AtomicBool::new(false),
            answer: OnceLock::new(),
        }
    }

    /// `true` for the first caller only.
    pub fn claim_seen(&self) -> bool {
        !self.seen.swap(true, Ordering::AcqRel)
    }

    /// The answer for this pin: `build` runs for the first caller only, the rest share its result.
    pub fn answer(&self, build: impl FnOnce(&PinRow) -> SharedAnswer) -> &SharedAnswer {
        self.answer.get_or_init(|| build(&self.pin))
    }
}

/// What an agent's pin signal holds: a counter bumped on every pin, and the latest pin.
#[derive(Debug, Clone, Default)]
pub struct PinSignal {
    pub version: u64,
    pub latest: Option<Arc<PinNews>>,
}

pub struct Hub {
    pub db: Db,
    pub tickets: Tickets,
    /// The dock page's CSRF token: random per run of the hub.
    pub csrf: String,
    /// The dock's password (`--allow-remote`): every dock request must give it (HTTP Basic).
    pub dock_password: Option<String>,
    /// The origin the hub serves from, e.g. `http://127.0.0.1:7410`.
    pub origin: String,
    /// Host names besides the loopback ones that requests may name in `Host` (the person's
    /// `--listen` on another address).
    pub extra_hosts: Vec<String>,
    pub wait_ceiling_s: u64,
    signals: Mutex<HashMap<String, watch::Sender<PinSignal>>>,
    dock_changes: watch::Sender<u64>,
    /// Bumped whenever a pin's page text is answered (attached, or said not to come): what a
    /// `page__get_reading` waiting for one watches before it looks at its reading again.
    page_texts: watch::Sender<u64>,
}

impl Hub {
    pub fn new(db: Db, origin: String, extra_hosts: Vec<String>) -> Self {
        Self {
            db,
            tickets: Tickets::default(),
            csrf: secrets::new_secret(),
            dock_password: None,
            origin,
            extra_hosts,
            wait_ceiling_s: DEFAULT_WAIT_CEILING_S,
            signals: Mutex::new(HashMap::new()),
            dock_changes: watch::channel(0).0,
            page_texts: watch::channel(0).0,
        }
    }

    /// The hub's host as `RevokedAnswer.revoked_by` names it: the origin's host, with its port.
    pub fn host(&self) -> &str {
        self.origin
            .split_once("://")
            .map_or(self.origin.as_str(), |(_, rest)| rest)
    }

    /// The agent's MCP URL on `origin`.
    pub fn mcp_url(origin: &str, secret: &str) -> String {
        format!("{origin}{}{secret}", apc_core::APC_DEFAULT_MCP_PATH)
    }

    fn signal(&self, agent: &str) -> watch::Sender<PinSignal> {
        self.signals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(agent.to_owned())
            .or_insert_with(|| watch::channel(PinSignal::default()).0)
            .clone()
    }

    /// Watches the agent's pins: the value changes on every new pin.
    pub fn subscribe_pins(&self, agent: &str) -> watch::Receiver<PinSignal> {
        self.signal(agent).subscribe()
    }

    /// How many of the agent's waits are listening for its next pin (and the dock's, none).
    pub fn pin_waiters(&self, agent: &str) -> usize {
        self.signal(agent).receiver_count()
    }

    /// Tells the agent's waits (and the dock) that `pin` was just stored.
    pub fn notify_pin(&self, agent: &str, pin: PinRow) {
        let news = Arc::new(PinNews::new(pin));
        self.signal(agent).send_modify(|s| {
            s.version = s.version.wrapping_add(1);
            s.latest = Some(news);
        });
        self.dock_changed();
    }

    /// Marks a reading seen (once): the dock's pin state changes with it.
    pub async fn mark_seen(&self, reading_id: &str) -> Result<()> {
        let id = reading_id.to_owned();
        let changed = self.db.run(move |s| s.mark_seen(&id, &now())).await?;
        if changed {
            self.dock_changed();
        }
        Ok(())
    }

    /// Something the dock shows changed (a pairing, a pin, a pin read).
    /// A pin's page text was answered: the waiting `page__get_reading` calls look again.
    pub fn page_text_arrived(&self) {
        self.page_texts.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Watches the pins' page texts arriving.
    pub fn watch_page_texts(&self) -> watch::Receiver<u64> {
        self.page_texts.subscribe()
    }

    pub fn dock_changed(&self) {
        self.dock_changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Watches what the dock shows.
    pub fn dock_watch(&self) -> watch::Receiver<u64> {
        self.dock_changes.subscribe()
    }
}

#[cfg(test)]
mod tests {
    /// The shared state is a leaf: it never imports the layers that use it (no module cycle).
    #[test]
    fn state_imports_no_layer_above_it() {
        let source = include_str!("state.rs");
        let code = &source[..source.find("#[cfg(test)]").unwrap()];
        for layer in [
            "mcp", "security", "page", "dock", "server", "cli", "focus", "conn",
        ] {
            assert!(
                !code.contains(&format!("crate::{layer}")),
                "state.rs imports crate::{layer}"
            );
        }
    }
}
