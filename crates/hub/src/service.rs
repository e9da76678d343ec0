//! The hub as each system starts a person's program at login and again after a crash, without
//! root: the definitions (`systemd_unit`, `launchd_plist`, `task_xml`: plain text, built and tested
//! on any system) and the commands that register, start, query and remove them (run only on their
//! own system).
//!
//! - Linux: a systemd user unit, `~/.config/systemd/user/apc-hub.service` (`$XDG_CONFIG_HOME`),
//!   `Restart=on-failure` every 5 s with no start limit, enabled for `default.target`; logs in the
//!   user's journal (`journalctl --user -u apc-hub`).
//! - macOS: a launchd agent, `~/Library/LaunchAgents/local.apc-hub.plist`, `RunAtLoad`, `KeepAlive`
//!   unless it exited cleanly (restarted at most every 10 s), loaded with
//!   `launchctl bootstrap gui/$UID`; logs in `~/Library/Logs/apc-hub/hub.log`.
//! - Windows: a Task Scheduler task `apc-hub` for the person, triggered at their logon, run with
//!   their own token at the lowest privileges, registered with `schtasks /Create /XML`. Task
//!   Scheduler's `RestartOnFailure` only covers a task that fails to start, so the task runs
//!   `apc-hub service-run`, which runs `apc-hub serve` and starts it again after a crash
//!   ([`supervise`]); logs in `%LOCALAPPDATA%\apc-hub\logs\hub.log`.
//!
//! The service always runs `serve --quiet` (the first line only, no MCP URLs in any log) with the
//! listen address and data directory written out in full, so it serves the same data the person's
//! own `apc-hub` commands use.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::places::{Os, Places};

/// The systemd unit's name.
pub const SYSTEMD_UNIT: &str = "apc-hub.service";
/// The launchd agent's label.
pub const LAUNCHD_LABEL: &str = "local.apc-hub";
/// The Task Scheduler task's name.
pub const TASK_NAME: &str = "apc-hub";
const DESCRIPTION: &str =
    "APC hub: the local hub your MCP clients and the APC Page browser extension connect to";

/// What the service runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The installed binary.
    pub exe: PathBuf,
    /// `--listen` (loopback).
    pub listen: String,
    pub data_dir: PathBuf,
    /// Where the service's output goes, where the system keeps none itself.
    pub log_dir: Option<PathBuf>,
}

impl Spec {
    /// The arguments after the binary: `serve --quiet --listen ADDR --data-dir DIR`.
    pub fn serve_args(&self) -> Vec<String> {
        vec![
            "serve".into(),
            "--quiet".into(),
            "--listen".into(),
            self.listen.clone(),
            "--data-dir".into(),
            self.data_dir.to_string_lossy().into_owned(),
        ]
    }
}

/// Where the service's definition is written.
pub fn definition_path(places: &Places) -> PathBuf {
    match places.os {
        Os::Linux => places
            .app_config_dir()
            .join("systemd")
            .join("user")
            .join(SYSTEMD_UNIT),
        Os::MacOs => places
            .home
            .join("Library")
            .join("LaunchAgents")
            .join(format!("{LAUNCHD_LABEL}.plist")),
        // The task lives in Task Scheduler; this copy of its XML is what `schtasks` was given.
        Os::Windows => places
            .local_appdata
            .clone()
            .unwrap_or_else(|| places.home.join("AppData").join("Local"))
            .join("apc-hub")
            .join("apc-hub-task.xml"),
    }
}

