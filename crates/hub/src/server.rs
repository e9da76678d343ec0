//! The HTTP server: routes, the `Host` check on every request, JSON for every refusal (unknown path,
//! wrong method, a lower layer's refusal), the connection limits (header-read timeout, connection
//! cap), and startup (loopback unless the person allows remote with a dock password; bind, default
//! agent, the lines a person pastes into their MCP client).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::{any, get, post};
use axum::Router;

use crate::conn::JsonRefusals;
use crate::error::{json_refusal, HubError};
use crate::page::{
    APC_JSON_PATH, DOCK_CONFIRM_PATH, DOCK_PAIR_PATH, PAGE_GRANT_PATH, PAGE_PAIR_PATH,
    PAGE_PIN_PATH,
};
use crate::state::{now, Hub};
use crate::store::{Db, Store};
use crate::{dock, mcp, page, security};

pub use crate::store::DEFAULT_AGENT;
/// Where the DB keeps the origin the hub last served from (for `agent list`).
pub const META_ORIGIN: &str = "origin";

/// `OPTIONS` on a page endpoint: routed so that `page::cors` answers the preflight.
async fn preflight() -> axum::http::StatusCode {
    axum::http::StatusCode::NO_CONTENT
}

pub fn router(hub: Arc<Hub>) -> Router {
    let page_routes = Router::new()
        .route(APC_JSON_PATH, get(page::apc_json).options(preflight))
        .route(
            PAGE_PAIR_PATH,
            post(page::pair)
                .get(page::ticket_preview)
                .options(preflight),
        )
        .route(
            PAGE_PIN_PATH,
            axum::routing::put(page::put_pin)
                .delete(page::delete_pin)
                .options(preflight),
        )
        .route(
            PAGE_GRANT_PATH,
            get(page::grant_status)
                .delete(page::give_back)
                .options(preflight),
        )
        .layer(axum::middleware::from_fn(page::cors));
    let dock_routes = Router::new()
        .route("/", get(dock::page))
        .route("/dock.js", get(dock::script))
        .route("/dock.css", get(dock::style))
        .route("/dock/tickets", post(dock::mint_ticket))
        .route("/dock/pairings", get(dock::live_pairings))
        .route("/dock/connect", get(dock::connect))
        .route("/dock/revoke", post(dock::revoke))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            security::check_dock_password,
        ));
    let mcp_routes = Router::new()
        .route(
            &format!("{}{{secret}}", apc_core::APC_DEFAULT_MCP_PATH),
            any(mcp::endpoint),
        )
        .with_state(Arc::new(mcp::McpServices::new(hub.clone())));
    Router::new()
        .merge(page_routes)
        .merge(dock_routes)
        .merge(mcp_routes)
        .route(DOCK_PAIR_PATH, any(page::dock_profile_not_supported))
        .route(DOCK_CONFIRM_PATH, any(page::dock_profile_not_supported))
        .fallback(|| async { HubError::NotFound("Nothing here.".into()) })
        .method_not_allowed_fallback(|| async {
            HubError::MethodNotAllowed("This endpoint does not take that method.".into())
        })
        .layer(axum::middleware::from_fn(security::check_uri_length))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            security::check_host,
        ))
        .layer(axum::middleware::from_fn(security::check_header_size))
        .layer(axum::extract::DefaultBodyLimit::max(1024 * 1024))
        .layer(axum::middleware::from_fn(json_refusal))
        .with_state(hub)
}

/// The connection limits: how long a client may take to send a request's headers (idle keep-alive
/// connections included: hyper's timer runs from the moment the hub waits for a request), and how
/// many connections are open at once (past it, new ones wait in the kernel's backlog).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_read_timeout: Duration,
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(HEADER_READ_TIMEOUT_S),
            max_connections: default_max_connections(),
        }
    }
}

/// Seconds a client has to send a request's headers (and an idle keep-alive connection stays open).
pub const HEADER_READ_TIMEOUT_S: u64 = 20;

/// Raises the process's open-file limit to its hard limit (at most 16,384): each waiting agent holds a
/// connection, and the connection cap below is sized from this limit.
pub fn raise_open_file_limit() {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct they are given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                let wanted = limit.rlim_max.min(16_384);
                if wanted > limit.rlim_cur {
                    limit.rlim_cur = wanted;
                    libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
                }
            }
        }
    }
}

/// The most connections at once: 4,096, or fewer when the process may open fewer files (leaving 64
/// for the database, the listener and the rest), so that a flood of connections never takes the
/// descriptors the hub itself needs.
fn default_max_connections() -> usize {
    const WANTED: usize = 4096;
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            let soft = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
            return WANTED.min(soft.saturating_sub(64).max(16));
        }
    }
    WANTED
}

/// Serves `app` on `listener` with `limits` until `shutdown` resolves: HTTP/1.1, each connection a
/// task, at most `max_connections` of them.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => return,
            },
            _ = &mut shutdown => return,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut shutdown => return,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors or a connection reset before accept: wait a moment.
                tracing::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout)
                .keep_alive(true)
                .serve_connection(TokioIo::new(JsonRefusals::new(stream)), service);
            if let Err(e) = connection.await {
                tracing::debug!("connection: {e}");
            }
            drop(slot);
        });
    }
}

/// How the hub is started.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    /// Host names besides loopback that requests may use (`--allow-host`).
    pub allow_hosts: Vec<String>,
    /// `--allow-remote`: the person's explicit choice to listen beyond loopback.
    pub allow_remote: bool,
    /// The dock's password, required with `--allow-remote`.
    pub dock_password: Option<String>,
    pub limits: Limits,
    /// Print only the first line of stdout (no MCP URLs): how the installed service runs.
    pub quiet: bool,
}

