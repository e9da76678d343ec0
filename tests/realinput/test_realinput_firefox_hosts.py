"""Firefox lets a person withhold or take back a Manifest V3 add-on's host permissions. Then the
popup says so, with the reason, and asks from a click (permissions.request); the person allows in
Firefox's own prompt with real keys, and the notice goes away. Chromium grants host permissions at
install and has no such state, so this is Firefox's alone.
"""

import json
import time

import pytest

from realinput import REPO_ROOT, WindowView, element_point, launch_firefox, packages, place, poll, screen_shot

EN = json.loads((REPO_ROOT / "extension" / "_locales" / "en" / "messages.json").read_text())
SHOTS = REPO_ROOT / "tests" / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def firefox(display):
    _, xpi = packages()
    browser = launch_firefox(display, xpi)
    place(browser.driver, 0, 0, 900, 800)
    yield browser
    browser.quit()


def hosts_granted(popup):
    return popup.browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "browser.permissions.contains({ origins: browser.runtime.getManifest().host_permissions }).then(done);")


def test_the_popup_says_access_is_missing_and_asks_with_the_reason(firefox, display, hands):
    d = firefox.driver
    popup = WindowView(firefox, d.current_window_handle)
    d.get(firefox.url("popup/popup.html"))
    assert hosts_granted(popup) is True
    assert not popup.run("return !!document.querySelector('#host-access')"), "a notice while access is granted"

    # As a person would in about:addons (Permissions: off).
    d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "browser.permissions.remove({ origins: browser.runtime.getManifest().host_permissions }).then(done);")
    d.get(firefox.url("popup/popup.html"))
    poll(lambda: popup.run("return !!document.querySelector('#host-access')"), "no notice that access is missing")
    assert popup.run("return document.querySelector('#host-access-heading').textContent") == EN["hostAccessMissing"]["message"]
    assert popup.run("return document.querySelector('#host-access-reason').textContent") == EN["hostAccessReason"]["message"]

    hands.click(*element_point(popup, hands, "#host-access-grant"))
    time.sleep(1.0)  # Firefox's prompt opening; what follows is the person's key on it
    screen_shot(display, SHOTS / "realinput-firefox-host-permission-prompt.png")
    hands.key("alt+a")  # the prompt's "Allow" (its access key)
    poll(lambda: hosts_granted(popup) is True, "access was not granted after the prompt was accepted")
    poll(lambda: not popup.run("return !!document.querySelector('#host-access')"), "the notice stays after the grant")
