"""A person's real mouse and keyboard, for both browsers: a virtual X display (Xvfb), the browsers in
windows on it (Firefox ESR through geckodriver, Chromium through chromedriver, both headful), and
xdotool pressing, moving and typing through the X server, so every event the page and the browser
see is trusted, exactly as from a person's hands.

The browsers run the store packages (scripts/package.sh): Firefox installs the .xpi as a temporary
add-on, Chromium loads the .zip unpacked. Screen coordinates of an element are the viewport's
screen offset plus its client rect; the offset is measured with the real pointer (a move into the
window, and the trusted mousemove's screenX - clientX), so no browser chrome is guessed.
"""

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import zipfile

import pytest
from selenium import webdriver

# tests/browser's helpers (on the path: tests/realinput/conftest.py puts it there).
from apc_firefox import firefox_with_addon

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST = REPO_ROOT / "dist"
CHROMIUM = os.environ.get("APC_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("APC_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
FIREFOX_UUID = "0b7c3f1e-2d4a-4e6b-9a8c-1f2e3d4c5b6a"
SCREEN = (1600, 1000)
# What a person waits for at most before calling a step broken (polled, never slept).
STEP_S = 20

os.environ.setdefault("SE_OFFLINE", "true")


# ---- The display and the hands -------------------------------------------------------------------


class Display:
    """Xvfb on a free display number (it picks one and tells us through -displayfd)."""

    def __init__(self):
        if not shutil.which("Xvfb") or not shutil.which("xdotool"):
            pytest.fail("Xvfb and xdotool are needed: run scripts/setup.sh")
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(write)
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            self.proc.kill()
            pytest.fail("Xvfb did not start")
        self.name = f":{number.decode().strip()}"
        # A window manager, as every desktop has: Chromium finds the window under a drag through
        # the manager's stacking list (_NET_CLIENT_LIST_STACKING); without one a drop never lands.
        self.wm = None
        if shutil.which("openbox"):
            self.wm = subprocess.Popen(["openbox", "--sm-disable"], env=self.env(),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)

    def env(self):
        return dict(os.environ, DISPLAY=self.name)

    def stop(self):
        if self.wm:
            self.wm.terminate()
            try:
                self.wm.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.wm.kill()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Hands:
    """xdotool on the display: the person's mouse and keyboard."""

    def __init__(self, display):
        self.env = display.env()

    def _do(self, *args):
        subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True, timeout=30)

    def where(self):
        """Where the pointer is on the screen."""
        out = subprocess.run(["xdotool", "getmouselocation", "--shell"], env=self.env, capture_output=True,
                             text=True, timeout=30, check=True).stdout
        at = dict(line.split("=", 1) for line in out.split() if "=" in line)
        return int(at.get("X", -1)), int(at.get("Y", -1))

    def move(self, x, y):
        x, y = int(round(x)), int(round(y))
        # `--sync` waits for the pointer to move: to where it already is, that wait lasts ~16 s for a
        # motion that never comes (measured on this Xvfb), so a move there is no move at all.
        if self.where() == (x, y):
            return
        self._do("mousemove", "--sync", x, y)

    def press(self, button=1):
        self._do("mousedown", button)

    def release(self, button=1):
        self._do("mouseup", button)

    def click(self, x, y, button=1):
        self.move(x, y)
        time.sleep(0.15)
        self._do("click", button)

    def key(self, *chords):
        for chord in chords:
            self._do("key", "--clearmodifiers", chord)
            time.sleep(0.05)

    def type(self, text):
        self._do("type", "--delay", 40, text)

    def drag(self, start, end, steps=12, pause=0.08, hold=0.5):
        """Press on `start`, hold (a mark mints its ticket when pressed), move in small steps, release
        on `end`: the pace of a person's hand, which gives a trusted dragstart and drop."""
        sx, sy = start
        ex, ey = end
        self.move(sx, sy)
        time.sleep(0.1)
        self.press()
        time.sleep(hold)
        # A few short moves first: the drag starts in the source window.
        for i in range(1, 4):
            self.move(sx + 3 * i, sy + 2 * i)
            time.sleep(pause)
        for i in range(1, steps + 1):
            self.move(sx + (ex - sx) * i / steps, sy + (ey - sy) * i / steps)
            time.sleep(pause)
        # Linger over the target a moment, as a hand does: the target window must have answered the
        # drag (X drag and drop is asynchronous) before the release, or there is no drop.
        for dx in (2, -2, 1, -1, 0):
            self.move(ex + dx, ey)
            time.sleep(0.12)
        time.sleep(float(os.environ.get("LINGER", "0.2")))
        self.release()

    def window_ids(self, name):
        run = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name], env=self.env,
                             capture_output=True, text=True, timeout=30)
        return [w for w in run.stdout.split() if w]

    def focus_window(self, name):
        """Keyboard focus to the top window whose title contains `name` (as a click on it would)."""
        ids = self.window_ids(name)
        if not ids:
            pytest.fail(f"no window titled like {name!r}")
        self._do("windowraise", ids[-1])
        self._do("windowfocus", "--sync", ids[-1])


