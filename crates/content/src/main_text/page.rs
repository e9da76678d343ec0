//! The page as the main-text rules read it (`Page`, surveyed once: per element its counts, whether
//! it is inside an unlikely part, whether it holds a block) and the small facts every rule of
//! `main_text.rs`, `cover.rs` and `region.rs` shares: the class and id words, the noise tags and
//! roles, the paragraph size, what a caption is. A leaf of `main_text/`: it names none of its
//! siblings nor its parent, so the rules' modules import it without a circle.

use std::cell::OnceCell;

use crate::observation::{Holder, Tree};
use crate::render::{layout, Layout, Rendered};

/// Words in a class or id that say "this is the content".
pub(super) const POSITIVE: &[&str] = &[
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text",
    "blog", "story",
];
/// Words that say "probably not the content" (lose to a positive word). Not "header": a
/// document's lead, a landing page's hero and an article's head are named so as often as the
/// site's banner (which M4 and M8 cut by its tag and role: `a_header_class_is_not_noise`). Not
/// "tool" but "toolbar" and "tooltip": a service page's "tools" are the features it sells
/// (`a_tools_class_is_not_noise`).
pub(super) const WEAK_NEGATIVE: &[&str] = &[
    "hidden",
    "banner",
    "combx",
    "contact",
    "footer",
    "foot",
    "masthead",
    "media",
    "meta",
    "scroll",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "shopping",
    "tags",
    "widget",
    "nav",
    "menu",
    "pagination",
    "pager",
    "popup",
    "toolbar",
    "tooltip",
    "caption",
    "credit",
];
/// Words that say "not the content" whatever else the class says (and those of text for screen
/// readers only, [`HIDDEN_TEXT_WORDS`]).
pub(super) const STRONG_NEGATIVE: &[&str] = &[
    "comment",
    "disqus",
    "respond",
    "reply",
    "replies",
    "related",
    "recommend",
    "share",
    "sharing",
    "social",
    "newsletter",
    "subscribe",
    "signup",
    "promo",
    "sponsor",
    "outbrain",
    "taboola",
    "breadcrumb",
    "byline",
    "author-bio",
    "authorbio",
    "cookie",
    "consent",
    "gdpr",
    "most-popular",
    "mostpopular",
    "trending",
    "read-more",
    "readmore",
    "more-stories",
    "print-only",
];
/// Class or id tokens that are ads (matched as whole tokens or their prefix/suffix `ad-`, `-ad`).
pub(super) const AD_TOKENS: &[&str] = &["ad", "ads", "advertisement", "adsbygoogle", "dfp"];
pub(super) const NOISE_TAGS: &[&str] = &["nav", "aside", "footer", "button", "dialog", "menu"];
pub(super) const NOISE_ROLES: &[&str] = &[
    "navigation",
    "complementary",
    "contentinfo",
    "search",
    "menu",
    "menubar",
    "dialog",
    "alert",
    "alertdialog",
];
pub(super) const MIN_PARAGRAPH_BYTES: usize = 25;

/// `v[i]`, or the default when `i` is out of range.
pub(super) fn at<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

pub(super) fn set<T>(v: &mut [T], i: usize, x: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = x;
    }
}

pub(super) fn len(r: &Rendered, i: usize) -> usize {
    r.span(i).map_or(0, |(a, b)| b - a)
}

/// The lower-cased class and id of an element, space separated, without the taxonomy tokens
/// blog engines add (`category-…`, `tag-…`: they name the post's topic, not the element's role)
/// nor layout wrappers' tokens (a utility's `overflow-hidden`, a page builder's
/// `elementor-widget-container` or `hs_cos_wrapper_widget`: they hold any content, and say
/// neither hidden nor widget of it: `layout_wrappers_are_not_hint_words`; a linked heading's
/// `scroll-mt-20` or `scroll-margin-top`, no scroller: `scroll_margin_utilities_are_not_hint_words`;
/// a table's sideways scroller or a box's scrollbar, `scrollable-table`, `scrollbar-hide`:
/// `a_tables_scrolling_wrapper_is_not_noise`),
/// nor script hooks (`js-…`: a forum's `js-replyNewMessageContainer` holds the thread's posts,
/// not replies to an article: `script_hook_classes_are_not_hint_words`), nor a utility's
/// breakpoint `hidden` in a class of variants (`maxlg:hidden`, or `hidden` beside `md:block`:
/// the block hides at some widths only, and the person sees it:
/// `breakpoint_hidden_classes_are_not_noise`), nor a token saying a part of it is hidden
/// ([`hides_a_part`], `field--label-hidden`: `a_class_hiding_a_part_is_not_noise`), nor a heading's `anchor…` token (where its anchor
/// stops, `anchorWithStickyNavbar_LWe7`: `a_headings_anchor_classes_are_not_hint_words`), nor an
/// id that spells its heading
/// ([`id_spells_heading`]: `an_id_that_spells_its_heading_is_no_hint`).
pub(super) fn hints(tree: &Tree<'_>, i: usize) -> String {
    let node = tree.node(i);
    let mut s = String::new();
    for attr in ["class", "id"] {
        if let Some(v) = node.attr(attr) {
            if attr == "id" && id_spells_heading(tree, i, v) {
                continue;
            }
            // Variants (`md:`, `hover:`) mark a utility-class vocabulary.
            let variants = v.contains(':');
            let heading = is_heading(node.tag());
            for token in v.split_ascii_whitespace() {
                let t = token.to_ascii_lowercase();
                if !(t.starts_with("category-")
                    || (variants && t.rsplit(':').next() == Some("hidden"))
                    || t.starts_with("tag-")
                    || t.starts_with("tags-")
                    || t.contains("overflow-")
                    || is_scroll_spacing(&t)
                    || is_scroll_behaviour(&t)
                    || (heading && t.starts_with("anchor"))
                    || t.starts_with("elementor-widget")
                    || t.starts_with("hs_cos_wrapper")
                    || t.starts_with("js-")
                    || hides_a_part(&t))
                {
                    s.push_str(&t);
                    s.push(' ');
                }
            }
        }
    }
    s
}

