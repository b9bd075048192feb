#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The sustained test never fills a filesystem and never leaves its file:
# on a small ext4 (1.5 GiB), --span free writes all free space but the
# margin (max(1 GiB, 5%)), and while it writes the filesystem still has
# that margin free; after it, all the space is back. Stopped with SIGINT
# (exit 130, the samples so far in the report) or killed with SIGKILL,
# it leaves no file and gets all its space back (the test file has no
# name from its creation on).

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_loop_create 1536
dm_mkfs_mount
dm_tmpdir
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"
margin=$((1 << 30))

avail () { stat -f -c '%a %S' "$DM_MNT" | awk '{ print $1 * $2 }'; }
leftovers () { ls -A "$DM_MNT" | grep -v '^lost+found$'; }
# wait_for FILE PATTERN: until the pattern is in the file (10 s at most).
wait_for ()
{
  for _ in $(seq 1000); do
    grep -qs "$2" "$1" && return 0
    sleep 0.01
  done
  return 1
}

free0=$(avail)
dm_log "free before: $free0 B"

# A whole run over the free space, its free space looked at once it runs.
printf '# $ diskmeter-cli sustained --span free --duration 30 --progress\n'
"$DM_CLI" sustained --span free --duration 30 --sample 0.1 --progress --format json \
  --output "$out" "$DM_MNT" 2> "$err" &
pid=$!
dm_track_pid "$pid"
wait_for "$err" '^sample t=' && during=$(avail)
wait "$pid"
rc=$?
dm_untrack_pid "$pid"
dm_check "exit status 0 (got $rc)" test "$rc" = 0
span=$(dm_json "$out" "j['sustained']['span_bytes']")
dm_log "span $span B, free while writing ${during:-?} B"
dm_check "/truth/sustained-space/span is the free space but the margin" \
  test "$span" = $(( (free0 - margin) / 1048576 * 1048576 ))
dm_check "/truth/sustained-space/the whole span written" \
  test "$(dm_json "$out" "j['results'][0]['runs'][0]['bytes']")" = "$span"
dm_check "/truth/sustained-space/margin free while writing (${during:-?} B >= $margin B)" \
  test "${during:-0}" -ge "$margin"
dm_check "/truth/sustained-space/no file after the run" test -z "$(leftovers)"
dm_check "/truth/sustained-space/space back after the run" test "$(avail)" -ge $((free0 - (4 << 20)))

# A span that does not fit is refused before anything is written.
dm_run "$out" "$err" sustained --span 2GiB --duration 5 --quiet "$DM_MNT"
dm_check "/truth/sustained-space/a span larger than the free space is refused (exit $DM_RC)" \
  test "$DM_RC" = 1
dm_check "/truth/sustained-space/refused with one line" dm_one_line_error "$err"
sed 's/^/#   stderr: /' "$err"

# Throttled so that it is still writing when the signal comes.
if dm_have_cgroup; then
  dm_cgroup_create
  dm_throttle write_bps 20000000
  cgroup_procs="$DM_CGROUP/cgroup.procs"
else
  dm_skip_part "no block cgroup: the signals come while an unthrottled run may be done"
  cgroup_procs=/dev/null
fi
for sig in INT KILL; do
  rm -f "$out" "$err"
  printf '# $ diskmeter-cli sustained --span 256MiB --duration 20 --progress, SIG%s at the first sample\n' "$sig"
  # The signal goes to diskmeter-cli itself: the subshell joins the
  # cgroup and becomes it.
  ( echo "$BASHPID" > "$cgroup_procs" || exit 125
    exec "$DM_CLI" sustained --span 256MiB --duration 20 --sample 0.2 --progress --format json \
      --output "$out" "$DM_MNT" 2> "$err" ) &
  pid=$!
  dm_track_pid "$pid"
  wait_for "$err" '^sample t=0.40'
  dm_check "/truth/sustained-space/SIG$sig: the file takes space while it runs" \
    test "$(avail)" -lt $((free0 - (200 << 20)))
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  dm_untrack_pid "$pid"
  if [ "$sig" = INT ]; then
    dm_check "/truth/sustained-space/SIGINT: exit 130 (got $rc)" test "$rc" = 130
    dm_check "/truth/sustained-space/SIGINT: report with the samples so far" \
      test "$(dm_json "$out" "len(j['results'][0]['samples']) >= 2")" = True
  else
    dm_check "/truth/sustained-space/SIGKILL: killed (got $rc)" test "$rc" = 137
  fi
  dm_check "/truth/sustained-space/SIG$sig: no file left" test -z "$(leftovers)"
  # After SIGKILL the kernel still completes the I/O in flight (throttled)
  # before it lets go of the file: the space comes back within seconds.
  for i in $(seq 100); do
    [ "$(avail)" -ge $((free0 - (4 << 20))) ] && break
    sleep 0.1
  done
  dm_log "SIG$sig: space back after about $((i - 1))00 ms"
  dm_check "/truth/sustained-space/SIG$sig: space back" test "$(avail)" -ge $((free0 - (4 << 20)))
done

dm_finish
