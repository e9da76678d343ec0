//! `apc-hub`: the local APC hub. MCP clients (Claude Code, Cursor, …) connect to an agent's secret URL
//! over Streamable HTTP; the browser extension (the hub's app with id `page`) pairs with an agent
//! through the dock page and pins web page readings for it. See `docs/hub.md`.
//!
//! Modules, from the bottom up: [`secrets`], [`store`] (SQLite and its one thread), [`tickets`],
//! [`error`] (the one error type, mapped once to the wire), [`state`] (the shared state, a leaf that
//! imports none of the layers above), [`security`] (Host, Origin, CSRF, minting, the dock's password),
//! [`focus`] (a pin as a focus), [`page`] (the page app's endpoints), [`agent_reading`] (a reading as
//! `page__get_reading` answers it: Markdown, in parts within a budget), [`mcp`] (the agent's tools),
//! [`dock`] (the dock page), [`conn`] (a connection's refusals as JSON), [`server`] (routes, the accept
//! loop and its limits, startup), [`cli`] (command line). `testkit` (feature `test-support`) is
//! what the crate's tests, examples and benchmark share.

pub mod agent_reading;
pub mod cli;
pub mod client_config;
pub mod clients;
pub mod conn;
pub mod dock;
pub mod error;
pub mod focus;
pub mod install;
pub mod instance;
pub mod mcp;
pub mod page;
pub mod places;
pub mod relay;
pub mod secrets;
pub mod security;
pub mod server;
pub mod service;
pub mod state;
pub mod status;
pub mod store;
#[cfg(feature = "test-support")]
pub mod testkit;
pub mod tickets;

pub use server::{router, serve, ServeOptions};
pub use state::Hub;
