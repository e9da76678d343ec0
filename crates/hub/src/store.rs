//! The hub's SQLite database (`hub.sqlite3` in the data dir): agents, grant hashes, pairings, pins
//! and their readings, and the origin the hub last served from. Tickets are not stored: they live five
//! minutes at most and a restart simply retires them.
//!
//! A pairing's grant is kept only as its SHA-256. A pin holds its reading; replacing, unpinning,
//! revoking or giving back deletes the row, and so the reading. A revoked pairing's row stays (status
//! `revoked`, no pin) so that its grant answers "revoked" forever; a replaced or given-back pairing's
//! row is deleted, so its grant is unknown from then on.

use std::path::Path;
use std::sync::Mutex;

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinRow {
    pub pairing_id: String,
    pub reading_id: String,
    pub reading_json: String,
    pub app_url: String,
    pub pinned_at: String,
    pub seen_at: Option<String>,
}

/// One line of the dock's pairings list.
#[derive(Debug, Clone)]
pub struct DockPairing {
    pub pairing: PairingRow,
    pub pin: Option<PinRow>,
}

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
CREATE TABLE IF NOT EXISTS pins (
    pairing_id TEXT PRIMARY KEY REFERENCES pairings(id) ON DELETE CASCADE,
    reading_id TEXT NOT NULL UNIQUE,
    reading_json TEXT NOT NULL,
    app_url TEXT NOT NULL,
    pinned_at TEXT NOT NULL,
    seen_at TEXT
);
";

