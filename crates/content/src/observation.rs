//! The observation: what the content script (`extension/content/collect.js`) saw on a page, as it
//! sends it to the background. The format is documented field by field in `OBSERVATION.md`.
//!
//! The content script records facts and nothing else: the DOM as a flat array of nodes (element or
//! text), a whitelist of attributes, and the computed-style facts only the browser knows. Every
//! decision (what is visible, which block was pointed, what the reading holds) is made here, in Rust.
//!
//! A hostile page controls every string in here, and a broken collector could send any shape, so
//! [`Observation::check`] validates the whole structure before anything reads it: indices in range,
//! every node with at most one parent, no cycles, anchors on real nodes, sizes under hard caps.

use std::collections::BTreeMap;

use apc_core::js::utf16_len;
use apc_core::page_link::How;
use serde::{Deserialize, Serialize};

use crate::ContentError;

/// The observation format's version; the collector writes it as `v`.
pub const OBSERVATION_VERSION: u32 = 1;
/// Most nodes an observation may hold (the collector stops at 6 000 plus a reserve around the
/// pointed node; this is the hard limit Rust enforces on whatever sends an observation).
pub const MAX_NODES: usize = 60_000;
/// Most bytes of text (text nodes, UTF-8) an observation may hold.
pub const MAX_TEXT_BYTES: usize = 8 * 1024 * 1024;
/// Most bytes of JSON [`Observation::from_json`] accepts.
pub const MAX_JSON_BYTES: usize = 32 * 1024 * 1024;
/// Most attributes recorded on one element.
pub const MAX_ATTRS: usize = 32;
/// Most bytes of one attribute value (the collector slices at 2 048 UTF-16 units).
pub const MAX_ATTR_BYTES: usize = 8 * 1024;
/// Most bytes of a tag or attribute name, or of a recorded style word.
pub const MAX_NAME_BYTES: usize = 64;
/// Most bytes of a recorded style value that is not a keyword (`clip_path`).
pub const MAX_STYLE_VALUE_BYTES: usize = 256;
/// Most bytes of the page URL.
pub const MAX_URL_BYTES: usize = 8 * 1024;
/// Most bytes of the raw title and lang strings before they are cleaned and capped.
pub const MAX_RAW_META_BYTES: usize = 64 * 1024;
/// Most bytes of a pointed form field's value (the collector keeps at most 98 304 UTF-16 units).
pub const MAX_FIELD_VALUE_BYTES: usize = 512 * 1024;

/// What the content script saw. See `OBSERVATION.md`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Format version, [`OBSERVATION_VERSION`].
    pub v: u32,
    /// `location.href`.
    pub url: String,
    /// `document.title`.
    #[serde(default)]
    pub title: String,
    /// `document.documentElement.lang`, if any.
    #[serde(default)]
    pub lang: Option<String>,
    /// How the person pointed.
    pub how: How,
    /// Index of `document.documentElement` in `nodes`.
    #[serde(default)]
    pub root: u32,
    /// The DOM (the flat tree: open shadow roots and slots resolved), element and text nodes only.
    pub nodes: Vec<Node>,
    /// Where a drop landed (`how: "drop"`).
    #[serde(default)]
    pub point: Option<Point>,
    /// The selection (`how: "selection"` or `"command"`).
    #[serde(default)]
    pub selection: Option<Selection>,
    /// The form field pointed at: its selection (instead of `selection`), or the field under a
    /// drop (`point.element`).
    #[serde(default)]
    pub field: Option<Field>,
    /// The collector stopped at one of its caps: some of the page is missing.
    #[serde(default)]
    pub truncated: bool,
    /// `document.baseURI` when it is not `url` (a `<base href>`): what the page's relative links
    /// are resolved against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

/// One node: an element (`tag` set) or a text node (`text` set), never both.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Element: its lower-case local name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Text node: its data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Element: whitelisted attributes (see `OBSERVATION.md`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: BTreeMap<String, String>,
    /// Element: computed-style facts; absent when the collector could not read them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
    /// Element: indices of its children in `nodes`, in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kids: Vec<u32>,
    /// Element: its generated `::before` box, when it has `content`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Generated>,
    /// Element: its generated `::after` box, when it has `content`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Generated>,
    /// Element: it hosts a shadow root the collector does not read (`"closed"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadow: Option<ShadowMode>,
}

