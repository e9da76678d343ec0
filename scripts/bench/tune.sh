#!/usr/bin/env bash
# The inner loop for tuning the main-text rules, without a browser: build_reading over the
# observations the benchmarks collected, scored in seconds.
#   - WCXB dev: the cache of scripts/bench/wcxb.mjs ($WCXB_CACHE, else ../wcxb-cache; the newest
#     collect-*/ folder), scored by the benchmark's evaluate.py, overall and per type, then the
#     wcxb example's own per-page figures for the worst pages;
#   - the article corpus: the observations of `node scripts/bench/reader.mjs --dump $ARTICLE_CACHE`
#     (else ../article-cache), scored by that corpus's evaluate.py.
# Figures only, for a person tuning; the published ones come from scripts/bench.sh.
#   scripts/bench/tune.sh [worst pages to list=25]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PATH"
show=${1:-25}
root=$PWD
py=$root/.venv/bin/python
wcxb_corpus=${WCXB_CORPUS:-$root/../shared/corpora/wcxb-dev}
[ -d "$wcxb_corpus" ] || wcxb_corpus=/work/shared/corpora/wcxb-dev
art_corpus=${ARTICLE_CORPUS:-$root/../shared/corpora/article-extraction-dev}
[ -d "$art_corpus" ] || art_corpus=/work/shared/corpora/article-extraction-dev
cache=${WCXB_CACHE:-$root/../wcxb-cache}
articles=${ARTICLE_CACHE:-$root/../article-cache}
nice -n 10 cargo build -q --release -p apc-content --example wcxb
bin=${CARGO_TARGET_DIR:-target}/release/examples/wcxb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

obs=$(ls -dt "$cache"/collect-*/obs 2>/dev/null | head -1 || true)
if [ -n "$obs" ]; then
  "$bin" --obs "$obs" --out "$tmp/wcxb" --gt "$wcxb_corpus/ground-truth" --show "$show" > /dev/null
  mkdir -p "$tmp/eval/dev"
  ln -s "$wcxb_corpus/ground-truth" "$tmp/eval/dev/ground-truth"
  cp "$wcxb_corpus/evaluate.py" "$tmp/eval/"
  (cd "$tmp/eval" && "$py" evaluate.py --split dev --results "$tmp/wcxb/product.json" --per-type | tail -n +3)
else
  echo "tune: no WCXB observations in $cache (run scripts/bench/wcxb.mjs once)" >&2
fi

if [ -d "$articles" ]; then
  "$bin" --obs "$articles" --out "$tmp/art" --gt-articles "$art_corpus/ground-truth.json" --show "$show" > /dev/null
  mkdir -p "$tmp/art/eval/output"
  cp "$art_corpus/evaluate.py" "$art_corpus/ground-truth.json" "$tmp/art/eval/"
  "$py" -c 'import json,sys; t=json.load(open(sys.argv[1])); json.dump({k:{"articleBody":v} for k,v in t.items()}, open(sys.argv[2],"w"))' \
    "$tmp/art/product.json" "$tmp/art/eval/output/apc-reader.json"
  (cd "$tmp/art/eval" && "$py" evaluate.py --n-bootstrap 20 | tail -n 3)
else
  echo "tune: no article observations in $articles (run node scripts/bench/reader.mjs --dump $articles once)" >&2
fi
