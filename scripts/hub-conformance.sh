#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, from node_modules) against a real
# apc-hub: a free port, a temporary data dir, the default agent's MCP URL. Only the server scenarios
# that apply to a tools-only server run (docs/hub.md says why the others do not). Exits non-zero when
# any of them fails, or when the hub does not start.
set -euo pipefail
cd "$(dirname "$0")/.."

SCENARIOS=(
  server-initialize
  ping
  tools-list
  server-sse-polling
  server-sse-multiple-streams
  dns-rebinding-protection
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

# The suite imports fs.globSync (Node >= 22); tests/hub/node20-globsync.mjs lets it run on Node 20.
conformance=(node --import ./tests/hub/node20-globsync.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js)
passed=0
failed=()
for scenario in "${SCENARIOS[@]}"; do
  if "${conformance[@]}" server --url "$mcp_url" --scenario "$scenario" -o "$results" >"$data_dir/$scenario.txt" 2>&1; then
    passed=$((passed + 1))
    echo "  ok    $scenario"
  else
    failed+=("$scenario")
    echo "  FAIL  $scenario"
    sed "s#$mcp_url#<agent MCP URL>#g" "$data_dir/$scenario.txt"
  fi
done
echo "${passed} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