/// Whether a class token says a part of the element is hidden, not the element: `hidden` after
/// the part's name (Drupal's `field--label-hidden`, a field whose label is not shown; an
/// accordion's `kt-accordion-panel-hidden` on its shown panel; `panel--overflowhidden`). Not
/// the element itself hidden for all but screen readers (`visually-hidden`), nor at some widths
/// (`elementor-hidden-tablet`, where `hidden` comes first).
fn hides_a_part(t: &str) -> bool {
    t.strip_suffix("hidden").is_some_and(|part| {
        !part.is_empty() && !part.ends_with("visually-") && !part.ends_with("visually")
    })
}

/// Whether an id spells the text of the heading it names, the element's own (a heading's, or
/// a part of one: MediaWiki's `span.mw-headline`) or its first child's, past empty anchors
/// (`<h3 id="immediately-invoked-function-expressions">`, a section's
/// `id="use-trimmed-interleaved-replies-in-email"`): an anchor made of the heading's words,
/// whose `media` or `replies` say nothing of the part (`an_id_that_spells_its_heading_is_no_hint`).
fn id_spells_heading(tree: &Tree<'_>, i: usize, id: &str) -> bool {
    let id = without_section_prefix(id);
    if in_heading(tree, i) {
        return spells(tree, i, id);
    }
    let heading = std::iter::once(i)
        .chain(tree.node(i).kids.iter().map(|&k| k as usize).find(|&k| {
            let kid = tree.node(k);
            kid.is_element() && !kid.kids.is_empty()
        }))
        .find(|&h| is_heading(tree.node(h).tag()));
    let Some(h) = heading else {
        return false;
    };
    // A block's id of a word or three (`reviews`, `leave-a-reply`) names the block, as its
    // heading does; a slug of a longer heading, or a `section`'s, is the heading's anchor.
    let count = id
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count();
    if h != i && tree.node(i).tag() != "section" && count < SLUG_WORDS {
        return false;
    }
    spells(tree, h, id)
}

/// An id without the prefix a generator puts before a section's slug (`s-widgets`,
/// `sec-looping-over-hidden-fields`, `section-…`): the slug is still its heading's words
/// (`a_section_prefix_before_a_heading_slug_is_no_hint`).
fn without_section_prefix(id: &str) -> &str {
    SECTION_PREFIXES
        .iter()
        .find_map(|p| id.strip_prefix(p).filter(|rest| !rest.is_empty()))
        .unwrap_or(id)
}

/// The prefixes of a section's slug ([`without_section_prefix`]).
const SECTION_PREFIXES: &[&str] = &["s-", "sec-", "section-"];

/// Whether every word of an id is a word of `h`'s text.
fn spells(tree: &Tree<'_>, h: usize, id: &str) -> bool {
    let mut text = String::new();
    collect_text(tree, h, &mut text);
    let text = text.to_lowercase();
    let said: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut words = id
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .peekable();
    words.peek().is_some() && words.all(|w| said.contains(&w.to_lowercase().as_str()))
}

/// The fewest words of a part's id that [`id_spells_heading`] reads as its heading's anchor.
const SLUG_WORDS: usize = 4;

/// Most bytes of a heading's text [`spells`] reads: a heading's words come first, and an
/// element holding more is no heading an id was made of (every element with an id asks, and on a
/// page nested thousands deep each holds the rest of the page).
const SPELLED_TEXT_MAX: usize = 512;

/// The text of `i`'s subtree, in document order, until it holds [`SPELLED_TEXT_MAX`] bytes;
/// walked with a stack of its own, however deep the subtree nests.
fn collect_text(tree: &Tree<'_>, i: usize, out: &mut String) {
    let mut stack = vec![i];
    while let Some(n) = stack.pop() {
        if out.len() >= SPELLED_TEXT_MAX {
            return;
        }
        let node = tree.node(n);
        if let Some(t) = &node.text {
            let room = SPELLED_TEXT_MAX - out.len();
            let end = t
                .char_indices()
                .map(|(at, c)| at + c.len_utf8())
                .take_while(|&end| end <= room)
                .last()
                .unwrap_or(0);
            out.push_str(t.get(..end).unwrap_or_default());
            out.push(' ');
        }
        stack.extend(node.kids.iter().rev().map(|&k| k as usize));
    }
}

/// A token that says how a box scrolls, not what it holds: a table's wrapper that scrolls it
/// sideways on a narrow screen (`scrollable-table`, `table-scroll`), a utility's scrolling
/// behaviour or scrollbar (`scroll-smooth`, `motion-reduce:scroll-auto`, `scrollbar-hide`)
/// (`a_tables_scrolling_wrapper_is_not_noise`). A carousel's `scroll-slides` still scrolls
/// past other content.
fn is_scroll_behaviour(token: &str) -> bool {
    let t = token.rsplit(':').next().unwrap_or(token);
    (t.contains("scroll") && t.contains("table"))
        || matches!(t, "scroll-smooth" | "scroll-auto")
        || t.starts_with("scrollbar")
}

