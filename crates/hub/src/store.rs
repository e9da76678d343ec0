//! The hub's SQLite database (`hub.sqlite3` in the data dir): agents, grant hashes, pairings, pins
//! and their readings, and the origin the hub last served from. Tickets are not stored: they live five
//! minutes at most and a restart simply retires them.
//!
//! A pairing's grant is kept only as its SHA-256. A pin holds its reading; replacing, unpinning,
//! revoking or giving back deletes the row, and so the reading. A revoked pairing's row stays (status
//! `revoked`, no pin) so that its grant answers "revoked" forever; a replaced or given-back pairing's
//! row is deleted, so its grant is unknown from then on.
//!
//! [`Store`] is the synchronous database (the CLI uses it directly); the running hub reaches it only
//! through [`Db`], one thread that owns the connection and runs the jobs async handlers send it, so no
//! SQLite call ever blocks a runtime worker. Statements are prepared once per connection
//! (`prepare_cached`).
//!
//! Durability: WAL with `synchronous = NORMAL`. A commit has been written to the WAL file (the OS's page
//! cache) before the call returns, so a pin or pairing the hub acknowledged survives the hub being
//! killed (`kill -9`); only an OS crash or power loss may drop the last commits (never corrupting the
//! database). Each pin is one commit, without an fsync of its own.
//!
//! The data dir is made `0700` and every file in it `0600` (`-wal` and `-shm` included): the database
//! holds agents' MCP secrets and readings.

use std::path::Path;
use std::sync::mpsc;

use rusqlite::{params, Connection, OptionalExtension};

use crate::secrets;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("could not create the data dir {0}: {1}")]
    DataDir(String, std::io::Error),
    #[error("an agent named {0:?} exists already")]
    NameTaken(String),
    #[error("no agent named {0:?}")]
    NoSuchAgent(String),
    #[error("an agent name is 1 to 40 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit")]
    BadName,
    #[error("the database thread has stopped")]
    Closed,
}

pub type Result<T> = std::result::Result<T, StoreError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    pub handle: String,
    pub name: String,
    /// The secret of the agent's MCP URL (`/mcp/<secret>`).
    pub secret: String,
    pub created_at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingStatus {
    Active,
    Revoked,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRow {
    pub id: String,
    pub agent: String,
    pub app: String,
    pub status: PairingStatus,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// A pin as stored, without its reading (core's `PinState` on the wire; the reading is loaded only by
/// the tool that returns it, [`Store::agent_reading`]). `app_url` is the page's origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinRow {
    pub pairing_id: String,
    pub reading_id: String,
    pub app_url: String,
    pub pinned_at: String,
    pub seen_at: Option<String>,
}

/// Whether a pin's reading has its page text: `Whole` (it came with the pin, or was attached),
/// `Coming` (pinned with `text_follows`: the page text is on its way), `Missing` (the extension
/// said it will not come).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextState {
    Whole,
    Coming,
    Missing,
}

impl TextState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Whole => "whole",
            Self::Coming => "coming",
            Self::Missing => "missing",
        }
    }

    fn from_db(raw: &str) -> Self {
        match raw {
            "coming" => Self::Coming,
            "missing" => Self::Missing,
            _ => Self::Whole,
        }
    }
}

/// A reading as stored, with its pin and whether its page text is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredReading {
    pub pin: PinRow,
    pub json: String,
    pub text: TextState,
}

/// One line of the dock's pairings list.
#[derive(Debug, Clone)]
pub struct DockPairing {
    pub pairing: PairingRow,
    pub pin: Option<PinRow>,
}

