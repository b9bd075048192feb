#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The timeline follows the device and the sustained test finds the cliff
# where the arithmetic puts it: a loop device throttled by the block cgroup
# to 40 MB/s for writes is slowed to 10 MB/s when the CLI's own progress
# says 4 s of the run have passed (a progress event, not a sleep). The
# samples away from the change (the first second, in which the throttle's
# initial budget is spent, and the second around the change left out) must
# read its rate within 3%: their median, and each of them, alone or with a
# neighbour. (A sample counts the bytes reaped in it: on a machine so busy
# that the measuring thread waits a few hundred ms for a CPU, some bytes
# land in the next sample, and the pair's mean holds the rate.) The cliff must be found at
# 40 MB/s x the time of the change within 5%, with the rates before and
# after within 3%.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup

fast=40000000 # bytes per second
slow=10000000
change=4      # seconds into the run
dm_loop_create 1024
dm_mkfs_mount
dm_cgroup_create
dm_throttle write_bps "$fast"
dm_tmpdir
out="$DM_TMPDIR/out.json"
err="$DM_TMPDIR/err.txt"

printf '# $ diskmeter-cli sustained --span 400MiB --duration 10 --block 64K --progress (throttle %s -> %s B/s at t=%s s)\n' \
  "$fast" "$slow" "$change"
# In the cgroup; the subshell becomes diskmeter-cli, so $! is its id.
( echo "$BASHPID" > "$DM_CGROUP/cgroup.procs" || exit 125
  exec "$DM_CLI" sustained --span 400MiB --duration 10 --block 64K --qd 8 \
    --sample 0.5 --progress --format json --output "$out" "$DM_MNT" 2> "$err" ) &
pid=$!
dm_track_pid "$pid"
# The change, when the sample that ends at $change s has closed; the time
# it took us to see it is logged (the check below allows for 0.1 s).
changed=""
start=$(date +%s.%N)
while kill -0 "$pid" 2>/dev/null; do
  if [ -z "$changed" ] && grep -q "^sample t=$change.00 s" "$err"; then
    dm_throttle write_bps "$slow"
    changed=$(date +%s.%N)
    dm_log "throttle set to $slow B/s $(python3 -c "print('%.3f' % ($changed - $start))") s after the CLI started"
  fi
  sleep 0.01
done
wait "$pid"
rc=$?
dm_untrack_pid "$pid"
sed 's/^/#   stderr: /' "$err" | head -n 30
dm_check "exit status 0 (got $rc)" test "$rc" = 0
dm_check "the throttle was changed on the progress event" test -n "$changed"
[ -s "$out" ] || dm_die "no JSON report"

dm_log "samples: $(dm_json "$out" "[round(s['mb_per_s'], 2) for s in j['results'][0]['samples']]") MB/s"
f=$(python3 -c "print($fast / 1e6)")
s=$(python3 -c "print($slow / 1e6)")
# Samples away from the change: from 1 s to 1 s before it, and from 1 s after it.
for sel in "1.0 < x['t'] <= $change - 0.5:$f:fast" "x['t'] > $change + 1.0:$s:slow"; do
  cond="${sel%%:*}"; rest="${sel#*:}"; want="${rest%%:*}"; name="${rest#*:}"
  n=$(dm_json "$out" "len([x for x in j['results'][0]['samples'] if $cond])")
  dm_check "/truth/sustained/$name has samples ($n)" test "$n" -ge 4
  dm_within "/truth/sustained/$name median sample MB/s vs throttle" \
    "$(dm_json "$out" "sorted(x['mb_per_s'] for x in j['results'][0]['samples'] if $cond)[$n // 2]")" "$want" 3
  held=$(python3 - "$out" "$want" "$cond" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
want, cond = float(sys.argv[2]), sys.argv[3]
s = j['results'][0]['samples']
near = lambda v, share=0.03: abs(v - want) <= share * want
bad = []
# The last sample has no neighbour after it: a throttle's burst that its
# closing completion split (1 MiB of 4 in it, the rest after the end)
# left it 5-10 % low about once in nine runs. It counts in the median.
for i, x in enumerate(s):
    if not eval(cond) or near(x['mb_per_s']) or i == len(s) - 1:
        continue
    # With a neighbour, 5 %: the throttle's 0.1 s slices move a 0.5 s
    # sample by up to 7 %, and two slow ones in a row (9.31 and 9.96 of
    # 10 MB/s) came 3.6 % under it together in the ASan build.
    if not any(0 <= k < len(s) and near((x['mb_per_s'] + s[k]['mb_per_s']) / 2, 0.05)
               for k in (i - 1, i + 1)):
        bad.append((x['t'], x['mb_per_s']))
print(bad)
PY
)
  dm_check "/truth/sustained/$name: every sample within 3% alone, or 5% with a neighbour (off: $held)" \
    test "$held" = "[]"
done

dm_check "/truth/sustained/cliff found" test "$(dm_json "$out" "j['sustained']['cache_bytes'] is not None")" = True
# The arithmetic: $fast B/s until the change, seen at t=$change s plus up
# to 0.1 s for the progress line to reach us.
expected=$(python3 -c "print($fast * ($change + 0.05))")
dm_within "/truth/sustained/cliff bytes vs $fast B/s x ${change}s" \
  "$(dm_json "$out" "j['sustained']['cache_bytes']")" "$expected" 5
dm_within "/truth/sustained/before MB/s" "$(dm_json "$out" "j['sustained']['before_mb_per_s']")" "$f" 3
dm_within "/truth/sustained/after MB/s" "$(dm_json "$out" "j['sustained']['after_mb_per_s']")" "$s" 3

# show prints the saved run back byte for byte.
"$DM_CLI" show "$out" --format json > "$DM_TMPDIR/again.json"
dm_check "/truth/sustained/show JSON byte for byte" cmp -s "$out" "$DM_TMPDIR/again.json"
"$DM_CLI" show "$out" > "$DM_TMPDIR/text.txt"
dm_check "/truth/sustained/show text names the cliff" grep -q '^Cliff: after ' "$DM_TMPDIR/text.txt"
sed 's/^/#   /' "$DM_TMPDIR/text.txt"
dm_check "no file left in the mount" test -z "$(ls -A "$DM_MNT" | grep -v '^lost+found$')"

dm_finish