/// A scroll-margin or scroll-padding utility (`scroll-margin-top`, Tailwind's `scroll-mt-20`,
/// `md:scroll-px-4`): where a linked heading stops under a sticky bar, no scroller.
fn is_scroll_spacing(token: &str) -> bool {
    let t = token.rsplit(':').next().unwrap_or(token);
    token.contains("scroll-margin")
        || token.contains("scroll-padding")
        || t.strip_prefix("scroll-")
            .and_then(|r| r.strip_prefix('m').or_else(|| r.strip_prefix('p')))
            .is_some_and(|r| {
                let r = r.trim_start_matches(['t', 'b', 'l', 'r', 'x', 'y', 's', 'e']);
                r.starts_with('-') && r.len() > 1
            })
}

/// Words that name the body of a post outright: they win over any negative word.
pub(super) const BODY_NAMES: &[&str] = &[
    "hentry",
    "h-entry",
    "entry-content",
    "post-content",
    "post-body",
    "article-body",
    "articlebody",
    "article-content",
    "story-body",
];

/// Class or id words (matched as substrings) of text no one is meant to see: shown to screen
/// readers only, or a part a site builder hides while its condition is false (Webflow's
/// `w-condition-invisible`, and its form's messages for after sending, `w-form-done` and
/// `w-form-fail`, which only Webflow's stylesheet hides: where that did not load, a gated copy
/// of the post shows beside the post,
/// `a_part_a_site_builder_hides_by_its_condition_is_not_read`).
const HIDDEN_TEXT_WORDS: &[&str] = &[
    "sr-only",
    "screen-reader",
    "visually-hidden",
    "visuallyhidden",
    "w-condition-invisible",
    "w-form-done",
    "w-form-fail",
];

/// Whether class or id words `h` hold a [`STRONG_NEGATIVE`] word or say the text is not meant to
/// be seen ([`names_hidden_text`]).
fn names_strong_negative(h: &str) -> bool {
    STRONG_NEGATIVE.iter().any(|k| h.contains(k)) || names_hidden_text(h)
}

/// Parts of a class or id token that, with "author", name a box about the writer
/// ([`names_author_box`]).
const AUTHOR_BOX_PARTS: &[&str] = &[
    "box",
    "section",
    "wrap",
    "card",
    "about",
    "profile",
    "bio",
    "info",
    "container",
    "detail",
    "popover",
];

/// Whether a class or id token names a box about the article's writer: it holds "author" and one
/// of [`AUTHOR_BOX_PARTS`] (`author-box`, `about_author`, `cda-author__container`,
/// `elementor-author-box--layout-image-left`, `authorpopover__content`). Not a comment's or a
/// thread's author (`comment-author-ruima`, `uix_threadAuthor`: their posts), not an
/// authorization, and not `author-content` (some themes' name for the post itself).
pub(super) fn names_author_box(token: &str) -> bool {
    token.contains("author")
        && !token.contains("authoriz")
        && !token.contains("comment")
        && !token.contains("thread")
        && AUTHOR_BOX_PARTS.iter().any(|p| token.contains(p))
}

/// Whether class or id words `h` say the text is not meant to be seen
/// ([`HIDDEN_TEXT_WORDS`]): never the page's text, wherever it sits, in a sentence too.
pub(super) fn names_hidden_text(h: &str) -> bool {
    HIDDEN_TEXT_WORDS.iter().any(|k| h.contains(k))
}