/// One `ExecStart` word: quoted, with systemd's specifiers (`%`) and variables (`$`) escaped.
fn systemd_word(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '%' => out.push_str("%%"),
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The systemd user unit.
pub fn systemd_unit(spec: &Spec) -> String {
    let mut exec = systemd_word(&spec.exe.to_string_lossy());
    for arg in spec.serve_args() {
        exec.push(' ');
        exec.push_str(&systemd_word(&arg));
    }
    format!(
        "# Written by `apc-hub install`; `apc-hub uninstall` removes it (your data stays).\n\
[Unit]\n\
Description={DESCRIPTION}\n\
# Never give up restarting it: a hub that crashes comes back, every 5 s at most.\n\
StartLimitIntervalSec=0\n\
\n\
[Service]\n\
Type=simple\n\
ExecStart={exec}\n\
Restart=on-failure\n\
RestartSec=5\n\
UMask=0077\n\
NoNewPrivileges=yes\n\
\n\
[Install]\n\
WantedBy=default.target\n"
    )
}

/// `s` as XML text.
pub fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The launchd agent's property list.
pub fn launchd_plist(spec: &Spec) -> String {
    let mut args = format!(
        "    <string>{}</string>\n",
        xml_escape(&spec.exe.to_string_lossy())
    );
    for arg in spec.serve_args() {
        args.push_str(&format!("    <string>{}</string>\n", xml_escape(&arg)));
    }
    let log = spec
        .log_dir
        .clone()
        .unwrap_or_else(|| spec.data_dir.clone())
        .join("hub.log");
    let log = xml_escape(&log.to_string_lossy());
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by `apc-hub install`; `apc-hub uninstall` removes it (your data stays). -->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>{LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
{args}  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>10</integer>
  <key>StandardOutPath</key>
  <string>{log}</string>
  <key>StandardErrorPath</key>
  <string>{log}</string>
</dict>
</plist>
"#
    )
}

/// One argument of a Windows command line, quoted as `CommandLineToArgvW` reads it.
fn windows_arg(s: &str) -> String {
    if !s.is_empty() && !s.contains([' ', '\t', '"']) {
        return s.to_owned();
    }
    let mut out = String::from("\"");
    let mut backslashes = 0;
    for c in s.chars() {
        match c {
            '\\' => backslashes += 1,
            '"' => {
                out.push_str(&"\\".repeat(backslashes * 2 + 1));
                out.push('"');
                backslashes = 0;
            }
            c => {
                out.push_str(&"\\".repeat(backslashes));
                out.push(c);
                backslashes = 0;
            }
        }
    }
    out.push_str(&"\\".repeat(backslashes * 2));
    out.push('"');
    out
}

/// The Task Scheduler task for `user` (`DOMAIN\name`): at their logon, as them, with the lowest
/// privileges, never stopped for running long, started again if it fails to start.
pub fn task_xml(spec: &Spec, user: &str) -> String {
    let mut args = vec!["service-run".to_owned()];
    args.extend(spec.serve_args().into_iter().skip(1));
    let arguments = args
        .iter()
        .map(|a| windows_arg(a))
        .collect::<Vec<_>>()
        .join(" ");
    let user = xml_escape(user);
    format!(
        r#"<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>{description} (written by apc-hub install; apc-hub uninstall removes it)</Description>
    <URI>\{TASK_NAME}</URI>
  </RegistrationInfo>
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>
      <UserId>{user}</UserId>
    </LogonTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">
      <UserId>{user}</UserId>
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <AllowHardTerminate>true</AllowHardTerminate>
    <StartWhenAvailable>true</StartWhenAvailable>
    <RunOnlyIfNetworkAvailable>false</RunOnlyIfNetworkAvailable>
    <IdleSettings>
      <StopOnIdleEnd>false</StopOnIdleEnd>
      <RestartOnIdle>false</RestartOnIdle>
    </IdleSettings>
    <AllowStartOnDemand>true</AllowStartOnDemand>
    <Enabled>true</Enabled>
    <Hidden>false</Hidden>
    <RunOnlyIfIdle>false</RunOnlyIfIdle>
    <WakeToRun>false</WakeToRun>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <Priority>7</Priority>
    <RestartOnFailure>
      <Interval>PT1M</Interval>
      <Count>255</Count>
    </RestartOnFailure>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>{command}</Command>
      <Arguments>{arguments}</Arguments>
    </Exec>
  </Actions>
</Task>
"#,
        description = xml_escape(DESCRIPTION),
        command = xml_escape(&spec.exe.to_string_lossy()),
        arguments = xml_escape(&arguments),
    )
}

/// `text` as UTF-16 little endian with its byte order mark: how `schtasks /XML` reads a task file
/// whose declaration says UTF-16.
pub fn utf16le_with_bom(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    for unit in text.encode_utf16() {
        out.extend_from_slice(&unit.to_le_bytes());
    }
    out
}

/// The definition for this system, as the bytes written to [`definition_path`].
pub fn definition(places: &Places, spec: &Spec) -> Vec<u8> {
    match places.os {
        Os::Linux => systemd_unit(spec).into_bytes(),
        Os::MacOs => launchd_plist(spec).into_bytes(),
        Os::Windows => utf16le_with_bom(&task_xml(spec, &windows_user())),
    }
}

/// `%USERDOMAIN%\%USERNAME%`, the person the task runs as.
fn windows_user() -> String {
    let name = std::env::var("USERNAME").unwrap_or_default();
    match std::env::var("USERDOMAIN") {
        Ok(domain) if !domain.is_empty() => format!("{domain}\\{name}"),
        _ => name,
    }
}

/// What the system's service manager says about the hub's service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// No definition is written.
    NotInstalled,
    /// The definition is written; `running` is what the manager says (`None`: it could not be
    /// asked), `detail` its own words.
    Installed {
        running: Option<bool>,
        detail: String,
    },
}

