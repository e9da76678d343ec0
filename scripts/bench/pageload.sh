#!/usr/bin/env bash
# Page-load cost of the extension (issue 10 item 3): the `load` event time of a small page and of a
# heavy one (5,000 paragraphs, ~30,000 elements) served on 127.0.0.1 with no extension, with an empty
# extension that declares one empty content script (at document_start, and at document_idle as the
# manifest had it before), and with ours (dist/extension), interleaved and repeated: in headless
# Chromium (pageload.mjs), then in Firefox ESR (pageload_firefox.py) when it and geckodriver are here.
# Prints one markdown section on stdout (scripts/bench.sh includes it); build output and progress go
# to stderr. Figures from one run; it asserts nothing.
#   scripts/bench/pageload.sh [runs=15] [--explore | --cold]   # extra flags go to the Chromium part
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${1:-15}
shift || true
if [ ! -f dist/extension/wasm/apc_background_bg.wasm ]; then
  echo "pageload: dist/extension is missing; building it" >&2
  scripts/build-extension.sh >&2
fi
echo "pageload: Chromium, $runs runs" >&2
node scripts/bench/pageload.mjs --runs "$runs" "$@"

python=.venv/bin/python
if [ -x "$python" ] && [ -x "${APC_FIREFOX:-/usr/bin/firefox-esr}" ] \
  && { command -v geckodriver >/dev/null || [ -x "$HOME/.cargo/bin/geckodriver" ]; }; then
  echo "pageload: Firefox ESR, $runs runs" >&2
  echo
  if ! "$python" scripts/bench/pageload_firefox.py "$runs"; then
    echo "Firefox page-load figures: not measured (pageload_firefox.py failed; see stderr)."
  fi
else
  echo
  echo "Firefox page-load figures: not measured (needs .venv, firefox-esr and geckodriver: scripts/setup.sh)."
fi