pub struct Store {
    conn: Mutex<Connection>,
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

fn pin_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PinRow> {
    Ok(PinRow {
        pairing_id: row.get(0)?,
        reading_id: row.get(1)?,
        reading_json: row.get(2)?,
        app_url: row.get(3)?,
        pinned_at: row.get(4)?,
        seen_at: row.get(5)?,
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

const PAIRING_COLS: &str = "id, agent, app, status, created_at, revoked_at";
const PIN_COLS: &str = "pins.pairing_id, pins.reading_id, pins.reading_json, pins.app_url, pins.pinned_at, pins.seen_at";

impl Store {
    /// Opens (and creates) `hub.sqlite3` in `data_dir`.
    pub fn open(data_dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| StoreError::DataDir(data_dir.display().to_string(), e))?;
        let conn = Connection::open(data_dir.join("hub.sqlite3"))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;")?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written (each call is one
        // statement or one transaction), so a poisoned lock is still safe to use.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.conn().execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )?;
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
        let conn = self.conn();
        let taken: bool = conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM agents WHERE name = ?1)",
            [name],
            |r| r.get(0),
        )?;
        if taken {
            return Err(StoreError::NameTaken(name.to_owned()));
        }
        conn.execute(
            "INSERT INTO agents (handle, name, secret, secret_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![agent.handle, agent.name, agent.secret, secrets::hash(&agent.secret), agent.created_at],
        )?;
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
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT handle, name, secret, created_at FROM agents ORDER BY created_at, name",
        )?;
        let rows = stmt.query_map([], agent_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes the agent and, with it, its pairings, pins and readings.
    pub fn remove_agent(&self, name: &str) -> Result<Agent> {
        let agent = self
            .agents()?
            .into_iter()
            .find(|a| a.name == name.trim())
            .ok_or_else(|| StoreError::NoSuchAgent(name.to_owned()))?;
        self.conn()
            .execute("DELETE FROM agents WHERE handle = ?1", [&agent.handle])?;
        Ok(agent)
    }

    pub fn agent_by_handle(&self, handle: &str) -> Result<Option<Agent>> {
        Ok(self
            .conn()
            .query_row(
                "SELECT handle, name, secret, created_at FROM agents WHERE handle = ?1",
                [handle],
                agent_from_row,
            )
            .optional()?)
    }

    /// The agent whose MCP URL secret this is. Looked up by its hash, then compared in constant time.
    pub fn agent_by_secret(&self, secret: &str) -> Result<Option<Agent>> {
        let hash = secrets::hash(secret);
        let found = self
            .conn()
            .query_row(
                "SELECT handle, name, secret, created_at FROM agents WHERE secret_hash = ?1",
                [&hash],
                agent_from_row,
            )
            .optional()?;
        Ok(found.filter(|a| secrets::ct_eq(a.secret.as_bytes(), secret.as_bytes())))
    }

    // --- pairings ---

    /// A new active pairing of `agent` with `app`, keeping only `grant_hash`. An active pairing of the
    /// same agent and app is replaced: its row, pin and reading go, and its grant becomes unknown.
    pub fn create_pairing(
        &self,
        agent: &str,
        app: &str,
        grant_hash: &[u8],
        now: &str,
    ) -> Result<PairingRow> {
        let row = PairingRow {
            id: secrets::new_pairing_id(),
            agent: agent.to_owned(),
            app: app.to_owned(),
            status: PairingStatus::Active,
            created_at: now.to_owned(),
            revoked_at: None,
        };
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM pairings WHERE agent = ?1 AND app = ?2 AND status = 'active'",
            [agent, app],
        )?;
        tx.execute(
            "INSERT INTO pairings (id, agent, app, grant_hash, status, created_at) VALUES (?1, ?2, ?3, ?4, 'active', ?5)",
            params![row.id, row.agent, row.app, grant_hash, row.created_at],
        )?;
        tx.commit()?;
        Ok(row)
    }

    /// The pairing a grant opens, active or revoked; `None` for a grant the hub does not know.
    pub fn pairing_by_grant(&self, grant: &str) -> Result<Option<PairingRow>> {
        let hash = secrets::hash(grant);
        let conn = self.conn();
        let found = conn
            .query_row(
                &format!("SELECT {PAIRING_COLS}, grant_hash FROM pairings WHERE grant_hash = ?1"),
                [&hash],
                |r| Ok((pairing_from_row(r)?, r.get::<_, Vec<u8>>(6)?)),
            )
            .optional()?;
        Ok(found
            .filter(|(_, stored)| secrets::ct_eq(stored, &hash))
            .map(|(p, _)| p))
    }

    pub fn pairing(&self, id: &str) -> Result<Option<PairingRow>> {
        Ok(self
            .conn()
            .query_row(
                &format!("SELECT {PAIRING_COLS} FROM pairings WHERE id = ?1"),
                [id],
                pairing_from_row,
            )
            .optional()?)
    }

    /// The agent's active pairing with `app`.
    pub fn active_pairing(&self, agent: &str, app: &str) -> Result<Option<PairingRow>> {
        Ok(self
            .conn()
            .query_row(
                &format!("SELECT {PAIRING_COLS} FROM pairings WHERE agent = ?1 AND app = ?2 AND status = 'active'"),
                [agent, app],
                pairing_from_row,
            )
            .optional()?)
    }

    /// Revokes a pairing: it stays, marked revoked, and its pin and reading go. `false` when there is
    /// no active pairing with that id.
    pub fn revoke_pairing(&self, id: &str, now: &str) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let changed = tx.execute(
            "UPDATE pairings SET status = 'revoked', revoked_at = ?2 WHERE id = ?1 AND status = 'active'",
            [id, now],
        )?;
        tx.execute("DELETE FROM pins WHERE pairing_id = ?1", [id])?;
        tx.commit()?;
        Ok(changed > 0)
    }

    /// Forgets a pairing whose grant was given back: the row, pin and reading go.
    pub fn delete_pairing(&self, id: &str) -> Result<()> {
        self.conn()
            .execute("DELETE FROM pairings WHERE id = ?1", [id])?;
        Ok(())
    }

