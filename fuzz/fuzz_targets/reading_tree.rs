//! `build_reading` over observations built from the fuzzer's bytes as well-formed trees (elements
//! of the tags and styles the rules look at, text of multi-byte characters, no-break and other
//! spaces, anchors anywhere in or past a text), so the input reaches the renderer and the main-text
//! rules instead of stopping at JSON syntax: never a panic, and a reading within its cap.
#![no_main]
use apc_content::build_reading;
use apc_core::page_link::READING_MAX_BYTES;
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(obs) = apc_fuzz::observation(&mut u) else {
        return;
    };
    if let Ok(reading) = build_reading(&obs, "2026-11-30T00:00:00Z") {
        let json = serde_json::to_string(&reading).expect("a reading is JSON");
        assert!(json.len() <= READING_MAX_BYTES);
    }
});
