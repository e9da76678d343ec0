"""Both MCP eras against a real `apc-hub`, over HTTP and over stdio through `apc-hub mcp` (the relay a
client that only spawns processes runs): the PyPI `mcp` client as a 2025-11-25 client (its `legacy`
mode: the `initialize` handshake) and as a stateless 2026-07-28 one (its `auto` mode: no
`initialize`; `server/discover` gives the version and the instructions). Each lists the tools, waits while the person pins, and
reads the pin. Then a raw 2025-06-18 exchange over stdio, and the relay's answer when no hub runs.
(A wait cancelled through the relay is `crates/hub/tests/relay.rs`, which can see the hub's waits.)"""

import json
import subprocess

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

from hubkit import TOOLS, hub, hub_bin  # noqa: F401 (hub is a fixture)

# "legacy": the initialize handshake at the newest revision that has one; "auto": the client probes
# server/discover first and, the hub answering it, speaks the stateless 2026-07-28 revision.
ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def target(hub, transport: str):
    if transport == "http":
        return hub.agents()[0]["mcp_url"]
    return StdioServerParameters(command=hub_bin(), args=["mcp", "--data-dir", hub.data_dir])


@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize("mode", list(ERAS))
def test_each_era_lists_waits_and_reads(hub, mode, transport):
    pairing = hub.pair()
    grant = pairing["grant"]

    async def main():
        async with Client(target(hub, transport), mode=mode, read_timeout_seconds=60) as client:
            assert client.protocol_version == ERAS[mode]
            assert "wait_for_focus" in (client.instructions or "")
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS

            got = {}

            async def wait():
                got["result"] = await client.call_tool("wait_for_focus", {"timeout_s": 25})

            pinned = set()
            async with anyio.create_task_group() as tg:
                tg.start_soon(wait)
                while "result" not in got:
                    status, body = await anyio.to_thread.run_sync(lambda: hub.pin(grant, f"Pointed over {transport}"))
                    assert status == 200, body
                    pinned.add(body["focus"]["id"])
                    await anyio.sleep(0.2)
            waited = got["result"].structured_content
            assert waited["timed_out"] is False and waited["focus"]["id"] in pinned
            status, state = await anyio.to_thread.run_sync(lambda: hub.extension("GET", "/page/grant", grant=grant))
            read = await client.call_tool("page__get_reading", {"id": state["pin"]["id"]})
            assert not read.is_error
            assert read.structured_content["untrusted"] is True
            assert read.structured_content["reading"]["pointed"]["text"] == f"Pointed over {transport}"

    anyio.run(main)


class Relay:
    """`apc-hub mcp` driven line by line."""

    def __init__(self, hub):
        self.proc = subprocess.Popen(
            [hub_bin(), "mcp", "--data-dir", hub.data_dir],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )

    def send(self, message: dict):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=10) == 0


def test_a_2025_06_18_client_over_stdio(hub):
    relay = Relay(hub)
    relay.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
    init = relay.receive()
    assert init["id"] == 1 and init["result"]["protocolVersion"] == "2025-06-18"
    assert "wait_for_focus" in init["result"]["instructions"]
    relay.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    relay.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert {t["name"] for t in relay.receive()["result"]["tools"]} == TOOLS
    relay.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "wait_for_focus", "arguments": {"timeout_s": 1}}})
    answer = relay.receive()
    assert answer["id"] == 3 and answer["result"]["structuredContent"]["timed_out"] is True
    relay.close()


def test_the_relay_says_how_to_start_a_hub_that_is_not_running(hub):
    hub.proc.terminate()
    hub.proc.wait(timeout=10)
    relay = Relay(hub)
    relay.send({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
    answer = relay.receive()
    assert answer["id"] == 7 and "apc-hub install" in answer["error"]["message"], answer
    relay.close()
