//! `apc-content`: turns what the content script saw on a page (an [`Observation`]) into a
//! [`PageReading`], the thing the extension pins at the person's hub for their agent.
//!
//! The content script (`extension/content/`) is plain JavaScript because browsers will
//! not run WebAssembly in every page (a page CSP without `wasm-unsafe-eval` forbids it). It
//! therefore only collects facts; every rule lives here and runs in the extension's background:
//!
//! - what text is visible ([`render`](crate::render) rules R1–R5: no hidden subtrees, scripts,
//!   styles, templates, JSON carriers, zero-size or off-screen boxes, nor the extension's own UI;
//!   whitespace collapsed as rendered text collapses; visible generated `::before`/`::after` text);
//! - the pointed text (P1: a selection is the visible text inside its range, exactly as selected:
//!   only line breaks and the whitespace layout made are trimmed at its ends, a `pre` block's own
//!   indentation is kept; P2: a drop is the visible text of the nearest block — by recorded
//!   `display`, or tag when none was recorded — around the drop point, trimmed; a drop on a closed
//!   shadow root, or a selection showing nothing but one, is out of reach
//!   ([`ContentError::ClosedShadowRoot`]); P3: it is never cut unless it alone is over
//!   [`POINTED_MAX_BYTES`]); a pointed form field's value instead ([`field`] rules F1–F3);
//! - the standard targets on and around it ([`focus`](crate::focus): `data-focus` read with the
//!   standard's grammar, invalid ones dropped, deduplicated, at most 20);
//! - the heading path (H1: visible `h1`–`h6` and `role="heading"` with `aria-level` before the
//!   pointed text, as an outline: `["Guide", "Install", "Linux"]`);
//! - the context (C1: up to [`CONTEXT_CHARS`] characters of visible text each side, cut at a word
//!   boundary);
//! - the main text ([`main_text`](crate::main_text) rules M1–M5: paragraphs, scoring, siblings,
//!   cleaning, fallback; measured against Readability.js by `scripts/bench.sh`), cut so the
//!   reading's JSON fits [`READING_MAX_BYTES`], with `truncated: true` when cut;
//! - the one rule set for a reading (`apc_core::reading_rules`, `PageReading::check`), which the
//!   hub applies too: every reading built here passes it;
//! - the page facts (U1: the URL must be http(s), credentials are removed; U2: title and lang are
//!   stripped of control characters and capped; a lang that is not a language tag is dropped).
//!
//! A hostile page controls every value in an observation. Malformed or oversized input is a
//! [`ContentError`], never a panic: positions in the rendered text come from its one writer and
//! only grow by whole characters, and the crate denies `clippy::indexing_slicing` and
//! `clippy::string_slice` (every index and slice is checked). A property test
//! (`src/proptests.rs`) runs arbitrary observations through `Observation::from_json` +
//! `build_reading` in `cargo test`.
//! Page text is data, never instructions: nothing here interprets it.

#![deny(clippy::indexing_slicing, clippy::string_slice)]

mod error;
pub mod field;
pub mod focus;
pub mod main_text;
pub mod markdown;
pub mod observation;
pub mod render;
pub mod timing;
mod visible_html;

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod markdown_tests;
#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod proptests;
#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests;

use apc_core::page_link::{How, PageReading, Pointed, ReadingContext, READING_MAX_BYTES};
use apc_core::reading_rules::ReadingError;
pub use error::ContentError;
pub use observation::{Anchor, Node, Observation, Point, Selection, Style, OBSERVATION_VERSION};

use observation::Tree;
use render::{layout, Want};

/// Most bytes of JSON-escaped text the pointed text may take (P3).
pub const POINTED_MAX_BYTES: usize = 64 * 1024;
/// Characters of context on each side of the pointed text (C1).
pub const CONTEXT_CHARS: usize = 600;
/// Most characters of a title (U2; the reading rule's cap, `apc_core::reading_rules`).
pub const TITLE_MAX_CHARS: usize = apc_core::reading_rules::READING_TITLE_MAX_CHARS;
/// Most characters of one heading in the path (H1; the reading rule's cap).
pub const HEADING_MAX_CHARS: usize = apc_core::reading_rules::READING_HEADING_MAX_CHARS;
/// Most bytes of a heading read for its text (H1).
const HEADING_SCAN_BYTES: usize = 1024;
/// Most bytes of a lang tag (U2; the reading rule's cap).
pub const LANG_MAX_BYTES: usize = apc_core::reading_rules::READING_LANG_MAX_BYTES;

