//! The command line: `apc-hub [serve]`, `install`, `uninstall`, `status`, `doctor`, `connect`,
//! `mcp`, `agent add|list|remove`, with `--listen`, `--data-dir`, `--allow-remote`, `--log` on every
//! command (and the hidden `service-run`, the Windows task's supervisor).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};
use serde_json::json;

use crate::clients::{self, Client, Target};
use crate::instance::{self, Probe};
use crate::places::Places;
use crate::server::{origin_of_addr, serve, Limits, ServeOptions, META_ORIGIN};
use crate::state::{now, Hub};
use crate::store::{Agent, Store};

/// The default address: loopback only.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7410";

#[derive(Debug, Parser)]
#[command(
    name = "apc-hub",
    version,
    about = "The local APC hub: your MCP clients connect to it, and the browser extension pins web page text for them.",
    after_help = "Start here: `apc-hub install` (starts the hub now and at every login), then `apc-hub connect` (how each MCP client connects)."
)]
pub struct Cli {
    /// Address to listen on (loopback unless you say otherwise). `127.0.0.1:0` picks a free port.
    #[arg(long, global = true, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Where the hub keeps its database [default: ~/.local/share/apc-hub on Linux ($XDG_DATA_HOME),
    /// ~/Library/Application Support/apc-hub on macOS, %APPDATA%\apc-hub on Windows]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Also answer requests that name this host (when listening beyond loopback). Repeatable.
    #[arg(long, global = true, value_name = "HOST")]
    pub allow_host: Vec<String>,
    /// Allow `--listen` on an address other machines can reach. Needs a dock password
    /// (APC_HUB_DOCK_PASSWORD, or --dock-password-file), which the dock page then asks for.
    #[arg(long, global = true)]
    pub allow_remote: bool,
    /// A file whose first line is the dock's password (with --allow-remote).
    #[arg(long, global = true, value_name = "FILE")]
    pub dock_password_file: Option<PathBuf>,
    /// What the hub logs to stderr: error, warn, info, debug or trace.
    #[arg(long, global = true, value_name = "LEVEL", default_value = "info")]
    pub log: tracing::Level,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve (the default).
    Serve {
        /// Print only the first line (`apc-hub listening on …`), no MCP URLs (the service's way).
        #[arg(long)]
        quiet: bool,
    },
    /// Start the hub now and at every login, and again after a crash (no root needed).
    Install,
    /// Stop the hub started at login and remove it (your data stays).
    Uninstall,
    /// Is the hub running and where, its agents and pairings, and what is wrong.
    Status {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Only what is wrong, each with its next step (exits 1 when something is).
    Doctor,
    /// How an MCP client connects to an agent, in the client's own format; --write adds it.
    Connect {
        /// claude-code, claude-desktop, cursor, vscode, windsurf, codex or gemini (all when omitted).
        client: Option<String>,
        /// The agent [default: default].
        #[arg(long, value_name = "NAME")]
        agent: Option<String>,
        /// Merge the entry into the client's config file (a backup first; nothing else changes).
        #[arg(long)]
        write: bool,
        /// Print the entries as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Speak MCP over stdin and stdout, relayed to the running hub (for clients that start a
    /// program: Claude Desktop, `claude mcp add apc -- apc-hub mcp`).
    Mcp {
        /// The agent [default: default].
        #[arg(long, value_name = "NAME")]
        agent: Option<String>,
    },
    /// Manage agents.
    #[command(subcommand)]
    Agent(AgentCommand),
    /// Prints the service definition `install` writes on OS (linux, macos or windows), for this
    /// binary and data directory (tests read the other systems' definitions with their parsers).
    #[command(hide = true)]
    ServiceDefinition { os: String },
    /// The Windows task's supervisor: runs `serve` and starts it again after a crash.
    #[command(hide = true)]
    ServiceRun {
        #[arg(long)]
        quiet: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum AgentCommand {
    /// Add an agent with its own MCP URL.
    Add { name: String },
    /// List agents with their MCP URLs.
    List {
        /// Print `[{ handle, name, mcp_url }]` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Remove an agent, its pairings and pins.
    Remove { name: String },
}

/// The default data directory on this system (see [`Places::data_dir`]).
pub fn default_data_dir() -> PathBuf {
    Places::from_env().data_dir()
}

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Serve(#[from] crate::server::ServeError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("could not read the dock password file {0}: {1}")]
    PasswordFile(String, std::io::Error),
    #[error(transparent)]
    Install(#[from] crate::install::InstallError),
    #[error(transparent)]
    Config(#[from] crate::client_config::ConfigError),
    #[error("{0}")]
    Usage(String),
    /// `doctor` found problems (already printed).
    #[error("{0} problem(s) found")]
    Problems(usize),
}

impl CliError {
    /// The process's exit status for this error: [`instance::EXIT_ALREADY_RUNNING`] when another
    /// hub serves the data, else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Serve(crate::server::ServeError::Instance(
                instance::InstanceError::AlreadyRunning { .. },
            )) => instance::EXIT_ALREADY_RUNNING,
            _ => 1,
        }
    }
}

/// The dock's password: `--dock-password-file`'s first line, else `APC_HUB_DOCK_PASSWORD`.
fn dock_password(cli: &Cli) -> Result<Option<String>, CliError> {
    if let Some(path) = &cli.dock_password_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::PasswordFile(path.display().to_string(), e))?;
        return Ok(text.lines().next().map(str::to_owned));
    }
    Ok(std::env::var("APC_HUB_DOCK_PASSWORD")
        .ok()
        .filter(|p| !p.is_empty()))
}

/// Logs to stderr at `level`.
fn init_logging(level: tracing::Level) {
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

fn default_listen() -> SocketAddr {
    DEFAULT_LISTEN.parse().expect("valid default")
}

/// The origin commands put in MCP URLs: where a hub serves this data now; else `--listen` when
/// given with a real port; else the origin the hub last served from; else the default.
fn current_origin(cli: &Cli, data_dir: &Path, store: &Store) -> Result<String, CliError> {
    if let Ok(Probe::Running(Some(info))) = instance::probe(data_dir) {
        return Ok(info.origin);
    }
    if let Some(addr) = cli.listen.filter(|a| a.port() != 0) {
        return Ok(origin_of_addr(addr));
    }
    if let Some(origin) = store.meta(META_ORIGIN)? {
        return Ok(origin);
    }
    Ok(origin_of_addr(default_listen()))
}

fn find_agent(store: &Store, name: Option<&str>) -> Result<Agent, CliError> {
    let name = name.unwrap_or(crate::store::DEFAULT_AGENT);
    let agents = store.agents()?;
    let names: Vec<_> = agents.iter().map(|a| a.name.clone()).collect();
    agents.into_iter().find(|a| a.name == name).ok_or_else(|| {
        CliError::Usage(format!(
            "this hub has no agent {name:?}; its agents: {}. Add one with `apc-hub agent add NAME`.",
            names.join(", ")
        ))
    })
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    let places = Places::from_env();
    let data_dir = cli.data_dir.clone().unwrap_or_else(|| places.data_dir());
    match &cli.command {
        None => serve_command(&cli, data_dir, false),
        Some(Command::Serve { quiet }) => serve_command(&cli, data_dir, *quiet),
        Some(Command::ServiceRun { quiet }) => {
            let exe = std::env::current_exe()?;
            let listen = cli.listen.unwrap_or_else(default_listen);
            let mut args = vec!["serve".to_owned()];
            if *quiet {
                args.push("--quiet".into());
            }
            args.extend([
                "--listen".into(),
                listen.to_string(),
                "--data-dir".into(),
                data_dir.to_string_lossy().into_owned(),
            ]);
            let log = places
                .log_dir()
                .unwrap_or_else(|| data_dir.clone())
                .join("hub.log");
            Ok(crate::service::supervise(&exe, &args, &log)?)
        }
        Some(Command::ServiceDefinition { os }) => {
            let os = match os.as_str() {
                "linux" => crate::places::Os::Linux,
                "macos" => crate::places::Os::MacOs,
                "windows" => crate::places::Os::Windows,
                _ => return Err(CliError::Usage("OS is linux, macos or windows".into())),
            };
            let mut for_os = places.clone();
            for_os.os = os;
            let spec = crate::service::Spec {
                exe: for_os.installed_exe(),
                listen: cli.listen.unwrap_or_else(default_listen).to_string(),
                data_dir: data_dir.clone(),
                log_dir: for_os.log_dir(),
            };
            use std::io::Write;
            std::io::stdout().write_all(&crate::service::definition(&for_os, &spec))?;
            Ok(())
        }
        Some(Command::Install) => {
            let listen = cli
                .listen
                .or_else(|| crate::install::installed_listen(&places))
                .unwrap_or_else(default_listen);
            let mut out = Vec::new();
            let result = crate::install::install(&places, &data_dir, listen, &mut out);
            for line in &out {
                println!("{line}");
            }
            Ok(result?)
        }
        Some(Command::Uninstall) => {
            let mut out = Vec::new();
            let result = crate::install::uninstall(&places, &data_dir, &mut out);
            for line in &out {
                println!("{line}");
            }
            Ok(result?)
        }
        Some(Command::Status { json }) => {
            let report = status_report(&cli, &places, &data_dir);
            if *json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            } else {
                print!("{}", crate::status::render(&report));
            }
            Ok(())
        }
        Some(Command::Doctor) => {
            let report = status_report(&cli, &places, &data_dir);
            if report.problems.is_empty() {
                println!("No problems found.");
                return Ok(());
            }
            for p in &report.problems {
                println!("- {}\n  Next: {}", p.what, p.next);
            }
            Err(CliError::Problems(report.problems.len()))
        }
        Some(Command::Connect {
            client,
            agent,
            write,
            json,
        }) => connect(
            &cli,
            &places,
            &data_dir,
            client.as_deref(),
            agent.as_deref(),
            *write,
            *json,
        ),
        Some(Command::Mcp { agent }) => mcp(&places, &data_dir, agent.clone()),
        Some(Command::Agent(cmd)) => {
            let store = Store::open(&data_dir)?;
            store.ensure_default_agent(crate::store::DEFAULT_AGENT, &now())?;
            let origin = current_origin(&cli, &data_dir, &store)?;
            match cmd {
                AgentCommand::Add { name } => {
                    let agent = store.add_agent(name, &now())?;
                    let url = Hub::mcp_url(&origin, &agent.secret);
                    println!("Added agent \"{}\" (handle {})", agent.name, agent.handle);
                    println!("  MCP URL: {url}");
                    for (client, line) in crate::dock::connect_lines(&agent, &url) {
                        println!("  {client}: {line}");
                    }
                }
                AgentCommand::List { json } => {
                    let agents = store.agents()?;
                    if *json {
                        let list: Vec<_> = agents
                            .iter()
                            .map(|a| {
                                json!({
                                    "handle": a.handle,
                                    "name": a.name,
                                    "mcp_url": Hub::mcp_url(&origin, &a.secret),
                                })
                            })
                            .collect();
                        println!("{}", serde_json::Value::Array(list));
                    } else {
                        for a in &agents {
                            println!(
                                "{}\t{}\t{}",
                                a.name,
                                a.handle,
                                Hub::mcp_url(&origin, &a.secret)
                            );
                        }
                    }
                }
                AgentCommand::Remove { name } => {
                    let agent = store.remove_agent(name)?;
                    println!(
                        "Removed agent \"{}\" (handle {}) and its pairings.",
                        agent.name, agent.handle
                    );
                }
            }
            Ok(())
        }
    }
}

fn serve_command(cli: &Cli, data_dir: PathBuf, quiet: bool) -> Result<(), CliError> {
    init_logging(cli.log);
    crate::server::raise_open_file_limit();
    let listen = cli.listen.unwrap_or_else(default_listen);
    let dock_password = dock_password(cli)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(ServeOptions {
        listen,
        data_dir,
        allow_hosts: cli.allow_host.clone(),
        allow_remote: cli.allow_remote,
        dock_password,
        limits: Limits::default(),
        quiet,
    }))?;
    Ok(())
}

