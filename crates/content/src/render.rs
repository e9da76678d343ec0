//! Rendering: the visible text of the whole page as one string, the way a browser's rendered text
//! reads (close to `innerText`), with the byte range every rendered element covers and the
//! position of every anchor (drop caret, selection ends) in that string.
//!
//! Rules (each has a unit test in `tests.rs`):
//! - R1 never rendered: `script`, `style`, `template`, `noscript`, `head`, `title`, `iframe`,
//!   `object`, `embed`, `canvas`, `video`, `audio`, `select`, `datalist`, `textarea`, SVG `desc`,
//!   `metadata`, `defs` — whatever their `type`, so JSON carriers (`application/json`,
//!   `application/ld+json`, any non-JS script type) never count. Except a `noscript` holding
//!   elements: a tab with JavaScript off parses and shows its content
//!   (`r1_a_noscript_shows_its_elements_when_javascript_is_off`).
//! - R2 hidden subtree: `hidden`, `aria-hidden="true"`, `inert` (not on the page's `main` nor on
//!   what holds it: a modal dialog marks the page behind it so, and the person still sees that
//!   page: `r2_the_page_behind_a_modal_dialog_still_shows`), `data-apc-ui` (the extension's own
//!   UI), `display: none`, `content-visibility: hidden`, opacity 0, no box (except
//!   `display: contents`), off-screen, a box with a side of at most 1 px that clips its
//!   overflow (not the root's nor the body's, whose overflow is the viewport's:
//!   `r2_the_bodys_overflow_is_the_viewports`), or a `clip-path` that leaves nothing
//!   (`inset(50%)`, `circle(0)`). Except an inactive tab panel
//!   (`r2_an_inactive_tab_panel_renders_beside_the_selected_one`): an element of `role="tabpanel"`
//!   hidden the ways pages fold a part away (`hidden`, `aria-hidden`, `display: none`, a box
//!   collapsed to no height or no box; not `inert`, opacity 0, off-screen or
//!   `content-visibility: hidden`) while a sibling panel shows. The ARIA
//!   tabs pattern hides every panel but the selected one, and the others hold the page's content one
//!   click away (the same sample in another language, the steps for another system), so in the
//!   page's main text (not in what the person points at, which is the page as shown: `View`) such
//!   a panel renders as a block where it stands, and inside it the facts of boxes (no box, no area,
//!   off-screen) are not read: no descendant of a `display: none` element has a box. Likewise what
//!   a closed `details` holds besides its summary (`r2_a_closed_details_is_read_whole_in_the_main_text`),
//!   which the browser lays out in no box, and the part a collapsed toggle folds away (the element
//!   an `aria-expanded="false"` element's `aria-controls` names: an accordion's closed section,
//!   `r2_what_a_collapsed_toggle_folds_is_read_in_the_main_text`; or a button's that says nothing
//!   of being expanded, where the part is labelled by that button:
//!   `r2_what_a_silent_toggle_folds_is_read_where_the_part_is_labelled_by_it`), and an accordion's section
//!   known by its class where no toggle names it (a class word naming an accordion or a
//!   collapsible, folded as pages fold it, not lying over the page:
//!   `r2_an_accordion_section_known_by_its_class_is_read_in_the_main_text`). Not when what is folded opens
//!   over the page (a menu, list box, dialog or navigation, a class saying menu, dropdown, overlay,
//!   popover or modal): a dropdown is no content when open either. And, in the main text only, a
//!   part at opacity 0 where it stands (in the flow: not `position: absolute` or `fixed`), no
//!   dropdown, hidden by nothing else: what a script fades in once the page has loaded or once the
//!   person scrolls to it (a scroll reveal), the page's content
//!   (`r2_a_part_faded_out_where_it_stands_is_read_in_the_main_text`); what lies over the page at
//!   opacity 0 (a closed menu, a fading carousel's other slides, a dialog) stays hidden.
//! - R3 hidden text: a text node whose parent has `visibility` other than `visible`, font size 0,
//!   or a fully transparent text color (these inherit but a child can override them, so they are
//!   judged per text node). Except, in the main text only, what `visibility` hides inside a box
//!   hidden by visibility where it stands (the outermost such box in the flow, no inline span, no
//!   dropdown): a part a script shows on load or when the person scrolls to it
//!   (`r3_text_hidden_by_visibility_where_it_stands_is_read_in_the_main_text`).
//! - R4 whitespace collapses as rendered text does: runs of spaces, tabs and newlines become one
//!   space; none at the start or end of a line; `pre`, `pre-wrap` and `break-spaces` keep all of it;
//!   `pre-line` keeps newlines. Block boundaries become one newline (`p`: a blank line), table cells
//!   a tab, `br` a newline. Control characters other than tab and newline are dropped. The
//!   reading's texts take a line of zero-width characters alone as blank ([`shows_nothing`]:
//!   `r4_a_line_of_zero_width_characters_alone_is_blank`). An SVG
//!   `<text>` is a block of its own (a label drawn where the drawing places it), whatever display
//!   a browser computes for it (Chromium `block`, Firefox `inline`).
//! - R5 generated text: an element's `::before` and `::after` boxes show their `content`'s strings
//!   (CSS escapes read, `attr()` of a recorded attribute, quotes as “ ”; images, counters and the
//!   alternative text after `/` are no text), at the start and end of the element, unless the box
//!   is hidden (`display: none`, opacity 0, R3's facts); a block box is a line of its own. Icon-font
//!   glyphs (private-use characters) are no text.

use std::collections::HashSet;

use crate::observation::{Generated, Node, Style, Tree};

