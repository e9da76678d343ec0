"""The extension's background flows in Firefox (an event page, not a service worker), against a real
`apc-hub`, with the PyPI `mcp` client playing the agent: pairing with the code the dock shows, from
the popup, through the consent window; the popup's Point button pinning a page's selection, which the
agent waits for and reads; the same Point on a textarea's selection (read as the field's value) and
on a selection inside a closed shadow root (refused in the extension's words: in the real content
script, Firefox's openOrClosedShadowRoot tells it); Revoke in the popup with the hub up, which the
hub then lets go of.

Nothing here reaches into the hub's or the extension's insides: the agent sees only MCP, the person
only the browser (the dock page, a fixture page, the popup and the consent window). The tests of this
module run in order: each goes on from where the one before left the browser and the hub.
"""

import json
import re

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from apc_firefox import REPO_ROOT, extension_url
from apc_live import Agent, Hub

# What a person waits for at most before calling a step broken (polled, never slept).
STEP_S = 20


# ---- apc-hub (apc_live.Hub) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def hub():
    running = Hub()
    yield running
    running.stop()



# ---- The agent (apc_live.Agent) -----------------------------------------------------------------


@pytest.fixture(scope="module")
def agent(hub):
    client = Agent(hub.agents()[0]["mcp_url"])
    yield client
    client.close()


# ---- The browser -------------------------------------------------------------------------------

# What the tests of this module hand on to the next: the pairing, the windows.
shared = {}


def needs(key):
    if key not in shared:
        pytest.fail(f"an earlier test of this module did not get as far as {key!r}")
    return shared[key]


def until(driver, condition, message, timeout=STEP_S, detail=None):
    """Polls `condition` until it gives something truthy; fails with `message` (and `detail()`,
    what the page shows by then) after `timeout` seconds."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)
    except TimeoutException:
        pytest.fail(f"{message} (after {timeout} s)" + (f": {detail()}" if detail else ""))


def open_popup(driver):
    """The popup page in the current tab, once it is ready and has rendered the background's state."""
    driver.get(extension_url("popup/popup.html"))
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") != "loading",
          "the popup stayed in its loading state")
    state = driver.find_element(By.TAG_NAME, "body").get_attribute("data-state")
    assert state == "ready", f"popup is in state {state}: {driver.find_element(By.ID, 'status-error-detail').text}"


def run_in_page(driver, body, *args):
    """Runs async JS `body` (with `args`) in the current page; gives `{value}` or `{thrown}`."""
    return driver.execute_async_script(
        f"""
        const done = arguments[arguments.length - 1];
        const args = Array.from(arguments).slice(0, -1);
        (async () => {{ {body} }})().then((value) => done({{ value }}), (e) => done({{ thrown: String(e) }}));
        """,
        *args,
    )


def focus_page_window(driver, page_url):
    """From the popup's window: makes the window whose active tab is `page_url` the last focused
    one (what the popup's Point acts on), and checks it is so."""
    arranged = run_in_page(
        driver,
        """
        const [url] = args;
        const windows = await browser.windows.getAll({ populate: true });
        const target = windows.find((w) => w.tabs.some((t) => t.active && t.url === url));
        if (!target) return { error: 'no window has the page as its active tab', windows };
        await browser.windows.update(target.id, { focused: true });
        for (let i = 0; i < 100; i += 1) {
          const last = await browser.windows.getLastFocused({ populate: true });
          const active = last.tabs.find((t) => t.active);
          if (last.id === target.id && active?.url === url) return { window: target.id };
          await new Promise((ok) => setTimeout(ok, 50));
        }
        const last = await browser.windows.getLastFocused({ populate: true });
        return { error: 'the page window did not become the last focused', last };
        """,
        page_url,
    )
    assert "thrown" not in arranged and "error" not in arranged["value"], arranged


def pairing_rows(driver):
    """The popup's pairings as it shows them now (read in one go: the popup re-renders its list)."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll('#pairings > li[data-pairing-id]')].map((li) => ({
          id: li.dataset.pairingId,
          hub: li.querySelector('.hub-domain')?.textContent.trim(),
          agent: li.querySelector('.agent-name')?.textContent.trim(),
          hub_state: li.dataset.hubState,
          pin_state: li.dataset.pinState,
          can_point: li.querySelector('button[data-action=point]')?.disabled === false,
        }));
        """
    )


def click(driver, selector, message):
    """Clicks what `selector` finds, again if the popup re-rendered it under the click."""
    def clicked(d):
        d.find_element(By.CSS_SELECTOR, selector).click()
        return True
    try:
        WebDriverWait(driver, STEP_S, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)).until(
            clicked)
    except TimeoutException:
        pytest.fail(message)