fn status_report(cli: &Cli, places: &Places, data_dir: &Path) -> crate::status::Report {
    let listen = cli
        .listen
        .or_else(|| crate::install::installed_listen(places))
        .unwrap_or_else(default_listen);
    crate::status::report(&crate::status::Ask {
        places,
        data_dir,
        listen,
    })
}

/// `apc-hub connect`: prints each client's entry (or one client's), and with `--write` merges it
/// into that client's file.
fn connect(
    cli: &Cli,
    places: &Places,
    data_dir: &Path,
    client: Option<&str>,
    agent: Option<&str>,
    write: bool,
    as_json: bool,
) -> Result<(), CliError> {
    let client = match client {
        Some(id) => Some(Client::parse(id).ok_or_else(|| {
            let ids: Vec<_> = Client::ALL.iter().map(|c| c.id()).collect();
            CliError::Usage(format!("no client {id:?}; the clients: {}", ids.join(", ")))
        })?),
        None => None,
    };
    if write && client.is_none() {
        return Err(CliError::Usage(
            "--write needs a client, e.g. `apc-hub connect cursor --write`".into(),
        ));
    }
    let store = Store::open(data_dir)?;
    store.ensure_default_agent(crate::store::DEFAULT_AGENT, &now())?;
    let agent = find_agent(&store, agent)?;
    let origin = current_origin(cli, data_dir, &store)?;
    let url = Hub::mcp_url(&origin, &agent.secret);
    let target = Target::new(&agent.name, &url, &crate::install::exe_for_clients(places));
    let all = clients::connections(&target, places);
    let shown: Vec<_> = all
        .iter()
        .filter(|c| client.is_none_or(|want| c.client == want))
        .collect();
    if as_json {
        let list: Vec<_> = shown
            .iter()
            .map(|c| {
                json!({
                    "client": c.client.id(),
                    "name": c.client.name(),
                    "file": c.file,
                    "format": match c.client.format() {
                        clients::Format::Json => "json",
                        clients::Format::Jsonc => "jsonc",
                        clients::Format::Toml => "toml",
                    },
                    "entry_name": target.entry_name,
                    "snippet": c.snippet,
                    "command": c.command,
                    "link": c.link,
                    "web_link": c.web_link,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
    } else if !write {
        println!("Agent {:?}: {url}", agent.name);
        for c in &shown {
            println!("\n== {} ({})", c.client.name(), c.client.id());
            if let Some(command) = &c.command {
                println!("Run:\n  {command}");
            }
            if let Some(link) = &c.link {
                println!("Or open: {link}");
            }
            if let Some(link) = &c.web_link {
                println!("     or: {link}");
            }
            println!("Or add to {}:", c.file.display());
            for line in c.snippet.lines() {
                println!("  {line}");
            }
            println!(
                "(apc-hub connect {} --write does it for you.)",
                c.client.id()
            );
        }
    }
    if write {
        let client = client.expect("checked above");
        let path = client.config_path(places);
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
        let written = crate::client_config::write(client, &path, &target, &stamp)?;
        use crate::client_config::Merged;
        match &written.merged {
            Merged::Unchanged => println!(
                "{} already has {:?} for this agent in {}: nothing to change.",
                client.name(),
                target.entry_name,
                written.path.display()
            ),
            merged => {
                let what = match merged {
                    Merged::Created => "Created",
                    Merged::Added => "Added the entry to",
                    _ => "Replaced the old apc-hub entry in",
                };
                println!(
                    "{what} {} ({:?} → {}).",
                    written.path.display(),
                    target.entry_name,
                    if client.uses_stdio() {
                        format!("{} mcp --agent {}", target.exe.display(), agent.name)
                    } else {
                        url.clone()
                    }
                );
                if let Some(backup) = &written.backup {
                    println!("The file as it was is kept in {}.", backup.display());
                }
                println!("{}", client.after_writing());
            }
        }
    }
    Ok(())
}

/// `apc-hub mcp`: the agent's MCP URL, from the running hub (started through the installed
/// service when none runs), then the stdio relay.
fn mcp(places: &Places, data_dir: &Path, agent: Option<String>) -> Result<(), CliError> {
    if !data_dir.join("hub.sqlite3").exists() {
        let why = format!(
            "apc-hub mcp: there is no hub data in {}. Run `apc-hub install` first (or give --data-dir).",
            data_dir.display()
        );
        eprintln!("{why}");
        return Err(CliError::Usage(why));
    }
    let secret = {
        let store = Store::open(data_dir)?;
        find_agent(&store, agent.as_deref())?.secret
    };
    let (places, data_dir) = (places.clone(), data_dir.to_owned());
    let locate = move || -> Result<String, String> {
        let origin = match instance::probe(&data_dir) {
            Ok(Probe::Running(Some(info))) => info.origin,
            _ => start_hub(&places, &data_dir)?,
        };
        Ok(Hub::mcp_url(&origin, &secret))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(crate::relay::run(locate))?;
    Ok(())
}

/// Starts the installed service and waits for its hub (10 s at most); else says how to start one.
fn start_hub(places: &Places, data_dir: &Path) -> Result<String, String> {
    let how = "Start it with `apc-hub install` (now and at every login) or `apc-hub serve`.";
    match crate::service::state(places) {
        crate::service::State::NotInstalled => {
            return Err(format!(
                "No apc-hub is running for the data in {}. {how}",
                data_dir.display()
            ))
        }
        crate::service::State::Installed { .. } => {
            crate::service::start(places).map_err(|e| {
                format!("No apc-hub is running, and its service did not start ({e}). {how}")
            })?;
        }
    }
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < until {
        if let Ok(Probe::Running(Some(info))) = instance::probe(data_dir) {
            return Ok(info.origin);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Err(format!(
        "The hub's service was started but no hub answered within 10 s; see `apc-hub status`. {how}"
    ))
}