/// How an element's box lays out, from its recorded `display` (or its tag when none was recorded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    None,
    Contents,
    Inline,
    /// inline-block, inline-flex, inline-grid, inline-table: inline, but one unit when pointed.
    AtomicInline,
    Block,
    Row,
    Cell,
}

impl Layout {
    /// A box a drop points at as a whole (a paragraph, a list item, a cell, a button).
    pub fn is_pointable_block(self) -> bool {
        matches!(self, Layout::Block | Layout::Cell | Layout::AtomicInline)
    }
}

pub(crate) const NEVER_RENDERED: &[&str] = &[
    "script", "style", "template", "noscript", "head", "title", "iframe", "frame", "frameset",
    "object", "embed", "canvas", "video", "audio", "select", "datalist", "textarea", "desc",
    "metadata", "defs", "meta", "link", "base",
];

const BLOCK_TAGS: &[&str] = &[
    "html",
    "body",
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "dialog",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "ul",
    "caption",
    "center",
    "legend",
    "menu",
    "search",
];

pub(crate) fn layout(node: &Node) -> Layout {
    let tag = node.tag();
    match node.style.as_ref().and_then(|s| s.display.as_deref()) {
        // R2's exception: a tab panel lays out as a block when it renders (an inactive one, whose
        // display is `none`, renders only beside a shown sibling: `inactive_tab_panel`).
        Some(d) if is_tab_panel(node) && layout_of_display(d) == Layout::None => Layout::Block,
        // R4: an SVG text element is a block (HTML has no element of that name).
        Some(d) if tag == "text" => match layout_of_display(d) {
            Layout::None => Layout::None,
            _ => Layout::Block,
        },
        Some(d) => layout_of_display(d),
        None => match tag {
            "text" => Layout::Block,
            "tr" => Layout::Row,
            "td" | "th" => Layout::Cell,
            t if BLOCK_TAGS.contains(&t) => Layout::Block,
            _ => Layout::Inline,
        },
    }
}

fn layout_of_display(display: &str) -> Layout {
    let mut words = display.split_ascii_whitespace();
    let first = words.next().unwrap_or("inline");
    let second = words.next();
    match (first, second) {
        ("none", _) => Layout::None,
        ("contents", _) => Layout::Contents,
        ("inline", None) | ("inline", Some("flow")) => Layout::Inline,
        ("ruby" | "ruby-base" | "ruby-text" | "ruby-base-container" | "ruby-text-container", _) => {
            Layout::Inline
        }
        ("inline", Some(_)) => Layout::AtomicInline,
        (w, _) if w.starts_with("inline-") => Layout::AtomicInline,
        ("table-row", _) => Layout::Row,
        ("table-cell", _) => Layout::Cell,
        // block, flex, grid, list-item, flow-root, table, table-row-group, table-caption, …
        _ => Layout::Block,
    }
}

/// R1's exception: a `noscript` that holds elements renders as a plain inline element. The
/// browser parses its content into elements only in a tab with JavaScript off, and shows them
/// there; with JavaScript on it holds one unparsed text (and the collector, which checks the
/// element shows, collects none of it).
fn shown_noscript(tree: &Tree<'_>, node: &Node) -> bool {
    node.tag() == "noscript"
        && node
            .kids
            .iter()
            .any(|&k| tree.node(k as usize).is_element())
}

/// Whether an element's overflow is the viewport's, not its own: the root's always, and the
/// body's when the root's is `visible` (CSS propagates it there), so such an element's
/// `overflow: hidden` clips nothing of it, whatever its size: a page whose body has no height
/// still shows the content overflowing it (`r2_the_bodys_overflow_is_the_viewports`).
fn overflow_is_the_viewports(tree: &Tree<'_>, i: usize) -> bool {
    match tree.node(i).tag() {
        "html" => true,
        "body" => tree.parent_of(i).is_none_or(|p| {
            let root = tree.node(p);
            root.tag() != "html" || !root.style.as_ref().is_some_and(|s| s.clips)
        }),
        _ => false,
    }
}

