"""`apc-hub install` and `uninstall` on Linux, in a throwaway home: the systemd user unit it writes is
valid (`systemd-analyze --user verify`), a second install changes nothing, and `uninstall` leaves
only the data behind. Then the whole round under a real systemd user manager, when this machine can
start one (root, `unshare`, and systemd: the manager runs in its own mount namespace, where
/run/systemd/system exists, and in its own cgroups, removed afterwards): the hub answers after
install, `status` reports it, a second `apc-hub` on its data refuses, and `uninstall` stops it."""

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hubkit import hub_bin

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's service (systemd)")

UNIT = Path(".config/systemd/user/apc-hub.service")


def person_env(home: Path) -> dict:
    """A person's environment with nothing of this machine's session in it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}
    env["HOME"] = str(home)
    run = home / "run"
    run.mkdir(mode=0o700, exist_ok=True)
    env["XDG_RUNTIME_DIR"] = str(run)
    return env


def files_under(home: Path) -> set:
    return {str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and not p.is_relative_to(home / "run")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_install_writes_a_valid_unit_twice_the_same_and_uninstall_keeps_only_the_data(tmp_path):
    env = person_env(tmp_path)
    first = subprocess.run([hub_bin(), "install"], env=env, capture_output=True, text=True)
    # No user manager in this throwaway session: everything is written, and it says how to start it.
    assert first.returncode == 1, first
    assert "systemctl --user enable --now apc-hub.service" in first.stderr
    assert "apc-hub uninstall" in first.stderr
    unit = tmp_path / UNIT
    text = unit.read_text()
    exec_start = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    assert exec_start == (f'ExecStart="{tmp_path}/.local/bin/apc-hub" "serve" "--quiet" "--listen" "127.0.0.1:7410" '
                          f'"--data-dir" "{tmp_path}/.local/share/apc-hub"')
    assert "Restart=on-failure" in text.splitlines() and "WantedBy=default.target" in text.splitlines()
    verify = subprocess.run(["systemd-analyze", "--user", "verify", str(unit)], env=env, capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    assert (tmp_path / ".local/bin/apc-hub").read_bytes() == Path(hub_bin()).read_bytes()

    again = subprocess.run([hub_bin(), "install"], env=env, capture_output=True, text=True)
    assert "already this version" in again.stdout and "already defined" in again.stdout, again
    assert unit.read_text() == text

    (tmp_path / ".local/share/apc-hub").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".local/share/apc-hub/hub.sqlite3").write_bytes(b"the person's data")
    gone = subprocess.run([hub_bin(), "uninstall"], env=env, capture_output=True, text=True)
    assert gone.returncode == 0, gone
    assert "Your data stays in" in gone.stdout
    assert files_under(tmp_path) == {".local/share/apc-hub/hub.sqlite3"}
    assert (tmp_path / ".local/share/apc-hub/hub.sqlite3").read_bytes() == b"the person's data"
    twice = subprocess.run([hub_bin(), "uninstall"], env=env, capture_output=True, text=True)
    assert twice.returncode == 0 and "No service was installed." in twice.stdout


def test_a_unit_systemd_refuses_fails_verification(tmp_path):
    """The verification above can fail: a unit with a relative ExecStart does."""
    bad = tmp_path / "apc-hub.service"
    bad.write_text("[Service]\nExecStart=apc-hub serve\n")
    verify = subprocess.run(["systemd-analyze", "--user", "verify", str(bad)], env=person_env(tmp_path),
                            capture_output=True, text=True)
    assert verify.returncode != 0


MANAGER = "/usr/lib/systemd/systemd"


def why_no_user_manager() -> str | None:
    if os.geteuid() != 0:
        return "starting a throwaway systemd user manager needs root (a mount namespace and cgroups)"
    if not shutil.which("unshare") or not Path(MANAGER).exists():
        return "needs unshare and systemd"
    if not Path("/sys/fs/cgroup/systemd/cgroup.procs").exists() and not Path("/sys/fs/cgroup/cgroup.procs").exists():
        return "needs a writable cgroup hierarchy"
    return None


def remove_cgroups(name: str):
    """Removes the test's cgroups in every hierarchy, deepest first (their processes are gone)."""
    for hierarchy in Path("/sys/fs/cgroup").iterdir():
        top = hierarchy / name
        if not top.is_dir():
            continue
        for d in sorted((p for p in top.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
            d.rmdir()
        top.rmdir()


@pytest.mark.skipif(why_no_user_manager() is not None, reason=why_no_user_manager() or "")
def test_under_a_real_user_manager_the_hub_starts_reports_refuses_a_second_and_goes(tmp_path):
    env = person_env(tmp_path)
    port = free_port()
    cgroup = f"apc-hub-test-{os.getpid()}"
    script = textwrap.dedent(f"""\
        set -e
        # Its own cgroups (systemd moves a manager it finds in the root one), and /run/systemd/system
        # in its own mount namespace: what a manager checks for before it starts as a user instance.
        for h in /sys/fs/cgroup/systemd /sys/fs/cgroup/pids /sys/fs/cgroup/unified; do
          [ -f "$h/cgroup.procs" ] || continue
          mkdir -p "$h/{cgroup}" && echo $$ > "$h/{cgroup}/cgroup.procs"
        done
        mount -t tmpfs none /run/systemd
        mkdir -p /run/systemd/system
        {MANAGER} --user > "$HOME/manager.log" 2>&1 &
        manager=$!
        trap 'kill $manager; wait $manager || true' EXIT
        for i in $(seq 200); do [ -S "$XDG_RUNTIME_DIR/systemd/private" ] && break; sleep 0.05; done
        echo "== install"; "$BIN" install --listen 127.0.0.1:{port}
        echo "== status"; "$BIN" status --json > "$HOME/status.json"
        echo "== second"; set +e; "$BIN" serve --listen 127.0.0.1:0 --data-dir "$HOME/.local/share/apc-hub"; echo "second=$?"; set -e
        echo "== uninstall"; "$BIN" uninstall
        systemctl --user is-active apc-hub.service > "$HOME/after.txt" || true
        """)
    env["BIN"] = hub_bin()
    try:
        run = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", script],
                             env=env, capture_output=True, text=True, timeout=120)
    finally:
        remove_cgroups(cgroup)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert f"The hub answers at http://127.0.0.1:{port}" in out, out
    status = json.loads((tmp_path / "status.json").read_text())
    assert status["running"]["origin"] == f"http://127.0.0.1:{port}" and status["running"]["answers"] is True
    assert status["service"]["installed"] is True and status["service"]["running"] is True
    assert [a["name"] for a in status["agents"]] == ["default"]
    assert "second=3" in out and "already serving the data" in out, out
    assert "Stopped and removed the service" in out
    assert (tmp_path / "after.txt").read_text().strip() in ("inactive", "unknown")
    left = files_under(tmp_path) - {"manager.log", "status.json", "after.txt"}
    assert all(f.startswith(".local/share/apc-hub/") for f in left), left
    assert not (tmp_path / ".local/share/apc-hub/hub.run.json").exists(), "the hub stopped"
