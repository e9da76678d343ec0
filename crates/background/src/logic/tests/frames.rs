//! Frames, end to end over the fakes: a drop or a selection in a frame of a page reads the frame as
//! part of its page; a frame nobody saw where the drop landed takes no drop; a frame speaks only
//! for itself.

use apc_core::page_link::How;
use serde_json::{json, Value};

use super::fakes::*;
use crate::logic::flows::{self, *};
use crate::logic::frames::{Document, DropFrame, FrameOfPage, PageSource};
use crate::logic::ports::{CollectAt, Collected, FrameSeen, FrameShown, Method};
use crate::logic::views::NoteText;

const WIDGET: &str = "https://widget.example/comments?story=1";
const WIDGET_ORIGIN: &str = "https://widget.example";

/// Frame `frame_id` of the test tab, showing `url` (of `origin`), in the page `PAGE`.
fn in_frame(frame_id: i64, url: &str, origin: &str) -> PageSource {
    PageSource {
        tab_id: TAB,
        frame_id,
        doc: Document {
            url: url.into(),
            frame: Some(FrameOfPage {
                origin: origin.into(),
                top_url: PAGE.into(),
                top_title: "An article".into(),
            }),
        },
    }
}

fn seen(visible: Option<bool>, parent: Option<i64>) -> DropFrame {
    DropFrame {
        visible,
        x: 40.0,
        y: 12.0,
        parent,
    }
}

/// The frame's own page, as its content script observes it.
fn frame_observation(how: How, url: &str) -> String {
    let mut obs: Value = serde_json::from_str(&observation(how, url)).unwrap();
    obs["title"] = json!("Comments on the story");
    obs.to_string()
}

fn drop_in(
    w: &World,
    source: &PageSource,
    seen: Option<&DropFrame>,
    ticket: &str,
) -> Flow<DropOutcome> {
    let obs = frame_observation(How::Drop, &source.doc.url);
    w.run(flows::drop(
        w,
        &w.memory,
        source,
        seen,
        &payload("ag_claude", ticket),
        &obs,
    ))
}

fn body(w: &World, path: &str) -> Value {
    let call = w.hub.calls(path).pop().expect("a call");
    serde_json::from_str(call.json_body.as_deref().unwrap()).unwrap()
}

fn note_key(w: &World) -> &'static str {
    match w.last_note().text {
        NoteText::Msg(m) => m.key,
        NoteText::Plain(_) => "plain",
    }
}

#[test]
fn a_drop_in_a_frame_reads_the_frame_as_part_of_its_page_and_the_consent_names_both_hosts() {
    let w = World::new();
    let source = in_frame(3, WIDGET, WIDGET_ORIGIN);
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) =
        drop_in(&w, &source, Some(&seen(Some(true), None)), &ticket)
    else {
        panic!("a new agent asks first")
    };
    // The app that answers for a drop on the frame is the frame's own site.
    assert!(w
        .hub
        .events
        .borrow()
        .iter()
        .any(|e| e == "asked https://widget.example/.well-known/apc.json"));
    let asked = w.run(consent_get(&w, &consent)).unwrap().consent;
    assert_eq!(asked.page_display.as_deref(), Some("example.org"));
    assert!(asked.from_frame);
    assert_eq!(asked.frame_display.as_deref(), Some("widget.example"));
    w.advance(1500);
    assert!(
        w.run(consent_answer(&w, &w.memory, &consent, true))
            .unwrap()
            .pinned
    );
    let reading = &body(&w, "/page/pair")["reading"];
    assert_eq!(reading["url"], PAGE, "the page the person is on");
    assert_eq!(reading["title"], "An article", "the tab's title");
    assert_eq!(
        reading["frame"],
        json!({ "url": WIDGET, "origin": WIDGET_ORIGIN, "title": "Comments on the story" })
    );
    assert_eq!(
        reading["pointed"]["text"],
        "Hello there, this is the text the person meant."
    );
    // The top page's own drops read as before: no frame.
    let top = w.run(flows::drop(
        &w,
        &w.memory,
        &PageSource::top(TAB, PAGE),
        None,
        &payload("ag_claude", &w.hub.mint("ag_claude")),
        &observation(How::Drop, PAGE),
    ));
    assert!(matches!(top, Ok(DropOutcome::Pinned { .. })));
    assert!(body(&w, "/page/pin")["reading"].get("frame").is_none());
    let consent_of_top = w.consents.borrow().len();
    assert_eq!(consent_of_top, 0);
}

