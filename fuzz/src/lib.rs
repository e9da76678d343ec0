//! What the fuzz targets share: `observation` builds a well-formed observation tree from a
//! fuzzer's bytes (used by the `reading_tree` target, and by `tree_to_json` to turn a crash input
//! into the observation JSON that `cargo run -p apc-content --example reading` reads).
use std::collections::BTreeMap;

use apc_content::observation::{Field, Generated, ShadowMode, Style};
use apc_content::{Anchor, Node, Observation, Point, Selection};
use apc_core::page_link::How;
use arbitrary::{Result, Unstructured};

const TAGS: &[&str] = &[
    "div", "p", "span", "a", "br", "main", "article", "section", "h1", "h2", "h3", "li", "ul",
    "pre", "nav", "aside", "footer", "header", "script", "style", "template", "td", "table", "b",
    "svg", "text", "tspan", "textarea", "input", "x-card",
    // What the Markdown reads (crates/content/src/markdown.rs).
    "ol", "blockquote", "code", "img", "tr", "th", "thead", "tbody", "h6", "hr", "figure", "kbd",
    "caption", "dl", "dd",
    // What the main text unfolds (render.rs, R2's exceptions).
    "details", "summary",
];
/// Computed `content` values as browsers serialize them (strings with escapes, attr(), counters,
/// images with alternative text), and broken ones.
const CONTENT: &[&str] = &[
    "\"Warning: \"",
    "\"\\f101\"",
    "\"\\1F600 x\"",
    "\" (\" attr(lang) \")\"",
    "counter(step) \". \"",
    "url(\"i.png\") / \"alt\"",
    "open-quote",
    "\"\\",
    "attr(",
    "\"\\\n\"",
];
const FIELD_TYPES: &[&str] = &["textarea", "text", "search", "password", "tel", "number", ""];
const AUTOCOMPLETE: &[&str] = &["off", "one-time-code", "on", "billing cc-number", ""];
const TEXT: &[&str] = &[
    "a",
    "word",
    " ",
    "  ",
    "\u{a0}",
    "\u{a0}\u{a0}",
    "\n",
    "\t",
    "é",
    "日本",
    "😀",
    "\u{200b}",
    "e\u{301}",
    "\u{2028}",
    "Lorem ipsum dolor sit amet, ",
    ".",
    "\u{feff}",
    "ß",
    "\r\n",
    "```",
    "# ",
    "| ",
    "\\",
    "1. ",
];
const DISPLAY: &[&str] = &[
    "block",
    "inline",
    "none",
    "contents",
    "table-cell",
    "inline flex",
    "list-item",
    "table-row",
];
const ATTRS: &[(&str, &str)] = &[
    ("id", "comments"),
    ("class", "comment"),
    ("role", "heading"),
    ("aria-level", "2"),
    ("hidden", ""),
    ("data-focus", "customer:c1"),
    ("data-focus-part", "seats"),
    ("data-focus-params", "{\"m\":\"2026-03\"}"),
    ("lang", "en"),
    ("aria-hidden", "true"),
    ("href", "https://example.com/x"),
    ("class", "related"),
    ("href", "../rel x(1)"),
    ("href", "javascript:alert(1)"),
    ("href", "#top"),
    ("alt", "A [diagram] `x`"),
    ("src", "/i.png"),
    ("colspan", "3"),
    ("colspan", "99999"),
    ("rowspan", "2"),
    ("start", "-4"),
    ("class", "language-rust"),
    ("data-lang", "py`thon"),
    // Folded parts: tab panels, toggles and what they name (render.rs, R2's exceptions).
    ("role", "tabpanel"),
    ("aria-expanded", "false"),
    ("aria-controls", "comments"),
    ("class", "accordion__content"),
    ("aria-controls", "comments  x y"),
    ("role", "button"),
    ("aria-labelledby", "x comments"),
    ("aria-haspopup", "true"),
    ("open", ""),
    ("class", "dropdown"),
];

fn text(u: &mut Unstructured) -> Result<String> {
    let n = u.int_in_range(0..=8)?;
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(u.choose(TEXT)?);
    }
    Ok(s)
}

