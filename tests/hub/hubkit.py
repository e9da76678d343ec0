"""What the hub's Python tests share: the built `apc-hub` binary, a hub started on a throwaway data
directory (the `hub` fixture), and the requests the dock page's script and the extension send."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXT = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
TOOLS = {"get_current_view", "wait_for_focus", "list_app_tools", "call_app_tool", "page__get_reading"}


def hub_bin() -> str:
    if os.environ.get("APC_HUB_BIN"):
        return os.environ["APC_HUB_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    binary = target / "debug" / "apc-hub"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--quiet", "-p", "apc-hub"], cwd=ROOT, check=True)
    return str(binary)


class Hub:
    def __init__(self, origin: str, data_dir: str, proc: subprocess.Popen):
        self.origin, self.data_dir, self.proc = origin, data_dir, proc

    def url(self, path: str) -> str:
        return self.origin + path

    def agents(self) -> list:
        port = self.origin.rsplit(":", 1)[1]
        out = subprocess.run(
            [hub_bin(), "agent", "list", "--json", "--data-dir", self.data_dir, "--listen", f"127.0.0.1:{port}"],
            check=True, capture_output=True, text=True,
        ).stdout
        return json.loads(out)

    def request(self, method: str, path: str, body=None, headers=None):
        """(status, JSON body or None) of one HTTP request."""
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.url(path), data=data, method=method, headers=headers or {})
        if data is not None:
            req.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                status, raw = res.status, res.read()
        except urllib.error.HTTPError as err:
            status, raw = err.code, err.read()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw.decode(errors="replace")

    def extension(self, method: str, path: str, body=None, grant=None):
        headers = {"origin": EXT}
        if grant:
            headers["authorization"] = f"Bearer {grant}"
        return self.request(method, path, body, headers)

    def dock(self) -> dict:
        """What the dock page shows (the mark's data attributes, the CSRF token) and the ticket its
        script mints when the person reaches for the mark: `GET /` itself mints none."""
        with urllib.request.urlopen(self.url("/"), timeout=10) as res:
            html = res.read().decode()
        mark = re.search(r'<button[^>]*class="agent-mark[^"]*"[^>]*>', html).group(0)
        attrs = dict(re.findall(r'data-(agent|hub)="([^"]*)"', mark))
        assert "data-ticket" not in html
        attrs["csrf"] = re.search(r'<meta name="csrf-token" content="([^"]*)"', html).group(1)
        attrs["html"] = html
        attrs["ticket"] = self.mint(attrs)["ticket"]
        return attrs

    def mint(self, dock: dict) -> dict:
        status, body = self.request("POST", "/dock/tickets", {"agent": dock["agent"]}, {
            "origin": self.origin, "sec-fetch-site": "same-origin", "x-csrf-token": dock["csrf"]})
        assert status == 201, body
        return body

    def pin(self, grant: str, text: str):
        """A pin by selection: no ticket."""
        return self.extension("PUT", "/page/pin", {"reading": reading(text)}, grant)

    def pair(self) -> dict:
        """A pairing of the default agent by a ticket the dock's script minted: the pairing."""
        dock = self.dock()
        status, paired = self.extension("POST", "/page/pair", {"ticket": dock["ticket"], "agent": dock["agent"]})
        assert status == 201, paired
        return paired["pairing"]


def reading(text: str) -> dict:
    return {
        "url": "https://example.org/post",
        "title": "A post",
        "pointed": {"text": text, "how": "selection", "targets": []},
        "context": {"headings": ["Results"], "before": "", "after": ""},
        "made_at": "2026-11-29T00:00:00.000Z",
    }


@pytest.fixture
def hub():
    data_dir = tempfile.mkdtemp(prefix="apc-hub-pytest-")
    proc = subprocess.Popen(
        [hub_bin(), "--listen", "127.0.0.1:0", "--data-dir", data_dir],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    first = proc.stdout.readline().strip()
    match = re.fullmatch(r"apc-hub listening on (http://127\.0\.0\.1:\d+)", first)
    assert match, f"unexpected first line: {first!r}"
    try:
        yield Hub(match.group(1), data_dir, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


