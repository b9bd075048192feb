#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A sweep against a device whose curve is known in advance: tests/slow-fs.c,
# a FUSE file system whose reads each take 10 ms of service with at most 4
# served at once. At queue depth QD it can serve min(QD, 4) / 10 ms reads a
# second, and by Little's law each waits max(10 ms, QD x 10 ms / 4): the
# throughput doubles up to QD 4 and is flat after it, while latency keeps
# rising, so the knee the sweep names must be QD 4. (truth-sweep's
# throttled loop device serves one request at a time and can only show a
# knee at QD 1.) The bytes the device served must match what Diskmeter
# reports, and fio at QD 8 on the same device must agree with it.
#
# The limits are taken from the service slow-fs really delivered to each
# combination (each read's time in its slot, which a busy machine stretches
# when the server wakes late), not from the 10 ms it was asked for: a loaded
# machine slows the device, and Diskmeter must report the device it got.
# slow-fs runs at real-time priority where it may, so that stretch stays
# small. Little's law ties each QD's IOPS to its mean latency whatever the
# load: QD reads always in flight complete at QD / mean latency a second.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

service_us=10000
parallel=4

dm_tmpdir
mnt="$DM_TMPDIR/mnt"
dm_slow_fs_mount "$mnt" "$service_us" "$parallel"
dm_log "slow-fs on $mnt: $service_us us per read, $parallel at once"

served_field () { dm_slow_fs_field "$mnt" "$1"; }
# The mean time a read held its slot since the counters read "HELD HOLD_NS".
mean_hold_since ()
{
  local held0 ns0 held1 ns1
  read -r held0 ns0 <<< "$1"
  held1=$(served_field held)
  ns1=$(served_field hold_ns)
  python3 -c "print('%.1f' % (($ns1 - $ns0) / 1000.0 / max(1, $held1 - $held0)))"
}

if [ "$(served_field realtime)" = 1 ]; then
  dm_log "slow-fs serves at real-time priority"
else
  dm_log "slow-fs could not get real-time priority: $(head -c 200 "$mnt.log")"
fi
# diskmeter-cli and fio too, one step below the device, where root may: the
# kernel threads that carry a read from the program to slow-fs and back are
# the program's and share its priority, and on a busy machine a read that
# waits for a CPU on its way leaves the device idle. What is checked is
# what the device delivered, not what else the machine was doing.
rt=()
if command -v chrt >/dev/null && chrt -f 5 true 2>/dev/null; then
  rt=(chrt -f 5)
  dm_log "diskmeter-cli and fio run at real-time priority 5 (slow-fs: 10)"
else
  dm_log "diskmeter-cli and fio run at normal priority: chrt -f is refused here"
fi

out="$DM_TMPDIR/sweep.json"
progress="$DM_TMPDIR/progress.txt"
# The counters are read at every progress line; the last line of each
# combination is printed as it ends, so the reads between the first line of
# its measured window and that one are the combination's. Where the machine
# stretched the service at one load more than at another, the device had
# its knee elsewhere or too close to call: the sweep is measured again, up
# to three times, and the checks judge the last one.
for attempt in 1 2 3; do
  before=$(served_field read_bytes)
  hold0="$(served_field held) $(served_field hold_ns)"
  DM_WATCH_READ="$mnt/.served" dm_run_watch "$out" "$progress" '' "${rt[@]}" "$DM_CLI" sweep \
    --pattern RND --block 4K --mode read --threads 1 --qd 1,2,4,8,16 --size 32MiB \
    --duration 2 --warmup 0.5 --format json "$mnt"
  after=$(served_field read_bytes)
  hold_us=$(mean_hold_since "$hold0")
  declare -A hold_at=()
  while read -r k v; do
    hold_at[$k]="$v"
  done < <(python3 - "$progress" "$hold0" <<'PY'
import re, sys
seen = {}
for line in open(sys.argv[1]):
    _, text, snap = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    m = re.match(r"Q(\d+) +T\d+ +\d+/\d+ +(\S+)", text)
    f = snap.split()
    if m and "held" in f:
        seen.setdefault(int(m.group(1)), []).append(
            (m.group(2), int(f[f.index("held") + 1]), int(f[f.index("hold_ns") + 1])))
# From the first line of the measured window (or the combination's start)
# to its last line, printed as it ends: the service while it was measured.
held, ns = map(int, sys.argv[2].split())
for qd in sorted(seen):
    lines = seen[qd]
    start = next((l for l in lines[:-1] if l[0] == "measure"), None)
    h0, n0 = (start[1], start[2]) if start else (held, ns)
    _, held, ns = lines[-1]
    print(qd, "%.1f" % ((ns - n0) / 1000.0 / max(1, held - h0)))
PY
  )
  # The knee of the curve the device delivered, by the sweep's rule: the
  # lightest load past which no load gains 5 %. It is clear when every
  # step of that rule is decided by 3 % or more either side of 5 %.
  read -r knee_expected knee_clear < <(python3 - "$parallel" \
    "$(for q in 1 2 4 8 16; do printf '%s:%s ' "$q" "${hold_at[$q]:-0}"; done)" <<'PY'
import sys
p = int(sys.argv[1])
pts = [(int(q), float(h)) for q, h in (x.split(":") for x in sys.argv[2].split())]
tput = [min(q, p) / h if h > 0 else 0 for q, h in pts]
knee, clear = None, all(h > 0 for _, h in pts)
for i in range(len(pts) - 1):
    gain = max(tput[i + 1:]) / tput[i] if tput[i] > 0 else 0
    clear = clear and (gain >= 1.08 or gain <= 1.02)
    if gain < 1.05:
        knee = pts[i][0]
        break
print(knee, int(clear))
PY
  )
  dm_log "attempt $attempt: service delivered per QD (us): $(for q in 1 2 4 8 16; do printf '%s ' "${hold_at[$q]:-?}"; done); its knee: QD $knee_expected$([ "$knee_clear" = 1 ] || echo ', too close to call')"
  [ "$knee_clear" = 1 ] && [ "$knee_expected" = "$parallel" ] && break