/// Whether an inline element sits in a line of prose: the line of the rendered text holding
/// it has [`LONG_LINE`] characters or more, [`SENTENCE_AROUND`] of them besides its own (an
/// inline promotion whose own headline makes its line long is no sentence). Its class words
/// then name a word of the sentence, not a part of the page (M4 and M8 keep it:
/// `an_articles_words_are_not_cut_by_their_class`,
/// `a_sentences_words_are_not_cut_by_their_class`).
pub(super) fn on_a_prose_line(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let r = page.r;
    if is_block(layout(page.tree.node(i))) {
        return false;
    }
    let Some((a, b)) = r.span(i) else {
        return false;
    };
    // The span may open with the line breaks of the block before it.
    let own = r.slice(a, b);
    let a = a + (own.len() - own.trim_start().len());
    let own = own.trim().chars().count();
    // The line is read no further than a window around the element, so a page of one long line
    // and many elements costs no scan of the whole line each: a side that runs past the window
    // holds LONG_LINE characters at least (4 bytes a character at most), which is enough.
    let text = r.text.as_str();
    let mut lo = a.saturating_sub(4 * LONG_LINE);
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = (b + 4 * LONG_LINE).min(text.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    let (Some(before), Some(after)) = (text.get(lo..a), text.get(b..hi)) else {
        return false;
    };
    let before = match before.rfind('\n') {
        Some(n) => before.get(n + 1..).unwrap_or(""),
        None if lo == 0 => before,
        None => return true,
    };
    let after = match after.find('\n') {
        Some(n) => after.get(..n).unwrap_or(""),
        None if hi == text.len() => after,
        None => return true,
    };
    let line = before.trim_start().chars().count() + own + after.trim_end().chars().count();
    line >= LONG_LINE && line >= SENTENCE_AROUND + own
}

/// The fewest characters of a prose line around an inline element of it ([`on_a_prose_line`]).
const SENTENCE_AROUND: usize = LONG_LINE / 2;

/// Whether a block's whole text is the label an ad slot leaves in the text, empty or not:
/// "Advertisement", "ADVERTISEMENT:", "Story continues below advertisement" (words compared
/// without case or punctuation, English only: `an_ad_slots_label_is_cut`). A sentence about
/// advertising says more; a bare "Ad" is too often something else (a cell of letter pairs,
/// "AD 1066").
pub(super) fn is_ad_label(text: &str) -> bool {
    if text.len() > AD_LABEL_BYTES {
        return false;
    }
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    match words.as_slice() {
        [one] => matches!(one.as_str(), "advertisement" | "advertisements"),
        [.., below, last] => matches!(below.as_str(), "below" | "after") && last == "advertisement",
        [] => false,
    }
}

/// The longest text read as an ad slot's label ([`is_ad_label`]).
const AD_LABEL_BYTES: usize = 48;

pub(super) fn has_ad_token(h: &str) -> bool {
    h.split(|c: char| c.is_whitespace()).any(|t| {
        // A token that hides or leaves out ads (`hide-read-more-ad`, `no-ads`) says the
        // part holds none (`tokens_that_hide_ads_are_not_ads`).
        let negated = ["hide-", "hidden-", "no-", "without-"]
            .iter()
            .any(|p| t.starts_with(p));
        let modifier = t
            .split_once("--")
            .is_some_and(|(block, _)| !is_ad_word(block));
        !negated && !modifier && is_ad_word(t)
    })
}

/// Whether a class or id token names an ad: one of [`AD_TOKENS`], or a word starting or ending
/// with `ad` or `ads` between dashes, or starting "advert".
fn is_ad_word(t: &str) -> bool {
    AD_TOKENS.contains(&t)
        || t.starts_with("ad-")
        || t.starts_with("ads-")
        || t.ends_with("-ad")
        || t.ends_with("-ads")
        || t.starts_with("advert")
}

/// Below a `pre` or `code` element.
pub(super) fn in_code(tree: &Tree<'_>, i: usize) -> bool {
    tree.is_under(i, Holder::Code)
}

/// The class/id (its [`hints`], `h`) says this is not content, whatever else it says. Never said
/// of the page's root, body, a declared main or article, or a link (page-wide classes such as a
/// body's `logged-out unsubscribed` say nothing about the text).
fn strongly_negative(tree: &Tree<'_>, i: usize, h: &str) -> bool {
    if h.is_empty()
        || matches!(
            tree.node(i).tag(),
            "html" | "body" | "main" | "article" | "a"
        )
    {
        return false;
    }
    !BODY_NAMES.iter().any(|k| h.contains(k))
        && (names_strong_negative(h) || has_ad_token(h))
        // Inside code, class words name the highlighter's tokens (`hljs-comment`), not a part
        // (asked last: it walks the ancestors).
        && !in_code(tree, i)
}

/// M2's class/id weight of an element whose [`hints`] are `v`.
fn class_weight(v: &str) -> f64 {
    let mut w = 0.0;
    {
        {
            let pos = POSITIVE.iter().any(|k| v.contains(k));
            let body = BODY_NAMES.iter().any(|k| v.contains(k));
            let neg = !body
                && (names_strong_negative(v)
                    || has_ad_token(v)
                    || (!pos && WEAK_NEGATIVE.iter().any(|k| v.contains(k))));
            if neg {
                w -= 25.0;
            }
            if pos {
                w += 25.0;
            }
        }
    }
    w
}

pub(super) fn tag_weight(tag: &str) -> f64 {
    match tag {
        "div" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    }
}

pub(super) fn is_block(lay: Layout) -> bool {
    matches!(lay, Layout::Block | Layout::Row | Layout::Cell)
}

pub(super) fn is_heading(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Noise by what the element is: its tag or role, or a notice that scripts are off.
pub(super) fn noise_by_kind(tree: &Tree<'_>, i: usize) -> bool {
    let node = tree.node(i);
    NOISE_TAGS.contains(&node.tag())
        || node
            .attr("role")
            .is_some_and(|r| NOISE_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
        || is_script_notice(tree, i)
}

/// Most bytes of a notice that the page runs no scripts ([`is_script_notice`]).
const SCRIPT_NOTICE_BYTES: usize = 300;

/// A notice for a browser that runs no scripts: a `noscript` (its elements show when scripts
/// are off, R1), or an element whose class or id names one (`jetpack-slideshow-noscript`), its
/// text short ([`SCRIPT_NOTICE_BYTES`]) and speaking of JavaScript ("JavaScript is disabled.
/// For a better experience, please enable JavaScript…", "Please enable JavaScript to view the
/// comments"): what the page says when it cannot run, not its content
/// (`a_notice_that_scripts_are_off_is_no_content`). A `noscript` holding the page's own text
/// (its posts, for a tab without scripts) stays.
fn is_script_notice(tree: &Tree<'_>, i: usize) -> bool {
    let node = tree.node(i);
    let names_noscript = |a: &str| {
        a.as_bytes()
            .windows(8)
            .any(|w| w.eq_ignore_ascii_case(b"noscript"))
    };
    if !(node.tag() == "noscript"
        || node.attr("class").is_some_and(names_noscript)
        || node.attr("id").is_some_and(names_noscript))
    {
        return false;
    }
    let mut text = String::new();
    collect_text(tree, i, &mut text);
    text.len() <= SCRIPT_NOTICE_BYTES
        && text
            .as_bytes()
            .windows(10)
            .any(|w| w.eq_ignore_ascii_case(b"javascript"))
}

/// A button that asks a question: the title of a disclosure (an FAQ's question, which opens
/// its answer), not a control.
pub(super) fn is_question_button(page: &Page<'_, '_, '_>, i: usize) -> bool {
    page.tree.node(i).tag() == "button"
        && (page
            .r
            .span(i)
            .is_some_and(|(a, b)| page.r.slice(a, b).trim_end().ends_with('?'))
            || is_accordion_title(page.tree, i))
}

/// A button that titles an accordion's panel: it holds a heading or sits in one, or its class
/// or id, or its parent's, names an accordion (a course's or a collection's section titles,
/// which open their text): `an_accordions_title_buttons_are_kept`.
fn is_accordion_title(tree: &Tree<'_>, i: usize) -> bool {
    tree.ancestors(i)
        .skip(1)
        .take(2)
        .any(|a| is_heading(tree.node(a).tag()))
        || tree.holds(i, Holder::Heading)
        || std::iter::once(i)
            .chain(tree.parent_of(i))
            .any(|k| hints(tree, k).contains("accordion"))
}

/// Per rendered element: the counts the rules read, over its whole rendered subtree.
#[derive(Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) links: usize,
    /// Links (`a` elements) with text.
    pub(super) anchors: usize,
    pub(super) commas: usize,
    pub(super) p: usize,
    pub(super) img: usize,
    pub(super) li: usize,
    pub(super) li_text: usize,
    /// Text inside `pre` blocks (code).
    pub(super) pre_text: usize,
    pub(super) inputs: usize,
    /// Of `inputs`, the `button`s.
    pub(super) buttons: usize,
    pub(super) embeds: usize,
    /// Headings (`h1`–`h6`) that hold a link: a card's or an entry's title.
    pub(super) linked_headings: usize,
    /// The longest link's text.
    pub(super) longest_link: usize,
    /// Texts that show a price ([`is_price`]): a product card's.
    pub(super) prices: usize,
}

/// What the rules see of the page.
pub(super) struct Page<'t, 'o, 'r> {
    pub(super) tree: &'t Tree<'o>,
    pub(super) r: &'r Rendered,
    pub(super) counts: Vec<Counts>,
    /// Inside a part that never counts (M1): noise tag or role, or a strongly negative class.
    pub(super) unlikely: Vec<bool>,
    /// Holds a block-level element.
    pub(super) has_block: Vec<bool>,
    /// Each element's class and id words ([`hints`]), read once: the rules ask for them of the
    /// same elements many times (scoring, the unlikely parts, every cleaning rule).
    hints: Vec<OnceCell<String>>,
    /// The rendered text's lines, each one's bytes if not blank and if long ([`line_bytes`]),
    /// read the first time a rule asks.
    lines: OnceCell<LineSums>,
    /// Each node's nearest sectioning ancestor, and nearest `article` ([`nearest_above`]), read
    /// the first time a rule asks.
    sectioning: OnceCell<Vec<u32>>,
    article: OnceCell<Vec<u32>>,
    /// For each element, whether it holds an entry's linked headline (M8's
    /// `region::holds_a_linked_headline`), read for the whole page the first time it asks.
    pub(super) headlines: OnceCell<Vec<bool>>,
    /// For each element, whether it is a list of links under its heading among alike ones
    /// (M4's `link_lists::headed_link_lists`), read for the whole page the first time it asks.
    pub(super) headed_lists: OnceCell<Vec<bool>>,
    /// The rendered spans of the outermost elements named as text for screen readers only, in
    /// order ([`Page::screen_reader_spans`]).
    screen_reader: OnceCell<Vec<(usize, usize)>>,
}

impl Page<'_, '_, '_> {
    /// The nearest ancestor of `i` that is `main`, `article`, `section`, `aside` or `body`.
    pub(super) fn nearest_sectioning(&self, i: usize) -> Option<usize> {
        let nearest = self.sectioning.get_or_init(|| {
            nearest_above(self.tree, |t| {
                matches!(t, "main" | "article" | "section" | "aside" | "body")
            })
        });
        nearest
            .get(i)
            .filter(|&&a| a != u32::MAX)
            .map(|&a| a as usize)
    }

    /// The spans of the rendered text inside `(a, b)` that are for screen readers only: the
    /// outermost elements whose class or id names such text ([`names_hidden_text`]), found in one
    /// pass over the page the first time a rule asks, then by a binary search (a page nested
    /// thousands deep asks of every level).
    pub(super) fn screen_reader_spans(&self, (a, b): (usize, usize)) -> &[(usize, usize)] {
        let spans = self.screen_reader.get_or_init(|| {
            let mut out: Vec<(usize, usize)> = Vec::new();
            for &i in &self.r.order {
                let i = i as usize;
                let Some((x, y)) = self.r.span(i) else {
                    continue;
                };
                if out.last().is_some_and(|&(_, end)| x < end) || x == y {
                    continue;
                }
                if self.tree.node(i).is_element() && names_hidden_text(self.hints(i)) {
                    out.push((x, y));
                }
            }
            out
        });
        let from = spans.partition_point(|&(x, _)| x < a);
        let to = spans.partition_point(|&(x, _)| x < b);
        let inside = spans.get(from..to).unwrap_or_default();
        let whole = inside.iter().take_while(|&&(_, y)| y <= b).count();
        inside.get(..whole).unwrap_or_default()
    }

    /// The nearest `article` above `i`.
    pub(super) fn nearest_article(&self, i: usize) -> Option<usize> {
        let nearest = self
            .article
            .get_or_init(|| nearest_above(self.tree, |t| t == "article"));
        nearest
            .get(i)
            .filter(|&&a| a != u32::MAX)
            .map(|&a| a as usize)
    }

    /// [`long_line_share`] of the rendered text from `a` to `b`, the same figure, in a search
    /// of the page's lines instead of a scan of the span.
    pub(super) fn long_line_share_of(&self, span: (usize, usize)) -> f64 {
        let text = &self.r.text;
        let lines = self.lines.get_or_init(|| LineSums::of(text, line_bytes));
        share_of_long_lines(lines, text, span)
    }

    /// The element's class and id words ([`hints`]).
    pub(super) fn hints(&self, i: usize) -> &str {
        match self.hints.get(i) {
            Some(cell) => cell.get_or_init(|| hints(self.tree, i)),
            None => "",
        }
    }

    /// M2's class/id weight: +25 for a positive word, −25 for a negative one.
    pub(super) fn class_weight(&self, i: usize) -> f64 {
        class_weight(self.hints(i))
    }

    /// The class/id says the element is not content, whatever else it says.
    pub(super) fn strongly_negative(&self, i: usize) -> bool {
        strongly_negative(self.tree, i, self.hints(i))
    }

    pub(super) fn density(&self, i: usize) -> f64 {
        let l = len(self.r, i);
        if l == 0 {
            0.0
        } else {
            (at(&self.counts, i).links as f64 / l as f64).min(1.0)
        }
    }
}

