//! Every flow, end to end over the fakes.

use apc_core::page_link::How;
use apc_core::pairing_code::pairing_code_display;
use serde_json::Value;

use super::fakes::*;
use crate::logic::flows::{self, *};
use crate::logic::frames::PageSource;
use crate::logic::ports::{Collected, HttpRequest, Method, Tab};
use crate::logic::state::{GiveBackStatus, HubState, TryBy, GIVE_BACK_MAX_ATTEMPTS};
use crate::logic::views::{
    Badge, GiveBackView, HubMark, NoteKind, NoteText, PinView, PointBlocked,
};

fn drop_with(w: &World, agent: &str, ticket: &str) -> Flow<DropOutcome> {
    w.run(flows::drop(
        w,
        &w.memory,
        &PageSource::top(TAB, PAGE),
        None,
        &payload(agent, ticket),
        &observation(How::Drop, PAGE),
    ))
}

fn body(r: &HttpRequest) -> Value {
    serde_json::from_str(r.json_body.as_deref().unwrap()).unwrap()
}

/// Drops Claude's mark with a fresh ticket, allows it after the delay: one pairing, pinned.
fn paired_by_drop(w: &World) -> String {
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(w, "ag_claude", &ticket) else {
        panic!("a new agent asks first")
    };
    w.advance(1500);
    let answer = w.run(consent_answer(w, &w.memory, &consent, true)).unwrap();
    assert!(answer.paired && answer.pinned);
    w.state.borrow().pairings[0].id.clone()
}

#[test]
fn drop_then_consent_then_pin_spends_the_drags_ticket_once() {
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_claude", &ticket) else {
        panic!()
    };
    assert_eq!(*w.ui.opened.borrow(), vec![consent.clone()]);
    assert!(
        w.state.borrow().pairings.is_empty(),
        "nothing paired before Allow"
    );
    assert!(matches!(w.last_note().text, NoteText::Msg(ref m) if m.key == "noteAnswerInWindow"));

    let asked = w.run(consent_get(&w, &consent)).unwrap().consent;
    assert!(asked.hub_new, "never paired with this hub");
    assert!(asked.hub_loopback);
    assert_eq!(asked.hub_display, "127.0.0.1:7410");
    assert_eq!(asked.agent_name, "Claude");
    assert_eq!(asked.page_display.as_deref(), Some("example.org"));
    assert_eq!(asked.allow_after_ms, 1000);

    // An Allow before the window could have been seen for a moment is refused, and keeps the request.
    assert!(matches!(
        w.run(consent_answer(&w, &w.memory, &consent, true)),
        Err(FlowError::AllowTooSoon)
    ));
    assert!(w
        .hub
        .calls("/page/pair")
        .iter()
        .all(|r| r.method == Method::Get));
    w.advance(1000);
    let answer = w
        .run(consent_answer(&w, &w.memory, &consent, true))
        .unwrap();
    assert!(answer.paired && answer.pinned);

    // One POST carrying the ticket and the reading; no separate PUT pin.
    let posts: Vec<_> = w
        .hub
        .calls("/page/pair")
        .into_iter()
        .filter(|r| r.method == Method::Post)
        .collect();
    assert_eq!(posts.len(), 1);
    assert_eq!(body(&posts[0])["ticket"], ticket.as_str());
    assert_eq!(body(&posts[0])["reading"]["pointed"]["how"], "drop");
    assert!(w.hub.calls("/page/pin").is_empty());

    let state = w.state.borrow().clone();
    let record = &state.pairings[0];
    assert!(record.pin.is_some());
    assert!(w.grants.borrow().contains_key(&record.id));
    assert_eq!(
        state.last_used, None,
        "a drop pairing is no command default"
    );
    let note = w.last_note();
    assert_eq!(note.kind, NoteKind::Pointed);
    let token = note.undo_token.unwrap();
    assert_eq!(
        parse_undo_token(&token),
        Some((record.id.as_str(), record.pin.as_ref().unwrap().id.as_str()))
    );
    assert_eq!(w.ui.toolbar.borrow().as_ref().unwrap().badge, Badge::Unread);
    // A second request for the answered consent finds nothing.
    assert!(matches!(
        w.run(consent_get(&w, &consent)),
        Err(FlowError::UnknownConsent)
    ));
}

#[test]
fn a_second_drop_pins_with_its_own_fresh_ticket_without_asking_again() {
    let w = World::new();
    paired_by_drop(&w);
    let second = w.hub.mint("ag_claude");
    let out = drop_with(&w, "ag_claude", &second).unwrap();
    assert!(matches!(out, DropOutcome::Pinned { .. }));
    assert_eq!(w.ui.opened.borrow().len(), 1, "no second consent window");
    let puts = w.hub.calls("/page/pin");
    assert_eq!(puts.len(), 1);
    assert_eq!(puts[0].method, Method::Put);
    assert_eq!(body(&puts[0])["ticket"], second.as_str());
    assert!(puts[0].bearer.is_some());
}

