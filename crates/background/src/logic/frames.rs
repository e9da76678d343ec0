//! Frames: which document of a tab a page event comes from (its top frame or one of its frames),
//! whether a frame the person dropped on was shown to them where the drop landed, and how a frame's
//! observation is read as part of its page.
//!
//! A frame's reading is the page the person is on, with the text from the frame: its `url` and
//! `title` are the top page's (the browser's account of the tab), its pointed text, `lang`,
//! `context` and `page_text` the frame's, and `frame` names the frame as the browser does (its own
//! http(s) URL when it has one, its origin, its title). A frame can do no more than a page can:
//! its observation must be of the frame the browser says sent it, and a drop in it counts only
//! when the frame was visible where the drop landed. That fact is collected in the frame (Chromium:
//! IntersectionObserver v2's `isVisible` at the drop point) or, where the browser has no such
//! observer (Firefox), asked of each frame above it in turn ([`PageUi::frame_shown`]: the parent's
//! content script checks the `<iframe>` element at that point); either way it is decided here.

use apc_content::Observation;
use apc_core::page_link::{PageReading, ReadingFrame};
use apc_core::reading_rules::{check_reading_url, is_frame_origin};
use apc_core::url_parse::new_url;
use apc_core::web_origin;
use serde::Deserialize;

use super::flows::FlowError;
use super::ports::{Env, PageUi};

/// The deepest a frame is followed from its tab's top (a drop's frames up, the focus's down).
pub const MAX_FRAME_DEPTH: usize = 16;

/// The document an observation is of: its URL as the browser gives it (for a frame the focus led
/// to, as that frame's content script gives it) and, for a frame, what it is a frame of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The document's own URL: an http(s) page, or for a frame also `about:blank`,
    /// `about:srcdoc`, a `data:` or a `blob:` URL.
    pub url: String,
    pub frame: Option<FrameOfPage>,
}

/// A frame, and the page (the tab's top document) it is part of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameOfPage {
    /// The frame's origin as the browser gives it (`"null"` for an opaque one).
    pub origin: String,
    /// The tab's URL and title: the page the person is on.
    pub top_url: String,
    pub top_title: String,
}

impl Document {
    /// A tab's top document.
    pub fn top(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            frame: None,
        }
    }

    /// The page the person is on: the document's own URL, or a frame's top page's.
    pub fn page_url(&self) -> &str {
        self.frame.as_ref().map_or(&self.url, |f| &f.top_url)
    }

    /// The origin whose `apc.json` says what a drop on this document gets: the document's own (a
    /// frame's address, else the origin the browser gives a frame without one); a frame with
    /// neither (an opaque `data:` frame) is read as part of its page.
    pub fn app_origin(&self) -> Option<String> {
        let own = web_origin(&self.url).map(|o| o.origin);
        let frame = self.frame.as_ref();
        own.or_else(|| frame.and_then(|f| web_origin(&f.origin).map(|o| o.origin)))
            .or_else(|| frame.and_then(|f| web_origin(&f.top_url).map(|o| o.origin)))
    }
}

/// Where a content script's message comes from: its tab, its frame there (`0`: the top) and the
/// document it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSource {
    pub tab_id: i64,
    pub frame_id: i64,
    pub doc: Document,
}

impl PageSource {
    /// A tab's top document.
    pub fn top(tab_id: i64, url: impl Into<String>) -> Self {
        Self {
            tab_id,
            frame_id: 0,
            doc: Document::top(url),
        }
    }
}

/// What a frame's content script saw of where a drop landed (`page.drop`'s `frame`): whether the
/// frame was visible at the point (`null` where the browser cannot tell the frame itself), the
/// point in the frame's viewport, and the frame's parent frame (Firefox: `runtime.getFrameId`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct DropFrame {
    #[serde(default)]
    pub visible: Option<bool>,
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub parent: Option<i64>,
}

