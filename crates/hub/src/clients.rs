//! Every common MCP client in its own words: the entry that connects each to an agent (its config
//! file's format and place, the command that adds it, an install link where the client has one).
//! `apc-hub connect` prints these and the dock page shows them; [`crate::client_config`] merges an
//! entry into a client's file.
//!
//! | client | file (user level) | entry |
//! |---|---|---|
//! | Claude Code | `~/.claude.json` | `mcpServers.NAME = { type: "http", url }` (or `claude mcp add`) |
//! | Claude Desktop | `claude_desktop_config.json` | `mcpServers.NAME = { command, args: ["mcp", "--agent", A] }`: stdio only |
//! | Cursor | `~/.cursor/mcp.json` | `mcpServers.NAME = { url }`; `cursor://…/mcp/install?name&config` |
//! | VS Code | `Code/User/mcp.json` | `servers.NAME = { type: "http", url }` (JSON with comments); `vscode:mcp/install?{…}` |
//! | Windsurf | `~/.codeium/windsurf/mcp_config.json` | `mcpServers.NAME = { serverUrl }` |
//! | Codex CLI | `~/.codex/config.toml` | `[mcp_servers.NAME] url = …` (or `codex mcp add`) |
//! | Gemini CLI | `~/.gemini/settings.json` | `mcpServers.NAME = { httpUrl }` (or `gemini mcp add`) |

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::places::{Os, Places};

/// The MCP clients the hub knows, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Client {
    ClaudeCode,
    ClaudeDesktop,
    Cursor,
    VsCode,
    Windsurf,
    Codex,
    Gemini,
}

/// How a client's config file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON; comments and trailing commas in the file are kept when merging but never added.
    Json,
    /// JSON with comments (VS Code).
    Jsonc,
    Toml,
}

/// The name and ways of reaching one agent: the entry's name in the client's list, its MCP URL
/// (HTTP), and the command that relays to it over stdio (`apc-hub mcp --agent NAME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub agent: String,
    pub entry_name: String,
    pub url: String,
    pub exe: PathBuf,
}

impl Target {
    pub fn new(agent: &str, url: &str, exe: &Path) -> Self {
        Self {
            agent: agent.to_owned(),
            entry_name: entry_name(agent),
            url: url.to_owned(),
            exe: exe.to_owned(),
        }
    }

    /// `apc-hub mcp --agent NAME`'s arguments.
    pub fn stdio_args(&self) -> Vec<String> {
        vec!["mcp".into(), "--agent".into(), self.agent.clone()]
    }
}

/// The name a client lists an agent's server under: `apc-` and the agent's name in lowercase
/// letters, digits and dashes (`apc-default`, `apc-my-agent-2`).
pub fn entry_name(agent_name: &str) -> String {
    let slug: String = agent_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("apc-{}", slug.trim_matches('-'))
}

impl Client {
    pub const ALL: [Client; 7] = [
        Client::ClaudeCode,
        Client::ClaudeDesktop,
        Client::Cursor,
        Client::VsCode,
        Client::Windsurf,
        Client::Codex,
        Client::Gemini,
    ];

