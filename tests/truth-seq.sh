#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sequential MB/s is the speed of the device: on a loop device throttled by
# the block cgroup to 40 MB/s for reads and writes, SEQ1M_Q8T1 Read and
# Write must read 40 MB/s within 3%: the figure shown (the best of three
# runs) and the median run. The RAM-backed device could go a hundred times
# faster, so the throttle alone sets the pace; one second of warm-up spends
# the throttle's initial budget. (The median, not every run: on a busy
# machine one run may lose a few hundred milliseconds to the scheduler.)

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

rate=40000000 # bytes per second
dm_loop_create 512
dm_mkfs_mount
dm_cgroup_create
dm_throttle read_bps "$rate"
dm_throttle write_bps "$rate"
dm_tmpdir
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

dm_settle
read -r r0 w0 < <(dm_stat_bytes)
DM_RUN_PREFIX=dm_throttled dm_run "$out" "$err" \
  --tests SEQ1M_Q8T1 --modes read,write --size 64MiB --count 3 \
  --duration 3 --warmup 1 --interval 0 --format json --quiet "$DM_MNT"
dm_settle
read -r r1 w1 < <(dm_stat_bytes)

dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report on stdout"
dm_check "status complete" test "$(dm_json "$out" 'j["status"]')" = complete

expected=$(python3 -c "print($rate / 1e6)")
for mode in read write; do
  sel="[r for r in j['results'] if r['test'] == 'SEQ1M_Q8T1' and r['mode'] == '$mode'][0]"
  dm_check "/truth/seq/$mode result complete" \
    test "$(dm_json "$out" "$sel['status']")" = complete
  n=$(dm_json "$out" "len($sel['runs'])")
  dm_check "/truth/seq/$mode has 3 runs (got $n)" test "$n" = 3
  dm_log "$mode runs: $(dm_json "$out" "[round(x['mb_per_s'], 3) for x in $sel['runs']]") MB/s"
  dm_within "/truth/seq/$mode best MB/s (the figure shown) vs throttle" \
    "$(dm_json "$out" "$sel['mb_per_s']")" "$expected" 3
  dm_within "/truth/seq/$mode median run MB/s vs throttle" \
    "$(dm_json "$out" "sorted(x['mb_per_s'] for x in $sel['runs'])[len($sel['runs']) // 2]")" "$expected" 3
done

# Everything the tool says it moved, the kernel moved, and no more.
total=$(dm_json "$out" 'j["io_totals"]["prepare_bytes"] + j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"]')
dm_log "kernel: read $((r1 - r0)) B, written $((w1 - w0)) B; report: prepare+warmup+measured $total B"
dm_within "/truth/seq/kernel-bytes read+written vs reported" "$((r1 - r0 + w1 - w0))" "$total" 2

dm_finish
