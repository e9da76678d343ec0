"""A person at the keyboard and mouse, in Firefox ESR and in Chromium, with the store packages: the
hub's dock page in its own window beside the page, the agent's mark dragged from there onto page
text with the real mouse (xdotool under Xvfb), the consent window answered with a real click, a real
MCP client (the PyPI `mcp`) reading exactly that text; then a second drop that pins without asking,
the context menu opened by a real right click and chosen by keyboard, the real chord of the keyboard
command (Alt+Shift+K, the manifest's) on a selection made with the mouse, `data-focus` targets, a native-drops page left alone, a Direct-only
app answered domain first, a strict-CSP page, and Revoke in the popup with the hub down.

Nothing here reaches into the extension or the hub: the agent sees only MCP, the person only the
browser's windows, and every event the browser gets comes through the X server. The tests of a
browser run in order, each going on from where the one before left the browser and the hub.
"""

import json
import os
import time

import pytest

from apc_live import Agent, Hub
from realinput import (REPO_ROOT, PageAndDock, Site, command_chord, element_point, find_window, launch_chromium,
                       launch_firefox, needs, packages, poll, press_in_consent, read_focus, screen_shot,
                       select_by_triple_click, tear_down, wait_for_window)

# Screenshots of what the person sees: tests/artifacts/ always, docs/screenshots/ with
# APC_SCREENSHOTS=1 (to refresh the README's pictures).
SHOTS = REPO_ROOT / ("docs/screenshots" if os.environ.get("APC_SCREENSHOTS") == "1" else "tests/artifacts/screenshots")


class World(PageAndDock):
    """A browser with the extension, the hub, a fixture site, the agent; the page window on the left
    and the dock window on the right, as a person arranges them."""

    def __init__(self, kind, display, hands):
        self.kind, self.display, self.hands = kind, display, hands
        self.hub = Hub()
        self.site = Site()
        chrome, xpi = packages()
        self.browser = launch_firefox(display, xpi) if kind == "firefox" else launch_chromium(display, chrome)
        self.place_windows()
        self.agent = Agent(self.hub.agents()[0]["mcp_url"])

    def open(self, url):
        d = self.browser.driver
        d.switch_to.window(self.page.handle)
        d.get(url)
        poll(lambda: self.page.run("return document.readyState") == "complete", f"{url} did not load")

    def close(self):
        tear_down(self.agent.close, self.browser.quit, self.hub.stop, self.site.close)


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def world(request, display, hands):
    w = World(request.param, display, hands)
    yield w
    w.close()


def visible_text(world, selector):
    return world.page.run("return document.querySelector(arguments[0]).innerText", selector)


def drag_mark_onto(world, selector, agent_name=None):
    """The person drags the agent's mark from the dock window onto `selector`'s text in the page."""
    world.open_dock()
    mark = f'.agent-mark[data-name="{agent_name}"]' if agent_name else ".agent-mark"
    start = element_point(world.dock, world.hands, mark)
    end = element_point(world.page, world.hands, selector, "text")
    world.hands.drag(start, end)


def nothing_reaches_the_agent(world, action, seconds=4):
    waiting = world.agent.call("wait_for_focus", {"timeout_s": seconds})
    action()
    is_error, result = waiting.result(timeout=seconds + 30)
    assert not is_error, result
    assert result["focus"] is None, f"the agent got a focus: {result['focus']}"


def answer_consent(world, allow=True):
    """The consent window: wait until it shows the request and its button can be pressed (it may
    hold Allow for a moment while it is visible and focused), then press it with the real mouse."""
    consent = wait_for_window(world.browser, "/consent/consent.html", world.known_windows())
    poll(lambda: consent.run("const r = document.querySelector('#consent-request'); return r && !r.hidden"),
         "the consent window never showed the request")
    shown = consent.run(
        "return { hub: document.querySelector('#consent-hub').innerText,"
        " agent: document.querySelector('#consent-agent').innerText }")
    # The whole screen: the page, the dock beside it and the consent window over them.
    screen_shot(world.display, SHOTS / f"realinput-{world.kind}-consent.png")
    said = press_in_consent(consent, world.hands, "#consent-allow" if allow else "#consent-deny")
    assert "error" not in said.lower(), said
    return shown


