"""A person's real drag into a frame from another site, in Firefox ESR and in Chromium, with the store
packages: the agent's mark dragged with the real mouse (xdotool under Xvfb) from the hub's dock window
onto a comment in a cross-site frame (tests/fixtures/frames.html on 127.0.0.1, its frames on
localhost: out of process in Chromium, a remote frame in Firefox), the consent window naming the
frame's host beside the page's, and the agent (the PyPI `mcp`) reading exactly that comment, with
the frame's URL and title and the page's URL. Then, in Firefox, whose frames cannot tell by
themselves whether they are visible, a drop on the page's own text under a frame laid over it at
opacity 0: the frame takes the drop, the page above it says it does not show it there, and nothing
is pointed (Chromium's own check, IntersectionObserver v2, is in tests/e2e/frames.e2e.test.mjs).

Nothing here reaches into the extension or the hub: the agent sees only MCP, the person only the
browser's windows, and every event comes through the X server.
"""

import json

import pytest

from apc_live import Agent, Hub
from realinput import (REPO_ROOT, PageAndDock, Site, element_point, launch_chromium, launch_firefox, note_text,
                       packages, poll, press_in_consent, read_focus, tear_down, viewport_offset, wait_for_window)

MESSAGES = json.loads((REPO_ROOT / "extension" / "_locales" / "en" / "messages.json").read_text())

# The frame's element on the page, and a point of an element's first line inside that frame (in
# the frame's viewport): the page's script sees the first, the frame's the second.
FRAME_BOX = """
const frame = document.querySelector(arguments[0]);
frame.scrollIntoView({ block: 'center' });
const r = frame.getBoundingClientRect();
const s = getComputedStyle(frame);
return [r.left + frame.clientLeft + parseFloat(s.paddingLeft), r.top + frame.clientTop + parseFloat(s.paddingTop)];
"""
TEXT_IN_FRAME = """
const el = document.querySelector(arguments[0]);
const g = document.createRange();
g.selectNodeContents(el);
const r = g.getClientRects()[0];
return [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2, el.innerText];
"""


class World(PageAndDock):
    """A browser with the extension, the hub, the page's site and the frames' site, the agent; the
    page window on the left and the dock window on the right."""

    def __init__(self, kind, display, hands):
        self.kind, self.display, self.hands = kind, display, hands
        self.hub = Hub()
        self.site = Site()
        self.child = Site()
        # Another site than the page's (not only another origin).
        self.child_origin = self.child.origin.replace("127.0.0.1", "localhost")
        chrome, xpi = packages()
        self.browser = launch_firefox(display, xpi) if kind == "firefox" else launch_chromium(display, chrome)
        self.place_windows()
        self.agent = Agent(self.hub.agents()[0]["mcp_url"])

    def page_url(self):
        return self.site.url(f"/frames.html?child={self.child_origin}")

    def open_page(self):
        d = self.browser.driver
        d.switch_to.window(self.page.handle)
        d.get(self.page_url())
        poll(lambda: self.page.run("return document.readyState") == "complete", "the page did not load")

    def point_in_frame(self, frame, selector):
        """Screen coordinates of `selector`'s first line in the frame `frame` (a selector on the
        page), and its text as the frame shows it."""
        d = self.browser.driver
        d.switch_to.window(self.page.handle)
        offset = viewport_offset(self.page, self.hands)
        left, top = self.page.run(FRAME_BOX, frame)
        d.switch_to.frame(d.find_element("css selector", frame))
        try:
            x, y, text = poll(lambda: d.execute_script(TEXT_IN_FRAME, selector), f"no {selector} in {frame}")
            saw = d.execute_script("return window.__saw")
        finally:
            d.switch_to.default_content()
        assert saw == [], f"the frame's script saw the agent's drags: {saw}"
        return (offset[0] + left + x, offset[1] + top + y), text

    def frame_saw(self, frame):
        d = self.browser.driver
        d.switch_to.window(self.page.handle)
        d.switch_to.frame(d.find_element("css selector", frame))
        try:
            return d.execute_script("return window.__saw")
        finally:
            d.switch_to.default_content()

    def drag_mark_to(self, end):
        self.open_dock()
        start = element_point(self.dock, self.hands, ".agent-mark")
        self.hands.drag(start, end)

    def close(self):
        tear_down(self.agent.close, self.browser.quit, self.hub.stop, self.site.close, self.child.close)


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def world(request, display, hands):
    w = World(request.param, display, hands)
    yield w
    w.close()


def test_a_real_drop_in_a_cross_site_frame_names_both_hosts_and_the_agent_reads_the_frames_text(world):
    world.open_page()
    end, expected = world.point_in_frame("#widget", "#comment")
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 60})
    world.drag_mark_to(end)
    consent = wait_for_window(world.browser, "/consent/consent.html", world.known_windows())
    poll(lambda: consent.run("const r = document.querySelector('#consent-request'); return r && !r.hidden"),
         "the consent window never showed the request")
    shown = consent.run("return [document.querySelector('#consent-page').innerText,"
                        " document.querySelector('#consent-frame').innerText]")
    assert shown == [world.site.host, world.child_origin.removeprefix("http://")], shown
    said = press_in_consent(consent, world.hands)
    assert "error" not in said.lower(), said
    _, reading = read_focus(world, waiting)
    assert reading["pointed"]["how"] == "drop"
    assert reading["pointed"]["text"] == expected
    assert reading["url"] == world.page_url()
    assert reading["frame"] == {"url": f"{world.child_origin}/frame-child.html?widget", "origin": world.child_origin,
                                "title": "Comments on the story"}
    assert world.frame_saw("#widget") == [], "the frame's own script saw the agent's drag"


def test_firefox_a_real_drop_on_text_under_a_frame_laid_over_it_at_opacity_0_pins_nothing(world):
    if world.kind != "firefox":
        pytest.skip("Chromium's frames say themselves whether they are visible: tests/e2e/frames.e2e.test.mjs")
    world.open_page()
    offset = viewport_offset(world.page, world.hands)
    end = element_point(world.page, world.hands, "#top-para", "text", offset=offset)
    waiting = world.agent.call("wait_for_focus", {"timeout_s": 8})
    world.drag_mark_to(end)
    world.browser.driver.switch_to.window(world.page.handle)
    note = poll(lambda: note_text(world.page), "the page shows no note after the drop")
    assert note == MESSAGES["errFrameNotSeen"]["message"], note
    is_error, result = waiting.result(timeout=40)
    assert not is_error and result["focus"] is None, result
    assert world.frame_saw("#ghost") == [], "the invisible frame's script saw the agent's drag"