done
dm_log "service delivered: $hold_us us a read on average (asked: $service_us us), longest $(( $(served_field hold_max_ns) / 1000 )) us"
dm_check "/truth/knee/no read served in less than its service time ($hold_us us)" \
  python3 -c "import sys; sys.exit(0 if $hold_us >= $service_us else 1)"
dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report"
dm_check "status complete" test "$(dm_json "$out" 'j["status"]')" = complete
dm_check "five combinations" test "$(dm_json "$out" 'len(j["results"])')" = 5
dm_check "the service delivered is known for each combination (${!hold_at[*]})" \
  test "${#hold_at[@]}" = 5

for qd in 1 2 4 8 16; do
  sel="[r for r in j['results'] if r['queue_depth'] == $qd][0]"
  busy=$((qd < parallel ? qd : parallel))
  hold="${hold_at[$qd]:-$hold_us}"
  ideal_iops=$(python3 -c "print('%.1f' % ($busy * 1e6 / $hold))")
  ideal_lat=$(python3 -c "print('%.1f' % ($hold * max(1.0, $qd / $parallel)))")
  iops=$(dm_json "$out" "$sel['iops']")
  lat=$(dm_json "$out" "$sel['latency_us']['mean']")
  dm_log "Q${qd}T1: $iops IOPS (device limit $ideal_iops at $hold us a read), mean latency $lat us (floor $ideal_lat)"
  dm_check "/truth/knee/Q${qd}T1 complete" test "$(dm_json "$out" "$sel['status']")" = complete
  # The device cannot serve faster than its limit; the time a request
  # spends in FUSE and io_uring besides the service is a few per cent.
  dm_check "/truth/knee/Q${qd}T1 IOPS within -12 %..+2 % of min(QD, $parallel) / $hold us delivered" \
    python3 -c "import sys; sys.exit(0 if $ideal_iops * 0.88 <= $iops <= $ideal_iops * 1.02 else 1)"
  dm_check "/truth/knee/Q${qd}T1 mean latency within -2 %..+12 % of max($hold us, QD x $hold us / $parallel)" \
    python3 -c "import sys; sys.exit(0 if $ideal_lat * 0.98 <= $lat <= $ideal_lat * 1.12 else 1)"
  # Little's law: QD reads in flight all the time. A read that started
  # before a window and ended in it counts whole, so the product may run
  # over QD by a latency per measured window (2 s): 2 % at QD 16.
  dm_within "/truth/knee/Q${qd}T1 Little's law: IOPS x mean latency = QD" \
    "$(python3 -c "print('%.3f' % ($iops * $lat / 1e6))")" "$qd" 5
  # Up to the device's parallelism no read waits for another: none can be
  # faster than the service time, and the median is the service delivered
  # plus the trip through FUSE (the histogram's buckets are within 0.8 %).
  if [ "$qd" -le "$parallel" ]; then
    min=$(dm_json "$out" "$sel['latency_us']['min']")
    p50=$(dm_json "$out" "$sel['latency_us']['p50']")
    dm_log "Q${qd}T1: latency min $min us, p50 $p50 us"
    dm_check "/truth/knee/Q${qd}T1 no read faster than the service time (min $min us)" \
      python3 -c "import sys; sys.exit(0 if $min >= $service_us * 0.992 else 1)"
    dm_check "/truth/knee/Q${qd}T1 median within +8 % of the service delivered (p50 $p50 us)" \
      python3 -c "import sys; sys.exit(0 if $service_us * 0.992 <= $p50 <= $hold * 1.08 else 1)"
  fi
