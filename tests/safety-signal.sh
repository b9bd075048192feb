#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Stopping a run never leaves a test file behind: Ctrl-C (SIGINT) or
# SIGTERM in the middle of a measurement ends the CLI within about a second
# with exit status 130, the --output file keeps the results that finished
# and says "cancelled", and after each, even SIGKILL, no process holds a
# file open on the filesystem and all of the test file's space is back. On a slow device (throttled to
# 8 MB/s) a Ctrl-C while the test file is being filled, or while 32 MiB of
# reads are still queued, is just as quick.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_loop_create 512
dm_mkfs_mount
dm_tmpdir

free_bytes () { stat -f -c '%a %S' "$DM_MNT" | awk '{ printf "%.0f\n", $1 * $2 }'; }

# interrupt NAME SIGNAL DELAY ARGS...: starts a run, sends SIGNAL DELAY
# seconds after its test file exists, and waits for the end. Sets rc, took
# (seconds from the signal to the exit) and used0 (the bytes in use on the
# filesystem before the run).
interrupt ()
{
  local name="$1" sig="$2" delay="$3" pid t0 t1; shift 3
  printf '# $ diskmeter-cli %s   (%s after %ss)\n' "$*" "$sig" "$delay"
  dm_settle
  used0=$(dm_fs_used "$DM_MNT")
  # A shell runs background commands with SIGINT ignored; a terminal's
  # Ctrl-C reaches a program with the default disposition, so restore it.
  (
    if [ -n "${THROTTLED:-}" ]; then
      echo "$BASHPID" > "$DM_CGROUP/cgroup.procs" || exit 125
    fi
    exec env --default-signal=INT "$DM_CLI" "$@" "$DM_MNT"
  ) > "$DM_TMPDIR/$name.out" 2> "$DM_TMPDIR/$name.err" &
  pid=$!
  dm_track_pid "$pid"
  if ! dm_wait_test_file "$DM_MNT" "$pid"; then
    dm_check "/safety/signal/$name the run created its test file" false
  fi
  sleep "$delay"
  t0=$(date +%s.%N)
  kill "-$sig" "$pid"
  wait "$pid"
  rc=$?
  dm_untrack_pid "$pid"
  t1=$(date +%s.%N)
  took=$(python3 -c "print(round($t1 - $t0, 3))")
  sed 's/^/#   stderr: /' "$DM_TMPDIR/$name.err" | head -n 10
  dm_log "$name: exit status $rc, $took s after $sig"
}

dm_settle
free0=$(free_bytes)
common=(--size 64MiB --count 1 --warmup 0 --interval 0)

# SIGINT in the second of two tests: the first one's result survives.
interrupt int INT 6 "${common[@]}" --tests SEQ1M_Q8T1,RND4K_Q1T1 --modes read \
  --duration 4 --format json --output "$DM_TMPDIR/int.json"
dm_check "/safety/signal/int exit status 130 (got $rc)" test "$rc" = 130
dm_check "/safety/signal/int ends within 1.5 s ($took s)" \
  python3 -c "import sys; sys.exit(0 if $took <= 1.5 else 1)"
dm_check "/safety/signal/int no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"
dm_check "/safety/signal/int --output written" test -s "$DM_TMPDIR/int.json"
dm_check "/safety/signal/int report status cancelled" \
  test "$(dm_json "$DM_TMPDIR/int.json" 'j["status"]' 2>/dev/null)" = cancelled
dm_check "/safety/signal/int finished SEQ1M_Q8T1 result kept" \
  test "$(dm_json "$DM_TMPDIR/int.json" '[(r["status"], len(r["runs"]) > 0 and r["mb_per_s"] > 0) for r in j["results"] if r["test"] == "SEQ1M_Q8T1"][0]' 2>/dev/null)" = "('complete', True)"
dm_check "/safety/signal/int interrupted RND4K_Q1T1 not complete" \
  test "$(dm_json "$DM_TMPDIR/int.json" '[r["status"] for r in j["results"] if r["test"] == "RND4K_Q1T1"][0]' 2>/dev/null)" != complete

# SIGTERM, as a service manager or timeout(1) sends it.
interrupt term TERM 2 "${common[@]}" --tests SEQ1M_Q8T1 --modes write --duration 10
dm_check "/safety/signal/term exit status 130 (got $rc)" test "$rc" = 130
dm_check "/safety/signal/term ends within 1.5 s ($took s)" \
  python3 -c "import sys; sys.exit(0 if $took <= 1.5 else 1)"
dm_check "/safety/signal/term no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"

# SIGKILL: the process cannot clean up, and there is nothing to clean up.
interrupt kill KILL 2 "${common[@]}" --tests RND4K_Q32T1 --modes read,write --duration 10
dm_check "/safety/signal/kill no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"

if dm_have_cgroup; then
  dm_cgroup_create
  dm_throttle write_bps 8000000
  # 256 MiB take 32 s to fill at 8 MB/s: interrupt after one.
  THROTTLED=1 interrupt fill INT 1 --size 256MiB --count 1 --warmup 0 --interval 0 \
    --tests SEQ1M_Q8T1 --modes read --duration 1
  dm_check "/safety/signal/fill exit status 130 (got $rc)" test "$rc" = 130
  dm_check "/safety/signal/fill ends within 1.5 s ($took s)" \
    python3 -c "import sys; sys.exit(0 if $took <= 1.5 else 1)"
  dm_check "/safety/signal/fill no test file left open or allocated" \
    dm_no_test_file "$DM_MNT" "$used0"
  # 32 reads of 1 MiB in flight take 4 s to drain at 8 MB/s.
  dm_throttle write_bps 0
  dm_throttle read_bps 8000000
  THROTTLED=1 interrupt queued INT 3 --size 64MiB --count 1 --warmup 0 --interval 0 \
    --tests SEQ1M_Q32T1 --modes read --duration 10
  dm_check "/safety/signal/queued exit status 130 (got $rc)" test "$rc" = 130
  dm_check "/safety/signal/queued ends within 1.5 s ($took s)" \
    python3 -c "import sys; sys.exit(0 if $took <= 1.5 else 1)"
  dm_check "/safety/signal/queued no test file left open or allocated" \
    dm_no_test_file "$DM_MNT" "$used0"
else
  dm_skip_part "no block cgroup (cgroup v1 blkio or v2 io): the throttled fill and queued cases"
fi

# An unlinked file's blocks return once the last reference goes; reads the
# kernel still had queued when the process ended hold one until they are
# done, so give them a few seconds.
for ((i = 0; i < 100; i++)); do
  dm_settle
  free1=$(free_bytes)
  [ "$free1" -ge "$((free0 - (1 << 20)))" ] && break
done
dm_log "free space before $free0 B, after $free1 B ($i waits of 0.1 s after the last run)"
dm_check "/safety/signal all test file space is free again" \
  test "$free1" -ge "$((free0 - (1 << 20)))"

dm_finish
