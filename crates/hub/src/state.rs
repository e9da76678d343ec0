//! The running hub's shared state: the store, tickets, the dock's CSRF token, where it is served,
//! and one signal per agent that wakes its `wait_for_focus` when a pin arrives.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

use crate::mcp::McpServices;
use crate::secrets;
use crate::store::Store;
use crate::tickets::Tickets;

/// The hub's name in `apc.json` and in pairings.
pub const HUB_NAME: &str = "apc-hub";
/// The default ceiling of `wait_for_focus({ timeout_s })`, in seconds.
pub const DEFAULT_WAIT_CEILING_S: u64 = 25;

/// Now, as the wire's timestamps are written: RFC 3339, UTC, milliseconds.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

pub struct Hub {
    pub store: Store,
    pub tickets: Tickets,
    /// The dock page's CSRF token: random per run of the hub.
    pub csrf: String,
    /// The origin the hub serves from, e.g. `http://127.0.0.1:7410`.
    pub origin: String,
    /// Host names besides the loopback ones that requests may name in `Host` (the person's
    /// `--listen` on another address).
    pub extra_hosts: Vec<String>,
    pub wait_ceiling_s: u64,
    signals: Mutex<HashMap<String, watch::Sender<u64>>>,
    pub(crate) mcp: McpServices,
}

impl Hub {
    pub fn new(store: Store, origin: String, extra_hosts: Vec<String>) -> Self {
        Self {
            store,
            tickets: Tickets::default(),
            csrf: secrets::new_secret(),
            origin,
            extra_hosts,
            wait_ceiling_s: DEFAULT_WAIT_CEILING_S,
            signals: Mutex::new(HashMap::new()),
            mcp: McpServices::default(),
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
        format!("{origin}/mcp/{secret}")
    }

    fn signal(&self, agent: &str) -> watch::Sender<u64> {
        self.signals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(agent.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .clone()
    }

    /// Watches the agent's pins: the value changes on every new pin.
    pub fn subscribe_pins(&self, agent: &str) -> watch::Receiver<u64> {
        self.signal(agent).subscribe()
    }

    /// Wakes the agent's waits: a new pin is there.
    pub fn notify_pin(&self, agent: &str) {
        self.signal(agent).send_modify(|n| *n = n.wrapping_add(1));
    }
}
