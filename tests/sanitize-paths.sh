#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The command paths of the tests the sanitized stage leaves out (the
# `unsanitized` suite: tests long for the time they measure, whose other
# lines the rest of the suite runs), each run once for a moment on two
# ext4 file systems over RAM-backed loop devices: the cache probe (its
# time limit, Ctrl-C, show), the sweep's rate curve (a test and a
# workload, show), the block and queue sweeps, dsync and dedupe workloads, the
# headroom (its text, JSON, CSV, a given bound, show, its refusals), a
# study (run, run again, show as JSON, CSV and Excel) and concurrent runs. What their figures must be the tests named check in the
# plain build; here each command must end as it says and leave no test
# file, so that under AddressSanitizer and UBSan every line they run is
# checked for what it does to memory (build-aux/coverage-pick measured
# which lines those are).

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_loop_create 192 >/dev/null
dm_mkfs_mount
mnt1="$DM_MNT"
dm_loop_create 192 >/dev/null
dm_mkfs_mount
mnt2="$DM_MNT"
dm_tmpdir
d="$DM_TMPDIR"
short=(--size 16MiB --duration 0.2 --warmup 0 --quiet --no-history)

# ok WHAT: the last dm_run ended with exit status 0 and left no test file.
ok ()
{
  dm_check "$1: exit status 0 (got $DM_RC: $(tail -c 200 "$d/err"))" test "$DM_RC" = 0
  dm_check "$1: no test file left" test -z "$(ls -A "$mnt1" | grep -v '^lost+found$')"
}
# shown WHAT FILE: show reprints FILE as text and JSON.
shown ()
{
  dm_run "$d/shown.txt" "$d/err" show "$2"
  ok "$1: show"
  dm_run "$d/shown.json" "$d/err" show --format json "$2"
  ok "$1: show --format json"
  dm_check "$1: show --format json is JSON" python3 -c "import json; json.load(open('$d/shown.json'))"
}

# --- cache probe -------------------------------------------------------------
dm_run "$d/probe.json" "$d/err" cache-probe --min 16MiB --max 32MiB --duration 0.2 --warmup 0 \
  --format json "$mnt1"
ok "cache-probe"
dm_check "cache-probe: two sets of two tests" \
  test "$(dm_json "$d/probe.json" "len(j['results'])")" = 4
shown "cache-probe" "$d/probe.json"
dm_run "$d/probe.txt" "$d/err" cache-probe --min 16MiB --max 64MiB --duration 0.2 --warmup 0 \
  --mode write "$mnt1"
ok "cache-probe --mode write"
dm_run "$d/limit.json" "$d/err" cache-probe --min 16MiB --max 256MiB --duration 0.5 --warmup 0 \
  --time-limit 1 --format json "$mnt1"
ok "cache-probe --time-limit"
dm_check "cache-probe --time-limit: said" grep -q "stopped at the time limit" "$d/err"
# Ctrl-C in the second set, its progress on a terminal.
dm_run_watch "$d/int.json" "$d/int.log" '^2/[0-9]+ ' \
  "$DM_CLI" cache-probe --min 16MiB --max 256MiB --duration 0.5 --warmup 0 --format json "$mnt1"
dm_check "cache-probe, Ctrl-C: exit status 130 (got $DM_RC)" test "$DM_RC" = 130
dm_check "cache-probe, Ctrl-C: no test file left" test -z "$(ls -A "$mnt1" | grep -v '^lost+found$')"

# --- sweeps ------------------------------------------------------------------
dm_run "$d/blocks.json" "$d/err" sweep --blocks 4K,...,32K "${short[@]}" --format json \
  --output "$d/blocks.json" "$mnt1"
ok "sweep --blocks"
shown "sweep --blocks" "$d/blocks.json"
dm_run "$d/curve.json" "$d/err" sweep --rates curve --tests RND4K_Q8T1 --latency-bound 5ms \
  "${short[@]}" --format json --output "$d/curve.json" "$mnt1"
ok "sweep --rates curve"
shown "sweep --rates curve" "$d/curve.json"
dm_run "$d/wcurve.txt" "$d/err" sweep --rates curve --workload "name=w;block=8K;read=100;qd=4" \
  "${short[@]}" "$mnt1"
ok "sweep --rates curve --workload"
# On a terminal: the progress lines.
dm_run_watch "$d/qd.txt" "$d/qd.log" '' "$DM_CLI" sweep --threads 1 --qd 1,2 --size 16MiB \
  --duration 0.5 --warmup 0 --no-history "$mnt1"