#[test]
fn a_drops_reading_is_made_while_the_pages_apc_json_request_is_out() {
    // Issue 10: the page's apc.json check is a network round trip on every drop; the reading is
    // built in that time instead of after it. The reading reads the clock once (its `made_at`).
    let w = World::new();
    paired_by_drop(&w);
    // The pairing drop's answer no longer stands: this drop asks again.
    w.advance(apc_core::drop_answer::APP_CHECK_REUSE_MS);
    w.hub.events.borrow_mut().clear();
    w.hub.site_latency.set(2);
    let ticket = w.hub.mint("ag_claude");
    let out = drop_with(&w, "ag_claude", &ticket).unwrap();
    assert!(matches!(out, DropOutcome::Pinned { .. }));
    let events = w.hub.events.borrow().clone();
    let at = |prefix: &str| {
        events
            .iter()
            .position(|e| e.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {events:?}"))
    };
    // (The first clock read is the kept answers' look-up, before the request.)
    let asked = at("asked");
    let reading_clock = events
        .iter()
        .skip(asked)
        .position(|e| e.starts_with("clock"))
        .map(|i| i + asked)
        .unwrap_or_else(|| panic!("no clock read after the request: {events:?}"));
    assert!(
        reading_clock < at("answered"),
        "the reading waited for the answer: {events:?}"
    );
}

/// How many times the page's origin was asked for its apc.json.
fn apc_json_asks(w: &World) -> usize {
    w.hub
        .requests
        .borrow()
        .iter()
        .filter(|r| !r.url.starts_with(HUB) && r.url.ends_with("/.well-known/apc.json"))
        .count()
}

#[test]
fn a_pages_apc_json_answer_stands_for_later_drops_on_its_origin_for_a_while() {
    // Issue 10: the apc.json round trip came before every pin; a person pointing at one page
    // again waits for it once per APP_CHECK_REUSE_MS.
    let w = World::new();
    paired_by_drop(&w);
    let asked = apc_json_asks(&w);
    assert_eq!(asked, 1);
    let second = w.hub.mint("ag_claude");
    let out = drop_with(&w, "ag_claude", &second).unwrap();
    assert!(matches!(out, DropOutcome::Pinned { .. }));
    assert_eq!(apc_json_asks(&w), 1, "the answer was reused");
    // Past its time the origin is asked again.
    w.advance(apc_core::drop_answer::APP_CHECK_REUSE_MS);
    let third = w.hub.mint("ag_claude");
    assert!(matches!(
        drop_with(&w, "ag_claude", &third).unwrap(),
        DropOutcome::Pinned { .. }
    ));
    assert_eq!(apc_json_asks(&w), 2);
}

#[test]
fn a_failure_to_read_a_pages_apc_json_is_asked_again_on_the_next_drop() {
    let w = World::new();
    let origin = "https://example.org";
    w.hub
        .sites
        .borrow_mut()
        .insert(origin.into(), (503, "busy".into()));
    let ticket = w.hub.mint("ag_claude");
    assert!(matches!(
        drop_with(&w, "ag_claude", &ticket).unwrap(),
        DropOutcome::Answered { .. }
    ));
    // The site is back: the next drop asks and goes on to the consent.
    w.hub.sites.borrow_mut().remove(origin);
    let again = w.hub.mint("ag_claude");
    assert!(matches!(
        drop_with(&w, "ag_claude", &again).unwrap(),
        DropOutcome::Consent { .. }
    ));
    assert_eq!(apc_json_asks(&w), 2);
}

#[test]
fn a_replayed_or_stale_ticket_pins_nothing_and_says_so() {
    let w = World::new();
    let first = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_claude", &first) else {
        panic!()
    };
    w.advance(1000);
    w.run(consent_answer(&w, &w.memory, &consent, true))
        .unwrap();
    let pin_before = w.hub.pin_of("ag_claude");

    // The page saw the person's drop and replays its payload.
    let replay = drop_with(&w, "ag_claude", &first).unwrap_err();
    assert_eq!(replay.code(), "ticket_used");
    assert_eq!(w.last_note().kind, NoteKind::Error);
    // A ticket the hub never minted.
    let stale = drop_with(&w, "ag_claude", "TK000000000000000999").unwrap_err();
    assert_eq!(stale.code(), "ticket_unknown");
    // Another agent's fresh ticket does not pin for this agent.
    let cursors = w.hub.mint("ag_cursor");
    let mut w_payload = serde_json::from_str::<Value>(&payload("ag_claude", &cursors)).unwrap();
    w_payload["agent"] = "ag_claude".into();
    let other = w
        .run(flows::drop(
            &w,
            &w.memory,
            &PageSource::top(TAB, PAGE),
            None,
            &w_payload.to_string(),
            &observation(How::Drop, PAGE),
        ))
        .unwrap_err();
    assert_eq!(other.code(), "ticket_unknown");

    assert_eq!(w.hub.pin_of("ag_claude"), pin_before, "nothing pinned");
    let state = w.state.borrow();
    assert!(
        state.pairings[0].is_live(),
        "a refused drop says nothing of the pairing"
    );
    assert!(w.grants.borrow().contains_key(&state.pairings[0].id));
}

#[test]
fn a_drop_without_a_ticket_or_with_a_bad_payload_reaches_no_hub() {
    let w = World::new();
    for bad in [
        r#"{"v":1,"agent":"ag_claude"}"#.to_owned(),
        "not json".to_owned(),
        r#"{"v":2,"agent":"ag_claude"}"#.to_owned(),
        format!(
            r#"{{"v":1,"agent":"https://evil.example/mcp","hub":"{HUB}","ticket":"TK000000000000000001"}}"#
        ),
        r#"{"v":1,"agent":"a","hub":"javascript:alert(1)","ticket":"TK000000000000000001"}"#
            .to_owned(),
    ] {
        let e = w
            .run(flows::drop(
                &w,
                &w.memory,
                &PageSource::top(TAB, PAGE),
                None,
                &bad,
                &observation(How::Drop, PAGE),
            ))
            .unwrap_err();
        assert_eq!(e.code(), "invalid_payload", "{bad}");
    }
    assert!(w.hub.requests.borrow().is_empty());
    assert!(w.ui.opened.borrow().is_empty());
}

