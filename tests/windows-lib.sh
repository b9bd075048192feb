# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the tests of diskmeter-cli.exe share, sourced after their own
# `set -uo pipefail`:   . "$(dirname "$0")/windows-lib.sh" NAME
# - wine (DM_WINE, empty on real Windows), fail and skip, and failures;
# - Wine's own debug output off, Debian's python3 (a version manager's
#   python3 earlier on PATH may lack what the checks import);
# - scratch, a folder of this test's own under the build folder, removed on
#   exit with the processes in pids killed and the mounts in mounts undone;
# - winpath (a Unix path as the program sees it: Wine maps / to Z:) and
#   run_win (the program, through Wine where there is one).

: "${DM_CLI:?}" "${DM_BUILD_ROOT:?}"
wine=${DM_WINE-wine}
failures=0
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; exit 77; }

if [ -n "$wine" ]; then
  command -v "$wine" >/dev/null || skip "no $wine"
  [ -n "${WINEPREFIX:-}" ] || skip "WINEPREFIX is not set (build-aux/test-windows sets it)"
  export WINEDEBUG=${WINEDEBUG:--all}
fi
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
[ -x /usr/bin/python3 ] && python3() { /usr/bin/python3 "$@"; }

scratch=$(mktemp -d "$DM_BUILD_ROOT/${1:-windows}.XXXXXX") || skip "no scratch folder"
pids=()
mounts=()
_dm_win_cleanup() {
  local p m
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$scratch"
}
trap _dm_win_cleanup EXIT

winpath() {
  if [ -n "$wine" ]; then
    local p=${1//\//\\}
    printf 'Z:%s' "$p"
  else
    cygpath -w "$1"
  fi
}
run_win() { ${wine:+"$wine"} "$@"; }
