//! `parse_target` (and the JSON forms of `canonical_target` and `focus_attrs`) over any JSON a page
//! or the wire can send: never a panic; an accepted target reads back from its own JSON and from
//! its DOM attributes, and its canonical string does not depend on its params' order.
#![no_main]
use apc_core::target::{canonical_target_json, focus_attrs_json, is_kind};
use apc_core::{canonical_target, focus_attrs, parse_focus_attrs, parse_target};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let _ = canonical_target_json(&raw);
    let _ = focus_attrs_json(&raw);
    let Some(t) = parse_target(&raw) else {
        return;
    };
    assert!(is_kind(&t.kind));
    assert!(t.id.is_some() || t.params.is_some());
    let own = serde_json::to_value(&t).expect("a target is JSON");
    assert_eq!(parse_target(&own).as_ref(), Some(&t), "own JSON");
    let attrs = focus_attrs(&t);
    let back = parse_focus_attrs(
        Some(&attrs.data_focus),
        attrs.data_focus_part.as_deref(),
        attrs.data_focus_params.as_deref(),
    );
    assert_eq!(back.as_ref(), Some(&t), "through its DOM attributes");
    if let Some(params) = &t.params {
        let mut reversed = t.clone();
        reversed.params = Some(
            params
                .iter()
                .rev()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        );
        assert_eq!(canonical_target(&reversed), canonical_target(&t));
    }
});