    /// The name on the command line (`apc-hub connect ID`).
    pub fn id(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            Client::ClaudeDesktop => "claude-desktop",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Windsurf => "windsurf",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
        }
    }

    /// The client's name as its makers write it.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "Claude Code",
            Client::ClaudeDesktop => "Claude Desktop",
            Client::Cursor => "Cursor",
            Client::VsCode => "VS Code",
            Client::Windsurf => "Windsurf",
            Client::Codex => "Codex CLI",
            Client::Gemini => "Gemini CLI",
        }
    }

    /// A client by its id (or a few names people type for it).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.to_ascii_lowercase().replace(['_', ' '], "-");
        Some(match s.as_str() {
            "claude-code" | "claude" | "claudecode" => Client::ClaudeCode,
            "claude-desktop" | "claudedesktop" => Client::ClaudeDesktop,
            "cursor" => Client::Cursor,
            "vscode" | "vs-code" | "code" => Client::VsCode,
            "windsurf" => Client::Windsurf,
            "codex" | "codex-cli" => Client::Codex,
            "gemini" | "gemini-cli" => Client::Gemini,
            _ => return None,
        })
    }

    pub fn format(self) -> Format {
        match self {
            Client::Codex => Format::Toml,
            Client::VsCode => Format::Jsonc,
            _ => Format::Json,
        }
    }

    /// The key of the file's table of servers.
    pub fn servers_key(self) -> &'static str {
        match self {
            Client::VsCode => "servers",
            Client::Codex => "mcp_servers",
            _ => "mcpServers",
        }
    }

    /// Whether the client reaches the agent by running `apc-hub mcp` (stdio) rather than by URL.
    pub fn uses_stdio(self) -> bool {
        self == Client::ClaudeDesktop
    }

    /// The client's user-level config file.
    pub fn config_path(self, places: &Places) -> PathBuf {
        let home = &places.home;
        match self {
            Client::ClaudeCode => home.join(".claude.json"),
            Client::ClaudeDesktop => places
                .app_config_dir()
                .join("Claude")
                .join("claude_desktop_config.json"),
            Client::Cursor => home.join(".cursor").join("mcp.json"),
            Client::VsCode => places
                .app_config_dir()
                .join("Code")
                .join("User")
                .join("mcp.json"),
            Client::Windsurf => home
                .join(".codeium")
                .join("windsurf")
                .join("mcp_config.json"),
            Client::Codex => places.codex_home().join("config.toml"),
            Client::Gemini => home.join(".gemini").join("settings.json"),
        }
    }

    /// The server entry for `target`, as JSON (Codex's TOML table has the same shape).
    pub fn entry(self, target: &Target) -> Value {
        let url = &target.url;
        match self {
            Client::ClaudeCode | Client::VsCode => json!({ "type": "http", "url": url }),
            Client::ClaudeDesktop => json!({
                "command": target.exe.to_string_lossy(),
                "args": target.stdio_args(),
            }),
            Client::Cursor | Client::Codex => json!({ "url": url }),
            Client::Windsurf => json!({ "serverUrl": url }),
            Client::Gemini => json!({ "httpUrl": url }),
        }
    }

    /// A whole config file holding only `target`'s entry: what to paste into an empty file, or
    /// merge by hand into an existing one.
    pub fn snippet(self, target: &Target) -> String {
        let entry = self.entry(target);
        match self.format() {
            Format::Toml => {
                let mut doc = toml_edit::DocumentMut::new();
                let mut servers = toml_edit::Table::new();
                servers.set_implicit(true);
                servers.insert(
                    &target.entry_name,
                    toml_edit::Item::Table(toml_table(&entry)),
                );
                doc.insert(self.servers_key(), toml_edit::Item::Table(servers));
                doc.to_string()
            }
            Format::Json | Format::Jsonc => {
                let file = json!({ self.servers_key(): { &target.entry_name: entry } });
                serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
            }
        }
    }

    /// The client's own command that adds the entry, where it has one.
    pub fn command(self, target: &Target, os: Os) -> Option<String> {
        let (name, url) = (&target.entry_name, &target.url);
        match self {
            Client::ClaudeCode => Some(format!(
                "claude mcp add --scope user --transport http {name} {url}"
            )),
            Client::Codex => Some(format!("codex mcp add {name} --url {url}")),
            Client::Gemini => Some(format!(
                "gemini mcp add --scope user --transport http {name} {url}"
            )),
            Client::VsCode => {
                let spec = json!({ "name": name, "type": "http", "url": url }).to_string();
                Some(format!("code --add-mcp {}", shell_quote(&spec, os)))
            }
            Client::ClaudeDesktop | Client::Cursor | Client::Windsurf => None,
        }
    }

    /// A link that opens the client and offers to add the entry, where it has one.
    pub fn install_link(self, target: &Target) -> Option<String> {
        let name = &target.entry_name;
        match self {
            Client::VsCode => {
                let spec = json!({ "name": name, "type": "http", "url": target.url }).to_string();
                Some(format!("vscode:mcp/install?{}", percent_encode(&spec)))
            }
            Client::Cursor => Some(format!(
                "cursor://anysphere.cursor-deeplink/mcp/install?name={}&config={}",
                percent_encode(name),
                percent_encode(&cursor_config(target))
            )),
            _ => None,
        }
    }

    /// The same install link as a web page (works from a README or a browser without Cursor's
    /// handler registered), where the client has one.
    pub fn web_install_link(self, target: &Target) -> Option<String> {
        match self {
            Client::Cursor => Some(format!(
                "https://cursor.com/en/install-mcp?name={}&config={}",
                percent_encode(&target.entry_name),
                percent_encode(&cursor_config(target))
            )),
            _ => None,
        }
    }

    /// What the person does after the entry is in the file.
    pub fn after_writing(self) -> &'static str {
        match self {
            Client::ClaudeCode => "Start a new Claude Code session; `/mcp` lists it.",
            Client::ClaudeDesktop => "Quit Claude Desktop completely and open it again.",
            Client::Cursor => "Cursor picks it up in Settings → MCP (toggle it on if it is off).",
            Client::VsCode => {
                "In VS Code, run \"MCP: List Servers\" and start it (or reload the window)."
            }
            Client::Windsurf => "In Windsurf's MCP panel, press Refresh.",
            Client::Codex => "Start Codex again; `/mcp` lists it.",
            Client::Gemini => "Start Gemini CLI again; `/mcp` lists it.",
        }
    }
}

