#!/usr/bin/env bash
# Runs every test of the project: Rust units and integration, the extension build and its lint,
# the browser tests in Debian's Chromium and Firefox ESR, the hub with third-party MCP clients.
# Installs what is missing first (scripts/setup.sh), so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n==== %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "cargo test (workspace, native)"
cargo test --workspace --quiet

step "apc-core for wasm32"
cargo build --quiet -p apc-core -p apc-content --target wasm32-unknown-unknown

step "build the extension and apc-hub"
scripts/build-extension.sh
cargo build --quiet -p apc-hub
export APC_HUB_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/apc-hub"

step "web-ext lint (0 errors)"
npx web-ext lint --source-dir dist/extension --output json > /tmp/apc-web-ext-lint.json || true
node -e '
  const r = JSON.parse(require("fs").readFileSync("/tmp/apc-web-ext-lint.json", "utf8"));
  for (const m of [...r.errors, ...r.warnings]) console.log(`${m._type}: ${m.code} ${m.file ?? ""}: ${m.message}`);
  console.log(`web-ext lint: ${r.count} messages, ${r.errors.length} errors, ${r.warnings.length} warnings`);
  process.exit(r.errors.length ? 1 : 0);'

step "hub: MCP conformance suite"
scripts/hub-conformance.sh

step "node --test (Chromium: extension, content script, end to end)"
mapfile -t node_tests < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' | sort)
node --test --test-concurrency=1 "${node_tests[@]}"

step "pytest (Firefox ESR, hub with the PyPI mcp client)"
.venv/bin/pytest -q tests