fn node(u: &mut Unstructured, nodes: &mut Vec<Node>, depth: u32) -> Result<u32> {
    let at = nodes.len();
    nodes.push(Node::default());
    if depth > 0 && (depth > 7 || nodes.len() > 300 || u.ratio(2, 5)?) {
        nodes[at].text = Some(text(u)?);
        return Ok(at as u32);
    }
    let mut n = Node {
        tag: Some((*u.choose(TAGS)?).to_owned()),
        ..Node::default()
    };
    let mut attrs = BTreeMap::new();
    for _ in 0..u.int_in_range(0..=2)? {
        let (k, v) = u.choose(ATTRS)?;
        attrs.insert((*k).to_owned(), (*v).to_owned());
    }
    n.attrs = attrs;
    if u.ratio(1, 2)? {
        n.style = Some(Style {
            display: if u.arbitrary()? {
                Some((*u.choose(DISPLAY)?).to_owned())
            } else {
                None
            },
            visibility: if u.ratio(1, 8)? {
                Some("hidden".into())
            } else {
                None
            },
            white_space: if u.ratio(1, 6)? {
                Some((*u.choose(&["pre", "pre-wrap", "pre-line"])?).into())
            } else {
                None
            },
            content_visibility: None,
            opacity0: u.ratio(1, 12)?,
            font0: u.ratio(1, 12)?,
            no_box: u.ratio(1, 12)?,
            zero_size: u.ratio(1, 12)?,
            clips: u.ratio(1, 8)?,
            offscreen: u.ratio(1, 12)?,
            color0: u.ratio(1, 12)?,
            clip_path: if u.ratio(1, 10)? {
                Some((*u.choose(&["inset(50%)", "inset(0)", "circle(0)", "inset(10px 20%)", "none"])?).into())
            } else {
                None
            },
            // Over the page or in the flow, for what is faded out or hidden by visibility (R2's
            // and R3's exceptions read the latter in the main text).
            position: if u.ratio(1, 6)? {
                Some((*u.choose(&["absolute", "fixed"])?).into())
            } else {
                None
            },
        });
    }
    for slot in [&mut n.before, &mut n.after] {
        if u.ratio(1, 6)? {
            *slot = Some(Generated {
                content: (*u.choose(CONTENT)?).to_owned(),
                style: if u.arbitrary()? {
                    Some(Style {
                        display: Some((*u.choose(DISPLAY)?).to_owned()),
                        color0: u.ratio(1, 6)?,
                        ..Style::default()
                    })
                } else {
                    None
                },
            });
        }
    }
    if u.ratio(1, 12)? {
        n.shadow = Some(ShadowMode::Closed);
    }
    let kids = u.int_in_range(0..=4)?;
    for _ in 0..kids {
        let k = node(u, nodes, depth + 1)?;
        n.kids.push(k);
    }
    nodes[at] = n;
    Ok(at as u32)
}

fn anchor(u: &mut Unstructured, len: usize) -> Result<Anchor> {
    Ok(Anchor {
        node: u.int_in_range(0..=len as u32)?,
        offset: u.int_in_range(0..=40)?,
    })
}

pub fn observation(u: &mut Unstructured) -> Result<Observation> {
    let mut nodes = Vec::new();
    node(u, &mut nodes, 0)?;
    let how = *u.choose(&[How::Drop, How::Selection, How::Command])?;
    let len = nodes.len();
    Ok(Observation {
        v: 1,
        url: (*u.choose(&[
            "https://example.com/a",
            "http://x.example/?q=é#f",
            "https://[::1]:8443/",
        ])?)
        .into(),
        title: text(u)?,
        lang: if u.arbitrary()? {
            Some((*u.choose(&["en", "de-CH", "x", "", "en_US"])?).into())
        } else {
            None
        },
        how,
        root: 0,
        nodes,
        point: Some(Point {
            caret: if u.arbitrary()? {
                Some(anchor(u, len)?)
            } else {
                None
            },
            element: if u.arbitrary()? {
                Some(u.int_in_range(0..=len as u32)?)
            } else {
                None
            },
        }),
        selection: if u.ratio(4, 5)? {
            Some(Selection {
                start: anchor(u, len)?,
                end: anchor(u, len)?,
            })
        } else {
            None
        },
        field: if u.ratio(1, 4)? {
            let value = text(u)?;
            let units = value.encode_utf16().count() as u32;
            let (a, b) = (u.int_in_range(0..=units + 1)?, u.int_in_range(0..=units + 1)?);
            Some(Field {
                node: u.int_in_range(0..=len as u32)?,
                kind: (*u.choose(FIELD_TYPES)?).to_owned(),
                value,
                start: a.min(b),
                end: a.max(b),
                cut: u.arbitrary()?,
                autocomplete: Some((*u.choose(AUTOCOMPLETE)?).to_owned()),
                name: if u.arbitrary()? { Some("otp".into()) } else { None },
                masked: u.ratio(1, 8)?,
            })
        } else {
            None
        },
        truncated: u.arbitrary()?,
        base: if u.arbitrary()? {
            Some((*u.choose(&["https://example.com/docs/", "not a url", "javascript:x", ""])?).into())
        } else {
            None
        },
    })
}
