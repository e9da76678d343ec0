//! Observations the content script collected from the fixture pages in Debian's chromium
//! (`tests/fixtures/*.html`), kept as JSON so the rules are checked on real collector output
//! without a browser. Regenerate them when the observation format changes.

use apc_content::{build_reading, Observation};
use apc_core::page_link::How;

fn reading(name: &str) -> apc_core::page_link::PageReading {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let raw = std::fs::read_to_string(path).unwrap();
    let obs = Observation::from_json(&raw).unwrap();
    build_reading(&obs, "2026-11-29T00:00:00Z").unwrap()
}

#[test]
fn article_drop_points_at_one_paragraph_with_its_outline_and_target() {
    let r = reading("article.drop.json");
    assert_eq!(r.pointed.how, How::Drop);
    assert_eq!(
        r.pointed.text,
        "Raised beds on a Linux-powered irrigation timer water themselves at dawn, every day, without fuss."
    );
    assert_eq!(r.context.headings, ["Guide", "Install", "Linux"]);
    assert_eq!(r.pointed.targets.len(), 1);
    assert_eq!(r.pointed.targets[0].id.as_deref(), Some("garden_linux"));
    let main = r.page_text.unwrap();
    assert!(main.starts_with("Guide\n"));
    for noise in [
        "Home",
        "Copyright",
        "LDJSON",
        "SCREEN-READER-ONLY",
        "OFFSCREEN",
        "SCRIPT-TEXT",
    ] {
        assert!(!main.contains(noise), "{noise}");
    }
}

#[test]
fn huejoy_select_all_has_each_visible_control_once_and_no_carrier() {
    let r = reading("huejoy.select-all.json");
    let text = &r.pointed.text;
    assert_eq!(text.matches("Apply seed").count(), 1, "{text}");
    assert_eq!(text.matches("Open tools").count(), 0);
    for secret in [
        "CARRIER-SECRET",
        "ROOT-STATUS-ATTR",
        "HIDDEN-EXPORT",
        "LIVE-REGION",
        "TEMPLATE",
    ] {
        assert!(!text.contains(secret), "{secret}");
    }
}

#[test]
fn focus_targets_drop_reads_params_and_drops_the_invalid_parent() {
    let r = reading("focus-targets.drop.json");
    let kinds: Vec<_> = r.pointed.targets.iter().map(|t| t.kind.as_str()).collect();
    assert_eq!(kinds, ["figure", "invoice"]);
    let params = r.pointed.targets[0].params.as_ref().unwrap();
    assert_eq!(params.keys().collect::<Vec<_>>(), ["month", "region"]);
}
