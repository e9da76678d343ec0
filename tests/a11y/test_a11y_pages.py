"""Accessibility of the extension's own pages, in Firefox ESR and Chromium, from the store packages:
axe-core (npm `axe-core`) finds 0 violations in the popup (empty, and with a pairing) and in the
consent window showing a real request; and a person using only the keyboard (real keys, xdotool
under Xvfb) pairs with the dock's code from the popup, allows in the consent window, and revokes.

The keyboard path never clicks: focus moves with Tab, buttons are pressed with Return.
"""

import pathlib
import sys
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "realinput"), str(HERE.parent / "browser")]

from apc_live import Agent, Hub  # noqa: E402
from realinput import (REPO_ROOT, Display, Hands, Site, WindowView, command_chord, dock_code,  # noqa: E402
                       launch_chromium, launch_firefox, note_markup, note_texts, packages, pair_with_dock_code,
                       place, poll, press_in_consent, select_by_triple_click, wait_for_window)

AXE = (REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text()

AXE_RESULT = """
return window.__apcAxe ? window.__apcAxe : null;
"""


def axe_violations(view):
    """axe-core on the whole document: the violations, each with the nodes it found. (The extension
    pages' CSP forbids eval: axe is handed over as the driver's own script, not evaluated.)"""
    view.run(AXE + "\n;window.__apcAxe = null; axe.run(document, { resultTypes: ['violations'] })"
             ".then((r) => { window.__apcAxe = r.violations.map((v) => ({ id: v.id, impact: v.impact,"
             " help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })); },"
             " (e) => { window.__apcAxe = [{ id: 'axe-failed', help: String(e), nodes: [] }]; });")
    return poll(lambda: view.run(AXE_RESULT) is not None and [view.run(AXE_RESULT)], "axe did not finish")[0]


@pytest.fixture(scope="module")
def display():
    screen = Display()
    yield screen
    screen.stop()


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def setup(request, display):
    hands = Hands(display)
    hub = Hub()
    chrome, xpi = packages()
    browser = launch_firefox(display, xpi) if request.param == "firefox" else launch_chromium(display, chrome)
    place(browser.driver, 0, 0, 900, 900)
    yield browser, hands, hub
    browser.quit()
    hub.stop()


def tab_to(view, hands, selector, limit=40):
    """Presses Tab until `selector` has the focus, as a keyboard user moves through a page."""
    for _ in range(limit):
        if view.run("return document.activeElement?.matches(arguments[0]) ?? false", selector):
            return
        hands.key("Tab")
        time.sleep(0.05)
    pytest.fail(f"{limit} presses of Tab never reached {selector}")


def test_popup_consent_and_revoke_by_keyboard_alone_with_no_axe_violations(setup):
    browser, hands, hub = setup
    d = browser.driver
    popup = WindowView(browser, d.current_window_handle)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return document.body.dataset.state") == "ready", "the popup is not ready")
    assert axe_violations(popup) == [], "axe: the empty popup"

    d.get(hub.origin + "/")
    code = dock_code(popup, hands)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return document.body.dataset.state") == "ready", "the popup is not ready")
    hands.focus_window("APC Page")
    tab_to(popup, hands, "#pair-code-hub")
    hands.key("ctrl+a")
    hands.type(hub.origin)
    tab_to(popup, hands, "#pair-code-code")
    hands.type(code)
    hands.key("Return")

    consent = wait_for_window(browser, "/consent/consent.html", {popup.handle})
    poll(lambda: consent.run("const r = document.querySelector('#consent-request'); return r && !r.hidden"),
         "the consent window never showed the request")
    assert axe_violations(consent) == [], "axe: the consent window"
    poll(lambda: consent.run("return document.hasFocus()"), "the consent window does not have the focus")
    poll(lambda: not consent.run("return document.querySelector('#consent-allow').disabled"),
         "Allow never became enabled")
    tab_to(consent, hands, "#consent-allow")
    hands.key("Return")

    if browser.name == "firefox":
        d.switch_to.window(popup.handle)
    d.get(browser.url("popup/popup.html"))
    row = "#pairings > li[data-pairing-id]"
    poll(lambda: popup.run("return !!document.querySelector(arguments[0])", row), "no pairing in the popup")
    assert axe_violations(popup) == [], "axe: the popup with a pairing"

    hands.focus_window("APC Page")
    revoke = f"{row} button[data-action=revoke]"
    tab_to(popup, hands, revoke)
    hands.key("Return")
    poll(lambda: popup.run("return document.querySelector(arguments[0])?.dataset.confirming", revoke) == "true",
         "Return on Revoke did not ask to confirm")
    hands.key("Return")
    poll(lambda: not popup.run("return !!document.querySelector(arguments[0])", row),
         "the pairing is still there after Return twice on Revoke")


def test_the_axe_harness_reports_what_it_finds(setup):
    """The check above can fail: on a page with an image without alt text and an unlabelled field,
    the same harness reports both."""
    browser, _, _ = setup
    d = browser.driver
    view = WindowView(browser, d.current_window_handle)
    d.get("data:text/html,<!doctype html><html lang=en><title>t</title><main><img src=x.png>"
          "<input type=text></main></html>")
    found = {v["id"] for v in axe_violations(view)}
    assert {"image-alt", "label"} <= found, found


def pair_by_code(browser, hands, hub):
    d = browser.driver
    popup = WindowView(browser, d.current_window_handle)
    consent = pair_with_dock_code(browser, hands, hub, popup)
    said = press_in_consent(consent, hands)
    assert "error" not in said.lower(), said
    if browser.name == "firefox":
        d.switch_to.window(popup.handle)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return !!document.querySelector('#pairings > li[data-pairing-id]')"),
         "no pairing in the popup after Allow")


