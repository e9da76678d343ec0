"""The dock page in Firefox ESR (Selenium + geckodriver), against a real apc-hub binary: the agent's mark
visible and styled under the dock's strict CSP in light and dark (its hue a stylesheet class, not an
inline style Firefox would block), a ticket minted only when the person reaches for the mark, and an
agent's connect instructions shown when the person opens them.
Screenshots go to tests/artifacts/screenshots/ (ignored), or with APC_SCREENSHOTS=1 to the committed
tests/hub/screenshots/ (to refresh them)."""

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.firefox.options import Options

from hubkit import hub_bin

HERE = Path(__file__).resolve().parent
SHOTS = HERE / "screenshots" if os.environ.get("APC_SCREENSHOTS") == "1" else HERE.parents[1] / "tests" / "artifacts" / "screenshots"


def until(read, seconds=20.0):
    """What `read()` gives once it gives something (a fact the page's script brings about, read
    again every 0.1 s), or its last answer after `seconds`: the caller's assertion then says why."""
    deadline = time.monotonic() + seconds
    got = read()
    while not got and time.monotonic() < deadline:
        time.sleep(0.1)
        got = read()
    return got


@pytest.fixture
def origin():
    data_dir = tempfile.mkdtemp(prefix="apc-hub-dock-ff-")
    proc = subprocess.Popen([hub_bin(), "--listen", "127.0.0.1:0", "--data-dir", data_dir, "--log", "warn"],
                            stdout=subprocess.PIPE, text=True)
    first = proc.stdout.readline().strip()
    match = re.fullmatch(r"apc-hub listening on (http://127\.0\.0\.1:\d+)", first)
    assert match, first
    try:
        yield match.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(data_dir, ignore_errors=True)


def firefox(scheme: str):
    options = Options()
    options.add_argument("-headless")
    # 0: dark, 1: light, for the page's prefers-color-scheme.
    options.set_preference("layout.css.prefers-color-scheme.content-override", 0 if scheme == "dark" else 1)
    return webdriver.Firefox(options=options)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_mark_is_visible_and_mints_on_reach(origin, scheme):
    driver = firefox(scheme)
    try:
        driver.set_window_size(900, 700)
        driver.get(origin + "/")
        mark = driver.find_element(By.CSS_SELECTOR, ".agent-mark")
        style = driver.execute_script(
            "const s = getComputedStyle(arguments[0]); const c = getComputedStyle(arguments[0].querySelector('.mark'));"
            "return [s.backgroundColor, s.borderTopColor, s.borderTopWidth, s.color, c.backgroundColor, c.color,"
            " s.getPropertyValue('--hue').trim()];", mark)
        background, border, border_width, color, circle, initial, hue = style
        assert hue, "the hue comes from the stylesheet"
        assert border_width != "0px"
        for c in (background, border, circle):
            assert c not in ("rgba(0, 0, 0, 0)", "transparent"), style
        assert background != color and circle != initial, style
        assert mark.get_attribute("draggable") == "true"
        assert mark.get_attribute("data-ticket") is None, "viewing the dock mints nothing"
        ActionChains(driver).move_to_element(mark).perform()
        ticket = until(lambda: mark.get_attribute("data-ticket"))
        assert ticket and len(ticket) == 20, driver.find_element(By.ID, "status").text
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"dock-firefox-{scheme}.png"))
    finally:
        driver.quit()


def test_an_agents_connect_instructions_show_when_opened(origin):
    driver = firefox("light")
    try:
        driver.get(origin + "/")
        entry = driver.find_element(By.CSS_SELECTOR, "li.agent")
        url = entry.find_element(By.CSS_SELECTOR, "code.mcp-url").get_attribute("textContent").strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp/\S+", url), url
        entry.find_element(By.CSS_SELECTOR, "details.connect summary").click()
        clients = until(lambda: entry.find_elements(By.CSS_SELECTOR, "details.connect dl.clients dd.client"))
        assert len(clients) == 7, driver.find_element(By.ID, "status").text
        for dd in clients:
            text = dd.text
            if dd.get_attribute("data-client") == "claude-desktop":
                assert '"mcp"' in text, text
            else:
                assert url in text, (dd.get_attribute("data-client"), text)
    finally:
        driver.quit()
