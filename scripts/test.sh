#!/usr/bin/env bash
# Runs the project's tests: Rust units and integration, the extension build, the store packages and
# their lint, the browser tests in Debian's Chromium and Firefox ESR (headless, and with a person's
# real mouse and keyboard under Xvfb against the packages), accessibility, locales, the hub with
# third-party MCP clients.
#
#   scripts/test.sh                      everything, as CI runs it (.ci/run)
#   scripts/test.sh [OPTIONS] PART...    the named parts only, each after the parts it needs
#   scripts/test.sh --list               the parts, and what each runs
#
#   --no-setup   skip scripts/setup.sh (it is done already)
#   --no-build   do not build what a part needs (the extension, apc-hub, the store packages): use the
#                last build; a part named on the command line still runs
#   --plan       say which parts would run, in order, and run none
#
# Installs what is missing first (scripts/setup.sh), so it works on a fresh machine. A run writes
# nothing git tracks (screenshots go to the ignored tests/artifacts/ unless APC_SCREENSHOTS=1): its
# last step checks that.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export APC_HUB_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/apc-hub"

# ---- The parts ------------------------------------------------------------------------------------
# A part is a function `part_NAME` whose steps each begin with `step "what it runs"`, registered with
# `part NAME "what it runs" "the parts it needs first"`. WHOLE is the whole run, in order. A new step
# joins a part as lines in its function; a new part is its function, its `part` line, and (if the
# whole run has it) its place in WHOLE.

declare -A ABOUT=() NEEDS=()
PARTS=()
part() {
  ABOUT[$1]=$2
  NEEDS[$1]=${3:-}
  PARTS+=("$1")
}

part_setup() {
  step "setup"
  scripts/setup.sh
}
part setup "install what is missing (scripts/setup.sh; skipped with --no-setup)"

part_lint() {
  step "cargo fmt --check and clippy (-D warnings)"
  cargo fmt --all -- --check
  cargo clippy --quiet --workspace --all-targets -- -D warnings
}
part lint "cargo fmt --check and clippy -D warnings, the workspace"

part_rust() {
  step "cargo test (workspace, native; includes the reading's property pass)"
  cargo test --workspace --quiet
}
part rust "cargo test --workspace (native; the reading's property pass, the import-circle check)"

part_cross() {
  step "apc-hub type-checks for macOS and Windows (cargo zigbuild check; the C of bundled SQLite through zig)"
  # The venv holds PyPI's ziglang and cargo-zigbuild (tests/requirements.txt).
  PATH="$PWD/.venv/bin:$PATH" cargo-zigbuild check --quiet --locked -p apc-hub \
    --target x86_64-apple-darwin --target aarch64-apple-darwin --target x86_64-pc-windows-gnu
}
part cross "cargo zigbuild check of apc-hub for x86_64/aarch64 macOS and x86_64 Windows"

part_fuzz() {
  step "the fuzz targets still build (their runs: scripts/fuzz.sh; the fuzz crate is outside the workspace)"
  cargo check --quiet --manifest-path fuzz/Cargo.toml --all-targets
}
part fuzz "cargo check of the fuzz targets (their runs: scripts/fuzz.sh)"

part_differential() {
  step "differential: the core against the standard's JavaScript (short pass, fixed seed)"
  # The reference is the standard's JavaScript beside the checkout (../shared/tools/apc-oracle) or
  # $APC_ORACLE; a checkout without it says so loudly instead of failing on a missing file.
  if [ -n "${APC_ORACLE:-}" ] || [ -f ../shared/tools/apc-oracle/oracle.mjs ] || [ -f /work/shared/tools/apc-oracle/oracle.mjs ]; then
    scripts/differential.sh --short
  else
    echo "differential: SKIPPED: the standard's JavaScript (apc-oracle) is not beside this checkout; set APC_ORACLE to run it"
  fi
}
part differential "scripts/differential.sh --short: the core against the standard's JavaScript"

part_wasm() {
  step "apc-core for wasm32"
  cargo build --quiet -p apc-core -p apc-content --target wasm32-unknown-unknown
}
part wasm "apc-core and apc-content built for wasm32-unknown-unknown"

part_build() {
  step "build the extension and apc-hub"
  scripts/build-extension.sh
  cargo build --quiet -p apc-hub
}
part build "scripts/build-extension.sh (dist/extension) and the debug apc-hub"

part_packages() {
  step "store packages from that build (web-ext lint --warnings-as-errors on the .xpi); the hub's archives of the release builds present"
  scripts/package.sh --no-build
}
part packages "scripts/package.sh --no-build: the store packages and their lint, the hub's archives" "build"

part_conformance() {
  step "hub: MCP conformance suite"
  scripts/hub-conformance.sh
}
part conformance "scripts/hub-conformance.sh: the MCP conformance suite against apc-hub, by protocol revision" "build"

# node --test over test files: all of them under the folders named (sorted, one at a time).
node_tests() {
  local node_tests
  mapfile -t node_tests < <(find "$@" -name '*.test.mjs' -not -path '*/node_modules/*' | sort)
  node --test --test-concurrency=1 "${node_tests[@]}"
}

part_node() {
  step "node --test (Chromium: extension, content script, end to end)"
  node_tests tests
}
part node "node --test, every *.test.mjs under tests/ (the parts ui, content, e2e, chromium, dock)" "build"

part_pytest() {
  step "pytest (Firefox ESR; real mouse and keyboard in both browsers under Xvfb; a11y; locales; packages; the hub with the PyPI mcp client)"
  .venv/bin/pytest -q -rxs tests
}
part pytest "pytest tests/ (the parts firefox, realinput, a11y, hub, scripts)" "build packages"

