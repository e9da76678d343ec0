//! The reading's texts as GitHub Markdown, for the agent: the same stretches of the rendered
//! (visible) text as the plain texts (the pointed part, its context, the main text), with the
//! page's structure kept. It reads the rendered text ([`Rendered`]: what each visible node
//! shows, and where) and the elements around it, so what is visible, and how whitespace
//! collapses, is decided once, by `render.rs`; this module adds only the structure.
//!
//! Rules (each has a unit test in `tests.rs` named after it, `md_…`); the escaping and fences
//! are core's (`apc_core::markdown`, MD1–MD6), so no page text can fake structure:
//! - K1 blocks: headings (`h1`–`h6`, `role="heading"` with `aria-level`) as `#` headings;
//!   paragraphs and every other block separated by a blank line; `<br>` a hard line break
//!   (`\` at the end of the line); `hr` a thematic break (outside lists and quotes).
//! - K2 lists: `ul`/`ol` items as `- ` or `N. ` (from `start`), nested by the width of their
//!   parents' markers, ordered and unordered mixed at any depth; items of one list tight.
//! - K3 block quotes: `blockquote`, each line (and the blank lines inside) behind `> `.
//! - K4 code: a `pre` (or a `code` laid out as a block) fenced with its exact text (line breaks
//!   and indentation as rendered) and its language where the page names it (`language-x`,
//!   `lang-x`, `highlight-source-x`, `highlight-x`, `brush: x`, `data-lang`, `data-language`,
//!   on the block, its `code`, or the two elements around it); inline `code`, `kbd`, `samp`,
//!   `tt` as code spans.
//! - K5 tables: GFM pipe tables, the header row marked (the first row when it is in `thead` or
//!   all `th`; else an empty header row), `colspan` and `rowspan` filled with empty cells (at
//!   most 64 columns), a cell's line breaks and blocks as `<br>`, its `|` escaped; a row that is
//!   kept at all is kept whole, with the table's header row (a pointed cell comes with its row and
//!   its columns' names). A table of one
//!   column, or holding a table or a code block (a layout, or a code listing with line numbers),
//!   is read as blocks.
//! - K6 links: `a href` resolved against the page's base URL (`<base href>`, else its URL) as
//!   `[text](absolute URL)`, only `http`, `https` and `mailto`; a link to the page itself (an
//!   anchor on it) and a link with no text keep only their text.
//! - K7 images: an `img` with alt text as `![alt](absolute src)` (`()` when the source is not a
//!   web URL); one without alt text is left out.
//! - K8 bounds: a hostile page cannot make the work more than linear (every node is walked at
//!   most once per text; nesting deeper than [`MAX_DEPTH`] is read flat, as paragraphs).

use apc_core::markdown::{
    code_language, code_span, escape_line_starts, escape_text_into, fenced_code, link_destination,
};
use apc_core::url_parse::{join_url, new_url};
use url::{Position, Url};

use crate::observation::{Node, Tree};
use crate::render::{layout, shows_nothing, Layout, Rendered};

/// Element nesting read with structure; deeper is read flat (K8).
pub(crate) const MAX_DEPTH: usize = 96;
/// Most columns of a table (K5).
const MAX_COLUMNS: usize = 64;
/// Most characters of an image's alt text (K7).
const MAX_ALT_CHARS: usize = 300;

/// Where links go: the base they are resolved against and the page itself (K6).
pub(crate) struct Links {
    base: Option<Url>,
    /// The page's URL without its fragment: a link there is an anchor on the page.
    page: String,
}

impl Links {
    /// The links of a page at `url` (U1's) whose `document.baseURI` is `base`.
    pub(crate) fn new(url: &str, base: Option<&str>) -> Self {
        let page = new_url(url);
        let base = base
            .and_then(new_url)
            .filter(|b| matches!(b.scheme(), "http" | "https"))
            .or_else(|| page.clone());
        Links {
            base,
            page: page.map(|u| without_fragment(&u)).unwrap_or_default(),
        }
    }

