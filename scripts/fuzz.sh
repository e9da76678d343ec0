#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers a page, a site or a hub can feed (issues 8, 11.3, 12.1),
# with cargo-fuzz (libFuzzer). cargo-fuzz wants a nightly toolchain for its -Z flags; this
# project builds on stable, so RUSTC_BOOTSTRAP=1 lets stable rustc take them. No sanitizer
# (safe Rust: a panic is the failure), debug assertions on (integer overflow panics too).
#
#   scripts/fuzz.sh --short            # every target ~12 s: a quick pass for the test command
#   scripts/fuzz.sh --long [TARGET..]  # 10,000,000 executions per target, one target at a time
#   FUZZ_SECONDS=600 scripts/fuzz.sh --long ...  # and at most that long per target
#
# Seeds: fuzz/corpus/<target> (committed, small). New inputs go to target/fuzz-corpus/<target>;
# a crash is written to fuzz/artifacts/<target>/ and fails the run. Then the corpus of
# conformance_call is replayed against the standard's JavaScript (scripts/differential.sh
# --replay), so the coverage the fuzzer found is compared with the reference too.
# Needs: cargo install cargo-fuzz (0.13), a C++ compiler.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT/fuzz"
export RUSTC_BOOTSTRAP=1

mode="${1:---short}"
shift || true
ALL=(parse_target parse_params parse_focus_attrs parse_apc_manifest declares_mcp_url parse_drag_payload
  hub_answers conformance_call reading_json reading_tree)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2
  exit 2
fi
FLAGS=(-O -a -s none)
cargo fuzz build "${FLAGS[@]}" >/dev/null

case "$mode" in
  --short) LIMIT=(-max_total_time=12) ;;
  --long) LIMIT=(-runs=10000000 ${FUZZ_SECONDS:+-max_total_time=$FUZZ_SECONDS}) ;;
  *) echo "usage: scripts/fuzz.sh --short|--long [target...]" >&2; exit 2 ;;
esac

WORK="${FUZZ_WORK:-$ROOT/target/fuzz-corpus}"
LOGS="${FUZZ_LOGS:-$ROOT/target/fuzz-logs}"
mkdir -p "$WORK" "$LOGS"
status=0
for t in "${targets[@]}"; do
  mkdir -p "$WORK/$t"
  max_len=4096
  case "$t" in reading_json) max_len=65536 ;; reading_tree) max_len=16384 ;; esac
  start=$(date +%s)
  if cargo fuzz run "${FLAGS[@]}" "$t" "$WORK/$t" "corpus/$t" -- "${LIMIT[@]}" -max_len=$max_len \
    -print_final_stats=1 >"$LOGS/$t.log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOGS/$t.log" | grep -o '[0-9]*$' | tail -1)
  echo "fuzz: $t: ${runs:-?} executions in $(( $(date +%s) - start )) s: $result"
  [ "$result" = ok ] || tail -30 "$LOGS/$t.log" >&2
done

# 11.3: what the fuzzer reached in the runner, compared with the reference.
if printf '%s\n' "${targets[@]}" | grep -qx conformance_call; then
  "$ROOT/scripts/differential.sh" --replay "$WORK/conformance_call" "$ROOT/fuzz/corpus/conformance_call" || status=1
fi
exit $status