/// The share of a text's bytes in lines of [`LONG_LINE`] characters or more (prose is written
/// in such lines; a landing page's headings, labels and slogans are not).
pub(super) fn long_line_share(text: &str) -> f64 {
    let (mut all, mut long) = (0usize, 0usize);
    for line in text.split('\n') {
        let (a, l) = line_bytes(line);
        all += a;
        long += l;
    }
    if all == 0 {
        0.0
    } else {
        long as f64 / all as f64
    }
}

/// For each node, its nearest ancestor (not itself) whose tag `is` picks, `u32::MAX` for none:
/// read once from the tops down, where a walk up from each element costs the page's size times
/// its depth.
fn nearest_above(tree: &Tree<'_>, is: impl Fn(&str) -> bool) -> Vec<u32> {
    let mut nearest = vec![u32::MAX; tree.obs.nodes.len()];
    for n in tree.top_down() {
        if let Some(p) = tree.parent_of(n) {
            let above = if is(tree.node(p).tag()) {
                p as u32
            } else {
                nearest.get(p).copied().unwrap_or(u32::MAX)
            };
            if let Some(slot) = nearest.get_mut(n) {
                *slot = above;
            }
        }
    }
    nearest
}

/// A text's lines with running sums of two figures of each line, so a figure over the lines
/// wholly inside a span is a subtraction and only the span's two end pieces are read: on a page
/// nested thousands deep each element's span holds the rest of the page, and reading every span
/// took seconds (the share of long lines, [`Page::long_line_share_of`]:
/// `long_line_share_of_a_span_is_the_scans`; what a quote repeats, `region::Quoted`).
pub(super) struct LineSums {
    /// The byte each line starts at (the first at 0).
    starts: Vec<usize>,
    /// The two figures summed over the lines before line `k`.
    sums: Vec<(usize, usize)>,
}

