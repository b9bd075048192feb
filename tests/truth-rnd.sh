#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Random 4K IOPS is the device's I/O rate: on a loop device throttled by
# the block cgroup to 2000 reads and 2000 writes per second, RND4K_Q32T1
# and RND4K_Q1T1 Read and Write must show 2000 IOPS within 3%, and the
# MB/s beside them must be IOPS x 4096 bytes.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

iops=2000
dm_loop_create 512
dm_mkfs_mount
dm_cgroup_create
dm_throttle read_iops "$iops"
dm_throttle write_iops "$iops"
dm_tmpdir
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

dm_settle
read -r r0 w0 < <(dm_stat_bytes)
DM_RUN_PREFIX=dm_throttled dm_run "$out" "$err" \
  --tests RND4K_Q32T1,RND4K_Q1T1 --modes read,write --size 64MiB --count 1 \
  --duration 3 --warmup 1 --interval 0 --format json --quiet "$DM_MNT"
dm_settle
read -r r1 w1 < <(dm_stat_bytes)

dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report on stdout"
dm_check "status complete" test "$(dm_json "$out" 'j["status"]')" = complete

for test in RND4K_Q32T1 RND4K_Q1T1; do
  for mode in read write; do
    sel="[r for r in j['results'] if r['test'] == '$test' and r['mode'] == '$mode'][0]"
    dm_check "/truth/rnd/$test/$mode result complete" \
      test "$(dm_json "$out" "$sel['status']")" = complete
    got=$(dm_json "$out" "$sel['iops']")
    dm_within "/truth/rnd/$test/$mode IOPS vs throttle" "$got" "$iops" 3
    dm_within "/truth/rnd/$test/$mode MB/s = IOPS x 4096" \
      "$(dm_json "$out" "$sel['mb_per_s']")" "$(python3 -c "print($got * 4096 / 1e6)")" 0.5
  done
done

total=$(dm_json "$out" 'j["io_totals"]["prepare_bytes"] + j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"]')
dm_log "kernel: read $((r1 - r0)) B, written $((w1 - w0)) B; report: prepare+warmup+measured $total B"
dm_within "/truth/rnd/kernel-bytes read+written vs reported" "$((r1 - r0 + w1 - w0))" "$total" 2

dm_finish
