#!/usr/bin/env bash
# The reader's main text on WCXB's dev split beside Readability.js, trafilatura and rs-trafilatura,
# overall and per page type (scripts/bench/wcxb.mjs; the first run loads each of the 1,497 pages in
# Chromium, about half an hour, and caches what it collected in $WCXB_CACHE, else ../wcxb-cache).
# Installs the Python extractors of scripts/bench/requirements.txt into .venv when they are missing.
# Prints one markdown section on stdout (scripts/bench.sh includes it); progress goes to stderr.
# WCXB_COLLECTED=DIR scores the observations of an earlier collect-*/ folder instead of loading the
# pages (the section then says its observations came from that cache, not from this checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
py=.venv/bin/python
if [ -x "$py" ] && ! "$py" -c "import trafilatura, rs_trafilatura, lxml_html_clean" 2>/dev/null; then
  .venv/bin/pip install -q --disable-pip-version-check -r scripts/bench/requirements.txt >&2
fi
exec node scripts/bench/wcxb.mjs --jobs "${WCXB_JOBS:-2}"