/// A command's outcome: whether it succeeded and what it printed.
fn run(program: &str, args: &[&str]) -> Result<String, String> {
    match Command::new(program).args(args).output() {
        Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => {
            let mut text = String::from_utf8_lossy(&out.stderr).trim().to_owned();
            if text.is_empty() {
                text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            }
            Err(format!("`{program} {}` failed: {text}", args.join(" ")))
        }
        Err(e) => Err(format!("could not run {program}: {e}")),
    }
}

#[cfg(unix)]
fn uid() -> u32 {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() }
}

#[cfg(not(unix))]
fn uid() -> u32 {
    0
}

/// Registers and starts the service whose definition is written at [`definition_path`]
/// (`changed`: it or the binary differs from what ran before, so a running one is restarted).
/// The manager's own words on failure.
pub fn activate(places: &Places, changed: bool) -> Result<(), String> {
    let path = definition_path(places);
    let path_str = path.to_string_lossy().into_owned();
    match places.os {
        Os::Linux => {
            run("systemctl", &["--user", "daemon-reload"])?;
            run("systemctl", &["--user", "enable", SYSTEMD_UNIT])?;
            let verb = if changed { "restart" } else { "start" };
            run("systemctl", &["--user", verb, SYSTEMD_UNIT]).map(drop)
        }
        Os::MacOs => {
            let domain = format!("gui/{}", uid());
            let service = format!("{domain}/{LAUNCHD_LABEL}");
            let loaded = run("launchctl", &["print", &service]).is_ok();
            if loaded && changed {
                let _ = run("launchctl", &["bootout", &service]);
            }
            if !loaded || changed {
                run("launchctl", &["bootstrap", &domain, &path_str])?;
            }
            run("launchctl", &["kickstart", &service]).map(drop)
        }
        Os::Windows => {
            if changed {
                let _ = run("schtasks", &["/End", "/TN", TASK_NAME]);
            }
            run(
                "schtasks",
                &["/Create", "/TN", TASK_NAME, "/XML", &path_str, "/F"],
            )?;
            run("schtasks", &["/Run", "/TN", TASK_NAME]).map(drop)
        }
    }
}

/// Starts the installed service now (for `apc-hub mcp` when no hub runs).
pub fn start(places: &Places) -> Result<(), String> {
    match places.os {
        Os::Linux => run("systemctl", &["--user", "start", SYSTEMD_UNIT]).map(drop),
        Os::MacOs => run(
            "launchctl",
            &["kickstart", &format!("gui/{}/{LAUNCHD_LABEL}", uid())],
        )
        .map(drop),
        Os::Windows => run("schtasks", &["/Run", "/TN", TASK_NAME]).map(drop),
    }
}

/// Stops the service and takes it off the system's list (the definition file is removed by the
/// caller). Errors of a service that was not registered are not errors.
pub fn deactivate(places: &Places) -> Result<(), String> {
    match places.os {
        Os::Linux => {
            let _ = run("systemctl", &["--user", "disable", "--now", SYSTEMD_UNIT]);
            Ok(())
        }
        Os::MacOs => {
            let _ = run(
                "launchctl",
                &["bootout", &format!("gui/{}/{LAUNCHD_LABEL}", uid())],
            );
            Ok(())
        }
        Os::Windows => {
            let _ = run("schtasks", &["/End", "/TN", TASK_NAME]);
            let _ = run("schtasks", &["/Delete", "/TN", TASK_NAME, "/F"]);
            Ok(())
        }
    }
}

