#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The host-cache model: tests/slow-fs.c with a read cache of 24 MiB per
# file serves a read of a held block in 8 ms and any other in 80 ms, in
# 8 slots. RND4K Q32T1 (32 reads queued on 8 slots) then reads 8 x 4 KiB
# per 8 ms from the cache (4.096 MB/s) and per 80 ms past it
# (0.4096 MB/s); over a set of W > 24 MiB written whole, 24 / W of the
# reads hit. Service times this long keep FUSE's own time per read (tens
# of microseconds, a hundred and more on a busy machine) near 1 % of them,
# and 4 s per test reads enough that the share of hits, a draw, is within
# about 1 % of 24 / W. The ladder over 16..256 MiB must name a step at 24 MiB
# within 15 %, the cache's rate from 8 % under to 5 % over the model and
# the rate past it within 8 %, and leave no test file behind,
# nor when its time limit or Ctrl-C stops it. A device without the cache
# shows no step.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
mnt="$DM_TMPDIR/slow"
dm_slow_fs_mount "$mnt" 80000 8 --read-cache 24 --read-cache-us 8000
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

# late_us: the machine's time per read, in microseconds: how much later
# than asked slow-fs's sleeps ended, and how long a slot stood free while
# the read that was to take it woke. It is the machine's, not the
# device's: a busy machine (a sanitized build, other work) stretched every
# 8 ms read by up to 0.7 ms late, which is 8 %, and a CI run lost 6 % more
# to slow wake-ups. Both rates are held against the service the device
# really delivered, 8 ms or 80 ms plus that time.
mark=$(dm_slow_fs_mark "$mnt")
dm_run "$out" "$err" cache-probe --min 16MiB --max 256MiB --duration 4 --format json "$mnt"
late_us=$(dm_slow_fs_late_us "$mnt" "$mark")
dm_log "slow-fs: realtime $(dm_slow_fs_field "$mnt" realtime), $late_us us late per read; $(cat "$mnt/.served")"
dm_check "exit status 0 (got $DM_RC: $(tail -c 300 "$err"))" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report: $(head -c 300 "$err")"
dm_log "estimate: $(head -n 1 "$err")"
dm_check "/truth/cache-probe/the estimate comes first" \
  grep -q "over 5 working sets from 16.0MiB to 256.0MiB: writes 496.0MiB" "$err"
dm_log "ladders: $(dm_json "$out" "j['cache_probe']['ladders']")"
dm_check "/truth/cache-probe/five sizes, each complete" \
  test "$(dm_json "$out" "[r['status'] for r in j['results']].count('complete')")" = 10
rnd="j['cache_probe']['ladders'][0]"
dm_check "/truth/cache-probe/one step in RND4K" \
  test "$(dm_json "$out" "len($rnd['steps'])")" = 1
dm_check "/truth/cache-probe/the step is estimated" \
  test "$(dm_json "$out" "$rnd['steps'][0]['estimated']")" = True
# The size is where the lines through the rates below and past the step
# meet, so a few % on either rate moves it more: in one CI run the rates
# were -0.7 % and +4.1 % off the model and the size -12.2 %. 15 % still
# tells 24 MiB from either size beside it (16 and 32, a third away).
dm_within "/truth/cache-probe/cache size vs 24 MiB" \
  "$(dm_json "$out" "$rnd['steps'][0]['cache_bytes']")" $((24 << 20)) 15
# The cache's rate may fall 8 % short, never go 5 % over: a slot left
# free with no read waiting is not counted in late_us, since slow-fs cannot
# tell a program that did not ask from a machine paused longer than the
# 24 reads queued ahead (24 ms at 8 ms each); at 80 ms past the cache the
# same pause is a tenth of the share.
dm_within "/truth/cache-probe/cache rate vs 8 x 4 KiB / (8 ms + $late_us us late)" \
  "$(dm_json "$out" "$rnd['steps'][0]['cache_mb_per_s']")" \
  "$(python3 -c "print(8 * 4096 / (8000 + $late_us))")" 5 8
