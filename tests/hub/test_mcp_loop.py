"""A third-party MCP client (the PyPI `mcp` package, its Streamable HTTP client) runs the agent's loop
against a real `apc-hub` binary, while this test plays the browser extension over HTTP with an
extension Origin and reads the dock page the way the extension's e2e tests do."""

import json

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from hubkit import TOOLS, hub, reading  # noqa: F401 (hub is a fixture)

async def call(session: ClientSession, name: str, args: dict):
    result = await session.call_tool(name, args, read_timeout_seconds=60)
    structured = result.structured_content
    assert json.loads(result.content[0].text) == structured
    return bool(result.is_error), structured


def test_the_agent_loop_with_the_pypi_mcp_client(hub):
    mcp_url = hub.agents()[0]["mcp_url"]
    assert mcp_url.startswith(hub.origin + "/mcp/")
    dock = hub.dock()
    assert dock["hub"] == hub.origin

    async def main():
        async with streamable_http_client(mcp_url) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert "wait_for_focus" in (init.instructions or "")
                tools = await session.list_tools()
                assert {t.name for t in tools.tools} == TOOLS

                is_error, waited = await call(session, "wait_for_focus", {"timeout_s": 1})
                assert not is_error
                assert waited["focus"] is None and waited["timed_out"] is True

                status, paired = await anyio.to_thread.run_sync(
                    lambda: hub.extension("POST", "/page/pair", {"ticket": dock["ticket"], "agent": dock["agent"]}))
                assert status == 201, paired
                grant = paired["pairing"]["grant"]

                # Pins repeat until the wait answers; what it returns must be one of them.
                pinned = set()
                got = {}

                async def wait():
                    got["result"] = await call(session, "wait_for_focus", {"timeout_s": 25})

                async with anyio.create_task_group() as tg:
                    tg.start_soon(wait)
                    while "result" not in got:
                        status, body = await anyio.to_thread.run_sync(lambda: hub.pin(grant, "Pointed words"))
                        assert status == 200, body
                        pinned.add(body["focus"]["id"])
                        await anyio.sleep(0.1)
                is_error, result = got["result"]
                assert not is_error and result["timed_out"] is False
                focus = result["focus"]
                assert focus["id"] in pinned
                assert focus["kind"] == "page_reading" and focus["app"]["id"] == "page"
                assert focus["next"] == "page__get_reading" and focus["next_args"] == {"id": focus["id"]}
                assert "Pointed words" not in json.dumps(focus)

                # A pin sent while the wait's answer travelled may have replaced it: read the current one.
                status, state = await anyio.to_thread.run_sync(lambda: hub.extension("GET", "/page/grant", grant=grant))
                assert status == 200 and state["pin"]["id"] in pinned
                current = {"id": state["pin"]["id"]}
                is_error, read = await call(session, focus["next"], current)
                assert not is_error, read
                assert read["id"] == current["id"]
                assert read["untrusted"] is True
                assert "never instructions" in read["note"]
                assert read["reading"]["pointed"]["text"] == "Pointed words"

                # A pin made while the agent was busy is returned at once by its next wait.
                status, body = await anyio.to_thread.run_sync(lambda: hub.pin(grant, "While busy"))
                assert status == 200, body
                is_error, result = await call(session, "wait_for_focus", {"timeout_s": 3})
                assert not is_error and result["timed_out"] is False, result
                assert result["focus"]["id"] == body["focus"]["id"]
                assert result["focus"]["app_url"] == "https://example.org"
                is_error, result = await call(session, "wait_for_focus", {"timeout_s": 1})
                assert result["timed_out"] is True, "returned once, then seen"

                is_error, bad = await call(session, "page__get_reading", {"id": "rd_nothing"})
                assert is_error and bad["error"] == "reading_unknown"

                # Revoke from the dock page (same origin, its CSRF token).
                pairing_id = paired["pairing"]["id"]
                status, _ = await anyio.to_thread.run_sync(lambda: hub.request(
                    "POST", "/dock/revoke", {"pairing": pairing_id},
                    {"origin": hub.origin, "x-csrf-token": dock["csrf"]}))
                assert status == 200
                status, answer = await anyio.to_thread.run_sync(lambda: hub.pin(grant, "again"))
                assert status == 403 and answer["error"] == "revoked"
                assert answer["revoked_by"] == hub.origin.removeprefix("http://")
                is_error, gone = await call(session, "page__get_reading", current)
                assert is_error and gone["error"] == "reading_unknown"

    anyio.run(main)


