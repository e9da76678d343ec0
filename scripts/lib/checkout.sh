# Sourced by scripts (not run): what a test run may not change in the checkout, the files git tracks
# and the untracked ones it does not ignore (a run's own output belongs in ignored folders:
# target/, dist/, tests/artifacts/).
#
#   checkout_snapshot         prints each file that differs from HEAD or is untracked and not ignored,
#                             with a hash of its content now ("gone" if it was deleted)
#   checkout_unchanged FILE [FOLDER/...]
#                             0 when the checkout is as the snapshot in FILE says (but for files in
#                             the FOLDERs named, which the run was asked to write); else names each
#                             file the run wrote, created or deleted, and returns 1
# Outside a git checkout there is nothing to compare: checkout_unchanged says so and returns 0.

checkout_snapshot() {
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
  local record status path
  # `git status` (not `ls-files -m`) compares contents, so a file only touched is not "changed".
  git status --porcelain=v1 -z --untracked-files=all | {
    while IFS= read -r -d '' record; do
      status=${record:0:2}
      path=${record:3}
      # A rename or copy is followed by its source path: not a file of the working tree.
      [[ $status == *R* || $status == *C* ]] && IFS= read -r -d '' _
      if [ -e "$path" ]; then
        printf '%s %s\n' "$(sha256sum <"$path" | cut -c1-64)" "$path"
      else
        printf 'gone %s\n' "$path"
      fi
    done
  } | LC_ALL=C sort
}

checkout_unchanged() {
  local before=$1 changed folder
  shift
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "not a git checkout: nothing to compare"
    return 0
  fi
  # (diff says 1 when they differ: that is the answer here, not a failure of the pipe.)
  changed=$({ diff "$before" <(checkout_snapshot) || true; } | sed -n 's/^[<>] [^ ]* //p' | LC_ALL=C sort -u)
  for folder in "$@"; do
    changed=$(printf '%s\n' "$changed" | awk -v folder="$folder" 'NF && index($0, folder) != 1')
  done
  if [ -n "$changed" ]; then
    echo "the run changed files git tracks or does not ignore (a run's output goes to an ignored folder):" >&2
    printf '%s\n' "$changed" | sed 's/^/  /' >&2
    return 1
  fi
  echo "nothing tracked changed"
}
