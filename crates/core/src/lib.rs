//! The APC standard 0.7.0 in pure Rust: constants, wire types, the focus grammar, `apc.json`,
//! the hub's naming rules and the page app link. No web-sys: it builds and tests natively and for
//! wasm32-unknown-unknown, and every other crate takes its rules from here.

pub mod page_link;
pub mod types;

pub use types::*;

/// The version of the APC standard this crate implements.
pub const APC_STANDARD_VERSION: &str = "0.7.0";
