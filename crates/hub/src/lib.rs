//! `apc-hub`: the local APC hub. MCP clients (Claude Code, Cursor, …) connect to an agent's secret URL
//! over Streamable HTTP; the browser extension (the hub's app with id `page`) pairs with an agent
//! through the dock page and pins web page readings for it. See `docs/hub.md`.
//!
//! Modules: [`cli`] (command line), [`server`] (routes, startup), [`store`] (SQLite), [`tickets`],
//! [`secrets`], [`security`] (Host, Origin, CSRF), [`page`] (the page app's endpoints), [`mcp`] (the
//! agent's tools), [`focus`] (a pin as a focus), [`dock`] (the dock page), [`error`].

pub mod cli;
pub mod conn;
pub mod dock;
pub mod error;
pub mod focus;
pub mod mcp;
pub mod page;
pub mod secrets;
pub mod security;
pub mod server;
pub mod state;
pub mod store;
pub mod tickets;

pub use server::{router, serve, ServeOptions};
pub use state::Hub;