/// A generated `::before` / `::after` box: its computed `content` (as the browser serializes it:
/// strings, `attr()`, counters, images…) and its own computed-style facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Generated {
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
}

/// A shadow root whose content was not collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShadowMode {
    /// A closed shadow root: out of reach (see `OBSERVATION.md`).
    Closed,
}

/// The form field the person pointed at (`textarea` or a text `input`): the part of its value the
/// collector kept, and the facts that say whether it holds a secret (`field.rs`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// Index of the field's element in `nodes`.
    pub node: u32,
    /// `textarea`, or the input's type (`text`, `search`, `password`, …) as the DOM normalizes it.
    #[serde(rename = "type")]
    pub kind: String,
    /// The value kept: all of it, or the part around `start`..`end` (then `cut`). Empty for a
    /// password, whose value is never read.
    #[serde(default)]
    pub value: String,
    /// The selection in `value` (UTF-16 units); a drop's caret is `start == end`.
    #[serde(default)]
    pub start: u32,
    #[serde(default)]
    pub end: u32,
    /// Only part of the value was kept.
    #[serde(default)]
    pub cut: bool,
    /// The field's `autocomplete` attribute.
    #[serde(default)]
    pub autocomplete: Option<String>,
    /// The field's `name` attribute.
    #[serde(default)]
    pub name: Option<String>,
    /// Its text is masked by CSS (`-webkit-text-security` other than `none`).
    #[serde(default)]
    pub masked: bool,
}

/// Computed-style facts of an element. Defaults are the common case, so the collector writes
/// only what differs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Style {
    /// Computed `display` (e.g. `block`, `inline`, `none`, `contents`, `table-cell`, `inline flex`).
    #[serde(default)]
    pub display: Option<String>,
    /// Computed `visibility` when not `visible`.
    #[serde(default)]
    pub visibility: Option<String>,
    /// Computed `white-space` (or `white-space-collapse`) when not `normal`/`nowrap`.
    #[serde(default)]
    pub white_space: Option<String>,
    /// Computed `content-visibility` when not `visible`.
    #[serde(default)]
    pub content_visibility: Option<String>,
    /// Computed `opacity` is 0.
    #[serde(default)]
    pub opacity0: bool,
    /// Computed `font-size` is 0.
    #[serde(default)]
    pub font0: bool,
    /// `getClientRects()` is empty: the element generates no box.
    #[serde(default)]
    pub no_box: bool,
    /// The border box is at most 1×1 CSS pixel.
    #[serde(default)]
    pub zero_size: bool,
    /// Overflow is clipped (`overflow` not `visible`), or `clip`/`clip-path` is set.
    #[serde(default)]
    pub clips: bool,
    /// The box lies wholly where no scrolling reaches (left or above the page, or a fixed box
    /// outside the viewport).
    #[serde(default)]
    pub offscreen: bool,
    /// The computed text color (and fill color) is fully transparent.
    #[serde(default)]
    pub color0: bool,
    /// Computed `clip-path` when not `none` (e.g. `inset(50%)`).
    #[serde(default)]
    pub clip_path: Option<String>,
    /// Computed `position` when `absolute` or `fixed`, read on an element at opacity 0: out of
    /// the flow, over the page (a menu, a slide, a dialog), not where it stands.
    #[serde(default)]
    pub position: Option<String>,
}

/// A position in the tree. On a text node, `offset` counts UTF-16 code units into its text (as the
/// DOM does). On an element, `offset` 0 is just before the element and 1 just after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    pub node: u32,
    #[serde(default)]
    pub offset: u32,
}

/// A drop: the caret position under the drop point (`caretPositionFromPoint`) and the element
/// under it (`elementFromPoint`), either possibly missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    #[serde(default)]
    pub caret: Option<Anchor>,
    #[serde(default)]
    pub element: Option<u32>,
}

/// The first range of the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    pub start: Anchor,
    pub end: Anchor,
}

