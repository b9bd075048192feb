#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A study with concurrent = yes runs each Q x T on all its targets at the
# same moment. Two loop devices lie over the two halves of a third, whose
# reads the block cgroup throttles to 40 MB/s (as truth-concurrent builds
# them): both targets' reads pass through the one throttle, so when they
# really run together the two rows of each Q x T add up to the throttle
# within 3 %; targets run one after the other would each show the full 40
# and the sum 80. SEQ128K read only (the targets are devices), Q 1, 4 x
# T 1, 2: four steps of a 1 s warm-up, which spends the throttle's first
# budget, and one 2 s run.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

dm_tmpdir
# The study's history is this test's own, not the build's shared one.
export XDG_DATA_HOME="$DM_TMPDIR/data"
rate=40000000 # bytes per second
dm_loop_create 512
base="$DM_LOOP"

# A loop device over one half of the base device: its own disk, whose I/O
# the loop driver sends on to the base device in the cgroup of the process
# that issued it.
half ()
{
  local offset="$1" dev
  dev="$(losetup -f --show --direct-io=on --offset "$offset" --sizelimit $((256 << 20)) "$base")" \
    || dm_skip "losetup could not stack a loop device over $base"
  _dm_loops+=("$dev")
  command -v udevadm >/dev/null && udevadm settle 2>/dev/null
  dm_log "$dev over $base from $((offset >> 20)) MiB"
  HALF="$dev"
}
half 0
dev1="$HALF"
half $((256 << 20))
dev2="$HALF"

dm_cgroup_create
dm_throttle read_bps "$rate" # the base device: both halves' reads

plan="$DM_TMPDIR/plan.ini"
cat > "$plan" <<EOF
# Two disks behind one path, measured together.
[study]
name = together
tests = SEQ128K
modes = read
q = 1, 4
t = 1, 2
count = 1
size = 64MiB
duration = 2
warmup = 1
interval = 0
concurrent = yes

[target half1]
path = $dev1
tag = half=1

[target half2]
path = $dev2
tag = half=2
EOF

DM_RUN_PREFIX=dm_throttled dm_run "$DM_TMPDIR/run.out" "$DM_TMPDIR/run.err" study run "$plan"
dm_check "/truth/study-concurrent/run: exit status 0 (got $DM_RC)" test "$DM_RC" = 0

sheet="$DM_TMPDIR/sheet.json"
dm_run "$sheet" "$DM_TMPDIR/show.err" study show together --format json
dm_check "/truth/study-concurrent/show: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/truth/study-concurrent/sheet: 8 rows" test "$(dm_json "$sheet" 'len(j["rows"])')" = 8
dm_check "/truth/study-concurrent/sheet: every row tagged study.concurrent=yes" \
  test "$(dm_json "$sheet" 'all(r["tags"].get("study.concurrent") == "yes" for r in j["rows"])')" = True
expected=$(python3 -c "print($rate / 1e6)")
for q in 1 4; do
  for t in 1 2; do
    sel="[r['values']['Read SEQ128K MB/s'] for r in j['rows'] if r['q'] == $q and r['t'] == $t]"
    dm_check "/truth/study-concurrent/Q${q}T${t}: two rows" test "$(dm_json "$sheet" "len($sel)")" = 2
    dm_log "Q${q}T${t}: $(dm_json "$sheet" "[round(x, 2) for x in $sel]") MB/s"
    dm_within "/truth/study-concurrent/Q${q}T${t}: the two rows' sum vs the one throttle" \
      "$(dm_json "$sheet" "sum($sel)")" "$expected" 3
  done
done

dm_finish