/// Builds the reading of an observation, `made_at` being the RFC 3339 time it is made.
/// (Timed as `"build_reading"` when the host installed a [`timing::Timer`].)
pub fn build_reading(obs: &Observation, made_at: &str) -> Result<PageReading, ContentError> {
    timing::timed("build_reading", || reading_of(obs, made_at, true))
}

/// The pointed part of a reading: everything [`build_reading`] makes but the page's main text
/// (`page_text: None`), from an observation of what lies around the point (the content script's
/// first message on a drop). Its `truncated` says only whether the pointed text was cut (P3): the
/// observation's own `truncated` is about the page, and comes with the page text
/// ([`page_text_for`]). Timed as `"build_reading"`.
pub fn build_pointed(obs: &Observation, made_at: &str) -> Result<PageReading, ContentError> {
    timing::timed("build_reading", || reading_of(obs, made_at, false))
}

/// The page text of a reading whose pointed part was built first ([`build_pointed`]), from an
/// observation of the whole page (M1–M5), cut so that `pointed` with it fits
/// [`READING_MAX_BYTES`]. The observation must be of the same page (its URL, as U1 makes it, is
/// the reading's), else [`ContentError::Malformed`]. Timed as `"page_text"`.
pub fn page_text_for(obs: &Observation, pointed: &PageReading) -> Result<PageText, ContentError> {
    timing::timed("page_text", || {
        let tree = obs.check()?;
        if check_url(&obs.url)? != pointed.url {
            return Err(ContentError::Malformed(
                "the page text is of another page than the reading".into(),
            ));
        }
        let r = render::render_as(&tree, &[], render::View::Unfolded);
        let base = json_len(&PageReading {
            page_text: None,
            truncated: Some(true),
            ..pointed.clone()
        })?;
        let room = READING_MAX_BYTES
            .checked_sub(base + r#","page_text":"""#.len())
            .ok_or(ContentError::TooLarge("reading"))?;
        let (main, ranges) = main_text::main_text_and_ranges(&tree, &r);
        let kept = cut_front(&main, room);
        let truncated = obs.truncated || kept.len() < main.len();
        let text = (!kept.is_empty()).then(|| kept.to_owned());
        let mut whole = PageReading {
            page_text: text.clone(),
            truncated: (truncated || pointed.truncated == Some(true)).then_some(true),
            ..pointed.clone()
        };
        let links = markdown::Links::new(&pointed.url, obs.base.as_deref());
        let page_markdown = match whole.markdown.is_some() {
            true => main_markdown(&tree, &r, &links, &ranges, &whole)?,
            false => None,
        };
        if let Some(md) = whole.markdown.as_mut() {
            md.page = page_markdown.clone();
        }
        // The reading with it passes the rules the hub applies (RR6 above all).
        whole.check()?;
        Ok(PageText {
            text,
            truncated,
            markdown: page_markdown,
        })
    })
}

/// For tuning the main-text rules (`crates/content/examples/wcxb.rs`): the main text by each
/// road (M1–M7 article, M8 region) and the prose figures the choice reads.
#[doc(hidden)]
pub fn main_text_roads(obs: &Observation) -> Result<(String, String, usize, usize), ContentError> {
    let tree = obs.check()?;
    let r = render::render_as(&tree, &[], render::View::Unfolded);
    let roads = main_text::roads(&tree, &r);
    Ok((
        roads.article,
        roads.region,
        roads.prose_total,
        roads.prose_chosen,
    ))
}

/// The page as HTML with only what renders (R1–R3: hidden parts removed; folded parts kept,
/// as the main text reads them), for an HTML-only extractor to read what the main text reads
/// (measured beside the rules by `scripts/bench/wcxb.mjs`).
pub fn visible_html(obs: &Observation) -> Result<String, ContentError> {
    let tree = obs.check()?;
    let r = render::render_as(&tree, &[], render::View::Unfolded);
    Ok(visible_html::visible_html(&tree, &r))
}

/// A reading's page text, made after its pointed part ([`page_text_for`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageText {
    /// The main text; `None` when the page has none.
    pub text: Option<String>,
    /// The text was cut to fit, or the page was larger than what was collected.
    pub truncated: bool,
    /// The main text as GitHub Markdown (the reading's `markdown.page`), when it fits beside it.
    pub markdown: Option<String>,
}