#[test]
fn a_frame_with_no_address_of_its_own_is_named_by_its_origin() {
    let w = World::new();
    let source = in_frame(4, "about:srcdoc", "https://example.org");
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) =
        drop_in(&w, &source, Some(&seen(Some(true), None)), &ticket)
    else {
        panic!()
    };
    let asked = w.run(consent_get(&w, &consent)).unwrap().consent;
    assert_eq!(asked.frame_display.as_deref(), Some("example.org"));
    w.advance(1500);
    w.run(consent_answer(&w, &w.memory, &consent, true))
        .unwrap();
    let reading = &body(&w, "/page/pair")["reading"];
    assert_eq!(reading["url"], PAGE);
    assert_eq!(
        reading["frame"],
        json!({ "url": null, "origin": "https://example.org", "title": "Comments on the story" })
    );
    // An opaque frame (a data: URL) has no host the window could name; it is still a frame.
    let w = World::new();
    let source = in_frame(5, "data:text/html,hi", "null");
    let Ok(DropOutcome::Consent { consent }) = drop_in(
        &w,
        &source,
        Some(&seen(Some(true), None)),
        &w.hub.mint("ag_claude"),
    ) else {
        panic!()
    };
    let asked = w.run(consent_get(&w, &consent)).unwrap().consent;
    assert!(asked.from_frame);
    assert_eq!(asked.frame_display, None);
}

#[test]
fn a_frame_nobody_saw_where_the_drop_landed_takes_no_drop_and_the_page_says_why() {
    for seen_there in [Some(seen(Some(false), None)), None, Some(seen(None, None))] {
        let w = World::new();
        let source = in_frame(3, WIDGET, WIDGET_ORIGIN);
        let ticket = w.hub.mint("ag_claude");
        let out = drop_in(&w, &source, seen_there.as_ref(), &ticket);
        assert!(
            matches!(out, Err(FlowError::FrameNotSeen)),
            "{seen_there:?}: {out:?}"
        );
        assert_eq!(note_key(&w), "errFrameNotSeen");
        assert_eq!(w.ui.notes.borrow()[0].0, TAB, "said in the tab's page");
        assert!(
            w.hub.requests.borrow().is_empty(),
            "no hub and no apc.json was asked"
        );
        assert!(w.ui.opened.borrow().is_empty());
    }
}

#[test]
fn where_a_frame_cannot_tell_it_was_seen_each_frame_above_it_is_asked_up_to_the_top() {
    // Frame 9 in frame 5 in the top: 5 shows 9 at the point, the top shows 5 at the point mapped.
    let chain = |w: &World, five_shows_nine: bool, top_shows_five: bool| {
        let shown = |shown: bool, x: f64, parent: Option<i64>| FrameShown {
            shown,
            x,
            y: 20.0,
            parent,
        };
        w.ui.shown
            .borrow_mut()
            .insert((5, 9), shown(five_shows_nine, 140.0, Some(0)));
        w.ui.shown
            .borrow_mut()
            .insert((0, 5), shown(top_shows_five, 300.0, None));
    };
    let w = World::new();
    chain(&w, true, true);
    let source = in_frame(9, WIDGET, WIDGET_ORIGIN);
    let out = drop_in(
        &w,
        &source,
        Some(&seen(None, Some(5))),
        &w.hub.mint("ag_claude"),
    );
    assert!(matches!(out, Ok(DropOutcome::Consent { .. })), "{out:?}");
    assert_eq!(
        *w.ui.shown_asked.borrow(),
        vec![(5, 9, 40.0, 12.0), (0, 5, 140.0, 20.0)]
    );
    for (five, top) in [(false, true), (true, false)] {
        let w = World::new();
        chain(&w, five, top);
        let out = drop_in(
            &w,
            &source,
            Some(&seen(None, Some(5))),
            &w.hub.mint("ag_claude"),
        );
        assert!(matches!(out, Err(FlowError::FrameNotSeen)), "{five} {top}");
        assert!(w.ui.opened.borrow().is_empty());
    }
    // A frame that is not the top claiming to have no parent, a frame its own parent, a frame that
    // does not answer: not seen.
    let w = World::new();
    w.ui.shown.borrow_mut().insert(
        (5, 9),
        FrameShown {
            shown: true,
            x: 1.0,
            y: 1.0,
            parent: None,
        },
    );
    assert!(matches!(
        drop_in(&w, &source, Some(&seen(None, Some(5))), "t"),
        Err(FlowError::FrameNotSeen)
    ));
    assert!(matches!(
        drop_in(&w, &source, Some(&seen(None, Some(9))), "t"),
        Err(FlowError::FrameNotSeen)
    ));
    assert!(matches!(
        drop_in(&w, &source, Some(&seen(None, Some(6))), "t"),
        Err(FlowError::FrameNotSeen)
    ));
}