/// Whether `addr` is reachable only from this computer.
pub fn is_loopback_listen(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// The origin a bound address is reached at: a wildcard address is reached on loopback.
pub fn origin_of_addr(addr: SocketAddr) -> String {
    let ip = addr.ip();
    if ip.is_unspecified() || ip.is_loopback() {
        if ip.is_ipv6() && !ip.is_unspecified() {
            format!("http://[::1]:{}", addr.port())
        } else {
            format!("http://127.0.0.1:{}", addr.port())
        }
    } else {
        format!("http://{addr}")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("refusing to listen on {0}: it is reachable beyond this computer, and the dock shows every agent's MCP secret. Listen on 127.0.0.1, or pass --allow-remote with a dock password (APC_HUB_DOCK_PASSWORD or --dock-password-file).")]
    RemoteRefused(SocketAddr),
    #[error("--allow-remote needs a dock password of at least 12 characters (APC_HUB_DOCK_PASSWORD or --dock-password-file)")]
    PasswordMissing,
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("could not listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Instance(#[from] crate::instance::InstanceError),
}

/// What stops the hub: SIGTERM or SIGINT (Ctrl-C elsewhere). On Unix the signal streams are made
/// here, when this is called, not when the future is first polled: `serve` calls it before it prints
/// that it listens, so a launcher that stops the hub right after that line is heard. (Made lazily, a
/// SIGTERM in the moment between the line and the first poll was caught by the handler and then
/// lost, and the hub ran on: seen on a loaded CI machine, about 7 in 1,000 quick stops.)
fn shutdown_signal() -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            return Box::pin(async move {
                tokio::select! {
                    _ = term.recv() => {},
                    _ = int.recv() => {},
                }
            });
        }
    }
    Box::pin(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

fn print_welcome(
    out: &mut impl Write,
    addr: SocketAddr,
    origin: &str,
    data_dir: &std::path::Path,
    agents: &[crate::store::Agent],
) -> std::io::Result<()> {
    if !addr.ip().is_loopback() {
        writeln!(
            out,
            "Warning: listening on {addr}, not only on loopback: other machines may reach this hub. The dock asks for its password."
        )?;
    }
    writeln!(out, "Dock page (drag your agents from here): {origin}/")?;
    writeln!(out, "Data: {}", data_dir.display())?;
    for agent in agents {
        let url = Hub::mcp_url(origin, &agent.secret);
        writeln!(out, "\nAgent \"{}\" (handle {})", agent.name, agent.handle)?;
        writeln!(out, "  MCP URL: {url}")?;
        for (client, line) in dock::connect_lines(agent, &url) {
            writeln!(out, "  {client}: {line}")?;
        }
    }
    out.flush()
}

/// Gives glibc's freed heap pages back to the OS every 10 s (glibc keeps them otherwise). The binary's
/// Rust allocations are jemalloc's, which returns its own pages (`main.rs`); SQLite's C code and the
/// library used without that allocator (tests, embedders) allocate from glibc.
async fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut every = tokio::time::interval(Duration::from_secs(10));
        loop {
            every.tick().await;
            // SAFETY: malloc_trim only releases free memory at the top and inside the heap.
            let _ = tokio::task::spawn_blocking(|| unsafe { libc::malloc_trim(0) }).await;
        }
    }
}

/// Binds, prints `apc-hub listening on <origin>` as the first line of stdout, then each agent's MCP
/// URL and how to add it to common clients, and serves until SIGINT or SIGTERM.
pub async fn serve(options: ServeOptions) -> Result<(), ServeError> {
    let remote = !is_loopback_listen(&options.listen);
    if remote && !options.allow_remote {
        return Err(ServeError::RemoteRefused(options.listen));
    }
    let dock_password = match (&options.dock_password, remote) {
        (Some(p), _) if p.chars().count() >= 12 => Some(p.clone()),
        (_, true) => return Err(ServeError::PasswordMissing),
        (Some(_), false) => return Err(ServeError::PasswordMissing),
        (None, false) => None,
    };
    // One hub per data directory: the lock is taken before the database is opened, and held until
    // this function returns (the OS frees it however the process ends).
    crate::store::prepare_data_dir(&options.data_dir)?;
    let instance = crate::instance::acquire(&options.data_dir)?;
    let store = Store::open(&options.data_dir)?;
    store.ensure_default_agent(DEFAULT_AGENT, &now())?;
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| ServeError::Bind(options.listen, e))?;
    let addr = listener.local_addr()?;
    let origin = origin_of_addr(addr);
    store.set_meta(META_ORIGIN, &origin)?;
    let mut extra_hosts = options.allow_hosts.clone();
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        extra_hosts.push(addr.ip().to_string());
    }
    let agents = store.agents()?;
    let mut hub = Hub::new(Db::spawn(store), origin.clone(), extra_hosts);
    hub.dock_password = dock_password;
    let hub = Arc::new(hub);

    // Before the hub says it listens: a stop asked from then on is never missed.
    let stop = shutdown_signal();
    instance.announce(&origin)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "apc-hub listening on {origin}")?;
    out.flush()?;
    // The rest is for the person: a closed stdout (a launcher that read the first line) stops nothing.
    if !options.quiet {
        if let Err(e) = print_welcome(&mut out, addr, &origin, &options.data_dir, &agents) {
            tracing::debug!("stdout: {e}");
        }
    }
    drop(out);

    let app = router(hub.clone());
    tokio::spawn(return_freed_memory());
    tracing::info!("serving on {origin}");
    serve_on(listener, app, options.limits, stop).await;
    tracing::info!("stopped");
    drop(instance);
    Ok(())
}
