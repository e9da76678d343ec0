//! The HTTP server: routes, the `Host` check on every request, JSON for every refusal (unknown path,
//! wrong method), and startup (bind, default agent, the lines a person pastes into their MCP client).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::{any, get, post};
use axum::Router;

use crate::error::HubError;
use crate::page::{
    APC_JSON_PATH, DOCK_CONFIRM_PATH, DOCK_PAIR_PATH, PAGE_GRANT_PATH, PAGE_PAIR_PATH,
    PAGE_PIN_PATH,
};
use crate::state::{now, Hub};
use crate::store::Store;
use crate::{dock, mcp, page, security};

/// The default agent's name, made on the first start.
pub const DEFAULT_AGENT: &str = "default";
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
    Router::new()
        .merge(page_routes)
        .route(DOCK_PAIR_PATH, any(page::dock_profile_not_supported))
        .route(DOCK_CONFIRM_PATH, any(page::dock_profile_not_supported))
        .route("/mcp/{secret}", any(mcp::endpoint))
        .route("/", get(dock::page))
        .route("/dock.js", get(dock::script))
        .route("/dock.css", get(dock::style))
        .route("/dock/tickets", post(dock::mint_ticket))
        .route("/dock/revoke", post(dock::revoke))
        .fallback(|| async { HubError::NotFound("Nothing here.".into()) })
        .method_not_allowed_fallback(|| async {
            HubError::MethodNotAllowed("This endpoint does not take that method.".into())
        })
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            security::check_host,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(1024 * 1024))
        .with_state(hub)
}

/// How the hub is started.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    /// Host names besides loopback that requests may use (`--allow-host`).
    pub allow_hosts: Vec<String>,
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
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("could not listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Binds, prints `apc-hub listening on <origin>` as the first line of stdout, then each agent's MCP
/// URL and how to add it to common clients, and serves until SIGINT or SIGTERM.
pub async fn serve(options: ServeOptions) -> Result<(), ServeError> {
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
    let hub = Arc::new(Hub::new(store, origin.clone(), extra_hosts));

    let mut out = std::io::stdout().lock();
    writeln!(out, "apc-hub listening on {origin}")?;
    out.flush()?;
    if !addr.ip().is_loopback() {
        writeln!(
            out,
            "Warning: listening on {addr}, not only on loopback: other machines may reach this hub."
        )?;
    }
    writeln!(out, "Dock page (drag your agents from here): {origin}/")?;
    writeln!(out, "Data: {}", options.data_dir.display())?;
    for agent in &agents {
        let url = Hub::mcp_url(&origin, &agent.secret);
        writeln!(out, "\nAgent \"{}\" (handle {})", agent.name, agent.handle)?;
        writeln!(out, "  MCP URL: {url}")?;
        for (client, line) in dock::connect_lines(agent, &url) {
            writeln!(out, "  {client}: {line}")?;
        }
    }
    out.flush()?;
    drop(out);

    let app = router(hub.clone());
    let server = axum::serve(listener, app).with_graceful_shutdown(async {
        shutdown_signal().await;
    });
    // Open MCP streams (a wait, an SSE stream) would hold a graceful shutdown: give them a moment.
    tokio::select! {
        result = server => result?,
        _ = async {
            shutdown_signal().await;
            tokio::time::sleep(Duration::from_secs(2)).await;
        } => {}
    }
    Ok(())
}
