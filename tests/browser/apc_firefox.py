"""Firefox helpers for the browser tests: firefox-esr (headless) through Selenium and geckodriver,
with the built extension installed as a temporary add-on under a fixed moz-extension:// UUID.

`make_firefox()` gives a driver with the extension loaded (`firefox_with_addon` any add-on, which
the real-input suites use too), `extension_url(path)` a page of the extension, `standard_version_from_core()` the standard's version as Rust core declares it.
Fixtures that use them are in conftest.py. (A uniquely named module, not conftest, so tests in other
directories can import it without clashing with their own conftest.)
"""

import json
import os
import pathlib
import re
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.firefox.options import Options
from selenium.webdriver.firefox.service import Service

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST_EXTENSION = REPO_ROOT / "dist" / "extension"
FIREFOX = os.environ.get("APC_FIREFOX", "/usr/bin/firefox-esr")
GECKODRIVER = os.environ.get("APC_GECKODRIVER") or shutil.which("geckodriver") or str(
    pathlib.Path.home() / ".cargo" / "bin" / "geckodriver"
)
# The moz-extension:// host the tests give the extension (pref extensions.webextensions.uuids).
EXTENSION_UUID = "6f1d0c52-8a3e-4b7d-9e21-5c4a7b0d3e98"

# Selenium must never fetch a driver or a browser: Debian's firefox-esr and our geckodriver only.
os.environ.setdefault("SE_OFFLINE", "true")


def standard_version_from_core():
    """`APC_STANDARD_VERSION` as `crates/core/src/lib.rs` declares it."""
    source = (REPO_ROOT / "crates" / "core" / "src" / "lib.rs").read_text()
    match = re.search(r'pub const APC_STANDARD_VERSION: &str = "([^"]+)";', source)
    assert match, "APC_STANDARD_VERSION not found in crates/core/src/lib.rs"
    return match.group(1)


def gecko_id(extension_dir=DIST_EXTENSION):
    manifest = json.loads((pathlib.Path(extension_dir) / "manifest.json").read_text())
    return manifest["browser_specific_settings"]["gecko"]["id"]


def make_firefox(extension_dir=DIST_EXTENSION, headless=True, prefs=None):
    """A Firefox driver with the extension at `extension_dir` installed as a temporary add-on."""
    extension_dir = pathlib.Path(extension_dir)
    if not (extension_dir / "wasm" / "apc_background_bg.wasm").exists():
        pytest.fail(f"no built extension at {extension_dir}: run scripts/build-extension.sh first")
    return firefox_with_addon(extension_dir, gecko_id(extension_dir), EXTENSION_UUID, headless=headless, prefs=prefs)


def firefox_with_addon(addon, addon_id, uuid, headless=False, prefs=None, env=None):
    """firefox-esr through geckodriver with `addon` (a folder or an .xpi) installed as a temporary
    add-on whose moz-extension:// host is `uuid`, `prefs` set, geckodriver run with `env`."""
    options = Options()
    options.binary_location = FIREFOX
    if headless:
        options.add_argument("-headless")
    options.set_preference("extensions.webextensions.uuids", json.dumps({addon_id: uuid}))
    for name, value in (prefs or {}).items():
        options.set_preference(name, value)
    service = Service(executable_path=GECKODRIVER, service_args=["--allow-system-access"], env=env)
    driver = webdriver.Firefox(options=options, service=service)
    try:
        driver.install_addon(str(addon), temporary=True)
    except Exception:
        driver.quit()
        raise
    return driver


def extension_url(path):
    return f"moz-extension://{EXTENSION_UUID}/{path.lstrip('/')}"
