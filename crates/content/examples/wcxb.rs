//! The reader over a folder of collected observations (the WCXB benchmark's cache, made by
//! `scripts/bench/wcxb.mjs`), without a browser: the inner loop for tuning the main-text rules.
//!
//! `wcxb --obs DIR --out DIR [--gt DIR] [--show N] [ID …]`
//! - reads `DIR/<id>.json` or `DIR/<id>.obs.json` (`reader.mjs --dump`'s; every one when no ID
//!   is given), builds each reading as the background
//!   does (`Observation::from_json` + `build_reading`) and writes `OUT/product.json`
//!   (`{ id: page_text }`, refused pages as `""`) for the benchmark's `evaluate.py`;
//! - prints `{ "refused": n, "repointed": n, "build_ms": [..] }` on stdout (the figures
//!   `wcxb.mjs` reports): a page whose benchmark point (a selection of its longest text) the
//!   rules find invisible is pointed again at its first text that gives a reading (`repointed`);
//! - with `--gt DIR` (the corpus's `ground-truth/`), scores each page with the benchmark's metric
//!   (word-level F1 over lower-cased `\w+` tokens; close to `evaluate.py`'s, which stays the one
//!   the published figures come from) and prints, on stderr, F1/P/R overall and per page type and
//!   the `--show N` worst pages.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut obs_dir, mut out_dir, mut gt_dir, mut gt_articles) = (None, None, None, None);
    let mut show = 0usize;
    let mut roads = false;
    let mut ids: Vec<String> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--obs" => obs_dir = args.next().map(PathBuf::from),
            "--out" => out_dir = args.next().map(PathBuf::from),
            "--gt" => gt_dir = args.next().map(PathBuf::from),
            "--gt-articles" => gt_articles = args.next().map(PathBuf::from),
            "--roads" => roads = true,
            "--show" => show = args.next().and_then(|s| s.parse().ok()).unwrap_or(20),
            _ => ids.push(a),
        }
    }
    let Some(obs_dir) = obs_dir else {
        eprintln!("usage: wcxb --obs DIR [--out DIR] [--gt DIR] [--show N] [ID …]");
        std::process::exit(1);
    };
    if ids.is_empty() {
        let names: Vec<String> = std::fs::read_dir(&obs_dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        // `reader.mjs --dump` writes other JSON beside its `.obs.json` files.
        let dumped = names.iter().any(|n| n.ends_with(".obs.json"));
        let suffix = if dumped { ".obs.json" } else { ".json" };
        ids = names
            .iter()
            .filter_map(|n| n.strip_suffix(suffix).map(str::to_owned))
            .collect();
        ids.sort();
    }
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut build_ms = Vec::new();
    let mut refused = 0usize;
    let mut repointed = 0usize;
    // With --roads: each page's text by both roads, from the observation read once.
    let mut all_roads = serde_json::Map::new();
    for id in &ids {
        let raw = std::fs::read_to_string(obs_dir.join(format!("{id}.json")))
            .or_else(|_| std::fs::read_to_string(obs_dir.join(format!("{id}.obs.json"))))
            .unwrap_or_default();
        let t0 = Instant::now();
        let obs = apc_content::Observation::from_json(&raw);
        let reading = obs
            .as_ref()
            .map_err(|e| e.code())
            .and_then(|obs| apc_content::build_reading(obs, MADE_AT).map_err(|e| e.code()));
        build_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        // The benchmark's point (a selection of the longest text) may be one the rules find
        // invisible: pointed again, as a person would, at another text.
        let reading = match (reading, &obs) {
            (Err(_), Ok(obs)) => match point_again(obs) {
                Some(r) => {
                    repointed += 1;
                    Ok(r)
                }
                None => Err("nothing_pointed"),
            },
            (r, _) => r,
        };
        let text = match reading {
            Ok(r) => r.page_text.unwrap_or_default(),
            Err(code) => {
                refused += 1;
                if !raw.is_empty() {
                    eprintln!("{id}: {code}");
                }
                String::new()
            }
        };
        texts.insert(id.clone(), text);
        if roads {
            if let Some((a, b, t, c)) = obs.ok().and_then(|o| apc_content::main_text_roads(&o).ok())
            {
                all_roads.insert(id.clone(), serde_json::json!({ "article": a, "region": b, "prose_total": t, "prose_chosen": c }));
            }
        }
    }
    if let (true, Some(out)) = (roads, &out_dir) {
        let _ = std::fs::create_dir_all(out);
        let _ = std::fs::write(
            out.join("roads.json"),
            serde_json::Value::Object(all_roads).to_string(),
        );
    }
    if let Some(out) = &out_dir {
        let _ = std::fs::create_dir_all(out);
        let json = serde_json::to_string(&texts).expect("texts serialize");
        if let Err(e) = std::fs::write(out.join("product.json"), json) {
            eprintln!("{}: {e}", out.display());
            std::process::exit(1);
        }
    }
    println!(
        "{}",
        serde_json::json!({ "refused": refused, "repointed": repointed, "build_ms": build_ms })
    );
    if let Some(gt) = gt_dir {
        report(&truth_of_wcxb(&gt, &texts), show);
    }
    if let Some(gt) = gt_articles {
        report(&truth_of_articles(&gt, &texts), show);
    }
}