# ---- The packages, unpacked where a browser needs it ------------------------------------------------


def packages():
    version = json.loads((REPO_ROOT / "extension" / "manifest.json").read_text())["version"]
    chrome, firefox = DIST / f"apc-page-{version}-chrome.zip", DIST / f"apc-page-{version}-firefox.xpi"
    for p in (chrome, firefox):
        if not p.exists():
            pytest.fail(f"no {p.name}: run scripts/package.sh first")
    return chrome, firefox


def unpacked(zip_path):
    target = pathlib.Path(tempfile.mkdtemp(prefix="apc-chrome-package-"))
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(target)
    return target


def chromium_extension_id(path):
    """The id Chromium gives an unpacked extension: from the SHA-256 of its absolute path, a-p."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


# ---- The browsers -------------------------------------------------------------------------------------


class Browser:
    """One browser with the extension, on the display. `url(path)` is a page of the extension."""

    name = ""

    def __init__(self, driver, base, env):
        self.driver = driver
        self.base = base
        self.env = env

    def url(self, path):
        return f"{self.base}/{path.lstrip('/')}"

    def quit(self):
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001 - the browser may be gone already
            pass
        for path in getattr(self, "cleanup_dirs", []):
            shutil.rmtree(path, ignore_errors=True)


def launch_firefox(display, xpi, prefs=None):
    with zipfile.ZipFile(xpi) as z:
        gecko_id = json.loads(z.read("manifest.json"))["browser_specific_settings"]["gecko"]["id"]
    driver = firefox_with_addon(xpi, gecko_id, FIREFOX_UUID, env=display.env(), prefs={
        # A person's Firefox: no first-run pages, windows where the test puts them.
        "browser.shell.checkDefaultBrowser": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "ui.popup.disable_autohide": False,
        **(prefs or {}),
    })
    browser = Browser(driver, f"moz-extension://{FIREFOX_UUID}", display.env())
    browser.name = "firefox"
    return browser


def launch_chromium(display, zip_path, args=(), env=None):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    ext = unpacked(zip_path)
    profile = tempfile.mkdtemp(prefix="apc-chromium-profile-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in (f"--user-data-dir={profile}", f"--load-extension={ext}", f"--disable-extensions-except={ext}",
                "--no-sandbox", "--no-first-run", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--password-store=basic", *args):
        options.add_argument(arg)
    # chromedriver would turn extensions off; the person's browser has them.
    options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
    # Windows the extension opens (its consent window) are of type "app" for chromedriver.
    options.add_experimental_option("windowTypes", ["app", "webview", "other"])
    service = Service(executable_path=CHROMEDRIVER, env=dict(display.env(), **(env or {})))
    driver = webdriver.Chrome(options=options, service=service)
    browser = Browser(driver, f"chrome-extension://{chromium_extension_id(ext)}", display.env())
    browser.name = "chromium"
    browser.cleanup_dirs = [ext, profile]
    return browser


# ---- Windows, coordinates, waiting ------------------------------------------------------------------


def place(driver, x, y, width, height):
    driver.set_window_rect(x=x, y=y, width=width, height=height)


TRACK_POINTER = """
if (!window.__apcPointer) {
  window.__apcPointer = { offset: null };
  addEventListener('mousemove', (e) => {
    if (e.isTrusted) window.__apcPointer.offset = [e.screenX - e.clientX, e.screenY - e.clientY];
  }, true);
}
"""


class View:
    """One window's page, for reading what it shows (never for acting: the hands do that).
    `run(body, *args)` runs a function body with `args` and gives what it returns."""

    name = ""

    def run(self, body, *args):
        raise NotImplementedError


class WindowView(View):
    """A window WebDriver lists (a handle)."""

    def __init__(self, browser, handle):
        self.browser, self.handle, self.name = browser, handle, browser.name

    def run(self, body, *args):
        d = self.browser.driver
        if d.current_window_handle != self.handle:
            d.switch_to.window(self.handle)
        return d.execute_script(body, *args)

    def url(self):
        return self.run("return location.href")


class CdpView(View):
    """A page chromedriver does not list (a window the extension opened): read over the browser's
    DevTools socket, which chromedriver opened."""

    def __init__(self, browser, ws_url):
        import websocket  # selenium's own dependency

        self.browser, self.name = browser, browser.name
        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next_id = 0

    def run(self, body, *args):
        self.next_id += 1
        expression = f"(function(){{ {body} }}).apply(null, {json.dumps(list(args))})"
        self.ws.send(json.dumps({"id": self.next_id, "method": "Runtime.evaluate",
                                 "params": {"expression": expression, "returnByValue": True}}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                break
        result = reply.get("result", {})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text", "script failed"))
        return result.get("result", {}).get("value")

    def close(self):
        self.ws.close()


def devtools_pages(browser):
    """Chromium: the page targets the browser has, as DevTools lists them."""
    import urllib.request

    address = browser.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{address}/json/list", timeout=10) as r:
        return [t for t in json.loads(r.read()) if t.get("type") == "page"]


def find_window(browser, url_part, known=()):
    """A view of a window (not in `known`) whose URL contains `url_part`, or None."""
    d = browser.driver
    if browser.name == "firefox":
        for handle in d.window_handles:
            if handle in known:
                continue
            d.switch_to.window(handle)
            if url_part in d.current_url:
                return WindowView(browser, handle)
        return None
    for target in devtools_pages(browser):
        if url_part in target.get("url", "") and target["id"] not in known:
            view = CdpView(browser, target["webSocketDebuggerUrl"])
            view.target_id = target["id"]
            return view
    return None


def wait_for_window(browser, url_part, known=(), timeout=STEP_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            view = find_window(browser, url_part, known)
        except Exception:  # noqa: BLE001 - a window closing under us: look again
            view = None
        if view:
            return view
        time.sleep(0.2)
    pytest.fail(f"{browser.name}: no window with {url_part!r} opened within {timeout} s")


def poll(condition, message, timeout=STEP_S, detail=None):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except Exception as error:  # noqa: BLE001 - not there yet
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.1)
    pytest.fail(f"{message} (after {timeout} s): {detail() if detail else last!r}")


def viewport_offset(view, hands):
    """Where the view's viewport starts on the screen, measured with the real pointer."""
    view.run(TRACK_POINTER + "window.__apcPointer.offset = null;")
    x, y, w, h, inner_h = view.run("return [screenX, screenY, outerWidth, outerHeight, innerHeight]")
    probe = (x + w / 2, y + h - min(inner_h, h) / 2)
    for dx in (0, 7, 14, 21):
        hands.move(probe[0] + dx, probe[1] + dx)
        time.sleep(0.1)
        offset = view.run("return window.__apcPointer.offset")
        if offset:
            return offset
    pytest.fail(f"{view.name}: the pointer never reached the page at {probe}")


