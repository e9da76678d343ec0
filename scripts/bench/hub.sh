#!/usr/bin/env bash
# The hub's benchmark: a release `apc-hub` on loopback driven by crates/hub/examples/hub_bench.rs with a
# bounded load (the dock page with 1,000 agents, 1,000 agents each with a waiting MCP client, then 1,000
# waiting clients of one agent, then 3 s of pins for one pairing). Prints one markdown section on stdout
# (scripts/bench.sh includes it); build output goes to stderr. Figures from one run; it asserts nothing.
#   scripts/bench/hub.sh [agents=1000] [sessions=1000]
set -euo pipefail
cd "$(dirname "$0")/../.."

agents=${1:-1000}
sessions=${2:-1000}
profile=${APC_BENCH_PROFILE:-release}
target=${CARGO_TARGET_DIR:-target}
if [ "$profile" = release ]; then
  cargo build --quiet --release -p apc-hub --bin apc-hub --example hub_bench >&2
else
  cargo build --quiet -p apc-hub --bin apc-hub --example hub_bench >&2
fi
# Each waiting agent holds a connection on both ends.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
"$target/$profile/examples/hub_bench" "$target/$profile/apc-hub" "$agents" "$sessions"
