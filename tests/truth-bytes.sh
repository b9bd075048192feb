#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The bytes the tool says it moved are the bytes the kernel moved: for each
# run, the read and write sectors of the loop device (/sys/block/loopN/stat)
# must match, within 2%, what the JSON report accounts for: the fill of the
# test file (prepare_bytes), the warm-up and the measured runs. Reads that
# the page cache answered, or writes that never reached the device, would
# show here. Mix must split reads and writes as asked. A raw block device
# (with --destroy-data-on) is counted the same way. No throttle: the
# RAM-backed device runs at full speed.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_loop_create 512
dm_mkfs_mount
dm_tmpdir

# run NAME ARGS...: one CLI run between two readings of the counters of
# the device $dev (by default the one under $DM_MNT, the default target).
# Sets out, dr (bytes read) and dw (bytes written).
dev="$DM_LOOP_NAME"
run ()
{
  local name="$1"; shift
  out="$DM_TMPDIR/$name.json"
  dm_settle
  read -r r0 w0 < <(dm_stat_bytes "$dev")
  dm_run "$out" "$DM_TMPDIR/$name.err" --size 64MiB --interval 0 --format json --quiet "$@" "${target:-$DM_MNT}"
  dm_settle
  read -r r1 w1 < <(dm_stat_bytes "$dev")
  dr=$((r1 - r0))
  dw=$((w1 - w0))
  dm_check "/truth/bytes/$name exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  dm_check "/truth/bytes/$name status complete" test "$(dm_json "$out" 'j["status"]' 2>/dev/null)" = complete
  prepare=$(dm_json "$out" 'j["io_totals"]["prepare_bytes"]')
  warmup=$(dm_json "$out" 'j["io_totals"]["warmup_bytes"]')
  measured=$(dm_json "$out" 'j["io_totals"]["measured_bytes"]')
  dm_log "$name: kernel read $dr B, written $dw B; report prepare $prepare, warm-up $warmup, measured $measured B"
  dm_check "/truth/bytes/$name measured_bytes is the sum of the runs" \
    test "$measured" = "$(dm_json "$out" 'sum(x["bytes"] for r in j["results"] for x in r["runs"])')"
  if [ -z "${target:-}" ]; then
    dm_check "/truth/bytes/$name prepare_bytes covers the 64 MiB test file" \
      test "$prepare" -ge $((64 << 20))
  fi
}

# Reads only: the kernel reads what was measured and writes the fill.
run read --modes read --tests SEQ1M_Q8T1,RND4K_Q32T1,RND4K_Q1T1 --count 2 --duration 1 --warmup 0
dm_within "/truth/bytes/read kernel reads vs measured" "$dr" "$measured" 2
dm_within "/truth/bytes/read kernel writes vs prepare" "$dw" "$prepare" 2

# Writes only: everything measured reaches the device, nothing is read.
run write --modes write --tests SEQ1M_Q8T1,RND4K_Q32T1 --count 2 --duration 1 --warmup 0
dm_within "/truth/bytes/write kernel writes vs prepare+measured" "$dw" "$((prepare + measured))" 2
dm_check "/truth/bytes/write kernel reads under 1% of measured ($dr B)" test "$((dr * 100))" -le "$measured"

# Warm-up I/O is real I/O too, and is accounted apart.
run warmup --modes read --tests RND4K_Q32T1 --count 1 --duration 1 --warmup 1
dm_check "/truth/bytes/warmup warmup_bytes > 0" test "$warmup" -gt 0
dm_within "/truth/bytes/warmup kernel reads vs warm-up+measured" "$dr" "$((warmup + measured))" 2
dm_within "/truth/bytes/warmup kernel writes vs prepare" "$dw" "$prepare" 2

# Mix 70/30: the device sees 70% reads and 30% writes of what was measured.
run mix --modes mix --mix-read 70 --tests RND4K_Q32T1 --count 1 --duration 2 --warmup 0
dm_check "/truth/bytes/mix read_percent is 70" \
  test "$(dm_json "$out" '[r["read_percent"] for r in j["results"] if r["mode"] == "mix"][0]')" = 70
dm_within "/truth/bytes/mix kernel reads+writes vs prepare+measured" "$((dr + dw))" "$((prepare + measured))" 2
mixed_w=$((dw - prepare))
dm_within "/truth/bytes/mix kernel read share (%)" \
  "$(python3 -c "print(round($dr * 100 / ($dr + $mixed_w), 2))")" 70 3

# The pread/pwrite fallback, used where io_uring is blocked, counts the same.
run psync --backend psync --modes read,write --tests SEQ1M_Q8T1,RND4K_Q32T1 --count 1 --duration 1 --warmup 0
dm_check "/truth/bytes/psync backend is psync" test "$(dm_json "$out" 'j["backend"]')" = psync
dm_within "/truth/bytes/psync kernel reads+writes vs prepare+warm-up+measured" \
  "$((dr + dw))" "$((prepare + warmup + measured))" 2
read_measured=$(dm_json "$out" 'sum(x["bytes"] for r in j["results"] if r["mode"] == "read" for x in r["runs"])')
dm_check "/truth/bytes/psync kernel reads ($dr B) cover the measured reads ($read_measured B)" \
  test "$dr" -ge "$read_measured"

# A raw block device the user gave up: no file, no filesystem, same count.
dm_loop_create 128
dev="$DM_LOOP_NAME"
target="$DM_LOOP"
run device --modes read,write --tests SEQ1M_Q8T1,RND4K_Q32T1 --count 1 --duration 1 --warmup 0 \
  --destroy-data-on "$DM_LOOP"
dm_within "/truth/bytes/device kernel reads+writes vs prepare+warm-up+measured" \
  "$((dr + dw))" "$((prepare + warmup + measured))" 2
written=$(dm_json "$out" 'sum(x["bytes"] for r in j["results"] if r["mode"] == "write" for x in r["runs"])')
dm_check "/truth/bytes/device kernel writes ($dw B) cover the measured writes ($written B)" \
  test "$dw" -ge "$written"

dm_finish