    /// Every agent's pairings for the dock: active ones, and revoked ones not yet replaced.
    pub fn dock_pairings(&self, agent: &str) -> Result<Vec<DockPairing>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {PAIRING_COLS} FROM pairings WHERE agent = ?1 ORDER BY created_at DESC"
        ))?;
        let pairings: Vec<PairingRow> = stmt
            .query_map([agent], pairing_from_row)?
            .collect::<rusqlite::Result<_>>()?;
        let mut out = Vec::new();
        let mut shown_apps = std::collections::HashSet::new();
        for pairing in pairings {
            // The latest pairing per app: an active one, or the revoked one nothing replaced.
            if !shown_apps.insert(pairing.app.clone()) {
                continue;
            }
            let pin = conn
                .query_row(
                    &format!("SELECT {PIN_COLS} FROM pins WHERE pairing_id = ?1"),
                    [&pairing.id],
                    pin_from_row,
                )
                .optional()?;
            out.push(DockPairing { pairing, pin });
        }
        Ok(out)
    }

    // --- pins and readings ---

    /// Sets the pairing's one pin, dropping the reading it replaces.
    pub fn set_pin(&self, pin: &PinRow) -> Result<()> {
        self.conn().execute(
            "INSERT INTO pins (pairing_id, reading_id, reading_json, app_url, pinned_at, seen_at)
             VALUES (?1, ?2, ?3, ?4, ?5, NULL)
             ON CONFLICT(pairing_id) DO UPDATE SET reading_id = excluded.reading_id,
               reading_json = excluded.reading_json, app_url = excluded.app_url,
               pinned_at = excluded.pinned_at, seen_at = NULL",
            params![
                pin.pairing_id,
                pin.reading_id,
                pin.reading_json,
                pin.app_url,
                pin.pinned_at
            ],
        )?;
        Ok(())
    }

    /// Unpins: the pin and its reading go. `false` when there was none.
    pub fn delete_pin(&self, pairing_id: &str) -> Result<bool> {
        Ok(self
            .conn()
            .execute("DELETE FROM pins WHERE pairing_id = ?1", [pairing_id])?
            > 0)
    }

    pub fn pin(&self, pairing_id: &str) -> Result<Option<PinRow>> {
        Ok(self
            .conn()
            .query_row(
                &format!("SELECT {PIN_COLS} FROM pins WHERE pairing_id = ?1"),
                [pairing_id],
                pin_from_row,
            )
            .optional()?)
    }

    /// The agent's pins through its active pairings, latest first.
    pub fn agent_pins(&self, agent: &str) -> Result<Vec<PinRow>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {PIN_COLS} FROM pins JOIN pairings ON pairings.id = pins.pairing_id
             WHERE pairings.agent = ?1 AND pairings.status = 'active' ORDER BY pins.pinned_at DESC"
        ))?;
        let rows = stmt.query_map([agent], pin_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A reading the agent may read: the pin of one of its active pairings.
    pub fn agent_reading(&self, agent: &str, reading_id: &str) -> Result<Option<PinRow>> {
        Ok(self
            .conn()
            .query_row(
                &format!(
                    "SELECT {PIN_COLS} FROM pins JOIN pairings ON pairings.id = pins.pairing_id
                     WHERE pairings.agent = ?1 AND pairings.status = 'active' AND pins.reading_id = ?2"
                ),
                [agent, reading_id],
                pin_from_row,
            )
            .optional()?)
    }

    /// Marks a reading's pin seen (the first time only).
    pub fn mark_seen(&self, reading_id: &str, now: &str) -> Result<()> {
        self.conn().execute(
            "UPDATE pins SET seen_at = ?2 WHERE reading_id = ?1 AND seen_at IS NULL",
            [reading_id, now],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            .create_pairing(&a.handle, "page", &secrets::hash("g1"), "t1")
            .unwrap();
        let pin = PinRow {
            pairing_id: p1.id.clone(),
            reading_id: "rd_1".into(),
            reading_json: "{}".into(),
            app_url: "https://x.example/".into(),
            pinned_at: "t2".into(),
            seen_at: None,
        };
        s.set_pin(&pin).unwrap();
        assert_eq!(
            s.agent_reading(&a.handle, "rd_1")
                .unwrap()
                .unwrap()
                .reading_id,
            "rd_1"
        );
        let p2 = s
            .create_pairing(&a.handle, "page", &secrets::hash("g2"), "t3")
            .unwrap();
        assert!(s.pairing_by_grant("g1").unwrap().is_none());
        assert!(s.agent_reading(&a.handle, "rd_1").unwrap().is_none());
        s.set_pin(&PinRow {
            pairing_id: p2.id.clone(),
            ..pin
        })
        .unwrap();
        assert!(s.revoke_pairing(&p2.id, "t4").unwrap());
        let revoked = s.pairing_by_grant("g2").unwrap().unwrap();
        assert_eq!(revoked.status, PairingStatus::Revoked);
        assert!(s.pin(&p2.id).unwrap().is_none());
        assert!(!s.revoke_pairing(&p2.id, "t5").unwrap());
    }
}