const MADE_AT: &str = "2026-11-29T00:00:00Z";

/// The reading with the selection on the first text node (of the first 200 with text) that
/// gives one.
fn point_again(obs: &apc_content::Observation) -> Option<apc_core::page_link::PageReading> {
    obs.nodes
        .iter()
        .enumerate()
        .filter_map(|(k, n)| {
            let t = n.text.as_deref()?;
            (t.trim().len() > 1).then(|| (k as u32, t.encode_utf16().count() as u32))
        })
        .take(200)
        .find_map(|(node, len)| {
            let mut o = obs.clone();
            o.selection = Some(apc_content::Selection {
                start: apc_content::Anchor { node, offset: 0 },
                end: apc_content::Anchor { node, offset: len },
            });
            apc_content::build_reading(&o, MADE_AT).ok()
        })
}

/// Lower-cased `\w+` tokens (letters, digits, underscore), as the benchmark's `tokenize`.
fn tokens(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for w in text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
    {
        *counts.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

/// (precision, recall, F1) of `pred` against `truth`, as the benchmark's `word_f1`.
fn word_f1(pred: &str, truth: &str) -> (f64, f64, f64) {
    let (p, t) = (tokens(pred), tokens(truth));
    let (np, nt): (usize, usize) = (p.values().sum(), t.values().sum());
    if nt == 0 {
        return if np == 0 {
            (1.0, 1.0, 1.0)
        } else {
            (0.0, 0.0, 0.0)
        };
    }
    if np == 0 {
        return (0.0, 0.0, 0.0);
    }
    let overlap: usize = p
        .iter()
        .map(|(w, &c)| c.min(t.get(w).copied().unwrap_or(0)))
        .sum();
    let (pr, rc) = (overlap as f64 / np as f64, overlap as f64 / nt as f64);
    let f1 = if pr + rc > 0.0 {
        2.0 * pr * rc / (pr + rc)
    } else {
        0.0
    };
    (pr, rc, f1)
}

/// Per page: (id, page type, truth, product) from WCXB's `ground-truth/<id>.json`.
fn truth_of_wcxb(
    gt: &Path,
    texts: &BTreeMap<String, String>,
) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for (id, text) in texts {
        let Ok(raw) = std::fs::read_to_string(gt.join(format!("{id}.json"))) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&raw) else {
            continue;
        };
        let truth = v["ground_truth"]["main_content"].as_str().unwrap_or("");
        let mut kind = v["_internal"]["page_type"]["primary"]
            .as_str()
            .unwrap_or("article")
            .to_owned();
        if kind == "category" {
            kind = "collection".into();
        }
        out.push((id.clone(), kind, truth.to_owned(), text.clone()));
    }
    out
}
/// Per page: (id, "article", truth, product) from the article corpus's `ground-truth.json`.
fn truth_of_articles(
    gt: &Path,
    texts: &BTreeMap<String, String>,
) -> Vec<(String, String, String, String)> {
    let raw = std::fs::read_to_string(gt).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&raw).unwrap_or_default();
    texts
        .iter()
        .filter_map(|(id, text)| {
            let truth = v[id]["articleBody"].as_str()?;
            Some((
                id.clone(),
                "article".to_owned(),
                truth.to_owned(),
                text.clone(),
            ))
        })
        .collect()
}

fn report(pages: &[(String, String, String, String)], show: usize) {
    let rows: Vec<(String, String, f64, f64, f64)> = pages
        .iter()
        .map(|(id, kind, truth, text)| {
            let (p, r, f) = word_f1(text, truth);
            (id.clone(), kind.clone(), p, r, f)
        })
        .collect();
    let mean = |xs: &[&(String, String, f64, f64, f64)]| {
        let n = xs.len().max(1) as f64;
        (
            xs.iter().map(|x| x.4).sum::<f64>() / n,
            xs.iter().map(|x| x.2).sum::<f64>() / n,
            xs.iter().map(|x| x.3).sum::<f64>() / n,
        )
    };
    let all: Vec<_> = rows.iter().collect();
    let (f, p, r) = mean(&all);
    eprintln!(
        "all           {:4}  F1 {f:.4}  P {p:.4}  R {r:.4}",
        all.len()
    );
    for kind in [
        "article",
        "forum",
        "product",
        "collection",
        "listing",
        "documentation",
        "service",
    ] {
        let these: Vec<_> = rows.iter().filter(|x| x.1 == kind).collect();
        if these.is_empty() {
            continue;
        }
        let (f, p, r) = mean(&these);
        eprintln!(
            "{kind:<13} {:4}  F1 {f:.4}  P {p:.4}  R {r:.4}",
            these.len()
        );
    }
    let mut worst: Vec<_> = rows.iter().collect();
    worst.sort_by(|a, b| a.4.total_cmp(&b.4));
    for (id, kind, p, r, f) in worst.into_iter().take(show) {
        eprintln!("  {id} {kind:<13} F1 {f:.3} P {p:.3} R {r:.3}");
    }
}
