//! M4's lists of links that are an article's own: a guide or a tutorial index that puts a list
//! of links under each of its headings (a buying guide's "Top expert recommendations" under each
//! tool, a course's lessons under each topic). M4 cuts a block that is mostly link, a headline
//! list ("Most popular", "Other posts you may enjoy") or a site's links; a list placed as the
//! article's others are, three of them or more under their headings among the same siblings,
//! is the article's structure (`lists_of_links_under_each_heading_are_kept`).

use super::page::{at, is_heading, len, set, Page};

/// Fewest lists placed alike among the same siblings ([`headed_link_lists`]).
const ALIKE_LISTS: usize = 3;

/// Most bytes of the lead paragraph between a heading and its list (a line or two saying what
/// the links are).
const LEAD_MAX_BYTES: usize = 300;

/// How a list stands under its heading: right under it, or under it and its lead paragraph,
/// and the heading's tag (a guide's "Top picks" are each an `h4`, its closing "Other posts you
/// may enjoy" an `h3`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placed<'a> {
    Under(&'a str),
    UnderLead(&'a str),
}

/// For each element, whether it is a list (`ul`, `ol`) without a negative class word placed
/// under its heading ([`Placed`]) among siblings holding [`ALIKE_LISTS`] or more lists placed
/// the same way. One pass over the page's elements and their children.
pub(super) fn headed_link_lists(page: &Page<'_, '_, '_>) -> Vec<bool> {
    let tree = page.tree;
    let mut out = vec![false; tree.obs.nodes.len()];
    for p in 0..tree.obs.nodes.len() {
        if tree.node(p).kids.len() < 2 * ALIKE_LISTS {
            continue;
        }
        let kids: Vec<usize> = tree
            .node(p)
            .kids
            .iter()
            .map(|&k| k as usize)
            .filter(|&k| tree.node(k).is_element() && len(page.r, k) > 0)
            .collect();
        if kids.len() < 2 * ALIKE_LISTS {
            continue;
        }
        let placed: Vec<Option<Placed>> = (0..kids.len()).map(|n| placed(page, &kids, n)).collect();
        // How many lists stand each way: a handful of ways at most (two placings by six
        // heading tags), so a page of thousands of sibling lists is counted in one pass.
        let mut ways: Vec<(Placed, usize)> = Vec::new();
        for k in placed.iter().flatten() {
            match ways.iter_mut().find(|(w, _)| w == k) {
                Some((_, count)) => *count += 1,
                None => ways.push((*k, 1)),
            }
        }
        for (&kid, k) in kids.iter().zip(&placed) {
            let alike = k.is_some_and(|k| ways.iter().any(|&(w, c)| w == k && c >= ALIKE_LISTS));
            if alike && page.class_weight(kid) >= 0.0 {
                set(&mut out, kid, true);
            }
        }
    }
    out
}

/// How the list `kids[n]` stands under a heading among its shown siblings `kids`, if it does.
fn placed<'t>(page: &Page<'t, '_, '_>, kids: &[usize], n: usize) -> Option<Placed<'t>> {
    let tree = page.tree;
    let before = |back: usize| n.checked_sub(back).and_then(|m| kids.get(m)).copied();
    if !matches!(tree.node(before(0)?).tag(), "ul" | "ol") {
        return None;
    }
    let prev = before(1)?;
    let prev_tag = tree.node(prev).tag();
    if is_heading(prev_tag) {
        return Some(Placed::Under(prev_tag));
    }
    let lead = prev_tag == "p" && len(page.r, prev) <= LEAD_MAX_BYTES;
    before(2)
        .map(|h| tree.node(h).tag())
        .filter(|&h| lead && is_heading(h))
        .map(Placed::UnderLead)
}

/// Whether `i` is such a list, or an item of one or a link in an item (the nearest list at
/// most two levels up): M4's "all link" rules leave it.
pub(super) fn in_headed_link_list(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    let marked = page.headed_lists.get_or_init(|| headed_link_lists(page));
    std::iter::once(i)
        .chain(tree.ancestors(i))
        .take(3)
        .find(|&a| matches!(tree.node(a).tag(), "ul" | "ol"))
        .is_some_and(|l| at(marked, l))
}