    /// The absolute destination of a link or an image, when it is one to give (MD5).
    fn resolve(&self, href: &str) -> Option<String> {
        let url = join_url(self.base.as_ref()?, href)?;
        link_destination(url.as_str())
    }

    /// A link's destination to give (MD5), `None` for one to this page (an anchor on it, K6) or
    /// one not to give.
    fn link_to_give(&self, href: &str) -> Option<String> {
        let url = join_url(self.base.as_ref()?, href)?;
        let dest = link_destination(url.as_str())?;
        // Escaping changed nothing (most links): the destination read back is the joined URL,
        // so it is compared as it is, without a second parse (a page of thousands of links).
        let this_page = if dest == url.as_str() {
            url[..Position::AfterQuery] == self.page
        } else {
            self.is_this_page(&dest)
        };
        (!this_page).then_some(dest)
    }

    fn is_this_page(&self, dest: &str) -> bool {
        new_url(dest).is_some_and(|u| without_fragment(&u) == self.page)
    }
}

fn without_fragment(u: &Url) -> String {
    let mut u = u.clone();
    u.set_fragment(None);
    u.into()
}

/// The Markdown of the rendered text's byte ranges `keep` (in document order).
pub(crate) fn markdown(
    tree: &Tree<'_>,
    r: &Rendered,
    keep: &[(usize, usize)],
    links: &Links,
) -> String {
    let mut keep: Vec<(usize, usize)> = keep.iter().copied().filter(|(a, b)| a < b).collect();
    keep.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(keep.len());
    for (a, b) in keep {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    if merged.is_empty() {
        return String::new();
    }
    let mut w = Writer {
        tree,
        r,
        keep: &merged,
        links,
        out: String::new(),
        para: String::new(),
        frames: Vec::new(),
        last_frames: Vec::new(),
        next_id: 0,
        whole: 0,
        lists: Vec::new(),
        sinks: Vec::new(),
        tight: false,
        in_link: false,
    };
    w.walk(tree.obs.root as usize, 0);
    w.flush();
    w.out
}

/// A container the lines of a block are written inside (K2, K3).
enum Frame {
    Quote(u32),
    Item {
        id: u32,
        marker: String,
        started: bool,
    },
}

impl Frame {
    fn id(&self) -> u32 {
        match self {
            Frame::Quote(id) | Frame::Item { id, .. } => *id,
        }
    }
}

/// A list being written: ordered or not, and the number of its next item.
struct List {
    ordered: bool,
    next: u64,
    /// An item of it was opened: the next follows tight.
    opened: bool,
}

/// Inline text being gathered for a heading, a link or a table cell: blocks and line breaks
/// inside it become `sep`.
struct Sink {
    buf: String,
    sep: &'static str,
}

struct Writer<'t, 'o, 'r> {
    tree: &'t Tree<'o>,
    r: &'r Rendered,
    keep: &'r [(usize, usize)],
    links: &'r Links,
    out: String,
    /// The paragraph being written; `\n` in it is a hard line break.
    para: String,
    frames: Vec<Frame>,
    /// The frames the last block was written in (their ids): a blank line after it is written in
    /// the frames it shares with the next.
    last_frames: Vec<u32>,
    next_id: u32,
    /// Inside a table row that is kept: its cells are read whole (K5).
    whole: u32,
    lists: Vec<List>,
    sinks: Vec<Sink>,
    /// The next block follows the last one on the next line (an item of the same list).
    tight: bool,
    in_link: bool,
}