#[test]
fn a_ticket_made_for_another_agent_opens_no_consent() {
    let w = World::new();
    let cursors = w.hub.mint("ag_cursor");
    let e = drop_with(&w, "ag_claude", &cursors).unwrap_err();
    assert_eq!(e.code(), "invalid_payload");
    assert!(w.ui.opened.borrow().is_empty());
}

#[test]
fn the_reading_must_be_the_senders_page_and_a_drop() {
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let elsewhere = w
        .run(flows::drop(
            &w,
            &w.memory,
            &PageSource::top(TAB, PAGE),
            None,
            &payload("ag_claude", &ticket),
            &observation(How::Drop, "https://bank.example/"),
        ))
        .unwrap_err();
    assert_eq!(elsewhere.code(), "page_unreachable");
    let not_a_drop = w
        .run(flows::drop(
            &w,
            &w.memory,
            &PageSource::top(TAB, PAGE),
            None,
            &payload("ag_claude", &ticket),
            &observation(How::Selection, PAGE),
        ))
        .unwrap_err();
    assert_eq!(not_a_drop.code(), "page_unreachable");
    let not_web = w
        .run(flows::drop(
            &w,
            &w.memory,
            &PageSource::top(TAB, "chrome://settings"),
            None,
            &payload("ag_claude", &ticket),
            &observation(How::Drop, PAGE),
        ))
        .unwrap_err();
    assert_eq!(not_web.code(), "not_a_web_page");
}

#[test]
fn a_drop_on_a_direct_only_app_gets_the_extensions_note_and_pairs_nothing() {
    let w = World::new();
    let origin = "https://example.org";
    w.hub.sites.borrow_mut().insert(
        origin.into(),
        (
            200,
            serde_json::json!({ "name": "Signals", "standard": "0.7.0", "origin": origin,
                "profiles": ["direct"], "mcp": { "path": apc_core::APC_DEFAULT_MCP_PATH },
                "direct": { "connect": format!("{origin}/connect") } })
            .to_string(),
        ),
    );
    let ticket = w.hub.mint("ag_claude");
    let out = drop_with(&w, "ag_claude", &ticket).unwrap();
    let DropOutcome::Answered { link, .. } = out else {
        panic!()
    };
    assert_eq!(link.as_deref(), Some("https://example.org/connect"));
    assert_eq!(w.last_note().kind, NoteKind::Note);
    assert!(w.hub.calls(HUB).is_empty(), "the hub is not asked");
}

#[test]
fn dont_allow_and_closing_the_window_pair_nothing() {
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_claude", &ticket) else {
        panic!()
    };
    let out = w
        .run(consent_answer(&w, &w.memory, &consent, false))
        .unwrap();
    assert!(!out.paired);
    assert_eq!(w.hub.live_pairings(), 0);

    let again = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_claude", &again) else {
        panic!()
    };
    let window = *w.windows.borrow().keys().last().unwrap();
    w.run(window_closed(&w, &w.memory, window)).unwrap();
    assert!(w.consents.borrow().get(&consent).is_none());
    assert_eq!(w.hub.live_pairings(), 0);
    assert!(w.state.borrow().pairings.is_empty());
}

#[test]
fn undo_unpins_that_pin_only() {
    let w = World::new();
    paired_by_drop(&w);
    let token = w.last_note().undo_token.unwrap();
    let out = w.run(undo(&w, TAB, &token)).unwrap();
    assert!(out.unpinned);
    assert_eq!(w.hub.pin_of("ag_claude"), None);
    assert!(w.state.borrow().pairings[0].pin.is_none());
    // Undo again: that pin is gone; nothing else is touched.
    assert!(!w.run(undo(&w, TAB, &token)).unwrap().unpinned);
    // A token that is not ours.
    assert!(w.run(undo(&w, TAB, "a:b:c")).is_err());
}

#[test]
fn a_pairing_id_with_a_colon_is_refused_so_undo_cannot_break() {
    let w = World::new();
    *w.hub.next_pairing_id.borrow_mut() = Some("pr:1".into());
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_claude", &ticket) else {
        panic!()
    };
    w.advance(1000);
    let e = w
        .run(consent_answer(&w, &w.memory, &consent, true))
        .unwrap_err();
    assert_eq!(e.code(), "hub_bad_answer");
    assert!(w.state.borrow().pairings.is_empty());
    assert!(w.grants.borrow().is_empty());
}

#[test]
fn point_by_popup_menu_and_command() {
    let w = World::new();
    let id = paired_by_drop(&w);
    *w.ui.selection.borrow_mut() = Some(Collected::Observation {
        json: observation(How::Selection, PAGE),
        frame: None,
    });

    // The command does not point a pairing a drop made until the person chose it.
    let e = w
        .run(point_selection(&w, PointBy::Command, None, None))
        .unwrap_err();
    assert!(matches!(e, FlowError::NoCommandDefault));
    assert_eq!(w.last_note().kind, NoteKind::Error);

    w.run(point_selection(&w, PointBy::Popup(id.clone()), None, None))
        .unwrap();
    let put = w.hub.calls("/page/pin").pop().unwrap();
    assert_eq!(
        body(&put)["ticket"],
        Value::Null,
        "a selection carries no ticket"
    );
    assert_eq!(body(&put)["reading"]["pointed"]["how"], "selection");
    assert_eq!(w.state.borrow().last_used.as_deref(), Some(id.as_str()));

    *w.ui.selection.borrow_mut() = Some(Collected::Observation {
        json: observation(How::Command, PAGE),
        frame: None,
    });
    w.run(point_selection(&w, PointBy::Command, None, None))
        .unwrap();
    let put = w.hub.calls("/page/pin").pop().unwrap();
    assert_eq!(body(&put)["reading"]["pointed"]["how"], "command");

    *w.ui.selection.borrow_mut() = Some(Collected::Observation {
        json: observation(How::Selection, PAGE),
        frame: None,
    });
    let tab = Tab {
        id: 9,
        url: PAGE.into(),
        title: "An article".into(),
    };
    w.run(point_selection(
        &w,
        PointBy::Menu(id.clone()),
        Some(tab),
        None,
    ))
    .unwrap();
    assert_eq!(w.ui.notes.borrow().last().unwrap().0, 9);
    assert_eq!(w.hub.calls("/page/pin").len(), 3);
}