ok "sweep --qd, with progress"
dm_check "sweep --qd: its progress shown" grep -q 'MB/s.*left' "$d/qd.log"
dm_run "$d/dsync.json" "$d/err" --workload "name=d;block=4K;read=0;qd=1;sync=dsync" "${short[@]}" \
  --format json "$mnt1"
ok "--workload sync=dsync"
dm_run "$d/dedupe.json" "$d/err" --workload "name=u;block=4K;read=0;dedupe=30;qd=4" "${short[@]}" \
  --format json "$mnt1"
ok "--workload dedupe=30"

# --- headroom ----------------------------------------------------------------
profile="$d/captured.ini"
printf '[captured]\nblock = 4K\nread = 100\nrandom = 100\nqd = 4\nrate = 500\n' > "$profile"
dm_run "$d/headroom.json" "$d/err" --profile-file "$profile" --headroom "${short[@]}" \
  --format json --output "$d/headroom.json" "$mnt1"
ok "--headroom"
shown "--headroom" "$d/headroom.json"
dm_run "$d/given.txt" "$d/err" --profile-file "$profile" --headroom --headroom-p99 3ms \
  "${short[@]}" "$mnt1"
ok "--headroom --headroom-p99"
dm_run "$d/h.csv" "$d/err" --profile-file "$profile" --headroom "${short[@]}" --format csv "$mnt1"
ok "--headroom --format csv"
# The refusals: a line with the reason (then the usage hint), exit status 2.
for args in "--headroom-p99 3ms" "--headroom" "--profile-file $profile --headroom --headroom-p99 soon" \
            "--profile-file $profile --headroom --compare-with $mnt2"; do
  # shellcheck disable=SC2086
  dm_run "$d/refused" "$d/err" $args "${short[@]}" "$mnt1"
  dm_check "$args: refused with exit status 2 (got $DM_RC: $(head -c 200 "$d/err"))" test "$DM_RC" = 2
  dm_check "$args: the reason first, in a line" grep -q "^diskmeter-cli: .*headroom" <(head -n 1 "$d/err")
done

# --- a study -----------------------------------------------------------------
plan="$d/plan.ini"
cat > "$plan" <<EOF
[study]
name = sanitize
tests = SEQ128K
modes = read
q = 1, 4
t = 1
count = 1
size = 16MiB
duration = 0.2
warmup = 0
interval = 0
threshold = read SEQ128K MB/s green>12 red<12

[target first]
path = $mnt1

[target second]
path = $mnt2
EOF
export XDG_DATA_HOME="$d/data"
# Ctrl-C after the first scenario, its progress on a terminal; then the rest.
dm_run_watch "$d/study.int" "$d/study.log" 'study sanitize: 1/4 done' "$DM_CLI" study run "$plan"
dm_check "study run, Ctrl-C: exit status 130 (got $DM_RC)" test "$DM_RC" = 130
dm_check "study run, Ctrl-C: no test file left" test -z "$(ls -A "$mnt1" | grep -v '^lost+found$')"
dm_run "$d/study.out" "$d/err" study run "$plan"
ok "study run"
dm_run "$d/study.again" "$d/err" study run "$plan"
ok "study run again"
dm_check "study run again: all done, nothing run" grep -q "all 4 scenarios are done" "$d/err"
dm_run "$d/study.json" "$d/err" study show sanitize --format json
ok "study show --format json"
dm_run "$d/study.csv" "$d/err" study show sanitize --format csv
ok "study show --format csv"
dm_run "$d/xlsx.out" "$d/err" study show sanitize --format xlsx --output "$d/study.xlsx"
ok "study show --format xlsx"
dm_check "study show --format xlsx: a workbook" test -s "$d/study.xlsx"

# --- two targets at once ------------------------------------------------------
dm_run "$d/conc.txt" "$d/err" --tests RND4K_Q1T1 --modes read "${short[@]}" --interval 0 \
  "$mnt1" --concurrent "$mnt2"
ok "--concurrent, as text"
dm_run "$d/conc.json" "$d/err" --tests SEQ1M_Q8T1 --modes read,write "${short[@]}" --interval 0 \
  --format json "$mnt1" --concurrent "$mnt2"
ok "--concurrent"
dm_check "--concurrent: both targets" \
  test "$(dm_json "$d/conc.json" 'len(j["concurrent"]["targets"])')" = 2
dm_check "--concurrent: no test file left on the second" \
  test -z "$(ls -A "$mnt2" | grep -v '^lost+found$')"

dm_finish
