"""The browser in German (Chromium `--lang=de` and `LANGUAGE=de`, Firefox `intl.locale.requested=de` with Debian's
German language pack), the store packages: the popup, the consent window, the context menu entry
and the in-page note speak German, from extension/_locales/de.
"""

import json
import re

import pytest

from apc_live import Hub
from realinput import (REPO_ROOT, Site, WindowView, find_window, launch_chromium, launch_firefox, note_markup,
                       note_texts, packages, pair_with_dock_code, place, poll, press_in_consent, screen_shot,
                       select_by_triple_click)

DE = json.loads((REPO_ROOT / "extension" / "_locales" / "de" / "messages.json").read_text())
SHOTS = REPO_ROOT / "tests" / "artifacts" / "screenshots"


def de(key, *subs):
    text = DE[key]["message"]
    for name, spec in DE[key].get("placeholders", {}).items():
        index = int(spec["content"].lstrip("$")) - 1
        text = re.sub(rf"\${name}\$", subs[index] if index < len(subs) else "", text, flags=re.I)
    return text


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def german(request, display, hands):
    hub = Hub()
    site = Site()
    chrome, xpi = packages()
    if request.param == "firefox":
        browser = launch_firefox(display, xpi, prefs={
            "intl.locale.requested": "de",
            # Debian's langpack lives in the application's scope; a fresh profile must enable it.
            "extensions.autoDisableScopes": 0, "extensions.enabledScopes": 15,
        })
    else:
        # Chromium on Linux takes its UI language from LANGUAGE (--lang is for the other systems).
        browser = launch_chromium(display, chrome, args=["--lang=de"], env={"LANGUAGE": "de"})
    place(browser.driver, 0, 0, 1000, 900)
    yield browser, hands, hub, site, display
    browser.quit()
    hub.stop()
    site.close()


def test_popup_and_consent_in_german(german):
    browser, hands, hub, _, _ = german
    d = browser.driver
    popup = WindowView(browser, d.current_window_handle)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return document.body.dataset.state") == "ready", "the popup is not ready")
    assert popup.run("return (globalThis.browser ?? chrome).i18n.getUILanguage()").startswith("de")
    assert popup.run("return document.documentElement.lang").startswith("de")
    assert popup.run("return document.querySelector('#pair-code-heading').textContent.trim()") == de("pairCodeHeading")
    assert popup.run("return document.querySelector('#pair-code-submit').textContent.trim()") == de("pairCodeSubmit")
    # The context menu entry's title, as the background makes it.
    assert popup.run("return (globalThis.browser ?? chrome).i18n.getMessage('menuPointAgent', ['default', '127.0.0.1:7410'])") \
        == de("menuPointAgent", "default", "127.0.0.1:7410")

    consent = pair_with_dock_code(browser, hands, hub, popup)
    poll(lambda: consent.run("const r = document.querySelector('#consent-request'); return r && !r.hidden"),
         "the consent window never showed the request")
    assert consent.run("return document.querySelector('#consent-heading').textContent.trim()") == de("consentTitle")
    assert consent.run("return document.querySelector('#consent-allow').textContent.trim()") == de("consentAllow")
    assert consent.run("return document.querySelector('#consent-deny').textContent.trim()") == de("consentDeny")
    press_in_consent(consent, hands)
    if browser.name == "firefox":
        d.switch_to.window(popup.handle)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return !!document.querySelector('#pairings > li[data-pairing-id]')"),
         "no pairing in the popup after Allow")
    assert popup.run("return document.querySelector('[data-action=revoke]').textContent.trim()") == de("revokeButton")


def test_the_in_page_note_in_german(german):
    browser, hands, hub, site, display = german
    d = browser.driver
    # The consent window of the test before shows its outcome for a moment, then closes itself:
    # the person points once it has gone.
    poll(lambda: find_window(browser, "/consent/", ()) is None, "the consent window is still open")
    d.get(site.url("/article.html"))
    page = WindowView(browser, d.current_window_handle)
    poll(lambda: page.run("return document.readyState") == "complete", "the article did not load")
    select_by_triple_click(page, hands, "h1")
    hands.key("alt+shift+k")
    texts = note_texts(poll(lambda: note_markup(browser, "/article.html"), "no note in the page"))
    text = texts[0]
    screen_shot(display, SHOTS / f"realinput-{browser.name}-note-de.png")
    english = json.loads((REPO_ROOT / "extension" / "_locales" / "en" / "messages.json").read_text())
    patterns = [re.sub(r"\\\$[A-Z_]+\\\$", ".+", re.escape(v["message"])) for v in DE.values()]
    assert any(re.fullmatch(p, text) for p in patterns if len(p) > 8), f"the note is not German: {text!r}"
    assert not any(re.fullmatch(re.sub(r"\\\$[A-Z_]+\\\$", ".+", re.escape(v["message"])), text)
                   for v in english.values()), text