#[test]
fn pointing_says_why_not() {
    let w = World::new();
    assert!(matches!(
        w.run(point_selection(&w, PointBy::Command, None, None)),
        Err(FlowError::NoPairing)
    ));
    let id = paired_by_drop(&w);
    *w.ui.selection.borrow_mut() = Some(Collected::Refused("no_selection".into()));
    assert!(matches!(
        w.run(point_selection(&w, PointBy::Popup(id.clone()), None, None)),
        Err(FlowError::NoSelection)
    ));
    *w.ui.selection.borrow_mut() = None;
    assert!(matches!(
        w.run(point_selection(&w, PointBy::Popup(id.clone()), None, None)),
        Err(FlowError::PageUnreachable)
    ));
    // A content script that answers a selection with a "drop" cannot skip the ticket.
    *w.ui.selection.borrow_mut() = Some(Collected::Observation {
        json: observation(How::Drop, PAGE),
        frame: None,
    });
    assert!(matches!(
        w.run(point_selection(&w, PointBy::Popup(id.clone()), None, None)),
        Err(FlowError::PageUnreachable)
    ));
    let chrome = Tab {
        id: 3,
        url: "chrome://newtab".into(),
        ..Tab::default()
    };
    assert!(matches!(
        w.run(point_selection(&w, PointBy::Popup(id), Some(chrome), None)),
        Err(FlowError::NotAWebPage)
    ));
    assert!(matches!(
        w.run(point_selection(
            &w,
            PointBy::Menu("pr_gone".into()),
            None,
            None
        )),
        Err(FlowError::UnknownPairing)
    ));
}

#[test]
fn pair_by_code_asks_then_pairs_and_becomes_the_commands_default() {
    let w = World::new();
    let ticket = w.hub.mint("ag_cursor");
    let typed = pairing_code_display(&ticket).to_lowercase();
    let opened = w.run(pair_code(&w, " 127.0.0.1:7410 ", &typed)).unwrap();
    let asked = w.run(consent_get(&w, &opened.consent)).unwrap().consent;
    assert_eq!(asked.how, crate::logic::state::PairedBy::Code);
    assert_eq!(asked.agent_name, "Cursor");
    w.advance(1000);
    let out = w
        .run(consent_answer(&w, &w.memory, &opened.consent, true))
        .unwrap();
    assert!(out.paired && !out.pinned);
    let state = w.state.borrow().clone();
    assert_eq!(state.command_default().unwrap().agent_handle, "ag_cursor");
    // The typed code was spent as the ticket.
    let post = w
        .hub
        .calls("/page/pair")
        .into_iter()
        .find(|r| r.method == Method::Post)
        .unwrap();
    assert_eq!(body(&post)["ticket"], ticket.as_str());
    assert_eq!(body(&post)["reading"], Value::Null);
}

#[test]
fn pair_by_code_errors_name_their_field() {
    let w = World::new();
    let e = w.run(pair_code(&w, "ftp://x", "ABCDE")).unwrap_err();
    assert_eq!((e.code(), e.field()), ("hub_invalid", Some("hub")));
    let e = w.run(pair_code(&w, HUB, "not a code")).unwrap_err();
    assert_eq!((e.code(), e.field()), ("code_invalid", Some("code")));
    let e = w
        .run(pair_code(&w, HUB, "00000-00000-00000-00000"))
        .unwrap_err();
    assert_eq!((e.code(), e.field()), ("ticket_unknown", Some("code")));
    w.hub.mode.set(HubMode::Down);
    let ticket = w.hub.mint("ag_claude");
    let e = w.run(pair_code(&w, HUB, &ticket)).unwrap_err();
    assert_eq!((e.code(), e.field()), ("hub_unreachable", Some("hub")));
    assert!(w.ui.opened.borrow().is_empty());
}

/// Revokes the one pairing with the hub in `mode`; gives what the revoke answered.
fn revoke_with(mode: HubMode) -> (World, GiveBackOutcome) {
    let w = World::new();
    let id = paired_by_drop(&w);
    w.hub.mode.set(mode);
    let out = w.run(revoke(&w, &id)).unwrap();
    assert!(w.state.borrow().pairings.is_empty(), "revoke holds at once");
    (w, out.give_back)
}

#[test]
fn revoke_with_the_hub_up_or_slow_gives_the_grant_back() {
    for mode in [HubMode::Up, HubMode::Slow] {
        let (w, out) = revoke_with(mode);
        assert_eq!(out, GiveBackOutcome::Done, "{mode:?}");
        assert_eq!(w.hub.live_pairings(), 0);
        assert!(w.grants.borrow().is_empty());
        assert!(w.state.borrow().give_backs.is_empty());
    }
}

