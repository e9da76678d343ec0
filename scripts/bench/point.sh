#!/usr/bin/env bash
# Point → agent benchmark: drop → the agent's `wait_for_focus` on a small and a 5,000-paragraph page,
# the page's longest task during a drop, the stage breakdown, the background's cold start and the
# sizes (scripts/bench/point.mjs). Builds the extension and the release hub when they are missing.
# Prints one markdown section on stdout (scripts/bench.sh includes it); build output goes to stderr.
# Figures from one run; it asserts nothing.
#   scripts/bench/point.sh [drops per page=20]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

drops=${1:-20}
target=${CARGO_TARGET_DIR:-target}
if [ ! -f dist/extension/wasm/apc_background_bg.wasm ]; then
  scripts/build-extension.sh >&2
fi
if [ ! -x "$target/release/apc-hub" ]; then
  cargo build --quiet --release -p apc-hub --bin apc-hub >&2
fi
APC_HUB_BIN="$target/release/apc-hub" exec node scripts/bench/point.mjs --drops "$drops"
