//! The command line: `apc-hub` (serve), `apc-hub agent add|list|remove`, with `--listen`,
//! `--data-dir`, `--allow-remote`, `--log` on every command.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use serde_json::json;

use crate::server::{origin_of_addr, serve, Limits, ServeOptions, META_ORIGIN};
use crate::state::{now, Hub};
use crate::store::Store;

/// The default address: loopback only.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7410";

#[derive(Debug, Parser)]
#[command(
    name = "apc-hub",
    version,
    about = "The local APC hub: your MCP clients connect to it, and the browser extension pins web page text for them."
)]
pub struct Cli {
    /// Address to listen on (loopback unless you say otherwise). `127.0.0.1:0` picks a free port.
    #[arg(long, global = true, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Where the hub keeps its database [default: $XDG_DATA_HOME/apc-hub or ~/.local/share/apc-hub]
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
    Serve,
    /// Manage agents.
    #[command(subcommand)]
    Agent(AgentCommand),
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

/// `$XDG_DATA_HOME/apc-hub`, or `~/.local/share/apc-hub`.
pub fn default_data_dir() -> PathBuf {
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg).join("apc-hub");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    home.join(".local/share/apc-hub")
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

/// The origin `agent` commands put in MCP URLs: `--listen` when given with a real port, else the
/// origin the hub last served from, else the default.
fn origin_for_listing(cli: &Cli, store: &Store) -> Result<String, CliError> {
    if let Some(addr) = cli.listen.filter(|a| a.port() != 0) {
        return Ok(origin_of_addr(addr));
    }
    if let Some(origin) = store.meta(META_ORIGIN)? {
        return Ok(origin);
    }
    Ok(origin_of_addr(
        DEFAULT_LISTEN.parse().expect("valid default"),
    ))
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    let data_dir = cli.data_dir.clone().unwrap_or_else(default_data_dir);
    match &cli.command {
        None | Some(Command::Serve) => {
            init_logging(cli.log);
            crate::server::raise_open_file_limit();
            let listen = cli
                .listen
                .unwrap_or_else(|| DEFAULT_LISTEN.parse().expect("valid default"));
            let dock_password = dock_password(&cli)?;
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
            }))?;
        }
        Some(Command::Agent(cmd)) => {
            let store = Store::open(&data_dir)?;
            store.ensure_default_agent(crate::server::DEFAULT_AGENT, &now())?;
            let origin = origin_for_listing(&cli, &store)?;
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
        }
    }
    Ok(())
}
