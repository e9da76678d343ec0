"""Live parts the browser suites share: a real `apc-hub` on a free port with a data dir of its own,
and the agent, the PyPI `mcp` client on an event loop of its own. Tests talk to the hub only over
HTTP, MCP and its CLI, never through its insides.
"""

import asyncio
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import threading

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


# ---- apc-hub ---------------------------------------------------------------------------------


def hub_bin() -> str:
    """`APC_HUB_BIN`, else `apc-hub` in the cargo target dir (built if it is missing)."""
    if os.environ.get("APC_HUB_BIN"):
        return os.environ["APC_HUB_BIN"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO_ROOT / "target"))
    binary = target / "debug" / "apc-hub"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--quiet", "-p", "apc-hub"], cwd=REPO_ROOT, check=True)
    return str(binary)


class Hub:
    """A running `apc-hub` on a free port of 127.0.0.1, with a data dir of its own."""

    def __init__(self, data_dir=None, listen="127.0.0.1:0"):
        self.binary = hub_bin()
        self.own_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="apc-hub-test-")
        self.proc = subprocess.Popen(
            [self.binary, "--listen", listen, "--data-dir", self.data_dir],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        first = self.proc.stdout.readline().strip()
        self.lines = [first]
        match = re.fullmatch(r"apc-hub listening on (http://127\.0\.0\.1:(\d+))", first)
        if not match:
            self.stop()
            pytest.fail(f"apc-hub did not start; its first line: {first!r}")
        self.origin, self.port = match.group(1), int(match.group(2))
        self.host = f"127.0.0.1:{self.port}"
        # Keep reading what it says (a full pipe would stall it); shown when a test fails.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    def agents(self) -> list:
        out = subprocess.run(
            [self.binary, "agent", "list", "--json", "--data-dir", self.data_dir, "--listen", self.host],
            check=True, capture_output=True, text=True, timeout=30,
        ).stdout
        return json.loads(out)

    def add_agent(self, name):
        subprocess.run([self.binary, "agent", "add", name, "--data-dir", self.data_dir],
                       check=True, capture_output=True, timeout=30)

    def halt(self):
        """Stops the process, keeping its data dir (a restart on the same port finds it all)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def stop(self):
        self.halt()
        if self.own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)


# ---- The agent: the PyPI mcp client on an event loop of its own --------------------------------


class Agent:
    """An MCP session with the hub on a thread of its own, so a tool call (a `wait_for_focus`) can
    be under way while Selenium drives the browser. `call` gives a concurrent future of
    `(is_error, structured_result)`."""

    def __init__(self, mcp_url: str):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stop_event = None
        self.holder = None
        self.session = asyncio.run_coroutine_threadsafe(self._open(mcp_url), self.loop).result(timeout=30)

    async def _open(self, mcp_url):
        self.stop_event = asyncio.Event()
        opened = asyncio.get_running_loop().create_future()

        async def hold():
            # The client's task groups must be entered and left in one task: this one.
            try:
                async with streamable_http_client(mcp_url) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        opened.set_result(session)
                        await self.stop_event.wait()
            except BaseException as error:  # noqa: BLE001 - handed to the opener, then re-raised
                if not opened.done():
                    opened.set_exception(error)
                raise

        self.holder = asyncio.ensure_future(hold())
        return await opened

    async def _call(self, name, args):
        result = await self.session.call_tool(name, args, read_timeout_seconds=60)
        structured = result.structured_content
        assert json.loads(result.content[0].text) == structured
        return bool(result.is_error), structured

    def call(self, name: str, args: dict):
        return asyncio.run_coroutine_threadsafe(self._call(name, args), self.loop)

    def close(self):
        async def finish():
            self.stop_event.set()
            try:
                await asyncio.wait_for(self.holder, 10)
            except BaseException:  # noqa: BLE001 - closing: whatever the client says now is moot
                pass

        try:
            asyncio.run_coroutine_threadsafe(finish(), self.loop).result(timeout=15)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


