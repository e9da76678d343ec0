//! `apc-hub status` and `apc-hub doctor`: the hub's true state, asked of the things themselves (the
//! data directory's lock, the hub's own `apc.json` and MCP endpoint, the system's service manager,
//! the database, each MCP client's config file), and for each problem found, what to do next.
//!
//! Problems it knows: no hub running (with or without an installed service), the service installed
//! but not running, the listen port taken by another program or by another `apc-hub` (another data
//! directory), a hub that holds its data but does not answer, no pairing with the extension yet,
//! and an MCP client whose entry names an MCP URL of another origin or an agent this hub does not
//! have (or a stdio entry whose binary is gone).

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::client_config::{hub_mcp_url, is_hub_entry};
use crate::clients::{Client, Format};
use crate::instance::{self, Probe};
use crate::places::Places;
use crate::service;
use crate::state::Hub;
use crate::store::{PairingStatus, Store};

/// Everything `status` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: String,
    pub data_dir: PathBuf,
    pub running: Option<Running>,
    pub service: ServiceReport,
    pub agents: Vec<AgentReport>,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Running {
    pub pid: Option<u32>,
    pub origin: Option<String>,
    pub version: Option<String>,
    pub started_at: Option<String>,
    /// Whether its `apc.json` answered as an apc-hub.
    pub answers: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServiceReport {
    pub installed: bool,
    pub definition: PathBuf,
    pub running: Option<bool>,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct AgentReport {
    pub name: String,
    pub handle: String,
    pub mcp_url: String,
    pub pairings: Vec<PairingReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PairingReport {
    pub id: String,
    pub app: String,
    pub status: &'static str,
    pub created_at: String,
    pub last_pin_at: Option<String>,
    pub last_pin_read: Option<bool>,
}

/// A problem and the person's next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub id: &'static str,
    pub what: String,
    pub next: String,
}

/// What `status` is asked about.
pub struct Ask<'a> {
    pub places: &'a Places,
    pub data_dir: &'a Path,
    /// Where a hub would listen (the service's address, `--listen`, or the default).
    pub listen: SocketAddr,
}

/// The origin a hub answers at, if it answers there as an apc-hub.
fn answers_as_hub(origin: &str) -> bool {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return false;
    };
    runtime.block_on(async {
        let Ok(http) = reqwest::Client::builder()
            .timeout(Duration::from_secs(3))
            .build()
        else {
            return false;
        };
        let url = format!("{origin}{}", apc_core::manifest::APC_JSON_PATH);
        match http.get(url).send().await {
            Ok(res) if res.status().is_success() => res
                .json::<Value>()
                .await
                .is_ok_and(|v| v["name"] == crate::state::HUB_NAME),
            _ => false,
        }
    })
}

