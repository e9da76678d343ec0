"""scripts/package.sh: two store packages from one build, each with the manifest its store wants,
reproducible to the byte, no file over 4 MB, the Firefox one lint-clean with warnings as errors, and
the Chrome one asking only for permissions the code uses and the README justifies.

Builds twice (two runs of package.sh, each building the extension anew, so every file gets a new
modification time) into two directories and compares the packages' hashes.
"""

import hashlib
import json
import os
import pathlib
import re
import subprocess
import zipfile

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
MAX_FILE = 4 * 1024 * 1024


def version():
    return json.loads((REPO_ROOT / "extension" / "manifest.json").read_text())["version"]


def package(out, env_extra=None, build=True):
    env = dict(os.environ, **(env_extra or {}))
    args = ["scripts/package.sh", "--out", str(out), "--no-hub"] + ([] if build else ["--no-build"])
    run = subprocess.run(args, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Two independent builds (the second in another time zone), packaged into two directories."""
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    said = package(first)
    package(second, {"TZ": "Pacific/Auckland"})
    return first, second, said


def names(out):
    v = version()
    return out / f"apc-page-{v}-chrome.zip", out / f"apc-page-{v}-firefox.xpi"


def manifest_of(package_path):
    with zipfile.ZipFile(package_path) as z:
        return json.loads(z.read("manifest.json"))


def test_both_packages_are_written_with_their_sizes_printed(built):
    first, _, said = built
    for path in names(first):
        assert path.is_file(), path
        assert f"{path.name}: {path.stat().st_size} bytes" in said, said


def test_same_input_same_bytes(built):
    first, second, _ = built
    for a, b in zip(names(first), names(second)):
        assert sha256(a) == sha256(b), f"{a.name} differs between two builds"


def test_entries_sorted_one_timestamp_no_directories_none_over_4_mb(built):
    for path in names(built[0]):
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
        listed = [i.filename for i in infos]
        assert listed == sorted(listed, key=lambda n: n.encode()), f"{path.name}: entries not in sorted order"
        assert not [n for n in listed if n.endswith("/")], f"{path.name} has directory entries"
        assert len({i.date_time for i in infos}) == 1, f"{path.name}: more than one timestamp"
        big = [(i.filename, i.file_size) for i in infos if i.file_size > MAX_FILE]
        assert not big, f"{path.name}: files over 4 MB: {big}"
        assert path.stat().st_size <= MAX_FILE
        assert "wasm/apc_background_bg.wasm" in listed and "background.js" in listed
        assert not [n for n in listed if n.endswith(".py") or "/." in n or n.startswith(".")], listed


def test_each_store_gets_its_own_manifest(built):
    chrome, firefox = (manifest_of(p) for p in names(built[0]))
    assert chrome["background"] == {"service_worker": "background.js", "type": "module"}
    assert "browser_specific_settings" not in chrome
    assert "gecko" not in json.dumps(chrome)
    assert firefox["background"] == {"scripts": ["background.js"], "type": "module"}
    assert "service_worker" not in json.dumps(firefox)
    assert firefox["browser_specific_settings"]["gecko"]["id"]
    assert "minimum_chrome_version" not in firefox
    # Everything else is the one build's manifest.
    source = json.loads((REPO_ROOT / "extension" / "manifest.json").read_text())
    for key in ("version", "permissions", "host_permissions", "content_scripts", "commands", "action"):
        assert chrome[key] == source[key] == firefox[key], key


def test_the_firefox_package_lints_clean_with_warnings_as_errors(built, tmp_path):
    _, xpi = names(built[0])
    with zipfile.ZipFile(xpi) as z:
        z.extractall(tmp_path)
    run = subprocess.run(
        [str(REPO_ROOT / "node_modules" / ".bin" / "web-ext"), "lint", "--source-dir", str(tmp_path),
         "--warnings-as-errors", "--output", "json"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )
    report = json.loads(run.stdout)
    assert (report["errors"], report["warnings"]) == ([], []), report
    assert run.returncode == 0


# Where each permission of the Chrome package is used: an API namespace the background calls.
USED_BY = {"storage": "storage.", "contextMenus": '"contextMenus"', "alarms": '"alarms"'}


def test_the_chrome_package_asks_only_for_what_it_uses_each_justified_in_the_readme(built):
    chrome = manifest_of(names(built[0])[0])
    sources = "\n".join(p.read_text() for p in (REPO_ROOT / "crates" / "background" / "src").rglob("*.rs"))
    readme = (REPO_ROOT / "README.md").read_text()
    for permission in chrome["permissions"]:
        assert permission in USED_BY, f"{permission}: a permission nothing here accounts for"
        assert USED_BY[permission] in sources, f"{permission} is asked for but the background never uses it"
        assert re.search(rf"^\| `{permission}` \|.+\|", readme, re.M), f"README does not justify {permission}"
    for host in chrome.get("host_permissions", []):
        assert re.search(rf"^\| `{re.escape(host)}` \|.+\|", readme, re.M), f"README does not justify {host}"
