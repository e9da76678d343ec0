//! `parse_params` over any JSON: never a panic; accepted params fit `PARAMS_MAX_BYTES`, hold only
//! param keys and tokens, and read back as themselves.
#![no_main]
use apc_core::target::{is_param_key, is_token};
use apc_core::types::KeyValue;
use apc_core::{parse_params, PARAMS_MAX_BYTES};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Some(params) = parse_params(&raw) else {
        return;
    };
    let text = serde_json::to_string(&params).expect("params are JSON");
    assert!(text.len() <= PARAMS_MAX_BYTES);
    for (key, value) in &params {
        assert!(is_param_key(key), "{key:?}");
        match value {
            KeyValue::One(t) => assert!(is_token(t)),
            KeyValue::Many(ts) => {
                assert!(!ts.is_empty() && ts.len() <= 20 && ts.iter().all(|t| is_token(t)))
            }
        }
    }
    let again: Value = serde_json::from_str(&text).expect("JSON reads back");
    assert_eq!(parse_params(&again).as_ref(), Some(&params));
});
