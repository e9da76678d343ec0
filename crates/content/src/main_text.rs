//! The page's main text, in the class of Mozilla Readability, over the rendered (visible) text.
//!
//! Rules (each has a unit test in `tests.rs`):
//! - M1 an author's declaration wins: the one visible `<main>` or `role="main"` with enough text,
//!   else the one visible `<article>`.
//! - M2 otherwise candidates are scored: every leaf block (a block with no block inside) with at
//!   least 25 bytes of text scores 1 + its commas + one per 100 bytes (at most 3); its parent gets
//!   the score, its grandparent half, further ancestors (up to 5 levels) score / (3 × level).
//!   Each candidate starts from its tag (div +5; pre, td, blockquote +3; lists, forms −3;
//!   headings, th −5) and its class/id hints (article, content, main, post, … +25; nav, footer,
//!   sidebar, comment, … −25). The final score is scaled by 1 − link density; the best wins,
//!   and a parent that scores at least as well replaces it.
//! - M3 noise inside the chosen element is cut out: `nav`, `aside`, `footer`, navigation,
//!   complementary, contentinfo, search and menu roles, and any element with negative hints whose
//!   text is mostly links.
//! - M4 with no candidate, the whole `<body>`'s visible text.

use crate::observation::Tree;
use crate::render::{layout, Layout, Rendered};

const POSITIVE: &[&str] = &[
    "article",
    "body",
    "content",
    "entry",
    "hentry",
    "h-entry",
    "main",
    "page",
    "pagination",
    "post",
    "text",
    "blog",
    "story",
];
const NEGATIVE: &[&str] = &[
    "hidden",
    "banner",
    "combx",
    "comment",
    "com-",
    "contact",
    "footer",
    "foot",
    "masthead",
    "media",
    "meta",
    "outbrain",
    "promo",
    "related",
    "scroll",
    "share",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "sponsor",
    "shopping",
    "tags",
    "widget",
    "nav",
    "menu",
    "breadcrumb",
];
const NOISE_TAGS: &[&str] = &["nav", "aside", "footer"];
const NOISE_ROLES: &[&str] = &[
    "navigation",
    "complementary",
    "contentinfo",
    "search",
    "menu",
    "menubar",
];
const MIN_PARAGRAPH_BYTES: usize = 25;
const MIN_MAIN_BYTES: usize = 140;

fn class_weight(tree: &Tree<'_>, i: usize) -> f64 {
    let node = tree.node(i);
    let mut w = 0.0;
    for attr in ["class", "id"] {
        if let Some(v) = node.attr(attr) {
            let v = v.to_ascii_lowercase();
            if NEGATIVE.iter().any(|k| v.contains(k)) {
                w -= 25.0;
            }
            if POSITIVE.iter().any(|k| v.contains(k)) {
                w += 25.0;
            }
        }
    }
    w
}

fn tag_weight(tag: &str) -> f64 {
    match tag {
        "div" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    }
}

fn len(r: &Rendered, i: usize) -> usize {
    r.span(i).map_or(0, |(a, b)| b - a)
}

/// `v[i]`, or the default when `i` is out of range.
fn at<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

/// Adds `x` to `v[i]` when `i` is in range.
fn add_at(v: &mut [usize], i: usize, x: usize) {
    if let Some(slot) = v.get_mut(i) {
        *slot += x;
    }
}

/// Bytes of link text inside each rendered element.
fn link_bytes(tree: &Tree<'_>, r: &Rendered) -> Vec<usize> {
    let mut links = vec![0usize; tree.obs.nodes.len()];
    for &i in r.order.iter().rev() {
        let i = i as usize;
        if tree.node(i).tag() == "a" {
            if let Some(slot) = links.get_mut(i) {
                *slot = len(r, i);
            }
        }
        if let Some(p) = tree.parent_of(i) {
            let mine = at(&links, i);
            add_at(&mut links, p, mine);
        }
    }
    links
}

