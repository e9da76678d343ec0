//! `parse_drag_payload` over any drag data a page can put under the agent MIME type: never a
//! panic; an accepted payload is within its caps, its hub a bare origin, and reads back as itself.
#![no_main]
use apc_core::drag::{bare_origin, is_agent_handle, is_ticket, DRAG_PAYLOAD_MAX_BYTES};
use apc_core::parse_drag_payload;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = parse_drag_payload(raw) else {
        return;
    };
    assert!(raw.len() <= DRAG_PAYLOAD_MAX_BYTES);
    assert_eq!(p.v, 1);
    assert!(is_agent_handle(&p.agent));
    if let Some(hub) = &p.hub {
        assert_eq!(
            bare_origin(hub).as_deref(),
            Some(hub.as_str()),
            "a hub is its own origin"
        );
    }
    if let Some(ticket) = &p.ticket {
        assert!(is_ticket(ticket) && p.hub.is_some());
    }
    // A hub's origin is its normalized (IDNA) form, which can be longer than what was dropped:
    // a payload near the cap may not read back under it, and that is all that may differ.
    let text = serde_json::to_string(&p).expect("JSON");
    if text.len() <= DRAG_PAYLOAD_MAX_BYTES {
        assert_eq!(parse_drag_payload(&text).as_ref(), Ok(&p));
    }
});