RECT_OF = """
const el = document.querySelector(arguments[0]);
if (!el) return null;
el.scrollIntoView({ block: 'center' });
let r = el.getBoundingClientRect();
if (arguments[1] === 'text') {
  const g = document.createRange();
  g.selectNodeContents(el);
  r = g.getClientRects()[0] || r;
}
return [r.left, r.top, r.width, r.height];
"""


def element_point(view, hands, selector, where="center", offset=None):
    """Screen coordinates of the first element matching `selector`: its centre, or a point on its
    first line of text for `where="text"`."""
    offset = offset or viewport_offset(view, hands)
    rect = view.run(RECT_OF, selector, where)
    if not rect:
        pytest.fail(f"{view.name}: no {selector} in the page")
    left, top, width, height = rect
    x = left + (min(width / 2, 40) if where == "text" else width / 2)
    return offset[0] + x, offset[1] + top + height / 2


def select_by_triple_click(view, hands, selector, attempts=3):
    """A triple click on `selector`'s first line of text selects its paragraph, as a person does it;
    gives the point clicked and the selected text once the page clicked in holds the keyboard focus
    (keys that follow go to that window). A window closing itself over the page (the consent window
    shows its outcome for a moment) can take the clicks: then the person looks and clicks again, and
    so does this, up to `attempts` times."""
    last = None
    for _ in range(attempts):
        point = element_point(view, hands, selector, "text")
        hands.move(*point)
        time.sleep(0.6)  # apart from any click before, so these three count as one triple click
        hands._do("click", "--repeat", "3", "--delay", "90", 1)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                text = view.run("return document.hasFocus() && getSelection().toString().trim()")
            except Exception as error:  # noqa: BLE001 - not there yet
                text, last = None, error
            if text:
                return point, text
            time.sleep(0.1)
        last = view.run("return [document.hasFocus(), document.visibilityState, getSelection().toString()]")
    pytest.fail(f"{view.name}: {attempts} triple clicks on {selector} selected nothing with the focus: {last!r}")


