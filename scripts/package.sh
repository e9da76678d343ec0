#!/usr/bin/env bash
# Store packages from one build: builds the extension once (scripts/build-extension.sh, unless
# --no-build) and writes, from that same dist/extension,
#   dist/apc-page-<version>-chrome.zip    for the Chrome Web Store: background.service_worker only,
#                                         no background.scripts, no browser_specific_settings
#   dist/apc-page-<version>-firefox.xpi   for addons.mozilla.org: background.scripts only (an event
#                                         page), no service_worker, no minimum_chrome_version
# and the hub's archives, one per platform, each holding `apc-hub-<version>-<platform>/apc-hub[.exe]`
# and a README.txt (scripts/lib/hub-archives.sh):
#   dist/apc-hub-<version>-linux-x86_64.tar.gz     x86_64-unknown-linux-gnu
#   dist/apc-hub-<version>-macos-x86_64.tar.gz     x86_64-apple-darwin
#   dist/apc-hub-<version>-macos-aarch64.tar.gz    aarch64-apple-darwin
#   dist/apc-hub-<version>-windows-x86_64.zip      x86_64-pc-windows-gnu
# each with an MCP Bundle beside it, apc-hub-<version>-<platform>.mcpb (manifest.json, icon.png,
# server/apc-hub[.exe]: Claude Desktop runs `apc-hub mcp` from it),
# and dist/SHA256SUMS over every package written. The hub's release builds (cargo zigbuild for the
# three that are not this machine's) take minutes each on two cores, so CI packs without them:
# --no-build packs the release binaries already in target/, skipping (and saying so) the targets not
# built; --hub-bin TRIPLE=PATH packs that binary for that target; --no-hub writes no hub archive.
# Reproducible: the same input gives the same bytes (files in sorted order, one fixed timestamp,
# fixed permissions, no extra attributes). Refuses any file over 4 MB, and a Firefox package that
# `web-ext lint --warnings-as-errors` does not pass. Prints each package's size.
#   scripts/package.sh [--no-build] [--out DIR] [--no-hub | --hub-only] [--hub-bin TRIPLE=PATH]...
# SOURCE_DATE_EPOCH sets the timestamp (default: the last commit's time, else 2020-01-01).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '== package: %s\n' "$*"; }
die() { printf '== package: ERROR: %s\n' "$*" >&2; exit 1; }

build=1
out=dist
hub=1
store=1
hub_bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --out) out=$2; shift ;;
    --no-hub) hub=0 ;;
    --hub-only) store=0 ;;
    --hub-bin) hub_bins+=("$2"); shift ;;
    *) die "usage: scripts/package.sh [--no-build] [--out DIR] [--no-hub | --hub-only] [--hub-bin TRIPLE=PATH]..." ;;
  esac
  shift
done

command -v jq >/dev/null || die "jq is missing; run scripts/setup.sh"
command -v zip >/dev/null || die "zip is missing; run scripts/setup.sh"

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 1577836800)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
written=()

if [ "$store" = 1 ]; then
[ "$build" = 1 ] && scripts/build-extension.sh
src=dist/extension
[ -f "$src/wasm/apc_background_bg.wasm" ] || die "no built extension in $src (run without --no-build)"

version=$(jq -r .version "$src/manifest.json")
[ -n "$version" ] && [ "$version" != null ] || die "no version in $src/manifest.json"
MAX_FILE=$((4 * 1024 * 1024))

work=$(mktemp -d -t apc-package.XXXXXX)
trap 'rm -rf "$work"' EXIT

# stage NAME JQ_FILTER: a copy of the build with the store's manifest, normalized for zipping.
stage() {
  local name=$1 filter=$2 dir="$work/$1"
  cp -R "$src" "$dir"
  jq --indent 2 "$filter" "$src/manifest.json" >"$dir/manifest.json"
  find "$dir" -type d -exec chmod 0755 {} +
  find "$dir" -type f -exec chmod 0644 {} +
  find "$dir" -exec touch -h -d "@$epoch" {} +
  local big
  big=$(find "$dir" -type f -size +"$MAX_FILE"c -printf '%P (%s bytes)\n')
  [ -z "$big" ] || die "files over 4 MB in the $name package: $big"
}

# zip_dir DIR FILE: DIR's files, sorted bytewise, deflated, without extra fields (-X) or
# directory entries (-D), timestamps in UTC so the local time zone changes nothing.
zip_dir() {
  local dir=$1 file=$2
  rm -f "$file"
  (cd "$dir" && find . -type f -printf '%P\n' | LC_ALL=C sort | TZ=UTC zip -q -X -D -9 "$file" -@)
}

chrome_filter='del(.background.scripts) | del(.browser_specific_settings)'
firefox_filter='del(.background.service_worker) | del(.minimum_chrome_version)'
stage chrome "$chrome_filter"
stage firefox "$firefox_filter"

jq -e '.background.service_worker and (.background.scripts == null) and (.browser_specific_settings == null)' \
  "$work/chrome/manifest.json" >/dev/null || die "the Chrome manifest is not what the Chrome Web Store wants"
jq -e '(.background.service_worker == null) and (.background.scripts | length > 0) and .browser_specific_settings.gecko.id' \
  "$work/firefox/manifest.json" >/dev/null || die "the Firefox manifest is not what addons.mozilla.org wants"

# The Firefox package must lint clean, warnings included (what AMO's validator reports).
say "web-ext lint --warnings-as-errors (the Firefox package's files)"
web-ext lint --source-dir "$work/firefox" --warnings-as-errors --self-hosted=false --output text \
  >"$work/lint.txt" 2>&1 || { cat "$work/lint.txt" >&2; die "web-ext lint found problems in the Firefox package"; }

chrome_zip="$out/apc-page-$version-chrome.zip"
firefox_xpi="$out/apc-page-$version-firefox.xpi"
zip_dir "$work/chrome" "$chrome_zip"
zip_dir "$work/firefox" "$firefox_xpi"

written+=("$chrome_zip" "$firefox_xpi")
fi

if [ "$hub" = 1 ]; then
  # shellcheck source=lib/hub-archives.sh
  . scripts/lib/hub-archives.sh
  hub_archives "$out" "$epoch" "$build" "${hub_bins[@]}"
  written+=("${HUB_ARCHIVES[@]}")
fi

for f in "${written[@]}"; do
  say "$(basename "$f"): $(stat -c %s "$f") bytes ($(du -h "$f" | cut -f1)), sha256 $(sha256sum "$f" | cut -c1-16)…"
done
# One checksum file for everything in the folder this run wrote into (sorted, file names only).
if [ ${#written[@]} -gt 0 ]; then
  (cd "$out" && find . -maxdepth 1 -type f \( -name 'apc-page-*' -o -name 'apc-hub-*' \) -printf '%P\n' | LC_ALL=C sort | xargs -r sha256sum) >"$out/SHA256SUMS"
  say "SHA256SUMS: $(wc -l <"$out/SHA256SUMS") files"
fi