#[test]
fn revoke_with_the_hub_down_too_slow_or_failing_keeps_trying_with_backoff() {
    for mode in [HubMode::Down, HubMode::TooSlow, HubMode::Error5xx] {
        let (w, out) = revoke_with(mode);
        assert_eq!(out, GiveBackOutcome::Pending, "{mode:?}");
        assert_eq!(w.grants.borrow().len(), 1, "the grant is kept to give back");
        let tries = || w.hub.calls("/page/grant").len();
        let before = tries();
        // Not due yet: the hub is not asked again.
        w.run(retry_give_backs(&w, TryBy::Timer)).unwrap();
        assert_eq!(tries(), before);
        assert_eq!(
            w.ui.toolbar.borrow().as_ref().unwrap().give_back_at_ms,
            Some(w.now_ms.get() + 30_000)
        );
        let view = w.run(popup_state(&w, false)).unwrap();
        let GiveBackView::Waiting { attempts, .. } = &view.give_backs[0] else {
            panic!()
        };
        assert_eq!(*attempts, 1);
        // The hub is back when the alarm fires.
        w.advance(30_000);
        w.hub.mode.set(HubMode::Up);
        w.run(retry_give_backs(&w, TryBy::Timer)).unwrap();
        assert_eq!(tries(), before + 1);
        assert!(w.state.borrow().give_backs.is_empty(), "{mode:?}");
        assert_eq!(w.hub.live_pairings(), 0);
        assert!(w.grants.borrow().is_empty());
    }
}

#[test]
fn a_give_back_stops_after_bounded_tries_and_the_popup_says_so() {
    let (w, _) = revoke_with(HubMode::Down);
    for _ in 0..GIVE_BACK_MAX_ATTEMPTS {
        w.advance(3_600_000);
        w.run(retry_give_backs(&w, TryBy::Timer)).unwrap();
    }
    let state = w.state.borrow().clone();
    assert!(matches!(
        state.give_backs[0].status,
        GiveBackStatus::Stopped { .. }
    ));
    assert!(
        w.grants.borrow().is_empty(),
        "a grant never given back is not kept forever"
    );
    let calls = w.hub.calls("/page/grant").len();
    w.advance(10 * 3_600_000);
    w.run(retry_give_backs(&w, TryBy::Timer)).unwrap();
    assert_eq!(w.hub.calls("/page/grant").len(), calls, "no more tries");
    assert_eq!(
        w.ui.toolbar.borrow().as_ref().unwrap().give_back_at_ms,
        None
    );
    let view = w.run(popup_state(&w, false)).unwrap();
    assert!(matches!(view.give_backs[0], GiveBackView::Stopped { .. }));
    let id = state.give_backs[0].pairing_id.clone();
    w.run(dismiss_give_back(&w, &id)).unwrap();
    assert!(w.state.borrow().give_backs.is_empty());
}

#[test]
fn a_hub_that_revoked_or_forgot_takes_the_give_back_as_done() {
    let w = World::new();
    let id = paired_by_drop(&w);
    w.hub.revoke_on_dock("ag_claude");
    assert_eq!(
        w.run(revoke(&w, &id)).unwrap().give_back,
        GiveBackOutcome::Done
    );

    let w = World::new();
    let id = paired_by_drop(&w);
    w.hub.forget_all();
    assert_eq!(
        w.run(revoke(&w, &id)).unwrap().give_back,
        GiveBackOutcome::Done
    );
    assert!(w.grants.borrow().is_empty());
}

#[test]
fn refresh_learns_revoked_forgotten_unreachable_and_read() {
    // 403 revoked on the dock: the pairing is dead, its grant deleted, Point off.
    let w = World::new();
    let id = paired_by_drop(&w);
    w.hub.revoke_on_dock("ag_claude");
    let view = w.run(popup_state(&w, true)).unwrap();
    assert_eq!(view.pairings[0].hub.state, HubMark::RevokedByHub);
    assert!(!view.pairings[0].can_point);
    assert_eq!(view.pairings[0].point_blocked, Some(PointBlocked::HubGone));
    assert!(w.grants.borrow().get(&id).is_none());

    // 404: forgotten.
    let w = World::new();
    paired_by_drop(&w);
    w.hub.forget_all();
    let view = w.run(popup_state(&w, true)).unwrap();
    assert_eq!(view.pairings[0].hub.state, HubMark::Forgotten);

    // Down, too slow, 5xx: out of reach for now, still live, grant kept.
    for mode in [HubMode::Down, HubMode::TooSlow, HubMode::Error5xx] {
        let w = World::new();
        let id = paired_by_drop(&w);
        w.hub.mode.set(mode);
        let view = w.run(popup_state(&w, true)).unwrap();
        assert_eq!(view.pairings[0].hub.state, HubMark::Unreachable, "{mode:?}");
        assert!(view.pairings[0].can_point);
        assert!(w.grants.borrow().contains_key(&id));
    }

    // Slow but answering; the agent read its pin.
    let w = World::new();
    paired_by_drop(&w);
    w.hub.agent_reads("ag_claude");
    w.hub.mode.set(HubMode::Slow);
    let view = w.run(popup_state(&w, true)).unwrap();
    assert!(matches!(view.pairings[0].pin, PinView::Read { .. }));
    assert_eq!(view.pairings[0].hub.state, HubMark::Reachable);
    assert_eq!(w.ui.toolbar.borrow().as_ref().unwrap().badge, Badge::Read);
}

#[test]
fn a_drop_pin_on_a_revoked_pairing_deletes_the_grant_and_says_so() {
    let w = World::new();
    let id = paired_by_drop(&w);
    w.hub.revoke_on_dock("ag_claude");
    let ticket = w.hub.mint("ag_claude");
    let e = drop_with(&w, "ag_claude", &ticket).unwrap_err();
    assert_eq!(e.code(), "revoked_by_hub");
    assert!(w.grants.borrow().get(&id).is_none());
    assert_eq!(w.last_note().kind, NoteKind::Error);
}

