//! Property tests (issue 12.1): over arbitrary observations, `Observation::from_json` +
//! `build_reading` never panic, and every position the renderer records lies on a character
//! boundary of the rendered text. A short pass runs in `cargo test -p apc-content`; set
//! `PROPTEST_CASES` for a longer one. (The coverage-guided fuzz target lives in `fuzz/`.)

use std::collections::BTreeMap;

use apc_core::page_link::How;
use proptest::prelude::*;

use crate::observation::{Field, Generated, ShadowMode};
use crate::*;

const TAGS: &[&str] = &[
    "div",
    "p",
    "a",
    "span",
    "br",
    "main",
    "article",
    "section",
    "li",
    "ul",
    "td",
    "tr",
    "table",
    "pre",
    "code",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "nav",
    "aside",
    "footer",
    "script",
    "b",
    "button",
    "svg",
    "text",
    "tspan",
    "textarea",
    "input",
    "details",
    "summary",
];
const DISPLAYS: &[&str] = &[
    "block",
    "inline",
    "none",
    "contents",
    "table-cell",
    "table-row",
    "inline-block",
    "flex",
    "inline flex",
    "list-item",
];
const WHITE_SPACES: &[&str] = &["pre", "pre-wrap", "pre-line", "normal", "break-spaces"];
const CLASSES: &[&str] = &[
    "content",
    "comment",
    "related",
    "nav",
    "post",
    "sidebar",
    "",
    "dropdown",
    "accordion__content",
];
/// Computed `content` values as browsers serialize them, and broken ones.
const CONTENTS: &[&str] = &[
    "\"Warning: \"",
    "\"\\f101\"",
    "\" (\" attr(class) \")\"",
    "counter(step) \". \"",
    "url(\"x.png\") / \"alt\"",
    "\"\\",
    "open-quote \"\\1F600 x\" close-quote",
    "attr(",
];
const FIELD_KINDS: &[&str] = &["textarea", "text", "search", "password", "tel", "number"];
const AUTOCOMPLETES: &[&str] = &[
    "",
    "off",
    "one-time-code",
    "section-a shipping cc-number",
    "on",
];

/// Text made of the characters that matter: spaces of every kind, line breaks, multi-byte
/// characters of every width, controls.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        " ", "\u{a0}", "\t", "\n", "\r", "\r\n", "a", "word", "é", "日本", "😀", "\u{200b}",
        "\u{2028}", "\u{1}", ",", "Ü", "\u{feff}", "x\u{301}",
    ]);
    prop::collection::vec(pieces, 0..12).prop_map(|v| v.concat())
}

/// An element: tag, display, white-space, class (indices into the tables above), style flags, and
/// extras (bit 0: a ::before, bit 1: an ::after, bit 2: a closed shadow root, bits 3–5: which
/// content, bit 6: an id, and a tab panel's role on odd tags, bit 7: a collapsed toggle naming the
/// next node: R2's folded parts).
type ElementSpec = (usize, Option<usize>, Option<usize>, usize, u8, u8);

#[derive(Debug, Clone)]
struct Spec {
    /// Element (tag index, display index or none, white-space, class, flags) or text.
    element: Option<ElementSpec>,
    text: String,
    parent: usize,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::option::weighted(
            0.6,
            (
                0..TAGS.len(),
                prop::option::of(0..DISPLAYS.len()),
                prop::option::weighted(0.2, 0..WHITE_SPACES.len()),
                0..CLASSES.len(),
                any::<u8>(),
                any::<u8>(),
            ),
        ),
        text(),
        any::<usize>(),
    )
        .prop_map(|(element, text, parent)| Spec {
            element,
            text,
            parent,
        })
}

/// A pointed field's facts: kind, autocomplete, value, offsets, masked, cut.
type FieldSpec = (usize, usize, String, (u32, u32), bool, bool);