# One suite of the two above, alone.
part_ui() { step "node --test tests/ui (the popup and the consent window, canned answers)"; node_tests tests/ui; }
part ui "node --test tests/ui: the popup and the consent window against a fake background" "build"
part_content() { step "node --test tests/content (the collector and the reader in real pages)"; node_tests tests/content; }
part content "node --test tests/content: the collector and the reader in real pages" "build"
part_e2e() { step "node --test tests/e2e (the extension, a real apc-hub, a real MCP client)"; node_tests tests/e2e; }
part e2e "node --test tests/e2e: the built extension in Chromium against a real apc-hub" "build"
part_chromium() { step "node --test tests/browser (the popup in Chromium)"; node_tests tests/browser; }
part chromium "node --test tests/browser: the popup in Chromium with the real background" "build"
part_dock() { step "node --test tests/hub (the dock page in Chromium)"; node_tests tests/hub; }
part dock "node --test tests/hub: the hub's dock page in Chromium" "build"
part_firefox() { step "pytest tests/browser (Firefox ESR: popup, pairing; locales; packages)"; .venv/bin/pytest -q -rxs tests/browser; }
part firefox "pytest tests/browser: the extension in Firefox ESR, the locales, the store packages" "build"
part_realinput() { step "pytest tests/realinput (real mouse and keyboard in both browsers under Xvfb)"; .venv/bin/pytest -q -rxs tests/realinput; }
part realinput "pytest tests/realinput: a person's real mouse and keyboard, both browsers, the packages" "build packages"
part_a11y() { step "pytest tests/a11y (axe-core and the keyboard alone)"; .venv/bin/pytest -q -rxs tests/a11y; }
part a11y "pytest tests/a11y: axe-core and the keyboard alone, both browsers, the packages" "build packages"
part_hub() { step "pytest tests/hub (the PyPI mcp client against the hub; the dock in Firefox)"; .venv/bin/pytest -q -rxs tests/hub; }
part hub "pytest tests/hub: the PyPI mcp client against apc-hub, the dock in Firefox ESR" "build"
part_scripts() { step "pytest tests/scripts (the scripts' own helpers)"; .venv/bin/pytest -q -rxs tests/scripts; }
part scripts "pytest tests/scripts: the scripts' own helpers"

WHOLE=(setup lint rust cross fuzz differential wasm build packages conformance node pytest)

# ---- Which parts run ------------------------------------------------------------------------------

usage() {
  sed -n '/^#   scripts\/test.sh/,/^#   --plan/p' "$0" | sed 's/^# \{0,1\}//'
}

list_parts() {
  local name mark
  for name in "${PARTS[@]}"; do
    mark=" "
    [[ " ${WHOLE[*]} " == *" $name "* ]] && mark="*"
    printf '%s %-13s %s\n' "$mark" "$name" "${ABOUT[$name]}"
  done
  echo "(* the whole run, in this order)"
}

no_setup=0 no_build=0 plan_only=0
asked=()
for arg in "$@"; do
  case $arg in
    --no-setup) no_setup=1 ;;
    --no-build) no_build=1 ;;
    --plan) plan_only=1 ;;
    --list) list_parts; exit 0 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "test.sh: unknown option $arg" >&2; usage >&2; exit 2 ;;
    *)
      if [ -z "${ABOUT[$arg]+x}" ]; then
        echo "test.sh: no part named '$arg'; the parts are:" >&2
        list_parts >&2
        exit 2
      fi
      asked+=("$arg")
      ;;
  esac
done

plan=()
planned() { [[ " ${plan[*]} " == *" $1 "* ]]; }
# Adds a part after the parts it needs (each once); `build` and `packages` only as needs are left
# out with --no-build.
add() {
  local name=$1 why=$2 need
  planned "$name" && return 0
  for need in ${NEEDS[$name]}; do
    add "$need" need
  done
  if [ "$why" = need ] && [ $no_build = 1 ] && [[ $name == build || $name == packages ]]; then
    return 0
  fi
  plan+=("$name")
}
if [ ${#asked[@]} -eq 0 ]; then
  plan=("${WHOLE[@]}")
else
  plan=(setup)
  for name in "${asked[@]}"; do
    add "$name" asked
  done
fi
if [ $no_setup = 1 ]; then
  for i in "${!plan[@]}"; do
    [ "${plan[$i]}" = setup ] && unset 'plan[i]'
  done
  plan=("${plan[@]}")
fi

if [ $plan_only = 1 ]; then
  echo "${plan[*]}"
  exit 0
fi

# ---- The run --------------------------------------------------------------------------------------

# Each step says how long the one before it took, and the run ends with the total.
last=$SECONDS
step() {
  [ "$last" = "$SECONDS" ] || printf '==== (%d s)\n' $((SECONDS - last))
  last=$SECONDS
  printf '\n==== %s\n' "$*"
}
trap 'printf "\n==== total %d s (%d min)\n" "$SECONDS" $((SECONDS / 60))' EXIT

# shellcheck source=scripts/lib/checkout.sh
. scripts/lib/checkout.sh
before=$(mktemp)
checkout_snapshot >"$before"

for name in "${plan[@]}"; do
  "part_$name"
done

step "the run wrote nothing git tracks"
# Asked to refresh the committed screenshots, the run writes those and nothing else.
refreshed=()
[ "${APC_SCREENSHOTS:-}" = 1 ] && refreshed=(docs/screenshots/ tests/hub/screenshots/)
checkout_unchanged "$before" "${refreshed[@]}"
rm -f "$before"