fn is_noise(tree: &Tree<'_>, i: usize, link_density: f64) -> bool {
    let node = tree.node(i);
    NOISE_TAGS.contains(&node.tag())
        || node
            .attr("role")
            .is_some_and(|r| NOISE_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
        || (class_weight(tree, i) < 0.0 && link_density > 0.5)
}

/// The main text: the chosen element's rendered text with noise cut out.
pub(crate) fn main_text(tree: &Tree<'_>, r: &Rendered) -> String {
    let links = link_bytes(tree, r);
    let density = |i: usize| {
        let l = len(r, i);
        if l == 0 {
            0.0
        } else {
            at(&links, i) as f64 / l as f64
        }
    };
    let elements: Vec<usize> = r
        .order
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| tree.node(i).is_element())
        .collect();

    // M1
    let declared = |pred: &dyn Fn(usize) -> bool| {
        let found: Vec<usize> = elements
            .iter()
            .copied()
            .filter(|&i| pred(i) && len(r, i) >= MIN_MAIN_BYTES)
            .collect();
        match found.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    };
    let chosen = declared(&|i| {
        tree.node(i).tag() == "main"
            || tree
                .node(i)
                .attr("role")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("main"))
    })
    .or_else(|| declared(&|i| tree.node(i).tag() == "article"))
    .or_else(|| best_candidate(tree, r, &elements, &density))
    .or_else(|| {
        elements
            .iter()
            .copied()
            .find(|&i| tree.node(i).tag() == "body")
    });

    let Some(top) = chosen else {
        return String::new();
    };
    let (start, end) = r.span(top).unwrap_or((0, 0));

    // M3: cut out noise descendants (outermost ones; ranges nest, so skip what a cut covers).
    // `order` is preorder, so a node is inside `top` exactly when its parent is `top` or inside it.
    let mut inside = vec![false; tree.obs.nodes.len()];
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for &i in &elements {
        match tree.parent_of(i) {
            Some(p) if p == top || at(&inside, p) => {
                if let Some(slot) = inside.get_mut(i) {
                    *slot = true;
                }
            }
            _ => continue,
        }
        let Some((a, b)) = r.span(i) else { continue };
        if cuts.last().is_some_and(|&(_, e)| a < e) {
            continue;
        }
        if is_noise(tree, i, density(i)) {
            cuts.push((a, b));
        }
    }
    let mut text = String::with_capacity(end - start);
    let mut from = start;
    for (a, b) in cuts {
        text.push_str(r.slice(from, a));
        text.push('\n');
        from = b;
    }
    text.push_str(r.slice(from, end));
    tidy_breaks(&text)
}

fn best_candidate(
    tree: &Tree<'_>,
    r: &Rendered,
    elements: &[usize],
    density: &dyn Fn(usize) -> f64,
) -> Option<usize> {
    let n = tree.obs.nodes.len();
    // Whether a rendered element holds a block-level element.
    let mut has_block = vec![false; n];
    for &i in r.order.iter().rev() {
        let i = i as usize;
        if let (Some(p), true) = (tree.parent_of(i), tree.node(i).is_element()) {
            let lay = layout(tree.node(i));
            if at(&has_block, i) || matches!(lay, Layout::Block | Layout::Row | Layout::Cell) {
                if let Some(slot) = has_block.get_mut(p) {
                    *slot = true;
                }
            }
        }
    }
    let mut score: Vec<Option<f64>> = vec![None; n];
    for &i in elements {
        let lay = layout(tree.node(i));
        if !matches!(lay, Layout::Block | Layout::Cell) || at(&has_block, i) {
            continue;
        }
        let Some((a, b)) = r.span(i) else { continue };
        let text = r.slice(a, b);
        let bytes = text.trim().len();
        if bytes < MIN_PARAGRAPH_BYTES {
            continue;
        }
        let commas = text.matches([',', '，', '、']).count() as f64;
        let s = 1.0 + commas + (bytes as f64 / 100.0).min(3.0);
        for (level, anc) in tree.ancestors(i).skip(1).take(5).enumerate() {
            let Some(entry) = score.get_mut(anc) else {
                continue;
            };
            let entry = entry
                .get_or_insert_with(|| tag_weight(tree.node(anc).tag()) + class_weight(tree, anc));
            *entry += match level {
                0 => s,
                1 => s / 2.0,
                l => s / (l as f64 * 3.0),
            };
        }
    }
    let fin = |i: usize| {
        score
            .get(i)
            .copied()
            .flatten()
            .map(|s| s * (1.0 - density(i)))
    };
    let mut top = elements
        .iter()
        .copied()
        .filter_map(|i| fin(i).map(|s| (i, s)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    // A parent that scores at least as well holds more of the same content.
    while let Some(p) = tree.parent_of(top.0) {
        if matches!(tree.node(p).tag(), "body" | "html") {
            break;
        }
        match fin(p) {
            Some(s) if s >= top.1 => top = (p, s),
            _ => break,
        }
    }
    Some(top.0)
}

/// Trims each end and turns three or more line breaks in a row into two.
pub(crate) fn tidy_breaks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newlines = 0;
    for c in text.trim().chars() {
        if c == '\n' {
            newlines += 1;
            if newlines <= 2 {
                out.push(c);
            }
        } else {
            newlines = 0;
            out.push(c);
        }
    }
    out
}