fn observation(
    specs: Vec<Spec>,
    how: u8,
    a: (usize, u32),
    b: (usize, u32),
    truncated: bool,
    field: FieldSpec,
) -> Observation {
    let mut nodes = vec![Node {
        tag: Some("html".into()),
        ..Node::default()
    }];
    let mut elements = vec![0usize];
    for s in specs {
        let i = nodes.len();
        let parent = elements[s.parent % elements.len()];
        nodes[parent].kids.push(i as u32);
        match s.element {
            Some((tag, display, ws, class, flags, extras)) => {
                let mut attrs = BTreeMap::new();
                if !CLASSES[class].is_empty() {
                    attrs.insert("class".to_owned(), CLASSES[class].to_owned());
                }
                if flags & 0x80 != 0 {
                    attrs.insert("hidden".to_owned(), String::new());
                }
                if extras & 0x40 != 0 {
                    attrs.insert("id".to_owned(), format!("e{i}"));
                    if tag % 2 == 1 {
                        attrs.insert("role".to_owned(), "tabpanel".to_owned());
                    }
                    if tag % 3 == 0 && i > 0 {
                        // Labelled by the element before it: a silent toggle's part.
                        attrs.insert("aria-labelledby".to_owned(), format!("e{}", i - 1));
                    }
                }
                if extras & 0x80 != 0 {
                    attrs.insert("aria-controls".to_owned(), format!("e{}", i + 1));
                    if tag % 3 == 0 {
                        // A toggle that says nothing of being expanded (render.rs, R2).
                        attrs.insert("id".to_owned(), format!("e{i}"));
                        attrs.insert("role".to_owned(), "button".to_owned());
                    } else {
                        attrs.insert("aria-expanded".to_owned(), "false".to_owned());
                    }
                }
                let style = display.map(|d| Style {
                    display: Some(DISPLAYS[d].to_owned()),
                    white_space: ws.map(|w| WHITE_SPACES[w].to_owned()),
                    visibility: (flags & 1 != 0).then(|| "hidden".to_owned()),
                    opacity0: flags & 2 != 0 && flags & 4 != 0,
                    // At opacity 0 or hidden by visibility, out of the flow or in it (R2's and
                    // R3's exceptions) by the class's parity.
                    position: ((flags & 1 != 0 || (flags & 2 != 0 && flags & 4 != 0))
                        && class % 2 == 1)
                        .then(|| "absolute".to_owned()),
                    zero_size: flags & 8 != 0,
                    clips: flags & 16 != 0,
                    font0: flags & 32 != 0 && flags & 64 != 0,
                    ..Style::default()
                });
                let generated = |bit: u8| {
                    (extras & bit != 0).then(|| Generated {
                        content: CONTENTS[(extras >> 3) as usize % CONTENTS.len()].to_owned(),
                        style: Some(Style {
                            display: Some(
                                DISPLAYS[(extras as usize >> 4) % DISPLAYS.len()].to_owned(),
                            ),
                            ..Style::default()
                        }),
                    })
                };
                nodes.push(Node {
                    tag: Some(TAGS[tag].to_owned()),
                    attrs,
                    style,
                    before: generated(1),
                    after: generated(2),
                    shadow: (extras & 4 != 0).then_some(ShadowMode::Closed),
                    ..Node::default()
                });
                elements.push(i);
            }
            None => nodes.push(Node {
                text: Some(s.text),
                ..Node::default()
            }),
        }
    }
    // A field: the element at `b`, made a textarea or input.
    let (kind, autocomplete, value, (fs, fe), masked, cut) = field;
    let field_at = elements[b.0 % elements.len()];
    let value_len = value.encode_utf16().count() as u32;
    let (fs, fe) = (fs % (value_len + 1), fe % (value_len + 1));
    let field = (how % 5 >= 3 && field_at != 0).then(|| {
        nodes[field_at].tag = Some(if kind == 0 { "textarea" } else { "input" }.to_owned());
        Field {
            node: field_at as u32,
            kind: FIELD_KINDS[kind % FIELD_KINDS.len()].to_owned(),
            value,
            start: fs.min(fe),
            end: fs.max(fe),
            cut,
            autocomplete: Some(AUTOCOMPLETES[autocomplete % AUTOCOMPLETES.len()].to_owned()),
            name: Some("userPin".to_owned()),
            masked,
        }
    });
    let n = nodes.len();
    let anchor = |(node, offset): (usize, u32)| {
        let node = node % n;
        let max = nodes[node]
            .text
            .as_deref()
            .map_or(1, |t| t.encode_utf16().count() as u32);
        Anchor {
            node: node as u32,
            offset: offset % (max + 1),
        }
    };
    let (how, point, selection) = match how % 5 {
        3 => (How::Selection, None, None),
        4 => (
            How::Drop,
            Some(Point {
                caret: Some(Anchor {
                    node: field_at as u32,
                    offset: 0,
                }),
                element: Some(field_at as u32),
            }),
            None,
        ),
        0 => (
            How::Drop,
            Some(Point {
                caret: Some(anchor(a)),
                element: Some(elements[b.0 % elements.len()] as u32),
            }),
            None,
        ),
        1 => (
            How::Selection,
            None,
            Some(Selection {
                start: anchor(a),
                end: anchor(b),
            }),
        ),
        _ => (
            How::Command,
            None,
            Some(Selection {
                start: anchor(b),
                end: anchor(a),
            }),
        ),
    };
    Observation {
        v: OBSERVATION_VERSION,
        url: "https://example.com/p".into(),
        title: "T".into(),
        lang: None,
        how,
        root: 0,
        nodes,
        point,
        selection,
        field,
        truncated,
        base: None,
    }
}

