//! Where the hub's things live for the person, on each system: the data directory, the installed
//! binary, the service's definition and logs, and each MCP client's config file. Everything is
//! computed from a [`Places`] (the system and the few environment variables that move these
//! folders), so tests ask for macOS's or Windows's places on Linux and a throwaway home is a whole
//! person's world.
//!
//! Data directories, private to the user on each system: `$XDG_DATA_HOME/apc-hub` (else
//! `~/.local/share/apc-hub`, made `0700`) on Linux, `~/Library/Application Support/apc-hub` (made
//! `0700`) on macOS, `%APPDATA%\apc-hub` on Windows, which relies on the user profile's own access
//! list (the user, SYSTEM and Administrators) that the folder inherits.

use std::path::{Path, PathBuf};

/// The systems the hub is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
}

impl Os {
    /// The system this binary was built for (other Unix systems are served as Linux is).
    pub const fn current() -> Self {
        if cfg!(target_os = "macos") {
            Self::MacOs
        } else if cfg!(windows) {
            Self::Windows
        } else {
            Self::Linux
        }
    }

    /// The binary's file name.
    pub const fn exe_name(self) -> &'static str {
        match self {
            Self::Windows => "apc-hub.exe",
            _ => "apc-hub",
        }
    }
}

/// The system and the environment variables that move the person's folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    pub os: Os,
    pub home: PathBuf,
    pub xdg_data_home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    /// `%APPDATA%` (roaming).
    pub appdata: Option<PathBuf>,
    /// `%LOCALAPPDATA%`.
    pub local_appdata: Option<PathBuf>,
    /// `$CODEX_HOME` (Codex CLI's folder, default `~/.codex`).
    pub codex_home: Option<PathBuf>,
}

fn var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Places {
    /// This process's system and environment.
    pub fn from_env() -> Self {
        let home = var("HOME")
            .or_else(|| var("USERPROFILE"))
            .unwrap_or_else(|| PathBuf::from("."));
        Self {
            os: Os::current(),
            home,
            xdg_data_home: var("XDG_DATA_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            appdata: var("APPDATA"),
            local_appdata: var("LOCALAPPDATA"),
            codex_home: var("CODEX_HOME"),
        }
    }

    /// A home directory alone on `os`, every other variable unset (tests).
    pub fn in_home(os: Os, home: &Path) -> Self {
        Self {
            os,
            home: home.to_owned(),
            xdg_data_home: None,
            xdg_config_home: None,
            appdata: None,
            local_appdata: None,
            codex_home: None,
        }
    }

    fn appdata(&self) -> PathBuf {
        self.appdata
            .clone()
            .unwrap_or_else(|| self.home.join("AppData").join("Roaming"))
    }

    fn local_appdata(&self) -> PathBuf {
        self.local_appdata
            .clone()
            .unwrap_or_else(|| self.home.join("AppData").join("Local"))
    }

    /// The per-user folder applications keep their settings in: `~/.config` (or
    /// `$XDG_CONFIG_HOME`), `~/Library/Application Support`, `%APPDATA%`.
    pub fn app_config_dir(&self) -> PathBuf {
        match self.os {
            Os::Linux => self
                .xdg_config_home
                .clone()
                .unwrap_or_else(|| self.home.join(".config")),
            Os::MacOs => self.home.join("Library").join("Application Support"),
            Os::Windows => self.appdata(),
        }
    }

    /// Where the hub keeps its database by default.
    pub fn data_dir(&self) -> PathBuf {
        match self.os {
            Os::Linux => self
                .xdg_data_home
                .clone()
                .unwrap_or_else(|| self.home.join(".local").join("share"))
                .join("apc-hub"),
            Os::MacOs | Os::Windows => self.app_config_dir().join("apc-hub"),
        }
    }

    /// Where `install` puts the binary the service runs: `~/.local/bin` (on the PATH of most
    /// Linux and macOS shells), `%LOCALAPPDATA%\Programs\apc-hub` on Windows.
    pub fn bin_dir(&self) -> PathBuf {
        match self.os {
            Os::Linux | Os::MacOs => self.home.join(".local").join("bin"),
            Os::Windows => self.local_appdata().join("Programs").join("apc-hub"),
        }
    }

    /// The installed binary.
    pub fn installed_exe(&self) -> PathBuf {
        self.bin_dir().join(self.os.exe_name())
    }

    /// Where the service writes its output, where the system keeps none itself: the journal on
    /// Linux (`None`), `~/Library/Logs/apc-hub` on macOS, `%LOCALAPPDATA%\apc-hub\logs` on Windows.
    pub fn log_dir(&self) -> Option<PathBuf> {
        match self.os {
            Os::Linux => None,
            Os::MacOs => Some(self.home.join("Library").join("Logs").join("apc-hub")),
            Os::Windows => Some(self.local_appdata().join("apc-hub").join("logs")),
        }
    }

    /// Codex CLI's folder.
    pub fn codex_home(&self) -> PathBuf {
        self.codex_home
            .clone()
            .unwrap_or_else(|| self.home.join(".codex"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_system_keeps_the_data_where_its_people_look_for_it() {
        let home = Path::new("/home/ada");
        assert_eq!(
            Places::in_home(Os::Linux, home).data_dir(),
            home.join(".local/share/apc-hub")
        );
        let mut xdg = Places::in_home(Os::Linux, home);
        xdg.xdg_data_home = Some("/data".into());
        assert_eq!(xdg.data_dir(), Path::new("/data/apc-hub"));
        assert_eq!(
            Places::in_home(Os::MacOs, home).data_dir(),
            home.join("Library/Application Support/apc-hub")
        );
        let mut win = Places::in_home(Os::Windows, Path::new(r"C:\Users\ada"));
        win.appdata = Some(r"C:\Users\ada\AppData\Roaming".into());
        assert_eq!(
            win.data_dir(),
            Path::new(r"C:\Users\ada\AppData\Roaming").join("apc-hub")
        );
        assert!(win.installed_exe().ends_with("apc-hub.exe"));
        assert_eq!(Places::in_home(Os::Linux, home).log_dir(), None);
    }
}