impl LineSums {
    /// The lines of `text` (split at `\n`) and their figures, in order.
    pub(super) fn of<'t>(
        text: &'t str,
        mut figures: impl FnMut(&'t str) -> (usize, usize),
    ) -> LineSums {
        let mut lines = LineSums {
            starts: Vec::new(),
            sums: vec![(0, 0)],
        };
        let (mut at, mut sum) = (0, (0, 0));
        for line in text.split('\n') {
            lines.starts.push(at);
            at += line.len() + 1;
            let (x, y) = figures(line);
            sum = (sum.0 + x, sum.1 + y);
            lines.sums.push(sum);
        }
        lines
    }

    /// For `text[a..b]` (`text` the one the sums were made of): the figures summed over the
    /// lines wholly inside it, and its two end pieces (what of the first and of the last line
    /// it holds; a span inside one line is one piece, the other empty). `None` when it is no
    /// span of the text.
    pub(super) fn split<'t>(
        &self,
        text: &'t str,
        (a, b): (usize, usize),
    ) -> Option<((usize, usize), [&'t str; 2])> {
        let whole = text.get(a..b)?;
        let line_of = |at: usize| self.starts.partition_point(|&s| s <= at).checked_sub(1);
        let (first, last) = (line_of(a)?, line_of(b)?);
        if first >= last {
            return Some(((0, 0), [whole, ""]));
        }
        let next = *self.starts.get(first + 1)?;
        let last_start = *self.starts.get(last)?;
        let (from, to) = (self.sums.get(first + 1)?, self.sums.get(last)?);
        let pieces = [text.get(a..next - 1)?, text.get(last_start..b)?];
        Some(((to.0 - from.0, to.1 - from.1), pieces))
    }
}

/// [`long_line_share`] of `text[a..b]`, from the lines' sums ([`line_bytes`]).
fn share_of_long_lines(lines: &LineSums, text: &str, (a, b): (usize, usize)) -> f64 {
    let (all, long) = match lines.split(text, (a, b)) {
        Some(((all, long), pieces)) => pieces.iter().fold((all, long), |(all, long), piece| {
            let (x, y) = line_bytes(piece);
            (all + x, long + y)
        }),
        None => (0, 0),
    };
    if all == 0 {
        0.0
    } else {
        long as f64 / all as f64
    }
}

/// A line's bytes if it is not blank, and again if it is long ([`long_line_share`]).
fn line_bytes(line: &str) -> (usize, usize) {
    if line.trim().is_empty() {
        (0, 0)
    } else if line.chars().nth(LONG_LINE - 1).is_some() {
        (line.len(), line.len())
    } else {
        (line.len(), 0)
    }
}

/// The fewest characters of a line of prose ([`long_line_share`]).
pub(super) const LONG_LINE: usize = 80;

/// The share of a text's bytes in long lines from which it is mostly prose (M8's parts kept for
/// their prose, M9's lines of labels).
pub(super) const LONG_LINE_SHARE: f64 = 0.6;

/// A heading's link to itself (`<h2 id="examples"><a href="#examples">`, a permalink's `¶`):
/// it names the section, and points nowhere else, so it is no link text
/// (`a_headings_own_anchor_is_not_link_text`).
fn is_heading_anchor(tree: &Tree<'_>, i: usize) -> bool {
    tree.node(i)
        .attr("href")
        .is_some_and(|h| h.starts_with('#'))
        && in_heading(tree, i)
}

/// Whether an element lies inside a heading (`h1`–`h6`): a part of the heading's words (its
/// anchor, its `span.mw-headline`, a signature's `where` clause on a line of its own).
pub(super) fn in_heading(tree: &Tree<'_>, i: usize) -> bool {
    tree.is_under(i, Holder::Heading)
}

