//! The standard targets on or around the pointed text: `data-focus` (with `data-focus-part` and
//! `data-focus-params`) read with the standard's grammar, invalid ones dropped (never guessed),
//! deduplicated by their canonical string, at most [`MAX_TARGETS`].

use std::collections::HashSet;

use apc_core::FocusTarget;

use crate::observation::Node;

/// Most targets a reading carries (the reading rule's cap, `apc_core::reading_rules`).
pub const MAX_TARGETS: usize = apc_core::reading_rules::READING_MAX_TARGETS;

/// Reads the targets of `elements` (in the order given, nearest first), dropping invalid ones and
/// repeats, keeping at most [`MAX_TARGETS`].
pub(crate) fn targets<'a>(elements: impl IntoIterator<Item = &'a Node>) -> Vec<FocusTarget> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for node in elements {
        let Some(focus) = node.attr("data-focus") else {
            continue;
        };
        let Some(target) = grammar::parse_focus_attrs(
            Some(focus),
            node.attr("data-focus-part"),
            node.attr("data-focus-params"),
        ) else {
            continue;
        };
        if seen.insert(grammar::canonical_target(&target)) {
            out.push(target);
            if out.len() == MAX_TARGETS {
                break;
            }
        }
    }
    out
}

/// The standard's grammar lives in apc-core, once; this module only names it.
mod grammar {
    pub(super) use apc_core::{canonical_target, parse_focus_attrs};
}