def note_markup(browser, url_part):
    """The in-page note's markup (its style and box), read through its closed shadow root from
    outside the page, as no page script can: Chromium over DevTools (`DOM.getDocument` with pierce),
    Firefox over WebDriver (its shadow-root command reaches closed roots). None when there is no note
    yet. The window's page must have `url_part` in its URL (Chromium picks the DevTools target by it;
    Firefox reads the driver's current window)."""
    if browser.name == "firefox":
        from selenium.webdriver.common.by import By

        d = browser.driver
        hosts = d.find_elements(By.CSS_SELECTOR, "apc-page-feedback")
        if not hosts or url_part not in d.current_url:
            return None
        children = hosts[0].shadow_root.find_elements(By.CSS_SELECTOR, "*")
        top = [d.execute_script("return arguments[0].parentNode === arguments[0].getRootNode()"
                                " ? arguments[0].outerHTML : ''", c) for c in children]
        return "".join(top) or None
    page = next(t for t in devtools_pages(browser) if url_part in t["url"])
    view = CdpView(browser, page["webSocketDebuggerUrl"])

    def send(method, params):
        view.next_id += 1
        view.ws.send(json.dumps({"id": view.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(view.ws.recv())
            if reply.get("id") == view.next_id:
                return reply.get("result", {})

    try:
        root = send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
        found = []

        def walk(node):
            if node.get("nodeName") == "APC-PAGE-FEEDBACK":
                found.extend(node.get("shadowRoots", []))
            for child in node.get("children", []) + node.get("shadowRoots", []):
                walk(child)

        walk(root)
        if not found:
            return None
        return "".join(send("DOM.getOuterHTML", {"nodeId": c["nodeId"]})["outerHTML"]
                       for c in found[0].get("children", [])) or None
    finally:
        view.close()


def note_texts(markup):
    """The texts a person reads in the note's markup, in order (its message first, then its
    buttons' labels); the style sheet is not text."""
    from html.parser import HTMLParser

    texts = []

    class Reader(HTMLParser):
        in_style = 0

        def handle_starttag(self, tag, attrs):
            self.in_style += tag == "style"

        def handle_endtag(self, tag):
            self.in_style -= tag == "style"

        def handle_data(self, data):
            if not self.in_style and data.strip():
                texts.append(data.strip())

    Reader().feed(markup)
    return texts


def screen_shot(display, path):
    """The whole X screen (native menus and windows included), as PNG, if ImageMagick is there."""
    if not shutil.which("import"):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["import", "-window", "root", str(path)], env=display.env(), check=False, timeout=30)
    return path.exists()


# ---- Fixture sites: the end-to-end suite's own server (tests/e2e/lib/site.mjs), run by node ---------

SITE_RUNNER = """
import { startSite, directOnly } from './tests/e2e/lib/site.mjs';
const options = JSON.parse(process.argv[1]);
if (options.apcJson === 'direct-only') options.apcJson = directOnly(options.appName ?? 'Signals');
const site = await startSite(options);
console.log(site.origin);
process.stdin.on('end', async () => { await site.close(); process.exit(0); });
process.stdin.resume();
"""


class Site:
    """tests/e2e/lib/site.mjs serving tests/fixtures on its own origin (options as startSite takes
    them; apcJson "direct-only" for a Direct-only app's apc.json)."""

    # Origins earlier sites of this run had: never given out again, because the extension keeps an
    # origin's apc.json answer for a while (APP_CHECK_REUSE_MS) and would give that site's answer.
    used_origins = set()

    def __init__(self, **options):
        held = []
        while True:
            self.proc = subprocess.Popen(
                ["node", "--input-type=module", "-e", SITE_RUNNER, json.dumps(options)],
                cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            self.origin = self.proc.stdout.readline().strip()
            if not self.origin.startswith("http://127.0.0.1:"):
                self.close()
                for site in held:
                    site.close()
                pytest.fail(f"the fixture site did not start: {self.origin!r}")
            if self.origin not in Site.used_origins:
                break
            held.append(_Started(self.proc))  # held while another port is taken
        for site in held:
            site.close()
        Site.used_origins.add(self.origin)
        self.host = self.origin.removeprefix("http://")

    def url(self, path):
        return self.origin + path

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.proc.kill()


class _Started:
    """A fixture site's process, only to be closed."""

    def __init__(self, proc):
        self.proc = proc

    def close(self):
        Site.close(self)


def press_in_consent(consent, hands, button="#consent-allow"):
    """The person answers the consent window with the real mouse: it must show the request and
    have the focus (a click on its heading gives it, as a person's look-and-click does), and the
    button must be enabled (the window may hold Allow for a moment while visible and focused). Waits
    until the window reacts: it says how it went, or closes itself. Gives what it said."""
    poll(lambda: consent.run("const r = document.querySelector('#consent-request'); return r && !r.hidden"),
         "the consent window never showed the request")
    if not consent.run("return document.hasFocus()"):
        hands.click(*element_point(consent, hands, "#consent-heading"))
        poll(lambda: consent.run("return document.hasFocus()"), "the consent window did not take the focus")
    poll(lambda: consent.run("return !document.querySelector(arguments[0]).disabled", button),
         f"{button} never became enabled")
    hands.click(*element_point(consent, hands, button))

    def answered():
        try:
            return consent.run("return document.querySelector('#consent-result').innerText.trim()"
                               " || document.querySelector('#consent-error').innerText.trim()")
        except Exception:  # noqa: BLE001 - the window closed itself
            return "closed"

    return poll(answered, f"the consent window did not react to a click on {button}")


CODE = r"^[0-9A-Z]{4,}(-[0-9A-Z]{4,})+$"


def dock_code(dock, hands):
    """The pairing code the dock page shows for its first agent. A dock that mints codes only on
    demand shows none until its "New code" button is pressed: the person presses it."""
    import re

    def shown():
        text = dock.run("return document.querySelector('.ticket-code')?.textContent.trim() ?? ''")
        return text if re.match(CODE, text) else None

    if not shown():
        hands.click(*element_point(dock, hands, ".new-code"))
    return poll(shown, "the dock page shows no pairing code")


def pair_with_dock_code(browser, hands, hub, popup):
    """The person reads the pairing code on the hub's dock page (in `popup`'s window) and pairs with
    it in the popup: the hub's address and the code filled in, Pair pressed with the mouse. Gives
    the consent window that opens."""
    d = browser.driver
    d.get(hub.origin + "/")
    code = dock_code(popup, hands)
    d.get(browser.url("popup/popup.html"))
    poll(lambda: popup.run("return document.body.dataset.state") == "ready", "the popup is not ready")
    popup.run("document.querySelector('#pair-code-hub').value = arguments[0];"
              "document.querySelector('#pair-code-code').value = arguments[1];", hub.origin, code)
    hands.click(*element_point(popup, hands, "#pair-code-submit"))
    return wait_for_window(browser, "/consent/consent.html", {popup.handle})


def command_chord():
    """The keyboard command's chord as the manifest suggests it, in xdotool's words."""
    manifest = json.loads((REPO_ROOT / "extension" / "manifest.json").read_text())
    return manifest["commands"]["point-selection"]["suggested_key"]["default"].lower()


# ---- A suite's world: the page and the dock side by side, tests in order ---------------------------

# The page window on the left, the hub's dock window on the right, as a person arranges them.
PAGE_RECT = (0, 0, 1000, 960)
DOCK_RECT = (1010, 0, 580, 960)


class PageAndDock:
    """What a suite's world shares: its browser's two windows, the page (`self.page`) and the hub's
    dock (`self.dock`), and `self.shared`, what one test leaves for the next (the tests of a suite
    run in order). The world sets `self.browser` and `self.hub`, then calls `place_windows`."""

    def place_windows(self):
        d = self.browser.driver
        self.page = WindowView(self.browser, d.current_window_handle)
        place(d, *PAGE_RECT)
        d.switch_to.new_window("window")
        self.dock = WindowView(self.browser, d.current_window_handle)
        place(d, *DOCK_RECT)
        self.shared = {}

    def open_dock(self):
        d = self.browser.driver
        d.switch_to.window(self.dock.handle)
        d.get(self.hub.origin + "/")
        poll(lambda: self.dock.run("return !!document.querySelector('.agent-mark')"), "the dock shows no mark")

    def known_windows(self):
        return {self.page.handle, self.dock.handle}


def tear_down(*steps):
    """Runs each step of a world's tear-down, going on past one that fails (a browser already gone,
    a hub already stopped), so none is left running."""
    for step in steps:
        try:
            step()
        except Exception:  # noqa: BLE001 - tearing down: go on with the rest
            pass


def needs(world, key):
    """What an earlier test left in `world.shared` under `key`; the test fails if it did not get
    that far (then this one cannot start where it should)."""
    if key not in world.shared:
        where = f" in {world.kind}" if getattr(world, "kind", None) else ""
        pytest.fail(f"an earlier test did not get as far as {key!r}{where}")
    return world.shared[key]


def read_focus(world, waiting):
    """The focus a `wait_for_focus` call (`waiting`) got, and the reading the agent then gets with
    `page__get_reading` in plain text (`format: "text"`: the page's text as the person sees it, which
    these suites compare; the Markdown is tests/e2e's), checked to be a page reading marked
    untrusted."""
    is_error, result = waiting.result(timeout=60)
    assert not is_error, result
    assert result["timed_out"] is False, "the agent got no focus"
    focus = result["focus"]
    assert focus["kind"] == "page_reading" and focus["next"] == "page__get_reading"
    is_error, got = world.agent.call("page__get_reading", {**focus["next_args"], "format": "text"}).result(timeout=30)
    assert not is_error, got
    assert got["untrusted"] is True
    return focus, got["reading"]


# ---- What a hostile page's drags leave behind (tests/realinput/test_realinput_hostile.py) ----------


def note_text(view):
    """The message line of the extension's note in `view` (a WindowView), or None when the page
    shows no note: read by `note_markup` and `note_texts` (the one note reader), again if the
    extension replaced the note while it was being read (a newer note: WebDriver calls the old
    one's elements stale)."""
    from selenium.common.exceptions import StaleElementReferenceException

    d = view.browser.driver
    for _ in range(5):
        if view.browser.name == "firefox" and d.current_window_handle != view.handle:
            d.switch_to.window(view.handle)
        try:
            markup = note_markup(view.browser, view.url())
        except StaleElementReferenceException:
            continue
        texts = note_texts(markup) if markup else []
        return texts[0] if texts else None
    return None


def no_window_opens(browser, url_part, known=(), seconds=1.5):
    """Watches for `seconds` that no window (not in `known`) whose URL contains `url_part` opens;
    fails at once if one does. The browser opens a window asynchronously after what caused it, so
    this is a settle time after that cause, not a sleep standing in for a condition."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            view = find_window(browser, url_part, known)
        except Exception:  # noqa: BLE001 - a window closing under us: look again
            view = None
        if view:
            pytest.fail(f"{browser.name}: a window with {url_part!r} opened: {view.run('return location.href')}")
        if time.monotonic() >= deadline:
            return
        time.sleep(0.2)


def pointer_elsewhere(hands):
    """Moves the pointer off every window, to the screen's bottom-right corner, so that what comes
    next starts from outside the pages."""
    hands.move(SCREEN[0] - 4, SCREEN[1] - 4)
