#!/usr/bin/env bash
# One command for every benchmark: writes docs/BENCHMARKS.md from one run on this machine.
# - the reader (scripts/bench/reader.mjs): dev-corpus main-text F1/P/R of the product and
#   @mozilla/readability, collection and build times as ratios to Readability's, observation sizes;
# - every scripts/bench/*.sh other parts add (each prints a markdown section on stdout), among them
#   wcxb.sh: the main text on WCXB's dev split beside Readability.js, trafilatura, rs-trafilatura and
#   road (b) (a fresh collector loads all 1,497 pages in Chromium, about 30-75 minutes on two shared
#   cores; later runs reuse $WCXB_CACHE and take minutes). tune.sh is not a benchmark (a tuning
#   loop over cached observations) and is skipped.
# Figures only: nothing here asserts a time. Needs scripts/setup.sh's tools (chromium, node_modules,
# python3) and the dev corpus (../shared/corpora/article-extraction-dev, or BENCH_CORPUS).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
out=docs/BENCHMARKS.md
load_start=$(cut -d" " -f1-3 /proc/loadavg)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

corpus_args=()
if [ -n "${BENCH_CORPUS:-}" ]; then corpus_args=(--corpus "$BENCH_CORPUS"); fi

echo "bench: reader (dev corpus, Chromium)" >&2
node scripts/bench/reader.mjs "${corpus_args[@]}" > "$tmp/reader.md"

for script in scripts/bench/*.sh; do
  [ -e "$script" ] || continue
  name=$(basename "$script" .sh)
  [ "$name" = tune ] && continue
  echo "bench: $name" >&2
  if ! bash "$script" > "$tmp/$name.md" 2> "$tmp/$name.err"; then
    { echo "## $name"; echo; echo "\`$script\` failed:"; echo; echo '```'; tail -20 "$tmp/$name.err"; echo '```'; } > "$tmp/$name.md"
  fi
done

{
  echo "# Benchmarks"
  echo
  echo "Written by \`scripts/bench.sh\` (one run; do not edit by hand). Figures only: no test asserts a time."
  echo
  echo "## Machine and versions"
  echo
  echo "| what | value |"
  echo "|---|---|"
  echo "| date (UTC) | $(date -u +%Y-%m-%dT%H:%MZ) |"
  echo "| commit | $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs/BENCHMARKS.md' || echo ' (with local changes)') |"
  echo "| CPU | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') × $(nproc) |"
  echo "| load average (1/5/15 min) at start, at end | $load_start, $(cut -d" " -f1-3 /proc/loadavg) |"
  echo "| memory | $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) |"
  echo "| OS | $(. /etc/os-release && echo "$PRETTY_NAME") $(uname -r) |"
  echo "| Chromium | $(/usr/bin/chromium --version 2>/dev/null | head -1) |"
  echo "| rustc | $(rustc --version) |"
  echo "| node | $(node --version) |"
  echo "| python | $(python3 --version 2>&1) |"
  echo
  cat "$tmp/reader.md"
  for f in "$tmp"/*.md; do
    [ "$(basename "$f")" = reader.md ] && continue
    echo
    cat "$f"
  done
} > "$out"
echo "bench: wrote $out" >&2
