//! One hub per data directory. `serve` holds an OS lock on `hub.lock` in the data directory for as
//! long as the process lives (released by the OS however it ends, `kill -9` included), so a second
//! `apc-hub` on the same data refuses to start instead of becoming a second writer of the database
//! with its own tickets and pin signals. Beside the lock it keeps `hub.run.json` (`RunInfo`: process
//! id, origin, version, start time) for `status` and for `apc-hub mcp` to find it; the file is only
//! believed while the lock is held, since a killed hub leaves it behind.
//!
//! The lock is `std::fs::File::try_lock`: `flock` on Linux and macOS, `LockFileEx` on Windows. A
//! probe ([`probe`]) takes the lock for an instant to learn whether a hub holds it; a hub starting
//! at that instant retries for a moment before it calls the directory taken.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The lock file, in the data directory.
pub const LOCK_FILE: &str = "hub.lock";
/// Where the running hub says where it is, in the data directory.
pub const RUN_FILE: &str = "hub.run.json";
/// The exit status of an `apc-hub` that refused to start because another serves its data.
pub const EXIT_ALREADY_RUNNING: u8 = 3;

/// What a running hub says about itself in [`RUN_FILE`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    pub pid: u32,
    pub origin: String,
    pub version: String,
    pub started_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum InstanceError {
    #[error("another apc-hub is already serving the data in {dir}{at}. It keeps running; this one stops. See it with `apc-hub status`, stop it first, or give this one another --data-dir.")]
    AlreadyRunning { dir: String, at: String },
    #[error("could not lock {0}: {1}")]
    Io(String, std::io::Error),
}

/// The lock of a data directory, held by the hub that serves it.
#[derive(Debug)]
pub struct Instance {
    _lock: File,
    run_file: PathBuf,
}

fn open_lock(data_dir: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(data_dir.join(LOCK_FILE))
}

/// Takes the data directory's lock, or says which hub holds it. Tries for about half a second, so
/// that a [`probe`] holding it for an instant does not turn a starting hub away.
pub fn acquire(data_dir: &Path) -> Result<Instance, InstanceError> {
    let io = |e| InstanceError::Io(data_dir.join(LOCK_FILE).display().to_string(), e);
    let file = open_lock(data_dir).map_err(io)?;
    for attempt in 0.. {
        match file.try_lock() {
            Ok(()) => {
                return Ok(Instance {
                    _lock: file,
                    run_file: data_dir.join(RUN_FILE),
                })
            }
            Err(TryLockError::WouldBlock) if attempt < 10 => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(TryLockError::WouldBlock) => break,
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
    }
    let at = match read_run_info(data_dir) {
        Some(info) => format!(" at {} (process {})", info.origin, info.pid),
        None => String::new(),
    };
    Err(InstanceError::AlreadyRunning {
        dir: data_dir.display().to_string(),
        at,
    })
}

impl Instance {
    /// Writes [`RUN_FILE`] for the hub now serving at `origin` (atomically: written beside, then
    /// renamed over the old one).
    pub fn announce(&self, origin: &str) -> std::io::Result<()> {
        let info = RunInfo {
            pid: std::process::id(),
            origin: origin.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            started_at: crate::state::now(),
        };
        let json = serde_json::to_vec_pretty(&info).map_err(std::io::Error::other)?;
        let tmp = self.run_file.with_extension("json.tmp");
        {
            let mut f = File::create(&tmp)?;
            f.write_all(&json)?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, &self.run_file)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.run_file);
    }
}

/// [`RUN_FILE`] as the last hub wrote it (whether or not that hub still runs).
pub fn read_run_info(data_dir: &Path) -> Option<RunInfo> {
    let text = std::fs::read(data_dir.join(RUN_FILE)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// Whether a hub serves the data in `data_dir` now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A hub holds the lock; what it said about itself, if it has said it yet.
    Running(Option<RunInfo>),
    /// No hub holds the lock.
    Stopped,
}

/// Whether a hub holds the data directory's lock (taking it for an instant when none does). A
/// directory that does not exist has no hub.
pub fn probe(data_dir: &Path) -> std::io::Result<Probe> {
    let path = data_dir.join(LOCK_FILE);
    let file = match OpenOptions::new().write(true).open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Probe::Stopped),
        Err(e) => return Err(e),
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            Ok(Probe::Stopped)
        }
        Err(TryLockError::WouldBlock) => Ok(Probe::Running(read_run_info(data_dir))),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_data_dir_is_refused_and_freed_with_the_first() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(probe(dir.path()).unwrap(), Probe::Stopped);
        let first = acquire(dir.path()).unwrap();
        first.announce("http://127.0.0.1:7410").unwrap();
        match probe(dir.path()).unwrap() {
            Probe::Running(Some(info)) => {
                assert_eq!(info.origin, "http://127.0.0.1:7410");
                assert_eq!(info.pid, std::process::id());
            }
            other => panic!("{other:?}"),
        }
        let refused = acquire(dir.path()).unwrap_err().to_string();
        assert!(refused.contains("already serving"), "{refused}");
        assert!(refused.contains("http://127.0.0.1:7410"), "{refused}");
        // Another data directory is another hub's.
        let other = tempfile::tempdir().unwrap();
        drop(acquire(other.path()).unwrap());
        drop(first);
        assert_eq!(probe(dir.path()).unwrap(), Probe::Stopped);
        assert!(read_run_info(dir.path()).is_none(), "the run file goes");
        drop(acquire(dir.path()).unwrap());
    }
}