/// A drop counts only where the person saw what they dropped on: always in a top document; in a
/// frame when the frame was visible at the drop point, as its content script saw it or, when it
/// could not tell, as every frame above it sees it there, up to the top.
pub async fn drop_was_seen<E: Env>(
    env: &E,
    source: &PageSource,
    seen: Option<&DropFrame>,
) -> Result<(), FlowError> {
    if source.doc.frame.is_none() {
        return Ok(());
    }
    let facts = seen.ok_or(FlowError::FrameNotSeen)?;
    match facts.visible {
        Some(true) => return Ok(()),
        Some(false) => return Err(FlowError::FrameNotSeen),
        None => {}
    }
    let (mut child, mut x, mut y) = (source.frame_id, facts.x, facts.y);
    // No parent to ask: nobody can say the frame was seen.
    let mut parent = facts.parent.ok_or(FlowError::FrameNotSeen)?;
    for _ in 0..MAX_FRAME_DEPTH {
        if parent == child || !x.is_finite() || !y.is_finite() {
            return Err(FlowError::FrameNotSeen);
        }
        let shown = env
            .ui()
            .frame_shown(source.tab_id, parent, child, x, y)
            .await
            .map_err(|_| FlowError::FrameNotSeen)?;
        if !shown.shown {
            return Err(FlowError::FrameNotSeen);
        }
        match shown.parent {
            // Only the tab's top frame has no parent: it answered, so every frame was seen.
            None if parent == 0 => return Ok(()),
            None => return Err(FlowError::FrameNotSeen),
            Some(next) => (child, parent, x, y) = (parent, next, shown.x, shown.y),
        }
    }
    Err(FlowError::FrameNotSeen)
}

/// Checks that an observation is of `doc`, and readies it to be read as part of its page: a top
/// document's as it is; a frame's with the top page's URL as its own (what the reading's `url` is),
/// giving back the frame as the reading will name it ([`name_frame`] finishes it).
pub fn page_of(obs: &mut Observation, doc: &Document) -> Result<Option<ReadingFrame>, FlowError> {
    let Some(frame) = &doc.frame else {
        return match same_origin(&obs.url, &doc.url) {
            true => Ok(None),
            false => Err(FlowError::PageUnreachable),
        };
    };
    let own_url = web_origin(&doc.url).is_some();
    // The frame's own account of its address must be the frame the browser says sent it. A frame
    // with no address of its own says that address, or (once its creator rewrote it with
    // document.open(), which gives it the creator's URL) a URL of the origin the browser gives it.
    let same = match own_url {
        true => same_origin(&obs.url, &doc.url),
        false => {
            obs.url == doc.url || web_origin(&obs.url).is_some_and(|o| o.origin == frame.origin)
        }
    };
    if !same || web_origin(&frame.top_url).is_none() {
        return Err(FlowError::PageUnreachable);
    }
    let origin = if is_frame_origin(&frame.origin) {
        frame.origin.clone()
    } else {
        web_origin(&doc.url).map_or_else(|| "null".to_owned(), |o| o.origin)
    };
    let named = ReadingFrame {
        url: own_url.then(|| web_address(&doc.url)).flatten(),
        origin,
        title: String::new(),
    };
    obs.url = frame.top_url.clone();
    Ok(Some(named))
}

/// A frame's reading named as part of its page: the title its top page's (the tab's), the frame's
/// own title in `frame`; a top document's reading is left as it is.
pub fn name_frame(
    reading: &mut PageReading,
    frame: Option<ReadingFrame>,
    doc: &Document,
) -> Result<(), FlowError> {
    let (Some(mut named), Some(of)) = (frame, &doc.frame) else {
        return Ok(());
    };
    named.title = std::mem::replace(
        &mut reading.title,
        apc_content::reading_title(&of.top_title),
    );
    reading.frame = Some(named);
    reading
        .check()
        .map_err(|e| FlowError::Content(apc_content::ContentError::Rule(e)))
}

