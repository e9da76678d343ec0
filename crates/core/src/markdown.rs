//! GitHub Markdown as the reader writes it for the agent: the rules that keep a page's text from
//! faking structure (every string of a page is the page's), shared by the reader
//! (`apc-content`'s `markdown.rs`, which renders a page) and the hub (which pages a reading).
//!
//! Rules (each has a test below named after it):
//! - MD1 text is escaped: `\`, `` ` ``, `*`, `[`, `]`, `<`, `|`, `~`, an `_` that is not between
//!   two letters or digits, and an `&` that would start an entity; so page text never opens
//!   emphasis, a link, an HTML tag, an autolink, a table cell or a strikethrough.
//! - MD2 at the start of a line, a `#` (heading), `>` (quote), `-`, `+` (list, setext underline,
//!   thematic break), `=` (setext underline) and the `.` or `)` after up to nine digits (ordered
//!   list) are escaped too, so a paragraph of page text cannot become a heading, a list or a quote.
//! - MD3 a code block is fenced with more backticks than the longest run of backticks in its text
//!   (at least three), so no line of the code can close it; its language is kept only as
//!   letters, digits and `_ + # . -`, at most 32.
//! - MD4 an inline code span is delimited by more backticks than any run inside it, padded with a
//!   space where its text starts or ends with a backtick; line breaks in it become spaces.
//! - MD5 a link's destination is an absolute `http`, `https` or `mailto` URL (the reader resolves
//!   it), with spaces, parentheses, angle brackets and backslashes percent-encoded and control
//!   characters dropped, so it cannot end the link early.
//! - MD6 a cut of Markdown (a page of a reading, or a text cut to fit) falls at a block boundary
//!   outside any code fence where there is one: the last blank line before the limit, else the
//!   last line break, else the start of the last link or image (so a run of images with no text
//!   between them is cut between two of them, never inside one), else the last space, else the
//!   limit itself (a character boundary). A text cut to keep its end (the context before a
//!   pointed part) starts likewise: after the first blank line past the limit, else the first
//!   line break, else the first link or image, else the first space, else the limit.

/// MD1: appends `text` to `out` with every character that could start structure escaped.
pub fn escape_text_into(text: &str, out: &mut String) {
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '_' if !(prev.is_some_and(char::is_alphanumeric)
                && next.is_some_and(char::is_alphanumeric)) =>
            {
                out.push_str("\\_");
            }
            '&' if starts_entity(chars.clone()) => out.push_str("\\&"),
            c => out.push(c),
        }
        prev = Some(c);
    }
}

/// MD1 on a string of its own.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    escape_text_into(text, &mut out);
    out
}

/// Whether what follows an `&` reads as an entity (`&amp;`, `&#38;`, `&#x26;`).
fn starts_entity(rest: impl Iterator<Item = char>) -> bool {
    for (n, c) in rest.take(33).enumerate() {
        if c == ';' {
            return n > 0;
        }
        if !(c.is_ascii_alphanumeric() || (c == '#' && n == 0)) {
            return false;
        }
    }
    false
}

