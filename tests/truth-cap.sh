#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The throttle fingerprint against limits the kernel sets and a device of
# known parallelism. A loop device capped by the block cgroup at 5000 reads
# a second stands for a hypervisor's or cloud tier's IOPS limit: the I/Os
# wait in the throttle, above the device, so the sweep must say it is
# capped, at 5000 IOPS within 3 %, with the device's own queue short.
# tests/slow-fs.c with 4 reads in service of 10 ms each reads at most 400 a
# second too, flat past QD 4 with latency rising, but its throughput grew
# with the queue up to there: a device's knee, which must not be called a
# cap, and whose knee the sweep must still name (QD 4; a machine that
# stretches the service unevenly may move it, so up to three sweeps). A
# 40 MiB/s bytes limit on 64 KiB reads is found the same way, in MB/s.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

cap=5000
dm_loop_create 256
dm_mkfs_mount
dm_cgroup_create
dm_throttle read_iops "$cap"
dm_tmpdir
out="$DM_TMPDIR/cap.json"

# The throttle lets a budget through at the start of a run: a second of
# warm-up spends it before the measured runs.
DM_RUN_PREFIX=dm_throttled dm_run "$out" "$DM_TMPDIR/cap.err" sweep \
  --pattern RND --block 4K --mode read --threads 1,2 --qd 1,2,4,8,16 \
  --size 64MiB --duration 1.5 --warmup 1 --format json --quiet "$DM_MNT"
dm_check "/truth/cap/throttled sweep exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report"
dm_log "IOPS by QD x T: $(dm_json "$out" '["Q%dT%d %.0f" % (r["queue_depth"], r["threads"], r["iops"]) for r in j["results"]]')"
dm_log "device queue by QD x T: $(dm_json "$out" '[(r.get("device") or {}).get("avg_queue") for r in j["results"]]')"
dm_log "rate_cap: $(dm_json "$out" 'j["sweep"]["rate_cap"]')"
dm_check "/truth/cap/the throttled loop device is called capped (verdict $(dm_json "$out" 'j["sweep"]["rate_cap"]["verdict"]'))" \
  test "$(dm_json "$out" 'j["sweep"]["rate_cap"]["capped"]')" = True
dm_within "/truth/cap/the cap found vs the cgroup's $cap IOPS" \
  "$(dm_json "$out" 'j["sweep"]["rate_cap"]["iops"] or 0')" "$cap" 3
dm_check "/truth/cap/the flat run starts at the lightest load" \
  test "$(dm_json "$out" '(j["sweep"]["rate_cap"]["from"] or {}).get("queue_depth")')" = 1
dm_check "/truth/cap/the device's own queue was counted and short" \
  python3 -c "import sys; sys.exit(0 if 0 <= float('$(dm_json "$out" 'j["sweep"]["rate_cap"]["device_avg_queue"] or -1')') < 16 else 1)"
# Read back from the file: the same verdict in the text the show command prints.
"$DM_CLI" show "$out" > "$DM_TMPDIR/cap.txt"
sed -n '/^Rate cap/,$p' "$DM_TMPDIR/cap.txt" | sed 's/^/#   /'
dm_check "/truth/cap/show prints the cap" \
  grep -q "^Rate cap: capped near [0-9]* IOPS (.*) by something outside this disk" "$DM_TMPDIR/cap.txt"
dm_check "/truth/cap/show prints its evidence" grep -q "^  Evidence: .* loads from Q1T1 to Q16T2" \
  "$DM_TMPDIR/cap.txt"

# A bytes-per-second limit (a bps cap) the same way: 40 MiB/s of 64 KiB
# reads, said in MB/s first.
bps=$((40 << 20))
dm_throttle read_iops 0
dm_throttle read_bps "$bps"
bytes="$DM_TMPDIR/bps.json"
DM_RUN_PREFIX=dm_throttled dm_run "$bytes" "$DM_TMPDIR/bps.err" sweep \
  --pattern RND --block 64K --mode read --threads 1 --qd 1,2,4,8,16 \
  --size 64MiB --duration 1.5 --warmup 1 --format json --quiet "$DM_MNT"
dm_check "/truth/cap/bps-throttled sweep exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$bytes" ] || dm_die "no JSON report"
dm_log "rate_cap: $(dm_json "$bytes" 'j["sweep"]["rate_cap"]')"
dm_check "/truth/cap/the bps-throttled loop device is called capped" \
  test "$(dm_json "$bytes" 'j["sweep"]["rate_cap"]["capped"]')" = True
dm_within "/truth/cap/the cap found vs the cgroup's 40 MiB/s" \
  "$(dm_json "$bytes" 'j["sweep"]["rate_cap"]["mb_per_s"] or 0')" \
  "$(python3 -c "print('%.3f' % ($bps / 1e6))")" 3
"$DM_CLI" show "$bytes" > "$DM_TMPDIR/bps.txt"
dm_check "/truth/cap/show says the bps cap in MB/s" \
  grep -q "^Rate cap: capped near [0-9.]* MB/s ([0-9]* IOPS) by something outside" "$DM_TMPDIR/bps.txt"

# slow-fs: 400 reads a second at most, reached at QD 4.
mnt="$DM_TMPDIR/mnt"
dm_slow_fs_mount "$mnt" 10000 4
rt=()
if command -v chrt >/dev/null && chrt -f 5 true 2>/dev/null; then
  rt=(chrt -f 5)
fi
slow="$DM_TMPDIR/slow.json"
for attempt in 1 2 3; do
  printf '# $ diskmeter-cli sweep ... %s (attempt %s)\n' "$mnt" "$attempt"
  "${rt[@]}" "$DM_CLI" sweep --pattern RND --block 4K --mode read --threads 1 --qd 1,2,4,8,16 \
    --size 32MiB --duration 2 --warmup 0.5 --format json --quiet "$mnt" \
    > "$slow" 2> "$DM_TMPDIR/slow.err"
  rc=$?
  dm_check "/truth/cap/slow-fs sweep $attempt exit status 0 (got $rc)" test "$rc" = 0
  [ -s "$slow" ] || dm_die "no JSON report from slow-fs"
  knee=$(dm_json "$slow" '(j["sweep"]["knee"] or {}).get("queue_depth")')
  dm_log "attempt $attempt: IOPS by QD $(dm_json "$slow" '["%.0f" % r["iops"] for r in j["results"]]'), knee QD $knee, rate_cap $(dm_json "$slow" 'j["sweep"]["rate_cap"]')"
  # Whatever the machine did to the service, the queue raised throughput
  # fourfold from QD 1 to QD 4: no sweep of it may be called capped.
  dm_check "/truth/cap/slow-fs with 4 in service is not called capped (attempt $attempt, verdict $(dm_json "$slow" 'j["sweep"]["rate_cap"]["verdict"]'))" \
    test "$(dm_json "$slow" 'j["sweep"]["rate_cap"]["capped"]')" = False
  [ "$knee" = 4 ] && break
done
dm_check "/truth/cap/slow-fs gets its knee at QD 4 (got QD $knee)" test "$knee" = 4
"$DM_CLI" show "$slow" > "$DM_TMPDIR/slow.txt"
sed -n '/^Knee/,$p' "$DM_TMPDIR/slow.txt" | sed 's/^/#   /'
dm_check "/truth/cap/show says slow-fs has no cap" grep -q "^Rate cap: none: " "$DM_TMPDIR/slow.txt"
dm_slow_fs_unmount "$mnt"

dm_finish
