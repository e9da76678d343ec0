# The hub's release archives, one per platform (sourced by scripts/package.sh).
#   hub_archives OUT EPOCH BUILD [TRIPLE=PATH]...
# For each target of HUB_TARGETS: its release binary (built with `cargo build --release`, or
# `cargo zigbuild --release` for another system, when BUILD is 1; else the one already in
# target/<triple>/release/, or the PATH given as TRIPLE=PATH), packed with a README.txt into
# OUT/apc-hub-<version>-<platform>.tar.gz (zip for Windows): files in sorted order, one timestamp
# (EPOCH), fixed modes and owner, no extra attributes, gzip without a name or time, so the same
# binary gives the same bytes. Sets HUB_ARCHIVES to the archives written. A target with no binary
# (BUILD 0) is skipped with a line saying so.

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
      (cd "$hubwork" && find "$name" -type f | LC_ALL=C sort | TZ=UTC zip -q -X -D -9 "$file" -@)
    else
      file=$out/$name.tar.gz
      (cd "$hubwork" && LC_ALL=C tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner \
        --mtime="@$epoch" -cf - "$name") | gzip -n >"$file"
    fi
    HUB_ARCHIVES+=("$file")
  done
  rm -rf "$hubwork"
}
