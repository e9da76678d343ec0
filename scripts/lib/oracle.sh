# Sourced by the scripts that ask the standard's own JavaScript (differential.sh,
# differential-browsers.sh): sets ORACLE to the apc-oracle's oracle.mjs (APC_ORACLE, or the
# shared tools beside the checkout), or says it is missing and exits 2. $1 names the caller.
find_oracle() {
  ORACLE="${APC_ORACLE:-}"
  if [ -z "$ORACLE" ]; then
    for candidate in "$ROOT/../shared/tools/apc-oracle/oracle.mjs" "$ROOT/../../shared/tools/apc-oracle/oracle.mjs" \
      /work/shared/tools/apc-oracle/oracle.mjs; do
      if [ -f "$candidate" ]; then ORACLE="$candidate"; break; fi
    done
  fi
  if [ -z "$ORACLE" ] || [ ! -f "$ORACLE" ]; then
    echo "$1: the reference JavaScript (apc-oracle/oracle.mjs) was not found; set APC_ORACLE" >&2
    exit 2
  fi
}
