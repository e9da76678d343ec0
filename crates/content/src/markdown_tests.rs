//! Unit tests of the Markdown rules (`markdown.rs`, K1–K8), each named after its rule, on the
//! reading as `build_reading` makes it; the tree builder is `tests.rs`'s.

use apc_core::page_link::{How, PageReading};

use crate::tests::{disp, drop_on, e, ea, es, page, reading, select, text_node, x, T};
use crate::*;

fn pre_style() -> Style {
    Style {
        display: Some("block".into()),
        white_space: Some("pre".into()),
        ..Style::default()
    }
}

/// The Markdown of everything from `from` to `to`, selected.
fn md_of(body: Vec<T>, from: &str, to: &str) -> String {
    md_reading(body, from, to).markdown.unwrap().pointed
}

fn md_reading(body: Vec<T>, from: &str, to: &str) -> PageReading {
    reading(&select(page(body), from, to))
}

#[test]
fn md_k1_headings_paragraphs_and_breaks() {
    let md = md_of(
        vec![
            e("h2", vec![x("Install "), e("span", vec![x("it")])]),
            e("p", vec![x("Run it"), e("br", vec![]), x("then go.")]),
            ea(
                "div",
                &[("role", "heading"), ("aria-level", "4")],
                vec![x("Deeper")],
            ),
            e("hr", vec![]),
            e("p", vec![x("Last")]),
        ],
        "Install",
        "Last",
    );
    assert_eq!(
        md,
        "## Install it\n\nRun it\\\nthen go.\n\n#### Deeper\n\n---\n\nLast"
    );
}

#[test]
fn md_k2_nested_lists_of_both_kinds() {
    let md = md_of(
        vec![e(
            "ul",
            vec![
                e(
                    "li",
                    vec![
                        x("alpha"),
                        ea(
                            "ol",
                            &[("start", "3")],
                            vec![e("li", vec![x("beta")]), e("li", vec![x("gamma")])],
                        ),
                    ],
                ),
                e(
                    "li",
                    vec![x("delta"), e("ul", vec![e("li", vec![x("epsilon")])])],
                ),
            ],
        )],
        "alpha",
        "epsilon",
    );
    // A nested ordered list that does not start at 1 cannot interrupt its item's paragraph:
    // a blank line before it; a nested bullet list follows its item on the next line.
    assert_eq!(md, "- alpha\n\n  3. beta\n  4. gamma\n- delta\n  - epsilon");
}

#[test]
fn md_k2_a_selection_inside_a_list_keeps_its_numbers() {
    let md = md_of(
        vec![e(
            "ol",
            vec![
                e("li", vec![x("one")]),
                e("li", vec![x("two")]),
                e("li", vec![x("three")]),
            ],
        )],
        "two",
        "three",
    );
    assert_eq!(md, "2. two\n3. three");
}

#[test]
fn md_k3_block_quotes_mark_every_line() {
    let md = md_of(
        vec![
            e("p", vec![x("Before")]),
            e(
                "blockquote",
                vec![e("p", vec![x("First")]), e("p", vec![x("Second")])],
            ),
        ],
        "Before",
        "Second",
    );
    assert_eq!(md, "Before\n\n> First\n>\n> Second");
}

#[test]
fn md_k4_code_blocks_keep_their_exact_text_and_language() {
    let code = "fn main() {\n    let s = \"```\";\n\n    println!(\"{s}\");\n}";
    let body = vec![
        e(
            "p",
            vec![x("Intro "), e("code", vec![x("a`b")]), x(" text")],
        ),
        ea(
            "div",
            &[("class", "highlight highlight-source-rust")],
            vec![es("pre", pre_style(), vec![e("code", vec![x(code)])])],
        ),
        es(
            "pre",
            pre_style(),
            vec![ea(
                "code",
                &[("class", "hljs language-JavaScript")],
                vec![x("let a = 1;")],
            )],
        ),
        ea("pre", &[("data-lang", "py`thon")], vec![x("print(1)")]),
        e("p", vec![x("End")]),
    ];
    let md = md_of(body, "Intro", "End");
    assert_eq!(
        md,
        format!(
            "Intro ``a`b`` text\n\n````rust\n{code}\n````\n\n```javascript\nlet a = 1;\n```\n\n```\nprint(1)\n```\n\nEnd"
        )
    );
}