# Past the cache each set draws few reads (about 440 at 256 MiB, 80 ms
# each on 8 slots), so its share of hits, which sets its time, varies by
# about 1.4 % from run to run, and the slope through the 4 sets past the
# step came from -4.4 % to +4.1 % over eight runs (3 % either way on
# average): 8 %, near three times that, is the limit there.
dm_within "/truth/cache-probe/beyond rate vs 8 x 4 KiB / (80 ms + $late_us us late)" \
  "$(dm_json "$out" "$rnd['steps'][0]['beyond_mb_per_s']")" \
  "$(python3 -c "print(8 * 4096 / (80000 + $late_us))")" 8
dm_check "/truth/cache-probe/the cache's reads took their 8 ms within 25 % ($late_us us late)" \
  python3 -c "import sys; sys.exit(0 if $late_us < 2000 else 1)"
dm_check "/truth/cache-probe/no test file left" \
  test -z "$(ls -A "$mnt")"

# The text names the step in words, and show reprints the saved file as
# the command printed it.
dm_run "$DM_TMPDIR/show.txt" "$err" show "$out"
dm_check "show: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_log "$(cat "$DM_TMPDIR/show.txt")"
dm_check "/truth/cache-probe/show names the step" \
  grep -q "RND4K_Q32T1: about .* served by a cache below this VM at .* MB/s; beyond it .* MB/s" \
  "$DM_TMPDIR/show.txt"
dm_run "$DM_TMPDIR/show.json" "$err" show --format json "$out"
dm_check "/truth/cache-probe/show --format json gives the same steps" \
  test "$(dm_json "$DM_TMPDIR/show.json" "j['cache_probe']['ladders']")" \
    = "$(dm_json "$out" "j['cache_probe']['ladders']")"

# A time limit shorter than the ladder: exit 0 with the sets measured by
# then, said so, nothing left. Then Ctrl-C mid-set: exit 130, the sets
# finished kept, nothing left.
dm_run "$out" "$err" cache-probe --min 16MiB --max 256MiB --duration 1 --warmup 0 \
  --time-limit 5 --format json "$mnt"
dm_check "time limit: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/truth/cache-probe/time limit said" grep -q "stopped at the time limit" "$err"
dm_log "time limit: $(dm_json "$out" "[r['status'] for r in j['results']]")"
dm_check "/truth/cache-probe/time limit: stopped so, with some sets measured" \
  test "$(dm_json "$out" "j['cache_probe']['stopped'] == 'time-limit' and 2 <= [r['status'] for r in j['results']].count('complete') < 10")" = True
dm_check "/truth/cache-probe/time limit: no test file left" test -z "$(ls -A "$mnt")"
printf '# $ diskmeter-cli cache-probe ... & kill -INT after the first set\n'
"$DM_CLI" cache-probe --min 16MiB --max 256MiB --duration 1 --warmup 0 --format json \
  "$mnt" > "$out" 2> "$err" &
pid=$!
dm_track_pid "$pid"
sleep 4
kill -INT "$pid"
wait "$pid"
rc=$?
dm_untrack_pid "$pid"
dm_check "Ctrl-C: exit status 130 (got $rc)" test "$rc" = 130
dm_check "/truth/cache-probe/Ctrl-C: cancelled, the first set kept" \
  test "$(dm_json "$out" "j['cache_probe']['stopped'] == 'cancelled' and j['results'][0]['status'] == 'complete'")" = True
for _ in $(seq 30); do [ -z "$(ls -A "$mnt")" ] && break; sleep 0.1; done
dm_check "/truth/cache-probe/Ctrl-C: no test file left" test -z "$(ls -A "$mnt")"
dm_slow_fs_unmount "$mnt"

# Without the cache: the same ladder at the device's rate, no step.
dm_slow_fs_mount "$mnt" 8000 4
dm_run "$out" "$err" cache-probe --min 16MiB --max 64MiB --duration 1 --format json "$mnt"
dm_check "no cache: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_log "no cache: $(dm_json "$out" "j['cache_probe']['ladders']")"
dm_check "/truth/cache-probe/no cache, no step" \
  test "$(dm_json "$out" "sum(len(l['steps']) for l in j['cache_probe']['ladders'])")" = 0
dm_slow_fs_unmount "$mnt"
dm_finish
