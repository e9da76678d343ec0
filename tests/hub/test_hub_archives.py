"""scripts/package.sh's hub archives and MCP Bundles: reproducible to the byte (two runs, the second in
another time zone), one timestamp, fixed owner and modes, sorted entries, the binary unchanged inside
with a README, every file in SHA256SUMS; each bundle's manifest valid by the MCPB toolchain's own
validator (npm @anthropic-ai/mcpb), and the Linux bundle run as an MCPB host runs it (its command
and arguments from the toolchain's getMcpConfigForManifest) reaching a running hub over stdio. CI packs the binary it already built (`--hub-bin`, a stripped
copy of the debug build: 163 MB with its debug info took minutes to gzip twice) instead of four
release builds (minutes each on two cores); a target with no build is skipped and said so."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

from hubkit import ROOT, TOOLS, hub_bin

NATIVE = "x86_64-unknown-linux-gnu"


def version() -> str:
    for line in (ROOT / "crates/hub/Cargo.toml").read_text().splitlines():
        if line.startswith("version = "):
            return line.split('"')[1]
    raise AssertionError("no version")


def windows_release() -> Path | None:
    path = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "x86_64-pc-windows-gnu/release/apc-hub.exe"
    return path if path.exists() else None


def pack(out: Path, binary: Path, tz: str = "UTC") -> str:
    args = ["scripts/package.sh", "--hub-only", "--no-build", "--out", str(out), "--hub-bin", f"{NATIVE}={binary}"]
    if windows_release():
        args += ["--hub-bin", f"x86_64-pc-windows-gnu={windows_release()}"]
    run = subprocess.run(args, cwd=ROOT, env=dict(os.environ, TZ=tz), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bin") / "apc-hub"
    subprocess.run(["strip", "-o", str(out), hub_bin()], check=True)
    return out


@pytest.fixture(scope="module")
def packed(tmp_path_factory, binary):
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    said = pack(first, binary)
    pack(second, binary, "Pacific/Auckland")
    return first, second, said


def archives(out: Path) -> list:
    return sorted(p for p in out.iterdir() if p.name.startswith("apc-hub-"))


def unpacked_bundle(packed, tmp_path) -> Path:
    """The Linux bundle unpacked, as an MCPB host does when it installs it (modes kept)."""
    folder = tmp_path / "bundle"
    with zipfile.ZipFile(packed[0] / f"apc-hub-{version()}-linux-x86_64.mcpb") as z:
        z.extractall(folder)
        for info in z.infolist():
            os.chmod(folder / info.filename, (info.external_attr >> 16) & 0o777)
    return folder


def test_same_binary_same_bytes_and_every_archive_in_the_checksums(packed):
    first, second, said = packed
    names = [p.name for p in archives(first)]
    assert f"apc-hub-{version()}-linux-x86_64.tar.gz" in names
    assert f"apc-hub-{version()}-linux-x86_64.mcpb" in names
    assert names == [p.name for p in archives(second)]
    for a in archives(first):
        assert hashlib.sha256(a.read_bytes()).hexdigest() == hashlib.sha256((second / a.name).read_bytes()).hexdigest(), a.name
    sums = (first / "SHA256SUMS").read_text().splitlines()
    assert sorted(line.split("  ")[1] for line in sums) == names
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=first, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    if not windows_release():
        assert "windows-x86_64: SKIPPED, no release build" in said, said
    assert "macos-aarch64: SKIPPED" in said


def test_the_linux_archive_holds_the_binary_as_built_and_how_to_install_it(packed, binary):
    first = packed[0]
    name = f"apc-hub-{version()}-linux-x86_64"
    with tarfile.open(first / f"{name}.tar.gz") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == [name, f"{name}/README.txt", f"{name}/apc-hub"]
        assert len({m.mtime for m in members}) == 1
        assert {(m.uid, m.gid, m.uname, m.gname) for m in members} == {(0, 0, "", "")}
        member = tar.getmember(f"{name}/apc-hub")
        assert member.mode == 0o755
        assert tar.extractfile(member).read() == binary.read_bytes()
        readme = tar.extractfile(f"{name}/README.txt").read().decode()
    assert "./apc-hub install" in readme and "apc-hub connect" in readme and "uninstall" in readme


@pytest.mark.skipif(windows_release() is None, reason="no release build for x86_64-pc-windows-gnu in target/")
def test_the_windows_archive_is_a_zip_with_the_exe(packed):
    name = f"apc-hub-{version()}-windows-x86_64"
    with zipfile.ZipFile(packed[0] / f"{name}.zip") as z:
        assert z.namelist() == [f"{name}/README.txt", f"{name}/apc-hub.exe"]
        assert z.read(f"{name}/apc-hub.exe")[:2] == b"MZ"
        assert len({i.date_time for i in z.infolist()}) == 1


def test_each_bundle_holds_the_binary_and_a_manifest_the_mcpb_toolchain_accepts(packed, binary, tmp_path):
    bundles = [p for p in archives(packed[0]) if p.suffix == ".mcpb"]
    assert bundles
    for bundle in bundles:
        with zipfile.ZipFile(bundle) as z:
            names = z.namelist()
            manifest = json.loads(z.read("manifest.json"))
            exe = manifest["server"]["entry_point"]
            assert names == sorted(names) == sorted(["icon.png", "manifest.json", exe])
            assert len({i.date_time for i in z.infolist()}) == 1
            if "linux" in bundle.name:
                assert z.read(exe) == binary.read_bytes()
                assert manifest["compatibility"]["platforms"] == ["linux"]
        assert manifest["version"] == version()
        assert manifest["server"]["mcp_config"]["args"] == ["mcp", "--agent", "${user_config.agent}"]
        # What the host shows before it runs the bundle names the tools the hub serves.
        assert {t["name"] for t in manifest["tools"]} == TOOLS
        # The toolchain checks the manifest beside what it names (the icon), so unpacked.
        folder = tmp_path / bundle.name
        with zipfile.ZipFile(bundle) as z:
            z.extractall(folder)
        path = folder / "manifest.json"
        check = subprocess.run([str(ROOT / "node_modules/.bin/mcpb"), "validate", str(path)],
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, check.stdout + check.stderr


def host_config(folder: Path, agent: str) -> dict:
    """The command, arguments and environment an MCPB host makes of the bundle's manifest."""
    script = (
        "import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';"
        "import { readFileSync } from 'node:fs';"
        "const [dir, agent] = process.argv.slice(1);"
        "const manifest = JSON.parse(readFileSync(dir + '/manifest.json', 'utf8'));"
        "const config = await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: {},"
        " userConfig: { agent }, pathSeparator: '/' });"
        "process.stdout.write(JSON.stringify(config));"
    )
    run = subprocess.run(["node", "--input-type=module", "-e", script, str(folder), agent],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(run.stdout)


def test_the_linux_bundle_as_a_host_runs_it_reaches_the_installed_hub(packed, tmp_path):
    folder = unpacked_bundle(packed, tmp_path)
    # The hub this person installed: its data where `apc-hub install` keeps it ($XDG_DATA_HOME).
    xdg = tmp_path / "xdg"
    data = xdg / "apc-hub"
    data.mkdir(parents=True)
    hub = subprocess.Popen([hub_bin(), "--listen", "127.0.0.1:0", "--data-dir", str(data)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = hub.stdout.readline().strip()
        assert re.fullmatch(r"apc-hub listening on http://127\.0\.0\.1:\d+", first), first
        config = host_config(folder, "default")
        assert config["command"] == f"{folder}/server/apc-hub", config
        env = dict(os.environ, XDG_DATA_HOME=str(xdg), **config.get("env", {}))

        async def main():
            params = StdioServerParameters(command=config["command"], args=config["args"], env=env)
            async with Client(params, read_timeout_seconds=60) as client:
                assert "wait_for_focus" in (client.instructions or "")
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                waited = await client.call_tool("wait_for_focus", {"timeout_s": 1})
                assert waited.structured_content["timed_out"] is True

        anyio.run(main)
    finally:
        hub.terminate()
        hub.wait(timeout=10)
        shutil.rmtree(xdg, ignore_errors=True)
