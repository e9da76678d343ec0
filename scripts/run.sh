#!/usr/bin/env bash
# Runs the product: builds the extension and apc-hub, starts the hub, and opens a browser with the
# extension loaded and the hub's dock page open. Ctrl-C (or closing the browser) stops both.
#   scripts/run.sh            Chromium (default)
#   scripts/run.sh firefox    Firefox ESR, through web-ext run
# Environment: APC_HUB_LISTEN (default 127.0.0.1:7410), APC_HUB_DATA (default: the hub's own default).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
browser=${1:-chromium}

scripts/setup.sh
scripts/build-extension.sh
cargo build --quiet --release -p apc-hub

listen=${APC_HUB_LISTEN:-127.0.0.1:7410}
hub_args=(--listen "$listen")
[ -n "${APC_HUB_DATA:-}" ] && hub_args+=(--data-dir "$APC_HUB_DATA")

log=$(mktemp -t apc-hub.XXXXXX.log)
# shellcheck source=lib/hub.sh
. scripts/lib/hub.sh
hub_pid=""
tail_pid=""
trap 'kill $hub_pid $tail_pid 2>/dev/null || true' EXIT
# What the hub says (its MCP URLs) shows here as it says it.
tail -n +1 -f "$log" &
tail_pid=$!
start_hub "$log" "${CARGO_TARGET_DIR:-target}/release/apc-hub" "${hub_args[@]}" || {
  hub_pid=${HUB_PID:-}
  echo "apc-hub did not start (see above)"
  exit 1
}
hub_pid=$HUB_PID
hub_url=$HUB_ORIGIN
echo
echo "The dock page is $hub_url/ : drag an agent's mark onto any page text."
echo "Connect your agent with the MCP URL printed above."

if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo
  echo "No display to open a browser on. Load the extension yourself: chrome://extensions,"
  echo "Developer mode, Load unpacked: $PWD/dist/extension (Firefox: about:debugging, Load Temporary"
  echo "Add-on, dist/extension/manifest.json). apc-hub keeps running until Ctrl-C."
  wait $hub_pid
  exit $?
fi

case "$browser" in
  chromium)
    profile=${APC_CHROMIUM_PROFILE:-$HOME/.local/share/apc-page-extension/chromium-profile}
    mkdir -p "$profile"
    extra=()
    if [ "$(id -u)" = 0 ]; then
      echo "Running as root: Chromium needs --no-sandbox then. Prefer running this as your own user."
      extra+=(--no-sandbox)
    fi
    chromium --user-data-dir="$profile" "${extra[@]}" \
      --disable-extensions-except="$PWD/dist/extension" --load-extension="$PWD/dist/extension" \
      --no-first-run "$hub_url/"
    ;;
  firefox)
    npx web-ext run --source-dir dist/extension --firefox=/usr/bin/firefox-esr --start-url "$hub_url/"
    ;;
  *) echo "usage: scripts/run.sh [chromium|firefox]"; exit 2 ;;
esac
