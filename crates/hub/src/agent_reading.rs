//! What `page__get_reading` answers: a pinned reading as the agent reads it, in GitHub Markdown
//! where the reading has it (the structure of the page: headings, lists, tables, code, quotes,
//! links, images) and within a budget an agent's context can take, the page's main text in parts.
//!
//! The budget is counted in UTF-8 bytes of the answer's JSON text block (the same JSON is the
//! `structuredContent`; a client shows the model one of the two): at most `max_bytes`, by default
//! [`DEFAULT_ANSWER_BYTES`] (40,000: about 10,000 tokens of English, and never more than about
//! 20,000 in a script of one token a character, under Claude Code's default cap of 25,000 tokens
//! for a tool's output and its 50,000 characters past which it moves a result out to a file).
//!
//! - The first answer (no `offset`) carries the pointed text and its context whole, then as much
//!   of the main text as fits, cut at a block boundary outside code (core's MD6).
//! - `page_text_next_offset` says where the rest starts (characters into the whole main text of
//!   `page_text_format`); an answer for `{ id, offset }` carries the main text from there, without
//!   the pointed part again; `null` when the text is whole. Parts are exact slices of one text:
//!   read in order, they join into the whole main text.
//! - `format: "text"` asks for the plain texts as pinned; a reading pinned without Markdown (by an
//!   older extension) has only those, and says `format: "text"`.

use apc_core::js::json_char_len;
use apc_core::markdown::cut_point;
use apc_core::page_link::PageReading;
use serde_json::{json, Map, Value};

use crate::error::HubError;

/// The default budget of one answer's text block, in UTF-8 bytes.
pub const DEFAULT_ANSWER_BYTES: usize = 40_000;
/// The smallest and largest `max_bytes` an agent may ask for (the largest holds a whole reading).
pub const MIN_ANSWER_BYTES: usize = 4_000;
pub const MAX_ANSWER_BYTES: usize = 300_000;
/// Room kept in each answer for what is added after it is built (`attention`).
const RESERVE_BYTES: usize = 1_200;

/// The texts in the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Text,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }
}

/// `page__get_reading`'s arguments past `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadArgs {
    /// A part of the main text from this character on (`None`: the first answer).
    pub offset: Option<usize>,
    pub max_bytes: usize,
    pub format: Format,
}

impl ReadArgs {
    pub fn parse(args: &Map<String, Value>) -> Result<Self, HubError> {
        let count = |key: &str| -> Result<Option<u64>, HubError> {
            match args.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(|| {
                    HubError::InvalidArguments(format!("{key} must be a whole number from 0."))
                }),
                Some(_) => Err(HubError::InvalidArguments(format!(
                    "{key} must be a whole number from 0."
                ))),
            }
        };
        let offset = count("offset")?.map(|o| o.min(usize::MAX as u64) as usize);
        let max_bytes = match count("max_bytes")? {
            None => DEFAULT_ANSWER_BYTES,
            Some(n) if (MIN_ANSWER_BYTES as u64..=MAX_ANSWER_BYTES as u64).contains(&n) => {
                n as usize
            }
            Some(_) => {
                return Err(HubError::InvalidArguments(format!(
                    "max_bytes must be from {MIN_ANSWER_BYTES} to {MAX_ANSWER_BYTES}."
                )))
            }
        };
        let format = match args.get("format") {
            None | Some(Value::Null) => Format::Markdown,
            Some(Value::String(f)) if f == "markdown" => Format::Markdown,
            Some(Value::String(f)) if f == "text" => Format::Text,
            Some(_) => {
                return Err(HubError::InvalidArguments(
                    "format must be \"markdown\" or \"text\".".into(),
                ))
            }
        };
        Ok(Self {
            offset,
            max_bytes,
            format,
        })
    }
}

/// The JSON schema of the arguments (with `id`).
pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": { "type": "string", "description": "The reading id: the focus's `id` (next_args.id), starting rd_." },
            "offset": { "type": "integer", "minimum": 0, "description": "Only the page's main text, from this character on: the page_text_next_offset of the answer before." },
            "max_bytes": { "type": "integer", "minimum": MIN_ANSWER_BYTES, "maximum": MAX_ANSWER_BYTES, "description": format!("The most UTF-8 bytes of this answer (default {DEFAULT_ANSWER_BYTES}).") },
            "format": { "type": "string", "enum": ["markdown", "text"], "description": "markdown (default): the page's structure as GitHub Markdown; text: the plain text." }
        },
        "required": ["id"]
    })
}

