#!/usr/bin/env bash
# Point → agent benchmark: drop → the agent's `wait_for_focus` on a small and a 5,000-paragraph page,
# the page's longest task during a drop, the stage breakdown, the background's cold start and the
# sizes (scripts/bench/point.mjs). Builds the extension when it is missing or older than its sources,
# and the release hub (cargo: a no-op when it is up to date).
# Prints one markdown section on stdout (scripts/bench.sh includes it); build output goes to stderr.
# Figures from one run; it asserts nothing.
#   scripts/bench/point.sh [drops per page=20]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

drops=${1:-20}
target=${CARGO_TARGET_DIR:-target}
wasm=dist/extension/wasm/apc_background_bg.wasm
if [ ! -f "$wasm" ] || [ -n "$(find extension crates/background crates/content crates/core Cargo.lock -newer "$wasm" -print -quit)" ]; then
  scripts/build-extension.sh >&2
fi
cargo build --quiet --release -p apc-hub --bin apc-hub >&2
APC_HUB_BIN="$target/release/apc-hub" exec node scripts/bench/point.mjs --drops "$drops"
