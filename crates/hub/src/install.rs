//! `apc-hub install` and `apc-hub uninstall`: the hub registered to start at login and after a
//! crash, as the system does it ([`crate::service`]), for the person alone (no root, no
//! administrator). Both are idempotent and say what they did and how to undo it.
//!
//! `install` copies the running binary to the person's own program folder (`~/.local/bin`,
//! `%LOCALAPPDATA%\Programs\apc-hub`) unless it runs from there, so the service keeps working when
//! the download is deleted and MCP clients have one stable path to run (`apc-hub mcp`); writes the
//! service's definition (serving the data directory this command uses, which stays where it is);
//! registers and starts it; and waits until the hub answers. Run again, it changes only what
//! differs (a new binary or address restarts the service). `uninstall` stops and removes the
//! service and the copied binary; the data directory is kept, and it says where.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::instance::{self, Probe};
use crate::places::{Os, Places};
use crate::service::{self, Spec};

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("the service serves on this computer only: --listen {0} is not a loopback address. Run `apc-hub serve --allow-remote …` yourself for a hub other machines reach.")]
    NotLoopback(SocketAddr),
    #[error("{0}")]
    Io(String),
    /// Everything is written, but the system's service manager could not start it.
    #[error("{0}")]
    NotStarted(String),
}

fn io(what: &str, path: &Path, e: std::io::Error) -> InstallError {
    InstallError::Io(format!("could not {what} {}: {e}", path.display()))
}

