#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Random 4K IOPS is the device's I/O rate: on a loop device throttled by
# the block cgroup, RND4K_Q32T1 Read and Write must show 2000 IOPS within
# 3% (the figure shown, best of three runs, and the median run) under a
# 2000 IOPS limit, and RND4K_Q1T1 500 IOPS under a 500 IOPS
# limit (low enough that one I/O at a time keeps up even on a busy
# machine), and the MB/s beside them must be IOPS x 4096 bytes. The mean
# latency must be what the throttle makes it: with Q I/Os always in flight
# and the limit letting one through every 1/limit seconds, each waits
# Q / limit seconds (16 ms at Q32, 2 ms at Q1), within 5%.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

dm_loop_create 512
dm_mkfs_mount
dm_cgroup_create
dm_tmpdir

# throttled_run TEST IOPS: one run of TEST's read and write under an IOPS
# limit, checked against the limit and against the kernel's byte count.
throttled_run ()
{
  local test="$1" iops="$2" out="$DM_TMPDIR/$1.json" mode sel got total
  dm_throttle read_iops "$iops"
  dm_throttle write_iops "$iops"
  dm_settle
  read -r r0 w0 < <(dm_stat_bytes)
  DM_RUN_PREFIX=dm_throttled dm_run "$out" "$DM_TMPDIR/$test.err" \
    --tests "$test" --modes read,write --size 64MiB --count 3 \
    --duration 3 --warmup 1 --interval 0 --format json --quiet "$DM_MNT"
  dm_settle
  read -r r1 w1 < <(dm_stat_bytes)

  dm_check "/truth/rnd/$test exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  [ -s "$out" ] || { dm_check "/truth/rnd/$test JSON report on stdout" false; return; }
  dm_check "/truth/rnd/$test status complete" test "$(dm_json "$out" 'j["status"]')" = complete
  for mode in read write; do
    sel="[r for r in j['results'] if r['test'] == '$test' and r['mode'] == '$mode'][0]"
    dm_check "/truth/rnd/$test/$mode result complete" \
      test "$(dm_json "$out" "$sel['status']")" = complete
    got=$(dm_json "$out" "$sel['iops']")
    dm_log "$test $mode runs: $(dm_json "$out" "[round(x['iops'], 1) for x in $sel['runs']]") IOPS"
    dm_within "/truth/rnd/$test/$mode best IOPS (the figure shown) vs throttle" "$got" "$iops" 3
    dm_within "/truth/rnd/$test/$mode median run IOPS vs throttle" \
      "$(dm_json "$out" "sorted(x['iops'] for x in $sel['runs'])[1]")" "$iops" 3
    dm_within "/truth/rnd/$test/$mode MB/s = IOPS x 4096" \
      "$(dm_json "$out" "$sel['mb_per_s']")" "$(python3 -c "print($got * 4096 / 1e6)")" 0.5
    dm_within "/truth/rnd/$test/$mode median run mean latency (us) vs queue depth / limit" \
      "$(dm_json "$out" "sorted(x['latency_us'] for x in $sel['runs'])[1]")" \
      "$(dm_json "$out" "$sel['queue_depth'] * $sel['threads'] * 1e6 / $iops")" 5
  done
  total=$(dm_json "$out" 'j["io_totals"]["prepare_bytes"] + j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"]')
  dm_log "kernel: read $((r1 - r0)) B, written $((w1 - w0)) B; report: prepare+warmup+measured $total B"
  dm_within "/truth/rnd/$test kernel bytes read+written vs reported" "$((r1 - r0 + w1 - w0))" "$total" 2
}

throttled_run RND4K_Q32T1 2000
throttled_run RND4K_Q1T1 500

dm_finish