fn is_tab_panel(node: &Node) -> bool {
    node.attr("role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("tabpanel"))
}

fn displays_none(node: &Node) -> bool {
    node.style
        .as_ref()
        .and_then(|s| s.display.as_deref())
        .is_some_and(|d| layout_of_display(d) == Layout::None)
}

/// What opens over the page rather than in it: a menu, list box, dialog or navigation (by role or
/// tag), or an element whose class says menu, dropdown, overlay, popover or modal. Folded away, it
/// is no content the main text unfolds (a `details` or a toggled part used as a dropdown).
fn is_popup(node: &Node) -> bool {
    const ROLES: [&str; 6] = [
        "menu",
        "menubar",
        "listbox",
        "dialog",
        "navigation",
        "tooltip",
    ];
    const TAGS: [&str; 4] = ["dialog", "nav", "menu", "details-menu"];
    const CLASS: [&str; 5] = ["menu", "dropdown", "overlay", "popover", "modal"];
    TAGS.contains(&node.tag())
        || node
            .attr("role")
            .is_some_and(|r| ROLES.iter().any(|p| r.trim().eq_ignore_ascii_case(p)))
        || node.attr("class").is_some_and(|c| {
            let c = c.to_ascii_lowercase();
            CLASS.iter().any(|w| c.contains(w))
        })
}

/// `node`, or one of its children, opens over the page ([`is_popup`]).
fn holds_popup(tree: &Tree<'_>, node: &Node) -> bool {
    is_popup(node) || node.kids.iter().any(|&k| is_popup(tree.node(k as usize)))
}

/// The element is hidden, if at all, the ways pages fold a part away (`hidden`, `aria-hidden`,
/// `display: none`, a box collapsed to no height or no box), not by what hides for good: `inert`,
/// the extension's own UI, opacity 0, off-screen, `content-visibility: hidden`.
fn hidden_only_as_folded(node: &Node) -> bool {
    !node.has_attr("inert")
        && !node.has_attr("data-apc-ui")
        && !node.style.as_ref().is_some_and(|s| {
            s.opacity0 || s.content_visibility.as_deref() == Some("hidden") || s.offscreen
        })
}

/// R2's exception for the page behind a dialog: whether each element is the page's `main` (the
/// tag, or `role="main"`) or holds it. A modal dialog (a cookie consent that traps the keyboard)
/// marks the rest of the page `aria-hidden="true"` or `inert` while it is open, and the person
/// still sees that page, dimmed or not, and can select in it; no page hides its main content
/// from sight that way, so on the main and its ancestors those two attributes hide nothing
/// (`r2_the_page_behind_a_modal_dialog_still_shows`). Elsewhere they hide what they mark (an
/// icon's glyph, a carousel's cloned slides, a closed menu).
fn holds_main(tree: &Tree<'_>) -> Vec<bool> {
    let n = tree.obs.nodes.len();
    let mut out = vec![false; n];
    for i in 0..n {
        let node = tree.node(i);
        let is_main = node.tag() == "main"
            || node
                .attr("role")
                .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"));
        if !is_main {
            continue;
        }
        let mut at = Some(i);
        while let Some(slot) = at.and_then(|a| out.get_mut(a)) {
            if *slot {
                break;
            }
            *slot = true;
            at = at.and_then(|a| tree.parent_of(a));
        }
    }
    out
}

fn at_main(chain: &[bool], i: usize) -> bool {
    chain.get(i).copied().unwrap_or(false)
}

/// R2's exception for a closed `details`: the main text reads its folded part, unless the details
/// is a dropdown ([`holds_popup`]).
fn unfolds(tree: &Tree<'_>, node: &Node) -> bool {
    node.tag() == "details" && !node.has_attr("open") && !holds_popup(tree, node)
}

/// R2's exception: the element at `i` is a tab panel hidden only as folded
/// ([`hidden_only_as_folded`]), beside a sibling panel that shows.
fn inactive_tab_panel(tree: &Tree<'_>, i: usize, folds: &Folds<'_>) -> bool {
    let node = tree.node(i);
    if !is_tab_panel(node) || !hidden_only_as_folded(node) {
        return false;
    }
    let Some(parent) = tree.parent_of(i) else {
        return false;
    };
    let shown = folds.shown_panels.get(&parent).copied().unwrap_or(0);
    shown > usize::from(shows_as_panel(node))
}

/// A tab panel that shows ([`inactive_tab_panel`]'s sibling).
fn shows_as_panel(node: &Node) -> bool {
    is_tab_panel(node) && !hides_subtree(node, false, true)
}

/// What R2's exceptions ask of the whole page, read once: the ids collapsed toggles name
/// ([`collapsed_parts`]) and, for each element, how many of its children are tab panels that
/// show (a page of thousands of hidden panels side by side would otherwise have each look at
/// all the others). The default folds nothing: the page as shown reads none of R2's exceptions.
#[derive(Default)]
struct Folds<'t> {
    collapsed: HashSet<&'t str>,
    shown_panels: std::collections::HashMap<usize, usize>,
}

impl<'t> Folds<'t> {
    fn of(tree: &'t Tree<'_>) -> Folds<'t> {
        let mut shown_panels = std::collections::HashMap::new();
        for (i, node) in tree.obs.nodes.iter().enumerate() {
            if let Some(parent) = tree.parent_of(i).filter(|_| shows_as_panel(node)) {
                *shown_panels.entry(parent).or_insert(0) += 1;
            }
        }
        Folds {
            collapsed: collapsed_parts(tree),
            shown_panels,
        }
    }
}

/// The ids that collapsed toggles control: `aria-controls` of the elements whose `aria-expanded`
/// is `false` (an accordion's closed sections, a "read more" part), in the document and every
/// shadow root alike; and of an accordion's buttons that say nothing of being expanded, where
/// the part they name is labelled by them ([`is_silent_toggle`]). An id names an element of its
/// own tree; matching across trees only widens, and the collector goes into a `display: none`
/// part only where a toggle of that part's tree names it (`collapsedParts` in `collect.js`, one
/// read a tree).
fn collapsed_parts<'t>(tree: &'t Tree<'_>) -> HashSet<&'t str> {
    let mut out = HashSet::new();
    // What silent toggles name, as (part, toggle) ids: a part counts where it is labelled by one.
    let mut silent = HashSet::new();
    for node in &tree.obs.nodes {
        let Some(parts) = node.attr("aria-controls") else {
            continue;
        };
        if is_collapsed_toggle(node) {
            out.extend(parts.split_ascii_whitespace());
        } else if let Some(toggle) = node.attr("id").filter(|_| is_silent_toggle(node)) {
            silent.extend(parts.split_ascii_whitespace().map(|p| (p, toggle)));
        }
    }
    if silent.is_empty() {
        return out;
    }
    for node in &tree.obs.nodes {
        if let (Some(id), Some(labels)) = (node.attr("id"), node.attr("aria-labelledby")) {
            if labels
                .split_ascii_whitespace()
                .any(|l| silent.contains(&(id, l)))
            {
                out.insert(id);
            }
        }
    }
    out
}

fn is_collapsed_toggle(node: &Node) -> bool {
    node.attr("aria-expanded")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("false"))
        && node.has_attr("aria-controls")
}

