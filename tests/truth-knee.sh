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

served () { tr -d '\n' < "$mnt/.served"; }
served_field () { served | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

out="$DM_TMPDIR/sweep.json"
err="$DM_TMPDIR/err.txt"
before=$(served_field read_bytes)
dm_run "$out" "$err" sweep --pattern RND --block 4K --mode read --threads 1 \
  --qd 1,2,4,8,16 --size 32MiB --duration 2 --warmup 0.5 --format json --quiet "$mnt"
after=$(served_field read_bytes)

dm_check "exit status 0 (got $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report"
dm_check "status complete" test "$(dm_json "$out" 'j["status"]')" = complete
dm_check "five combinations" test "$(dm_json "$out" 'len(j["results"])')" = 5

for qd in 1 2 4 8 16; do
  sel="[r for r in j['results'] if r['queue_depth'] == $qd][0]"
  busy=$((qd < parallel ? qd : parallel))
  ideal_iops=$((busy * 1000000 / service_us))
  ideal_lat=$((qd > parallel ? qd * service_us / parallel : service_us))
  iops=$(dm_json "$out" "$sel['iops']")
  lat=$(dm_json "$out" "$sel['latency_us']['mean']")
  dm_log "Q${qd}T1: $iops IOPS (device limit $ideal_iops), mean latency $lat us (floor $ideal_lat)"
  dm_check "/truth/knee/Q${qd}T1 complete" test "$(dm_json "$out" "$sel['status']")" = complete
  # The device cannot serve faster than its limit; the time a request
  # spends in FUSE and io_uring besides the service is a few per cent.
  dm_check "/truth/knee/Q${qd}T1 IOPS within -12 %..+2 % of min(QD, $parallel) / ${service_us} us" \
    python3 -c "import sys; sys.exit(0 if $ideal_iops * 0.88 <= $iops <= $ideal_iops * 1.02 else 1)"
  dm_check "/truth/knee/Q${qd}T1 mean latency within -2 %..+12 % of max(${service_us} us, QD x ${service_us} us / $parallel)" \
    python3 -c "import sys; sys.exit(0 if $ideal_lat * 0.98 <= $lat <= $ideal_lat * 1.12 else 1)"
  # Up to the device's parallelism no read waits for another: none can be
  # faster than the service time, and the median is the service time plus
  # the trip through FUSE (the histogram's buckets are within 0.8 %).
  if [ "$qd" -le "$parallel" ]; then
    min=$(dm_json "$out" "$sel['latency_us']['min']")
    p50=$(dm_json "$out" "$sel['latency_us']['p50']")
    dm_log "Q${qd}T1: latency min $min us, p50 $p50 us"
    dm_check "/truth/knee/Q${qd}T1 no read faster than the service time (min $min us)" \
      python3 -c "import sys; sys.exit(0 if $min >= $service_us * 0.992 else 1)"
    dm_check "/truth/knee/Q${qd}T1 median within +8 % of the service time (p50 $p50 us)" \
      python3 -c "import sys; sys.exit(0 if $service_us * 0.992 <= $p50 <= $service_us * 1.08 else 1)"
  fi
done

dm_check "/truth/knee/the knee is QD $parallel" \
  test "$(dm_json "$out" '(j["sweep"]["knee"] or {}).get("queue_depth")')" = "$parallel"

# What the device served against what Diskmeter says it read: warm-up and
# measured bytes, plus at most the I/Os still in flight when each of the
# five measurements ended (they complete, but count in no window).
reported=$(dm_json "$out" 'j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"]')
got=$((after - before))
dm_log "read bytes: device $got, Diskmeter $reported"
dm_check "/truth/knee/device bytes >= reported" test "$got" -ge "$reported"
dm_check "/truth/knee/device bytes - reported <= in-flight I/Os" \
  test "$((got - reported))" -le "$(( (1 + 2 + 4 + 8 + 16) * 4096 * 2 ))"

# fio with its io_uring engine at QD 8 on the same device.
if command -v fio >/dev/null; then
  fio_json="$DM_TMPDIR/fio.json"
  printf '# $ fio --ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=8 ...\n'
  if fio --name=knee --filename="$mnt/fio.dat" --size=32M --ioengine=io_uring --direct=1 \
       --rw=randread --bs=4k --iodepth=8 --runtime=2 --ramp_time=0.5 --time_based \
       --output-format=json --output="$fio_json" >/dev/null 2>"$DM_TMPDIR/fio.err"; then
    fio_iops=$(dm_json "$fio_json" 'j["jobs"][0]["read"]["iops"]')
    dm_iops=$(dm_json "$out" '[r for r in j["results"] if r["queue_depth"] == 8][0]["iops"]')
    dm_log "QD 8: fio $fio_iops IOPS, Diskmeter $dm_iops IOPS"
    dm_within "/truth/knee/Q8T1 IOPS vs fio" "$dm_iops" "$fio_iops" 8
  else
    dm_check "fio ran (stderr: $(head -c 200 "$DM_TMPDIR/fio.err"))" false
  fi
  rm -f "$mnt/fio.dat"
fi

dm_check "/truth/knee/no test file left" test -z "$(ls -A "$mnt" 2>/dev/null)"
dm_slow_fs_unmount "$mnt"
rc=$?
dm_check "/truth/knee/slow-fs ended cleanly after unmount (status $rc)" test "$rc" = 0

dm_finish