#[test]
fn the_popup_view_carries_what_popup_js_renders() {
    let w = World::new();
    let id = paired_by_drop(&w);
    let view = w.run(popup_state(&w, false)).unwrap();
    let p = &view.pairings[0];
    assert_eq!(p.id, id);
    assert!(p.can_point && p.can_unpin && p.hub_loopback);
    assert!(!p.command_default);
    assert!(matches!(p.pin, PinView::Unread { .. }));
    *w.ui.active.borrow_mut() = Some(Tab {
        id: 1,
        url: "chrome://extensions".into(),
        ..Tab::default()
    });
    let view = w.run(popup_state(&w, false)).unwrap();
    assert!(!view.can_point);
    assert_eq!(view.pairings[0].point_blocked, Some(PointBlocked::NoPage));
    let wire = serde_json::to_value(&view).unwrap();
    assert_eq!(wire["pairings"][0]["pin"]["state"], "unread");
    assert_eq!(wire["pairings"][0]["point_blocked"], "no_page");
    assert_eq!(wire["revoke_confirm_ms"], 4000);
}

#[test]
fn a_consent_for_a_hub_already_paired_is_not_new() {
    let w = World::new();
    paired_by_drop(&w);
    let ticket = w.hub.mint("ag_cursor");
    let Ok(DropOutcome::Consent { consent }) = drop_with(&w, "ag_cursor", &ticket) else {
        panic!()
    };
    assert!(!w.run(consent_get(&w, &consent)).unwrap().consent.hub_new);
}

#[test]
fn start_up_shows_the_toolbar_and_retries_due_give_backs() {
    let (w, _) = revoke_with(HubMode::Down);
    w.hub.mode.set(HubMode::Up);
    w.advance(60_000);
    w.run(start(&w)).unwrap();
    assert!(w.state.borrow().give_backs.is_empty());
    assert!(w.ui.toolbar.borrow().is_some());
}

#[test]
fn a_note_the_page_hid_is_said_on_that_tabs_toolbar_button() {
    let w = World::new();
    let kind = crate::logic::router::SenderKind::ContentScript {
        tab_id: TAB,
        url: PAGE.into(),
        frame: None,
    };
    let message = serde_json::json!({ "type": "page.note_hidden" });
    w.run(crate::logic::router::route(&w, &w.memory, message, &kind))
        .unwrap();
    let alerts = w.ui.alerts.borrow();
    assert_eq!(alerts.len(), 1);
    assert_eq!((alerts[0].0, alerts[0].1.key), (TAB, "noteHiddenByPage"));
}

#[test]
fn opening_the_popup_tries_a_waiting_give_back_at_once_without_using_up_the_tries() {
    let (w, _) = revoke_with(HubMode::Down);
    let before = w.state.borrow().give_backs[0].clone();
    // The person opens the popup while the hub is still down: tried, not counted.
    w.run(popup_state(&w, true)).unwrap();
    let after = w.state.borrow().give_backs[0].clone();
    assert_eq!(after.attempts, before.attempts);
    assert_eq!(after.status, before.status);
    // The hub is back; the person opens the popup before the timer is due: given back now.
    w.hub.mode.set(HubMode::Up);
    w.run(popup_state(&w, true)).unwrap();
    assert!(w.state.borrow().give_backs.is_empty());
    assert_eq!(w.hub.live_pairings(), 0);
}

#[test]
fn undo_with_the_hub_down_keeps_the_pin_and_says_why() {
    let w = World::new();
    paired_by_drop(&w);
    let token = w.last_note().undo_token.unwrap();
    w.hub.mode.set(HubMode::Down);
    let e = w.run(undo(&w, TAB, &token)).unwrap_err();
    assert_eq!(e.code(), "hub_unreachable");
    let state = w.state.borrow().clone();
    assert!(
        state.pairings[0].pin.is_some(),
        "nothing undone that the hub still holds"
    );
    assert!(matches!(
        state.pairings[0].hub,
        HubState::Unreachable { .. }
    ));
    assert!(matches!(w.last_note().text, NoteText::Msg(ref m) if m.key == "errHubUnreachable"));
    // The hub is back: Undo works.
    w.hub.mode.set(HubMode::Up);
    assert!(w.run(undo(&w, TAB, &token)).unwrap().unpinned);
}

/// A hostile or stuck server cannot stall the extension or fill its memory: every request the logic
/// sends carries a time limit and a byte cap (the browser adapter enforces them), `apc.json` by the
/// standard's transport rules (3 s, `APC_JSON_MAX_BYTES`), a hub call by the hub's.
#[test]
fn every_request_carries_a_time_limit_and_a_byte_cap() {
    use crate::logic::apc_json::APC_JSON_TIMEOUT_MS;
    use crate::logic::hub_api::{HUB_ANSWER_MAX_BYTES, HUB_TIMEOUT_MS};
    let w = World::new();
    let pairing = paired_by_drop(&w);
    let ticket = w.hub.mint("ag_claude");
    assert!(drop_with(&w, "ag_claude", &ticket).is_ok());
    w.run(revoke(&w, &pairing)).unwrap();
    let requests = w.hub.requests.borrow();
    assert!(requests.len() >= 5, "{requests:?}");
    for r in requests.iter() {
        let limits = if r.url.ends_with(apc_core::APC_JSON_PATH) {
            (APC_JSON_TIMEOUT_MS, apc_core::APC_JSON_MAX_BYTES)
        } else {
            (HUB_TIMEOUT_MS, HUB_ANSWER_MAX_BYTES)
        };
        assert_eq!((r.timeout_ms, r.max_bytes), limits, "{}", r.url);
        assert!(r.timeout_ms > 0 && r.max_bytes > 0);
    }
    assert!(requests
        .iter()
        .any(|r| r.url.ends_with(apc_core::APC_JSON_PATH)));
}

