#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A sweep against a device whose curve the kernel sets: a loop device
# throttled by the block cgroup to 500 reads per second. Every queue depth
# then runs at the cap (within 5 %), and by Little's law the mean latency
# is QD / 500 s, so the throughput is flat from QD 1 while latency rises: the
# knee the sweep names must be QD 1. (p99 sits near the throttle's 100 ms
# slice at every QD; the mean is what rises.) (A knee further right needs a latency
# floor under the cap, e.g. dm-delay or null_blk's completion_nsec; the
# kernels the tests run on do not always have them.) Ctrl-C in the third
# combination must keep the two already measured.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

cap=500
dm_loop_create 256
dm_mkfs_mount
dm_cgroup_create
dm_throttle read_iops "$cap"
dm_tmpdir
out="$DM_TMPDIR/sweep.json"
err="$DM_TMPDIR/err.txt"
# The test file has no name to look for: what the sweeps must not leave is
# a file held open on the test filesystem or space it took (tests/lib.sh).
dm_settle
used0=$(dm_fs_used "$DM_MNT")

DM_RUN_PREFIX=dm_throttled dm_run "$out" "$err" sweep \
  --pattern RND --block 4K --mode read --threads 1 --qd 1,2,4,8,16 \
  --latency-bound 150000 --size 64MiB --duration 3 --warmup 0.5 \
  --format json --quiet "$DM_MNT"

dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report"
dm_check "status complete" test "$(dm_json "$out" 'j["status"]')" = complete
dm_check "profile sweep" test "$(dm_json "$out" 'j["profile"]')" = sweep
dm_check "five combinations" test "$(dm_json "$out" 'len(j["results"])')" = 5

for qd in 1 2 4 8 16; do
  sel="[r for r in j['results'] if r['queue_depth'] == $qd][0]"
  dm_check "/truth/sweep/Q${qd}T1 complete" test "$(dm_json "$out" "$sel['status']")" = complete
  # The throttle lets a short burst through at the start of a run: 6 %.
  dm_within "/truth/sweep/Q${qd}T1 IOPS vs the cap" "$(dm_json "$out" "$sel['iops']")" "$cap" 6
  # Little's law: QD I/Os in flight at 500 per second wait QD x 2 ms each.
  if [ "$qd" -ge 2 ]; then
    dm_within "/truth/sweep/Q${qd}T1 mean latency vs QD / cap" \
      "$(dm_json "$out" "$sel['latency_us']['mean']")" "$((qd * 1000000 / cap))" 15
  fi
done

dm_check "/truth/sweep/knee is QD 1 (JSON)" \
  test "$(dm_json "$out" '(j["sweep"]["knee"] or {}).get("queue_depth")')" = 1
dm_check "/truth/sweep/knee has 1 thread" \
  test "$(dm_json "$out" '(j["sweep"]["knee"] or {}).get("threads")')" = 1
dm_log "p99 by QD: $(dm_json "$out" '[r["latency_us"]["p99"] for r in j["results"]]')"
dm_check "/truth/sweep/the sweep lists its axes" \
  test "$(dm_json "$out" 'j["sweep"]["queue_depths"]')" = "[1, 2, 4, 8, 16]"
# The throttle holds I/O in 100 ms slices, so p99 is near 100 ms at every
# QD here; the best load under 150 ms must keep its p99 under that.
best_p99=$(dm_json "$out" '(j["sweep"]["best_under_bound"] or {}).get("p99_latency_us", 1e12)')
dm_check "/truth/sweep/best under 150 ms keeps p99 under it ($best_p99 us)" \
  python3 -c "import sys; sys.exit(0 if float('$best_p99') <= 150000 else 1)"

# Printed again from the file: the same JSON, and the text tables.
"$DM_CLI" show "$out" --format json > "$DM_TMPDIR/shown.json"
dm_check "/truth/sweep/show gives back the sweep's JSON byte for byte" cmp -s "$out" "$DM_TMPDIR/shown.json"
# Where it does not, what differs is the lead to the cause.
cmp -s "$out" "$DM_TMPDIR/shown.json" || diff "$out" "$DM_TMPDIR/shown.json" | head -20 | sed 's/^/#   /'
dm_check "/truth/sweep/show prints the sweep's tables" \
  bash -c '"$1" show "$2" | grep -q "^p99 latency (us)"' _ "$DM_CLI" "$out"

# Ctrl-C during the third combination: the first two stay, exit 130. The
# signal follows the CLI's own progress line (the third combination has
# begun), not a guessed time, so a busy machine cannot move it.
part="$DM_TMPDIR/part.json"
dm_run_watch "$DM_TMPDIR/part.out" "$DM_TMPDIR/part.progress" ' 3/5 ' \
  bash -c 'echo "$BASHPID" > "$1/cgroup.procs" || exit 125; shift; exec "$@"' _ "$DM_CGROUP" \
  "$DM_CLI" sweep --threads 1 --qd 1,2,4,8,16 --size 64MiB --duration 1 --warmup 0 \
  --format json --output "$part" "$DM_MNT"
rc=$DM_RC
dm_check "/truth/sweep/interrupted: exit status 130 (got $rc)" test "$rc" = 130
[ -s "$part" ] || dm_die "no JSON report after Ctrl-C"
dm_check "/truth/sweep/interrupted: status cancelled" \
  test "$(dm_json "$part" 'j["status"]')" = cancelled
done_n=$(dm_json "$part" 'len([r for r in j["results"] if r["status"] == "complete"])')
dm_check "/truth/sweep/interrupted: kept the two measured before it ($done_n complete)" \
  test "$done_n" -ge 2 -a "$done_n" -le 3
dm_check "/truth/sweep/interrupted: no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"

dm_finish