impl Writer<'_, '_, '_> {
    // ---- what is kept ----

    /// The kept ranges that intersect `[a, b)`; an empty span (an image, a rule) is kept where
    /// its place is.
    fn touches(&self, a: usize, b: usize) -> bool {
        if self.whole > 0 {
            return true;
        }
        if a == b {
            let i = self.keep.partition_point(|&(_, kb)| kb < a);
            self.keep.get(i).is_some_and(|&(ka, _)| ka <= a)
        } else {
            let i = self.keep.partition_point(|&(_, kb)| kb <= a);
            self.keep.get(i).is_some_and(|&(ka, _)| ka < b)
        }
    }

    /// The kept text of `[a, b)`.
    fn kept(&self, a: usize, b: usize) -> String {
        if self.whole > 0 {
            return self.r.slice(a, b).to_owned();
        }
        let mut s = String::new();
        let i = self.keep.partition_point(|&(_, kb)| kb <= a);
        for &(ka, kb) in self.keep.get(i..).unwrap_or(&[]) {
            if ka >= b {
                break;
            }
            s.push_str(self.r.slice(ka.max(a), kb.min(b)));
        }
        s
    }

    // ---- writing ----

    fn target(&mut self) -> &mut String {
        match self.sinks.last_mut() {
            Some(sink) => &mut sink.buf,
            None => &mut self.para,
        }
    }

    /// One space between words, never at the start of a line.
    fn space(&mut self) {
        let t = self.target();
        if !t.is_empty() && !t.ends_with([' ', '\n']) && !t.ends_with("<br>") {
            t.push(' ');
        }
    }

    /// Page text (MD1), as rendered: a line break in it is a hard break.
    fn text(&mut self, s: &str) {
        let body = s.trim_start_matches(['\n', ' ', '\t']);
        if body.len() < s.len() {
            self.space();
        }
        for (k, line) in body.split('\n').enumerate() {
            if k > 0 {
                self.hard_break();
            }
            let line = line.replace('\t', " ");
            escape_text_into(&line, self.target());
        }
    }

    /// Markup of our own.
    fn raw(&mut self, s: &str) {
        self.target().push_str(s);
    }

    fn hard_break(&mut self) {
        match self.sinks.last_mut() {
            Some(sink) => {
                if !sink.buf.trim().is_empty() && !sink.buf.ends_with(sink.sep) {
                    let t = sink.buf.trim_end().len();
                    sink.buf.truncate(t);
                    sink.buf.push_str(sink.sep);
                }
            }
            None => {
                if !self.para.trim().is_empty() && !self.para.ends_with('\n') {
                    let t = self.para.trim_end().len();
                    self.para.truncate(t);
                    self.para.push('\n');
                }
            }
        }
    }

    /// Between blocks: a new paragraph, or in a sink its separator.
    fn boundary(&mut self) {
        if self.sinks.is_empty() {
            self.flush();
        } else {
            self.hard_break();
        }
    }

    /// Writes the paragraph gathered so far (MD2 on each of its lines).
    fn flush(&mut self) {
        let para = std::mem::take(&mut self.para);
        let lines: Vec<&str> = para
            .split('\n')
            .map(str::trim)
            .filter(|l| !shows_nothing(l))
            .collect();
        if lines.is_empty() {
            return;
        }
        let text = escape_line_starts(&lines.join("\n")).replace('\n', "\\\n");
        self.block(&text);
    }

    /// Writes a block (its lines inside the open frames), after a blank line or, tight, a line break.
    fn block(&mut self, text: &str) {
        if shows_nothing(text) {
            return;
        }
        if !self.out.is_empty() {
            self.out.push('\n');
            if !self.tight {
                let shared = self
                    .frames
                    .iter()
                    .zip(&self.last_frames)
                    .take_while(|(f, &id)| f.id() == id)
                    .count();
                self.prefix_of(shared, true);
                self.out.push('\n');
            }
        }
        self.tight = false;
        self.last_frames = self.frames.iter().map(Frame::id).collect();
        for (k, line) in text.split('\n').enumerate() {
            if k > 0 {
                self.out.push('\n');
            }
            self.prefix(line.is_empty());
            self.out.push_str(line);
        }
    }

    /// The frames' prefix of a line; a blank line's is trimmed (and starts no item).
    fn prefix(&mut self, blank: bool) {
        self.prefix_of(self.frames.len(), blank);
    }

    /// The prefix of the first `n` frames.
    fn prefix_of(&mut self, n: usize, blank: bool) {
        let mut p = String::new();
        for f in self.frames.iter_mut().take(n) {
            match f {
                Frame::Quote(_) => p.push_str("> "),
                Frame::Item {
                    marker, started, ..
                } => {
                    if *started || blank {
                        p.extend(std::iter::repeat_n(' ', marker.len()));
                    } else {
                        p.push_str(marker);
                        *started = true;
                    }
                }
            }
        }
        if blank {
            let t = p.trim_end().len();
            p.truncate(t);
        }
        self.out.push_str(&p);
    }

    /// Gathers the inline text of `i`'s children in a sink of its own.
    fn gather(&mut self, i: usize, depth: usize, sep: &'static str) -> String {
        self.sinks.push(Sink {
            buf: String::new(),
            sep,
        });
        self.kids(i, depth);
        let sink = self.sinks.pop().map(|s| s.buf).unwrap_or_default();
        let mut s = sink.trim().to_owned();
        while let Some(t) = s.strip_suffix(sep) {
            s = t.trim_end().to_owned();
        }
        while let Some(t) = s.strip_prefix(sep) {
            s = t.trim_start().to_owned();
        }
        s
    }

    // ---- the walk ----

    fn kids(&mut self, i: usize, depth: usize) {
        let node = self.tree.node(i);
        for &k in &node.kids {
            self.walk(k as usize, depth + 1);
        }
    }

    fn walk(&mut self, i: usize, depth: usize) {
        let Some((a, b)) = self.r.span(i) else {
            return;
        };
        let node = self.tree.node(i);
        if !self.touches(a, b) {
            // An item left out still counts in its list's numbers.
            if node.tag() == "li" {
                if let Some(list) = self.lists.last_mut() {
                    list.next = list.next.saturating_add(1).min(999_999_999);
                }
            }
            return;
        }
        if node.text.is_some() {
            let s = self.kept(a, b);
            self.text(&s);
            return;
        }
        if depth > MAX_DEPTH {
            self.flat(i);
            return;
        }
        let tag = node.tag();
        let lay = layout(node);
        if let Some(level) = heading_level(node) {
            return self.heading(i, depth, level);
        }
        match tag {
            "pre" => return self.code_block(i, a, b),
            "code" if lay == Layout::Block => return self.code_block(i, a, b),
            "code" | "kbd" | "samp" | "tt" => return self.code_inline(a, b),
            "ul" | "ol" | "menu" => return self.list(i, depth, tag == "ol"),
            "li" => return self.item(i, depth),
            "blockquote" => return self.quote(i, depth),
            "table" => return self.table(i, depth),
            "br" => return self.hard_break(),
            "hr" => {
                if self.sinks.is_empty() && self.frames.is_empty() {
                    self.flush();
                    self.block("---");
                }
                return;
            }
            "img" => return self.image(node),
            "a" if !self.in_link && node.attr("href").is_some() => return self.link(i, depth),
            _ => {}
        }
        if matches!(lay, Layout::Block | Layout::Row | Layout::Cell) {
            self.boundary();
            self.kids(i, depth);
            self.boundary();
        } else {
            self.kids(i, depth);
        }
    }

    /// K8: a subtree past [`MAX_DEPTH`], without recursion: its text, with blocks as paragraphs.
    fn flat(&mut self, top: usize) {
        enum Step {
            Enter(usize),
            Exit,
        }
        let mut stack = vec![Step::Enter(top)];
        while let Some(step) = stack.pop() {
            let Step::Enter(i) = step else {
                self.boundary();
                continue;
            };
            let Some((a, b)) = self.r.span(i) else {
                continue;
            };
            if !self.touches(a, b) {
                continue;
            }
            let node = self.tree.node(i);
            if node.text.is_some() {
                let s = self.kept(a, b);
                self.text(&s);
                continue;
            }
            if node.tag() == "br" {
                self.hard_break();
                continue;
            }
            if matches!(layout(node), Layout::Block | Layout::Row | Layout::Cell) {
                self.boundary();
                stack.push(Step::Exit);
            }
            for &k in node.kids.iter().rev() {
                stack.push(Step::Enter(k as usize));
            }
        }
    }

    /// K1.
    fn heading(&mut self, i: usize, depth: usize, level: usize) {
        if self.sunk(i, depth) {
            return;
        }
        self.flush();
        let mut text = self.gather(i, depth, " ");
        if text.ends_with('#') {
            text.pop();
            text.push_str("\\#");
        }
        if !text.is_empty() {
            self.block(&format!("{} {text}", "#".repeat(level)));
        }
    }

    /// K4: a block of code, exactly as rendered.
    fn code_block(&mut self, i: usize, a: usize, b: usize) {
        let kept = self.kept(a, b);
        let code = kept.trim_start_matches('\n').trim_end();
        if code.is_empty() {
            return;
        }
        if !self.sinks.is_empty() {
            self.space();
            let span = code_span(code);
            self.raw(&span);
            return;
        }
        self.flush();
        let lang = code_lang(self.tree, i);
        self.block(&fenced_code(code, lang.as_deref()));
    }

    /// K4: inline code.
    fn code_inline(&mut self, a: usize, b: usize) {
        let kept = self.kept(a, b);
        if kept.starts_with([' ', '\n', '\t']) {
            self.space();
        }
        let mut span = code_span(kept.trim());
        if self.sinks.last().is_some_and(|s| s.sep == "<br>") {
            span = span.replace('|', "\\|");
        }
        self.raw(&span);
    }

    /// K2.
    fn list(&mut self, i: usize, depth: usize, ordered: bool) {
        if self.sunk(i, depth) {
            return;
        }
        self.flush();
        let start = self
            .tree
            .node(i)
            .attr("start")
            .and_then(|s| s.trim().parse::<i64>().ok())
            .map_or(1, |n| n.clamp(0, 999_999_999) as u64);
        self.lists.push(List {
            ordered,
            next: start,
            opened: false,
        });
        self.kids(i, depth);
        self.flush();
        self.lists.pop();
        self.tight = false;
    }

    /// While inline text is gathered into a sink (`gather`: a table cell, a heading's text), a
    /// block has no structure of its own: its children are read between block boundaries. Says
    /// whether it was read so.
    fn sunk(&mut self, i: usize, depth: usize) -> bool {
        if self.sinks.is_empty() {
            return false;
        }
        self.boundary();
        self.kids(i, depth);
        self.boundary();
        true
    }

    /// K2: one item (numbered in its list whether or not it is kept).
    fn item(&mut self, i: usize, depth: usize) {
        if self.sunk(i, depth) {
            return;
        }
        self.flush();
        let nested = self.frames.iter().any(|f| matches!(f, Frame::Item { .. }));
        let (marker, first, safe_first) = match self.lists.last_mut() {
            Some(list) => {
                let n = list.next;
                list.next = list.next.saturating_add(1).min(999_999_999);
                let first = !std::mem::replace(&mut list.opened, true);
                if list.ordered {
                    (format!("{n}. "), first, n == 1)
                } else {
                    ("- ".to_owned(), first, true)
                }
            }
            None => ("- ".to_owned(), true, true),
        };
        // Items after the first follow on the next line; a nested list's first item too when a
        // list there can interrupt a paragraph (a bullet, or a number 1).
        self.tight = !first || (nested && safe_first);
        self.next_id += 1;
        self.frames.push(Frame::Item {
            id: self.next_id,
            marker,
            started: false,
        });
        self.kids(i, depth);
        self.flush();
        self.frames.pop();
        self.tight = false;
    }

    /// K3.
    fn quote(&mut self, i: usize, depth: usize) {
        if self.sunk(i, depth) {
            return;
        }
        self.flush();
        self.next_id += 1;
        self.frames.push(Frame::Quote(self.next_id));
        self.kids(i, depth);
        self.flush();
        self.frames.pop();
        self.tight = false;
    }

    /// K7.
    fn image(&mut self, node: &Node) {
        let alt = clean_alt(node.attr("alt").unwrap_or(""));
        if alt.is_empty() {
            return;
        }
        let dest = node
            .attr("src")
            .and_then(|s| self.links.resolve(s))
            .unwrap_or_default();
        let mut md = String::from("![");
        escape_text_into(&alt, &mut md);
        md.push_str("](");
        md.push_str(&dest);
        md.push(')');
        self.raw(&md);
    }

    /// K6.
    fn link(&mut self, i: usize, depth: usize) {
        let node = self.tree.node(i);
        let dest = node.attr("href").and_then(|h| self.links.link_to_give(h));
        let Some(dest) = dest else {
            return self.kids(i, depth);
        };
        // Whitespace before the link's text stays outside its brackets.
        if let Some((a, b)) = self.r.span(i) {
            if self.kept(a, b).starts_with([' ', '\n', '\t']) {
                self.space();
            }
        }
        self.in_link = true;
        let text = self.gather(i, depth, " ");
        self.in_link = false;
        if text.is_empty() {
            return;
        }
        self.raw(&format!("[{text}]({dest})"));
    }

    /// K5.
    fn table(&mut self, i: usize, depth: usize) {
        let rows = table_rows(self.tree, i);
        let cells: Vec<Vec<usize>> = rows
            .iter()
            .map(|&(row, _)| {
                self.tree
                    .node(row)
                    .kids
                    .iter()
                    .map(|&k| k as usize)
                    .filter(|&k| {
                        let n = self.tree.node(k);
                        matches!(n.tag(), "td" | "th") || layout(n) == Layout::Cell
                    })
                    .collect()
            })
            .collect();
        let widest = cells
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&k| span_attr(self.tree.node(k), "colspan", MAX_COLUMNS))
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        let layout_table = widest <= 1
            || !self.sinks.is_empty()
            || has_descendant(self.tree, i, |n| matches!(n.tag(), "table" | "pre"));
        if layout_table {
            self.boundary();
            self.kids(i, depth);
            self.boundary();
            return;
        }
        self.flush();
        let width = widest.min(MAX_COLUMNS);
        // The caption, before the table.
        for &k in &self.tree.node(i).kids {
            if self.tree.node(k as usize).tag() == "caption" {
                self.walk(k as usize, depth + 1);
                self.flush();
            }
        }
        let mut lines: Vec<String> = Vec::new();
        let mut carry: Vec<usize> = vec![0; width];
        let mut header_done = false;
        // A table's header row comes with any of its rows that is kept, and a kept row comes
        // whole: a cell is read with the row and the columns it belongs to.
        let kept_rows: Vec<bool> = rows
            .iter()
            .map(|&(row, _)| self.r.span(row).is_some_and(|(a, b)| self.touches(a, b)))
            .collect();
        let any_kept = kept_rows.iter().any(|&k| k);
        for (((row, in_head), row_cells), kept) in rows.iter().zip(&cells).zip(kept_rows) {
            let head_row = *in_head
                || (!header_done
                    && lines.is_empty()
                    && row_cells.iter().all(|&c| self.tree.node(c).tag() == "th"));
            if self.r.span(*row).is_none() || !(kept || (head_row && any_kept && lines.is_empty()))
            {
                continue;
            }
            self.whole += 1;
            let mut line: Vec<String> = Vec::with_capacity(width);
            let mut at = 0;
            let mut next = row_cells.iter().peekable();
            while at < width {
                if carry.get(at).copied().unwrap_or(0) > 0 {
                    if let Some(c) = carry.get_mut(at) {
                        *c -= 1;
                    }
                    line.push(String::new());
                    at += 1;
                    continue;
                }
                let Some(&cell) = next.next() else {
                    line.push(String::new());
                    at += 1;
                    continue;
                };
                let node = self.tree.node(cell);
                let cols = span_attr(node, "colspan", MAX_COLUMNS);
                let rows_down = span_attr(node, "rowspan", 1000) - 1;
                let text = self.gather(cell, depth + 2, "<br>").replace('\n', " ");
                line.push(text);
                for c in 0..cols {
                    if let Some(slot) = carry.get_mut(at + c) {
                        *slot = rows_down;
                    }
                    if c > 0 {
                        line.push(String::new());
                    }
                }
                at += cols;
            }
            self.whole -= 1;
            line.truncate(width);
            let is_header = !header_done && lines.is_empty() && head_row;
            if lines.is_empty() && !is_header {
                lines.push(table_line(&vec![String::new(); width]));
                lines.push(table_line(&vec!["---".to_owned(); width]));
            }
            lines.push(table_line(&line));
            if is_header {
                lines.push(table_line(&vec!["---".to_owned(); width]));
            }
            header_done = true;
        }
        if !lines.is_empty() {
            self.block(&lines.join("\n"));
        }
    }
}

