//! M8 region: the main text of a page that is not one article (a product, a listing or
//! collection of cards, a thread of short posts, a docs index): the page's declared content
//! region (its `main`, or `role="main"`, when that holds at least [`MAIN_SHARE`] of the body's
//! text; else the body), with what is plainly not content cut out: navigation, asides, footers,
//! the page's banner, forms of controls (not a form the person sees no control in, which wraps
//! content: `a_form_that_wraps_posts_is_content`), dialogs, parts whose class or id says
//! cookie notice, sharing, newsletter, breadcrumb, ads or "related" (`the_declared_main_region_is_read_whole`,
//! `forms_and_banners_are_cut_from_the_region`), and a thread's furniture around its posts
//! (author cards, signatures, page links: `a_threads_furniture_is_cut`), never a part holding
//! half of the region (`a_page_wrapped_in_a_form_keeps_its_region`). Lists of links stay: on such pages they are
//! the content (a listing's entries, an index of languages).

use super::page::{at, has_ad_token, hints, len, noise_by_kind, text_without, tidy_breaks, Page};

/// The share of the body's text a declared main must hold to be the region.
pub(super) const MAIN_SHARE: f64 = 0.25;

/// Class or id words that mark a part of the region as not content (matched as substrings).
const REGION_NOISE: &[&str] = &[
    "cookie",
    "consent",
    "gdpr",
    "newsletter",
    "subscribe",
    "signup",
    "sign-up",
    "share",
    "sharing",
    "social",
    "breadcrumb",
    "skip-link",
    "skiplink",
    "skip-to",
    "sr-only",
    "screen-reader",
    "visually-hidden",
    "visuallyhidden",
    "related",
    "recommend",
    "sponsor",
    "promo",
    "popup",
    "modal",
    "signature",
];

/// Class or id tokens (matched whole) that mark a thread's furniture around each post: who
/// wrote it and their standing, the pages of the thread (`a_threads_furniture_is_cut`). Whole
/// tokens, as the post's own body is often named after them (`message-usercontent`).
const THREAD_FURNITURE: &[&str] = &[
    "userinfo",
    "user-info",
    "user-details",
    "userdetails",
    "postprofile",
    "author-info",
    "authorinfo",
    "poster-info",
    "message-user",
    "pagination",
    "pager",
];

/// The region's root: the declared main, else the body.
pub(super) fn root(page: &Page<'_, '_, '_>, body: usize) -> usize {
    let (tree, r) = (page.tree, page.r);
    let body_len = len(r, body) as f64;
    r.order
        .iter()
        .map(|&i| i as usize)
        .find(|&i| {
            let node = tree.node(i);
            node.is_element()
                && (node.tag() == "main"
                    || node
                        .attr("role")
                        .is_some_and(|v| v.trim().eq_ignore_ascii_case("main")))
                && len(r, i) as f64 >= MAIN_SHARE * body_len
        })
        .unwrap_or(body)
}

/// Whether an element inside the region is cut (M8).
pub(super) fn is_cut(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    let node = tree.node(i);
    if noise_by_kind(tree, i) {
        return true;
    }
    if matches!(node.tag(), "header" | "input" | "label" | "fieldset") {
        return true;
    }
    if node.tag() == "form" {
        return is_controls(page, i);
    }
    if node
        .attr("role")
        .is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "banner" | "form"))
    {
        return true;
    }
    if matches!(node.tag(), "main" | "article" | "body" | "html") {
        return false;
    }
    let h = hints(tree, i);
    if (!h.is_empty() && REGION_NOISE.iter().any(|k| h.contains(k)))
        || has_ad_token(&h)
        || h.split_ascii_whitespace()
            .any(|t| THREAD_FURNITURE.contains(&t))
    {
        return true;
    }
    is_menu(page, i)
}

/// Most bytes of text per control in a form of controls.
const FORM_BYTES_PER_CONTROL: usize = 300;

/// A form of controls (a search box, a sign-up, a reply box): it shows controls and little text
/// around them ([`FORM_BYTES_PER_CONTROL`] a control at most). A form the person sees no control
/// in is a wrapper of content (a thread whose every post is a form: `a_form_that_wraps_posts_is_content`).
fn is_controls(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    c.inputs > 0 && len(page.r, i) <= FORM_BYTES_PER_CONTROL * c.inputs
}

/// Fewest links that make a menu.
const MENU_MIN_LINKS: usize = 3;
/// Most bytes of link text per link in a menu.
const MENU_LINK_BYTES: usize = 24;

/// A menu: a block of at least [`MENU_MIN_LINKS`] short links ([`MENU_LINK_BYTES`] on average)
/// that is nearly all link (`menus_are_cut_from_the_region`).
fn is_menu(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    c.anchors >= MENU_MIN_LINKS && c.links <= MENU_LINK_BYTES * c.anchors && page.density(i) >= 0.7
}

/// The region's text: `root`'s rendered text without the cut parts, and the ranges of the rendered
/// text it keeps, in order.
pub(super) fn text(page: &Page<'_, '_, '_>, root: usize) -> (String, Vec<(usize, usize)>) {
    let Some((start, end)) = page.r.span(root) else {
        return (String::new(), Vec::new());
    };
    // A cut never takes most of the region: a page wrapped whole in a form (ASP.NET) or a
    // wrapper whose class says "modal" is still the page.
    let (text, kept) = text_without(page, root, |i, (a, b)| {
        2 * (b - a) <= end - start && is_cut(page, i)
    });
    (tidy_breaks(&text), kept)
}