/// An accordion's button that names the part it folds (`aria-controls`) but says nothing of
/// whether it is expanded: a `button` or an element of `role="button"`, with an id, no
/// `aria-expanded` and no popup (`aria-haspopup`). What it names is a folded section only where
/// that part is labelled by it (`aria-labelledby`, the ARIA accordion pattern's region); a
/// drawer's or a dialog's opener names a part labelled by its own title.
fn is_silent_toggle(node: &Node) -> bool {
    (node.tag() == "button"
        || node
            .attr("role")
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("button")))
        && node.has_attr("id")
        && node.has_attr("aria-controls")
        && !node.has_attr("aria-expanded")
        && !node.has_attr("aria-haspopup")
}

/// R2's exception: a part a collapsed toggle folds away (its id in `collapsed`), hidden only as
/// folded and no dropdown.
fn toggled_part(tree: &Tree<'_>, node: &Node, collapsed: &HashSet<&str>) -> bool {
    node.attr("id").is_some_and(|id| collapsed.contains(id))
        && hidden_only_as_folded(node)
        && !holds_popup(tree, node)
}

/// R2's exception: an accordion's folded section known by its class (a class word naming an
/// accordion or a collapsible: `accordion__content`, `accordion-collapse`, `MuiCollapse-root`,
/// `Collapsible__content`), the way pages whose toggles name no `aria-controls` fold a section:
/// a box collapsed to no height, faded out, hidden by visibility. Not what lies over the page
/// (`position: absolute` or `fixed`), nor a dropdown, nor what hides for good (`inert`,
/// off-screen, `content-visibility: hidden`).
fn accordion_part(tree: &Tree<'_>, node: &Node) -> bool {
    node.attr("class").is_some_and(|c| {
        let c = c.to_ascii_lowercase();
        c.contains("accordion") || c.contains("collaps")
    }) && !node.has_attr("inert")
        && !node.has_attr("data-apc-ui")
        && !node.style.as_ref().is_some_and(|s| {
            s.position.is_some() || s.offscreen || s.content_visibility.as_deref() == Some("hidden")
        })
        && !holds_popup(tree, node)
}

/// R2's exceptions an element is by itself, whatever hides it: an inactive tab panel, a part a
/// collapsed toggle folds ([`Folds`]) or an accordion's section. The render
/// reads such a part in the unfolded view, and [`folds_content`] asks the same question.
fn folded_part(tree: &Tree<'_>, i: usize, folds: &Folds<'_>) -> bool {
    inactive_tab_panel(tree, i, folds)
        || toggled_part(tree, tree.node(i), &folds.collapsed)
        || accordion_part(tree, tree.node(i))
}

/// R2's exception for opacity 0: an element faded out where it stands (in the flow: no
/// `position: absolute` or `fixed`), no dropdown ([`holds_popup`]). Scripts fade such a part in
/// once the page has loaded, or once the person scrolls to it (a scroll reveal), so it is the
/// page's content: the main text reads it (if nothing else hides it), the page as shown does
/// not. What lies over the page at opacity 0 (a closed menu, a slide of a fading carousel, a
/// dialog) stays hidden.
fn fades_in(tree: &Tree<'_>, node: &Node) -> bool {
    node.style
        .as_ref()
        .is_some_and(|s| s.opacity0 && s.position.is_none())
        && !holds_popup(tree, node)
}

/// R1 and R2: the element and everything in it render no text (`viewport_overflow`: its
/// overflow is the viewport's, [`overflow_is_the_viewports`]; `boxes`: whether the facts of its
/// box mean anything, not inside a folded part).
pub(crate) fn hides_subtree(node: &Node, viewport_overflow: bool, boxes: bool) -> bool {
    hides_subtree_as(node, viewport_overflow, boxes, true, true)
}

/// [`hides_subtree`], reading opacity 0 or not (`opacity`), and `aria-hidden` and `inert` or not
/// (`unseen`: [`holds_main`]).
fn hides_subtree_as(
    node: &Node,
    viewport_overflow: bool,
    boxes: bool,
    opacity: bool,
    unseen: bool,
) -> bool {
    let tag = node.tag();
    if NEVER_RENDERED.contains(&tag) {
        return true;
    }
    if node.has_attr("hidden")
        || node.has_attr("data-apc-ui")
        || (unseen
            && (node.has_attr("inert")
                || node
                    .attr("aria-hidden")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))))
    {
        return true;
    }
    let lay = layout(node);
    if lay == Layout::None || displays_none(node) {
        return true;
    }
    let Some(s) = &node.style else { return false };
    s.content_visibility.as_deref() == Some("hidden")
        || (opacity && s.opacity0)
        || (boxes && s.no_box && lay != Layout::Contents)
        || (boxes && s.offscreen)
        || (boxes && s.zero_size && s.clips && lay != Layout::Contents && !viewport_overflow)
        || s.clip_path.as_deref().is_some_and(clips_everything)
}

/// R2: a `clip-path` that leaves nothing of the box: an `inset()` whose opposite sides meet
/// (percentages adding up to 100 % or more: `inset(50%)`), or a circle or ellipse of radius 0.
pub(crate) fn clips_everything(clip_path: &str) -> bool {
    let v = clip_path.trim().to_ascii_lowercase();
    if let Some(args) = v.strip_prefix("inset(") {
        let args = args
            .split(" round ")
            .next()
            .unwrap_or("")
            .trim_end_matches(')');
        let pct: Vec<Option<f64>> = args
            .split_ascii_whitespace()
            .map(|a| a.strip_suffix('%').and_then(|n| n.parse::<f64>().ok()))
            .collect();
        // CSS box shorthand: 1 to 4 values (top, right, bottom, left).
        let (t, r, b, l) = match pct.as_slice() {
            [a] => (*a, *a, *a, *a),
            [a, b] => (*a, *b, *a, *b),
            [a, b, c] => (*a, *b, *c, *b),
            [a, b, c, d] => (*a, *b, *c, *d),
            _ => return false,
        };
        let meets =
            |x: Option<f64>, y: Option<f64>| matches!((x, y), (Some(x), Some(y)) if x + y >= 100.0);
        return meets(t, b) || meets(r, l);
    }
    for shape in ["circle(", "ellipse("] {
        if let Some(args) = v.strip_prefix(shape) {
            let first = args.split_ascii_whitespace().next().unwrap_or("");
            let first = first.trim_end_matches(')');
            return matches!(first, "0" | "0px" | "0%");
        }
    }
    false
}

