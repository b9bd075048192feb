#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The queue the system itself held, as the backend counts it (os_queue),
# against a device that needs one: tests/slow-fs.c, reads of 10 ms with 4
# served at once. io_uring hands the kernel every I/O of the queue at once,
# so at QD 4 it holds 4 and the result is not flagged queue_not_held (as a
# Windows build under Wine is, where each read is done in the call that
# starts it: tests/windows-cli.sh); nor at QD 1, nor with the pread thread
# fallback. The text report has no queue line then. What is checked is the
# count, not the speed: a busy machine changes the IOPS, not what the
# kernel was given.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

dm_tmpdir
mnt="$DM_TMPDIR/mnt"
dm_slow_fs_mount "$mnt" 10000 4
dm_log "slow-fs on $mnt: 10000 us per read, 4 at once"

backends=(psync)
"$DM_CLI" --help 2>&1 | grep -q 'io_uring' && backends=(io_uring psync)
for be in "${backends[@]}"; do
  out="$DM_TMPDIR/$be.json"
  dm_run "$out" "$DM_TMPDIR/$be.err" --tests RND4K_Q4T1,RND4K_Q1T1 --count 1 --size 16MiB \
    --duration 1 --warmup 0.2 --interval 0 --no-history --backend "$be" --format json \
    --output "$out" "$mnt"
  if [ "$DM_RC" != 0 ] && [ "$be" = io_uring ] && grep -qi 'io_uring' "$DM_TMPDIR/$be.err"; then
    dm_skip_part "$be: not usable here: $(head -c 200 "$DM_TMPDIR/$be.err")"
    continue
  fi
  dm_check "/truth/queue/$be ran (status $DM_RC)" test "$DM_RC" = 0
  [ -f "$out" ] || continue
  dm_check "/truth/queue/$be is the backend" test "$(dm_json "$out" 'j["backend"]')" = "$be"
  for sel in 'RND4K_Q4T1 read' 'RND4K_Q4T1 write' 'RND4K_Q1T1 read' 'RND4K_Q1T1 write'; do
    set -- $sel
    r='[r for r in j["results"] if r["test"] == "'"$1"'" and r["mode"] == "'"$2"'"][0]'
    held=$(dm_json "$out" "$r.get('os_queue')")
    asked=$(dm_json "$out" "$r['queue_depth'] * $r['threads']")
    dm_log "$be $sel: the system held $held of $asked I/Os asked, flags $(dm_json "$out" "$r['flags']")"
    dm_check "/truth/queue/$be $sel: os_queue is counted" test "$held" != None
    dm_check "/truth/queue/$be $sel: the system held at least half the queue asked" \
      python3 -c "import sys; sys.exit(0 if float('$held') >= 0.5 * $asked else 1)"
    dm_check "/truth/queue/$be $sel: not flagged queue_not_held" \
      test "$(dm_json "$out" "'queue_not_held' in $r['flags']")" = False
  done
  "$DM_CLI" show "$out" > "$DM_TMPDIR/$be.txt" 2>&1
  dm_check "/truth/queue/$be: the text report has no queue line" \
    sh -c "! grep -q 'queue not held' '$DM_TMPDIR/$be.txt'"
done

dm_check "/truth/queue/no test file left" test -z "$(ls -A "$mnt" 2>/dev/null)"
dm_slow_fs_unmount "$mnt"
rc=$?
dm_check "/truth/queue/slow-fs ended cleanly after unmount (status $rc)" test "$rc" = 0

dm_finish
