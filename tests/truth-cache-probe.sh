#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The host-cache model: tests/slow-fs.c with a read cache of 48 MiB per
# file serves a read of a held block in 4 ms and any other in 40 ms, in
# 8 slots. RND4K Q32T1 (32 reads queued on 8 slots) then reads 8 x 4 KiB
# per 4 ms from the cache (8.192 MB/s) and per 40 ms past it
# (0.8192 MB/s); over a set of W > 48 MiB written whole, 48 / W of the
# reads hit. Service times this long keep FUSE's own time per read (tens
# of microseconds on a busy machine) under 2 % of them. The ladder over 16..256 MiB must name a step at 48 MiB
# within 10 % and both rates within 5 %, and leave no test file behind.
# A device without the cache shows no step.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
mnt="$DM_TMPDIR/slow"
dm_slow_fs_mount "$mnt" 40000 8 --read-cache 48 --read-cache-us 4000
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

dm_run "$out" "$err" cache-probe --min 16MiB --max 256MiB --format json "$mnt"
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
dm_within "/truth/cache-probe/cache size vs 48 MiB" \
  "$(dm_json "$out" "$rnd['steps'][0]['cache_bytes']")" $((48 << 20)) 10
dm_within "/truth/cache-probe/cache rate vs 8 x 4 KiB / 4 ms" \
  "$(dm_json "$out" "$rnd['steps'][0]['cache_mb_per_s']")" 8.192 5
dm_within "/truth/cache-probe/beyond rate vs 8 x 4 KiB / 40 ms" \
  "$(dm_json "$out" "$rnd['steps'][0]['beyond_mb_per_s']")" 0.8192 5
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
