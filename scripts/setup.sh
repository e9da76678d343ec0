#!/usr/bin/env bash
# Installs everything the project needs to build, run and test, on a fresh Debian machine.
# Idempotent: each step checks first and does nothing when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\n== setup: %s\n' "$*"; }

# The wasm-bindgen CLI must equal the wasm-bindgen crate exactly; Cargo.lock pins the crate.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock 2>/dev/null || true)
WASM_BINDGEN_VERSION=${WASM_BINDGEN_VERSION:-0.2.130}

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
command -v firefox-esr >/dev/null || need_apt+=(firefox-esr)
command -v jq >/dev/null || need_apt+=(jq)
# A C toolchain and make: jemalloc (the hub's allocator, tikv-jemalloc-sys) and libFuzzer build from C/C++.
command -v cc >/dev/null || need_apt+=(gcc)
command -v c++ >/dev/null || need_apt+=(g++)
command -v make >/dev/null || need_apt+=(make)
# The real-input suites: a virtual X display and real mouse and keyboard events on it.
command -v Xvfb >/dev/null || need_apt+=(xvfb)
command -v xdotool >/dev/null || need_apt+=(xdotool)
# A window manager on that display: Chromium finds a drag's target window through its stacking list.
command -v openbox >/dev/null || need_apt+=(openbox)
# Screenshots of the whole screen (native menus, several windows) for the README's pictures.
command -v import >/dev/null || need_apt+=(imagemagick)
# The browsers in German, for the localization test (extension i18n follows the browser's language).
[ -e /usr/lib/chromium/locales/de.pak ] || need_apt+=(chromium-l10n)
ls /usr/lib/firefox-esr/browser/extensions/langpack-de@* >/dev/null 2>&1 || need_apt+=(firefox-esr-l10n-de)
# package.sh writes the store packages with zip (and the tests read them back with unzip).
command -v zip >/dev/null || need_apt+=(zip)
command -v unzip >/dev/null || need_apt+=(unzip)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The hub's macOS and Windows targets: test.sh type-checks them, package.sh builds them (with
# cargo-zigbuild and PyPI's zig, both in the venv below).
for target in x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu; do
  if ! rustup target list --installed | grep -qx "$target"; then
    say "rustup target add $target"
    rustup target add "$target"
  fi
done

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install -q wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force
fi

# wasm-pack drives the WASM build (build-extension.sh); it runs offline with the wasm-bindgen above
# on PATH and npm binaryen's wasm-opt. Built from crates.io (npm's wasm-pack downloads a binary).
if ! command -v wasm-pack >/dev/null; then
  say "cargo install wasm-pack"
  cargo install -q wasm-pack --version "=0.15.1"
fi

if ! command -v geckodriver >/dev/null; then
  say "cargo install geckodriver"
  cargo install -q geckodriver
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ ! -x .venv/bin/pytest ] || [ tests/requirements.txt -nt .venv/.installed ] || [ scripts/bench/requirements.txt -nt .venv/.installed ]; then
  say "python venv (.venv) from tests/requirements.txt and scripts/bench/requirements.txt"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r tests/requirements.txt -r scripts/bench/requirements.txt
  touch .venv/.installed
fi