/// Builds the report.
pub fn report(ask: &Ask<'_>) -> Report {
    let mut problems = Vec::new();
    let places = ask.places;
    let origin_default = crate::server::origin_of_addr(ask.listen);

    // The hub: the lock says whether one serves this data; its apc.json whether it answers.
    let running = match instance::probe(ask.data_dir) {
        Ok(Probe::Running(info)) => {
            let answers = info.as_ref().is_some_and(|i| answers_as_hub(&i.origin));
            if !answers {
                problems.push(Problem {
                    id: "not_answering",
                    what: format!(
                        "A hub holds the data in {} but does not answer{}.",
                        ask.data_dir.display(),
                        info.as_ref()
                            .map(|i| format!(" at {} (process {})", i.origin, i.pid))
                            .unwrap_or_default()
                    ),
                    next: "Wait a few seconds (it may be starting), else stop that process; the service starts a new one.".into(),
                });
            }
            Some(Running {
                pid: info.as_ref().map(|i| i.pid),
                origin: info.as_ref().map(|i| i.origin.clone()),
                version: info.as_ref().map(|i| i.version.clone()),
                started_at: info.as_ref().map(|i| i.started_at.clone()),
                answers,
            })
        }
        Ok(Probe::Stopped) => None,
        Err(e) => {
            problems.push(Problem {
                id: "data_dir_unreadable",
                what: format!("Could not look at {}: {e}.", ask.data_dir.display()),
                next: "Check that this folder is yours and readable.".into(),
            });
            None
        }
    };

    // The service.
    let definition = service::definition_path(places);
    let service = match service::state(places) {
        service::State::NotInstalled => ServiceReport {
            installed: false,
            definition,
            running: None,
            detail: "not installed".into(),
        },
        service::State::Installed { running, detail } => ServiceReport {
            installed: true,
            definition,
            running,
            detail,
        },
    };

    if running.is_none() {
        // Is the port free for a hub to start on?
        let taken = matches!(TcpListener::bind(ask.listen), Err(e) if e.kind() == std::io::ErrorKind::AddrInUse);
        if taken {
            if answers_as_hub(&origin_default) {
                problems.push(Problem {
                    id: "port_taken_by_other_hub",
                    what: format!("Another apc-hub, with another data directory, serves on {}.", ask.listen),
                    next: format!("Stop it, or give this one another port: apc-hub install --listen 127.0.0.1:{}", ask.listen.port() + 1),
                });
            } else {
                problems.push(Problem {
                    id: "port_taken",
                    what: format!("Port {} is taken by another program, so the hub cannot listen on {}.", ask.listen.port(), ask.listen),
                    next: format!("Stop that program, or give the hub another port: apc-hub install --listen 127.0.0.1:{}", ask.listen.port() + 1),
                });
            }
        }
        if service.installed {
            problems.push(Problem {
                id: "service_not_running",
                what: format!(
                    "The service is installed ({}) but no hub is running.",
                    service.definition.display()
                ),
                next: format!(
                    "See why in {}; start it again with `apc-hub install`.",
                    service::logs_hint(places)
                ),
            });
        } else {
            problems.push(Problem {
                id: "not_running",
                what: "No hub is running, and none starts at login.".into(),
                next: "Run `apc-hub install` (starts it now and at every login), or `apc-hub serve` in a terminal.".into(),
            });
        }
    }

    // Agents and pairings, from the database (when there is one).
    let origin = running
        .as_ref()
        .and_then(|r| r.origin.clone())
        .unwrap_or(origin_default);
    let mut agents = Vec::new();
    let mut secrets = Vec::new();
    if ask.data_dir.join("hub.sqlite3").exists() {
        match Store::open(ask.data_dir) {
            Ok(store) => {
                let pairings = store.dock_pairings().unwrap_or_default();
                for agent in store.agents().unwrap_or_default() {
                    secrets.push(agent.secret.clone());
                    let mine = pairings
                        .iter()
                        .filter(|p| p.pairing.agent == agent.handle)
                        .map(|p| PairingReport {
                            id: p.pairing.id.clone(),
                            app: p.pairing.app.clone(),
                            status: match p.pairing.status {
                                PairingStatus::Active => "active",
                                PairingStatus::Revoked => "revoked",
                            },
                            created_at: p.pairing.created_at.clone(),
                            last_pin_at: p.pin.as_ref().map(|pin| pin.pinned_at.clone()),
                            last_pin_read: p.pin.as_ref().map(|pin| pin.seen_at.is_some()),
                        })
                        .collect();
                    agents.push(AgentReport {
                        mcp_url: Hub::mcp_url(&origin, &agent.secret),
                        name: agent.name,
                        handle: agent.handle,
                        pairings: mine,
                    });
                }
            }
            Err(e) => problems.push(Problem {
                id: "database_unreadable",
                what: format!("Could not open the hub's database: {e}."),
                next: "Check the data directory's permissions; the hub's log says more.".into(),
            }),
        }
    }
    let paired = agents
        .iter()
        .any(|a| a.pairings.iter().any(|p| p.status == "active"));
    if !paired {
        problems.push(Problem {
            id: "no_pairing",
            what: "No browser has paired with any agent yet.".into(),
            next: format!("Install the APC Page extension, open the dock at {origin}/ and drag an agent's mark onto text on a web page."),
        });
    }

    // Each MCP client's entries that name a hub.
    if !secrets.is_empty() {
        for client in Client::ALL {
            problems.extend(client_problems(client, places, &origin, &secrets));
        }
    }

    Report {
        version: env!("CARGO_PKG_VERSION").into(),
        data_dir: ask.data_dir.to_owned(),
        running,
        service,
        agents,
        problems,
    }
}

/// The servers listed in a client's config file, as JSON (`None`: no file, or not readable).
fn client_servers(client: Client, path: &Path) -> Option<serde_json::Map<String, Value>> {
    let text = std::fs::read_to_string(path).ok()?;
    let value: Value = match client.format() {
        Format::Toml => {
            let doc: toml_edit::DocumentMut = text.parse().ok()?;
            let mut map = serde_json::Map::new();
            let servers = doc.get(client.servers_key())?.as_table_like()?;
            for (name, item) in servers.iter() {
                let mut entry = serde_json::Map::new();
                if let Some(t) = item.as_table_like() {
                    for (k, v) in t.iter() {
                        if let Some(s) = v.as_str() {
                            entry.insert(k.to_owned(), Value::String(s.to_owned()));
                        }
                    }
                }
                map.insert(name.to_owned(), Value::Object(entry));
            }
            return Some(map);
        }
        Format::Json | Format::Jsonc => crate::client_config::parse_jsonc(&text)?,
    };
    value.get(client.servers_key())?.as_object().cloned()
}