/// The main text's Markdown (the same ranges of the rendered text as the plain main text), when
/// it fits whole in what `reading` (with its plain page text) leaves of the reading's cap; the
/// plain text comes first, as the page app link has always carried it.
fn main_markdown(
    tree: &Tree<'_>,
    r: &render::Rendered,
    links: &markdown::Links,
    ranges: &[(usize, usize)],
    reading: &PageReading,
) -> Result<Option<String>, ContentError> {
    if reading.page_text.is_none() || ranges.is_empty() {
        return Ok(None);
    }
    let md = markdown::markdown(tree, r, ranges, links);
    let room = READING_MAX_BYTES.saturating_sub(json_len(reading)? + r#","page":"""#.len());
    Ok((!md.is_empty() && escaped_len(&md) <= room).then_some(md))
}

fn reading_of(
    obs: &Observation,
    made_at: &str,
    with_page_text: bool,
) -> Result<PageReading, ContentError> {
    if made_at.is_empty() || made_at.len() > 64 || !made_at.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ContentError::BadTimestamp);
    }
    let tree = obs.check()?;
    let url = check_url(&obs.url)?;
    let title = clean_line(&obs.title, TITLE_MAX_CHARS);
    let lang = obs
        .lang
        .as_deref()
        .or_else(|| tree.node(obs.root as usize).attr("lang"))
        .and_then(check_lang);

    let wants = wants_of(obs)?;
    let r = render::render(&tree, &wants);
    // Without the page text, only the pointed text's own cut counts (see build_pointed).
    let mut truncated = with_page_text && obs.truncated;
    let found = match &obs.field {
        Some(f) => field_pointed(&tree, &r, f, obs.how)?,
        None => page_pointed(&tree, &r, obs, &wants)?,
    };
    truncated |= found.truncated;
    let (ps, pe, text) = (found.ps, found.pe, found.text);

    // Targets: inside a selection first (document order), then the pointed node's ancestors.
    let targets = {
        let mut elements = found.inside;
        elements.extend(
            tree.ancestors(found.chain_from)
                .filter(|&a| tree.node(a).is_element() && r.span(a).is_some()),
        );
        focus::targets(elements.into_iter().map(|i| tree.node(i)))
    };

    let headings = heading_path(&tree, &r, ps);
    let context = ReadingContext {
        headings,
        before: context_before(r.slice(0, ps)),
        after: context_after(r.slice(pe, r.text.len())),
    };
    let links = markdown::Links::new(&url, obs.base.as_deref());
    let mut md = markdown::reading_markdown(
        &tree,
        &r,
        &links,
        found.block,
        range_of(&r.text, before_window(r.slice(0, ps))),
        range_of(&r.text, after_window(r.slice(pe, r.text.len()))),
    );
    let mut reading = PageReading {
        url,
        title,
        lang,
        pointed: Pointed {
            text,
            how: obs.how,
            targets,
            field: found.field,
        },
        context,
        page_text: None,
        truncated: Some(true),
        made_at: made_at.to_owned(),
        markdown: None,
        frame: None,
    };
    if reading.pointed.field.is_some() {
        // A field's value is what the person typed, not the page's structure, and it is in the
        // reading once (F1): the agent reads `pointed.text` as it is.
        md.pointed = String::new();
    }
    reading.markdown = Some(md);

    if !with_page_text {
        reading.truncated = truncated.then_some(true);
        reading.check()?;
        return Ok(reading);
    }
    // The main text takes what room is left (the base is measured with `truncated` present).
    let base = json_len(&reading)?;
    let room = READING_MAX_BYTES
        .checked_sub(base + r#","page_text":"""#.len())
        .ok_or(ContentError::TooLarge("reading"))?;
    // The main text reads what the page folds away (R2's exceptions), the pointed part only the
    // page as shown.
    let shown =
        render::folds_content(&tree).then(|| render::render_as(&tree, &[], render::View::Unfolded));
    let r = shown.as_ref().unwrap_or(&r);
    let (main, ranges) = main_text::main_text_and_ranges(&tree, r);
    let kept = cut_front(&main, room);
    if kept.len() < main.len() {
        truncated = true;
    }
    if !kept.is_empty() {
        reading.page_text = Some(kept.to_owned());
    }
    reading.truncated = truncated.then_some(true);
    let page_md = main_markdown(&tree, r, &links, &ranges, &reading)?;
    if let Some(md) = reading.markdown.as_mut() {
        md.page = page_md;
    }
    // The rules the hub applies too: what is built here passes them by construction, and this
    // makes sure.
    reading.check()?;
    Ok(reading)
}

