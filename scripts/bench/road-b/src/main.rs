//! `road-b --obs DIR --out DIR [--html DIR] ID…`: for each observation `DIR/<id>.json`, the
//! visible HTML (`apc_content::visible_html`) and rs-trafilatura's text of it; writes
//! `OUT/road_b.json` (`{ id: text }`) and prints `{ "ms": [...] }` (both steps, per page).
//! With `--html DIR`, also writes each page's visible HTML there (for the wasm timing).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut obs, mut out, mut html_dir) = (None, None, None);
    let mut ids = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--obs" => obs = args.next().map(PathBuf::from),
            "--out" => out = args.next().map(PathBuf::from),
            "--html" => html_dir = args.next().map(PathBuf::from),
            _ => ids.push(a),
        }
    }
    let (Some(obs), Some(out)) = (obs, out) else {
        eprintln!("usage: road-b --obs DIR --out DIR [--html DIR] ID…");
        std::process::exit(1);
    };
    let mut texts = BTreeMap::new();
    let mut ms = Vec::new();
    for id in ids {
        let raw = std::fs::read_to_string(obs.join(format!("{id}.json"))).unwrap_or_default();
        let t0 = Instant::now();
        let text = match apc_content::Observation::from_json(&raw)
            .and_then(|o| apc_content::visible_html(&o).map(|h| (o.url, h)))
        {
            Ok((url, html)) => {
                let text = road_b::extract_text(&html, &url);
                ms.push(t0.elapsed().as_secs_f64() * 1000.0);
                if let Some(dir) = &html_dir {
                    let _ = std::fs::create_dir_all(dir);
                    let _ = std::fs::write(dir.join(format!("{id}.html")), &html);
                }
                text
            }
            Err(_) => String::new(),
        };
        texts.insert(id, text);
    }
    let _ = std::fs::create_dir_all(&out);
    std::fs::write(
        out.join("road_b.json"),
        serde_json::to_string(&texts).expect("texts serialize"),
    )
    .expect("road_b.json written");
    println!("{}", serde_json::json!({ "ms": ms }));
}
