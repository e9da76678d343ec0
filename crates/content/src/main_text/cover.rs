//! M7 cover: the chosen part grows until it holds most of the page's prose. A page of many
//! sections (a listicle's entries, a service page's hero, features and FAQ, a thread's posts)
//! gives the best-scoring block one section only; the prose of the others is still the page's
//! main text. The prose here is M1's paragraphs outside the unlikely parts and not mostly link,
//! counted in bytes, and not inside a card (`cards`: teasers of other pages, "recent articles")
//! nor a block of teasers (`teasers`);
//! from the winner up, the nearest ancestor holding [`COVER`] of the page's prose is the part
//! (`a_page_of_sections_is_read_whole`, `teaser_cards_do_not_widen_the_part`; 65 %, not
//! 60 %: a service page's hero or longest section often holds three fifths of its prose,
//! `a_part_short_of_two_thirds_of_the_prose_widens`), and grows on while
//! a parent holds [`GROW`] times its prose and two paragraphs more (a document's other
//! sections beside its longest: `a_document_of_sections_grows_past_its_longest`).
//! M9 weighs the prose of the page and of the chosen part with the list items written as
//! sentences too ([`Prose::with_items`]); the cover leaves them out (a part grown to reach a list's
//! items takes its menus and link rows along).

use super::page::{at, len, set, Page, MIN_PARAGRAPH_BYTES};

/// The share of the page's prose the chosen part must hold.
pub(super) const COVER: f64 = 0.65;

/// Each element's prose: the bytes and the number of the M1 paragraphs inside it that count, and
/// the bytes with its list items' too.
pub(super) struct Prose {
    pub bytes: Vec<usize>,
    pub count: Vec<usize>,
    /// `bytes` and the list items holding no block that would count as paragraphs (a post whose
    /// argument is a numbered list of sentences; M1 never scores a list item, a menu's entry).
    pub with_items: Vec<usize>,
}

pub(super) fn prose(page: &Page<'_, '_, '_>, found: &[(usize, usize, usize, usize)]) -> Prose {
    let tree = page.tree;
    let card = cards(page);
    let counts = |block: usize, bytes: usize| {
        bytes >= MIN_PARAGRAPH_BYTES
            && !at(&page.unlikely, block)
            && !at(&card, block)
            && page.density(block) <= 0.5
            && !teasers(page, block)
    };
    let n = tree.obs.nodes.len();
    let (mut out, mut count, mut items) = (vec![0usize; n], vec![0usize; n], vec![0usize; n]);
    for &(block, _, bytes, _) in found {
        if counts(block, bytes) {
            add(&mut out, block, bytes);
            add(&mut count, block, 1);
        }
    }
    for &i in &page.r.order {
        let i = i as usize;
        let bytes = len(page.r, i);
        if tree.node(i).tag() == "li" && !at(&page.has_block, i) && counts(i, bytes) {
            add(&mut items, i, bytes);
        }
    }
    // Each element's prose is its own paragraph's and its children's, summed from the leaves up.
    for i in tree.top_down().into_iter().rev() {
        if let Some(p) = tree.parent_of(i) {
            let (bytes, n, listed) = (at(&out, i), at(&count, i), at(&items, i));
            add(&mut out, p, bytes);
            add(&mut count, p, n);
            add(&mut items, p, listed);
        }
    }
    for (with, &bytes) in items.iter_mut().zip(&out) {
        *with += bytes;
    }
    Prose {
        bytes: out,
        count,
        with_items: items,
    }
}

/// Adds `n` to `v[i]` ([`set`]'s counterpart for sums; an index past the end adds nothing).
fn add(v: &mut [usize], i: usize, n: usize) {
    if let Some(slot) = v.get_mut(i) {
        *slot += n;
    }
}

/// M7: from `top` up, the nearest ancestor below `body` holding [`COVER`] of `body`'s prose
/// (`body` itself when only it does), when it adds at least two paragraphs of prose to `top`'s
/// (one more paragraph elsewhere is a stray, not a section: `one_stray_paragraph_does_not_widen_the_part`).
pub(super) fn widen(page: &Page<'_, '_, '_>, prose: &Prose, top: usize, body: usize) -> usize {
    let tree = page.tree;
    let total = at(&prose.bytes, body) as f64;
    if total == 0.0 {
        return top;
    }
    let mut cur = top;
    while (at(&prose.bytes, cur) as f64) < COVER * total {
        match tree.parent_of(cur) {
            Some(p) if !matches!(tree.node(p).tag(), "html") => cur = p,
            _ => break,
        }
    }
    // A part that already holds most of the prose still grows while its parent adds a good
    // share more of it (the other sections of one document beside its longest).
    while let Some(p) = tree.parent_of(cur) {
        if matches!(tree.node(p).tag(), "body" | "html")
            || (at(&prose.bytes, p) as f64) < GROW * at(&prose.bytes, cur) as f64
            || at(&prose.count, p) < at(&prose.count, cur) + 2
        {
            break;
        }
        cur = p;
    }
    if at(&prose.count, cur) < at(&prose.count, top) + 2 {
        return top;
    }
    cur
}

/// How much more prose a parent must hold for the part to grow into it.
const GROW: f64 = 1.2;

/// A run of teasers written as one block: many links making a good part of its text (the
/// headlines of other pages, each with its summary).
fn teasers(page: &Page<'_, '_, '_>, block: usize) -> bool {
    at(&page.counts, block).anchors >= 4 && page.density(block) >= 0.25
}

/// Most bytes of a card's text.
const CARD_MAX_BYTES: usize = 600;
/// Fewest alike siblings that make cards.
const CARD_MIN_RUN: usize = 3;

/// Whether each node is inside a card: one of at least [`CARD_MIN_RUN`] sibling elements of the
/// same tag and class, each short (at most [`CARD_MAX_BYTES`]) and holding a link.
pub(super) fn cards(page: &Page<'_, '_, '_>) -> Vec<bool> {
    let (tree, r) = (page.tree, page.r);
    let n = tree.obs.nodes.len();
    let mut card = vec![false; n];
    let short_with_link = |k: usize| {
        let l = len(r, k);
        l > 0 && l <= CARD_MAX_BYTES && at(&page.counts, k).links > 0
    };
    for &i in &r.order {
        let i = i as usize;
        let node = tree.node(i);
        if !node.is_element() {
            continue;
        }
        // The short linked children, counted by tag and class once (not each against all).
        let shorts: Vec<usize> = node
            .kids
            .iter()
            .map(|&k| k as usize)
            .filter(|&k| tree.node(k).is_element() && r.span(k).is_some() && short_with_link(k))
            .collect();
        let key = |k: usize| (tree.node(k).tag(), tree.node(k).attr("class"));
        let mut alike: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
        for &k in &shorts {
            *alike.entry(key(k)).or_default() += 1;
        }
        for &k in &shorts {
            if alike.get(&key(k)).is_some_and(|&n| n >= CARD_MIN_RUN) {
                set(&mut card, k, true);
            }
        }
    }
    // Inside a card is in the card.
    for &i in &r.order {
        let i = i as usize;
        if tree.parent_of(i).is_some_and(|p| at(&card, p)) {
            set(&mut card, i, true);
        }
    }
    card
}