/// What was pointed at: the pointed text, where it sits in the rendered page (its context and
/// heading path are read around `ps`..`pe`), where its targets are found, whether P3 cut it, and
/// whether it is a form field's value.
struct Found {
    text: String,
    ps: usize,
    pe: usize,
    /// The node whose ancestors' targets count.
    chain_from: usize,
    /// The elements inside a selection (their targets come first).
    inside: Vec<usize>,
    truncated: bool,
    field: Option<apc_core::page_link::PointedField>,
    /// The range the pointed part's Markdown is made of: a drop's whole block or the selection
    /// as it was made (an image before a caption's text is in it), unless P3 cut it.
    block: (usize, usize),
}

/// The places the pointed text is found from: a drop's caret and element, a selection's ends, or
/// a pointed field's element (before and after it).
fn wants_of(obs: &Observation) -> Result<Vec<Want>, ContentError> {
    let want = |node: u32, offset: u32| Want {
        node: node as usize,
        offset: offset as usize,
    };
    Ok(match obs.how {
        How::Drop => {
            let point = obs.point.ok_or(ContentError::NothingPointed)?;
            let caret = point.caret.map(|c| want(c.node, c.offset));
            let element = point.element.map(|e| want(e, 0));
            caret.into_iter().chain(element).collect()
        }
        How::Selection | How::Command => match (obs.selection, &obs.field) {
            (Some(s), _) => vec![
                want(s.start.node, s.start.offset),
                want(s.end.node, s.end.offset),
            ],
            (None, Some(f)) => vec![want(f.node, 0), want(f.node, 1)],
            (None, None) => return Err(ContentError::NothingPointed),
        },
    })
}

/// F1–F3 and P3: a pointed form field's text, placed in the page where the field is.
fn field_pointed(
    tree: &Tree<'_>,
    r: &render::Rendered,
    f: &observation::Field,
    how: How,
) -> Result<Found, ContentError> {
    let ft = field::field_text(tree, f, how)?;
    let at = r.anchor_pos.first().copied().unwrap_or(0);
    let (a, b) = p3_keep(&ft.text, (how == How::Drop).then_some(ft.caret));
    let text = ft.text.get(a..b).unwrap_or("").to_owned();
    Ok(Found {
        truncated: ft.cut || b - a < ft.text.len(),
        text,
        ps: at,
        pe: r.anchor_pos.last().copied().unwrap_or(at).max(at),
        chain_from: f.node as usize,
        inside: Vec::new(),
        field: Some(ft.kind),
        block: (at, at),
    })
}

/// P3: the byte range of `s` to keep: all of it under [`POINTED_MAX_BYTES`], else what lies around
/// `at` (a drop's caret) or the start.
fn p3_keep(s: &str, at: Option<usize>) -> (usize, usize) {
    if escaped_len(s) <= POINTED_MAX_BYTES {
        return (0, s.len());
    }
    let a = at.map_or(0, |at| {
        let at = at.min(s.len());
        at - cut_back(head(s, at), POINTED_MAX_BYTES / 2).len()
    });
    (a, a + cut_front(tail(s, a), POINTED_MAX_BYTES).len())
}

