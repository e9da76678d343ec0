#!/usr/bin/env bash
# Builds the extension into dist/extension/, loadable unpacked in Chromium and Firefox:
# wasm-pack builds the Rust background (crates/background) to WASM with its `--target web` glue,
# offline: the pinned wasm-bindgen CLI from PATH (--mode no-install), and wasm-pack's own wasm-opt
# step off (--no-opt) because it would download binaryen; npm binaryen's wasm-opt runs after it
# (never Debian's binaryen: its output fails in both browsers). Then extension/ without its dev-only
# files. Downloads nothing. scripts/package.sh makes the store packages from dist/extension.
#   APC_WASM_OPT=0 scripts/build-extension.sh   # skip wasm-opt
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== build-extension: %s\n' "$*"; }
die() { printf '== build-extension: ERROR: %s\n' "$*" >&2; exit 1; }

OUT=dist/extension

export PATH="$HOME/.cargo/bin:$PATH"
command -v wasm-pack >/dev/null || die "wasm-pack not found; run scripts/setup.sh"
command -v wasm-bindgen >/dev/null || die "wasm-bindgen CLI not found; run scripts/setup.sh"
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || die "the wasm32-unknown-unknown target is missing; run scripts/setup.sh"

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

# wasm-pack writes its package (glue, wasm, package.json, README) here; only the glue and the
# module ship. Its cargo build honours CARGO_TARGET_DIR.
pkg=$(mktemp -d -t apc-wasm-pack.XXXXXX)
trap 'rm -rf "$pkg"' EXIT
say "wasm-pack build crates/background --target web --release (offline, wasm-bindgen $cli_version)"
wasm-pack --quiet build crates/background --target web --release --mode no-install --no-opt \
  --no-typescript --no-pack --out-dir "$pkg" --out-name apc_background
mkdir -p "$OUT/wasm"
cp "$pkg/apc_background.js" "$pkg/apc_background_bg.wasm" "$OUT/wasm/"

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