/// MD2: escapes what would make structure at the start of each line of `text` (already escaped
/// by MD1); leading spaces of a line are dropped (they could make it indented code).
pub fn escape_line_starts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.trim_start_matches([' ', '\t']);
        let mut chars = line.char_indices();
        match chars.next() {
            Some((_, '#' | '>' | '-' | '+' | '=')) => {
                out.push('\\');
                out.push_str(line);
            }
            Some((_, d)) if d.is_ascii_digit() => {
                let digits = line.bytes().take_while(u8::is_ascii_digit).count();
                match line.get(digits..digits + 1) {
                    Some("." | ")") if digits <= 9 => {
                        out.push_str(line.get(..digits).unwrap_or(""));
                        out.push('\\');
                        out.push_str(line.get(digits..).unwrap_or(""));
                    }
                    _ => out.push_str(line),
                }
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// The longest run of backticks in `s`.
fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        if c == '`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// MD3: a fenced code block of `code` (kept exactly; a last line break is not repeated) with its
/// language when it is one.
pub fn fenced_code(code: &str, lang: Option<&str>) -> String {
    let fence = "`".repeat((longest_backtick_run(code) + 1).max(3));
    let code = code.strip_suffix('\n').unwrap_or(code);
    let info = lang.and_then(code_language).unwrap_or_default();
    let mut out = String::with_capacity(code.len() + 2 * fence.len() + info.len() + 2);
    out.push_str(&fence);
    out.push_str(&info);
    out.push('\n');
    if !code.is_empty() {
        out.push_str(code);
        out.push('\n');
    }
    out.push_str(&fence);
    out
}

/// MD3: a code block's language as a page names it, kept when it is a word of letters, digits
/// and `_ + # . -` of at most 32 characters (never a backtick or a space: it goes after the fence).
pub fn code_language(raw: &str) -> Option<String> {
    let t = raw.trim();
    let ok = (1..=32).contains(&t.len())
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'.' | b'-'))
        && !matches!(t.to_ascii_lowercase().as_str(), "none" | "nohighlight");
    ok.then(|| t.to_ascii_lowercase())
}

/// MD4: an inline code span of `code` (line breaks and tabs made spaces); empty for blank code.
pub fn code_span(code: &str) -> String {
    let code: String = code
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\r' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect();
    if code.trim().is_empty() {
        return String::new();
    }
    let ticks = "`".repeat(longest_backtick_run(&code) + 1);
    let pad = if code.starts_with('`') || code.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{code}{pad}{ticks}")
}

/// MD5: a link destination from an absolute URL the reader resolved (`http`, `https` or `mailto`
/// only; anything else is `None`).
pub fn link_destination(url: &str) -> Option<String> {
    let lower = url.get(..7).unwrap_or("").to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https:/") || lower == "mailto:") {
        return None;
    }
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\\' => out.push_str("%5C"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    Some(out)
}

/// MD6: the byte length of the longest start of `text` of at most `max` bytes that ends at a block
/// boundary outside a code fence (see the module docs), measured by `cost` (bytes of the text as
/// it is sent: `str::len` for UTF-8, a JSON string's escaped length for JSON).
pub fn cut_point(text: &str, max: usize, cost: impl Fn(char) -> usize) -> usize {
    let mut used = 0;
    let mut limit = text.len();
    for (i, c) in text.char_indices() {
        used += cost(c);
        if used > max {
            limit = i;
            break;
        }
    }
    if limit == text.len() {
        return limit;
    }
    let (mut blank, mut line, mut space) = (None, None, None);
    let mut fence: Option<(char, usize)> = None;
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let end = at + raw.len();
        if end > limit {
            break;
        }
        fence = fence_after(fence, raw);
        if fence.is_none() {
            line = Some(end);
            if raw.trim().is_empty() || text.get(end..).is_some_and(|t| t.starts_with('\n')) {
                blank = Some(end);
            }
        }
        at = end;
    }
    if let Some(s) = text.get(..limit).and_then(|t| t.rfind(' ')) {
        space = Some(s + 1);
    }
    let link = text.get(..limit).and_then(|t| {
        t.rmatch_indices('[')
            .map(|(i, _)| i)
            .find_map(|i| link_start(text, i))
    });
    let good = |p: Option<usize>| p.filter(|&p| p > 0 && 2 * p >= limit);
    good(blank)
        .or(good(line))
        .or(good(link))
        .or(good(space))
        .unwrap_or(limit)
}

/// The code fence open after the line `raw` (its character and length), given the one open
/// before it: a line of three or more backticks or tildes opens one; inside, a line of only the
/// same character, at least as many, closes it (MD3's fences, in a list item or quote too).
fn fence_after(fence: Option<(char, usize)>, raw: &str) -> Option<(char, usize)> {
    let trimmed = raw.trim_start_matches([' ', '>', '\t']);
    let ticks = trimmed
        .chars()
        .take_while(|&c| c == '`' || c == '~')
        .count();
    let first = trimmed.chars().next().unwrap_or(' ');
    match fence {
        Some((f, n)) if first == f && ticks >= n && trimmed.trim_end().len() == ticks => None,
        None if ticks >= 3 => Some((first, ticks)),
        open => open,
    }
}