/// P1–P3: the page's own text that was pointed at (a drop's block, a selection's range).
fn page_pointed(
    tree: &Tree<'_>,
    r: &render::Rendered,
    obs: &Observation,
    wants: &[Want],
) -> Result<Found, ContentError> {
    // P2: a drop points from the caret when it is rendered and inside the element under the
    // point; else from that element when it is rendered (not an invisible overlay); else from the
    // caret. `drop_at` is the index in `wants` of the one used. A drop on a closed shadow root
    // (the caret not in text of its own) is out of reach.
    let (drop_node, drop_at) = match obs.how {
        How::Drop => {
            let point = obs.point.ok_or(ContentError::NothingPointed)?;
            closed_shadow_drop(tree, point)?;
            let caret = point
                .caret
                .map(|c| c.node as usize)
                .filter(|&c| r.span(c).is_some());
            let element = point
                .element
                .map(|e| e as usize)
                .filter(|&e| r.span(e).is_some());
            let elem_at = usize::from(point.caret.is_some());
            match (caret, element) {
                (Some(c), Some(e)) if tree.ancestors(c).any(|a| a == e) => (c, 0),
                (_, Some(e)) => (e, elem_at),
                (Some(c), None) => (c, 0),
                (None, None) => return Err(ContentError::NothingPointed),
            }
        }
        _ => (wants.first().map_or(0, |w| w.node), 0),
    };

    // P1 / P2: the pointed range in the rendered text.
    let (raw_start, raw_end) = match obs.how {
        How::Drop => {
            // Ancestors' ranges nest: only the part a parent adds to a blank child is scanned.
            let mut blank: Option<(usize, usize)> = None;
            let has_text = |t: &str| t.chars().any(|c| !c.is_whitespace());
            tree.ancestors(drop_node)
                .filter(|&a| tree.node(a).is_element() && layout(tree.node(a)).is_pointable_block())
                .filter_map(|a| r.span(a))
                .find(|&(a, b)| {
                    let found = match blank {
                        Some((ba, bb)) if a <= ba && bb <= b => {
                            has_text(r.slice(a, ba)) || has_text(r.slice(bb, b))
                        }
                        _ => has_text(r.slice(a, b)),
                    };
                    blank = Some((a, b));
                    found
                })
                .ok_or(ContentError::NothingPointed)?
        }
        _ => {
            let at = |k: usize| r.anchor_pos.get(k).copied().unwrap_or(0);
            let (a, b) = (at(0), at(1));
            (a.min(b), a.max(b))
        }
    };
    let (mut ps, mut pe) = trim_pointed(r, raw_start, raw_end, obs.how != How::Drop);
    // A selection keeps a `pre` block's spaces at its ends, so what is left can be spaces alone:
    // nothing was pointed at (RR4), as when nothing is left.
    if r.slice(ps, pe).trim().is_empty() {
        if obs.how != How::Drop && closed_host_within(tree, r, raw_start, raw_end) {
            return Err(ContentError::ClosedShadowRoot);
        }
        return Err(ContentError::NothingPointed);
    }
    // P3: over its cap, the pointed text keeps what lies around the drop point (or the start of
    // the selection).
    let at = (obs.how == How::Drop).then(|| {
        r.anchor_pos
            .get(drop_at)
            .copied()
            .unwrap_or(ps)
            .clamp(ps, pe)
            - ps
    });
    let (a, b) = p3_keep(r.slice(ps, pe), at);
    let truncated = b - a < pe - ps;
    (ps, pe) = (ps + a, ps + b);
    let text = r.slice(ps, pe).to_owned();

    // Targets inside a selection (document order); the chain from the pointed node follows.
    let mut inside = Vec::new();
    let chain_from = match obs.how {
        How::Drop => drop_node,
        _ => {
            for &i in &r.order {
                let i = i as usize;
                if let (true, Some((a, b))) = (tree.node(i).is_element(), r.span(i)) {
                    if a < pe && b > ps && !(a <= ps && b >= pe) {
                        inside.push(i);
                    }
                }
            }
            let node = |k: usize| wants.get(k).map_or(0, |w| w.node);
            common_ancestor(tree, node(0), node(1))
        }
    };
    Ok(Found {
        text,
        ps,
        pe,
        chain_from,
        inside,
        truncated,
        field: None,
        block: if truncated {
            (ps, pe)
        } else {
            (raw_start, raw_end)
        },
    })
}

