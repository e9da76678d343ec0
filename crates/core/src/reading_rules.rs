//! The one rule set for a page reading ([`PageReading::check`]): what makes a reading acceptable,
//! checked by the extension's reader (`apc-content`, before it hands a reading out) and by the hub
//! (before it pins one), so the two sides can never disagree on a page's URL, its number of
//! targets or its sizes.
//!
//! Rules:
//! - RR1 the URL is an absolute `http` or `https` URL with a host, at most [`READING_URL_MAX_BYTES`],
//!   without credentials;
//! - RR2 at most [`READING_MAX_TARGETS`] targets;
//! - RR3 the title at most [`READING_TITLE_MAX_CHARS`] characters, the lang at most
//!   [`READING_LANG_MAX_BYTES`] bytes of letters, digits and hyphens, at most
//!   [`READING_MAX_HEADINGS`] headings of at most [`READING_HEADING_MAX_CHARS`] characters;
//! - RR4 the pointed text is not blank;
//! - RR5 `made_at` is 1 to 64 printable ASCII characters;
//! - RR6 the whole reading's JSON takes at most [`READING_MAX_BYTES`];
//! - RR7 a reading from a frame (`frame`) names it as the browser does: its own URL, when it has
//!   one, passes RR1; its origin is `"null"` or an http(s) origin, at most
//!   [`READING_ORIGIN_MAX_BYTES`]; its title is capped as RR3 caps the page's.

use crate::page_link::{PageReading, ReadingFrame, READING_MAX_BYTES};

/// Most bytes of a reading's URL (RR1). Browsers allow longer; pages with URLs over 4 KiB exist.
pub const READING_URL_MAX_BYTES: usize = 8 * 1024;
/// Most targets a reading carries (RR2).
pub const READING_MAX_TARGETS: usize = 20;
/// Most characters of a reading's title (RR3).
pub const READING_TITLE_MAX_CHARS: usize = 512;
/// Most bytes of a reading's lang tag (RR3; BCP 47 tags are at most 35 in practice).
pub const READING_LANG_MAX_BYTES: usize = 35;
/// Most headings in a reading's path (RR3): h1-h6 plus deeper ARIA levels.
pub const READING_MAX_HEADINGS: usize = 9;
/// Most characters of one heading (RR3).
pub const READING_HEADING_MAX_CHARS: usize = 200;

/// Most bytes of a frame's origin (RR7): a scheme, a host of at most 253 bytes and a port.
pub const READING_ORIGIN_MAX_BYTES: usize = 300;

/// Why a reading is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadingError {
    #[error("the reading's url is not an http(s) page URL")]
    Url,
    #[error("the reading's url is longer than {READING_URL_MAX_BYTES} bytes")]
    UrlTooLong,
    #[error("the reading's url carries credentials")]
    UrlCredentials,
    #[error("the reading has more than {READING_MAX_TARGETS} targets")]
    TooManyTargets,
    #[error("the reading's {0} is over its cap")]
    TooLarge(&'static str),
    #[error("the reading's lang is not a language tag")]
    Lang,
    #[error("the reading points at no text")]
    NothingPointed,
    #[error("the reading's made_at is not a timestamp")]
    MadeAt,
    #[error("the reading's frame is not named as a browser names a frame")]
    Frame,
}

impl ReadingError {
    /// Whether the whole reading is over [`READING_MAX_BYTES`] (RR6): the page link answers that
    /// `413 too_large`, every other broken rule `400 invalid_request`.
    pub fn is_over_the_reading_cap(&self) -> bool {
        matches!(self, Self::TooLarge(WHOLE_READING))
    }
}

/// The name RR6 gives the whole reading in [`ReadingError::TooLarge`].
const WHOLE_READING: &str = "reading";

