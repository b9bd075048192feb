#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A device that stops answering ends the run within a known time, without a
# Ctrl-C: a test fails once no I/O has completed for 5 s, or once I/O is
# still unanswered 5 s after its last window ended, whichever comes first.
# The device here is tests/slow-fs.c with a service time of 10 s per read,
# far past that bound, serving one read at a time; RND4K_Q4T1 puts four
# reads in its queue. diskmeter-cli must exit 1 within the bound (a 1 s
# window + 5 s, plus a margin for starting and preparing), with one line
# naming the test and the reason, a report saying the same, and no test
# file left. Before this bound it waited for all four reads, one after
# another (40 s), and a device that never answered hung it for good.
#
# With the psync backend (where io_uring is blocked), a read a FUSE server
# has taken cannot be interrupted, and the process cannot exit before the
# kernel lets it go: the run still ends, its line and report come within
# the bound, and the exit follows when the device answers.
#
# Every run is under a watchdog (timeout -s KILL), so a hang fails the
# test instead of stalling it.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

service_us=10000000  # slow-fs's longest service time: 10 s
stall_s=5            # the engine's bound (engine/dm-runner.c, STALL_S)
window_s=1
margin_s=3           # starting, creating and filling 16 MiB, exiting
bound_s=$((window_s + stall_s + margin_s))
watchdog_s=60
want="RND4K_Q4T1 read failed: no I/O completed in $stall_s s; the device does not answer"

# The slow-fs servers are killed with reads still in their hands, after
# which a FUSE mount no longer answers even mountpoint(1): detach each one
# first, lazily, and let lib.sh's teardown kill the servers and clean up.
hang_mounts=()
hang_teardown ()
{
  local rc=$? m
  for m in "${hang_mounts[@]}"; do
    umount -l "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null \
      || printf '# teardown: could not detach %s\n' "$m"
  done
  (exit "$rc")
  _dm_on_exit
}
trap hang_teardown EXIT

dm_tmpdir
args=(--tests RND4K_Q4T1 --modes read --count 1 --duration "$window_s" --warmup 0
      --interval 0 --size 16MiB --format json)

now () { date +%s.%N; }
secs () { python3 -c "print(round($2 - $1, 2))"; }

# run NAME MOUNT ARGS...: starts diskmeter-cli under the watchdog and
# notes when its error line appeared (line_s) and when it exited (took_s,
# rc).
run ()
{
  local name="$1" mnt="$2" pid t0 t_line=""; shift 2
  printf '# $ diskmeter-cli %s %s\n' "$*" "$mnt"
  t0=$(now)
  timeout -s KILL "$watchdog_s" "$DM_CLI" "$@" --output "$DM_TMPDIR/$name.json" "$mnt" \
    > "$DM_TMPDIR/$name.out" 2> "$DM_TMPDIR/$name.err" &
  pid=$!
  dm_track_pid "$pid"
  while kill -0 "$pid" 2>/dev/null; do
    if [ -z "$t_line" ] && grep -q 'failed' "$DM_TMPDIR/$name.err" 2>/dev/null; then
      t_line=$(now)
    fi
    sleep 0.05
  done
  wait "$pid"
  rc=$?
  dm_untrack_pid "$pid"
  took_s=$(secs "$t0" "$(now)")
  line_s=$(secs "$t0" "${t_line:-$(now)}")
  sed 's/^/#   stderr: /' "$DM_TMPDIR/$name.err" | head -n 5
  dm_log "$name: exit status $rc after $took_s s, error line after $line_s s (bound $bound_s s)"
}

check_report ()
{
  local name="$1" json="$DM_TMPDIR/$1.json"
  dm_check "/safety/hang/$name one line naming the test and the reason" \
    test "$(cat "$DM_TMPDIR/$name.err")" = "diskmeter-cli: $want"
  if [ -s "$json" ]; then
    dm_check "/safety/hang/$name report status failed" \
      test "$(dm_json "$json" 'j["status"]')" = failed
    dm_check "/safety/hang/$name report names the reason" \
      test "$(dm_json "$json" 'j["error"]')" = "$want"
  else
    dm_check "/safety/hang/$name a JSON report was written" false
  fi
}

# io_uring: the whole process ends within the bound.
mnt="$DM_TMPDIR/uring"
dm_slow_fs_mount "$mnt" "$service_us" 1
hang_mounts+=("$mnt")
dm_log "slow-fs on $mnt: $service_us us per read, one at a time"
run uring "$mnt" "${args[@]}" --backend io_uring
dm_check "/safety/hang/uring exit status 1 (got $rc; 137 = killed by the watchdog)" test "$rc" = 1
dm_check "/safety/hang/uring exits within $bound_s s ($took_s s)" \
  python3 -c "import sys; sys.exit(0 if $took_s <= $bound_s else 1)"
dm_check "/safety/hang/uring the device was given $stall_s s ($took_s s)" \
  python3 -c "import sys; sys.exit(0 if $took_s >= $stall_s else 1)"
check_report uring
dm_check "/safety/hang/uring no test file left" test -z "$(ls -A "$mnt" 2>/dev/null)"

# psync: four helper threads, each stuck in a pread the kernel holds. The
# device serves all four at once so that the exit comes after one service.
mnt="$DM_TMPDIR/psync"
dm_slow_fs_mount "$mnt" "$service_us" 4
hang_mounts+=("$mnt")
dm_log "slow-fs on $mnt: $service_us us per read, four at once"
run psync "$mnt" "${args[@]}" --backend psync
dm_check "/safety/hang/psync exit status 1 (got $rc; 137 = killed by the watchdog)" test "$rc" = 1
dm_check "/safety/hang/psync the error line comes within $bound_s s ($line_s s)" \
  python3 -c "import sys; sys.exit(0 if $line_s <= $bound_s else 1)"
dm_check "/safety/hang/psync exits once the kernel lets the reads go ($took_s s)" \
  python3 -c "import sys; sys.exit(0 if $took_s <= $service_us / 1e6 + $margin_s else 1)"
check_report psync
dm_check "/safety/hang/psync no test file left" test -z "$(ls -A "$mnt" 2>/dev/null)"

dm_finish
