#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli.exe capture, under Wine or on Windows: Windows keeps no
# per-request record of a disk that Diskmeter reads, so a capture works from
# the volume's counters (IOCTL_DISK_PERFORMANCE) alone. Wine keeps none, so
# there the command must refuse with one line saying so and exit 1, while
# its usage checks (--for missing: 2) and --help are the Linux build's. On
# real Windows, where the counters exist, it must name them as its source.
set -uo pipefail

. "$(dirname "$0")/windows-lib.sh" windows-capture
# Wine's own complaints (a missing wine32, no display) are no part of it.
own_lines() { grep -v -e 'wine32' -e 'multiarch' -e 'dpkg --add' -e 'apt-get install' \
                      -e 'nodrv_CreateWindow' "$1"; }

run_win "$DM_CLI" capture --help > "$scratch/help" 2> /dev/null
grep -q 'Usage: diskmeter-cli capture \[OPTIONS\] TARGET --for DURATION' "$scratch/help" \
  || fail "capture --help has no usage line"

run_win "$DM_CLI" capture 'C:\' > /dev/null 2> "$scratch/usage"
rc=$?
[ "$rc" = 2 ] || fail "capture without --for: exit $rc, not 2"
own_lines "$scratch/usage" | head -n 1 | grep -q 'diskmeter-cli capture: --for DURATION' \
  || fail "capture without --for does not say so: $(own_lines "$scratch/usage" | head -c 300)"

run_win "$DM_CLI" capture 'C:\' --for 1 --format json > "$scratch/out.json" 2> "$scratch/err"
rc=$?
if [ "$rc" = 0 ]; then
  # A Windows with disk counters: the capture is theirs, and says so.
  grep -q '"from": "counters"' "$scratch/out.json" || fail "a capture on Windows is not from the counters"
  grep -q 'no request events' "$scratch/err" || fail "it does not say why it has no events"
else
  [ "$rc" = 1 ] || fail "capture C:\\ under Wine: exit $rc, not 1"
  n=$(own_lines "$scratch/err" | wc -l)
  [ "$n" = 1 ] || fail "capture C:\\ under Wine: $n lines, not one: $(own_lines "$scratch/err")"
  own_lines "$scratch/err" | grep -q 'counters' \
    || fail "the refusal does not name the counters: $(own_lines "$scratch/err")"
fi

if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures"
  exit 1
fi
echo "PASS"
