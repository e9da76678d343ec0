//! `Observation::from_json` + `build_reading` over any JSON a content script (or a page posing as
//! one) can send: never a panic, and a reading is within `READING_MAX_BYTES`. The reading holds
//! text, not offsets, so a span cut inside a character shows as the panic this target catches.
//! The same observation written back as visible HTML (`visible_html`, road (b)'s input) never
//! panics either, and is one document.
#![no_main]
use apc_content::{build_reading, visible_html, Observation};
use apc_core::page_link::READING_MAX_BYTES;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(obs) = Observation::from_json(raw) else {
        return;
    };
    if let Ok(html) = visible_html(&obs) {
        assert!(html.starts_with("<!doctype html>") && html.ends_with("</html>"));
    }
    if let Ok(reading) = build_reading(&obs, "2026-11-30T00:00:00Z") {
        let json = serde_json::to_string(&reading).expect("a reading is JSON");
        assert!(json.len() <= READING_MAX_BYTES, "{} bytes", json.len());
    }
});