/// R3: text directly in this element is not drawn.
fn hides_own_text(style: Option<&Style>) -> bool {
    style.is_some_and(|s| s.font0 || s.color0 || hidden_by_visibility(s))
}

fn hidden_by_visibility(s: &Style) -> bool {
    s.visibility.as_deref().is_some_and(|v| v != "visible")
}

/// R3's exception: an element hidden by `visibility` where it stands (in the flow: no `position:
/// absolute` or `fixed`; a box, not an inline span), no dropdown ([`holds_popup`]). Scripts show
/// such a part once the page has loaded or once the person scrolls to it (a scroll reveal that
/// animates visibility, a page kept hidden until its script runs), so the main text reads the text
/// it hides by visibility alone (not by font size 0 or a transparent color); the page as shown
/// does not. Only the outermost such element counts: inside one that lies over the page,
/// nothing is revealed.
fn reveals(tree: &Tree<'_>, node: &Node) -> bool {
    node.style
        .as_ref()
        .is_some_and(|s| hidden_by_visibility(s) && s.position.is_none())
        && !matches!(layout(node), Layout::Inline | Layout::None)
        && !holds_popup(tree, node)
}

/// Where a render stands with respect to R3's `visibility` (see [`reveals`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invisible {
    /// No ancestor is hidden by visibility.
    No,
    /// Inside an element hidden by visibility that the main text reveals.
    Revealed,
    /// Inside an element hidden by visibility that stays hidden.
    Kept,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ws {
    Collapse,
    Pre,
    PreLine,
}

fn ws_mode(style: Option<&Style>, inherited: Ws) -> Ws {
    match style.and_then(|s| s.white_space.as_deref()) {
        Some("pre" | "pre-wrap" | "break-spaces" | "preserve" | "preserve-breaks spaces") => {
            Ws::Pre
        }
        Some("pre-line" | "preserve-breaks") => Ws::PreLine,
        Some("normal" | "nowrap" | "collapse") => Ws::Collapse,
        // The collector writes white-space where it differs from the parent's: missing (or a
        // value not known here) means the parent's.
        Some(_) | None => inherited,
    }
}

/// Counts lines between blocks: `p` gets a blank line around it.
fn breaks_of(tag: &str) -> u8 {
    if tag == "p" {
        2
    } else {
        1
    }
}

/// Whether a line of rendered text shows nothing: only whitespace and the zero-width format
/// characters (zero-width space, joiners, direction marks and embeddings, word joiner, byte
/// order mark, soft hyphen). The browser draws no glyph for them, so a paragraph made of them
/// alone (a `<p>&zwj;</p>` spacer) is blank to the texts of a reading; inside words they stay.
pub(crate) fn shows_nothing(line: &str) -> bool {
    line.chars().all(|c| {
        c.is_whitespace()
            || matches!(c, '\u{AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}')
    })
}

fn is_dropped_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

/// The rendered text being written. Positions handed out ([`Out::pos`]) are the length of `s`,
/// which only ever grows by whole characters: a recorded position can never fall inside a
/// character. Trailing spaces and tabs that a later line break may still remove wait in `pending`
/// and are written to `s` only once something follows them on the same line; an anchor placed
/// among them waits with them (`marks`) and moves to its place among them if they are written.
#[derive(Default)]
struct Out {
    s: String,
    /// Spaces and tabs after the end of `s` that a line break removes.
    pending: String,
    /// Anchors placed inside `pending` (want index, bytes of `pending` before it): placed at
    /// the end of `s`, they move forward when `pending` is written.
    marks: Vec<(usize, usize)>,
    /// Anchors moved when `pending` was written (want index, position in `s`).
    moved: Vec<(usize, usize)>,
    space: bool,
    tab: bool,
    breaks: u8,
}

impl Out {
    /// Where the next character goes; always a character boundary of the final text.
    fn pos(&self) -> usize {
        self.s.len()
    }

    fn is_empty(&self) -> bool {
        self.s.is_empty() && self.pending.is_empty()
    }

    fn last(&self) -> Option<char> {
        self.pending
            .chars()
            .next_back()
            .or_else(|| self.s.chars().next_back())
    }

    fn block_break(&mut self, n: u8) {
        self.breaks = self.breaks.max(n);
    }

    fn commit(&mut self) {
        for (k, ahead) in self.marks.drain(..) {
            let at = self.s.len() + ahead.min(self.pending.len());
            self.moved.push((k, at));
        }
        self.s.push_str(&self.pending);
        self.pending.clear();
    }

    fn flush(&mut self) {
        if self.is_empty() {
            self.space = false;
            self.tab = false;
            self.breaks = 0;
            return;
        }
        if self.breaks > 0 {
            // No space or tab at the end of a line (an anchor among them stays at the end of `s`).
            self.pending.clear();
            self.marks.clear();
            let have = self
                .s
                .bytes()
                .rev()
                .take(self.breaks as usize)
                .take_while(|&c| c == b'\n')
                .count() as u8;
            for _ in have..self.breaks {
                self.s.push('\n');
            }
        } else if self.tab {
            while self.pending.ends_with(' ') {
                self.pending.pop();
            }
            self.pending.push('\t');
        } else if self.space && !matches!(self.last(), Some(' ' | '\n' | '\t')) {
            self.pending.push(' ');
        }
        self.space = false;
        self.tab = false;
        self.breaks = 0;
    }