/// An entry (an object of strings) as a TOML table, for Codex's file.
pub fn toml_table(entry: &Value) -> toml_edit::Table {
    let mut table = toml_edit::Table::new();
    if let Some(map) = entry.as_object() {
        for (k, v) in map {
            if let Some(s) = v.as_str() {
                table.insert(k, toml_edit::value(s));
            }
        }
    }
    table
}

/// Cursor's `config` parameter: the server's entry as JSON, in base64.
fn cursor_config(target: &Target) -> String {
    let entry = Client::Cursor.entry(target).to_string();
    base64::engine::general_purpose::STANDARD.encode(entry)
}

/// Percent-encodes everything but unreserved characters (RFC 3986), as `encodeURIComponent` does
/// save `!'()*`, so `+`, `/` and `=` of base64 survive a query string.
pub fn percent_encode(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            // By hand rather than `format!("%{b:02X}")`: no allocation per byte encoded.
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xF)] as char);
        }
    }
    out
}

/// `s` as one argument of the person's shell: POSIX single quotes, or PowerShell's on Windows.
fn shell_quote(s: &str, os: Os) -> String {
    match os {
        Os::Windows => format!("'{}'", s.replace('\'', "''")),
        _ => format!("'{}'", s.replace('\'', r"'\''")),
    }
}

/// One client's ways of connecting to an agent, for printing and for the dock.
#[derive(Debug, Clone)]
pub struct Connection {
    pub client: Client,
    pub file: PathBuf,
    pub snippet: String,
    pub command: Option<String>,
    pub link: Option<String>,
    pub web_link: Option<String>,
}