/// Copies `from` to `to` (through a file beside it, renamed over: a running copy is not cut).
fn copy_binary(from: &Path, to: &Path) -> Result<(), InstallError> {
    let dir = to.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
    let tmp = dir.join(".apc-hub.install-tmp");
    std::fs::copy(from, &tmp).map_err(|e| io("copy the binary to", &tmp, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| io("set the mode of", &tmp, e))?;
    }
    std::fs::rename(&tmp, to).map_err(|e| io("replace", to, e))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn same_bytes(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Waits up to `limit` for a hub to hold the data directory's lock and say where it serves.
fn wait_for_hub(data_dir: &Path, limit: Duration) -> Option<instance::RunInfo> {
    let until = Instant::now() + limit;
    loop {
        if let Ok(Probe::Running(Some(info))) = instance::probe(data_dir) {
            return Some(info);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// What `install` does: its report, line by line, and whether it all succeeded.
pub fn install(
    places: &Places,
    data_dir: &Path,
    listen: SocketAddr,
    out: &mut Vec<String>,
) -> Result<(), InstallError> {
    if !listen.ip().is_loopback() {
        return Err(InstallError::NotLoopback(listen));
    }
    let current = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| InstallError::Io(format!("could not find this program's file: {e}")))?;
    let exe = places.installed_exe();
    let mut changed = false;
    let was_running = matches!(instance::probe(data_dir), Ok(Probe::Running(_)));
    let was_installed = service::definition_path(places).exists();
    if same_file(&current, &exe) {
        out.push(format!("The binary is already in place: {}", exe.display()));
    } else if exe.exists() && same_bytes(&current, &exe) {
        out.push(format!("{} is already this version.", exe.display()));
    } else {
        if places.os == Os::Windows && was_installed {
            // A running .exe cannot be replaced on Windows: stop the task first.
            let _ = service::deactivate(places);
        }
        copy_binary(&current, &exe)?;
        changed = true;
        out.push(format!("Copied apc-hub to {}", exe.display()));
    }
    if let Some(path) = std::env::var_os("PATH") {
        let bin = places.bin_dir();
        if !std::env::split_paths(&path).any(|p| same_file(&p, &bin) || p == bin) {
            out.push(format!(
                "Note: {} is not on your PATH; MCP clients are given its full path.",
                bin.display()
            ));
        }
    }

    std::fs::create_dir_all(data_dir).map_err(|e| io("create", data_dir, e))?;
    let spec = Spec {
        exe: exe.clone(),
        listen: listen.to_string(),
        data_dir: std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_owned()),
        log_dir: places.log_dir(),
    };
    if let Some(dir) = &spec.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
    }
    let path = service::definition_path(places);
    let bytes = service::definition(places, &spec);
    if std::fs::read(&path).ok().as_deref() == Some(&bytes[..]) {
        out.push(format!(
            "The service is already defined: {}",
            path.display()
        ));
    } else {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
        let tmp = dir.join(".apc-hub.service-tmp");
        std::fs::write(&tmp, &bytes).map_err(|e| io("write", &tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| io("write", &path, e))?;
        changed = true;
        out.push(format!("Wrote the service: {}", path.display()));
    }
    out.push(format!(
        "It serves {} on {} (your data stays there).",
        spec.data_dir.display(),
        spec.listen
    ));
    if was_running && !was_installed {
        out.push(
            "A hub started by hand is running on this data; the service takes over when it stops."
                .into(),
        );
    }

    let manager = match places.os {
        Os::Linux => "your user's systemd (systemctl --user)",
        Os::MacOs => "launchd (launchctl)",
        Os::Windows => "Task Scheduler (schtasks)",
    };
    if let Err(why) = service::activate(places, changed) {
        let how = match places.os {
            Os::Linux => format!("systemctl --user enable --now {}", service::SYSTEMD_UNIT),
            Os::MacOs => format!("launchctl bootstrap gui/$(id -u) {}", path.display()),
            Os::Windows => format!(
                "schtasks /Create /TN {} /XML \"{}\" /F",
                service::TASK_NAME,
                path.display()
            ),
        };
        return Err(InstallError::NotStarted(format!(
            "The service is written, but {manager} did not start it: {why}\nStart it once you are in a session that has it: {how}\nUndo: apc-hub uninstall"
        )));
    }
    out.push(format!(
        "Registered with {manager}: it starts at every login and again after a crash."
    ));
    match wait_for_hub(data_dir, Duration::from_secs(15)) {
        Some(info) => {
            out.push(format!(
                "The hub answers at {} (process {}). Dock page: {}/",
                info.origin, info.pid, info.origin
            ));
        }
        None => {
            return Err(InstallError::NotStarted(format!(
                "The service is registered but no hub answered within 15 s. See why: {}\nUndo: apc-hub uninstall",
                service::logs_hint(places)
            )))
        }
    }
    out.push("Next: connect your MCP client with `apc-hub connect` (lists them all).".into());
    out.push(format!(
        "Undo: apc-hub uninstall (stops it; your data in {} stays).",
        spec.data_dir.display()
    ));
    Ok(())
}

/// Stops a hub still holding `data_dir` after its service stopped (Windows ends only the task's
/// own process): by its process id, then waits for the lock to free.
fn stop_leftover(data_dir: &Path) -> Option<u32> {
    let Ok(Probe::Running(Some(info))) = instance::probe(data_dir) else {
        return None;
    };
    #[cfg(unix)]
    // SAFETY: kill sends a signal to the process the running hub said it is.
    unsafe {
        libc::kill(info.pid as i32, libc::SIGTERM);
    }
    #[cfg(windows)]
    {
        let _ = std::process::Command::new("taskkill")
            .args(["/PID", &info.pid.to_string(), "/F"])
            .output();
    }
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if matches!(instance::probe(data_dir), Ok(Probe::Stopped)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(info.pid)
}

/// What `uninstall` does, line by line. Removes only what `install` made.
pub fn uninstall(
    places: &Places,
    data_dir: &Path,
    out: &mut Vec<String>,
) -> Result<(), InstallError> {
    let path = service::definition_path(places);
    let installed = path.exists();
    if installed {
        let _ = service::deactivate(places);
        std::fs::remove_file(&path).map_err(|e| io("remove", &path, e))?;
        out.push(format!(
            "Stopped and removed the service: {}",
            path.display()
        ));
        if places.os == Os::Linux {
            let _ = std::process::Command::new("systemctl")
                .args(["--user", "daemon-reload"])
                .output();
        }
        if let Some(pid) = stop_leftover(data_dir) {
            out.push(format!("Stopped the hub it had started (process {pid})."));
        }
    } else {
        out.push("No service was installed.".into());
    }
    let exe = places.installed_exe();
    let current = std::env::current_exe().ok();
    if exe.exists() {
        let running_it = current.as_deref().is_some_and(|c| same_file(c, &exe));
        if running_it && places.os == Os::Windows {
            out.push(format!(
                "{} is the program running now, which Windows cannot delete: delete it once this window closes.",
                exe.display()
            ));
        } else {
            std::fs::remove_file(&exe).map_err(|e| io("remove", &exe, e))?;
            out.push(format!("Removed {}", exe.display()));
            if let Some(dir) = exe.parent().filter(|_| places.os == Os::Windows) {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
    if let Some(dir) = places.log_dir() {
        if dir.exists() {
            out.push(format!("The service's log is kept in {}.", dir.display()));
        }
    }
    out.push(format!(
        "Your data stays in {}: your agents, their MCP URLs and pairings come back with `apc-hub install`. Delete that folder to forget them.",
        data_dir.display()
    ));
    Ok(())
}

/// The address the installed service listens on, as its definition says, if one is written.
pub fn installed_listen(places: &Places) -> Option<SocketAddr> {
    let bytes = std::fs::read(service::definition_path(places)).ok()?;
    let text = match places.os {
        Os::Windows => {
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => String::from_utf8_lossy(&bytes).into_owned(),
    };
    let at = text.find("--listen")? + "--listen".len();
    text[at..]
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>' | '&' | ';'))
        .find_map(|w| w.parse().ok())
}

/// The installed binary, if `install` put one there; else this one.
pub fn exe_for_clients(places: &Places) -> PathBuf {
    let installed = places.installed_exe();
    if installed.exists() {
        return installed;
    }
    std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .unwrap_or(installed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installed_address_reads_back_from_every_systems_definition() {
        let home = tempfile::tempdir().unwrap();
        for os in [Os::Linux, Os::MacOs, Os::Windows] {
            let places = Places::in_home(os, home.path());
            let spec = Spec {
                exe: places.installed_exe(),
                listen: "127.0.0.1:7499".into(),
                data_dir: home.path().join("data"),
                log_dir: places.log_dir(),
            };
            let path = service::definition_path(&places);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, service::definition(&places, &spec)).unwrap();
            assert_eq!(
                installed_listen(&places),
                Some("127.0.0.1:7499".parse().unwrap()),
                "{os:?}"
            );
        }
    }
}
