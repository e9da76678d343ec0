//! The APC standard 0.7.0 in pure Rust: constants, wire types, the focus grammar, `apc.json`,
//! the hub's naming rules, the drag payload, the extension's own notes and the page app link.
//! No web-sys: it builds and tests natively and for wasm32-unknown-unknown, and every other crate
//! takes its rules from here.
//!
//! | module | owns |
//! |---|---|
//! | [`types`] | wire types of the channels (`FocusTarget`, `FocusPayload`, `ViewPayload`, …) |
//! | [`target`] | the focus grammar: `parse_params`, `parse_target`, `canonical_target`, attributes |
//! | [`markdown`] | GitHub Markdown for the agent: escaping page text, code fences, links, cuts |
//! | [`manifest`] | `apc.json`: `parse_apc_manifest`, `declares_mcp_url`, `url_on_origin`, versions |
//! | [`core_rules`] | core tools and keys, profiles, revoke, mobile, `apc_link` |
//! | [`drag`] | the drag payload and its checked parser |
//! | [`hub_naming`] | an unverified app's id from its host, `<app>__<tool>` |
//! | [`host`] | `display_host`: how a domain is shown to a person; web origins, typed hub addresses, loopback |
//! | [`notes`] | the extension's notes for a drop on a page it cannot pair |
//! | [`page_link`] | the page app link between the extension and a hub, and the checks of every hub answer |
//! | [`pairing_code`] | the pairing code's grammar: a ticket as a person types and reads it |
//! | [`drop_answer`] | what a drop on a page gets, from that origin's `apc.json` |
//! | [`reading_rules`] | `PageReading::check`: the one rule set for a reading (URL, targets, sizes) |
//! | [`conformance`] | the standard's functions by their JavaScript names, for differential tests |
//! | [`js`] | the JavaScript semantics the rules lean on |

pub mod conformance;
pub mod core_rules;
pub mod drag;
pub mod drop_answer;
pub mod host;
pub mod hub_naming;
pub mod js;
pub mod manifest;
pub mod markdown;
pub mod notes;
pub mod page_link;
pub mod pairing_code;
pub mod reading_rules;
pub mod target;
pub mod types;
pub mod url_parse;

pub use core_rules::*;
pub use drag::{parse_drag_payload, DragPayload, DragPayloadError, APC_DRAG_MIME};
pub use host::{
    display_host, display_origin, hub_address_origin, is_loopback_url, web_origin, WebOrigin,
};
pub use hub_naming::{app_id_for_host, app_tool_name, AppIdError, ToolNameError};
pub use manifest::{
    check_pairing, check_pairing_without_file, compare_standard, could_not_check_note,
    declares_mcp_url, direct_only_note, parse_apc_manifest, url_on_origin, ApcJsonRefusal,
    ApcManifest, ApcRole, ManifestError, APC_DEFAULT_MCP_PATH, APC_JSON_MAX_BYTES, APC_JSON_PATH,
    APC_ROLES,
};
pub use notes::{page_could_not_check_note, page_direct_only_note, ExtensionNote};
pub use target::{
    canonical_target, focus_attrs, parse_focus_attrs, parse_params, parse_target, FocusAttrs,
    PARAMS_MAX_BYTES, PART_RE,
};
pub use types::*;

/// The version of the APC standard this crate implements.
pub const APC_STANDARD_VERSION: &str = "0.7.0";

#[cfg(test)]
mod invariants {
    /// ARCHITECTURE.md: "core does no IO". Its dependencies are parsing and data crates only; a
    /// new one must be added here on purpose (and must not be a network, file, browser or async crate).
    #[test]
    fn core_depends_on_no_io_crate() {
        let manifest = include_str!("../Cargo.toml");
        let deps = manifest
            .split("[dependencies]")
            .nth(1)
            .expect("core has a [dependencies] table");
        let deps = deps.split("\n[").next().unwrap_or_default();
        let names: Vec<&str> = deps
            .lines()
            .filter_map(|l| l.split('=').next())
            .map(str::trim)
            .filter(|n| !n.is_empty() && !n.starts_with('#'))
            .collect();
        const PURE: &[&str] = &[
            "serde",
            "serde_json",
            "url",
            "idna",
            "thiserror",
            "indexmap",
            "icu_collator",
        ];
        for name in &names {
            assert!(
                PURE.contains(name),
                "apc-core depends on {name}: is it pure?"
            );
        }
        assert!(!names.is_empty());
    }

    /// No source file of core reaches for IO: files, sockets, processes, time or the browser.
    #[test]
    fn core_sources_call_no_io() {
        // Every source file but this one (whose tests name the IO paths they look for).
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let sources: Vec<String> = std::fs::read_dir(dir)
            .expect("core's src folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("lib.rs"))
            .map(|p| std::fs::read_to_string(p).expect("a source file"))
            .collect();
        assert!(sources.len() >= 14, "core's sources were not found");
        for src in &sources {
            for io in [
                "std::fs",
                "std::net",
                "std::process",
                "std::time::SystemTime",
                "std::env",
                "web_sys",
                "wasm_bindgen",
            ] {
                assert!(!src.contains(io), "core uses {io}");
            }
        }
    }

    /// ARCHITECTURE.md: every URL and host the core, the reader, the background and the hub read
    /// goes through `url_parse` (`new_url`, `parse_host`), the parser as the standard's JavaScript
    /// meets it; calling the `url` crate's parser directly would skip its refusals.
    #[test]
    fn urls_are_read_only_through_url_parse() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let mut dirs = vec![std::path::PathBuf::from(root)];
        let mut checked = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("a crate folder").flatten() {
                let path = entry.path();
                let name = path.to_string_lossy().into_owned();
                if path.is_dir() {
                    if !name.ends_with("/target") && !name.contains("/tests") {
                        dirs.push(path);
                    }
                    continue;
                }
                if !name.ends_with(".rs")
                    || !name.contains("/src/")
                    || name.ends_with("url_parse.rs")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a source file");
                // Unit tests may build a URL directly to look at it.
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                for call in ["Url::parse(", "Host::parse(", "Url::options("] {
                    assert!(
                        !code.contains(call),
                        "{name} calls {call}: use apc_core::url_parse"
                    );
                }
                checked += 1;
            }
        }
        assert!(
            checked >= 40,
            "the crates' sources were not found ({checked})"
        );
    }
}