/// The heading level of an element (K1): `h1`–`h6`, or `role="heading"` with `aria-level`
/// (default 2), capped at 6.
fn heading_level(node: &Node) -> Option<usize> {
    match node.tag() {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ if node
            .attr("role")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("heading")) =>
        {
            Some(
                node.attr("aria-level")
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .filter(|&l| l >= 1)
                    .unwrap_or(2)
                    .min(6),
            )
        }
        _ => None,
    }
}

/// K4: the language a code block's page names, on the block, its `code`, or the two elements
/// around it.
fn code_lang(tree: &Tree<'_>, i: usize) -> Option<String> {
    let node = tree.node(i);
    let code_kid = node
        .kids
        .iter()
        .map(|&k| k as usize)
        .find(|&k| tree.node(k).tag() == "code");
    let around = tree.ancestors(i).skip(1).take(2);
    code_kid
        .into_iter()
        .chain(std::iter::once(i))
        .chain(around)
        .find_map(|n| lang_of(tree.node(n)))
}

fn lang_of(node: &Node) -> Option<String> {
    for attr in ["data-lang", "data-language"] {
        if let Some(l) = node.attr(attr).and_then(code_language) {
            return Some(l);
        }
    }
    let class = node.attr("class")?;
    let mut tokens = class.split_ascii_whitespace().peekable();
    while let Some(t) = tokens.next() {
        let lang = if t == "brush:" {
            tokens.peek().copied()
        } else if let Some(l) = t.strip_prefix("brush:") {
            Some(l)
        } else {
            ["language-", "lang-", "highlight-source-", "highlight-"]
                .iter()
                .find_map(|p| t.strip_prefix(p))
        };
        if let Some(l) = lang
            .map(|l| l.trim_end_matches(';'))
            .and_then(code_language)
        {
            return Some(l);
        }
    }
    None
}