/// Whether the service is installed and, if the manager can be asked, running.
pub fn state(places: &Places) -> State {
    if !definition_path(places).exists() {
        return State::NotInstalled;
    }
    let (running, detail) = match places.os {
        Os::Linux => match Command::new("systemctl")
            .args(["--user", "is-active", SYSTEMD_UNIT])
            .output()
        {
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                match said.as_str() {
                    "active" | "activating" | "reloading" => (Some(true), said),
                    "" => (None, String::from_utf8_lossy(&out.stderr).trim().to_owned()),
                    _ => (Some(false), said),
                }
            }
            Err(e) => (None, format!("could not run systemctl: {e}")),
        },
        Os::MacOs => match run(
            "launchctl",
            &["print", &format!("gui/{}/{LAUNCHD_LABEL}", uid())],
        ) {
            Ok(text) => {
                let running = text.lines().any(|l| l.trim() == "state = running");
                (
                    Some(running),
                    if running {
                        "running"
                    } else {
                        "loaded, not running"
                    }
                    .into(),
                )
            }
            Err(e) => (Some(false), e),
        },
        Os::Windows => match run("schtasks", &["/Query", "/TN", TASK_NAME, "/FO", "LIST"]) {
            Ok(text) => {
                let running = text.contains("Running");
                (
                    Some(running),
                    text.lines()
                        .find(|l| l.starts_with("Status"))
                        .unwrap_or("")
                        .trim()
                        .to_owned(),
                )
            }
            Err(e) => (None, e),
        },
    };
    State::Installed { running, detail }
}

/// Where to read why the service stopped, in the person's words.
pub fn logs_hint(places: &Places) -> String {
    match places.os {
        Os::Linux => format!("journalctl --user -u {SYSTEMD_UNIT} -n 50"),
        Os::MacOs | Os::Windows => places
            .log_dir()
            .map(|d| d.join("hub.log").display().to_string())
            .unwrap_or_default(),
    }
}

/// `apc-hub service-run` (Windows): runs `exe serve ARGS…` without a console window, its output in
/// `log`, and starts it again when it exits with an error (after 1 s, doubling to a minute); returns
/// when it exits cleanly.
pub fn supervise(exe: &Path, serve_args: &[String], log: &Path) -> std::io::Result<()> {
    #[cfg(windows)]
    {
        #[link(name = "kernel32")]
        extern "system" {
            fn FreeConsole() -> i32;
        }
        // SAFETY: FreeConsole detaches this process from its console, if it has one; nothing else.
        unsafe {
            FreeConsole();
        }
    }
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut wait = std::time::Duration::from_secs(1);
    loop {
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)?;
        let err = out.try_clone()?;
        let mut command = Command::new(exe);
        command.args(serve_args).stdout(out).stderr(err);
        #[cfg(windows)]
        {
            use std::os::windows::process::CommandExt;
            const CREATE_NO_WINDOW: u32 = 0x0800_0000;
            command.creation_flags(CREATE_NO_WINDOW);
        }
        let started = std::time::Instant::now();
        let status = command.status()?;
        if status.success() {
            return Ok(());
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            wait = std::time::Duration::from_secs(1);
        }
        std::thread::sleep(wait);
        wait = (wait * 2).min(std::time::Duration::from_secs(60));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(root: &str) -> Spec {
        Spec {
            exe: PathBuf::from(format!("{root}/bin dir/apc-hub")),
            listen: "127.0.0.1:7410".into(),
            data_dir: PathBuf::from(format!("{root}/data 100%/apc-hub")),
            log_dir: Some(PathBuf::from(format!("{root}/Logs/apc-hub"))),
        }
    }

    #[test]
    fn the_unit_quotes_its_command_and_restarts_on_failure() {
        let unit = systemd_unit(&spec("/home/a&b"));
        let exec = unit
            .lines()
            .find_map(|l| l.strip_prefix("ExecStart="))
            .unwrap();
        assert_eq!(
            exec,
            r#""/home/a&b/bin dir/apc-hub" "serve" "--quiet" "--listen" "127.0.0.1:7410" "--data-dir" "/home/a&b/data 100%%/apc-hub""#
        );
        for line in [
            "Restart=on-failure",
            "WantedBy=default.target",
            "StartLimitIntervalSec=0",
        ] {
            assert!(unit.lines().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn the_task_runs_the_supervisor_at_logon_as_the_person() {
        let xml = task_xml(&spec(r"C:\Users\ada"), r"PC\ada");
        assert!(xml.contains(r"<UserId>PC\ada</UserId>"));
        assert!(xml.contains("<LogonType>InteractiveToken</LogonType>"));
        assert!(xml.contains(r#"<Arguments>service-run --quiet --listen 127.0.0.1:7410 --data-dir &quot;C:\Users\ada/data 100%/apc-hub&quot;</Arguments>"#), "{xml}");
        let bytes = utf16le_with_bom(&xml);
        assert_eq!(&bytes[..4], &[0xFF, 0xFE, b'<', 0]);
        assert_eq!(windows_arg(r#"a "b" c\"#), r#""a \"b\" c\\""#);
    }
}