/// A validated view of an observation's tree.
pub(crate) struct Tree<'a> {
    pub obs: &'a Observation,
    /// Parent of each node; `u32::MAX` for the root and for nodes not reachable from it.
    pub parent: Vec<u32>,
    /// What kinds of element ([`Holder`]) hold each node, one bit each, read the first time a
    /// rule asks ([`Tree::is_under`]).
    holders: std::cell::OnceCell<Vec<u8>>,
    /// What kinds each node holds below it ([`Tree::holds`]), likewise.
    held: std::cell::OnceCell<Vec<u8>>,
}

/// A kind of element the rules ask whether a node is inside ([`Tree::is_under`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holder {
    /// `pre` or `code`.
    Code,
    /// `h1` to `h6`.
    Heading,
}

impl Holder {
    fn bit(self) -> u8 {
        match self {
            Holder::Code => 1,
            Holder::Heading => 2,
        }
    }
    fn of(tag: &str) -> u8 {
        match tag {
            "pre" | "code" => Holder::Code.bit(),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => Holder::Heading.bit(),
            _ => 0,
        }
    }
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

static NO_NODE: Node = Node {
    tag: None,
    text: None,
    attrs: BTreeMap::new(),
    style: None,
    kids: Vec::new(),
    before: None,
    after: None,
    shadow: None,
};

impl Node {
    pub fn is_element(&self) -> bool {
        self.tag.is_some()
    }
    pub fn tag(&self) -> &str {
        self.tag.as_deref().unwrap_or("")
    }
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }
    pub fn has_attr(&self, name: &str) -> bool {
        self.attrs.contains_key(name)
    }
}

impl Observation {
    /// Parses an observation from JSON, refusing input over [`MAX_JSON_BYTES`] before parsing.
    pub fn from_json(raw: &str) -> Result<Self, ContentError> {
        if raw.len() > MAX_JSON_BYTES {
            return Err(ContentError::TooLarge("observation JSON"));
        }
        crate::timing::timed("from_json", || {
            serde_json::from_str(raw)
                .map_err(|e| ContentError::Malformed(format!("observation: {e}")))
        })
    }