/// Where the link or image whose `[` is at byte `i` of `text` starts (the `!` of an image), when
/// that `[` opens one: MD1 escapes every `[` of page text, so an unescaped one (after an even
/// run of backslashes) is the reader's own. Code keeps its `[` as it is, so inside code this is a
/// place like any other, as the space fallback is.
fn link_start(text: &str, i: usize) -> Option<usize> {
    let before = text.get(..i)?;
    let slashes = before.len() - before.trim_end_matches('\\').len();
    if slashes % 2 == 1 {
        return None;
    }
    // An image's `!`, unless it is escaped page text before a link.
    let bang = before.strip_suffix('!').filter(|b| {
        let run = b.len() - b.trim_end_matches('\\').len();
        run % 2 == 0
    });
    Some(if bang.is_some() { i - 1 } else { i })
}

/// MD6 from the other end: where the longest end of `text` of at most `max` bytes (by `cost`, as
/// in [`cut_point`]) starts, at a block boundary outside any code fence where there is one: after
/// the first blank line past the limit, else the first line break, else the first link or image,
/// else the first space, else the limit itself. Keeping `&text[cut_start(..)..]` never starts inside a fence, so no fence of the
/// kept text opens where the whole text closed one.
pub fn cut_start(text: &str, max: usize, cost: impl Fn(char) -> usize) -> usize {
    let mut used = 0;
    let mut limit = 0;
    for (i, c) in text.char_indices().rev() {
        used += cost(c);
        if used > max {
            limit = i + c.len_utf8();
            break;
        }
    }
    if limit == 0 {
        return 0;
    }
    let (mut blank, mut line) = (None, None);
    let mut fence: Option<(char, usize)> = None;
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let end = at + raw.len();
        fence = fence_after(fence, raw);
        if fence.is_none() && end >= limit && end < text.len() {
            line = line.or(Some(end));
            if raw.trim().is_empty() {
                blank = Some(end);
                break;
            }
        }
        at = end;
    }
    let space = text
        .get(limit..)
        .and_then(|t| t.find(' '))
        .map(|s| limit + s + 1);
    // The first link or image that starts past the limit (an image's `!` may lie before it).
    let link = text.get(limit..).and_then(|t| {
        t.match_indices('[')
            .filter_map(|(i, _)| link_start(text, limit + i))
            .find(|&p| p >= limit)
    });
    let kept = text.len() - limit;
    let good = |p: Option<usize>| p.filter(|&p| p < text.len() && 2 * (text.len() - p) >= kept);
    good(blank)
        .or(good(line))
        .or(good(link))
        .or(good(space))
        .unwrap_or(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md1_text_cannot_open_structure() {
        assert_eq!(
            escape_text("a *b* [c](d) <e> `f` |g| ~h~ \\"),
            "a \\*b\\* \\[c\\](d) \\<e> \\`f\\` \\|g\\| \\~h\\~ \\\\"
        );
        assert_eq!(escape_text("snake_case _x_"), "snake_case \\_x\\_");
        assert_eq!(
            escape_text("AT&T &amp; &#38; &x"),
            "AT&T \\&amp; \\&#38; &x"
        );
        assert_eq!(escape_text("</untrusted>"), "\\</untrusted>");
    }

    #[test]
    fn md2_line_starts_cannot_make_blocks() {
        assert_eq!(
            escape_line_starts("# h\n> q\n- l\n+ l\n===\n1. x\n2) y\n2024 was\n   - z"),
            "\\# h\n\\> q\n\\- l\n\\+ l\n\\===\n1\\. x\n2\\) y\n2024 was\n\\- z"
        );
        assert_eq!(escape_line_starts("12345678901. x"), "12345678901. x");
    }

    #[test]
    fn md3_no_line_of_code_closes_its_fence() {
        let code = "let s = \"```\";\n````\nend\n";
        let block = fenced_code(code, Some("Rust"));
        assert_eq!(block, "`````rust\nlet s = \"```\";\n````\nend\n`````");
        assert_eq!(fenced_code("x", Some("a b")), "```\nx\n```");
        assert_eq!(fenced_code("x", Some("js`")), "```\nx\n```");
        assert_eq!(code_language("c++"), Some("c++".into()));
        assert_eq!(code_language("none"), None);
        assert_eq!(code_language(&"a".repeat(33)), None);
    }

    #[test]
    fn md4_code_spans_hold_any_backticks() {
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x`"), "`` `x` ``");
        assert_eq!(code_span("a\nb"), "`a b`");
        assert_eq!(code_span("  "), "");
    }

    #[test]
    fn md5_only_web_and_mail_links_and_they_cannot_end_early() {
        assert_eq!(
            link_destination("https://e.com/a b(c)<d>\\").as_deref(),
            Some("https://e.com/a%20b%28c%29%3Cd%3E%5C")
        );
        assert_eq!(
            link_destination("mailto:a@b.c").as_deref(),
            Some("mailto:a@b.c")
        );
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "ftp://e.com/",
            "/rel",
        ] {
            assert_eq!(link_destination(bad), None, "{bad}");
        }
    }

    #[test]
    fn md6_cuts_fall_between_blocks_outside_fences() {
        let text = "one two\n\n```\na\n\nb\n```\n\nthree four five";
        let len = |c: char| c.len_utf8();
        // Within the fence's blank line: back to the blank line before the fence.
        assert_eq!(cut_point(text, 15, len), "one two\n\n".len());
        assert_eq!(
            cut_point(text, 32, len),
            "one two\n\n```\na\n\nb\n```\n\n".len()
        );
        assert_eq!(cut_point(text, 1000, len), text.len());
        // No boundary in the second half: a space, else the limit.
        assert_eq!(cut_point("aaaa bbbbbbbb", 10, len), 5);
        assert_eq!(cut_point("ééééé", 5, len), 4);
    }

    #[test]
    fn md6_a_kept_end_starts_between_blocks_outside_fences() {
        let text = "one two\n\n```\na\n\nb\n```\n\nthree four five";
        let len = |c: char| c.len_utf8();
        let kept = |max| &text[cut_start(text, max, len)..];
        // The limit falls in the fence: not at its blank line, but after the fence's own end.
        assert_eq!(kept(20), "three four five");
        assert_eq!(kept(29), "```\na\n\nb\n```\n\nthree four five");
        assert_eq!(kept(1000), text);
        // No boundary in the kept half: a space, else the limit.
        assert_eq!(kept(10), "four five");
        assert_eq!(
            &"bbbbbbbb aaaaa"[cut_start("bbbbbbbb aaaaa", 10, len)..],
            "aaaaa"
        );
        assert_eq!(
            &"bbbbbbbb aaaa"[cut_start("bbbbbbbb aaaa", 10, len)..],
            "bbbbb aaaa"
        );
        assert_eq!(cut_start("ééééé", 5, len), 6);
        assert_eq!(cut_start("", 0, len), 0);
    }

    #[test]
    fn md6_a_run_of_images_is_cut_between_two_of_them() {
        let run = "![a b](https://e.com/1)[c d](https://e.com/2)![e f](https://e.com/3)";
        let len = |c: char| c.len_utf8();
        assert_eq!(
            &run[..cut_point(run, 60, len)],
            "![a b](https://e.com/1)[c d](https://e.com/2)"
        );
        assert_eq!(
            &run[cut_start(run, 60, len)..],
            "[c d](https://e.com/2)![e f](https://e.com/3)"
        );
        // The limit falls between an image's `!` and its `[`: the next image starts the end.
        let images = "![a b](https://e.com/1)![c d](https://e.com/2)![e f](https://e.com/3)";
        assert_eq!(
            &images[cut_start(images, 45, len)..],
            "![e f](https://e.com/3)"
        );
        // An escaped bracket is page text, not a link.
        let text = "x \\![a](https://e.com/1) \\[not a link\\] and more words here";
        assert_eq!(link_start(text, 4), Some(4));
        assert_eq!(link_start(text, 26), None);
        assert_eq!(link_start("a ![b](https://e.com/)", 3), Some(2));
    }
}
