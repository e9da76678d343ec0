"""scripts/lib/hub.sh: the scripts start apc-hub in the background and must wait, bounded, for what
it says and for its port, never reading a log the forked hub has not created or written yet (the
race that once ended scripts/test.sh under `set -e -o pipefail`).

A stand-in hub (a small Python program) plays a slow start: silent for a while, then the line, then
the port some time later, or an exit without listening.
"""

import pathlib
import subprocess
import sys
import textwrap

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

SLOW_HUB = textwrap.dedent(
    """
    import socket, sys, time
    say_after, listen_after, exit_early = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "1"
    time.sleep(say_after)
    if exit_early:
        print("apc-hub: cannot open its data dir", flush=True)
        sys.exit(3)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    print(f"apc-hub listening on http://127.0.0.1:{port}", flush=True)
    time.sleep(listen_after)
    s.listen()
    while True:
        conn, _ = s.accept()
        conn.close()
    """
)


def start(tmp_path, say_after, listen_after, exit_early=False, limit=20):
    hub = tmp_path / "slow_hub.py"
    hub.write_text(SLOW_HUB)
    log = tmp_path / "sub" / "hub.log"
    log.parent.mkdir()
    script = f"""
        set -euo pipefail
        . scripts/lib/hub.sh
        start_hub "{log}" {sys.executable} "{hub}" {say_after} {listen_after} {1 if exit_early else 0} || {{
          kill "${{HUB_PID:-0}}" 2>/dev/null || true
          exit 1
        }}
        # The port answers now: a connection must succeed at once.
        hostport=${{HUB_ORIGIN#http://}}
        (exec 3<>"/dev/tcp/${{hostport%:*}}/${{hostport##*:}}")
        echo "origin=$HUB_ORIGIN"
        kill "$HUB_PID"
    """
    return subprocess.run(
        ["bash", "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=limit + 30,
        env={"PATH": "/usr/bin:/bin", "APC_HUB_START_S": str(limit)},
    )


def test_waits_for_a_hub_that_is_slow_to_say_where_it_listens(tmp_path):
    run = start(tmp_path, say_after=1.5, listen_after=0)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("origin=http://127.0.0.1:")


def test_waits_for_the_port_after_the_line(tmp_path):
    run = start(tmp_path, say_after=0, listen_after=1.5)
    assert run.returncode == 0, run.stderr
    assert "origin=http://127.0.0.1:" in run.stdout


def test_a_hub_that_exits_is_reported_with_what_it_said(tmp_path):
    run = start(tmp_path, say_after=0.3, listen_after=0, exit_early=True)
    assert run.returncode != 0
    assert "exited before it listened" in run.stderr
    assert "cannot open its data dir" in run.stderr


def test_a_silent_hub_is_given_up_on_after_the_limit(tmp_path):
    run = start(tmp_path, say_after=30, listen_after=0, limit=1)
    assert run.returncode != 0
    assert "did not say where it listens within 1 s" in run.stderr