    fn push(&mut self, c: char) {
        if is_dropped_control(c) {
            return;
        }
        self.flush();
        match c {
            ' ' | '\u{a0}' => self.pending.push(' '),
            '\t' => self.pending.push('\t'),
            c => {
                self.commit();
                self.s.push(c);
            }
        }
    }

    fn newline(&mut self) {
        self.flush();
        self.commit();
        self.s.push('\n');
    }

    /// The text, and the anchors that moved when spaces before them were written.
    fn finish(mut self) -> (String, Vec<(usize, usize)>) {
        self.commit();
        (self.s, self.moved)
    }
}

/// The rendered page.
pub(crate) struct Rendered {
    pub text: String,
    /// Byte range of each node's rendered text in `text`; `None` for nodes not rendered.
    pub range: Vec<Option<(usize, usize)>>,
    /// Position in `text` of each requested anchor, in request order.
    pub anchor_pos: Vec<usize>,
    /// Rendered elements and text nodes in document order.
    pub order: Vec<u32>,
    /// Byte ranges of `text` written from preformatted text (R4 `pre`, `pre-wrap`,
    /// `break-spaces`), in order: their spaces and tabs are the page's own, not layout's.
    pub preserved: Vec<(usize, usize)>,
}

impl Rendered {
    /// The byte range node `i` covers, if it rendered.
    pub fn span(&self, i: usize) -> Option<(usize, usize)> {
        self.range.get(i).copied().flatten()
    }
    /// `text[a..b]`: positions come from [`Out::pos`], so they are character boundaries; a range
    /// that is not (impossible by construction) reads as empty rather than panicking.
    pub fn slice(&self, a: usize, b: usize) -> &str {
        sub(&self.text, a, b)
    }
    /// Whether the character at byte `at` was written from preformatted text.
    pub fn is_preserved(&self, at: usize) -> bool {
        let i = self.preserved.partition_point(|&(_, end)| end <= at);
        self.preserved.get(i).is_some_and(|&(start, _)| start <= at)
    }
}

/// `s[a..b]`, or `""` when that is not a range of character boundaries inside `s`.
pub(crate) fn sub(s: &str, a: usize, b: usize) -> &str {
    s.get(a..b).unwrap_or("")
}

/// A place to locate: a text node and a UTF-16 offset, or an element and 0 (before) / 1 (after).
#[derive(Clone, Copy)]
pub(crate) struct Want {
    pub node: usize,
    pub offset: usize,
}

enum Step {
    /// An element or text to write; the flag: whether its box facts mean anything (false inside a
    /// folded part); and whether it is inside an element hidden by `visibility`.
    Enter(usize, Ws, bool, Invisible),
    Exit(usize, Layout, usize, Ws),
}

/// Which page a render writes (R2's exceptions). What the person sees (the pointed text, its
/// context, what a selection holds) is the page as shown: only the selected tab panel, only a closed
/// `details`' summary. The page's main text is its content: every panel and every folded part
/// (what a closed `details` holds, what a collapsed toggle folds) besides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    AsShown,
    Unfolded,
}

/// The page as the person sees it: folded parts do not render.
pub(crate) fn render(tree: &Tree<'_>, wants: &[Want]) -> Rendered {
    render_as(tree, wants, View::AsShown)
}

/// Whether the page folds a part away that its main text reads (R2's exceptions: a closed
/// `details` that is no dropdown, a hidden tab panel beside a shown one, a hidden part a collapsed
/// toggle names), so that [`View::Unfolded`] may render more than [`View::AsShown`]. When it does
/// not, both views are the same text and the reading renders once
/// (`both_views_agree_where_nothing_folds`). A folded part inside another counts even where its
/// own box facts would not hide it: the check errs towards a second render, never against.
pub(crate) fn folds_content(tree: &Tree<'_>) -> bool {
    let folds = Folds::of(tree);
    (0..tree.obs.nodes.len()).any(|i| {
        let node = tree.node(i);
        unfolds(tree, node)
            || fades_in(tree, node)
            || reveals(tree, node)
            || (folded_part(tree, i, &folds)
                && hides_subtree(node, overflow_is_the_viewports(tree, i), true))
    })
}