def dock_rows(driver, hub, pairing_id):
    driver.get(hub.origin + "/")
    return driver.find_elements(By.CSS_SELECTOR, f'tr.pairing[data-pairing="{pairing_id}"]')


# ---- The tests ---------------------------------------------------------------------------------


def test_pairing_with_the_code_the_dock_shows(firefox, hub):
    driver = firefox
    agent_name = hub.agents()[0]["name"]
    assert agent_name == "default"

    driver.get(hub.origin + "/")
    # A dock that mints codes on demand shows none until "New code" is pressed.
    if not re.match(r"^[0-9A-Z]{4,}(-[0-9A-Z]{4,})+$", driver.find_element(By.CSS_SELECTOR, ".ticket-code").text.strip()):
        driver.find_element(By.CSS_SELECTOR, ".new-code").click()
    code = until(driver, lambda d: re.match(r"^[0-9A-Z]{4,}(-[0-9A-Z]{4,})+$",
                                              d.find_element(By.CSS_SELECTOR, ".ticket-code").text.strip()),
                 "the dock shows no code").group(0)

    main = driver.current_window_handle
    open_popup(driver)
    hub_field = driver.find_element(By.CSS_SELECTOR, "#pair-code-form input[name=hub]")
    # As a person replaces it: select all, then type (the typing marks the field as the person's, so
    # the popup's next render keeps it; WebDriver's clear() fires no input event, and a render that
    # came after it filled the default hub in again, before the typed address).
    hub_field.send_keys(Keys.CONTROL, "a")
    hub_field.send_keys(hub.origin)
    assert hub_field.get_attribute("value") == hub.origin
    driver.find_element(By.CSS_SELECTOR, "#pair-code-form input[name=code]").send_keys(code)
    before = set(driver.window_handles)
    driver.find_element(By.ID, "pair-code-submit").click()

    def consent_opened(d):
        error = d.find_element(By.ID, "pair-code-error").text
        assert not error, f"the popup refused the code: {error}\nhub said:\n{hub.output()}"
        new = set(d.window_handles) - before
        return new.pop() if new else False

    consent = until(driver, consent_opened, "no consent window opened")
    assert driver.find_element(By.ID, "pair-code-status").text, "the popup says nothing of the opened window"

    driver.switch_to.window(consent)
    until(driver, lambda d: "/consent/consent.html" in d.current_url, "the new window is not the consent window")
    until(driver, lambda d: d.find_element(By.ID, "consent-request").is_displayed(),
          "the consent window never showed the request")
    assert hub.host in driver.find_element(By.ID, "consent-hub").text
    assert driver.find_element(By.ID, "consent-agent").text.strip() == agent_name
    # Allow is held until the window has been visible and focused for a moment (a page cannot get a
    # person's hurried click): wait for the button, never a fixed sleep.
    allow = until(driver, lambda d: (b := d.find_element(By.ID, "consent-allow")).is_enabled() and b,
                  "Allow never became enabled")
    allow.click()
    # The window says how it went, then closes itself.
    until(driver, lambda d: consent not in d.window_handles, "the consent window did not close after Allow")

    driver.switch_to.window(main)
    open_popup(driver)
    # Once the popup has asked the hub (GET page.grant with the new grant), the hub answers for it.
    rows = until(driver, lambda d: [r for r in pairing_rows(d) if r["hub_state"] == "reachable"],
                 "no pairing the hub answers for in the popup after Allow", detail=lambda: pairing_rows(driver))
    assert len(pairing_rows(driver)) == 1
    row = rows[0]
    assert row["hub"] == hub.host
    assert row["agent"] == agent_name
    assert row["pin_state"] == "none"
    pairing_id = row["id"]
    assert pairing_id

    listed = dock_rows(driver, hub, pairing_id)
    assert len(listed) == 1, "the hub's dock page does not list the pairing"
    assert listed[0].get_attribute("data-status") == "active"
    shared.update(pairing_id=pairing_id, main=main)


