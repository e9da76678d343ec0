//! ARCHITECTURE.md's invariants for the background, checked: the logic names no browser crate and
//! no adapter; every message key the logic shows exists in the English messages; every constant the
//! JS must repeat is tied to its Rust value.

/// Every file under `src/logic/` (tests apart).
const LOGIC: &[(&str, &str)] = &[
    ("mod.rs", include_str!("../mod.rs")),
    ("apc_json.rs", include_str!("../apc_json.rs")),
    ("app_checks.rs", include_str!("../app_checks.rs")),
    ("events.rs", include_str!("../events.rs")),
    ("flows/consent.rs", include_str!("../flows/consent.rs")),
    ("flows/drop.rs", include_str!("../flows/drop.rs")),
    ("flows/mod.rs", include_str!("../flows/mod.rs")),
    ("flows/outcome.rs", include_str!("../flows/outcome.rs")),
    ("flows/page_text.rs", include_str!("../flows/page_text.rs")),
    ("flows/pin.rs", include_str!("../flows/pin.rs")),
    ("flows/point.rs", include_str!("../flows/point.rs")),
    ("flows/reading.rs", include_str!("../flows/reading.rs")),
    ("flows/revoke.rs", include_str!("../flows/revoke.rs")),
    ("flows/shared.rs", include_str!("../flows/shared.rs")),
    ("flows/status.rs", include_str!("../flows/status.rs")),
    ("frames.rs", include_str!("../frames.rs")),
    ("hub_api.rs", include_str!("../hub_api.rs")),
    ("memory.rs", include_str!("../memory.rs")),
    ("page_texts.rs", include_str!("../page_texts.rs")),
    ("ports.rs", include_str!("../ports.rs")),
    ("router.rs", include_str!("../router.rs")),
    ("state.rs", include_str!("../state.rs")),
    ("time.rs", include_str!("../time.rs")),
    ("views.rs", include_str!("../views.rs")),
];

#[test]
fn logic_uses_no_browser_crate() {
    for (file, src) in LOGIC {
        for browser in [
            "web_sys",
            "js_sys",
            "wasm_bindgen",
            "gloo",
            "serde_wasm_bindgen",
            "adapters",
        ] {
            let code: String = src
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            assert!(!code.contains(browser), "src/logic/{file} uses {browser}");
        }
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/logic");
    let rs_in = |d: &str| {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
            .count()
    };
    let listed = rs_in(dir) + rs_in(&format!("{dir}/flows"));
    assert_eq!(listed, LOGIC.len(), "a new logic file must be listed here");
}

#[test]
fn every_message_key_the_logic_shows_exists_in_english() {
    let messages: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../../extension/_locales/en/messages.json"
    ))
    .unwrap();
    let mut keys = Vec::new();
    for (_, src) in LOGIC {
        for part in src.split("Msg::new(").skip(1) {
            let key = part.trim_start().trim_start_matches('"');
            let key = key.split('"').next().unwrap();
            keys.push(key.to_owned());
        }
    }
    assert!(keys.len() >= 6, "{keys:?}");
    for key in keys {
        assert!(messages.get(&key).is_some(), "messages.json has no {key}");
    }
}

/// The content script repeats the drag type of an agent's mark (it cannot import Rust); it must
/// be core's.
#[test]
fn content_js_drag_type_is_cores() {
    let js = include_str!("../../../../../extension/content/collect.js");
    let line = js
        .lines()
        .find(|l| l.contains("var APC_AGENT_TYPE"))
        .expect("collect.js names the drag type");
    assert!(
        line.contains(&format!("\"{}\"", apc_core::APC_DRAG_MIME)),
        "{line}"
    );
}

/// The extension's pages take these values from the background's answers, never their own copy.
#[test]
fn pages_repeat_no_rule_of_the_background() {
    let popup = include_str!("../../../../../extension/popup/popup.js");
    let consent = include_str!("../../../../../extension/consent/consent.js");
    assert!(
        !popup.contains("4000"),
        "popup.js repeats REVOKE_CONFIRM_MS"
    );
    assert!(
        !popup.contains("=== 'revoked_by_hub'") && !popup.contains("=== 'forgotten'"),
        "popup.js decides a hub is gone"
    );
    assert!(
        !popup.contains("pin.seen_at ?"),
        "popup.js decides read/unread"
    );
    assert!(
        popup.contains("p.can_point"),
        "popup.js renders the view's can_point"
    );
    assert!(
        !popup.contains("startsWith('hub_')"),
        "popup.js maps error codes to fields"
    );
    assert!(
        !consent.contains("1000"),
        "consent.js repeats ALLOW_DELAY_MS"
    );
}

/// The popup shows a hub's state in the words the view model gives (`HubView::text`): popup.js
/// names none of the messages a hub state is said in, nor reads the stored state's fields.
#[test]
fn popup_js_chooses_no_words_for_a_hub_state() {
    let popup = include_str!("../../../../../extension/popup/popup.js");
    for key in [
        "hubUnknown",
        "hubReachable",
        "hubUnreachable",
        "hubRevoked",
        "hubForgotten",
    ] {
        assert!(!popup.contains(key), "popup.js chooses {key}");
    }
    for field in [
        "hub.reason",
        "hub.by",
        "hub?.reason",
        "hub?.by",
        "hub.at",
        "hub?.at",
    ] {
        assert!(!popup.contains(field), "popup.js reads the stored {field}");
    }
}

/// ARCHITECTURE.md: "JS collects, forwards, renders": JS exists only where the browser forces it, and
/// each file says why in its opening comment. A new JS file must be listed here.
#[test]
fn every_js_file_says_why_it_is_js() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../extension");
    let mut found = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "js") {
                let src = std::fs::read_to_string(&path).unwrap();
                let first = src.lines().next().unwrap_or_default();
                assert!(
                    first.starts_with("// Why") && first.contains("JavaScript"),
                    "{} does not open by saying why it is JavaScript",
                    path.display()
                );
                found.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    found.sort();
    assert_eq!(
        found,
        [
            "background.js",
            "consent/consent.js",
            "content/collect.js",
            "content/note.js",
            "content/wire.js",
            "pages/background-link.js",
            "popup/host-access.js",
            "popup/popup.js"
        ]
    );
}