impl PageReading {
    /// Checks every rule of a reading (RR1-RR7, see the module docs).
    pub fn check(&self) -> Result<(), ReadingError> {
        check_reading_url(&self.url)?;
        if self.pointed.targets.len() > READING_MAX_TARGETS {
            return Err(ReadingError::TooManyTargets);
        }
        if self.title.chars().count() > READING_TITLE_MAX_CHARS {
            return Err(ReadingError::TooLarge("title"));
        }
        if let Some(lang) = &self.lang {
            if !is_lang_tag(lang) {
                return Err(ReadingError::Lang);
            }
        }
        let headings = &self.context.headings;
        if headings.len() > READING_MAX_HEADINGS
            || headings
                .iter()
                .any(|h| h.chars().count() > READING_HEADING_MAX_CHARS)
        {
            return Err(ReadingError::TooLarge("heading path"));
        }
        if self.pointed.text.trim().is_empty() {
            return Err(ReadingError::NothingPointed);
        }
        let m = &self.made_at;
        if m.is_empty() || m.len() > 64 || !m.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ReadingError::MadeAt);
        }
        if let Some(frame) = &self.frame {
            check_reading_frame(frame)?;
        }
        let json = serde_json::to_vec(self).map_err(|_| ReadingError::TooLarge(WHOLE_READING))?;
        if json.len() > READING_MAX_BYTES {
            return Err(ReadingError::TooLarge(WHOLE_READING));
        }
        Ok(())
    }
}

/// RR1 on its own: an absolute http(s) URL with a host, no credentials, at most
/// [`READING_URL_MAX_BYTES`].
pub fn check_reading_url(raw: &str) -> Result<(), ReadingError> {
    if raw.len() > READING_URL_MAX_BYTES {
        return Err(ReadingError::UrlTooLong);
    }
    let url = crate::url_parse::new_url(raw).ok_or(ReadingError::Url)?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(ReadingError::Url);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ReadingError::UrlCredentials);
    }
    Ok(())
}

/// RR7 on its own: a frame as the browser names it.
pub fn check_reading_frame(frame: &ReadingFrame) -> Result<(), ReadingError> {
    if let Some(url) = &frame.url {
        check_reading_url(url).map_err(|_| ReadingError::Frame)?;
    }
    if !is_frame_origin(&frame.origin) {
        return Err(ReadingError::Frame);
    }
    if frame.title.chars().count() > READING_TITLE_MAX_CHARS {
        return Err(ReadingError::TooLarge("frame title"));
    }
    Ok(())
}

/// `"null"`, or the serialization of an http(s) origin (scheme, host, a port that is not the
/// default; no path), at most [`READING_ORIGIN_MAX_BYTES`].
pub fn is_frame_origin(origin: &str) -> bool {
    origin == "null"
        || (origin.len() <= READING_ORIGIN_MAX_BYTES
            && crate::web_origin(origin).is_some_and(|o| o.origin == origin))
}