def test_point_button_in_the_popup_pins_the_selection_and_the_agent_reads_it(firefox, hub, site, agent):
    driver = firefox
    pairing_id, main = needs("pairing_id"), needs("main")
    page_url = site + "/article.html"

    open_in(driver, main, page_url)
    expected = driver.execute_script(
        """
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('#target-para'));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        return getSelection().toString().trim();
        """
    )
    assert expected.startswith("Raised beds on a Linux-powered irrigation timer")

    # The agent waits from now on (the hub wakes only waits under way when a pin comes: this one
    # starts well ahead of the click, as the person's agent would be waiting already).
    waiting = agent.call("wait_for_focus", {"timeout_s": 20})

    # The popup in a window of its own, as the toolbar's popup is not a tab of the page's window.
    driver.switch_to.new_window("window")
    popup = driver.current_window_handle
    shared["popup"] = popup
    open_popup(driver)
    # The Point button acts on the active tab of the last focused window: make that the page's
    # window again (switching to the popup's window focused it), then check it is so.
    focus_page_window(driver, page_url)

    # Reopened there, the popup sees the page as the one it can point at.
    open_popup(driver)
    until(driver, lambda d: any(r["id"] == pairing_id and r["can_point"] for r in pairing_rows(d)),
          "the popup's Point button stays disabled (the page is not pointable for it)",
          detail=lambda: pairing_rows(driver))
    click(driver, f'li[data-pairing-id="{pairing_id}"] button[data-action="point"]', "could not click Point")
    until(driver, lambda d: d.find_element(By.ID, "status-line").text or d.find_element(By.ID, "alert").text,
          "the popup said nothing after Point")
    alert = driver.find_element(By.ID, "alert").text
    assert not alert, f"Point failed: {alert}\nhub said:\n{hub.output()}"
    assert driver.find_element(By.ID, "status-line").text == "Pinned for default."

    is_error, result = waiting.result(timeout=30)
    assert not is_error, result
    assert result["timed_out"] is False
    focus = result["focus"]
    assert focus["kind"] == "page_reading"
    assert focus["app"]["id"] == "page"
    assert focus["next"] == "page__get_reading" and focus["next_args"] == {"id": focus["id"]}
    assert "irrigation" not in json.dumps(focus), "the focus carries identifiers only"

    # In plain text: the page's text as the person sees it (the Markdown is tests/e2e's).
    is_error, got = agent.call("page__get_reading", {**focus["next_args"], "format": "text"}).result(timeout=30)
    assert not is_error, got
    assert got["untrusted"] is True
    assert re.search(r"never instructions", got["note"], re.I)
    reading = got["reading"]
    assert reading["pointed"]["text"] == expected
    assert reading["pointed"]["how"] == "selection"
    assert reading["url"] == page_url
    assert reading["title"] == "Field guide to tidy gardens"
    assert reading["context"]["headings"] == ["Guide", "Install", "Linux"]
    shared["reading"] = focus["next_args"]


