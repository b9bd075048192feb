#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# --concurrent runs each test on several targets at the same moment, so
# that two disks behind one path show it. Two loop devices (each ext4)
# lie over the two halves of a third, all RAM-backed:
#
#   shared:   the block cgroup throttles the device underneath to 40 MB/s
#             for reads and writes. Both targets' I/O passes through it, so
#             when they really run together each gets about half and the
#             total is the throttle within 3 %; targets run one after the
#             other would each show 40 and the total 80.
#   separate: the throttle moves to each of the two devices, 40 MB/s each:
#             each target gets its full rate within 3 % and the total is
#             80 within 3 %, so running together costs a target nothing.
#
# The total must be the targets' runs added up window by window, checked
# here from their own figures in the same file; each target's disk
# counters must be its own device's.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

rate=40000000 # bytes per second
dm_loop_create 768
base="$DM_LOOP" base_dev="$DM_LOOP_DEV"

# A loop device over one half of the base device: its own disk (its own
# counters), whose I/O the loop driver sends on to the base device in the
# cgroup of the process that issued it.
half ()
{
  local offset="$1" dev
  dev="$(losetup -f --show --direct-io=on --offset "$offset" --sizelimit $((384 << 20)) "$base")" \
    || dm_skip "losetup could not stack a loop device over $base"
  _dm_loops+=("$dev")
  DM_LOOP="$dev"
  DM_LOOP_NAME="${dev#/dev/}"
  DM_LOOP_DEV="$(cat "/sys/block/$DM_LOOP_NAME/dev")"
  command -v udevadm >/dev/null && udevadm settle 2>/dev/null
  dm_mkfs_mount
  dm_log "$DM_LOOP ($DM_LOOP_DEV) over $base from $((offset >> 20)) MiB, mounted on $DM_MNT"
}
half 0
dev1="$DM_LOOP_DEV" name1="$DM_LOOP_NAME" mnt1="$DM_MNT"
half $((384 << 20))
dev2="$DM_LOOP_DEV" name2="$DM_LOOP_NAME" mnt2="$DM_MNT"

used1=$(dm_fs_used "$mnt1") used2=$(dm_fs_used "$mnt2")
dm_cgroup_create
dm_tmpdir
err="$DM_TMPDIR/err.txt"

# throttle MAJ:MIN BYTES_PER_S: reads and writes of that device.
throttle ()
{
  DM_LOOP_DEV="$1" dm_throttle read_bps "$2"
  DM_LOOP_DEV="$1" dm_throttle write_bps "$2"
}

# Runs of 5 s: the shared throttle hands out 4 MB per 100 ms slice, and
# which target's I/O a slice carries is chance, so a run's total may gain
# or lose one slice its neighbour did not. At 40 MB/s that is 4 MB of 200
# in 5 s, 2 %, inside the 3 % below; in runs of 3 s it was 3.3 %, and the
# best of three came 3.06 % over the throttle.
run ()
{
  DM_RUN_PREFIX=dm_throttled dm_run "$1" "$err" \
    --tests SEQ1M_Q8T1 --modes read,write --size 64MiB --count 3 --duration 5 --warmup 1 \
    --interval 0 --format json --quiet --no-history "$mnt1" --concurrent "$mnt2"
  dm_check "$2: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  [ -s "$1" ] || dm_die "$2: no JSON report on stdout"
  dm_check "$2: two targets and a total" \
    test "$(dm_json "$1" 'len(j["concurrent"]["targets"])')" = 2
}

# sel FILE TARGET MODE: the result of SEQ1M_Q8T1 MODE of target TARGET
# (0, 1, or "total").
sel ()
{
  local t="$2"
  if [ "$t" = total ]; then t='j["concurrent"]["total"]'; else t="j[\"concurrent\"][\"targets\"][$t]"; fi
  echo "[r for r in $t['results'] if r['test'] == 'SEQ1M_Q8T1' and r['mode'] == '$3'][0]"
}

check_total ()
{
  local out="$1" part="$2" mode="$3" a b t
  a="$(sel "$out" 0 "$mode")" b="$(sel "$out" 1 "$mode")" t="$(sel "$out" total "$mode")"
  # The total's runs are the targets' runs of the same windows, added up.
  local want got
  want=$(dm_json "$out" "max(x['mb_per_s'] + y['mb_per_s'] for x, y in zip($a['runs'], $b['runs']))")
  got=$(dm_json "$out" "$t['mb_per_s']")
  dm_within "/truth/concurrent/$part/$mode total is the best window's sum" "$got" "$want" 0.1
  dm_check "/truth/concurrent/$part/$mode total complete" \
    test "$(dm_json "$out" "$t['status']")" = complete
  # Each target's counters are its own disk's.
  dm_check "/truth/concurrent/$part/$mode target 1 counted $name1" \
    test "$(dm_json "$out" "$a['device']['name']")" = "$name1"
  dm_check "/truth/concurrent/$part/$mode target 2 counted $name2" \
    test "$(dm_json "$out" "$b['device']['name']")" = "$name2"
  dm_log "$part $mode: target 1 runs $(dm_json "$out" "[round(x['mb_per_s'], 2) for x in $a['runs']]"), target 2 runs $(dm_json "$out" "[round(x['mb_per_s'], 2) for x in $b['runs']]"), total $got MB/s"
}

expected=$(python3 -c "print($rate / 1e6)")