fn json_len(v: &Map<String, Value>) -> usize {
    serde_json::to_string(v).map_or(usize::MAX, |s| s.len())
}

/// The answer for `reading` (its envelope fields in `head`: id, app, untrusted, note, pinned_at,
/// and the page text's status when it is not whole).
pub fn answer(
    mut head: Map<String, Value>,
    reading: &PageReading,
    args: ReadArgs,
) -> Result<Map<String, Value>, HubError> {
    let md = reading
        .markdown
        .as_ref()
        .filter(|_| args.format == Format::Markdown);
    let (format, pointed, before, after) = match md {
        // A form field's value (what the person typed) has no Markdown of its own: as typed.
        Some(md) if reading.pointed.field.is_some() => (
            Format::Markdown,
            &reading.pointed.text,
            &md.before,
            &md.after,
        ),
        Some(md) => (Format::Markdown, &md.pointed, &md.before, &md.after),
        None => (
            Format::Text,
            &reading.pointed.text,
            &reading.context.before,
            &reading.context.after,
        ),
    };
    let (page_format, page) = match md.and_then(|m| m.page.as_ref()) {
        Some(page) => (Format::Markdown, Some(page.as_str())),
        None => (Format::Text, reading.page_text.as_deref()),
    };
    let page = page.unwrap_or("");
    let total = page.chars().count();
    let offset = args.offset.unwrap_or(0);
    if offset > total {
        return Err(HubError::InvalidArguments(format!(
            "offset is past the end of the page text ({total} characters)."
        )));
    }
    let mut r = Map::new();
    r.insert("url".into(), json!(reading.url));
    r.insert("title".into(), json!(reading.title));
    if let Some(lang) = &reading.lang {
        r.insert("lang".into(), json!(lang));
    }
    // The frame the text is in (its URL, origin, title): the page's URL and title above are the top
    // page's.
    if let Some(frame) = &reading.frame {
        r.insert("frame".into(), json!(frame));
    }
    if args.offset.is_none() {
        let mut p = json!({ "text": pointed, "how": reading.pointed.how, "targets": reading.pointed.targets });
        if let (Some(field), Some(p)) = (reading.pointed.field, p.as_object_mut()) {
            p.insert("field".into(), json!(field));
        }
        r.insert("pointed".into(), p);
        r.insert(
            "context".into(),
            json!({ "headings": reading.context.headings, "before": before, "after": after }),
        );
    }
    if let Some(t) = reading.truncated {
        r.insert("truncated".into(), json!(t));
    }
    r.insert("made_at".into(), json!(reading.made_at));
    head.insert("format".into(), json!(format.name()));
    head.insert("page_text_format".into(), json!(page_format.name()));
    head.insert("page_text_chars".into(), json!(total));
    head.insert("page_text_offset".into(), json!(offset));
    // Measured with the largest next offset it could name, and the note of a cut.
    head.insert("page_text_next_offset".into(), json!(total));
    head.insert("page_text_more".into(), json!(more_note(total)));
    let mut measured = head.clone();
    measured.insert("reading".into(), Value::Object(r.clone()));
    let used = json_len(&measured) + RESERVE_BYTES + r#","page_text":"""#.len();
    let room = args.max_bytes.saturating_sub(used);
    let start = page
        .char_indices()
        .nth(offset)
        .map_or(page.len(), |(i, _)| i);
    let rest = page.get(start..).unwrap_or("");
    let cut = cut_point(rest, room, json_char_len);
    let chunk = rest.get(..cut).unwrap_or("");
    let next = offset + chunk.chars().count();
    if !page.is_empty() {
        r.insert("page_text".into(), json!(chunk));
    }
    if next < total {
        head.insert("page_text_next_offset".into(), json!(next));
        head.insert("page_text_more".into(), json!(more_note(next)));
    } else {
        head.insert("page_text_next_offset".into(), Value::Null);
        head.remove("page_text_more");
    }
    head.insert("reading".into(), Value::Object(r));
    Ok(head)
}

