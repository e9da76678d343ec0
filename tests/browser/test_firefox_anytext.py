"""Issue 21's "any text on any page" cases in Firefox ESR (Selenium + geckodriver), the cases of
tests/content/anytext-cases.json that tests/content/anytext.test.mjs runs in Chromium: text inside
open shadow roots at any depth, closed ones refused as out of reach, form fields (and their secrets
refused), SVG text, a one-million-character text node, and text exactly as shown.

Each case points as a person does (a drop's point, a real mouse drag through WebDriver actions, a
selection in a field); the content script's files, in the manifest's order, collect in the page
(once for the whole page, once around the point only, as a drop's first message), and both
observations go through the background's Rust (apc-content's `reading` example). Firefox runs the
collector here in the page's own world: the DOM APIs it uses (caretPositionFromPoint with
shadowRoots, getComposedRanges, elementFromPoint of shadow roots, text controls' selections) are the
same in a content script.
"""

import json
import os
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.firefox.options import Options
from selenium.webdriver.firefox.service import Service

from apc_firefox import FIREFOX, GECKODRIVER, REPO_ROOT

CASES = json.loads((REPO_ROOT / "tests" / "content" / "anytext-cases.json").read_text())["cases"]
PAGE_HELPER = (REPO_ROOT / "tests" / "content" / "lib" / "anytext-page.js").read_text()
TARGET_DIR = os.environ.get("CARGO_TARGET_DIR") or str(REPO_ROOT / "target")
READING_BIN = os.path.join(TARGET_DIR, "debug", "examples", "reading")
# A stand-in for the extension's API that tells a closed shadow root (in a content script,
# Firefox's element.openOrClosedShadowRoot; a page's own world has none): it knows the fixture's
# closed card.
CLOSED_SHADOW_API = """globalThis.chrome = Object.assign(globalThis.chrome || {}, { dom: {
  openOrClosedShadowRoot(el) { return el.localName === "closed-card" ? { mode: "closed" } : el.shadowRoot; } } });"""


def content_script_source():
    """The manifest's content script files, in order, as one script (scripts/lib/content-script.mjs)."""
    manifest = json.loads((REPO_ROOT / "extension" / "manifest.json").read_text())
    files = [f for entry in manifest["content_scripts"] for f in entry["js"]]
    return "\n".join((REPO_ROOT / "extension" / f).read_text() + "\n;" for f in files)


SOURCE = content_script_source()




@pytest.fixture(scope="module")
def reader():
    """apc-content's `reading` example, built once: an observation in, its reading or refusal out."""
    subprocess.run(["cargo", "build", "-q", "-p", "apc-content", "--example", "reading"], cwd=REPO_ROOT, check=True,
                   env={**os.environ, "CARGO_TARGET_DIR": TARGET_DIR})

    def read(observation_json):
        out = subprocess.run([READING_BIN, "2026-11-29T00:00:00Z"], input=observation_json, capture_output=True,
                             text=True, check=False)
        return json.loads(out.stdout)

    return read


@pytest.fixture(scope="module")
def firefox():
    """A headless firefox-esr of its own (no extension: the collector is put into each page)."""
    options = Options()
    options.binary_location = FIREFOX
    options.add_argument("-headless")
    driver = webdriver.Firefox(options=options, service=Service(executable_path=GECKODRIVER))
    driver.set_window_rect(0, 0, 1280, 900)
    yield driver
    driver.quit()


def mouse_drag(driver, start, end):
    """A real drag of the mouse through WebDriver actions: press at `start`, move, release at `end`."""
    mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(driver, mouse=mouse)
    actions.pointer_action.move_to_location(int(start["x"]), int(start["y"]))
    actions.pointer_action.pointer_down()
    actions.pointer_action.move_to_location(int((start["x"] + end["x"]) / 2), int((start["y"] + end["y"]) / 2))
    actions.pointer_action.move_to_location(int(end["x"]), int(end["y"]))
    actions.pointer_action.pointer_up()
    actions.perform()


def check(case, observation_json, reading, what):
    want = case["expect"]
    for secret in want.get("absentFromObservation", []):
        assert secret not in observation_json, f"{what}: the observation holds {secret}"
    if "error" in want:
        assert reading.get("error") == want["error"], f"{what}: {json.dumps(reading)[:400]}"
        return
    assert "error" not in reading, f"{what}: refused: {reading.get('message')}"
    if "text" in want:
        assert reading["pointed"]["text"] == want["text"], what
    if "contains" in want:
        assert want["contains"] in reading["pointed"]["text"], f"{what}: {reading['pointed']['text'][:200]}"
    if "headings" in want:
        assert reading["context"]["headings"] == want["headings"], what
    assert reading["pointed"].get("field") == want.get("field"), f"{what}: field"
    if "truncated" in want:
        assert reading.get("truncated") == want["truncated"], f"{what}: truncated"
    whole = json.dumps(reading, ensure_ascii=False)
    for secret in want.get("absent", []):
        assert secret not in whole, f"{what}: the reading holds {secret}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_any_text_case_in_firefox(case, firefox, site, reader):
    firefox.get(f"{site}/{case['page']}")
    ActionChains(firefox).move_by_offset(0, 0)  # nothing pressed from an earlier case
    prepared = firefox.execute_script(PAGE_HELPER + "\nreturn anytextPrepare(arguments[0]);", case)
    if prepared.get("mouse"):
        mouse_drag(firefox, prepared["mouse"]["from"], prepared["mouse"]["to"])
    prelude = CLOSED_SHADOW_API if case.get("closedShadowApi") else ""
    whole, around = firefox.execute_script(
        prelude + "\n" + SOURCE + """
        var request = arguments[0];
        var ask = function (options) {
          try { return JSON.stringify(collectObservation(request, options)); }
          catch (e) { return JSON.stringify({ collectError: e.code || String(e) }); }
        };
        return [ask(), ask({ aroundOnly: true })];""", prepared["request"])
    assert "collectError" not in json.loads(whole), f"the collector threw: {whole}"
    check(case, whole, reader(whole), "the whole page's observation")
    check(case, around, reader(around), "the observation around the point")
