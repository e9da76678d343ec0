"""scripts/test.sh: which parts a call runs, in which order (`--plan` says it and runs none), and
scripts/lib/checkout.sh, its last step: a run that writes a file git tracks, or leaves an untracked
one git does not ignore, fails and names it.
"""

import pathlib
import subprocess

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_SH = REPO_ROOT / "scripts" / "test.sh"
CHECKOUT_SH = REPO_ROOT / "scripts" / "lib" / "checkout.sh"

# What .ci/run runs, step for step, as it always has.
WHOLE = "setup lint rust cross fuzz differential wasm build packages conformance node pytest".split()


def plan(*args):
    run = subprocess.run([TEST_SH, "--plan", *args], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_without_parts_the_whole_run_is_every_step_in_its_order():
    assert plan() == WHOLE
    assert plan("--no-setup") == WHOLE[1:]


def test_a_part_runs_after_what_it_needs_once_and_setup_can_be_skipped():
    assert plan("realinput") == ["setup", "build", "packages", "realinput"]
    assert plan("rust") == ["setup", "rust"]
    assert plan("--no-setup", "rust", "ui", "e2e") == ["rust", "build", "ui", "e2e"]
    assert plan("a11y", "realinput") == ["setup", "build", "packages", "a11y", "realinput"]
    # --no-build leaves out the builds a part needs, not a build asked for.
    assert plan("--no-setup", "--no-build", "realinput") == ["realinput"]
    assert plan("--no-build", "build", "node") == ["setup", "build", "node"]


def test_an_unknown_part_is_refused_with_the_list_of_parts():
    run = subprocess.run([TEST_SH, "rustt"], capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    assert "no part named 'rustt'" in run.stderr
    assert "realinput" in run.stderr and "conformance" in run.stderr
    listed = subprocess.run([TEST_SH, "--list"], capture_output=True, text=True, timeout=30).stdout
    whole = [line.split()[1] for line in listed.splitlines() if line.startswith("* ")]
    assert whole == WHOLE


def guard(repo, script, *refreshed):
    """Runs `script` in `repo` between a snapshot and the check, as test.sh does around its parts
    (under `set -euo pipefail`, as test.sh runs)."""
    return subprocess.run(
        ["bash", "-c", f'set -euo pipefail; . "{CHECKOUT_SH}"; s=$(mktemp); checkout_snapshot >"$s"; {script};'
         f' checkout_unchanged "$s" {" ".join(refreshed)}'],
        cwd=repo, capture_output=True, text=True, timeout=30)


def test_the_check_names_what_a_run_wrote_and_lets_ignored_output_be(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = lambda *a: subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    (repo / ".gitignore").write_text("/artifacts\n")
    (repo / "shot.png").write_bytes(b"\x89PNG old")
    (repo / "notes.txt").write_text("mine, not committed yet\n")
    git("add", ".gitignore", "shot.png")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")

    quiet = guard(repo, "mkdir -p artifacts && echo new > artifacts/shot.png && touch shot.png")
    assert quiet.returncode == 0, quiet.stderr
    assert "nothing tracked changed" in quiet.stdout

    rewrote = guard(repo, "printf new > shot.png")
    assert rewrote.returncode == 1 and "  shot.png" in rewrote.stderr, rewrote.stderr
    # Already changed before the run, changed again by it: still the run's write.
    again = guard(repo, "printf newer > shot.png")
    assert again.returncode == 1 and "  shot.png" in again.stderr, again.stderr
    git("checkout", "shot.png")

    left = guard(repo, "echo x > stray.log")
    assert left.returncode == 1 and "  stray.log" in left.stderr, left.stderr
    (repo / "stray.log").unlink()

    # Asked to refresh a folder's committed files, the run may write those, and only those.
    (repo / "docs").mkdir()
    (repo / "docs" / "a.png").write_bytes(b"old")
    git("add", "docs/a.png")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "docs")
    asked = guard(repo, "printf new > docs/a.png", "docs/")
    assert asked.returncode == 0, asked.stderr
    beyond = guard(repo, "printf newer > docs/a.png; printf new > shot.png", "docs/")
    assert beyond.returncode == 1 and "  shot.png" in beyond.stderr and "a.png" not in beyond.stderr, beyond.stderr
    git("checkout", "shot.png")

    gone = guard(repo, "rm shot.png")
    assert gone.returncode == 1 and "  shot.png" in gone.stderr, gone.stderr
    # The person's own uncommitted file, untouched by the run, is no concern of the check.
    assert "notes.txt" not in gone.stderr