pub(crate) fn render_as(tree: &Tree<'_>, wants: &[Want], view: View) -> Rendered {
    let n = tree.obs.nodes.len();
    let folds = match view {
        View::Unfolded => Folds::of(tree),
        View::AsShown => Folds::default(),
    };
    let main_chain = holds_main(tree);
    let mut out = Out::default();
    let mut range = vec![None; n];
    let mut anchor_pos: Vec<Option<usize>> = vec![None; wants.len()];
    let mut order = Vec::new();
    let mut preserved = Vec::new();
    // Each want's node and its ancestors: a hidden subtree that holds a want places it where the
    // subtree would have been.
    let want_chains: Vec<std::collections::HashSet<usize>> = wants
        .iter()
        .map(|w| tree.ancestors(w.node).collect())
        .collect();
    let place_inside = |anchor_pos: &mut Vec<Option<usize>>, node: usize, at: usize| {
        for (pos, chain) in anchor_pos.iter_mut().zip(&want_chains) {
            if pos.is_none() && chain.contains(&node) {
                *pos = Some(at);
            }
        }
    };

    let mut stack = vec![Step::Enter(
        tree.obs.root as usize,
        Ws::Collapse,
        true,
        Invisible::No,
    )];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(i, inherited_ws, boxes, invisible) => {
                let node = tree.node(i);
                let here = out.pos();
                if let Some(text) = &node.text {
                    let pstyle = tree.parent_of(i).and_then(|p| tree.node(p).style.as_ref());
                    let revealed = invisible == Invisible::Revealed
                        && pstyle.is_some_and(|s| !s.font0 && !s.color0);
                    if hides_own_text(pstyle) && !revealed {
                        place_inside(&mut anchor_pos, i, here);
                        continue;
                    }
                    let start = out.pos();
                    if inherited_ws == Ws::Pre && !text.is_empty() {
                        // Where this text's own characters start (after the breaks before it).
                        out.flush();
                        let from = out.pos() + out.pending.len();
                        emit_text(&mut out, text, inherited_ws, i, wants, &mut anchor_pos);
                        preserved.push((from, out.pos() + out.pending.len()));
                    } else {
                        emit_text(&mut out, text, inherited_ws, i, wants, &mut anchor_pos);
                    }
                    set_range(&mut range, i, start, out.pos());
                    order.push(i as u32);
                    continue;
                }
                place(
                    &mut anchor_pos,
                    wants,
                    |w| w.node == i && w.offset == 0,
                    here,
                );
                let mut boxes = boxes;
                let viewport_overflow = overflow_is_the_viewports(tree, i);
                let unseen = !at_main(&main_chain, i);
                if hides_subtree_as(node, viewport_overflow, boxes, true, unseen)
                    && !shown_noscript(tree, node)
                    && !(view == View::Unfolded
                        && fades_in(tree, node)
                        && !hides_subtree_as(node, viewport_overflow, boxes, false, unseen))
                {
                    if view == View::AsShown || !folded_part(tree, i, &folds) {
                        place_inside(&mut anchor_pos, i, here);
                        continue;
                    }
                    boxes = false;
                }
                let lay = layout(node);
                match lay {
                    Layout::Block | Layout::Row => out.block_break(breaks_of(node.tag())),
                    Layout::Cell
                        if !out.is_empty() && out.last() != Some('\n') && out.breaks == 0 =>
                    {
                        out.tab = true;
                    }
                    _ => {}
                }
                if node.tag() == "br" {
                    out.newline();
                }
                order.push(i as u32);
                let ws = ws_mode(node.style.as_ref(), inherited_ws);
                let start = out.pos();
                emit_generated(&mut out, node, node.before.as_ref(), ws);
                stack.push(Step::Exit(i, lay, start, ws));
                // R2's other exception: a closed `details` shows only its summary; the browser
                // lays the rest out in no box, and the main text reads it.
                let boxes = boxes && !(view == View::Unfolded && unfolds(tree, node));
                let invisible = match invisible {
                    Invisible::No if node.style.as_ref().is_some_and(hidden_by_visibility) => {
                        if view == View::Unfolded && reveals(tree, node) {
                            Invisible::Revealed
                        } else {
                            Invisible::Kept
                        }
                    }
                    outer => outer,
                };
                for &k in node.kids.iter().rev() {
                    stack.push(Step::Enter(k as usize, ws, boxes, invisible));
                }
            }
            Step::Exit(i, lay, start, ws) => {
                let node = tree.node(i);
                emit_generated(&mut out, node, node.after.as_ref(), ws);
                if matches!(lay, Layout::Block | Layout::Row) {
                    out.block_break(breaks_of(tree.node(i).tag()));
                }
                set_range(&mut range, i, start, out.pos());
                place(
                    &mut anchor_pos,
                    wants,
                    |w| w.node == i && w.offset == 1,
                    out.pos(),
                );
            }
        }
    }
    let end = out.pos();
    let (text, moved) = out.finish();
    let mut anchor_pos: Vec<usize> = anchor_pos.into_iter().map(|p| p.unwrap_or(end)).collect();
    for (k, at) in moved {
        if let Some(pos) = anchor_pos.get_mut(k) {
            *pos = at;
        }
    }
    Rendered {
        text,
        range,
        anchor_pos,
        order,
        preserved,
    }
}

/// R5: a generated box's text, written where the box is (a block box on a line of its own).
fn emit_generated(out: &mut Out, node: &Node, generated: Option<&Generated>, ws: Ws) {
    let Some(g) = generated else { return };
    let style = g.style.as_ref();
    let lay = style
        .and_then(|s| s.display.as_deref())
        .map_or(Layout::Inline, layout_of_display);
    if lay == Layout::None || hides_own_text(style) || style.is_some_and(|s| s.opacity0) {
        return;
    }
    let text = generated_text(&g.content, node);
    if text.is_empty() {
        return;
    }
    let block = matches!(lay, Layout::Block | Layout::Row);
    if block {
        out.block_break(1);
    }
    emit_text(out, &text, ws, usize::MAX, &[], &mut []);
    if block {
        out.block_break(1);
    }
}

