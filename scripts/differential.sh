#!/usr/bin/env bash
# Differential testing of apc-core against the standard's own JavaScript (issue 11): random and
# mutated calls of every function the core ports, answered by the core and by the reference
# (apc-oracle, run by node), compared exactly. Exits non-zero on any disagreement.
#
#   scripts/differential.sh --short   # >= 20,000 cases, fixed seed (the test command's pass)
#   scripts/differential.sh --long    # 5,000,000 cases, release build (figures in docs/CONFORMANCE.md)
#   scripts/differential.sh --replay DIR..  # the case lines in DIR (a fuzzer's corpus; scripts/fuzz.sh)
#   scripts/differential.sh --han [N]   # N (default 1,000,000) canonicalTarget calls of Han keys only
#
# Options after the mode go to the runner (crates/core/examples/differential.rs), e.g.
# `--seed 3`, `--cases 100000`, `--failures FILE`. The reference is looked up at
# $APC_ORACLE, then ../shared/tools/apc-oracle/oracle.mjs beside the repository; it runs in node 24
# from the test venv when there (scripts/lib/oracle.sh), or in $APC_ORACLE_NODE.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

mode="${1:---short}"
shift || true
# shellcheck source=lib/oracle.sh
. "$ROOT/scripts/lib/oracle.sh"
find_oracle differential
find_oracle_node differential

# The small key order (`param_key_order`) against V8 itself: every param key of up to three
# characters, sorted by localeCompare and by the weights _ < 0-9 < a-z, must give one list.
"$APC_ORACLE_NODE" - <<'JS'
const C = "_0123456789abcdefghijklmnopqrstuvwxyz";
const keys = [];
for (const a of C) { keys.push(a); for (const b of C) { keys.push(a + b); for (const c of C) keys.push(a + b + c); } }
const w = (s) => [...s].map((ch) => C.indexOf(ch));
const byWeight = (x, y) => { const a = w(x), b = w(y); for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i]; return a.length - b.length; };
const small = [...keys].sort(byWeight), v8 = [...keys].sort((x, y) => x.localeCompare(y));
const bad = small.filter((k, i) => k !== v8[i]).length;
console.log(`param key order: ${keys.length} keys, ${bad} placed differently from localeCompare`);
if (bad) process.exit(1);
JS

case "$mode" in
  --short)
    cargo build -q -p apc-core --example differential
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/differential"
    # Han keys, whose order V8 takes from radical and stroke (crates/core/src/collate.rs).
    "$BIN" --oracle "$ORACLE" --han --cases 5000 --seed 11 | tail -n 1
    exec "$BIN" --oracle "$ORACLE" --cases 20000 --seed 11 "$@"
    ;;
  --han)
    cases="${1:-1000000}"
    shift || true
    cargo build -q --release -p apc-core --example differential
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/differential"
    exec "$BIN" --oracle "$ORACLE" --han --cases "$cases" --seed 20261130 --batch 20000 "$@"
    ;;
  --replay)
    cargo build -q -p apc-core --example differential
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/differential"
    replay=()
    for d in "$@"; do replay+=(--replay "$d"); done
    exec "$BIN" --oracle "$ORACLE" --batch 2000 "${replay[@]}"
    ;;
  --long)
    cargo build -q --release -p apc-core --example differential
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/differential"
    exec "$BIN" --oracle "$ORACLE" --cases 5000000 --seed 20261130 --batch 20000 "$@"
    ;;
  *)
    echo "usage: scripts/differential.sh --short|--long [runner options] | --han [N] | --replay DIR..." >&2
    exit 2
    ;;
esac