/// P1 / P2: the pointed range without the whitespace at its ends: a drop's block trimmed whole;
/// a selection (`exact`) only of line breaks and of the spaces and tabs that layout made, so that
/// a `pre` block's own indentation is kept and a selection of a code block's lines is exactly
/// those lines.
fn trim_pointed(r: &render::Rendered, ps: usize, pe: usize, exact: bool) -> (usize, usize) {
    let slice = r.slice(ps, pe);
    let drop_it =
        |at: usize, c: char| c.is_whitespace() && (!exact || c == '\n' || !r.is_preserved(at));
    let mut start = ps;
    for (i, c) in slice.char_indices() {
        if !drop_it(ps + i, c) {
            break;
        }
        start = ps + i + c.len_utf8();
    }
    let mut end = pe;
    for (i, c) in slice.char_indices().rev() {
        if ps + i < start || !drop_it(ps + i, c) {
            break;
        }
        end = ps + i;
    }
    (start, end.max(start))
}

/// A drop on an element that hosts a closed shadow root, with the caret not in text of the
/// host's own (slotted light text): what the person sees there is out of reach.
fn closed_shadow_drop(tree: &Tree<'_>, point: Point) -> Result<(), ContentError> {
    let Some(e) = point.element.map(|e| e as usize) else {
        return Ok(());
    };
    if tree.node(e).shadow != Some(observation::ShadowMode::Closed) {
        return Ok(());
    }
    let in_own_text = point.caret.is_some_and(|c| {
        let c = c.node as usize;
        tree.node(c).text.is_some() && tree.ancestors(c).any(|a| a == e)
    });
    if in_own_text {
        Ok(())
    } else {
        Err(ContentError::ClosedShadowRoot)
    }
}

/// Whether an element hosting a closed shadow root lies within `a..=b` of the rendered text (a
/// selection that shows nothing but such a host).
fn closed_host_within(tree: &Tree<'_>, r: &render::Rendered, a: usize, b: usize) -> bool {
    r.order.iter().any(|&i| {
        let i = i as usize;
        tree.node(i).shadow == Some(observation::ShadowMode::Closed)
            && r.span(i).is_some_and(|(x, y)| a <= x && y <= b)
    })
}

fn json_len(reading: &PageReading) -> Result<usize, ContentError> {
    serde_json::to_vec(reading)
        .map(|v| v.len())
        .map_err(|e| ContentError::Malformed(format!("reading: {e}")))
}

/// U1: an http(s) URL, credentials removed, that passes the reading rule (RR1).
fn check_url(raw: &str) -> Result<String, ContentError> {
    let mut url = apc_core::url_parse::new_url(raw.trim()).ok_or(ContentError::BadUrl)?;
    url.set_username("").map_err(|_| ContentError::BadUrl)?;
    url.set_password(None).map_err(|_| ContentError::BadUrl)?;
    let url: String = url.into();
    match apc_core::reading_rules::check_reading_url(&url) {
        Ok(()) => Ok(url),
        Err(ReadingError::UrlTooLong) => Err(ContentError::TooLarge("url")),
        Err(_) => Err(ContentError::BadUrl),
    }
}

/// U2: a language tag (letters, digits, hyphens; at most 35 bytes), else none.
fn check_lang(raw: &str) -> Option<String> {
    let t = raw.trim();
    apc_core::reading_rules::is_lang_tag(t).then(|| t.to_owned())
}

/// A title as a reading carries it, by the rule `build_reading` applies to `document.title`: for
/// a title the browser gives rather than the collector (a frame's top page, from its tab).
pub fn reading_title(raw: &str) -> String {
    clean_line(raw, TITLE_MAX_CHARS)
}

/// One line: control characters dropped, whitespace runs made one space, trimmed, capped.
fn clean_line(raw: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() {
            space = true;
        } else if !c.is_control() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    match out.char_indices().nth(max_chars) {
        Some((i, _)) => head(&out, i).to_owned(),
        None => out,
    }
}