done

# With the service steady the knee is at QD $parallel; where the machine
# stretched the service at one load more than at another, the device it
# delivered had its knee elsewhere, and Diskmeter must find that one. Where
# three sweeps left it too close to call, that is said and counted as a
# part left out.
knee=$(dm_json "$out" '(j["sweep"]["knee"] or {}).get("queue_depth")')
if [ "$knee_clear" = 1 ]; then
  dm_check "/truth/knee/the knee is QD $knee (the device delivered its knee at QD $knee_expected; steady: QD $parallel)" \
    test "$knee" = "$knee_expected"
else
  dm_log "the knee found: QD $knee"
  dm_skip_part "the knee: in three sweeps the machine stretched slow-fs's service too unevenly to call the device's knee"
fi

# What the device served against what Diskmeter says it read: warm-up and
# measured bytes, plus at most the I/Os still in flight when each of the
# five measurements ended (they complete, but count in no window).
reported=$(dm_json "$out" 'j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"]')
got=$((after - before))
dm_log "read bytes: device $got, Diskmeter $reported"
dm_check "/truth/knee/device bytes >= reported" test "$got" -ge "$reported"
dm_check "/truth/knee/device bytes - reported <= in-flight I/Os" \
  test "$((got - reported))" -le "$(( (1 + 2 + 4 + 8 + 16) * 4096 * 2 ))"

# fio with its io_uring engine at QD 8 on the same device. build-aux/dev
# installs fio, so without it this check fails rather than go unchecked.
# Each tool's IOPS is taken against the service delivered during its own
# run, so that a machine busier during one of them does not decide.
if command -v fio >/dev/null; then
  fio_json="$DM_TMPDIR/fio.json"
  printf '# $ fio --ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=8 ...\n'
  hold0="$(served_field held) $(served_field hold_ns)"
  if "${rt[@]}" fio --name=knee --filename="$mnt/fio.dat" --size=32M --ioengine=io_uring --direct=1 \
       --rw=randread --bs=4k --iodepth=8 --runtime=2 --ramp_time=0.5 --time_based \
       --output-format=json --output="$fio_json" >/dev/null 2>"$DM_TMPDIR/fio.err"; then
    fio_hold_us=$(mean_hold_since "$hold0")
    fio_iops=$(dm_json "$fio_json" 'j["jobs"][0]["read"]["iops"]')
    dm_iops=$(dm_json "$out" '[r for r in j["results"] if r["queue_depth"] == 8][0]["iops"]')
    dm_log "QD 8: fio $fio_iops IOPS at $fio_hold_us us a read, Diskmeter $dm_iops IOPS at ${hold_at[8]:-?} us"
    dm_within "/truth/knee/Q8T1 share of the device's limit vs fio's" \
      "$(python3 -c "print('%.4f' % ($dm_iops * ${hold_at[8]:-$hold_us} / 1e6 / $parallel))")" \
      "$(python3 -c "print('%.4f' % ($fio_iops * $fio_hold_us / 1e6 / $parallel))")" 8
  else
    dm_check "fio ran (stderr: $(head -c 200 "$DM_TMPDIR/fio.err"))" false
  fi
  rm -f "$mnt/fio.dat"
else
  dm_check "/truth/knee/fio is installed (build-aux/dev installs it)" false
fi

dm_check "/truth/knee/no test file left" test -z "$(ls -A "$mnt" 2>/dev/null)"
dm_slow_fs_unmount "$mnt"
rc=$?
dm_check "/truth/knee/slow-fs ended cleanly after unmount (status $rc)" test "$rc" = 0

dm_finish
