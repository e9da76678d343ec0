//! `parse_focus_attrs` over any three attribute values a page can set: never a panic; a target it
//! accepts is one `parse_target` accepts as is.
#![no_main]
use apc_core::{parse_focus_attrs, parse_target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Option<&str>, Option<&str>, Option<&str>)| {
    let (focus, part, params) = input;
    if let Some(t) = parse_focus_attrs(focus, part, params) {
        let own = serde_json::to_value(&t).expect("a target is JSON");
        assert_eq!(parse_target(&own).as_ref(), Some(&t));
    }
});