    /// Checks the whole structure: version, sizes, indices, one parent per node, no cycles, anchors.
    pub(crate) fn check(&self) -> Result<Tree<'_>, ContentError> {
        if self.v != OBSERVATION_VERSION {
            return Err(ContentError::UnsupportedVersion(self.v));
        }
        if self.url.len() > MAX_URL_BYTES
            || self.base.as_ref().is_some_and(|b| b.len() > MAX_URL_BYTES)
        {
            return Err(ContentError::TooLarge("url"));
        }
        if self.title.len() > MAX_RAW_META_BYTES
            || self
                .lang
                .as_ref()
                .is_some_and(|l| l.len() > MAX_RAW_META_BYTES)
        {
            return Err(ContentError::TooLarge("title or lang"));
        }
        let n = self.nodes.len();
        if n == 0 {
            return Err(ContentError::Malformed("no nodes".into()));
        }
        if n > MAX_NODES {
            return Err(ContentError::TooLarge("node count"));
        }
        let mut text_bytes = 0usize;
        let mut parent = vec![NO_PARENT; n];
        for (i, node) in self.nodes.iter().enumerate() {
            match (&node.tag, &node.text) {
                (Some(tag), None) => {
                    if tag.is_empty() || tag.len() > MAX_NAME_BYTES {
                        return Err(ContentError::Malformed(format!("node {i}: bad tag")));
                    }
                    if node.attrs.len() > MAX_ATTRS {
                        return Err(ContentError::TooLarge("attributes on one element"));
                    }
                    for (k, v) in &node.attrs {
                        if k.len() > MAX_NAME_BYTES || v.len() > MAX_ATTR_BYTES {
                            return Err(ContentError::TooLarge("attribute"));
                        }
                    }
                    if !node.style.as_ref().is_none_or(style_in_bounds) {
                        return Err(ContentError::Malformed(format!("node {i}: bad style")));
                    }
                    for g in [&node.before, &node.after].into_iter().flatten() {
                        if g.content.len() > MAX_ATTR_BYTES {
                            return Err(ContentError::TooLarge("generated content"));
                        }
                        text_bytes += g.content.len();
                        if text_bytes > MAX_TEXT_BYTES {
                            return Err(ContentError::TooLarge("text"));
                        }
                        if !g.style.as_ref().is_none_or(style_in_bounds) {
                            return Err(ContentError::Malformed(format!(
                                "node {i}: bad generated style"
                            )));
                        }
                    }
                    for &k in &node.kids {
                        let Some(slot) = parent.get_mut(k as usize) else {
                            return Err(ContentError::Malformed(format!(
                                "node {i}: child index out of range"
                            )));
                        };
                        if k == self.root || *slot != NO_PARENT {
                            return Err(ContentError::Malformed(format!(
                                "node {k} has more than one parent"
                            )));
                        }
                        *slot = i as u32;
                    }
                }
                (None, Some(text)) => {
                    if !node.kids.is_empty()
                        || !node.attrs.is_empty()
                        || node.style.is_some()
                        || node.before.is_some()
                        || node.after.is_some()
                        || node.shadow.is_some()
                    {
                        return Err(ContentError::Malformed(format!(
                            "node {i}: a text node with element fields"
                        )));
                    }
                    text_bytes += text.len();
                    if text_bytes > MAX_TEXT_BYTES {
                        return Err(ContentError::TooLarge("text"));
                    }
                }
                _ => {
                    return Err(ContentError::Malformed(format!(
                        "node {i}: exactly one of tag and text"
                    )))
                }
            }
        }
        let root = self.root as usize;
        if !self.nodes.get(root).is_some_and(Node::is_element) {
            return Err(ContentError::Malformed("root is not an element".into()));
        }
        // One parent each and the root parentless leaves only cycles detached from the root; those
        // are never reached by a walk from the root, and anchors must be reachable (below).
        let reachable = |mut i: usize| -> bool {
            // Walk up at most n steps: a detached cycle never reaches the root.
            for _ in 0..=n {
                if i == root {
                    return true;
                }
                match parent.get(i).copied().unwrap_or(NO_PARENT) {
                    NO_PARENT => return false,
                    p => i = p as usize,
                }
            }
            false
        };
        let check_anchor = |a: &Anchor, what: &str| -> Result<(), ContentError> {
            let i = a.node as usize;
            let Some(node) = self.nodes.get(i).filter(|_| reachable(i)) else {
                return Err(ContentError::Malformed(format!("{what}: no such node")));
            };
            let ok = match &node.text {
                Some(t) => (a.offset as usize) <= utf16_len(t),
                None => a.offset <= 1,
            };
            if ok {
                Ok(())
            } else {
                Err(ContentError::Malformed(format!(
                    "{what}: offset out of range"
                )))
            }
        };
        if let Some(p) = &self.point {
            if let Some(c) = &p.caret {
                check_anchor(c, "point.caret")?;
            }
            if let Some(e) = p.element {
                check_anchor(&Anchor { node: e, offset: 0 }, "point.element")?;
                if !self.nodes.get(e as usize).is_some_and(Node::is_element) {
                    return Err(ContentError::Malformed(
                        "point.element is a text node".into(),
                    ));
                }
            }
        }
        if let Some(s) = &self.selection {
            check_anchor(&s.start, "selection.start")?;
            check_anchor(&s.end, "selection.end")?;
        }
        if let Some(f) = &self.field {
            check_anchor(
                &Anchor {
                    node: f.node,
                    offset: 0,
                },
                "field.node",
            )?;
            self.check_field(f)?;
        }
        Ok(Tree {
            obs: self,
            parent,
            holders: std::cell::OnceCell::new(),
            held: std::cell::OnceCell::new(),
        })
    }

    /// A pointed field: a `textarea` or `input` element, its strings bounded, its offsets inside
    /// its value, and, for a drop, the element under the point.
    fn check_field(&self, f: &Field) -> Result<(), ContentError> {
        let bad = |why: &str| Err(ContentError::Malformed(format!("field: {why}")));
        if !matches!(
            self.nodes.get(f.node as usize).map(Node::tag),
            Some("textarea" | "input")
        ) {
            return bad("not a textarea or input");
        }
        if f.value.len() > MAX_FIELD_VALUE_BYTES {
            return Err(ContentError::TooLarge("field value"));
        }
        if f.kind.is_empty() || f.kind.len() > MAX_NAME_BYTES {
            return bad("bad type");
        }
        if [&f.autocomplete, &f.name]
            .into_iter()
            .flatten()
            .any(|a| a.len() > MAX_ATTR_BYTES)
        {
            return Err(ContentError::TooLarge("field attribute"));
        }
        if f.start > f.end || f.end as usize > utf16_len(&f.value) {
            return bad("offsets out of range");
        }
        if self.how == How::Drop && self.point.and_then(|p| p.element) != Some(f.node) {
            return bad("a drop's field is not the element under the point");
        }
        Ok(())
    }
}