#[test]
fn md_k5_tables_with_a_header_spans_and_breaks() {
    let table = e(
        "table",
        vec![
            e("caption", vec![x("Prices")]),
            e(
                "thead",
                vec![e(
                    "tr",
                    vec![e("th", vec![x("Item")]), e("th", vec![x("A|B")])],
                )],
            ),
            e(
                "tbody",
                vec![
                    e("tr", vec![ea("td", &[("colspan", "2")], vec![x("wide")])]),
                    e(
                        "tr",
                        vec![
                            ea("td", &[("rowspan", "2")], vec![x("tall")]),
                            e("td", vec![x("two"), e("br", vec![]), x("lines")]),
                        ],
                    ),
                    e(
                        "tr",
                        vec![e("td", vec![e("p", vec![x("p1")]), e("p", vec![x("p2")])])],
                    ),
                ],
            ),
        ],
    );
    let md = md_of(vec![table, e("p", vec![x("After")])], "Prices", "After");
    assert_eq!(
        md,
        "Prices\n\n| Item | A\\|B |\n| --- | --- |\n| wide |  |\n| tall | two<br>lines |\n|  | p1<br>p2 |\n\nAfter"
    );
}

#[test]
fn md_k5_a_table_without_a_header_gets_an_empty_one_and_layout_tables_are_blocks() {
    let data = e(
        "table",
        vec![e("tr", vec![e("td", vec![x("a")]), e("td", vec![x("b")])])],
    );
    let layout = e(
        "table",
        vec![e("tr", vec![e("td", vec![e("p", vec![x("Only cell")])])])],
    );
    let md = md_of(vec![data, layout], "a", "Only cell");
    assert_eq!(md, "|  |  |\n| --- | --- |\n| a | b |\n\nOnly cell");
}

#[test]
fn md_k6_links_are_absolute_web_links_only() {
    let body = || {
        vec![e(
            "p",
            vec![
                x("See "),
                ea("a", &[("href", "../api#x")], vec![x("the API")]),
                x(", "),
                ea("a", &[("href", "javascript:alert(1)")], vec![x("bad")]),
                x(", "),
                ea("a", &[("href", "#top")], vec![x("top")]),
                x(", "),
                ea(
                    "a",
                    &[("href", "https://example.com/a#more")],
                    vec![x("more")],
                ),
                x(", "),
                ea("a", &[("href", "/a?page=2")], vec![x("next")]),
                x(", "),
                ea("a", &[("href", "mailto:a@b.example")], vec![x("mail")]),
                x(" and "),
                ea(
                    "a",
                    &[("href", "https://other.example/a b(1)")],
                    vec![x("[other]")],
                ),
                ea("a", &[("href", "https://icon.example/")], vec![]),
                x(" end"),
            ],
        )]
    };
    let md = md_of(body(), "See", "end");
    assert_eq!(
        md,
        "See [the API](https://example.com/api#x), bad, top, more, [next](https://example.com/a?page=2), [mail](mailto:a@b.example) and [\\[other\\]](https://other.example/a%20b%281%29) end"
    );
    // A <base href> is what relative links resolve against.
    let mut obs = select(page(body()), "See", "end");
    obs.base = Some("https://cdn.example/root/".into());
    let md = reading(&obs).markdown.unwrap().pointed;
    assert!(
        md.starts_with("See [the API](https://cdn.example/api#x)"),
        "{md}"
    );
}

#[test]
fn md_k7_images_by_their_alt_text_and_a_drop_on_one_keeps_its_caption() {
    let body = vec![e(
        "figure",
        vec![
            ea(
                "img",
                &[("alt", "A [red]\n barn"), ("src", "/barn.png")],
                vec![],
            ),
            ea("img", &[("src", "/spacer.gif")], vec![]),
            e("figcaption", vec![x("The barn at dawn")]),
        ],
    )];
    let mut obs = page(body);
    let img = obs
        .nodes
        .iter()
        .position(|n| n.attr("alt").is_some())
        .unwrap() as u32;
    obs.how = How::Drop;
    obs.point = Some(Point {
        caret: None,
        element: Some(img),
    });
    let r = reading(&obs);
    assert_eq!(r.pointed.text, "The barn at dawn");
    assert_eq!(
        r.markdown.unwrap().pointed,
        "![A \\[red\\] barn](https://example.com/barn.png)\n\nThe barn at dawn"
    );
}

