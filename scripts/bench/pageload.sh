#!/usr/bin/env bash
# Page-load cost of the extension (issue 10 item 3): the `load` event time of a small page and of a
# heavy one (5,000 paragraphs, ~30,000 elements) served on 127.0.0.1, in headless Chromium with no
# extension, with an empty extension that declares one empty content script, and with ours
# (dist/extension), interleaved and repeated. Prints one markdown section on stdout (scripts/bench.sh
# includes it); build output and progress go to stderr. Figures from one run; it asserts nothing.
#   scripts/bench/pageload.sh [runs=21] [--explore]   # --explore adds the variants that locate the cost
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${1:-21}
shift || true
if [ ! -f dist/extension/wasm/apc_background_bg.wasm ]; then
  echo "pageload: dist/extension is missing; building it" >&2
  scripts/build-extension.sh >&2
fi
node scripts/bench/pageload.mjs --runs "$runs" "$@"