# --- One throttle under both ------------------------------------------------
throttle "$base_dev" "$rate"
out="$DM_TMPDIR/shared.json"
dm_settle
run "$out" shared
for mode in read write; do
  a="$(sel "$out" 0 "$mode")" b="$(sel "$out" 1 "$mode")" t="$(sel "$out" total "$mode")"
  check_total "$out" shared "$mode"
  dm_within "/truth/concurrent/shared/$mode total vs the one throttle" \
    "$(dm_json "$out" "$t['mb_per_s']")" "$expected" 3
  dm_within "/truth/concurrent/shared/$mode total's median run vs the one throttle" \
    "$(dm_json "$out" "sorted(x['mb_per_s'] for x in $t['runs'])[1]")" "$expected" 3
  # Halves, not a full rate each: the throttle is shared fairly enough
  # that neither gets less than 40 % of it or more than 60 %.
  for k in 0 1; do
    s="$(sel "$out" "$k" "$mode")"
    share=$(dm_json "$out" "round(100 * $s['mb_per_s'] / $expected, 1)")
    dm_check "/truth/concurrent/shared/$mode target $((k + 1)) has half the throttle (got $share %)" \
      python3 -c "import sys; sys.exit(0 if 40 <= $share <= 60 else 1)"
    # Its own disk moved what it counted over the measured runs (their
    # mean), about half the throttle as well.
    dev_mb=$(dm_json "$out" "($s['device']['read_bytes'] + $s['device']['write_bytes']) / $s['device']['seconds'] / 1e6")
    dm_within "/truth/concurrent/shared/$mode target $((k + 1))'s disk vs its mean run" \
      "$dev_mb" "$(dm_json "$out" "$s['mean_mb_per_s']")" 3
  done
done
throttle "$base_dev" 0

# --- A throttle each ----------------------------------------------------------
throttle "$dev1" "$rate"
throttle "$dev2" "$rate"
out="$DM_TMPDIR/separate.json"
dm_settle
run "$out" separate
for mode in read write; do
  check_total "$out" separate "$mode"
  for k in 0 1; do
    s="$(sel "$out" "$k" "$mode")"
    dm_within "/truth/concurrent/separate/$mode target $((k + 1)) vs its own throttle" \
      "$(dm_json "$out" "$s['mb_per_s']")" "$expected" 3
  done
  t="$(sel "$out" total "$mode")"
  dm_within "/truth/concurrent/separate/$mode total vs both throttles" \
    "$(dm_json "$out" "$t['mb_per_s']")" "$(python3 -c "print(2 * $expected)")" 3
done

# No test file is left on either target.
dm_check "/truth/concurrent/no test file left on target 1" dm_no_test_file "$mnt1" "$used1"
dm_check "/truth/concurrent/no test file left on target 2" dm_no_test_file "$mnt2" "$used2"

# --- Ctrl-C: every target's test file goes ------------------------------------
# As a terminal's Ctrl-C reaches it (a shell starts background commands
# with SIGINT ignored), in the second test, while both targets measure.
(
  echo "$BASHPID" > "$DM_CGROUP/cgroup.procs" || exit 125
  exec env --default-signal=INT "$DM_CLI" --tests SEQ1M_Q8T1 --modes read,write --size 64MiB \
    --count 1 --duration 4 --warmup 0 --interval 0 --quiet --no-history "$mnt1" \
    --concurrent "$mnt2"
) > "$DM_TMPDIR/int.out" 2> "$DM_TMPDIR/int.err" &
pid=$!
dm_track_pid "$pid"
dm_check "/truth/concurrent/int target 1's test file made" dm_wait_test_file "$mnt1" "$pid"
dm_check "/truth/concurrent/int target 2's test file made" dm_wait_test_file "$mnt2" "$pid"
sleep 6
t0=$(date +%s.%N)
kill -INT "$pid"
wait "$pid"
rc=$?
dm_untrack_pid "$pid"
took=$(python3 -c "print(round($(date +%s.%N) - $t0, 3))")
sed 's/^/#   stderr: /' "$DM_TMPDIR/int.err"
dm_check "/truth/concurrent/int exit status 130 (got $rc)" test "$rc" = 130
dm_check "/truth/concurrent/int ends within 1.5 s ($took s)" \
  python3 -c "import sys; sys.exit(0 if $took <= 1.5 else 1)"
dm_check "/truth/concurrent/int no test file left on target 1" dm_no_test_file "$mnt1" "$used1"
dm_check "/truth/concurrent/int no test file left on target 2" dm_no_test_file "$mnt2" "$used2"

# --- A target that fails stops the others, and their files go -----------------
# Target 2 read-only: its preparing fails at once, while target 1 is
# filling its test file.
mount -o remount,ro "$mnt2" || dm_die "cannot remount $mnt2 read-only"
DM_RUN_PREFIX=dm_throttled dm_run "$DM_TMPDIR/ro.out" "$err" \
  --tests SEQ1M_Q8T1 --modes read,write --size 64MiB --count 1 --duration 1 --warmup 0 \
  --interval 0 --quiet --no-history "$mnt1" --concurrent "$mnt2"
mount -o remount,rw "$mnt2" || dm_die "cannot remount $mnt2 read-write"
dm_check "/truth/concurrent/fail exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/truth/concurrent/fail names the read-only target" grep -q "read-only" "$err"
dm_check "/truth/concurrent/fail no test file left on target 1" dm_no_test_file "$mnt1" "$used1"
dm_check "/truth/concurrent/fail no test file left on target 2" dm_no_test_file "$mnt2" "$used2"

dm_finish