/// What is wrong with `client`'s entries that name a hub on this computer.
pub fn client_problems(
    client: Client,
    places: &Places,
    origin: &str,
    secrets: &[String],
) -> Vec<Problem> {
    let path = client.config_path(places);
    let Some(servers) = client_servers(client, &path) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (name, entry) in servers {
        if !is_hub_entry(&entry) {
            continue;
        }
        let fix = format!("apc-hub connect {} --write", client.id());
        let url = ["url", "serverUrl", "httpUrl"]
            .iter()
            .find_map(|k| entry.get(*k).and_then(Value::as_str));
        if let Some(url) = url {
            let Some((their_origin, secret)) = hub_mcp_url(url) else {
                continue;
            };
            if !secrets.contains(&secret) {
                out.push(Problem {
                    id: "client_unknown_agent",
                    what: format!("{}'s entry {name:?} in {} names an MCP URL of no agent of this hub (a removed agent, or another hub's).", client.name(), path.display()),
                    next: format!("{fix} (add --agent NAME for another agent)"),
                });
            } else if their_origin != origin {
                out.push(Problem {
                    id: "client_old_url",
                    what: format!("{}'s entry {name:?} in {} points at {their_origin}, but the hub serves at {origin}.", client.name(), path.display()),
                    next: fix,
                });
            }
        } else if let Some(command) = entry.get("command").and_then(Value::as_str) {
            if !Path::new(command).exists() {
                out.push(Problem {
                    id: "client_missing_binary",
                    what: format!(
                        "{}'s entry {name:?} in {} runs {command}, which is not there.",
                        client.name(),
                        path.display()
                    ),
                    next: fix,
                });
            }
        }
    }
    out
}

/// The report as a person reads it.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!("apc-hub {}\n", report.version));
    out.push_str(&format!("Data:    {}\n", report.data_dir.display()));
    match &report.running {
        Some(r) => out.push_str(&format!(
            "Hub:     running{}{}{}\n",
            r.origin
                .as_ref()
                .map(|o| format!(" at {o}"))
                .unwrap_or_default(),
            r.pid.map(|p| format!(", process {p}")).unwrap_or_default(),
            r.version
                .as_ref()
                .map(|v| format!(", version {v}"))
                .unwrap_or_default(),
        )),
        None => out.push_str("Hub:     not running\n"),
    }
    let s = &report.service;
    if s.installed {
        out.push_str(&format!(
            "Service: installed ({}): {}\n",
            s.definition.display(),
            s.detail
        ));
    } else {
        out.push_str("Service: not installed (apc-hub install starts the hub at login)\n");
    }
    for agent in &report.agents {
        out.push_str(&format!("\nAgent {:?} ({})\n", agent.name, agent.handle));
        out.push_str(&format!("  MCP URL: {}\n", agent.mcp_url));
        if agent.pairings.is_empty() {
            out.push_str("  Pairings: none yet\n");
        }
        for p in &agent.pairings {
            let pin = match (&p.last_pin_at, p.last_pin_read) {
                (Some(at), Some(true)) => format!("last pin {at}, read"),
                (Some(at), _) => format!("last pin {at}, not read yet"),
                (None, _) => "no pin".into(),
            };
            out.push_str(&format!(
                "  Pairing {} with the {} app: {}, since {}; {pin}\n",
                p.id, p.app, p.status, p.created_at
            ));
        }
    }
    if report.problems.is_empty() {
        out.push_str("\nNo problems found.\n");
    } else {
        out.push_str("\nProblems:\n");
        for p in &report.problems {
            out.push_str(&format!("  - {}\n    Next: {}\n", p.what, p.next));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places::Os;

    #[test]
    fn a_client_entry_of_another_origin_or_agent_is_reported_with_its_fix() {
        let home = tempfile::tempdir().unwrap();
        let places = Places::in_home(Os::Linux, home.path());
        let cursor = Client::Cursor.config_path(&places);
        std::fs::create_dir_all(cursor.parent().unwrap()).unwrap();
        std::fs::write(
            &cursor,
            r#"{"mcpServers":{
                "apc-default":{"url":"http://127.0.0.1:7411/mcp/known"},
                "apc-old":{"url":"http://127.0.0.1:7410/mcp/gone"},
                "other":{"url":"https://example.com/mcp/x"}}}"#,
        )
        .unwrap();
        let codex = Client::Codex.config_path(&places);
        std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
        std::fs::write(
            &codex,
            "[mcp_servers.apc-default]\nurl = \"http://127.0.0.1:7410/mcp/known\"\n",
        )
        .unwrap();
        let secrets = vec!["known".to_owned()];
        let found = client_problems(Client::Cursor, &places, "http://127.0.0.1:7410", &secrets);
        let ids: Vec<_> = found.iter().map(|p| p.id).collect();
        assert_eq!(ids, ["client_old_url", "client_unknown_agent"]);
        assert!(found[0].next.contains("apc-hub connect cursor --write"));
        assert!(
            client_problems(Client::Codex, &places, "http://127.0.0.1:7410", &secrets).is_empty()
        );
    }
}
