//! The observation written back as HTML with only what renders (R1–R3 applied: hidden subtrees,
//! never-rendered elements and hidden text left out), for an HTML extractor to read the page as
//! the person sees it (road (b) of issue 19, measured by `scripts/bench/wcxb.mjs`). Elements keep
//! their tag and the attributes the observation has (`id`, `class`, `role`, `lang`, …); text and
//! attribute values are escaped, so no page string can open markup of its own.

use crate::observation::Tree;
use crate::render::Rendered;

/// Elements HTML writes without an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

fn escape(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            c if c.is_control() && !matches!(c, '\n' | '\t') => {}
            c => out.push(c),
        }
    }
}

/// A tag name safe to write: lower-case ASCII letters, digits and `-`, starting with a letter.
fn safe_name(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The rendered part of the page as an HTML document.
pub(crate) fn visible_html(tree: &Tree<'_>, r: &Rendered) -> String {
    let mut out = String::from("<!doctype html><html><head><meta charset=\"utf-8\"><title>");
    escape(&mut out, &tree.obs.title, false);
    out.push_str("</title></head>");
    let rendered: std::collections::HashSet<usize> = r.order.iter().map(|&i| i as usize).collect();
    // Depth-first with explicit end markers: no recursion on a deep page.
    enum Step {
        Open(usize),
        Close(usize),
    }
    let mut stack = vec![Step::Open(tree.obs.root as usize)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(i) => {
                if !rendered.contains(&i) {
                    continue;
                }
                let node = tree.node(i);
                if let Some(text) = &node.text {
                    escape(&mut out, text, false);
                    continue;
                }
                let tag = node.tag();
                if !safe_name(tag) || matches!(tag, "html" | "head") {
                    // Its children still render (the root, or an odd name): written bare.
                    stack.push(Step::Close(usize::MAX));
                } else {
                    out.push('<');
                    out.push_str(tag);
                    for (k, v) in &node.attrs {
                        if safe_name(k) {
                            out.push(' ');
                            out.push_str(k);
                            out.push_str("=\"");
                            escape(&mut out, v, true);
                            out.push('"');
                        }
                    }
                    out.push('>');
                    if VOID.contains(&tag) {
                        continue;
                    }
                    stack.push(Step::Close(i));
                }
                for &k in node.kids.iter().rev() {
                    stack.push(Step::Open(k as usize));
                }
            }
            Step::Close(i) => {
                if i != usize::MAX {
                    out.push_str("</");
                    out.push_str(tree.node(i).tag());
                    out.push('>');
                }
            }
        }
    }
    out.push_str("</html>");
    out
}