/// The rows of a table, in order, each with whether it is in its `thead`: its own `tr`s and
/// those of its row groups (`thead`, `tbody`, `tfoot`, or any element laid out as one).
fn table_rows(tree: &Tree<'_>, table: usize) -> Vec<(usize, bool)> {
    let is_row = |n: &Node| n.tag() == "tr" || layout(n) == Layout::Row;
    let mut rows = Vec::new();
    for &k in &tree.node(table).kids {
        let k = k as usize;
        let kid = tree.node(k);
        if is_row(kid) {
            rows.push((k, false));
        } else if kid.is_element() && kid.tag() != "caption" {
            let head = kid.tag() == "thead";
            for &g in &kid.kids {
                if is_row(tree.node(g as usize)) {
                    rows.push((g as usize, head));
                }
            }
        }
    }
    rows
}

/// `colspan` / `rowspan` as a count from 1 to `max`.
fn span_attr(node: &Node, name: &str, max: usize) -> usize {
    node.attr(name)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(1, |n| n.clamp(1, max))
}

/// Whether an element holds one that `pred` picks (looking at most at 4,096 nodes).
fn has_descendant(tree: &Tree<'_>, i: usize, pred: impl Fn(&Node) -> bool) -> bool {
    let mut stack: Vec<usize> = tree.node(i).kids.iter().map(|&k| k as usize).collect();
    let mut seen = 0;
    while let Some(k) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            return false;
        }
        let node = tree.node(k);
        if pred(node) {
            return true;
        }
        stack.extend(node.kids.iter().map(|&c| c as usize));
    }
    false
}