#[test]
fn md_k8_deep_nesting_is_read_flat_without_overflow() {
    // html > body > 20 000 nested divs > a list > an item > "deep words"
    let depth = 20_000u32;
    let mut nodes = vec![
        Node {
            tag: Some("html".into()),
            kids: vec![1],
            ..Node::default()
        },
        Node {
            tag: Some("body".into()),
            kids: vec![2],
            ..Node::default()
        },
    ];
    for i in 2..depth {
        nodes.push(Node {
            tag: Some("div".into()),
            kids: vec![i + 1],
            ..Node::default()
        });
    }
    nodes.push(Node {
        tag: Some("li".into()),
        kids: vec![depth + 1],
        ..Node::default()
    });
    nodes.push(Node {
        text: Some("deep words".into()),
        ..Node::default()
    });
    let mut obs = page(vec![]);
    obs.nodes = nodes;
    let obs = drop_on(obs, "deep");
    let r = reading(&obs);
    assert_eq!(r.markdown.unwrap().pointed, "deep words");
}

#[test]
fn md_page_text_cannot_fake_structure() {
    let body = vec![
        e("p", vec![x("# Pointed text")]),
        e("p", vec![x("1. not a list")]),
        e("p", vec![x("- nor this")]),
        e("p", vec![x("> nor a quote")]),
        e("p", vec![x("```")]),
        e("p", vec![x("<b>x</b> *y* [z](u) | ~s~ _e_ &amp;")]),
        e("h3", vec![x("Issue #")]),
        es("pre", pre_style(), vec![x("```\n# not a heading\n````")]),
        e("p", vec![x("End")]),
    ];
    let md = md_of(body, "# Pointed", "End");
    assert_eq!(
        md,
        "\\# Pointed text\n\n1\\. not a list\n\n\\- nor this\n\n\\> nor a quote\n\n\\`\\`\\`\n\n\\<b>x\\</b> \\*y\\* \\[z\\](u) \\| \\~s\\~ \\_e\\_ \\&amp;\n\n### Issue \\#\n\n`````\n```\n# not a heading\n````\n`````\n\nEnd"
    );
    // Outside the code block, the only line that starts a heading is the page's own heading.
    let outside = md.split("`````").step_by(2).collect::<String>();
    let headings: Vec<&str> = outside.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(headings, ["### Issue \\#"]);
}

#[test]
fn md_the_main_text_has_markdown_and_its_plain_text_is_unchanged() {
    let body = vec![e(
        "article",
        vec![
            e("h2", vec![x("Setup")]),
            e(
                "p",
                vec![x(
                    "Install the package with your package manager, then configure it, as below.",
                )],
            ),
            e(
                "ul",
                vec![
                    e("li", vec![x("first step, which matters")]),
                    e("li", vec![x("second step, also")]),
                ],
            ),
            e(
                "p",
                vec![
                    x("Read the "),
                    ea("a", &[("href", "/guide")], vec![x("guide")]),
                    x(", which explains it all in more detail, with examples, for everyone."),
                ],
            ),
        ],
    )];
    let obs = drop_on(page(body), "Install");
    let r = reading(&obs);
    let plain = r.page_text.clone().unwrap();
    assert!(
        plain.starts_with("Setup\n\nInstall the package"),
        "{plain:?}"
    );
    assert!(plain.contains("first step, which matters\nsecond step"));
    assert!(!plain.contains('#') && !plain.contains("](") && !plain.contains("- "));
    let md = r.markdown.unwrap().page.unwrap();
    assert_eq!(
        md,
        "## Setup\n\nInstall the package with your package manager, then configure it, as below.\n\n- first step, which matters\n- second step, also\n\nRead the [guide](https://example.com/guide), which explains it all in more detail, with examples, for everyone."
    );
    // In two steps (a drop's pointed part, then its page text): the same Markdown.
    let pointed = build_pointed(&obs, "2026-11-29T00:00:00Z").unwrap();
    assert!(pointed.markdown.as_ref().unwrap().page.is_none());
    let text = page_text_for(&obs, &pointed).unwrap();
    assert_eq!(text.text.as_deref(), Some(plain.as_str()));
    assert_eq!(text.markdown.as_deref(), Some(md.as_str()));
}

