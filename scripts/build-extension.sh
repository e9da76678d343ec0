#!/usr/bin/env bash
# Builds the extension into dist/extension/, loadable unpacked in Chromium and Firefox:
# the Rust background (crates/background) to WASM, its wasm-bindgen `--target web` glue, an optional
# wasm-opt pass, and extension/ without its dev-only files. Downloads nothing.
#   APC_WASM_OPT=0 scripts/build-extension.sh   # skip wasm-opt
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== build-extension: %s\n' "$*"; }
die() { printf '== build-extension: ERROR: %s\n' "$*" >&2; exit 1; }

OUT=dist/extension
TARGET_DIR=${CARGO_TARGET_DIR:-target}
WASM="$TARGET_DIR/wasm32-unknown-unknown/release/apc_background.wasm"

command -v wasm-bindgen >/dev/null || die "wasm-bindgen CLI not found; run scripts/setup.sh"
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || die "the wasm32-unknown-unknown target is missing; run scripts/setup.sh"

say "cargo build -p apc-background --release --target wasm32-unknown-unknown"
cargo build -q -p apc-background --release --target wasm32-unknown-unknown

# The CLI must equal the crate exactly, or the glue and the module disagree at run time.
crate_version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
cli_version=$(wasm-bindgen --version | awk '{print $2}')
[ -n "$crate_version" ] || die "no wasm-bindgen in Cargo.lock"
[ "$cli_version" = "$crate_version" ] \
  || die "wasm-bindgen CLI is $cli_version but the crate is $crate_version (Cargo.lock); install the same: cargo install wasm-bindgen-cli --version =$crate_version"

rm -rf "$OUT"
mkdir -p "$OUT"

# extension/ minus dev-only files (the icon generator, Python caches, dotfiles, editor backups).
cp -R extension/. "$OUT"/
rm -f "$OUT/icons/generate_icons.py"
find "$OUT" \( -name '.*' -o -name '*~' -o -name '*.pyc' -o -name '__pycache__' \) -prune -exec rm -rf {} +

say "wasm-bindgen --target web"
wasm-bindgen --target web --no-typescript --out-dir "$OUT/wasm" "$WASM"

WASM_OPT=node_modules/.bin/wasm-opt
if [ "${APC_WASM_OPT:-1}" = 0 ]; then
  say "wasm-opt skipped (APC_WASM_OPT=0)"
elif [ ! -x "$WASM_OPT" ]; then
  say "wasm-opt skipped: $WASM_OPT is missing (npm ci installs binaryen); Debian's binaryen is not used"
else
  say "wasm-opt -Oz ($("$WASM_OPT" --version))"
  "$WASM_OPT" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$OUT/wasm/apc_background_bg.wasm" -o "$OUT/wasm/apc_background_bg.wasm"
fi

say "done: $OUT ($(du -sh "$OUT" | cut -f1), wasm $(du -h "$OUT/wasm/apc_background_bg.wasm" | cut -f1))"