// --- A drop in two messages: the pointed part pinned first, the page text after ------------

fn drop_first_with(w: &World, tab: i64, ticket: &str, drop_id: &str) -> Flow<DropOutcome> {
    w.run(flows::drop_first(
        w,
        &w.memory,
        &PageSource::top(tab, PAGE),
        None,
        &payload("ag_claude", ticket),
        &pointed_observation(PAGE),
        drop_id,
    ))
}

fn text_with(w: &World, tab: i64, drop_id: &str, observation: &str) -> Flow<PageTextSent> {
    w.run(flows::drop_text(
        w,
        &w.memory,
        &PageSource::top(tab, PAGE),
        drop_id,
        observation,
    ))
}

/// The reading the fake hub keeps for the pairing's current pin, and its page text's state.
fn current_reading(w: &World) -> (String, Value, &'static str) {
    let pin = w.hub.pin_of("ag_claude").expect("a pin");
    let (reading, state) = w.hub.readings.borrow()[&pin.id].clone();
    (pin.id, reading, state)
}

fn pins(w: &World) -> usize {
    w.hub
        .calls("/page/pin")
        .iter()
        .filter(|r| r.method == Method::Put && body(r).get("reading").is_some())
        .count()
}

#[test]
fn a_drop_pins_its_pointed_part_at_once_and_its_page_text_joins_that_same_reading() {
    let w = World::new();
    paired_by_drop(&w);
    let before = pins(&w);
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Pinned { pinned }) = drop_first_with(&w, TAB, &ticket, "d1") else {
        panic!("an existing pairing pins at once")
    };
    // Pinned before any page text: the pointed part, its page text announced, the ticket spent.
    let (id, reading, state) = current_reading(&w);
    assert_eq!(pinned.target.id.as_deref(), Some(id.as_str()));
    assert_eq!(state, "coming");
    assert_eq!(
        reading["pointed"]["text"],
        "Hello there, this is the text the person meant."
    );
    assert!(reading.get("page_text").is_none());
    assert!(
        reading.get("truncated").is_none(),
        "the pointed part is whole"
    );
    let put = w.hub.calls("/page/pin").last().cloned().unwrap();
    assert_eq!(body(&put)["ticket"], ticket.as_str());
    assert_eq!(body(&put)["text_follows"], true);
    assert_eq!(w.last_note().kind, NoteKind::Pointed);

    let sent = text_with(&w, TAB, "d1", &page_observation(PAGE)).unwrap();
    assert_eq!(sent.page_text, PageTextOutcome::Sent);
    // The same reading got its text: no second pin, one focus.
    let (same, reading, state) = current_reading(&w);
    assert_eq!((same.as_str(), state), (id.as_str(), "whole"));
    assert_eq!(pins(&w), before + 1);
    let text = reading["page_text"].as_str().unwrap();
    assert!(text.contains("Paragraph 11 of the article"), "{text}");
    let put = w.hub.calls("/page/pin").last().cloned().unwrap();
    assert_eq!(body(&put)["reading_id"], id.as_str());
    assert!(put.bearer.is_some());
    // Once: the same drop's text again goes nowhere.
    assert!(matches!(
        text_with(&w, TAB, "d1", &page_observation(PAGE)),
        Err(FlowError::UnknownDrop)
    ));
}

#[test]
fn a_page_text_that_comes_while_its_pin_is_being_made_waits_for_it() {
    let w = World::new();
    paired_by_drop(&w);
    let ticket = w.hub.mint("ag_claude");
    // The first message is handled up to its pin; the second arrives before the pin is made.
    w.memory.page_texts.expect(TAB, 0, "d1", w.now_ms.get());
    assert_eq!(
        text_with(&w, TAB, "d1", &page_observation(PAGE))
            .unwrap()
            .page_text,
        PageTextOutcome::Held
    );
    // (drop_first registers the drop again and keeps the held text: same tab, same id.)
    w.memory.page_texts.forget(TAB, 0, "d1");
    let early = page_observation(PAGE);
    let (payload, pointed) = (payload("ag_claude", &ticket), pointed_observation(PAGE));
    // A hub that takes its time: the text message lands while the pin is in flight.
    w.hub.mode.set(HubMode::Slow);
    let handled = w.run(async {
        let top = PageSource::top(TAB, PAGE);
        let first = flows::drop_first(&w, &w.memory, &top, None, &payload, &pointed, "d2");
        // Interleaved as the browser would: the text message lands while the pin is in flight.
        let second = flows::drop_text(&w, &w.memory, &top, "d2", &early);
        futures::future::join(first, second).await
    });
    assert!(matches!(handled.0, Ok(DropOutcome::Pinned { .. })));
    assert_eq!(handled.1.as_ref().unwrap().page_text, PageTextOutcome::Held);
    let (_, reading, state) = current_reading(&w);
    assert_eq!(state, "whole", "{handled:?}");
    assert!(reading["page_text"]
        .as_str()
        .unwrap()
        .contains("Paragraph 0"));
}