#[test]
fn a_frames_observation_must_be_that_frames_and_its_second_part_must_come_from_it() {
    let w = World::new();
    let source = in_frame(3, WIDGET, WIDGET_ORIGIN);
    // The frame's script reports the top page's address as its own: refused.
    let lying = observation(How::Drop, PAGE);
    let ticket = w.hub.mint("ag_claude");
    let out = w.run(flows::drop(
        &w,
        &w.memory,
        &source,
        Some(&seen(Some(true), None)),
        &payload("ag_claude", &ticket),
        &lying,
    ));
    assert!(matches!(out, Err(FlowError::PageUnreachable)), "{out:?}");

    // Paired; a drop in two messages from frame 3: only frame 3's second part joins it.
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) =
        drop_in(&w, &source, Some(&seen(Some(true), None)), &ticket)
    else {
        panic!()
    };
    w.advance(1500);
    w.run(consent_answer(&w, &w.memory, &consent, true))
        .unwrap();
    let first = frame_observation(How::Drop, WIDGET);
    let mut first: Value = serde_json::from_str(&first).unwrap();
    first["truncated"] = json!(true);
    let ticket = w.hub.mint("ag_claude");
    let out = w.run(flows::drop_first(
        &w,
        &w.memory,
        &source,
        Some(&seen(Some(true), None)),
        &payload("ag_claude", &ticket),
        &first.to_string(),
        "d1",
    ));
    assert!(matches!(out, Ok(DropOutcome::Pinned { .. })), "{out:?}");
    let mut page = json!(serde_json::from_str::<Value>(&page_observation(WIDGET)).unwrap());
    page["title"] = json!("Comments on the story");
    let other_frame = in_frame(4, WIDGET, WIDGET_ORIGIN);
    let top = PageSource::top(TAB, PAGE);
    for from in [&other_frame, &top] {
        let out = w.run(flows::drop_text(
            &w,
            &w.memory,
            from,
            "d1",
            &page.to_string(),
        ));
        assert!(matches!(out, Err(FlowError::UnknownDrop)), "{from:?}");
    }
    let out = w
        .run(flows::drop_text(
            &w,
            &w.memory,
            &source,
            "d1",
            &page.to_string(),
        ))
        .unwrap();
    assert_eq!(out.page_text, PageTextOutcome::Sent);
    let text = w
        .hub
        .calls("/page/pin")
        .into_iter()
        .rfind(|r| r.method == Method::Put)
        .unwrap();
    let text: Value = serde_json::from_str(text.json_body.as_deref().unwrap()).unwrap();
    assert!(
        text["page_text"]
            .as_str()
            .unwrap()
            .contains("Paragraph 0 of the article"),
        "{text}"
    );
}

/// Paired, and chosen in the popup, so the keyboard command points it.
fn paired_and_chosen(w: &World) -> String {
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = w.run(flows::drop(
        w,
        &w.memory,
        &PageSource::top(TAB, PAGE),
        None,
        &payload("ag_claude", &ticket),
        &observation(How::Drop, PAGE),
    )) else {
        panic!()
    };
    w.advance(1500);
    w.run(consent_answer(w, &w.memory, &consent, true)).unwrap();
    let id = w.state.borrow().pairings[0].id.clone();
    w.run(w_choose(w, &id));
    id
}

async fn w_choose(w: &World, id: &str) {
    use crate::logic::ports::Store;
    w.update(|s| s.choose(id)).await.unwrap();
}

