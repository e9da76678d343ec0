#!/usr/bin/env bash
# Which side are the browsers on? The known differences of the differential run (idna, url-parser:
# node's URL parser and the url crate reading a string differently) asked of the standard's
# reference functions in Chromium and Firefox ESR pages as well (scripts/differential-browsers.mjs):
# per runtime, how many answers equal the core's and how many node's. Figures, not a test.
#
#   scripts/differential-browsers.sh                 # host sweep + 1,000,000 random cases, then browsers
#   scripts/differential-browsers.sh FILE...         # the cases of these --failures files instead
#
# A FILE is what `differential --failures` writes: one {"known": class, "case": ...} per line.
# Without files the script makes two: `--every-host-char` (every scalar value in a host: the IDNA
# set, class "idna-host") and `--cases $APC_BROWSER_CASES` (default 1,000,000, seed 20261130).
# Drag payload checks have no reference function and are left out. The per-case answers where a
# browser is not on the core's side alone go to $OUT (default target/differential-browsers.jsonl).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/differential-browsers.jsonl}"

# shellcheck source=lib/oracle.sh
. "$ROOT/scripts/lib/oracle.sh"
find_oracle differential-browsers
find_oracle_node differential-browsers

cargo build -q --release -p apc-core --example differential --example conformance
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  "$TARGET/release/examples/differential" --oracle "$ORACLE" --every-host-char --batch 20000 \
    --failures "$WORK/hosts.jsonl" | tail -n 1
  "$TARGET/release/examples/differential" --oracle "$ORACLE" --cases "${APC_BROWSER_CASES:-1000000}" \
    --seed 20261130 --batch 20000 --failures "$WORK/random.jsonl" | tail -n 1
  files=("$WORK/hosts.jsonl" "$WORK/random.jsonl")
fi

# The case lines and their classes, each case once; a host-sweep case is class "idna-host".
node - "$WORK" "${files[@]}" <<'JS'
const fs = require("fs");
const [work, ...files] = process.argv.slice(2);
const seen = new Set(), cases = [], classes = [];
let drag = 0;
for (const f of files) {
  for (const line of fs.readFileSync(f, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const d = JSON.parse(line);
    if (d.case.startsWith("dragPayload ")) { drag++; continue; }
    if (seen.has(d.case)) continue;
    seen.add(d.case);
    const c = JSON.parse(d.case);
    const host = c.fn === "urlOnOrigin" && /^https:\/\/a[^]b\.example\/x$/u.test(c.args[0]);
    cases.push(d.case);
    classes.push(host ? "idna-host" : d.known ?? "failed");
  }
}
fs.writeFileSync(`${work}/cases.jsonl`, cases.join("\n") + "\n");
fs.writeFileSync(`${work}/classes.txt`, classes.join("\n") + "\n");
console.log(`differential-browsers: ${cases.length} cases (${drag} drag payload checks left out)`);
JS

"$TARGET/release/examples/conformance" < "$WORK/cases.jsonl" > "$WORK/core.jsonl"
# node 24's readline ends a line at a raw U+2028/U+2029 (valid inside a JSON string): escape them.
sed 's/\xe2\x80\xa8/\\u2028/g; s/\xe2\x80\xa9/\\u2029/g' "$WORK/cases.jsonl" | "$APC_ORACLE_NODE" "$ORACLE" > "$WORK/node.jsonl"
# The same node runs the driver, so the table names the runtime that answered.
"$APC_ORACLE_NODE" scripts/differential-browsers.mjs --oracle "$(dirname "$ORACLE")" --cases "$WORK/cases.jsonl" \
  --core "$WORK/core.jsonl" --node "$WORK/node.jsonl" --classes "$WORK/classes.txt" --out "$OUT"