/// A frame's http(s) address as a reading keeps it: without credentials, within the reading's
/// rule (RR1); `None` when it cannot be kept so.
fn web_address(raw: &str) -> Option<String> {
    let mut url = new_url(raw)?;
    url.set_username("").ok()?;
    url.set_password(None).ok()?;
    let url: String = url.into();
    check_reading_url(&url).is_ok().then_some(url)
}

/// Both are web URLs of one origin.
pub fn same_origin(a: &str, b: &str) -> bool {
    let origin = |url: &str| web_origin(url).map(|o| o.origin);
    origin(a).is_some() && origin(a) == origin(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(url: &str, origin: &str) -> Document {
        Document {
            url: url.into(),
            frame: Some(FrameOfPage {
                origin: origin.into(),
                top_url: "https://news.example/story".into(),
                top_title: "The story".into(),
            }),
        }
    }

    fn obs(url: &str) -> Observation {
        Observation::from_json(&super::super::tests::fakes::observation(
            apc_core::page_link::How::Drop,
            url,
        ))
        .unwrap()
    }

    #[test]
    fn a_frames_observation_must_be_of_the_frame_the_browser_names() {
        let doc = frame("https://widget.example/c?id=1", "https://widget.example");
        // The same origin as the browser's account: read as part of the page.
        let mut o = obs("https://widget.example/c?id=2");
        let named = page_of(&mut o, &doc).unwrap().unwrap();
        assert_eq!(o.url, "https://news.example/story");
        assert_eq!(named.url.as_deref(), Some("https://widget.example/c?id=1"));
        assert_eq!(named.origin, "https://widget.example");
        // Another origin, or a frame with no address claiming one: refused.
        for (doc, claimed) in [
            (&doc, "https://news.example/story"),
            (
                &frame("about:srcdoc", "https://news.example"),
                "https://other.example/",
            ),
            (
                &frame("about:blank", "https://news.example"),
                "about:srcdoc",
            ),
        ] {
            let mut o = obs(claimed);
            assert!(
                matches!(page_of(&mut o, doc), Err(FlowError::PageUnreachable)),
                "{claimed}"
            );
        }
        // A frame with no address of its own, rewritten by its creator with document.open(): the
        // creator's URL, of the frame's own origin; another origin's is refused.
        let doc = frame("about:blank", "https://news.example");
        let mut o = obs("https://news.example/story");
        assert_eq!(page_of(&mut o, &doc).unwrap().unwrap().url, None);
        let mut o = obs("https://other.example/");
        assert!(page_of(&mut o, &doc).is_err());
        // A frame with no address of its own: named by its origin only.
        let doc = frame("about:srcdoc", "https://news.example");
        let mut o = obs("about:srcdoc");
        let named = page_of(&mut o, &doc).unwrap().unwrap();
        assert_eq!(
            (named.url, named.origin.as_str()),
            (None, "https://news.example")
        );
        // An origin the browser gave that is no origin is the frame's address's, else opaque.
        let doc = frame("https://u:p@widget.example/c", "widget.example");
        let mut o = obs("https://widget.example/c");
        let named = page_of(&mut o, &doc).unwrap().unwrap();
        assert_eq!(named.origin, "https://widget.example");
        assert_eq!(
            named.url.as_deref(),
            Some("https://widget.example/c"),
            "no credentials"
        );
        let doc = frame("data:text/html,hi", "");
        let mut o = obs("data:text/html,hi");
        assert_eq!(page_of(&mut o, &doc).unwrap().unwrap().origin, "null");
    }

    #[test]
    fn the_app_that_answers_for_a_drop_is_the_documents_own() {
        assert_eq!(
            frame("https://widget.example/c", "null")
                .app_origin()
                .as_deref(),
            Some("https://widget.example")
        );
        assert_eq!(
            frame("about:srcdoc", "https://mail.example")
                .app_origin()
                .as_deref(),
            Some("https://mail.example")
        );
        assert_eq!(
            frame("data:text/html,x", "null").app_origin().as_deref(),
            Some("https://news.example")
        );
        assert_eq!(
            Document::top("https://a.example/x").app_origin().as_deref(),
            Some("https://a.example")
        );
    }
}