fn from_frame(how: How, url: &str, origin: &str) -> Collected {
    Collected::Observation {
        json: frame_observation(how, url),
        frame: Some(FrameSeen {
            url: url.into(),
            origin: origin.into(),
        }),
    }
}

#[test]
fn the_menu_reads_the_frame_it_was_opened_in_and_the_command_follows_the_focus_down() {
    let w = World::new();
    let id = paired_and_chosen(&w);
    // The menu in frame 12: that frame is asked, and only it.
    w.ui.frame_selections.borrow_mut().push((
        CollectAt::Frame(12),
        from_frame(How::Selection, WIDGET, WIDGET_ORIGIN),
    ));
    let menu = MenuFrame {
        id: 12,
        url: Some(WIDGET.into()),
    };
    w.run(point_selection(
        &w,
        PointBy::Menu(id.clone()),
        None,
        Some(menu),
    ))
    .unwrap();
    assert_eq!(*w.ui.collected_at.borrow(), vec![CollectAt::Frame(12)]);
    let reading = &body(&w, "/page/pin")["reading"];
    assert_eq!(reading["url"], PAGE);
    assert_eq!(reading["frame"]["url"], WIDGET);
    assert_eq!(reading["pointed"]["how"], "selection");
    // The frame's own account must be the frame the browser says the menu was in.
    let elsewhere = MenuFrame {
        id: 12,
        url: Some("https://other.example/".into()),
    };
    let out = w.run(point_selection(
        &w,
        PointBy::Menu(id.clone()),
        None,
        Some(elsewhere),
    ));
    assert!(matches!(out, Err(FlowError::PageUnreachable)), "{out:?}");

    // The command: the top says the focus is in its frame 1, which says it is in its frame 0.
    let w = World::new();
    paired_and_chosen(&w);
    w.ui.frame_selections.borrow_mut().extend([
        (CollectAt::Focus, Collected::InFrame(vec![1])),
        (CollectAt::Path(vec![1]), Collected::InFrame(vec![1, 0])),
        (
            CollectAt::Path(vec![1, 0]),
            from_frame(How::Command, "about:srcdoc", "https://example.org"),
        ),
    ]);
    w.run(point_selection(&w, PointBy::Command, None, None))
        .unwrap();
    assert_eq!(
        *w.ui.collected_at.borrow(),
        vec![
            CollectAt::Focus,
            CollectAt::Path(vec![1]),
            CollectAt::Path(vec![1, 0])
        ]
    );
    let reading = &body(&w, "/page/pin")["reading"];
    assert_eq!(
        reading["frame"],
        json!({ "url": null, "origin": "https://example.org", "title": "Comments on the story" })
    );
    assert_eq!(reading["pointed"]["how"], "command");
}

#[test]
fn a_frame_speaks_only_for_its_own_place() {
    // The focus may only lead down, one frame at a time; the top is no frame, a frame says what it is.
    let cases: Vec<Vec<(CollectAt, Collected)>> = vec![
        vec![(CollectAt::Focus, Collected::InFrame(vec![1, 2]))],
        vec![
            (CollectAt::Focus, Collected::InFrame(vec![1])),
            (CollectAt::Path(vec![1]), Collected::InFrame(vec![2, 0])),
        ],
        vec![
            (CollectAt::Focus, Collected::InFrame(vec![1])),
            (CollectAt::Path(vec![1]), Collected::InFrame(vec![1])),
        ],
        vec![(
            CollectAt::Focus,
            from_frame(How::Command, WIDGET, WIDGET_ORIGIN),
        )],
        vec![
            (CollectAt::Focus, Collected::InFrame(vec![1])),
            (
                CollectAt::Path(vec![1]),
                Collected::Observation {
                    json: observation(How::Command, PAGE),
                    frame: None,
                },
            ),
        ],
    ];
    for answers in cases {
        let w = World::new();
        paired_and_chosen(&w);
        w.ui.frame_selections.borrow_mut().extend(answers.clone());
        let out = w.run(point_selection(&w, PointBy::Command, None, None));
        assert!(
            matches!(out, Err(FlowError::PageUnreachable)),
            "{answers:?}: {out:?}"
        );
    }
}