# ---- The tests, in order --------------------------------------------------------------------------


def test_drag_the_mark_from_the_dock_window_consent_and_the_agent_reads_exactly_that_text(world):
    SHOTS.mkdir(parents=True, exist_ok=True)
    world.open(world.site.url("/article.html"))
    expected = visible_text(world, "#target-para")
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    drag_mark_onto(world, "#target-para")
    shown = answer_consent(world)
    assert shown["hub"].strip() == world.hub.host
    assert shown["agent"].strip() == world.hub.agents()[0]["name"]
    focus, reading = read_focus(world, waiting)
    assert "irrigation" not in json.dumps(focus), "the focus carries identifiers only"
    assert reading["pointed"]["how"] == "drop"
    assert reading["pointed"]["text"] == expected
    assert reading["url"] == world.site.url("/article.html")
    world.shared["paired"] = True


def test_a_second_drop_pins_without_asking(world):
    needs(world, "paired")
    world.open(world.site.url("/article.html"))
    expected = visible_text(world, "main p:nth-of-type(2)")
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    drag_mark_onto(world, "main p:nth-of-type(2)")
    _, reading = read_focus(world, waiting)
    assert reading["pointed"]["how"] == "drop"
    assert reading["pointed"]["text"] == expected
    assert find_window(world.browser, "/consent/", world.known_windows()) is None, \
        "a consent window opened for a pairing that exists"
    time.sleep(0.5)  # the note appearing, for the picture only
    screen_shot(world.display, SHOTS / f"realinput-{world.kind}-pointed.png")


def select_with_the_mouse(world, selector):
    """A triple click on `selector`'s text selects its paragraph; gives the point and the selected text."""
    return select_by_triple_click(world.page, world.hands, selector)


# The browser's own context menu on a selection, read from the bottom (screenshots in
# docs/screenshots/realinput-*-menu.png): Firefox puts the extension's entry last; Chromium puts
# it above "Inspect".
MENU_KEYS = {"firefox": ["Up", "Return"], "chromium": ["Up", "Up", "Return"]}


def test_the_context_menu_by_a_real_right_click_chosen_by_keyboard(world, display):
    needs(world, "paired")
    world.open(world.site.url("/article.html"))
    point, expected = select_with_the_mouse(world, "h1")
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    world.hands.click(*point, button=3)
    time.sleep(0.8)  # the menu opening; what follows are the person's keys on it
    screen_shot(display, SHOTS / f"realinput-{world.kind}-menu.png")
    world.hands.key(*MENU_KEYS[world.kind])
    _, reading = read_focus(world, waiting)
    assert reading["pointed"]["how"] == "selection"
    assert reading["pointed"]["text"] == expected == "Guide"
    world.shared["chosen"] = True


def test_the_browser_gave_the_command_its_suggested_chord(world):
    """Chromium silently leaves a suggested key unassigned when it is one of its own accelerators
    (Alt+Shift+P is, in Chromium 156): the chord must be one both browsers give the extension."""
    world.open(world.browser.url("popup/popup.html"))
    commands = world.browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(globalThis.browser ?? chrome).commands.getAll().then(done, (e) => done(String(e)));")
    shortcut = next(c["shortcut"] for c in commands if c["name"] == "point-selection")
    assert shortcut.replace(" ", "").lower() == command_chord(), commands


def test_a_selection_and_the_real_keyboard_command_chord(world):
    needs(world, "chosen")
    world.open(world.site.url("/article.html"))
    _, expected = select_with_the_mouse(world, "main p:nth-of-type(2)")
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    world.hands.key(command_chord())
    _, reading = read_focus(world, waiting)
    assert reading["pointed"]["how"] == "command"
    assert reading["pointed"]["text"] == expected


