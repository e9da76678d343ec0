"""`apc-hub connect` for the seven clients, read with parsers other than the hub's own (Python's json and
tomllib): every snippet parses as its client's format and names the agent's real MCP URL (or, for
Claude Desktop, runs `apc-hub mcp` for that agent); `--write` into a throwaway home's config files
that already hold other servers and settings keeps all of them, makes a backup first, and a file it
cannot parse is left byte for byte."""

import json
import os
import re
import subprocess
import tomllib

from hubkit import hub, hub_bin  # noqa: F401 (hub is a fixture)

CLIENTS = ["claude-code", "claude-desktop", "cursor", "vscode", "windsurf", "codex", "gemini"]
URL_KEY = {"windsurf": "serverUrl", "gemini": "httpUrl"}


def connect(hub, home, *args):
    env = dict(os.environ, HOME=str(home))
    for k in ("XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"):
        env.pop(k, None)
    return subprocess.run([hub_bin(), "connect", *args, "--data-dir", hub.data_dir], env=env,
                          capture_output=True, text=True)


def strict(text: str) -> str:
    """JSON with comments (VS Code's) as plain JSON: no // comments, no trailing commas."""
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    return re.sub(r",(\s*[}\]])", r"\1", text)


def parse(fmt: str, text: str):
    return tomllib.loads(text) if fmt == "toml" else json.loads(text)


def test_every_snippet_parses_and_names_the_agents_url(hub, tmp_path):
    url = hub.agents()[0]["mcp_url"]
    run = connect(hub, tmp_path, "--json")
    assert run.returncode == 0, run.stderr
    entries = {e["client"]: e for e in json.loads(run.stdout)}
    assert sorted(entries) == sorted(CLIENTS)
    for client, e in entries.items():
        servers = parse(e["format"], e["snippet"])["servers" if client == "vscode" else
                                                  "mcp_servers" if client == "codex" else "mcpServers"]
        entry = servers[e["entry_name"]]
        if client == "claude-desktop":
            assert entry["args"] == ["mcp", "--agent", "default"], entry
            assert os.path.basename(entry["command"]) == "apc-hub"
        else:
            assert entry[URL_KEY.get(client, "url")] == url, (client, entry)
    assert entries["vscode"]["link"].startswith("vscode:mcp/install?")
    assert entries["cursor"]["link"].startswith("cursor://anysphere.cursor-deeplink/mcp/install?name=apc-default&config=")
    assert url in entries["claude-code"]["command"] and url in entries["codex"]["command"]


FIXTURES = {
    "claude-code": (".claude.json", '{"numStartups": 3, "mcpServers": {"github": {"type": "http", "url": "https://example.com/mcp"}}}'),
    "claude-desktop": (".config/Claude/claude_desktop_config.json", '{"mcpServers": {"fs": {"command": "npx", "args": ["fs"]}}, "globalShortcut": "Ctrl+Space"}'),
    "cursor": (".cursor/mcp.json", '{"mcpServers": {"linear": {"url": "https://mcp.linear.app/sse"}}}'),
    "vscode": (".config/Code/User/mcp.json", '{\n  // mine\n  "servers": {"memory": {"command": "npx", "args": ["m"]}},\n  "inputs": [],\n}\n'),
    "windsurf": (".codeium/windsurf/mcp_config.json", '{"mcpServers": {"x": {"serverUrl": "https://x.example/mcp"}}}'),
    "codex": (".codex/config.toml", 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'),
    "gemini": (".gemini/settings.json", '{"theme": "Dracula", "mcpServers": {"git": {"command": "uvx", "args": ["git"]}}}'),
}


def test_write_keeps_what_each_file_holds_and_backs_it_up(hub, tmp_path):
    url = hub.agents()[0]["mcp_url"]
    for client, (rel, text) in FIXTURES.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        run = connect(hub, tmp_path, client, "--write")
        assert run.returncode == 0, (client, run.stdout, run.stderr)
        backups = list(path.parent.glob(path.name + ".apc-hub-backup-*"))
        assert len(backups) == 1 and backups[0].read_text() == text, client
        after = path.read_text()
        if client == "vscode":
            assert "// mine" in after, "comments are kept"
        doc = parse("toml" if client == "codex" else "json", strict(after))
        before = parse("toml" if client == "codex" else "json", strict(text))
        key = "servers" if client == "vscode" else "mcp_servers" if client == "codex" else "mcpServers"
        for name, entry in before[key].items():
            assert doc[key][name] == entry, (client, name)
        for k, v in before.items():
            if k != key:
                assert doc[k] == v, (client, k)
        ours = doc[key]["apc-default"]
        if client == "claude-desktop":
            assert ours["args"] == ["mcp", "--agent", "default"]
        else:
            assert ours[URL_KEY.get(client, "url")] == url, (client, ours)
        again = connect(hub, tmp_path, client, "--write")
        assert "nothing to change" in again.stdout, again.stdout
        assert len(list(path.parent.glob(path.name + ".apc-hub-backup-*"))) == 1


def test_a_file_it_cannot_parse_is_refused_and_left_as_it_is(hub, tmp_path):
    path = tmp_path / ".cursor/mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"mcpServers": {')
    run = connect(hub, tmp_path, "cursor", "--write")
    assert run.returncode == 1 and "left as it is" in run.stderr, run
    assert path.read_text() == '{"mcpServers": {'
    assert sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]