#[test]
fn a_second_part_that_never_comes_leaves_the_reading_pinned_and_one_that_fails_tells_the_hub() {
    let w = World::new();
    paired_by_drop(&w);
    let ticket = w.hub.mint("ag_claude");
    assert!(matches!(
        drop_first_with(&w, TAB, &ticket, "d1"),
        Ok(DropOutcome::Pinned { .. })
    ));
    // Never comes (tab closed): the reading stays as pinned; the hub says so to the agent.
    let (id, reading, state) = current_reading(&w);
    assert_eq!(state, "coming");
    assert_eq!(
        reading["pointed"]["text"],
        "Hello there, this is the text the person meant."
    );
    // Much later, a text for it is too late here (the hub no longer expects it either).
    w.advance(crate::logic::page_texts::KEEP_MS);
    assert!(matches!(
        text_with(&w, TAB, "d1", &page_observation(PAGE)),
        Err(FlowError::UnknownDrop)
    ));
    assert_eq!(current_reading(&w).0, id);

    // The collector failed (an empty observation) or sent another page: the hub is told at once
    // that the text will not come, and the reading is left as pinned.
    for (n, bad) in [
        "".to_owned(),
        page_observation("https://elsewhere.example/x"),
    ]
    .iter()
    .enumerate()
    {
        let ticket = w.hub.mint("ag_claude");
        let drop_id = format!("bad{n}");
        drop_first_with(&w, TAB, &ticket, &drop_id).unwrap();
        let sent = text_with(&w, TAB, &drop_id, bad).unwrap();
        assert_eq!(sent.page_text, PageTextOutcome::Sent);
        let (_, reading, state) = current_reading(&w);
        assert_eq!(state, "missing");
        assert!(reading.get("page_text").is_none());
        let put = w.hub.calls("/page/pin").last().cloned().unwrap();
        assert_eq!(body(&put)["page_text"], Value::Null);
    }
}

#[test]
fn a_second_part_from_another_tab_or_drop_or_of_a_refused_drop_is_refused() {
    let w = World::new();
    paired_by_drop(&w);
    let ticket = w.hub.mint("ag_claude");
    drop_first_with(&w, TAB, &ticket, "d1").unwrap();
    let calls = w.hub.requests.borrow().len();
    for (tab, id) in [(TAB + 1, "d1"), (TAB, "d9")] {
        assert!(matches!(
            text_with(&w, tab, id, &page_observation(PAGE)),
            Err(FlowError::UnknownDrop)
        ));
    }
    assert_eq!(
        w.hub.requests.borrow().len(),
        calls,
        "nothing reached the hub"
    );
    assert_eq!(current_reading(&w).2, "coming");
    // A drop the hub refused (its ticket replayed) pinned nothing: its text goes nowhere.
    assert!(drop_first_with(&w, TAB, &ticket, "d2").is_err());
    assert!(matches!(
        text_with(&w, TAB, "d2", &page_observation(PAGE)),
        Err(FlowError::UnknownDrop)
    ));
    // A drop id that is not an id is refused before anything is done.
    let fresh = w.hub.mint("ag_claude");
    assert!(matches!(
        drop_first_with(&w, TAB, &fresh, "no:colons"),
        Err(FlowError::BadPayload(_))
    ));
    // The first drop's text still goes to its own reading.
    assert_eq!(
        text_with(&w, TAB, "d1", &page_observation(PAGE))
            .unwrap()
            .page_text,
        PageTextOutcome::Sent
    );
    assert_eq!(current_reading(&w).2, "whole");
}

#[test]
fn a_newer_pin_of_the_pairing_leaves_the_older_drops_text_nowhere_to_go() {
    let w = World::new();
    paired_by_drop(&w);
    drop_first_with(&w, TAB, &w.hub.mint("ag_claude"), "d1").unwrap();
    drop_first_with(&w, TAB, &w.hub.mint("ag_claude"), "d2").unwrap();
    // The hub refuses text for a reading that is no longer the pin (reading_unknown): no second pin.
    let refused = text_with(&w, TAB, "d1", &page_observation(PAGE)).unwrap_err();
    assert_eq!(refused.code(), "reading_unknown");
    assert!(w.state.borrow().pairings[0].is_live());
    assert_eq!(
        text_with(&w, TAB, "d2", &page_observation(PAGE))
            .unwrap()
            .page_text,
        PageTextOutcome::Sent
    );
}

#[test]
fn a_first_drop_asks_consent_and_its_page_text_joins_the_reading_the_consent_pins() {
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_first_with(&w, TAB, &ticket, "d1") else {
        panic!("a new agent asks first")
    };
    assert_eq!(
        text_with(&w, TAB, "d1", &page_observation(PAGE))
            .unwrap()
            .page_text,
        PageTextOutcome::Joined
    );
    w.advance(1500);
    assert!(
        w.run(consent_answer(&w, &w.memory, &consent, true))
            .unwrap()
            .pinned
    );
    let (_, reading, state) = current_reading(&w);
    assert_eq!(state, "whole");
    assert!(reading["page_text"]
        .as_str()
        .unwrap()
        .contains("Paragraph 0"));
    assert!(reading.get("truncated").is_none());

    // Allowed before the text came: pinned without it, marked as cut; the late text goes nowhere.
    let w = World::new();
    let ticket = w.hub.mint("ag_claude");
    let Ok(DropOutcome::Consent { consent }) = drop_first_with(&w, TAB, &ticket, "d1") else {
        panic!()
    };
    w.advance(1500);
    assert!(
        w.run(consent_answer(&w, &w.memory, &consent, true))
            .unwrap()
            .pinned
    );
    let (_, reading, _) = current_reading(&w);
    assert!(reading.get("page_text").is_none());
    assert_eq!(reading["truncated"], true);
    assert!(matches!(
        text_with(&w, TAB, "d1", &page_observation(PAGE)),
        Err(FlowError::UnknownDrop)
    ));
}