/// The default agent's name, made on the first start (`Store::ensure_default_agent`).
pub const DEFAULT_AGENT: &str = "default";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agents (
    handle TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    secret TEXT NOT NULL,
    secret_hash BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pairings (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL REFERENCES agents(handle) ON DELETE CASCADE,
    app TEXT NOT NULL,
    grant_hash BLOB NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS one_active_pairing
    ON pairings(agent, app) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS pairings_by_agent ON pairings(agent, created_at);
CREATE TABLE IF NOT EXISTS pins (
    pairing_id TEXT PRIMARY KEY REFERENCES pairings(id) ON DELETE CASCADE,
    reading_id TEXT NOT NULL UNIQUE,
    reading_json TEXT NOT NULL,
    app_url TEXT NOT NULL,
    pinned_at TEXT NOT NULL,
    seen_at TEXT,
    text_state TEXT NOT NULL DEFAULT 'whole' CHECK (text_state IN ('whole', 'coming', 'missing'))
);
";

/// A database made before pins had `text_state` gets the column (every pin it holds is whole).
const ADD_TEXT_STATE: &str =
    "ALTER TABLE pins ADD COLUMN text_state TEXT NOT NULL DEFAULT 'whole' \
    CHECK (text_state IN ('whole', 'coming', 'missing'))";

/// The database, used from one thread at a time (the CLI's, or [`Db`]'s).
pub struct Store {
    conn: Connection,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    (1..=40).contains(&name.chars().count())
        && chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-'))
        && !name.ends_with(' ')
}

fn status_of(raw: String) -> PairingStatus {
    if raw == "active" {
        PairingStatus::Active
    } else {
        PairingStatus::Revoked
    }
}

fn pairing_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PairingRow> {
    Ok(PairingRow {
        id: row.get(0)?,
        agent: row.get(1)?,
        app: row.get(2)?,
        status: status_of(row.get(3)?),
        created_at: row.get(4)?,
        revoked_at: row.get(5)?,
    })
}

/// A pin from [`PIN_COLS`] starting at column `at`.
fn pin_from_row_at(row: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<PinRow> {
    Ok(PinRow {
        pairing_id: row.get(at)?,
        reading_id: row.get(at + 1)?,
        app_url: row.get(at + 2)?,
        pinned_at: row.get(at + 3)?,
        seen_at: row.get(at + 4)?,
    })
}

fn pin_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PinRow> {
    pin_from_row_at(row, 0)
}

/// A pin from [`PIN_COLS`], then its reading's JSON and text state.
fn stored_reading(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredReading> {
    Ok(StoredReading {
        pin: pin_from_row(row)?,
        json: row.get(5)?,
        text: TextState::from_db(&row.get::<_, String>(6)?),
    })
}

fn agent_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Agent> {
    Ok(Agent {
        handle: row.get(0)?,
        name: row.get(1)?,
        secret: row.get(2)?,
        created_at: row.get(3)?,
    })
}

const PAIRING_COLS: &str = "pairings.id, pairings.agent, pairings.app, pairings.status, pairings.created_at, pairings.revoked_at";
const PIN_COLS: &str =
    "pins.pairing_id, pins.reading_id, pins.app_url, pins.pinned_at, pins.seen_at";

/// Makes `dir` (and its parents) and sets it to `0700`; files created from here on are `0600`.
#[cfg(unix)]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    // SAFETY: umask only sets the process's file mode mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

#[cfg(not(unix))]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// Sets the database's files to `0600` (those an older hub made with a wider mode).
#[cfg(unix)]
fn private_files(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let path = dir.join(format!("hub.sqlite3{suffix}"));
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn private_files(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Makes the data directory (private to the user) before anything is written in it.
pub fn prepare_data_dir(data_dir: &Path) -> Result<()> {
    private_dir(data_dir).map_err(|e| StoreError::DataDir(data_dir.display().to_string(), e))
}

impl Store {
    /// Opens (and creates) `hub.sqlite3` in `data_dir`, which is made private to the user.
    pub fn open(data_dir: &Path) -> Result<Self> {
        let data_dir_error = |e| StoreError::DataDir(data_dir.display().to_string(), e);
        private_dir(data_dir).map_err(data_dir_error)?;
        let conn = Connection::open(data_dir.join("hub.sqlite3"))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
        )?;
        conn.execute_batch(SCHEMA)?;
        let has_text_state = conn
            .prepare("SELECT 1 FROM pragma_table_info('pins') WHERE name = 'text_state'")?
            .exists([])?;
        if !has_text_state {
            conn.execute_batch(ADD_TEXT_STATE)?;
        }
        conn.set_prepared_statement_cache_capacity(64);
        private_files(data_dir).map_err(data_dir_error)?;
        Ok(Self { conn })
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
            .query_row([key], |r| r.get(0))
            .optional()?)
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            )?
            .execute([key, value])?;
        Ok(())
    }

    // --- agents ---

    pub fn add_agent(&self, name: &str, now: &str) -> Result<Agent> {
        let name = name.trim();
        if !valid_name(name) {
            return Err(StoreError::BadName);
        }
        let agent = Agent {
            handle: secrets::new_handle(),
            name: name.to_owned(),
            secret: secrets::new_secret(),
            created_at: now.to_owned(),
        };
        let taken: bool = self
            .conn
            .prepare_cached("SELECT EXISTS(SELECT 1 FROM agents WHERE name = ?1)")?
            .query_row([name], |r| r.get(0))?;
        if taken {
            return Err(StoreError::NameTaken(name.to_owned()));
        }
        self.conn.prepare_cached(
            "INSERT INTO agents (handle, name, secret, secret_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![agent.handle, agent.name, agent.secret, secrets::hash(&agent.secret), agent.created_at])?;
        Ok(agent)
    }

    /// Makes the agent `name` when the hub has none at all (its first start).
    pub fn ensure_default_agent(&self, name: &str, now: &str) -> Result<()> {
        if self.agents()?.is_empty() {
            self.add_agent(name, now)?;
        }
        Ok(())
    }

    pub fn agents(&self) -> Result<Vec<Agent>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT handle, name, secret, created_at FROM agents ORDER BY created_at, name",
        )?;
        let rows = stmt.query_map([], agent_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes the agent and, with it, its pairings, pins and readings.
    pub fn remove_agent(&self, name: &str) -> Result<Agent> {
        let agent = self
            .conn
            .prepare_cached("SELECT handle, name, secret, created_at FROM agents WHERE name = ?1")?
            .query_row([name.trim()], agent_from_row)
            .optional()?
            .ok_or_else(|| StoreError::NoSuchAgent(name.to_owned()))?;
        self.conn
            .prepare_cached("DELETE FROM agents WHERE handle = ?1")?
            .execute([&agent.handle])?;
        Ok(agent)
    }

    pub fn agent_by_handle(&self, handle: &str) -> Result<Option<Agent>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT handle, name, secret, created_at FROM agents WHERE handle = ?1",
            )?
            .query_row([handle], agent_from_row)
            .optional()?)
    }

    /// The agent whose MCP URL secret this is. Looked up by its hash, then compared in constant time.
    pub fn agent_by_secret(&self, secret: &str) -> Result<Option<Agent>> {
        let hash = secrets::hash(secret);
        let found = self
            .conn
            .prepare_cached(
                "SELECT handle, name, secret, created_at FROM agents WHERE secret_hash = ?1",
            )?
            .query_row([&hash], agent_from_row)
            .optional()?;
        Ok(found.filter(|a| secrets::ct_eq(a.secret.as_bytes(), secret.as_bytes())))
    }

    // --- pairings ---

    /// A new active pairing of `agent` with `app`, keeping only `grant_hash`; with `pin`, the pairing's
    /// first pin in the same transaction. An active pairing of the same agent and app is replaced: its
    /// row, pin and reading go, and its grant becomes unknown.
    pub fn create_pairing(
        &self,
        agent: &str,
        app: &str,
        grant_hash: &[u8],
        now: &str,
        pin: Option<(&PinRow, &str)>,
    ) -> Result<PairingRow> {
        let row = PairingRow {
            id: secrets::new_pairing_id(),
            agent: agent.to_owned(),
            app: app.to_owned(),
            status: PairingStatus::Active,
            created_at: now.to_owned(),
            revoked_at: None,
        };
        let tx = self.conn.unchecked_transaction()?;
        tx.prepare_cached(
            "DELETE FROM pairings WHERE agent = ?1 AND app = ?2 AND status = 'active'",
        )?
        .execute([agent, app])?;
        tx.prepare_cached(
            "INSERT INTO pairings (id, agent, app, grant_hash, status, created_at) VALUES (?1, ?2, ?3, ?4, 'active', ?5)",
        )?
        .execute(params![row.id, row.agent, row.app, grant_hash, row.created_at])?;
        if let Some((pin, reading_json)) = pin {
            let pin = PinRow {
                pairing_id: row.id.clone(),
                ..pin.clone()
            };
            self.insert_pin(&pin, reading_json, TextState::Whole)?;
        }
        tx.commit()?;
        Ok(row)
    }

    /// The pairing a grant opens, active or revoked; `None` for a grant the hub does not know.
    pub fn pairing_by_grant(&self, grant: &str) -> Result<Option<PairingRow>> {
        let hash = secrets::hash(grant);
        let found = self
            .conn
            .prepare_cached(&format!(
                "SELECT {PAIRING_COLS}, grant_hash FROM pairings WHERE grant_hash = ?1"
            ))?
            .query_row([&hash], |r| {
                Ok((pairing_from_row(r)?, r.get::<_, Vec<u8>>(6)?))
            })
            .optional()?;
        Ok(found
            .filter(|(_, stored)| secrets::ct_eq(stored, &hash))
            .map(|(p, _)| p))
    }

    pub fn pairing(&self, id: &str) -> Result<Option<PairingRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PAIRING_COLS} FROM pairings WHERE id = ?1"
            ))?
            .query_row([id], pairing_from_row)
            .optional()?)
    }

    /// The agent's active pairing with `app`.
    pub fn active_pairing(&self, agent: &str, app: &str) -> Result<Option<PairingRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PAIRING_COLS} FROM pairings WHERE agent = ?1 AND app = ?2 AND status = 'active'"
            ))?
            .query_row([agent, app], pairing_from_row)
            .optional()?)
    }

    /// Revokes a pairing: it stays, marked revoked, and its pin and reading go. `false` when there is
    /// no active pairing with that id.
    pub fn revoke_pairing(&self, id: &str, now: &str) -> Result<bool> {
        let tx = self.conn.unchecked_transaction()?;
        let changed = tx
            .prepare_cached(
                "UPDATE pairings SET status = 'revoked', revoked_at = ?2 WHERE id = ?1 AND status = 'active'",
            )?
            .execute([id, now])?;
        tx.prepare_cached("DELETE FROM pins WHERE pairing_id = ?1")?
            .execute([id])?;
        tx.commit()?;
        Ok(changed > 0)
    }

    /// Forgets a pairing whose grant was given back: the row, pin and reading go.
    pub fn delete_pairing(&self, id: &str) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM pairings WHERE id = ?1")?
            .execute([id])?;
        Ok(())
    }

    /// Every agent's pairings for the dock, in one query: per agent and app the latest pairing (an
    /// active one, or the revoked one nothing replaced), latest first, with its pin.
    pub fn dock_pairings(&self) -> Result<Vec<DockPairing>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {PAIRING_COLS}, {PIN_COLS} FROM pairings
             LEFT JOIN pins ON pins.pairing_id = pairings.id
             ORDER BY pairings.agent, pairings.created_at DESC"
        ))?;
        let rows = stmt.query_map([], |r| {
            let pairing = pairing_from_row(r)?;
            let pin = match r.get::<_, Option<String>>(6)? {
                Some(_) => Some(pin_from_row_at(r, 6)?),
                None => None,
            };
            Ok(DockPairing { pairing, pin })
        })?;
        let mut out = Vec::new();
        let mut shown = std::collections::HashSet::new();
        for row in rows {
            let row = row?;
            if shown.insert((row.pairing.agent.clone(), row.pairing.app.clone())) {
                out.push(row);
            }
        }
        Ok(out)
    }

    // --- pins and readings ---

    fn insert_pin(&self, pin: &PinRow, reading_json: &str, text: TextState) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO pins (pairing_id, reading_id, reading_json, app_url, pinned_at, seen_at, text_state)
                 VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)
                 ON CONFLICT(pairing_id) DO UPDATE SET reading_id = excluded.reading_id,
                   reading_json = excluded.reading_json, app_url = excluded.app_url,
                   pinned_at = excluded.pinned_at, seen_at = NULL, text_state = excluded.text_state",
            )?
            .execute(params![
                pin.pairing_id,
                pin.reading_id,
                reading_json,
                pin.app_url,
                pin.pinned_at,
                text.as_str()
            ])?;
        Ok(())
    }

    /// Sets the pairing's one pin, dropping the reading it replaces.
    pub fn set_pin(&self, pin: &PinRow, reading_json: &str) -> Result<()> {
        self.insert_pin(pin, reading_json, TextState::Whole)
    }

    /// Sets the pairing's one pin with its page text still to come ([`Store::set_page_text`]).
    pub fn set_pin_text_coming(&self, pin: &PinRow, reading_json: &str) -> Result<()> {
        self.insert_pin(pin, reading_json, TextState::Coming)
    }

    /// The pairing's pin `reading_id` as stored, if it is that pairing's current pin.
    pub fn pairing_reading(
        &self,
        pairing_id: &str,
        reading_id: &str,
    ) -> Result<Option<StoredReading>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PIN_COLS}, pins.reading_json, pins.text_state FROM pins
                 WHERE pins.pairing_id = ?1 AND pins.reading_id = ?2"
            ))?
            .query_row([pairing_id, reading_id], stored_reading)
            .optional()?)
    }

    /// Gives a pin whose page text was coming its reading with the text (`Whole`) or says it will
    /// not come (`Missing`, the reading unchanged). Only while it is that pairing's pin and its text
    /// is still coming: `false` otherwise (replaced, or answered already), and nothing changes.
    pub fn set_page_text(
        &self,
        pairing_id: &str,
        reading_id: &str,
        reading_json: Option<&str>,
    ) -> Result<bool> {
        let changed = match reading_json {
            Some(json) => self
                .conn
                .prepare_cached(
                    "UPDATE pins SET reading_json = ?3, text_state = 'whole'
                     WHERE pairing_id = ?1 AND reading_id = ?2 AND text_state = 'coming'",
                )?
                .execute([pairing_id, reading_id, json])?,
            None => self
                .conn
                .prepare_cached(
                    "UPDATE pins SET text_state = 'missing'
                     WHERE pairing_id = ?1 AND reading_id = ?2 AND text_state = 'coming'",
                )?
                .execute([pairing_id, reading_id])?,
        };
        Ok(changed > 0)
    }

    /// Unpins: the pin and its reading go. `false` when there was none.
    pub fn delete_pin(&self, pairing_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("DELETE FROM pins WHERE pairing_id = ?1")?
            .execute([pairing_id])?
            > 0)
    }

    pub fn pin(&self, pairing_id: &str) -> Result<Option<PinRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PIN_COLS} FROM pins WHERE pairing_id = ?1"
            ))?
            .query_row([pairing_id], pin_from_row)
            .optional()?)
    }

    /// The agent's latest pin through its active pairings (without its reading).
    pub fn latest_pin(&self, agent: &str) -> Result<Option<PinRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PIN_COLS} FROM pins JOIN pairings ON pairings.id = pins.pairing_id
                 WHERE pairings.agent = ?1 AND pairings.status = 'active'
                 ORDER BY pins.pinned_at DESC LIMIT 1"
            ))?
            .query_row([agent], pin_from_row)
            .optional()?)
    }

    /// A reading the agent may read, with its pin: the pin of one of its active pairings.
    pub fn agent_reading(&self, agent: &str, reading_id: &str) -> Result<Option<StoredReading>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PIN_COLS}, pins.reading_json, pins.text_state FROM pins JOIN pairings ON pairings.id = pins.pairing_id
                 WHERE pairings.agent = ?1 AND pairings.status = 'active' AND pins.reading_id = ?2"
            ))?
            .query_row([agent, reading_id], stored_reading)
            .optional()?)
    }

    /// Marks a reading's pin seen (the first time only). `true` when it was unread.
    pub fn mark_seen(&self, reading_id: &str, now: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "UPDATE pins SET seen_at = ?2 WHERE reading_id = ?1 AND seen_at IS NULL",
            )?
            .execute([reading_id, now])?
            > 0)
    }
}