def test_the_in_page_note_by_keyboard_and_axe(setup):
    """The note after a pin: its markup, read through its closed shadow root, passes axe-core; its
    Undo is reached with Tab from the selection and pressed with Return (the agent can no longer read
    the pin)."""
    browser, hands, hub = setup
    pair_by_code(browser, hands, hub)
    agent = Agent(hub.agents()[0]["mcp_url"])
    site = Site()
    chord = command_chord()

    def point_by_keyboard():
        d.get(site.url("/article.html"))
        page = WindowView(browser, d.current_window_handle)
        poll(lambda: page.run("return document.readyState") == "complete", "the article did not load")
        select_by_triple_click(page, hands, "h1")
        waiting = agent.call("wait_for_focus", {"timeout_s": 60})
        hands.key(chord)
        is_error, result = waiting.result(timeout=70)
        assert not is_error and result["focus"], result
        poll(lambda: page.run("return !!document.querySelector('apc-page-feedback')"), "no note in the page")
        return page, result["focus"]["next_args"]

    try:
        d = browser.driver
        point_by_keyboard()
        markup = poll(lambda: note_markup(browser, "/article.html"), "could not read the note")
        assert note_texts(markup), f"the note has no text: {markup!r}"
        d.get("data:text/html;charset=utf-8,<!doctype html><html lang=en><title>note</title><main><h1>A page</h1>"
              + markup.replace("%", "%25").replace("#", "%23") + "</main></html>")
        assert axe_violations(WindowView(browser, d.current_window_handle)) == [], "axe: the in-page note"
        # Back to a note to press.
        page, next_args = point_by_keyboard()

        # Tab on from the selection: past the page's links, the note comes last; its Undo first.
        tab_to(page, hands, "apc-page-feedback", limit=20)
        hands.key("Return")
        poll(lambda: agent.call("page__get_reading", next_args).result(timeout=30)[0],
             "the pin is still readable after Return on the note's Undo")
    finally:
        agent.close()
        site.close()