/// How every client connects to `target`.
pub fn connections(target: &Target, places: &Places) -> Vec<Connection> {
    Client::ALL
        .iter()
        .map(|&client| Connection {
            client,
            file: client.config_path(places),
            snippet: client.snippet(target),
            command: client.command(target, places.os),
            link: client.install_link(target),
            web_link: client.web_install_link(target),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "http://127.0.0.1:7410/mcp/abcDEF123_-x";

    fn target(agent: &str) -> Target {
        Target::new(agent, URL, Path::new("/home/ada/.local/bin/apc-hub"))
    }

    /// The entry of `client` in a parsed snippet.
    fn entry_in(client: Client, snippet: &str, name: &str) -> Value {
        match client.format() {
            Format::Toml => {
                let doc: toml_edit::DocumentMut = snippet.parse().expect("valid TOML");
                let table = doc[client.servers_key()][name].as_table().expect("a table");
                let mut map = serde_json::Map::new();
                for (k, v) in table.iter() {
                    map.insert(k.to_owned(), json!(v.as_str().unwrap()));
                }
                Value::Object(map)
            }
            _ => {
                let file: Value = serde_json::from_str(snippet).expect("valid JSON");
                file[client.servers_key()][name].clone()
            }
        }
    }

    #[test]
    fn every_clients_snippet_parses_in_its_format_and_names_the_agents_url() {
        for agent in ["default", "Research Bot"] {
            let t = target(agent);
            for client in Client::ALL {
                let snippet = client.snippet(&t);
                let entry = entry_in(client, &snippet, &t.entry_name);
                if client.uses_stdio() {
                    assert_eq!(
                        entry["command"], "/home/ada/.local/bin/apc-hub",
                        "{client:?}"
                    );
                    assert_eq!(
                        entry["args"],
                        json!(["mcp", "--agent", agent]),
                        "{client:?}"
                    );
                } else {
                    let key = match client {
                        Client::Windsurf => "serverUrl",
                        Client::Gemini => "httpUrl",
                        _ => "url",
                    };
                    assert_eq!(entry[key], URL, "{client:?}: {snippet}");
                }
            }
        }
        assert_eq!(entry_name("default"), "apc-default");
        assert_eq!(entry_name("Research Bot"), "apc-research-bot");
        assert_eq!(entry_name("My Agent.2"), "apc-my-agent-2");
    }

    #[test]
    fn install_links_carry_the_entry_their_client_decodes() {
        let t = target("default");
        let link = Client::VsCode.install_link(&t).unwrap();
        let spec = link.strip_prefix("vscode:mcp/install?").unwrap();
        let decoded: Value = serde_json::from_str(&percent_decode(spec)).unwrap();
        assert_eq!(
            decoded,
            json!({ "name": "apc-default", "type": "http", "url": URL })
        );
        for link in [
            Client::Cursor.install_link(&t).unwrap(),
            Client::Cursor.web_install_link(&t).unwrap(),
        ] {
            let query = link.split_once('?').unwrap().1;
            let mut name = None;
            let mut config = None;
            for pair in query.split('&') {
                let (k, v) = pair.split_once('=').unwrap();
                match k {
                    "name" => name = Some(percent_decode(v)),
                    "config" => config = Some(percent_decode(v)),
                    _ => panic!("{k}"),
                }
            }
            assert_eq!(name.as_deref(), Some("apc-default"));
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(config.unwrap())
                .unwrap();
            let entry: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(entry, json!({ "url": URL }));
            assert!(!query.contains('+') && !query.contains('/'), "{query}");
        }
        let command = Client::VsCode.command(&t, Os::Linux).unwrap();
        assert!(command.starts_with("code --add-mcp '{"), "{command}");
    }

    #[test]
    fn percent_encoding_keeps_only_unreserved_characters() {
        assert_eq!(
            percent_encode("aZ09-_.~ /é+=!*'()"),
            "aZ09-_.~%20%2F%C3%A9%2B%3D%21%2A%27%28%29"
        );
    }

    fn percent_decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_client_reads_a_file_of_its_own_system() {
        let mac = Places::in_home(Os::MacOs, Path::new("/Users/ada"));
        assert_eq!(
            Client::ClaudeDesktop.config_path(&mac),
            Path::new("/Users/ada/Library/Application Support/Claude/claude_desktop_config.json")
        );
        assert_eq!(
            Client::VsCode.config_path(&mac),
            Path::new("/Users/ada/Library/Application Support/Code/User/mcp.json")
        );
        let linux = Places::in_home(Os::Linux, Path::new("/home/ada"));
        assert_eq!(
            Client::VsCode.config_path(&linux),
            Path::new("/home/ada/.config/Code/User/mcp.json")
        );
        assert_eq!(
            Client::Codex.config_path(&linux),
            Path::new("/home/ada/.codex/config.toml")
        );
        let mut win = Places::in_home(Os::Windows, Path::new("C:/Users/ada"));
        win.appdata = Some("C:/Users/ada/AppData/Roaming".into());
        assert_eq!(
            Client::ClaudeDesktop.config_path(&win),
            Path::new("C:/Users/ada/AppData/Roaming/Claude/claude_desktop_config.json")
        );
        for client in Client::ALL {
            assert_eq!(Client::parse(client.id()), Some(client));
        }
    }
}