pub(crate) fn observations() -> impl Strategy<Value = Observation> {
    (
        prop::collection::vec(spec(), 0..60),
        any::<u8>(),
        (any::<usize>(), any::<u32>()),
        (any::<usize>(), any::<u32>()),
        any::<bool>(),
        (
            0..FIELD_KINDS.len(),
            0..AUTOCOMPLETES.len(),
            text(),
            (any::<u32>(), any::<u32>()),
            prop::bool::weighted(0.1),
            any::<bool>(),
        ),
    )
        .prop_map(|(specs, how, a, b, t, f)| observation(specs, how, a, b, t, f))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_observation_reads_without_panic_and_spans_stay_on_char_boundaries(obs in observations()) {
        let json = serde_json::to_string(&obs).unwrap();
        let parsed = Observation::from_json(&json).unwrap();
        let tree = parsed.check().unwrap();
        for view in [render::View::AsShown, render::View::Unfolded] {
            let r = render::render_as(&tree, &[], view);
            for span in r.range.iter().flatten() {
                let (a, b) = *span;
                prop_assert!(a <= b && b <= r.text.len());
                prop_assert!(r.text.is_char_boundary(a) && r.text.is_char_boundary(b));
            }
        }
        match build_reading(&parsed, "2026-11-29T00:00:00Z") {
            Ok(reading) => {
                let len = serde_json::to_vec(&reading).unwrap().len();
                prop_assert!(len <= apc_core::page_link::READING_MAX_BYTES);
            }
            Err(e) => prop_assert!(
                matches!(
                    e,
                    ContentError::NothingPointed
                        | ContentError::SecretField
                        | ContentError::ClosedShadowRoot
                ),
                "{e}"
            ),
        }
    }

    /// `Tree::is_under`, read once from the tops down, says what a walk up from each node says,
    /// `Tree::holds` what a walk down does; `Tree::top_down` lists every node once, each after
    /// its parent
    /// (`an_element_under_a_heading_or_code_is_known_without_a_walk`).
    #[test]
    fn an_element_under_a_heading_or_code_is_known_without_a_walk(obs in observations()) {
        use crate::observation::Holder;
        let tree = obs.check().unwrap();
        let n = obs.nodes.len();
        for i in 0..n {
            let above = |is: fn(&str) -> bool| tree.ancestors(i).skip(1).any(|a| is(tree.node(a).tag()));
            prop_assert_eq!(tree.is_under(i, Holder::Code), above(|t| matches!(t, "pre" | "code")));
            prop_assert_eq!(
                tree.is_under(i, Holder::Heading),
                above(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
            );
        }
        for i in 0..n {
            let mut below = Vec::new();
            let mut stack: Vec<usize> = obs.nodes[i].kids.iter().map(|&k| k as usize).collect();
            while let Some(k) = stack.pop() {
                below.push(obs.nodes[k].tag.clone().unwrap_or_default());
                stack.extend(obs.nodes[k].kids.iter().map(|&k| k as usize));
            }
            prop_assert_eq!(
                tree.holds(i, Holder::Heading),
                below.iter().any(|t| matches!(t.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
            );
            prop_assert_eq!(tree.holds(i, Holder::Code), below.iter().any(|t| matches!(t.as_str(), "pre" | "code")));
        }
        let order = tree.top_down();
        let mut place = vec![usize::MAX; n];
        for (k, &i) in order.iter().enumerate() {
            prop_assert_eq!(place[i], usize::MAX, "node {} listed twice", i);
            place[i] = k;
        }
        for i in 0..n {
            prop_assert!(place[i] != usize::MAX, "node {} not listed", i);
            if let Some(p) = tree.parent_of(i) {
                prop_assert!(place[p] < place[i]);
            }
        }
    }

    /// The reading renders its main text a second time only where `folds_content` says a part is
    /// folded away; where it says none is, the page as shown must be the whole page.
    #[test]
    fn both_views_agree_where_nothing_folds(obs in observations()) {
        let tree = obs.check().unwrap();
        if !render::folds_content(&tree) {
            let shown = render::render_as(&tree, &[], render::View::AsShown).text;
            let unfolded = render::render_as(&tree, &[], render::View::Unfolded).text;
            prop_assert_eq!(shown, unfolded);
        }
    }

    /// MD6's cuts, from either end, fit their cap and fall on a character boundary, whatever
    /// mix of fences, links, escapes and wide characters the Markdown holds.
    #[test]
    fn markdown_cuts_fit_their_cap_on_char_boundaries(
        text in "[a-z \n`!\\[\\]()\\\\é€]{0,160}",
        max in 0usize..120,
    ) {
        use apc_core::js::json_char_len;
        use apc_core::markdown::{cut_point, cut_start};
        let cost = |t: &str| t.chars().map(json_char_len).sum::<usize>();
        let end = cut_point(&text, max, json_char_len);
        prop_assert!(text.is_char_boundary(end) && cost(&text[..end]) <= max);
        let start = cut_start(&text, max, json_char_len);
        prop_assert!(text.is_char_boundary(start) && cost(&text[start..]) <= max);
        if cost(&text) <= max {
            prop_assert_eq!((start, end), (0, text.len()));
        }
    }

    #[test]
    fn any_json_is_an_observation_or_an_error(raw in ".{0,200}") {
        if let Ok(obs) = Observation::from_json(&raw) {
            let _ = build_reading(&obs, "2026-11-29T00:00:00Z");
        }
    }
}
