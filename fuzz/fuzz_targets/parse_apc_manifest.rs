//! `parse_apc_manifest` over any `apc.json` a site can serve (first line: the origin it was read
//! from; the rest: the file): never a panic; an accepted manifest names the origin it was read
//! from, and its URLs are on that origin.
#![no_main]
use apc_core::manifest::ApcRole;
use apc_core::{declares_mcp_url, parse_apc_manifest, url_on_origin};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (origin, file) = text
        .split_once('\n')
        .unwrap_or(("https://app.example", text));
    let Ok(raw) = serde_json::from_str::<Value>(file) else {
        return;
    };
    let Ok(m) = parse_apc_manifest(&raw, origin) else {
        return;
    };
    assert_eq!(m.origin, origin);
    assert!(m.mcp.path.starts_with('/') && m.mcp.path.ends_with('/'));
    if m.offers(ApcRole::Direct) {
        let connect = m
            .direct
            .as_ref()
            .expect("a direct app has a connect page")
            .connect
            .clone();
        // The connect page is the URL's href, which percent-encoding can make longer than the
        // 2,048 characters `url_on_origin` reads (as in the reference): checked under that.
        if apc_core::js::utf16_len(&connect) <= 2048 {
            assert!(url_on_origin(&connect, origin).is_some());
        }
    }
    let _ = declares_mcp_url(&m, &format!("{}{}g_1", m.origin, m.mcp.path));
    let _ = declares_mcp_url(&m, file);
});
