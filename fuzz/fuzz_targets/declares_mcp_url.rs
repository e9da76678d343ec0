//! `declares_mcp_url` over any origin, MCP path and URL: never a panic; a URL it accepts is on the
//! origin and strictly under the path, with no encoded dot, slash, backslash or percent after it.
#![no_main]
use apc_core::manifest::{declares_mcp_url_on, url_on_origin};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, &str, &str)| {
    let (origin, path, url) = input;
    let _ = url_on_origin(url, origin);
    if declares_mcp_url_on(origin, path, url) {
        let parsed = url::Url::parse(url).expect("an accepted URL parses");
        assert!(url_on_origin(parsed.as_str(), origin).is_some());
        let rest = parsed.path().strip_prefix(path).expect("under the path");
        assert!(!rest.is_empty());
        let lower = rest.to_ascii_lowercase();
        for bad in ["%2f", "%5c", "%2e", "%25", "\\"] {
            assert!(!lower.contains(bad), "{bad} in {rest}");
        }
        assert!(!rest.split('/').any(|s| s == "." || s == ".."));
    }
});
