//! The APC standard 0.7.0 in pure Rust (placeholder: the full port lands with issue 2).

/// The version of the APC standard this crate implements.
pub const APC_STANDARD_VERSION: &str = "0.7.0";