def test_data_focus_targets_of_the_dropped_on_element(world):
    needs(world, "paired")
    world.open(world.site.url("/focus-targets.html"))
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    drag_mark_onto(world, "#figure")
    _, reading = read_focus(world, waiting)
    assert reading["pointed"]["targets"] == [
        {"kind": "figure", "id": None, "part": None, "params": {"month": "2026-03", "region": ["north", "south"]}},
        {"kind": "invoice", "id": "inv_2026_7", "part": None, "params": None},
    ]


def test_a_native_drops_page_is_left_alone(world):
    needs(world, "paired")
    world.open(world.site.url("/native-drops.html"))
    # The app's own drop handling, as an APC app that takes drops itself has it.
    world.page.run("""
      window.__apcDrops = 0;
      const ours = (e) => [...e.dataTransfer.types].includes('application/x-apc-agent');
      addEventListener('dragover', (e) => { if (ours(e)) e.preventDefault(); });
      addEventListener('drop', (e) => { if (ours(e)) { e.preventDefault(); window.__apcDrops += 1; } });
    """)
    nothing_reaches_the_agent(world, lambda: drag_mark_onto(world, "#p"))
    assert world.page.run("return window.__apcDrops") == 1, "the page's own drop handler did not get the drop"
    assert find_window(world.browser, "/consent/", world.known_windows()) is None


def test_a_direct_only_app_is_answered_domain_first_and_nothing_pinned(world):
    needs(world, "paired")
    app = Site(apcJson="direct-only", appName="Signals")
    try:
        world.open(app.url("/article.html"))
        nothing_reaches_the_agent(world, lambda: drag_mark_onto(world, "#target-para"))
        world.browser.driver.switch_to.window(world.page.handle)
        world.browser.driver.save_screenshot(str(SHOTS / f"realinput-{world.kind}-direct-only.png"))
        assert find_window(world.browser, "/consent/", world.known_windows()) is None
    finally:
        app.close()


def test_a_strict_csp_page(world):
    needs(world, "paired")
    strict = Site(headers={"content-security-policy": "script-src 'self'"})
    try:
        world.open(strict.url("/csp.html"))
        expected = visible_text(world, "#p")
        waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
        drag_mark_onto(world, "#p")
        _, reading = read_focus(world, waiting)
        assert reading["pointed"]["text"] == expected
    finally:
        strict.close()


def test_revoke_in_the_popup_with_the_hub_down_holds_and_reaches_the_hub_once_it_is_back(world):
    needs(world, "paired")
    world.open(world.site.url("/article.html"))
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    drag_mark_onto(world, "#target-para")
    focus, _ = read_focus(world, waiting)
    world.agent.close()
    port, data_dir = world.hub.port, world.hub.data_dir
    world.hub.halt()

    world.open(world.browser.url("popup/popup.html"))
    poll(lambda: world.page.run("return document.body.dataset.state") == "ready", "the popup is not ready")
    row = "#pairings > li[data-pairing-id]"
    poll(lambda: world.page.run("return document.querySelector(arguments[0])?.dataset.hubState", row) == "unreachable",
         "the popup does not say the hub is unreachable")
    revoke = f"{row} button[data-action=revoke]"
    world.hands.click(*element_point(world.page, world.hands, revoke))
    poll(lambda: world.page.run("return document.querySelector(arguments[0])?.dataset.confirming", revoke) == "true",
         "the first click on Revoke did not ask to confirm")
    world.hands.click(*element_point(world.page, world.hands, revoke))
    poll(lambda: world.page.run("const g = document.querySelector('#give-backs'); return g && !g.hidden"),
         "the popup does not show the revoke waiting for the hub")
    world.browser.driver.save_screenshot(str(SHOTS / f"realinput-{world.kind}-give-back.png"))

    world.hub = Hub(data_dir=data_dir, listen=f"127.0.0.1:{port}")
    world.hub.own_dir = True
    world.browser.driver.refresh()
    poll(lambda: world.page.run("const g = document.querySelector('#give-backs'); return !!g && g.hidden"),
         "the revoke never reached the hub once it was back", timeout=45)
    world.agent = Agent(world.hub.agents()[0]["mcp_url"])
    is_error, gone = world.agent.call("page__get_reading", focus["next_args"]).result(timeout=30)
    assert is_error and gone["error"] == "reading_unknown", gone