fn more_note(next: usize) -> String {
    format!("The page's main text goes on: call page__get_reading with this id and offset {next} for the next part (the pointed text and its context are in the first part).")
}

#[cfg(test)]
mod tests {
    use super::*;
    use apc_core::page_link::{How, Pointed, ReadingContext, ReadingMarkdown, READING_MAX_BYTES};

    fn head() -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("id".into(), json!("rd_test"));
        m.insert("untrusted".into(), json!(true));
        m
    }

    fn args(offset: Option<usize>, max_bytes: usize, format: Format) -> ReadArgs {
        ReadArgs {
            offset,
            max_bytes,
            format,
        }
    }

    fn reading(page_text: &str, markdown: Option<ReadingMarkdown>) -> PageReading {
        PageReading {
            url: "https://docs.example/guide".into(),
            title: "Guide".into(),
            lang: Some("en".into()),
            pointed: Pointed {
                text: "The pointed paragraph.".into(),
                how: How::Drop,
                targets: vec![],
                field: None,
            },
            context: ReadingContext {
                headings: vec!["Guide".into()],
                before: "Before it.".into(),
                after: "After it.".into(),
            },
            page_text: Some(page_text.into()),
            truncated: Some(true),
            made_at: "2026-11-29T00:00:00Z".into(),
            markdown,
            frame: None,
        }
    }

    #[test]
    fn a_frames_reading_names_its_frame_in_every_format() {
        let mut r = reading("Comments.", None);
        r.frame = Some(apc_core::page_link::ReadingFrame {
            url: Some("https://widget.example/comments".into()),
            origin: "https://widget.example".into(),
            title: "Comments on the story".into(),
        });
        for format in [Format::Markdown, Format::Text] {
            let a = answer(head(), &r, args(None, DEFAULT_ANSWER_BYTES, format)).unwrap();
            assert_eq!(a["reading"]["url"], "https://docs.example/guide");
            assert_eq!(
                a["reading"]["frame"],
                json!({ "url": "https://widget.example/comments", "origin": "https://widget.example",
                        "title": "Comments on the story" })
            );
        }
        let top = answer(
            head(),
            &reading("Top.", None),
            args(None, DEFAULT_ANSWER_BYTES, Format::Text),
        )
        .unwrap();
        assert!(top["reading"].get("frame").is_none());
    }

    /// Reads every part of a reading's main text in order, as an agent following
    /// `page_text_next_offset` would; checks each answer against its budget.
    fn read_all(
        r: &PageReading,
        max_bytes: usize,
        format: Format,
    ) -> (Vec<Map<String, Value>>, String) {
        let mut answers = Vec::new();
        let mut text = String::new();
        let mut offset = None;
        loop {
            let a = answer(head(), r, args(offset, max_bytes, format)).unwrap();
            let bytes = serde_json::to_string(&a).unwrap().len();
            assert!(bytes + RESERVE_BYTES <= max_bytes, "{bytes} bytes");
            text.push_str(a["reading"]["page_text"].as_str().unwrap());
            let next = a["page_text_next_offset"].as_u64().map(|n| n as usize);
            answers.push(a);
            match next {
                Some(n) => {
                    assert!(offset.is_none_or(|o| n > o), "no progress at {n}");
                    offset = Some(n);
                }
                None => break,
            }
            assert!(answers.len() < 1000);
        }
        (answers, text)
    }

    fn paragraphs(n: usize, word: &str) -> String {
        (0..n)
            .map(|i| format!("Paragraph {i} {} \"quoted\" and a\ttab.", word.repeat(40)))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    #[test]
    fn a_reading_at_its_cap_is_read_in_parts_within_the_budget_whole_and_in_order() {
        let mut page = paragraphs(2000, "word ");
        let mut r = reading(&page, None);
        // ASCII only: cut by the bytes over the cap, a little at a time near it.
        // (the JSON is a little longer than the text: its escapes)
        let json = serde_json::to_vec(&r).unwrap().len();
        let over = json - READING_MAX_BYTES;
        page.truncate(page.len() - over * page.len() / json);
        r.page_text = Some(page.clone());
        while serde_json::to_vec(&r).unwrap().len() > READING_MAX_BYTES {
            page.truncate(page.len() - 200);
            r.page_text = Some(page.clone());
        }
        assert!(serde_json::to_vec(&r).unwrap().len() > READING_MAX_BYTES - 2000);
        let (answers, text) = read_all(&r, DEFAULT_ANSWER_BYTES, Format::Markdown);
        assert_eq!(text, page);
        assert!(answers.len() >= 7, "{}", answers.len());
        // The first part has the pointed text and its context; the others only the main text.
        assert_eq!(
            answers[0]["reading"]["pointed"]["text"],
            "The pointed paragraph."
        );
        assert_eq!(answers[0]["reading"]["context"]["before"], "Before it.");
        assert!(answers[1]["reading"].get("pointed").is_none());
        assert_eq!(answers[0]["format"], "text");
        assert_eq!(answers[0]["page_text_chars"], page.chars().count());
        // Parts end between paragraphs.
        for a in &answers[..answers.len() - 1] {
            assert!(a["reading"]["page_text"]
                .as_str()
                .unwrap()
                .ends_with("\n\n"));
        }
        // A larger budget takes fewer parts.
        let (fewer, text) = read_all(&r, MAX_ANSWER_BYTES, Format::Markdown);
        assert_eq!((fewer.len(), text.as_str()), (1, page.as_str()));
    }

    #[test]
    fn a_part_never_exceeds_its_budget_whatever_the_script() {
        let page = paragraphs(300, "日本語の文 ");
        let r = reading(&page, None);
        let (answers, text) = read_all(&r, MIN_ANSWER_BYTES, Format::Text);
        assert_eq!(text, page);
        assert!(answers.len() > 20);
        let page = "\u{1}\"\\".repeat(50_000);
        let r = reading(&page, None);
        let (_, text) = read_all(&r, MIN_ANSWER_BYTES, Format::Text);
        assert_eq!(text, page);
    }

    #[test]
    fn markdown_is_read_where_the_reading_has_it_and_plain_text_on_request() {
        let md = ReadingMarkdown {
            pointed: "## The pointed paragraph".into(),
            before: "[Before](https://docs.example/b) it.".into(),
            after: "- After it.".into(),
            page: Some("# Guide\n\n```rust\nfn main() {}\n```".into()),
        };
        let r = reading("Guide\n\nfn main() {}", Some(md.clone()));
        let a = answer(
            head(),
            &r,
            args(None, DEFAULT_ANSWER_BYTES, Format::Markdown),
        )
        .unwrap();
        assert_eq!(a["format"], "markdown");
        assert_eq!(a["page_text_format"], "markdown");
        assert_eq!(a["reading"]["pointed"]["text"], "## The pointed paragraph");
        assert_eq!(a["reading"]["context"]["after"], "- After it.");
        assert_eq!(a["reading"]["page_text"], md.page.as_deref().unwrap());
        assert_eq!(a["page_text_next_offset"], Value::Null);
        assert!(a.get("page_text_more").is_none());
        let plain = answer(head(), &r, args(None, DEFAULT_ANSWER_BYTES, Format::Text)).unwrap();
        assert_eq!(plain["format"], "text");
        assert_eq!(
            plain["reading"]["pointed"]["text"],
            "The pointed paragraph."
        );
        assert_eq!(plain["reading"]["page_text"], "Guide\n\nfn main() {}");
        // Markdown of the pointed part whose page text fit only as plain text.
        let r = reading("Plain only.", Some(ReadingMarkdown { page: None, ..md }));
        let a = answer(
            head(),
            &r,
            args(None, DEFAULT_ANSWER_BYTES, Format::Markdown),
        )
        .unwrap();
        assert_eq!(
            (a["format"].as_str(), a["page_text_format"].as_str()),
            (Some("markdown"), Some("text"))
        );
        assert_eq!(a["reading"]["page_text"], "Plain only.");
    }

    #[test]
    fn a_pointed_fields_value_is_read_as_typed_with_its_kind() {
        let md = ReadingMarkdown {
            pointed: String::new(),
            before: "# Reply".into(),
            after: "After it.".into(),
            page: None,
        };
        let mut r = reading("Reply", Some(md));
        r.pointed.text = "# not a heading, *typed*".into();
        r.pointed.field = Some(apc_core::page_link::PointedField::Textarea);
        for format in [Format::Markdown, Format::Text] {
            let a = answer(head(), &r, args(None, DEFAULT_ANSWER_BYTES, format)).unwrap();
            assert_eq!(a["reading"]["pointed"]["text"], "# not a heading, *typed*");
            assert_eq!(a["reading"]["pointed"]["field"], "textarea");
        }
        let a = answer(
            head(),
            &r,
            args(None, DEFAULT_ANSWER_BYTES, Format::Markdown),
        )
        .unwrap();
        assert_eq!(a["reading"]["context"]["before"], "# Reply");
    }

    #[test]
    fn arguments_are_checked() {
        let parse = |v: Value| ReadArgs::parse(v.as_object().unwrap());
        assert_eq!(
            parse(json!({})).unwrap(),
            args(None, DEFAULT_ANSWER_BYTES, Format::Markdown)
        );
        assert_eq!(
            parse(json!({ "offset": 5, "max_bytes": 5000, "format": "text" })).unwrap(),
            args(Some(5), 5000, Format::Text)
        );
        for bad in [
            json!({ "offset": -1 }),
            json!({ "offset": "3" }),
            json!({ "offset": 1.5 }),
            json!({ "max_bytes": 10 }),
            json!({ "max_bytes": 10_000_000 }),
            json!({ "format": "html" }),
        ] {
            assert!(
                matches!(parse(bad.clone()), Err(HubError::InvalidArguments(_))),
                "{bad}"
            );
        }
        let r = reading("short", None);
        assert!(answer(
            head(),
            &r,
            args(Some(6), DEFAULT_ANSWER_BYTES, Format::Text)
        )
        .is_err());
        let end = answer(
            head(),
            &r,
            args(Some(5), DEFAULT_ANSWER_BYTES, Format::Text),
        )
        .unwrap();
        assert_eq!(end["reading"]["page_text"], "");
        assert_eq!(end["page_text_next_offset"], Value::Null);
    }

    /// A reading as the previous release stored it (its JSON has no `markdown`), in a database
    /// it made, is read as plain text.
    #[test]
    fn a_reading_the_previous_release_stored_is_read_as_plain_text() {
        let dir = tempfile::tempdir().unwrap();
        let s = crate::store::Store::open(dir.path()).unwrap();
        let a = s.add_agent("a", "t0").unwrap();
        let p = s
            .create_pairing(&a.handle, "page", &crate::secrets::hash("g"), "t1", None)
            .unwrap();
        let previous = r#"{"url":"https://example.com/a","title":"A","lang":"en","pointed":{"text":"Old pointed text","how":"selection","targets":[]},"context":{"headings":["H"],"before":"b","after":"a"},"page_text":"Old *page* text","made_at":"2026-06-01T00:00:00Z"}"#;
        let pin = crate::store::PinRow {
            pairing_id: p.id,
            reading_id: "rd_old".into(),
            app_url: "https://example.com".into(),
            pinned_at: "t2".into(),
            seen_at: None,
        };
        s.set_pin(&pin, previous).unwrap();
        drop(s);
        let s = crate::store::Store::open(dir.path()).unwrap();
        let stored = s.agent_reading(&a.handle, "rd_old").unwrap().unwrap();
        let reading: PageReading = serde_json::from_str(&stored.json).unwrap();
        assert_eq!(reading.markdown, None);
        let got = answer(
            head(),
            &reading,
            args(None, DEFAULT_ANSWER_BYTES, Format::Markdown),
        )
        .unwrap();
        assert_eq!(got["format"], "text");
        assert_eq!(got["page_text_format"], "text");
        assert_eq!(got["reading"]["pointed"]["text"], "Old pointed text");
        assert_eq!(got["reading"]["page_text"], "Old *page* text");
        assert_eq!(got["reading"]["context"]["headings"], json!(["H"]));
    }
}
