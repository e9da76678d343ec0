"""Fixtures for the Firefox tests (helpers in apc_firefox.py)."""

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from apc_firefox import REPO_ROOT, make_firefox, standard_version_from_core


@pytest.fixture(scope="module")
def firefox():
    """A headless firefox-esr with the built extension installed, shared by a test module."""
    driver = make_firefox()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def core_standard_version():
    return standard_version_from_core()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    """tests/fixtures/ served on 127.0.0.1 (another site as localhost), for a test module."""
    folder = REPO_ROOT / "tests" / "fixtures"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)