/// H1: the outline path of visible headings that start before `pos`.
fn heading_path(tree: &Tree<'_>, r: &render::Rendered, pos: usize) -> Vec<String> {
    let mut stack: Vec<(u32, String)> = Vec::new();
    for &i in &r.order {
        let node = tree.node(i as usize);
        let level = match node.tag() {
            "h1" => 1,
            "h2" => 2,
            "h3" => 3,
            "h4" => 4,
            "h5" => 5,
            "h6" => 6,
            _ if node
                .attr("role")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("heading")) =>
            {
                // ARIA: aria-level defaults to 2.
                node.attr("aria-level")
                    .and_then(|v| v.trim().parse::<u32>().ok())
                    .filter(|&l| l >= 1)
                    .unwrap_or(2)
                    .min(9)
            }
            _ => continue,
        };
        let Some((a, b)) = r.span(i as usize) else {
            continue;
        };
        // Headings can nest: only a bounded prefix of each is read.
        let mut cut = (a + HEADING_SCAN_BYTES).min(b);
        while !r.text.is_char_boundary(cut) {
            cut -= 1;
        }
        let raw = r.slice(a, cut);
        let start = a + (raw.len() - raw.trim_start().len());
        if start >= pos {
            // Pointing at a heading: the path is the outline above it, not its earlier siblings.
            if start == pos {
                while stack.last().is_some_and(|(l, _)| *l >= level) {
                    stack.pop();
                }
            }
            break;
        }
        let text = clean_line(raw, HEADING_MAX_CHARS);
        if text.is_empty() {
            continue;
        }
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            stack.pop();
        }
        stack.push((level, text));
    }
    stack.into_iter().map(|(_, t)| t).collect()
}

fn common_ancestor(tree: &Tree<'_>, a: usize, b: usize) -> usize {
    let chain: std::collections::HashSet<usize> = tree.ancestors(a).collect();
    tree.ancestors(b)
        .find(|x| chain.contains(x))
        .unwrap_or(tree.obs.root as usize)
}

/// C1: the last `CONTEXT_CHARS` characters, starting at a word.
fn context_before(text: &str) -> String {
    main_text::tidy_breaks(before_window(text))
}

/// C1's stretch before the pointed text, as a slice of `text`.
fn before_window(text: &str) -> &str {
    let text = text.trim_end();
    let start = text
        .char_indices()
        .rev()
        .nth(CONTEXT_CHARS - 1)
        .map_or(0, |(i, _)| i);
    let mut s = tail(text, start);
    if start > 0 && !head(text, start).ends_with(char::is_whitespace) {
        if let Some(ws) = s.find(char::is_whitespace) {
            s = tail(s, ws);
        }
    }
    s
}

/// C1: the first `CONTEXT_CHARS` characters, ending at a word.
fn context_after(text: &str) -> String {
    main_text::tidy_breaks(after_window(text))
}

/// C1's stretch after the pointed text, as a slice of `text`.
fn after_window(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .char_indices()
        .nth(CONTEXT_CHARS)
        .map_or(text.len(), |(i, _)| i);
    let mut s = head(text, end);
    if end < text.len() && !tail(text, end).starts_with(char::is_whitespace) {
        if let Some(ws) = s.rfind(char::is_whitespace) {
            s = head(s, ws);
        }
    }
    s
}

/// Where `part`, a slice of `whole`, lies in it (byte range).
fn range_of(whole: &str, part: &str) -> (usize, usize) {
    let a = (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize);
    (a.min(whole.len()), (a + part.len()).min(whole.len()))
}

/// Bytes a character takes inside a JSON string.
use apc_core::js::json_char_len as escaped_char_len;

fn escaped_len(s: &str) -> usize {
    s.chars().map(escaped_char_len).sum()
}

/// The longest prefix of `s` whose JSON-escaped form takes at most `max` bytes.
fn cut_front(s: &str, max: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += escaped_char_len(c);
        if used > max {
            return head(s, i);
        }
    }
    s
}

/// The longest suffix of `s` whose JSON-escaped form takes at most `max` bytes.
fn cut_back(s: &str, max: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices().rev() {
        used += escaped_char_len(c);
        if used > max {
            return tail(s, i + c.len_utf8());
        }
    }
    s
}

/// `s[..b]`, or all of `s` when `b` is not a character boundary inside it (positions here come
/// from `char_indices`, so that never happens; this only makes it impossible to panic).
fn head(s: &str, b: usize) -> &str {
    s.get(..b).unwrap_or(s)
}

/// `s[a..]`, or `""` when `a` is not a character boundary inside `s`.
fn tail(s: &str, a: usize) -> &str {
    s.get(a..).unwrap_or("")
}