/// Whether a text shows a price: a currency sign and a digit, within a short text (a card's
/// "$79.99", "€ 213,12", "From £89.90").
pub(super) fn is_price(text: &str) -> bool {
    text.len() <= 40
        && text.contains(['$', '€', '£', '¥', '₹'])
        && text.contains(|c: char| c.is_ascii_digit())
}

/// A link whose text is code (`<a href="…/th"><code>th</code></a>`, or a link inside `code`):
/// a reference names the element, function or option it writes of and links its entry; the
/// name is the text's, no link text (`a_link_naming_code_is_not_link_text`).
fn names_code(tree: &Tree<'_>, i: usize) -> bool {
    if tree
        .parent_of(i)
        .is_some_and(|p| tree.node(p).tag() == "code")
    {
        return true;
    }
    let mut kids = tree
        .node(i)
        .kids
        .iter()
        .map(|&k| tree.node(k as usize))
        .filter(|k| k.text.as_deref().is_none_or(|t| !t.trim().is_empty()))
        .peekable();
    kids.peek().is_some() && kids.all(|k| k.is_element() && k.tag() == "code")
}

pub(super) fn survey<'t, 'o, 'r>(tree: &'t Tree<'o>, r: &'r Rendered) -> Page<'t, 'o, 'r> {
    let n = tree.obs.nodes.len();
    let mut counts = vec![Counts::default(); n];
    let mut has_block = vec![false; n];
    for &i in r.order.iter().rev() {
        let i = i as usize;
        let node = tree.node(i);
        let mut c = at(&counts, i);
        if let Some(text) = &node.text {
            c.commas += text.matches([',', '，', '、', '،']).count();
            c.prices = usize::from(is_price(text));
        } else {
            match node.tag() {
                "a" if is_heading_anchor(tree, i) || names_code(tree, i) => {}
                "a" => {
                    c.links = len(r, i);
                    c.anchors = usize::from(c.links > 0);
                    c.longest_link = c.links;
                }
                "p" => c.p += 1,
                "img" | "picture" | "svg" => c.img += 1,
                "li" => {
                    c.li += 1;
                    c.li_text = len(r, i);
                }
                "pre" => c.pre_text = len(r, i),
                "input" | "select" | "textarea" => c.inputs += 1,
                "button" => {
                    c.inputs += 1;
                    c.buttons += 1;
                }
                "iframe" | "embed" | "object" | "video" => c.embeds += 1,
                t if is_heading(t) && c.links > 0 => c.linked_headings += 1,
                _ => {}
            }
        }
        set(&mut counts, i, c);
        if let Some(p) = tree.parent_of(i) {
            if let Some(pc) = counts.get_mut(p) {
                pc.links += c.links;
                pc.anchors += c.anchors;
                pc.commas += c.commas;
                pc.p += c.p;
                pc.img += c.img;
                pc.li += c.li;
                pc.li_text += c.li_text;
                pc.pre_text += c.pre_text;
                pc.inputs += c.inputs;
                pc.buttons += c.buttons;
                pc.embeds += c.embeds;
                pc.linked_headings += c.linked_headings;
                pc.longest_link = pc.longest_link.max(c.longest_link);
                pc.prices += c.prices;
            }
            if node.is_element() && (at(&has_block, i) || is_block(layout(node))) {
                set(&mut has_block, p, true);
            }
        }
    }
    let mut page = Page {
        tree,
        r,
        counts,
        unlikely: Vec::new(),
        has_block,
        hints: vec![OnceCell::new(); n],
        lines: OnceCell::new(),
        sectioning: OnceCell::new(),
        article: OnceCell::new(),
        headlines: OnceCell::new(),
        headed_lists: OnceCell::new(),
        screen_reader: OnceCell::new(),
    };
    let mut unlikely = vec![false; n];
    for &i in &r.order {
        let i = i as usize;
        let inherited = tree.parent_of(i).is_some_and(|p| at(&unlikely, p));
        let own =
            tree.node(i).is_element() && (noise_by_kind(tree, i) || page.strongly_negative(i));
        set(&mut unlikely, i, inherited || own);
    }
    page.unlikely = unlikely;
    page
}

/// Trims each end and turns three or more line breaks in a row into two.
/// `root`'s rendered text with the outermost descendants `cut` says yes to taken out (each cut
/// leaves a line break), and the ranges of the rendered text kept, in order: the one walk both
/// roads use (M5's cleaning, M8's region). `cut` gets an element and its span.
pub(super) fn text_without(
    page: &Page<'_, '_, '_>,
    root: usize,
    mut cut: impl FnMut(usize, (usize, usize)) -> bool,
) -> (String, Vec<(usize, usize)>) {
    let (tree, r) = (page.tree, page.r);
    let Some((start, end)) = r.span(root) else {
        return (String::new(), Vec::new());
    };
    // Ranges nest, so what a cut covers is skipped. `order` is preorder, so a node is inside
    // `root` exactly when its parent is `root` or inside.
    let mut inside = vec![false; tree.obs.nodes.len()];
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for &i in &r.order {
        let i = i as usize;
        match tree.parent_of(i) {
            Some(p) if p == root || at(&inside, p) => set(&mut inside, i, true),
            _ => continue,
        }
        if !tree.node(i).is_element() {
            continue;
        }
        let Some((a, b)) = r.span(i) else { continue };
        if cuts.last().is_some_and(|&(_, e)| a < e) {
            continue;
        }
        if cut(i, (a, b)) {
            cuts.push((a, b));
        }
    }
    let mut text = String::with_capacity(end - start);
    let mut kept = Vec::with_capacity(cuts.len() + 1);
    let mut from = start;
    for (a, b) in cuts {
        text.push_str(r.slice(from, a));
        kept.push((from, a));
        text.push('\n');
        from = b;
    }
    text.push_str(r.slice(from, end));
    kept.push((from, end));
    (text, kept)
}

