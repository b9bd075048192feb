#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The SLC model: tests/slow-fs.c with a write cache serves the first
# 128 MiB written in 4 ms per 1 MiB write and every write after them in
# 16 ms, one at a time. The sustained test must name the cliff at 128 MiB
# within 5%; the rates before and after include FUSE's own time per write,
# so they are held to the service times as bounds, and the rate before to
# at least twice the rate after. --mode read fills a span and reads it
# back at no more than the read service time allows, and finds no cliff.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
mnt="$DM_TMPDIR/slow"
dm_slow_fs_mount "$mnt" 2000 1 --write-cache 128 --cache-us 4000 --write-us 16000
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

dm_run "$out" "$err" sustained --span 256MiB --duration 20 --sample 0.1 --format json --quiet "$mnt"
dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report: $(head -c 300 "$err")"
dm_log "samples: $(dm_json "$out" "[round(s['mb_per_s']) for s in j['results'][0]['samples']]") MB/s"
dm_log "sustained: $(dm_json "$out" "j['sustained']")"
dm_check "/truth/sustained-cache/the whole span written" \
  test "$(dm_json "$out" "j['results'][0]['runs'][0]['bytes']")" = $((256 << 20))
dm_check "/truth/sustained-cache/cliff found" \
  test "$(dm_json "$out" "j['sustained']['cache_bytes'] is not None")" = True
dm_within "/truth/sustained-cache/cliff bytes vs the 128 MiB cache" \
  "$(dm_json "$out" "j['sustained']['cache_bytes'] or 0")" $((128 << 20)) 5
# FUSE adds its own time to every write, more on a busy machine, so the
# rate after is bounded by the service time rather than equal to it (the
# rates themselves are held within 3% on the throttled loop device, by
# truth-sustained).
after=$(dm_json "$out" "j['sustained']['after_mb_per_s']")
dm_check "/truth/sustained-cache/after $after MB/s: at most 1 MiB / 16 ms, at least half of it" \
  python3 -c "import sys; m = (1 << 20) / 0.016 / 1e6; sys.exit(0 if m / 2 <= $after <= m * 1.03 else 1)"
dm_check "/truth/sustained-cache/before at least twice after" \
  python3 -c "import sys; sys.exit(0 if $(dm_json "$out" "j['sustained']['before_mb_per_s']") >= 2 * $(dm_json "$out" "j['sustained']['after_mb_per_s']") else 1)"

# Reads are served in 2 ms each: no cliff.
dm_run "$out" "$err" sustained --mode read --span 64MiB --duration 20 --format json --quiet "$mnt"
dm_check "read: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/truth/sustained-cache/read pass reads the span" \
  test "$(dm_json "$out" "j['results'][0]['runs'][0]['bytes']")" = $((64 << 20))
dm_check "/truth/sustained-cache/read: no cliff" \
  test "$(dm_json "$out" "j['sustained']['cache_bytes']")" = None
dm_log "read: $(dm_json "$out" "j['sustained']")"
# No faster than the service time allows (FUSE adds its own time per read).
read_mb=$(dm_json "$out" "j['results'][0]['runs'][0]['mb_per_s']")
dm_check "/truth/sustained-cache/read $read_mb MB/s: at most 1 MiB / 2 ms, at least half of it" \
  python3 -c "import sys; m = (1 << 20) / 0.002 / 1e6; sys.exit(0 if m / 2 <= $read_mb <= m * 1.02 else 1)"

dm_slow_fs_unmount "$mnt"
dm_finish