#[test]
fn md_context_keeps_its_links() {
    let body = vec![
        e(
            "p",
            vec![
                x("Earlier text with "),
                ea(
                    "a",
                    &[("href", "https://example.com/ref")],
                    vec![x("a reference")],
                ),
                x("."),
            ],
        ),
        e("p", vec![x("The pointed paragraph.")]),
        e("ol", vec![e("li", vec![x("a step after")])]),
    ];
    let r = reading(&drop_on(page(body), "pointed"));
    let md = r.markdown.unwrap();
    assert_eq!(md.pointed, "The pointed paragraph.");
    assert_eq!(
        md.before,
        "Earlier text with [a reference](https://example.com/ref)."
    );
    assert_eq!(md.after, "1. a step after");
    assert_eq!(r.context.before, "Earlier text with a reference.");
}

#[test]
fn md_hidden_text_stays_out_of_the_markdown() {
    let hidden = Style {
        display: Some("none".into()),
        ..Style::default()
    };
    let body = vec![
        e("p", vec![x("Shown"), es("span", hidden, vec![x("SECRET")])]),
        es("p", disp("block"), vec![x("Also shown")]),
    ];
    let md = md_of(body, "Shown", "shown");
    assert_eq!(md, "Shown\n\nAlso shown");
    let _ = text_node;
}

#[test]
fn md_k5_a_pointed_cell_comes_with_its_row_and_the_header() {
    let table = e(
        "table",
        vec![
            e(
                "thead",
                vec![e(
                    "tr",
                    vec![e("th", vec![x("Option")]), e("th", vec![x("Default")])],
                )],
            ),
            e(
                "tbody",
                vec![
                    e(
                        "tr",
                        vec![e("td", vec![x("--fast")]), e("td", vec![x("off")])],
                    ),
                    e(
                        "tr",
                        vec![e("td", vec![x("--level")]), e("td", vec![x("3")])],
                    ),
                ],
            ),
        ],
    );
    let r = reading(&drop_on(page(vec![table]), "--level"));
    assert_eq!(r.pointed.text, "--level");
    assert_eq!(
        r.markdown.unwrap().pointed,
        "| Option | Default |\n| --- | --- |\n| --level | 3 |"
    );
}

#[test]
fn the_pointed_markdown_cap_is_p3s_half_again() {
    assert_eq!(
        crate::markdown::POINTED_MARKDOWN_MAX_BYTES,
        crate::POINTED_MAX_BYTES * 3 / 2
    );
}

#[test]
fn md_context_keeps_the_part_nearest_the_point_within_its_cap() {
    // A product gallery: hundreds of images, each a long address and no text, on both sides of
    // the pointed title. C1's plain context is a few words; its Markdown carries every image.
    let gallery = |side: &str| {
        let imgs = (0..1_500)
            .map(|i| {
                let src = format!("/{side}/{i}/{}.jpg", "w".repeat(400));
                let alt = format!("{side} {i}");
                ea(
                    "img",
                    &[("alt", alt.as_str()), ("src", src.as_str())],
                    vec![],
                )
            })
            .collect();
        e("div", imgs)
    };
    let body = vec![
        e("p", vec![x("Shirts")]),
        gallery("before"),
        e("p", vec![x("Sizes")]),
        e("h1", vec![x("Staple Classic")]),
        e("p", vec![x("Care")]),
        gallery("after"),
        e("p", vec![x("Wash")]),
    ];
    let r = md_reading(body, "Staple", "Classic");
    let md = r.markdown.clone().unwrap();
    let escaped = |s: &str| s.chars().map(apc_core::js::json_char_len).sum::<usize>();
    assert_eq!(r.context.before, "Shirts\n\nSizes");
    assert_eq!(r.context.after, "Care\n\nWash");
    for side in [&md.before, &md.after] {
        assert!(escaped(side) <= crate::markdown::CONTEXT_MARKDOWN_MAX_BYTES);
        assert!(escaped(side) > crate::markdown::CONTEXT_MARKDOWN_MAX_BYTES / 2);
    }
    // Each side keeps what lies nearest the title, starting or ending with a whole image.
    assert!(md.before.ends_with("Sizes"), "{}", &md.before);
    assert!(md.before.contains("![before 1499]"));
    assert!(!md.before.contains("Shirts"));
    assert!(md.before.starts_with("![before "), "{}", &md.before[..80]);
    assert!(md.after.starts_with("Care"), "{}", &md.after[..80]);
    assert!(md.after.contains("![after 0]"));
    assert!(md.after.trim_end().ends_with(".jpg)"), "{}", &md.after);
    assert!(!md.after.contains("Wash"));
    assert!(serde_json::to_vec(&r).unwrap().len() <= apc_core::page_link::READING_MAX_BYTES);
}