/// A recorded style's words and values are within their caps.
fn style_in_bounds(style: &Style) -> bool {
    let words = [
        &style.display,
        &style.visibility,
        &style.white_space,
        &style.content_visibility,
    ];
    !words
        .iter()
        .any(|w| w.as_ref().is_some_and(|w| w.len() > MAX_NAME_BYTES))
        && style
            .clip_path
            .as_ref()
            .is_none_or(|c| c.len() <= MAX_STYLE_VALUE_BYTES)
}

impl Tree<'_> {
    /// Node `i`; an empty node for an index out of range (the check makes that impossible for
    /// indices read from the observation, and this keeps it impossible to panic).
    pub fn node(&self, i: usize) -> &Node {
        self.obs.nodes.get(i).unwrap_or(&NO_NODE)
    }
    /// Parent of `i`, `None` for the root, a detached node or an index out of range.
    pub fn parent_of(&self, i: usize) -> Option<usize> {
        match self.parent.get(i).copied().unwrap_or(NO_PARENT) {
            NO_PARENT => None,
            p => Some(p as usize),
        }
    }
    /// Whether an element above `i` (not `i` itself) is a `what`. Read for the whole tree at
    /// once, from the tops down: rules ask it of every element, and a walk up from each costs the
    /// page's size times its depth (seconds on a page nested thousands deep:
    /// `an_element_under_a_heading_or_code_is_known_without_a_walk`).
    pub fn is_under(&self, i: usize, what: Holder) -> bool {
        let holders = self.holders.get_or_init(|| {
            let mut holders = vec![0u8; self.obs.nodes.len()];
            for n in self.top_down() {
                if let Some(p) = self.parent_of(n) {
                    let above =
                        holders.get(p).copied().unwrap_or(0) | Holder::of(self.node(p).tag());
                    if let Some(h) = holders.get_mut(n) {
                        *h = above;
                    }
                }
            }
            holders
        });
        holders.get(i).is_some_and(|h| h & what.bit() != 0)
    }

    /// Whether an element below `i` (not `i` itself) is a `what`. Read for the whole tree at
    /// once, from the leaves up, like [`Tree::is_under`].
    pub fn holds(&self, i: usize, what: Holder) -> bool {
        let held = self.held.get_or_init(|| {
            let mut held = vec![0u8; self.obs.nodes.len()];
            for n in self.top_down().into_iter().rev() {
                if let Some(p) = self.parent_of(n) {
                    let below = held.get(n).copied().unwrap_or(0) | Holder::of(self.node(n).tag());
                    if let Some(h) = held.get_mut(p) {
                        *h |= below;
                    }
                }
            }
            held
        });
        held.get(i).is_some_and(|h| h & what.bit() != 0)
    }

    /// Every node, each after its parent: from every top (the root, and any node no element
    /// lists) down. What a rule sums from the leaves up it reads in the reverse order, once, where
    /// adding each leaf to every ancestor costs the page's size times its depth.
    pub fn top_down(&self) -> Vec<usize> {
        let n = self.obs.nodes.len();
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&i| self.parent_of(i).is_none()).collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(
                self.node(i)
                    .kids
                    .iter()
                    .map(|&k| k as usize)
                    .filter(|&k| self.parent_of(k) == Some(i)),
            );
        }
        order
    }

    /// `i` and its ancestors, nearest first.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut cur = Some(i);
        std::iter::from_fn(move || {
            let i = cur?;
            cur = self.parent_of(i);
            Some(i)
        })
    }
}