fn table_line(cells: &[String]) -> String {
    let mut line = String::from("|");
    for c in cells {
        line.push(' ');
        line.push_str(c);
        line.push_str(" |");
    }
    line
}

/// An alt text on one line, without control characters, at most [`MAX_ALT_CHARS`].
fn clean_alt(raw: &str) -> String {
    let mut out = String::new();
    for word in raw.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().filter(|c| !c.is_control()));
    }
    out.chars().take(MAX_ALT_CHARS).collect()
}

/// Most bytes of JSON-escaped Markdown of the pointed part: P3's cap on its plain text, and room
/// for the markup (the plain text is cut first; this only bounds what the structure adds).
/// (`crate::POINTED_MAX_BYTES`, 64 KiB, half again.)
pub const POINTED_MARKDOWN_MAX_BYTES: usize = 96 * 1024;

/// Most bytes of JSON-escaped Markdown of each side of the context. C1's plain stretch is
/// [`crate::CONTEXT_CHARS`] characters, but its Markdown also carries every link's and image's
/// address: a stretch of a product page's gallery (hundreds of images, each a long address, no
/// text) came to 525 KB and the reading could not be made at all. Each side keeps the part
/// nearest the pointed text (MD6: `before` its end, `after` its start).
pub const CONTEXT_MARKDOWN_MAX_BYTES: usize = 16 * 1024;