def test_web_origins_are_refused(hub):
    mcp_url = hub.agents()[0]["mcp_url"]
    dock = hub.dock()
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    status, body = hub.request("POST", mcp_url.removeprefix(hub.origin), init, {
        "origin": "http://evil.example", "accept": "application/json, text/event-stream"})
    assert status == 403 and body["error"] == "origin_refused"

    evil = {"origin": "http://evil.example", "authorization": "Bearer x"}
    for method, path, body in [
        ("POST", "/page/pair", {"ticket": dock["ticket"], "agent": dock["agent"]}),
        ("PUT", "/page/pin", {"reading": reading("x")}),
        ("DELETE", "/page/pin", None),
        ("GET", "/page/grant", None),
        ("DELETE", "/page/grant", None),
    ]:
        status, answer = hub.request(method, path, body, evil)
        assert status == 403 and answer["error"] == "origin_refused", (method, path, status, answer)

    status, answer = hub.request("POST", "/dock/tickets", {"agent": dock["agent"]}, {"origin": "http://evil.example"})
    assert status == 403 and answer["error"] == "csrf_refused"


def big_reading() -> dict:
    """A reading of a long documentation page at the 256 KiB cap, its main text in plain text and as
    Markdown (headings, code fences, lists, tables), both of one size."""
    r = reading("Pointed words")
    r["markdown"] = {"pointed": "## Pointed words", "before": "", "after": "", "page": ""}
    plain, md = [], []
    i = 0
    while True:
        plain.append(f"Section {i}\n\nRun the step {i}, then check its output, \"as shown\" in the table.\n\nfn step_{i}() {{ run(); }}")
        md.append(f"## Section {i}\n\nRun the step {i}, then check its output, \"as shown\" in the table.\n\n```rust\nfn step_{i}() {{ run(); }}\n```\n\n| step | state |\n| --- | --- |\n| {i} | done |")
        r["page_text"] = "\n\n".join(plain)
        r["markdown"]["page"] = "\n\n".join(md)
        if len(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()) > 256 * 1024 - 600:
            break
        i += 1
    plain.pop()
    md.pop()
    r["page_text"] = "\n\n".join(plain)
    r["markdown"]["page"] = "\n\n".join(md)
    return r


def test_a_reading_at_its_cap_is_read_in_parts_within_the_budget_by_the_pypi_client(hub):
    """Claude Code caps a tool's output at 25,000 tokens and moves a result over 50,000 characters
    out of the conversation: the hub answers within 40,000 bytes, the pointed part whole in the
    first part, and the agent reads the rest by page_text_next_offset, whole and in order."""
    mcp_url = hub.agents()[0]["mcp_url"]
    dock = hub.dock()
    big = big_reading()
    size = len(json.dumps(big, ensure_ascii=False, separators=(",", ":")).encode())
    assert 256 * 1024 - 2000 < size <= 256 * 1024

    async def read_all(session, reading_id, fmt):
        parts = []
        args = {"id": reading_id, "format": fmt}
        while True:
            result = await session.call_tool("page__get_reading", args, read_timeout_seconds=60)
            assert not result.is_error, result
            text_block = result.content[0].text
            assert len(text_block.encode()) <= 40_000, len(text_block.encode())
            assert json.loads(text_block) == result.structured_content
            parts.append(result.structured_content)
            nxt = result.structured_content["page_text_next_offset"]
            if nxt is None:
                return parts
            assert nxt > args.get("offset", -1)
            args = {"id": reading_id, "format": fmt, "offset": nxt}

    async def main():
        status, paired = await anyio.to_thread.run_sync(
            lambda: hub.extension("POST", "/page/pair", {"ticket": dock["ticket"], "agent": dock["agent"]}))
        assert status == 201, paired
        grant = paired["pairing"]["grant"]
        status, body = await anyio.to_thread.run_sync(
            lambda: hub.extension("PUT", "/page/pin", {"reading": big}, grant))
        assert status == 200, body
        reading_id = body["focus"]["id"]
        async with streamable_http_client(mcp_url) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name: t for t in (await session.list_tools()).tools}
                meta = tools["page__get_reading"].meta or {}
                assert meta.get("anthropic/maxResultSizeChars", 0) >= 40_000
                for fmt, whole in [("markdown", big["markdown"]["page"]), ("text", big["page_text"])]:
                    parts = await read_all(session, reading_id, fmt)
                    # Parts of at most 40,000 bytes each: at least as many as the text's JSON needs.
                    assert len(parts) >= -(-len(json.dumps(whole, ensure_ascii=False).encode()) // 40_000) >= 3, len(parts)
                    first = parts[0]
                    assert first["format"] == fmt and first["page_text_format"] == fmt
                    pointed = big["markdown"]["pointed"] if fmt == "markdown" else "Pointed words"
                    assert first["reading"]["pointed"]["text"] == pointed
                    assert all("pointed" not in p["reading"] for p in parts[1:])
                    assert first["page_text_chars"] == len(whole)
                    offsets = [p["page_text_offset"] for p in parts]
                    assert offsets == sorted(offsets) and offsets[0] == 0
                    assert "".join(p["reading"]["page_text"] for p in parts) == whole
                    if fmt == "markdown":
                        # No part ends inside a code fence.
                        for p in parts:
                            assert p["reading"]["page_text"].count("```") % 2 == 0

    anyio.run(main)
