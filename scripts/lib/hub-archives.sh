# The hub's release archives, one per platform (sourced by scripts/package.sh).
#   hub_archives OUT EPOCH BUILD [TRIPLE=PATH]...
# For each target of HUB_TARGETS: its release binary (built with `cargo build --release`, or
# `cargo zigbuild --release` for another system, when BUILD is 1; else the one already in
# target/<triple>/release/, or the PATH given as TRIPLE=PATH), packed with a README.txt into
# OUT/apc-hub-<version>-<platform>.tar.gz (zip for Windows): files in sorted order, one timestamp
# (EPOCH), fixed modes and owner, no extra attributes, gzip without a name or time, so the same
# binary gives the same bytes. Beside each archive, the same binary as an MCP Bundle for Claude
# Desktop (and any other MCPB host): OUT/apc-hub-<version>-<platform>.mcpb (hub_mcpb below). Sets
# HUB_ARCHIVES to the files written. A target with no binary (BUILD 0) is skipped with a line
# saying so.

HUB_TARGETS=(x86_64-unknown-linux-gnu x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu)

# platform_of TRIPLE: the archive's platform name.
hub_platform_of() {
  case "$1" in
    x86_64-unknown-linux-gnu) echo linux-x86_64 ;;
    x86_64-apple-darwin) echo macos-x86_64 ;;
    aarch64-apple-darwin) echo macos-aarch64 ;;
    x86_64-pc-windows-gnu) echo windows-x86_64 ;;
    *) return 1 ;;
  esac
}

hub_readme() {
  local version=$1 platform=$2 exe=$3
  cat <<EOF
apc-hub $version ($platform)

The local hub of APC Page: your MCP clients (Claude Code, Claude Desktop, Cursor, VS Code,
Windsurf, Codex CLI, Gemini CLI) connect to it, and the APC Page browser extension pins the text
you point at on web pages for them.

1. Install it once; it then starts at every login and again after a crash (no administrator
   rights needed; it serves only this computer, on 127.0.0.1:7410):

     $exe install

2. Connect your MCP client (each in its own format; --write adds it to the client's file, after a
   backup):

     $exe connect                 # every client
     $exe connect cursor --write  # one of them

3. Install the APC Page extension in your browser, open the dock page (http://127.0.0.1:7410/) and
   drag your agent's mark onto text on a web page.

   $exe status     shows what runs and what is wrong, with the next step
   $exe uninstall  stops it and removes it (your data stays)
EOF
}

# mcpb_platform_of TRIPLE: the bundle's `compatibility.platforms` entry (Node's process.platform).
hub_mcpb_platform_of() {
  case "$1" in
    *linux*) echo linux ;;
    *apple*) echo darwin ;;
    *windows*) echo win32 ;;
    *) return 1 ;;
  esac
}

# hub_mcpb_manifest VERSION TRIPLE EXE: the bundle's manifest.json (MCPB manifest 0.3: a binary
# server). The host runs `apc-hub mcp --agent <agent>` from the bundle, which relays stdio to the
# hub this person installed (`apc-hub install`), so the bundle needs no hub of its own.
hub_mcpb_manifest() {
  local version=$1 triple=$2 exe=$3
  jq -n --arg version "$version" --arg exe "$exe" --arg platform "$(hub_mcpb_platform_of "$triple")" '{
    manifest_version: "0.3",
    name: "apc-hub",
    display_name: "APC Page",
    version: $version,
    description: "Read the text you point at on any web page, through the APC Page browser extension and your apc-hub.",
    long_description: "Connects Claude to your local apc-hub (install it first: `apc-hub install`). Point at text on a web page with the APC Page extension (drag your agent'\''s mark from the hub'\''s dock page, or select text and use the menu, Alt+Shift+K or the popup); Claude waits with `wait_for_focus` and reads it with `page__get_reading`, as untrusted page text.",
    author: { name: "APC Page contributors" },
    license: "MIT OR Apache-2.0",
    icon: "icon.png",
    server: {
      type: "binary",
      entry_point: ("server/" + $exe),
      mcp_config: {
        command: ("${__dirname}/server/" + $exe),
        args: ["mcp", "--agent", "${user_config.agent}"]
      }
    },
    user_config: {
      agent: {
        type: "string",
        title: "Agent",
        description: "Which of your hub'\''s agents this is (`apc-hub agent list`).",
        default: "default",
        required: false
      }
    },
    tools: [
      { name: "wait_for_focus", description: "Wait until you point at something." },
      { name: "get_current_view", description: "What you point at now." },
      { name: "page__get_reading", description: "The text you pointed at on a web page, with where it sits." },
      { name: "list_app_tools", description: "The tools of the apps you point in." },
      { name: "call_app_tool", description: "Call one of those tools." }
    ],
    compatibility: { platforms: [$platform] }
  }'
}