/// The Markdown of a reading's pointed part (the range `pointed` of the rendered text: for a
/// drop the whole pointed block) and its context (`before`, `after`).
pub(crate) fn reading_markdown(
    tree: &Tree<'_>,
    r: &Rendered,
    links: &Links,
    pointed: (usize, usize),
    before: (usize, usize),
    after: (usize, usize),
) -> apc_core::page_link::ReadingMarkdown {
    let mut pointed_md = markdown(tree, r, &[pointed], links);
    let cut = apc_core::markdown::cut_point(
        &pointed_md,
        POINTED_MARKDOWN_MAX_BYTES,
        apc_core::js::json_char_len,
    );
    if pointed_md.is_char_boundary(cut) {
        pointed_md.truncate(cut);
    }
    // Each side of the context keeps what lies nearest the pointed part (MD6's cuts).
    use apc_core::markdown::{cut_point, cut_start};
    let (max, cost) = (CONTEXT_MARKDOWN_MAX_BYTES, apc_core::js::json_char_len);
    let before = markdown(tree, r, &[before], links);
    let after = markdown(tree, r, &[after], links);
    apc_core::page_link::ReadingMarkdown {
        pointed: pointed_md,
        before: before
            .get(cut_start(&before, max, cost)..)
            .unwrap_or_default()
            .to_owned(),
        after: after
            .get(..cut_point(&after, max, cost))
            .unwrap_or_default()
            .to_owned(),
        page: None,
    }
}