type Job = Box<dyn FnOnce(&Store) + Send>;

/// The running hub's handle on the database: jobs go to the one thread that owns the [`Store`], and
/// their answers come back over a oneshot channel. Cloning it is cheap; the thread ends when the last
/// handle is dropped.
#[derive(Clone)]
pub struct Db {
    jobs: mpsc::Sender<Job>,
}

impl Db {
    /// Moves `store` to its own thread.
    pub fn spawn(store: Store) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("apc-hub-db".into())
            .spawn(move || {
                while let Ok(job) = queue.recv() {
                    // A panicking job drops its answer (the caller sees `Closed`), not the thread.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&store)));
                }
            })
            .expect("the database thread starts");
        Self { jobs }
    }

    /// Runs `f` on the database thread and returns its answer.
    pub async fn run<R, F>(&self, f: F) -> Result<R>
    where
        R: Send + 'static,
        F: FnOnce(&Store) -> Result<R> + Send + 'static,
    {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move |store| {
                let _ = answer.send(f(store));
            }))
            .map_err(|_| StoreError::Closed)?;
        answered.await.map_err(|_| StoreError::Closed)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_data_dir_and_every_file_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("data");
        // An older hub's data dir, world-readable, with a world-readable database.
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        drop(Store::open(&dir).unwrap());
        std::fs::set_permissions(
            dir.join("hub.sqlite3"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        let s = Store::open(&dir).unwrap();
        let a = s.add_agent("a", "t0").unwrap();
        let p = s
            .create_pairing(&a.handle, "page", &secrets::hash("g"), "t1", None)
            .unwrap();
        let pin = PinRow {
            pairing_id: p.id,
            reading_id: "rd_x".into(),
            app_url: "https://x.example".into(),
            pinned_at: "t2".into(),
            seen_at: None,
        };
        s.set_pin(&pin, "{}").unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(
            files.iter().any(|f| f.ends_with("hub.sqlite3-wal")),
            "{files:?}"
        );
        assert!(
            files.iter().any(|f| f.ends_with("hub.sqlite3-shm")),
            "{files:?}"
        );
        for file in &files {
            assert_eq!(mode(file), 0o600, "{}", file.display());
        }
    }

    #[test]
    fn a_pin_made_with_its_pairing_is_one_transaction() {
        let (_d, s) = store();
        let a = s.add_agent("a", "t0").unwrap();
        let pin = PinRow {
            pairing_id: String::new(),
            reading_id: "rd_first".into(),
            app_url: "https://x.example".into(),
            pinned_at: "t1".into(),
            seen_at: None,
        };
        let p = s
            .create_pairing(
                &a.handle,
                "page",
                &secrets::hash("g"),
                "t1",
                Some((&pin, "{\"r\":1}")),
            )
            .unwrap();
        let stored = s.agent_reading(&a.handle, "rd_first").unwrap().unwrap();
        assert_eq!(stored.pin.pairing_id, p.id);
        assert_eq!(stored.json, "{\"r\":1}");
        assert_eq!(stored.text, TextState::Whole);
        assert_eq!(
            s.latest_pin(&a.handle).unwrap().unwrap().reading_id,
            "rd_first"
        );
        // A failing pin (its reading id taken) leaves no pairing behind.
        let b = s.add_agent("b", "t0").unwrap();
        assert!(s
            .create_pairing(
                &b.handle,
                "page",
                &secrets::hash("g2"),
                "t2",
                Some((&pin, "{}"))
            )
            .is_err());
        assert!(s.active_pairing(&b.handle, "page").unwrap().is_none());
        assert!(s.pairing_by_grant("g2").unwrap().is_none());
    }

    #[test]
    fn the_dock_lists_every_agents_latest_pairing_per_app_in_one_query() {
        let (_d, s) = store();
        let a = s.add_agent("a", "t0").unwrap();
        let b = s.add_agent("b", "t0").unwrap();
        let old = s
            .create_pairing(&a.handle, "page", &secrets::hash("g1"), "t1", None)
            .unwrap();
        s.revoke_pairing(&old.id, "t2").unwrap();
        let new = s
            .create_pairing(&a.handle, "page", &secrets::hash("g2"), "t3", None)
            .unwrap();
        let pb = s
            .create_pairing(&b.handle, "page", &secrets::hash("g3"), "t3", None)
            .unwrap();
        s.set_pin(
            &PinRow {
                pairing_id: pb.id.clone(),
                reading_id: "rd_b".into(),
                app_url: "https://b.example".into(),
                pinned_at: "t4".into(),
                seen_at: None,
            },
            "{}",
        )
        .unwrap();
        let list = s.dock_pairings().unwrap();
        let ids: Vec<_> = list.iter().map(|d| d.pairing.id.as_str()).collect();
        assert_eq!(ids.len(), 2, "{ids:?}");
        assert!(ids.contains(&new.id.as_str()) && ids.contains(&pb.id.as_str()));
        let of_b = list.iter().find(|d| d.pairing.id == pb.id).unwrap();
        assert_eq!(of_b.pin.as_ref().unwrap().reading_id, "rd_b");
        assert!(list
            .iter()
            .find(|d| d.pairing.id == new.id)
            .unwrap()
            .pin
            .is_none());
    }

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        (dir, store)
    }

    #[test]
    fn agents_add_list_remove() {
        let (_d, s) = store();
        s.ensure_default_agent("default", "t0").unwrap();
        s.ensure_default_agent("default", "t0").unwrap();
        assert_eq!(s.agents().unwrap().len(), 1);
        let a = s.add_agent("claude", "t1").unwrap();
        assert!(matches!(
            s.add_agent("claude", "t2"),
            Err(StoreError::NameTaken(_))
        ));
        assert!(matches!(s.add_agent("-x", "t2"), Err(StoreError::BadName)));
        assert!(matches!(s.add_agent("", "t2"), Err(StoreError::BadName)));
        assert_eq!(
            s.agent_by_secret(&a.secret).unwrap().unwrap().handle,
            a.handle
        );
        assert!(s.agent_by_secret("nope").unwrap().is_none());
        s.remove_agent("claude").unwrap();
        assert!(s.agent_by_secret(&a.secret).unwrap().is_none());
        assert!(matches!(
            s.remove_agent("claude"),
            Err(StoreError::NoSuchAgent(_))
        ));
    }

    #[test]
    fn replacing_a_pairing_forgets_the_old_grant_and_revoke_keeps_it_revoked() {
        let (_d, s) = store();
        let a = s.add_agent("a", "t0").unwrap();
        let p1 = s
            .create_pairing(&a.handle, "page", &secrets::hash("g1"), "t1", None)
            .unwrap();
        let pin = PinRow {
            pairing_id: p1.id.clone(),
            reading_id: "rd_1".into(),
            app_url: "https://x.example/".into(),
            pinned_at: "t2".into(),
            seen_at: None,
        };
        s.set_pin(&pin, "{}").unwrap();
        assert_eq!(
            s.agent_reading(&a.handle, "rd_1")
                .unwrap()
                .unwrap()
                .pin
                .reading_id,
            "rd_1"
        );
        let p2 = s
            .create_pairing(&a.handle, "page", &secrets::hash("g2"), "t3", None)
            .unwrap();
        assert!(s.pairing_by_grant("g1").unwrap().is_none());
        assert!(s.agent_reading(&a.handle, "rd_1").unwrap().is_none());
        s.set_pin(
            &PinRow {
                pairing_id: p2.id.clone(),
                ..pin
            },
            "{}",
        )
        .unwrap();
        assert!(s.revoke_pairing(&p2.id, "t4").unwrap());
        let revoked = s.pairing_by_grant("g2").unwrap().unwrap();
        assert_eq!(revoked.status, PairingStatus::Revoked);
        assert!(s.pin(&p2.id).unwrap().is_none());
        assert!(!s.revoke_pairing(&p2.id, "t5").unwrap());
    }

    #[test]
    fn page_text_is_set_once_on_the_pairings_current_pin_only() {
        let (_d, s) = store();
        let a = s.add_agent("a", "t0").unwrap();
        let p = s
            .create_pairing(&a.handle, "page", &secrets::hash("g1"), "t1", None)
            .unwrap();
        let b = s.add_agent("b", "t0").unwrap();
        let other = s
            .create_pairing(&b.handle, "page", &secrets::hash("g2"), "t1", None)
            .unwrap();
        let pin = PinRow {
            pairing_id: p.id.clone(),
            reading_id: "rd_1".into(),
            app_url: "https://x.example".into(),
            pinned_at: "t2".into(),
            seen_at: None,
        };
        s.set_pin_text_coming(&pin, "{\"first\":1}").unwrap();
        let stored = s.pairing_reading(&p.id, "rd_1").unwrap().unwrap();
        assert_eq!(stored.text, TextState::Coming);
        assert_eq!(
            s.agent_reading(&a.handle, "rd_1").unwrap().unwrap().text,
            TextState::Coming
        );
        // Another pairing cannot reach it.
        assert!(s.pairing_reading(&other.id, "rd_1").unwrap().is_none());
        assert!(!s.set_page_text(&other.id, "rd_1", Some("{}")).unwrap());
        // Set once; a repeat changes nothing.
        assert!(s
            .set_page_text(&p.id, "rd_1", Some("{\"whole\":1}"))
            .unwrap());
        assert!(!s
            .set_page_text(&p.id, "rd_1", Some("{\"again\":1}"))
            .unwrap());
        assert!(!s.set_page_text(&p.id, "rd_1", None).unwrap());
        let stored = s.agent_reading(&a.handle, "rd_1").unwrap().unwrap();
        assert_eq!(
            (stored.json.as_str(), stored.text),
            ("{\"whole\":1}", TextState::Whole)
        );
        // A text that will not come leaves the reading as pinned; a newer pin starts afresh.
        let next = PinRow {
            reading_id: "rd_2".into(),
            ..pin
        };
        s.set_pin_text_coming(&next, "{\"second\":1}").unwrap();
        assert!(!s.set_page_text(&p.id, "rd_1", Some("{}")).unwrap());
        assert!(s.set_page_text(&p.id, "rd_2", None).unwrap());
        let stored = s.agent_reading(&a.handle, "rd_2").unwrap().unwrap();
        assert_eq!(
            (stored.json.as_str(), stored.text),
            ("{\"second\":1}", TextState::Missing)
        );
    }

    #[test]
    fn a_database_from_before_text_state_opens_with_every_pin_whole() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join("hub.sqlite3")).unwrap();
            conn.execute_batch(
                &SCHEMA.replace(
                    ",\n    text_state TEXT NOT NULL DEFAULT 'whole' CHECK (text_state IN ('whole', 'coming', 'missing'))",
                    "",
                ),
            )
            .unwrap();
            conn.execute_batch(
                "INSERT INTO agents VALUES ('ag', 'a', 's', x'00', 't');
                 INSERT INTO pairings (id, agent, app, grant_hash, status, created_at) VALUES ('pa', 'ag', 'page', x'01', 'active', 't');
                 INSERT INTO pins (pairing_id, reading_id, reading_json, app_url, pinned_at) VALUES ('pa', 'rd_old', '{}', 'https://x.example', 't');",
            )
            .unwrap();
            assert!(!conn
                .prepare("SELECT 1 FROM pragma_table_info('pins') WHERE name = 'text_state'")
                .unwrap()
                .exists([])
                .unwrap());
        }
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(
            s.agent_reading("ag", "rd_old").unwrap().unwrap().text,
            TextState::Whole
        );
        // Opened again: the column is there, nothing is added twice.
        drop(s);
        Store::open(dir.path()).unwrap();
    }
}