# hub_mcpb OUT EPOCH WORK NAME TRIPLE EXE BIN VERSION: the bundle (a zip: manifest.json, icon.png,
# server/<exe>), packed as the archives are (sorted, one timestamp, fixed modes).
hub_mcpb() {
  local out=$1 epoch=$2 work=$3 name=$4 triple=$5 exe=$6 bin=$7 version=$8
  local dir=$work/$name.mcpb.d file=$out/$name.mcpb
  rm -rf "$dir" "$file"
  mkdir -p "$dir/server"
  cp "$bin" "$dir/server/$exe"
  cp extension/icons/icon-128.png "$dir/icon.png"
  hub_mcpb_manifest "$version" "$triple" "$exe" >"$dir/manifest.json"
  chmod 0755 "$dir" "$dir/server" "$dir/server/$exe"
  chmod 0644 "$dir/manifest.json" "$dir/icon.png"
  find "$dir" -exec touch -h -d "@$epoch" {} +
  (cd "$dir" && find . -type f -printf '%P\n' | LC_ALL=C sort | TZ=UTC zip -q -X -D "$file" -@)
  HUB_ARCHIVES+=("$file")
}

hub_archives() {
  local out=$1 epoch=$2 build=$3
  shift 3
  local -A given=()
  local pair
  for pair in "$@"; do
    given[${pair%%=*}]=${pair#*=}
  done
  local version
  version=$(awk -F'"' '/^version = /{print $2; exit}' crates/hub/Cargo.toml)
  [ -n "$version" ] || die "no version in crates/hub/Cargo.toml"
  local native
  native=$(rustc -vV | awk '/^host:/{print $2}')
  HUB_ARCHIVES=()
  local hubwork
  hubwork=$(mktemp -d -t apc-hub-archives.XXXXXX)
  local target platform exe bin dir name file
  for target in "${HUB_TARGETS[@]}"; do
    platform=$(hub_platform_of "$target")
    exe=apc-hub
    [[ $target == *windows* ]] && exe=apc-hub.exe
    bin=${given[$target]:-${CARGO_TARGET_DIR:-target}/$target/release/$exe}
    if [ -z "${given[$target]:-}" ] && [ "$build" = 1 ]; then
      if [ "$target" = "$native" ]; then
        say "cargo build --release -p apc-hub --target $target"
        cargo build --quiet --release --locked -p apc-hub --target "$target"
      elif [[ $target == *apple* ]] && [ -z "${SDKROOT:-}" ] && ! command -v xcrun >/dev/null; then
        # Linking for macOS needs Apple's SDK: chrono's time-zone lookup (iana-time-zone, through
        # rmcp and schemars) links the CoreFoundation framework, which zig does not ship. Type-checks
        # need no SDK (scripts/test.sh part cross); a release build here does.
        say "apc-hub for $(hub_platform_of "$target"): SKIPPED, linking for macOS needs Apple's SDK (set SDKROOT to a MacOSX.sdk, or build on a Mac)"
        continue
      else
        say "cargo zigbuild --release -p apc-hub --target $target"
        PATH="$PWD/.venv/bin:$PATH" cargo-zigbuild zigbuild --quiet --release --locked -p apc-hub --target "$target"
      fi
    fi
    if [ ! -f "$bin" ]; then
      say "apc-hub for $platform: SKIPPED, no release build at $bin (scripts/package.sh without --no-build builds it)"
      continue
    fi
    name=apc-hub-$version-$platform
    dir=$hubwork/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$bin" "$dir/$exe"
    hub_readme "$version" "$platform" "$([[ $target == *windows* ]] && echo '.\apc-hub.exe' || echo ./apc-hub)" >"$dir/README.txt"
    chmod 0755 "$dir" "$dir/$exe"
    chmod 0644 "$dir/README.txt"
    find "$dir" -exec touch -h -d "@$epoch" {} +
    if [[ $target == *windows* ]]; then
      file=$out/$name.zip
      rm -f "$file"
      (cd "$hubwork" && find "$name" -type f | LC_ALL=C sort | TZ=UTC zip -q -X -D "$file" -@)
    else
      file=$out/$name.tar.gz
      (cd "$hubwork" && LC_ALL=C tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner \
        --mtime="@$epoch" -cf - "$name") | gzip -n >"$file"
    fi
    HUB_ARCHIVES+=("$file")
    hub_mcpb "$out" "$epoch" "$hubwork" "$name" "$target" "$exe" "$bin" "$version"
  done
  rm -rf "$hubwork"
}