/// The text trimmed, at most one blank line between two lines, and a line that shows nothing
/// (zero-width characters alone, R4) blank.
pub(crate) fn tidy_breaks(text: &str) -> String {
    let shown;
    let text = if text
        .split('\n')
        .any(|l| !l.trim().is_empty() && crate::render::shows_nothing(l))
    {
        shown = text
            .split('\n')
            .map(|l| {
                if crate::render::shows_nothing(l) {
                    ""
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        shown.as_str()
    } else {
        text
    };
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

/// Captions and credits describe a picture, not the text (M4, M8): a `figcaption`, a class or
/// id saying caption or credit; not a code listing's caption nor one numbering its figure.
pub(super) fn is_caption(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let h = page.hints(i);
    (page.tree.node(i).tag() == "figcaption" || h.contains("caption") || h.contains("credit"))
        && !captions_code(page, i)
        && !numbers_its_figure(page, i)
}

/// Whether a caption names a code listing: holding no code itself, its parent holds code
/// (`pre`) and no picture ("Listing 10-13: Implementing the Summary trait", the text's own, not
/// a photo's credit: `a_code_listings_caption_is_kept`).
fn captions_code(page: &Page<'_, '_, '_>, i: usize) -> bool {
    at(&page.counts, i).pre_text == 0
        && page.tree.parent_of(i).is_some_and(|p| {
            let c = at(&page.counts, p);
            c.pre_text > 0 && c.img == 0
        })
}

/// Whether a caption numbers its figure ("Figure 4-1: The representation in memory…", "Fig. 2",
/// "Table 3."): the text refers to it by that number, so it is the text's
/// (`a_numbered_figures_caption_is_kept`).
fn numbers_its_figure(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let (a, b) = page.r.span(i).unwrap_or((0, 0));
    // Its start only: the word, spaces, a digit (a caption can hold the rest of the page).
    let text = page
        .r
        .slice(a, b)
        .trim_start()
        .chars()
        .take(FIGURE_HEAD_CHARS)
        .collect::<String>()
        .to_lowercase();
    FIGURE_WORDS.iter().any(|w| {
        text.strip_prefix(w)
            .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// How a numbered figure's caption starts ([`numbers_its_figure`]; English only).
const FIGURE_WORDS: &[&str] = &["figure", "fig.", "table", "listing", "diagram"];

/// The characters of a caption's start [`numbers_its_figure`] reads.
const FIGURE_HEAD_CHARS: usize = 32;

#[cfg(test)]
mod lines_tests {
    use super::{line_bytes, long_line_share, share_of_long_lines, LineSums, LONG_LINE};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        /// The share of long lines in a span, from the page's lines, is the figure a scan of the
        /// span gives, wherever the span starts and ends (`long_line_share_of_a_span_is_the_scans`).
        #[test]
        fn long_line_share_of_a_span_is_the_scans(
            parts in prop::collection::vec(
                (0usize..LONG_LINE, prop::sample::select(vec!["a", "é", " ", "\t", "\r"]), any::<bool>()),
                0..40,
            ),
            spans in prop::collection::vec((0usize..5000, 0usize..5000), 1..8),
        ) {
            // Runs of one character, a line ending after some: lines of words, spaces, both.
            let text: String = parts
                .iter()
                .map(|(n, c, end)| format!("{}{}", c.repeat(*n), if *end { "\n" } else { "" }))
                .collect();
            let lines = LineSums::of(&text, line_bytes);
            for (a, b) in spans {
                let (mut a, mut b) = (a % (text.len() + 1), b % (text.len() + 1));
                while !text.is_char_boundary(a) { a -= 1; }
                while !text.is_char_boundary(b) { b -= 1; }
                let scan = text.get(a..b).map_or(0.0, long_line_share);
                prop_assert_eq!(share_of_long_lines(&lines, &text, (a, b)), scan, "{}..{}", a, b);
            }
        }
    }
}

#[cfg(test)]
mod nearest_tests {
    use super::nearest_above;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The nearest ancestor read once from the tops down is the one a walk up from each
        /// node finds (`the_nearest_ancestor_is_known_without_a_walk`).
        #[test]
        fn the_nearest_ancestor_is_known_without_a_walk(obs in crate::proptests::observations()) {
            let tree = obs.check().unwrap();
            let is = |t: &str| matches!(t, "section" | "main" | "article");
            let nearest = nearest_above(&tree, is);
            for (i, &found) in nearest.iter().enumerate() {
                let walked = tree.ancestors(i).skip(1).find(|&a| is(tree.node(a).tag()));
                prop_assert_eq!(found, walked.map_or(u32::MAX, |a| a as u32), "node {}", i);
            }
        }
    }
}

#[cfg(test)]
mod author_box_tests {
    use super::names_author_box;

    /// The class tokens of boxes about a post's writer, and those that only hold "author":
    /// a reply's or a thread's author (their posts), an authorization, the post itself.
    #[test]
    fn tokens_naming_a_box_about_the_writer() {
        for token in [
            "author-box",
            "about_author",
            "cda-author__container",
            "elementor-author-box--layout-image-left",
            "authorpopover__content",
            "post-page-author-card",
        ] {
            assert!(names_author_box(token), "{token}");
        }
        for token in [
            "comment-author-ruima",
            "uix_threadauthor",
            "product-authorized",
            "authorization-info",
            "author-content",
            "post-author-name",
        ] {
            assert!(!names_author_box(token), "{token}");
        }
    }
}
