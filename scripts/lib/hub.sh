# Sourced by scripts (not run): starts apc-hub in the background and waits, bounded, until it has
# said where it listens AND that port accepts connections. The log file is created before the hub is
# forked, so nothing ever reads a file that does not exist yet (under load the forked shell may not
# have opened it when the reader looks), and a reader never races the hub's first line.
#
#   start_hub LOG BIN ARGS...   sets HUB_PID and HUB_ORIGIN (http://127.0.0.1:PORT); returns 1 with
#                               the log printed when the hub exits or stays silent for
#                               APC_HUB_START_S seconds (default 60).
#   wait_for_port HOST PORT SECONDS   0 once HOST:PORT accepts a TCP connection, 1 after SECONDS.

wait_for_port() {
  local host=$1 port=$2 seconds=$3 tries
  tries=$((seconds * 10))
  for ((i = 0; i < tries; i++)); do
    if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

start_hub() {
  local log=$1 bin=$2
  shift 2
  local limit=${APC_HUB_START_S:-60} line=""
  : >"$log"
  "$bin" "$@" >>"$log" 2>&1 &
  HUB_PID=$!
  HUB_ORIGIN=""
  for ((i = 0; i < limit * 10; i++)); do
    line=$(sed -n 's/^apc-hub listening on //p' "$log" 2>/dev/null | head -n1 || true)
    [ -n "$line" ] && break
    if ! kill -0 "$HUB_PID" 2>/dev/null; then
      echo "apc-hub exited before it listened:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  if [ -z "$line" ]; then
    echo "apc-hub did not say where it listens within ${limit} s:" >&2
    cat "$log" >&2
    return 1
  fi
  local hostport=${line#http://}
  if ! wait_for_port "${hostport%:*}" "${hostport##*:}" "$limit"; then
    echo "apc-hub said $line but the port does not accept connections:" >&2
    cat "$log" >&2
    return 1
  fi
  HUB_ORIGIN=$line
}