/// A language tag as a reading carries it: letters, digits and hyphens, starting with a letter.
pub fn is_lang_tag(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= READING_LANG_MAX_BYTES
        && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page_link::{How, Pointed, ReadingContext};
    use crate::types::FocusTarget;

    fn reading() -> PageReading {
        PageReading {
            url: "https://example.com/a".into(),
            title: "A".into(),
            lang: Some("en-GB".into()),
            pointed: Pointed {
                text: "hello".into(),
                how: How::Drop,
                targets: vec![],
                field: None,
            },
            context: ReadingContext::default(),
            page_text: None,
            truncated: None,
            made_at: "2026-11-29T00:00:00Z".into(),
            markdown: None,
            frame: None,
        }
    }

    #[test]
    fn a_plain_reading_passes() {
        assert_eq!(reading().check(), Ok(()));
    }

    #[test]
    fn rr1_only_http_and_https_urls_with_a_host() {
        for bad in [
            "file:///etc/passwd",
            "ftp://e.com/",
            "javascript:alert(1)",
            "data:,x",
            "not a url",
            "https://",
        ] {
            let mut r = reading();
            r.url = bad.into();
            assert!(r.check().is_err(), "{bad}");
        }
        let mut r = reading();
        r.url = "http://127.0.0.1:8080/x?y#z".into();
        assert_eq!(r.check(), Ok(()));
        r.url = "https://user:pw@e.com/".into();
        assert_eq!(r.check(), Err(ReadingError::UrlCredentials));
    }

    #[test]
    fn rr1_urls_between_4_and_8_kib_pass_and_longer_fail() {
        let mut r = reading();
        r.url = format!("https://e.com/?q={}", "a".repeat(6000));
        assert_eq!(r.check(), Ok(()));
        r.url = format!("https://e.com/?q={}", "a".repeat(READING_URL_MAX_BYTES));
        assert_eq!(r.check(), Err(ReadingError::UrlTooLong));
    }

    #[test]
    fn rr2_at_most_20_targets() {
        let t = |i: usize| FocusTarget {
            kind: "doc".into(),
            id: Some(format!("d{i}")),
            part: None,
            params: None,
        };
        let mut r = reading();
        r.pointed.targets = (0..READING_MAX_TARGETS).map(t).collect();
        assert_eq!(r.check(), Ok(()));
        r.pointed.targets.push(t(99));
        assert_eq!(r.check(), Err(ReadingError::TooManyTargets));
    }

    #[test]
    fn rr3_title_lang_and_headings_are_capped() {
        let mut r = reading();
        r.title = "é".repeat(READING_TITLE_MAX_CHARS);
        assert_eq!(r.check(), Ok(()));
        r.title.push('x');
        assert!(r.check().is_err());
        let mut r = reading();
        r.lang = Some("en_US".into());
        assert_eq!(r.check(), Err(ReadingError::Lang));
        let mut r = reading();
        r.context.headings = vec!["h".into(); READING_MAX_HEADINGS + 1];
        assert!(r.check().is_err());
    }

    #[test]
    fn rr4_rr5_pointed_text_and_made_at() {
        let mut r = reading();
        r.pointed.text = " \n ".into();
        assert_eq!(r.check(), Err(ReadingError::NothingPointed));
        let mut r = reading();
        r.made_at = String::new();
        assert_eq!(r.check(), Err(ReadingError::MadeAt));
    }

    #[test]
    fn rr6_the_whole_reading_fits_its_cap() {
        let mut r = reading();
        r.page_text = Some("x".repeat(READING_MAX_BYTES));
        let e = r.check().unwrap_err();
        assert_eq!(e, ReadingError::TooLarge("reading"));
        assert!(e.is_over_the_reading_cap());
        r.page_text = None;
        r.title = "t".repeat(READING_TITLE_MAX_CHARS + 1);
        assert!(!r.check().unwrap_err().is_over_the_reading_cap());
    }

    #[test]
    fn rr7_a_frame_is_named_as_the_browser_names_it() {
        let frame = |url: Option<&str>, origin: &str| ReadingFrame {
            url: url.map(str::to_owned),
            origin: origin.into(),
            title: "Comments".into(),
        };
        for good in [
            frame(
                Some("https://widget.example/c?id=3"),
                "https://widget.example",
            ),
            frame(None, "https://example.com"),
            frame(None, "http://127.0.0.1:8080"),
            // A sandboxed frame of a site, or a data: URL: an opaque origin.
            frame(Some("https://widget.example/c"), "null"),
            frame(None, "null"),
        ] {
            let mut r = reading();
            r.frame = Some(good.clone());
            assert_eq!(r.check(), Ok(()), "{good:?}");
        }
        for bad in [
            frame(Some("about:srcdoc"), "https://example.com"),
            frame(Some("data:text/html,hi"), "null"),
            frame(
                Some("https://u:p@widget.example/"),
                "https://widget.example",
            ),
            frame(None, "https://example.com/path"),
            frame(None, "https://Example.com"),
            frame(None, "ftp://example.com"),
            frame(None, ""),
            frame(
                None,
                &format!("https://{}.example", "a".repeat(READING_ORIGIN_MAX_BYTES)),
            ),
        ] {
            let mut r = reading();
            r.frame = Some(bad.clone());
            assert_eq!(r.check(), Err(ReadingError::Frame), "{bad:?}");
        }
        let mut r = reading();
        let mut long = frame(None, "null");
        long.title = "t".repeat(READING_TITLE_MAX_CHARS + 1);
        r.frame = Some(long);
        assert_eq!(r.check(), Err(ReadingError::TooLarge("frame title")));
    }

    /// A reading as the extension's previous release pinned it (no `frame`; the hub keeps it as
    /// JSON) still reads and passes every rule, and writes back without a `frame` key.
    #[test]
    fn a_reading_the_previous_release_pinned_still_reads() {
        let pinned = r#"{"url":"https://example.com/guide","title":"Guide","lang":"en","pointed":{"text":"Raised beds water themselves.","how":"drop","targets":[{"kind":"doc","id":"garden","part":null,"params":null}]},"context":{"headings":["Guide","Install"],"before":"Pick a spot.","after":"Check the soil."},"page_text":"Pick a spot. Raised beds water themselves.","made_at":"2026-11-29T00:00:00Z"}"#;
        let reading: PageReading = serde_json::from_str(pinned).unwrap();
        assert_eq!(reading.frame, None);
        assert_eq!(reading.check(), Ok(()));
        assert_eq!(serde_json::to_string(&reading).unwrap(), pinned);
    }
}