/// R5: the text of a computed `content` value: its strings (CSS escapes read), `attr(name)` of a
/// recorded attribute, `open-quote` / `close-quote` as “ ”; nothing of images, counters, other
/// functions, nor of the alternative text after a top-level `/`; private-use characters (icon
/// fonts' glyphs) dropped.
pub(crate) fn generated_text(content: &str, node: &Node) -> String {
    let mut out = String::new();
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => read_css_string(&mut chars, c, &mut out),
            '/' => break,
            c if c.is_ascii_alphabetic() || c == '-' => {
                let mut ident = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_ascii_alphanumeric() || n == '-' || n == '_' {
                        ident.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                if chars.peek() == Some(&'(') {
                    chars.next();
                    let args = read_css_args(&mut chars);
                    if ident.eq_ignore_ascii_case("attr") {
                        let name = args
                            .split(|c: char| c.is_whitespace() || c == ',')
                            .next()
                            .unwrap_or("");
                        if let Some(v) = node.attr(name) {
                            out.push_str(v);
                        }
                    }
                } else if ident.eq_ignore_ascii_case("open-quote") {
                    out.push('\u{201c}');
                } else if ident.eq_ignore_ascii_case("close-quote") {
                    out.push('\u{201d}');
                }
            }
            _ => {}
        }
    }
    out.retain(|c| !is_private_use(c));
    out
}

/// Reads a CSS string after its opening quote into `out`, escapes resolved.
fn read_css_string(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    quote: char,
    out: &mut String,
) {
    while let Some(c) = chars.next() {
        if c == quote {
            return;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let mut hex = String::new();
        while hex.len() < 6 && chars.peek().is_some_and(char::is_ascii_hexdigit) {
            hex.extend(chars.next());
        }
        if hex.is_empty() {
            match chars.next() {
                Some('\n') | None => {}
                Some(other) => out.push(other),
            }
            continue;
        }
        if chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            chars.next();
        }
        let code = u32::from_str_radix(&hex, 16).unwrap_or(0);
        out.push(
            char::from_u32(code)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{fffd}'),
        );
    }
}

/// The arguments of a CSS function after its `(`, up to its matching `)` (strings and nested
/// parentheses skipped over whole).
fn read_css_args(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut args = String::new();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            '"' | '\'' => {
                let mut skipped = String::new();
                read_css_string(chars, c, &mut skipped);
                continue;
            }
            _ => {}
        }
        args.push(c);
    }
    args
}

/// Private-use characters: what icon fonts draw their glyphs with, never text.
fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xe000..=0xf8ff | 0xf0000..=0xffffd | 0x100000..=0x10fffd)
}

fn emit_text(
    out: &mut Out,
    text: &str,
    ws: Ws,
    node: usize,
    wants: &[Want],
    anchor_pos: &mut [Option<usize>],
) {
    let mine = wants.iter().any(|w| w.node == node);
    let mut u16_at = 0usize;
    let mut prev_cr = false;
    for c in text.chars() {
        if mine {
            place_in_text(out, anchor_pos, wants, |w| {
                w.node == node && w.offset <= u16_at
            });
        }
        u16_at += c.len_utf16();
        let was_cr = std::mem::replace(&mut prev_cr, c == '\r');
        match ws {
            Ws::Collapse => {
                if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                    out.space = true;
                } else {
                    out.push(c);
                }
            }
            Ws::Pre => match c {
                '\r' => out.newline(),
                '\n' if was_cr => {}
                '\n' => out.newline(),
                _ => out.push(c),
            },
            Ws::PreLine => match c {
                '\r' => out.newline(),
                '\n' if was_cr => {}
                '\n' => {
                    out.space = false;
                    out.newline();
                }
                ' ' | '\t' | '\x0c' => out.space = true,
                _ => out.push(c),
            },
        }
    }
    if mine {
        place_in_text(out, anchor_pos, wants, |w| w.node == node);
    }
}

/// [`place`] inside a text node: an anchor among spaces of a `pre` run that may still be written
/// (`pending`) waits with them, and moves among them if they are (P1: a selection that starts
/// after a code line's indentation starts after it).
fn place_in_text(
    out: &mut Out,
    anchor_pos: &mut [Option<usize>],
    wants: &[Want],
    matches: impl Fn(&Want) -> bool,
) {
    let at = out.pos();
    for (k, (pos, w)) in anchor_pos.iter_mut().zip(wants).enumerate() {
        if pos.is_none() && matches(w) {
            *pos = Some(at);
            if !out.pending.is_empty() {
                out.marks.push((k, out.pending.len()));
            }
        }
    }
}

/// Places every not yet placed anchor whose want matches at `at`.
fn place(
    anchor_pos: &mut [Option<usize>],
    wants: &[Want],
    matches: impl Fn(&Want) -> bool,
    at: usize,
) {
    for (pos, w) in anchor_pos.iter_mut().zip(wants) {
        if pos.is_none() && matches(w) {
            *pos = Some(at);
        }
    }
}

fn set_range(range: &mut [Option<(usize, usize)>], i: usize, start: usize, end: usize) {
    if let Some(slot) = range.get_mut(i) {
        *slot = Some((start, end));
    }
}

#[cfg(test)]
mod folds_tests {
    use super::{hides_subtree, inactive_tab_panel, is_tab_panel, Folds};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// A hidden tab panel is inactive beside a sibling panel that shows: counted once per
        /// parent, it is what looking at every sibling says
        /// (`an_inactive_tab_panel_is_known_without_looking_at_every_sibling`).
        #[test]
        fn an_inactive_tab_panel_is_known_without_looking_at_every_sibling(
            obs in crate::proptests::observations(),
        ) {
            let tree = obs.check().unwrap();
            let folds = Folds::of(&tree);
            for i in 0..obs.nodes.len() {
                let node = tree.node(i);
                let looked = is_tab_panel(node)
                    && super::hidden_only_as_folded(node)
                    && tree.parent_of(i).is_some_and(|p| {
                        tree.node(p).kids.iter().any(|&k| {
                            let sibling = tree.node(k as usize);
                            k as usize != i && is_tab_panel(sibling) && !hides_subtree(sibling, false, true)
                        })
                    });
                prop_assert_eq!(inactive_tab_panel(&tree, i, &folds), looked, "node {}", i);
            }
        }
    }
}
