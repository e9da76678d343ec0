"""scripts/package.sh's hub archives: reproducible to the byte (two runs, the second in another time
zone), one timestamp, fixed owner and modes, sorted entries, the binary unchanged inside with a
README, every archive in SHA256SUMS. CI packs the binary it already built (`--hub-bin`, a stripped
copy of the debug build: 163 MB with its debug info took minutes to gzip twice) instead of four
release builds (minutes each on two cores); a target with no build is skipped and said so."""

import hashlib
import os
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from hubkit import ROOT, hub_bin

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


def test_same_binary_same_bytes_and_every_archive_in_the_checksums(packed):
    first, second, said = packed
    names = [p.name for p in archives(first)]
    assert f"apc-hub-{version()}-linux-x86_64.tar.gz" in names
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