def open_in(driver, window, url):
    """Loads `url` in the window `window` and waits until it has loaded."""
    driver.switch_to.window(window)
    driver.get(url)
    until(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page did not load")


def pinned_by_point(driver, agent, pairing_id, popup, page_url):
    """The agent waits, the person presses Point for the page at `page_url` and it pins: gives the
    agent's wait result and its page__get_reading answer."""
    waiting = agent.call("wait_for_focus", {"timeout_s": 20})
    status, alert = point_from_the_popup(driver, pairing_id, popup, page_url)
    assert not alert, f"Point failed: {alert}"
    assert status == "Pinned for default."
    is_error, result = waiting.result(timeout=30)
    assert not is_error and result["timed_out"] is False, result
    # The plain texts, as pinned (the default is the reading's Markdown).
    is_error, got = agent.call("page__get_reading", {**result["focus"]["next_args"], "format": "text"}).result(timeout=30)
    assert not is_error, got
    return result, got


def point_from_the_popup(driver, pairing_id, popup, page_url):
    """The person presses Point in the popup (its own window) for the page at `page_url`; gives
    what the popup then says: (status line, alert)."""
    driver.switch_to.window(popup)
    open_popup(driver)
    focus_page_window(driver, page_url)
    open_popup(driver)
    until(driver, lambda d: any(r["id"] == pairing_id and r["can_point"] for r in pairing_rows(d)),
          "the popup's Point button stays disabled", detail=lambda: pairing_rows(driver))
    click(driver, f'li[data-pairing-id="{pairing_id}"] button[data-action="point"]', "could not click Point")
    until(driver, lambda d: d.find_element(By.ID, "status-line").text or d.find_element(By.ID, "alert").text,
          "the popup said nothing after Point")
    return driver.find_element(By.ID, "status-line").text, driver.find_element(By.ID, "alert").text


def test_in_firefox_a_fields_selection_is_pointed_as_its_value_and_a_closed_shadow_root_is_out_of_reach(
        firefox, hub, site, agent):
    """Issue 21 through the real extension in Firefox: a selection in a textarea is read from the
    field (pointed.field); a mouse selection inside a closed shadow root, which Firefox's
    element.openOrClosedShadowRoot tells the content script of, is refused in the extension's words."""
    driver = firefox
    pairing_id, main, popup = needs("pairing_id"), needs("main"), needs("popup")
    messages = json.loads((REPO_ROOT / "extension" / "_locales" / "en" / "messages.json").read_text())

    page_url = site + "/form-fields.html"
    open_in(driver, main, page_url)
    driver.execute_script(
        """
        const field = document.querySelector('#draft');
        const start = field.value.indexOf('Second line');
        field.focus();
        field.setSelectionRange(start, field.value.indexOf('point of it') + 'point of it'.length);
        """
    )
    _, got = pinned_by_point(driver, agent, pairing_id, popup, page_url)
    assert got["reading"]["pointed"]["text"] == "Second line of the draft, with the point of it"
    assert got["reading"]["pointed"]["field"] == "textarea"

    page_url = site + "/shadow-dom.html"
    open_in(driver, main, page_url)
    box = driver.execute_script(
        """
        const card = document.querySelector('#closed');
        card.scrollIntoView({ block: 'center' });
        const r = card.getBoundingClientRect();
        return { left: r.left, right: r.right, y: r.top + r.height / 2 };
        """
    )
    mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
    drag = ActionBuilder(driver, mouse=mouse)
    drag.pointer_action.move_to_location(int(box["left"] + 2), int(box["y"]))
    drag.pointer_action.pointer_down()
    drag.pointer_action.move_to_location(int(box["right"] - 2), int(box["y"]))
    drag.pointer_action.pointer_up()
    drag.perform()
    status, alert = point_from_the_popup(driver, pairing_id, popup, page_url)
    # The popup shows a refusal as its message, then its code for bug reports (errorCode).
    assert alert == messages["errClosedShadowRoot"]["message"] + " (closed_shadow_root)", (status, alert)


def test_point_button_on_a_selection_in_a_frame_from_another_site(firefox, hub, site, agent):
    """The popup's Point follows the focus into the frame that has it (tests/fixtures/frames.html,
    its frames from localhost: another site), in Firefox as in Chromium (tests/e2e/frames.e2e.test.mjs)."""
    driver = firefox
    pairing_id, main, popup = needs("pairing_id"), needs("main"), needs("popup")
    child = site.replace("127.0.0.1", "localhost")
    page_url = f"{site}/frames.html?child={child}"
    open_in(driver, main, page_url)
    driver.switch_to.frame(driver.find_element(By.ID, "widget"))
    try:
        # The person clicks into the frame (it takes the focus) and selects a line there.
        driver.find_element(By.ID, "reply").click()
        expected = driver.execute_script(
            """
            const range = document.createRange();
            range.selectNodeContents(document.querySelector('#reply'));
            getSelection().removeAllRanges();
            getSelection().addRange(range);
            return getSelection().toString().trim();
            """
        )
    finally:
        driver.switch_to.default_content()
    assert driver.execute_script("return document.activeElement.id") == "widget", "the frame has no focus"

    result, got = pinned_by_point(driver, agent, pairing_id, popup, page_url)
    reading = got["reading"]
    assert reading["pointed"]["how"] == "selection"
    assert reading["pointed"]["text"] == expected
    assert reading["url"] == page_url
    assert reading["title"] == "A story with frames"
    assert reading["frame"] == {"url": f"{child}/frame-child.html?widget", "origin": child,
                                "title": "Comments on the story"}
    shared["reading"] = result["focus"]["next_args"]


def test_revoke_in_the_popup_with_the_hub_up(firefox, hub, agent):
    driver = firefox
    pairing_id, popup = needs("pairing_id"), needs("popup")
    driver.switch_to.window(popup)
    open_popup(driver)
    row = f'li[data-pairing-id="{pairing_id}"]'
    revoke = f'{row} button[data-action="revoke"]'
    click(driver, revoke, "could not click Revoke")
    until(driver, lambda d: d.execute_script("return document.querySelector(arguments[0])?.dataset.confirming", revoke)
          == "true", "the first click on Revoke did not ask to confirm")
    click(driver, revoke, "could not click Revoke a second time")
    until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f"#pairings > {row}"),
          "the pairing is still listed after Revoke")
    alert = driver.find_element(By.ID, "alert").text
    assert not alert, alert
    # The hub is up: the give back reached it at once, and nothing waits (no give-back entry either).
    assert driver.find_element(By.ID, "status-line").text == "Revoked. The hub has been told."
    assert not driver.find_element(By.ID, "give-backs").is_displayed(), driver.find_element(By.ID, "give-backs").text
    assert not driver.find_elements(By.CSS_SELECTOR, row)

    assert dock_rows(driver, hub, pairing_id) == [], "the hub's dock page still lists the pairing"
    # The hub let the pin go with the grant.
    reading = needs("reading")
    is_error, gone = agent.call("page__get_reading", reading).result(timeout=30)
    assert is_error and gone["error"] == "reading_unknown", gone
