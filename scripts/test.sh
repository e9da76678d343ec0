#!/usr/bin/env bash
# Runs every test of the project: Rust units and integration, the extension build, the store
# packages and their lint, the browser tests in Debian's Chromium and Firefox ESR (headless, and with
# a person's real mouse and keyboard under Xvfb against the packages), accessibility, locales, the
# hub with third-party MCP clients.
# Installs what is missing first (scripts/setup.sh), so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# Each step says how long the one before it took, and the run ends with the total.
last=$SECONDS
step() {
  [ "$last" = "$SECONDS" ] || printf '==== (%d s)\n' $((SECONDS - last))
  last=$SECONDS
  printf '\n==== %s\n' "$*"
}
trap 'printf "\n==== total %d s (%d min)\n" "$SECONDS" $((SECONDS / 60))' EXIT

step "setup"
scripts/setup.sh

step "cargo fmt --check and clippy (-D warnings)"
cargo fmt --all -- --check
cargo clippy --quiet --workspace --all-targets -- -D warnings

step "cargo test (workspace, native; includes the reading's property pass)"
cargo test --workspace --quiet

step "apc-hub type-checks for macOS and Windows (cargo zigbuild check; the C of bundled SQLite through zig)"
# The venv holds PyPI's ziglang and cargo-zigbuild (tests/requirements.txt).
PATH="$PWD/.venv/bin:$PATH" cargo-zigbuild check --quiet --locked -p apc-hub \
  --target x86_64-apple-darwin --target aarch64-apple-darwin --target x86_64-pc-windows-gnu

step "the fuzz targets still build (their runs: scripts/fuzz.sh; the fuzz crate is outside the workspace)"
cargo check --quiet --manifest-path fuzz/Cargo.toml --all-targets

step "differential: the core against the standard's JavaScript (short pass, fixed seed)"
# The reference is the standard's JavaScript beside the checkout (../shared/tools/apc-oracle) or
# $APC_ORACLE; a checkout without it says so loudly instead of failing on a missing file.
if [ -n "${APC_ORACLE:-}" ] || [ -f ../shared/tools/apc-oracle/oracle.mjs ] || [ -f /work/shared/tools/apc-oracle/oracle.mjs ]; then
  scripts/differential.sh --short
else
  echo "differential: SKIPPED: the standard's JavaScript (apc-oracle) is not beside this checkout; set APC_ORACLE to run it"
fi

step "apc-core for wasm32"
cargo build --quiet -p apc-core -p apc-content --target wasm32-unknown-unknown

step "build the extension and apc-hub"
scripts/build-extension.sh
cargo build --quiet -p apc-hub
export APC_HUB_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/apc-hub"

step "store packages from that build (web-ext lint --warnings-as-errors on the .xpi); the hub's archives of the release builds present"
scripts/package.sh --no-build

step "hub: MCP conformance suite"
scripts/hub-conformance.sh

step "node --test (Chromium: extension, content script, end to end)"
mapfile -t node_tests < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' | sort)
node --test --test-concurrency=1 "${node_tests[@]}"

step "pytest (Firefox ESR; real mouse and keyboard in both browsers under Xvfb; a11y; locales; packages; the hub with the PyPI mcp client)"
.venv/bin/pytest -q -rxs tests
