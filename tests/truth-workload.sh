#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Workload rows (--workload) against what the device was asked, request by
# request: tests/slow-fs.c logs each request it serves and keeps every
# write, and each feature is judged by arithmetic on that log, not by
# Diskmeter's own figures:
# - a block-size split 4K/50,8K/30,64K/20: each size's share of the
#   requests within 1 point;
# - random=60: 60 % of the requests do not continue the one before (Q1),
#   within 2 points;
# - hot:10/90: the first 10 % of the file gets 90 % of the requests, within
#   2 points; zipf:1.2: the hottest 1, 10 and 100 blocks get the shares
#   the zipf law gives over the file's blocks, within 10 %;
# - rate=2000 on a device far faster: requests arrive at 2000/s within 1 %,
#   and the report says it was met; rate=8000 on one that serves 4000/s:
#   the report says the rate was not met, reached what the device served
#   (S, from the log), and the latency (counted from each I/O's due time)
#   grows with the backlog as the arithmetic says: an I/O completing at t
#   waited t (1 - S/8000), within 15 %;
# - sync=flush:8: one fdatasync the device saw per 8 writes, at Q=1 and at
#   Q=16, where each flush is a barrier as fio's fsync=N means it: no write
#   in flight when it arrives, none arriving until it is done; sync=dsync on
#   a loop device: the block layer's flush (or FUA write) counters grow
#   with the writes, where plain writes add none;
# - compress=50: zlib shrinks the written blocks to 50 % within 5 points;
#   dedupe=30: 30 % of the 4 KiB blocks written repeat one written before,
#   within 5 points, by a hash of every block;
# - fio with the same split and hot spot (bssplit, zoned) on the same
#   device agrees within 5 %;
# - on a RAM loop device a workload row of RND4K's shape costs no more CPU
#   per I/O than RND4K_Q32T1 itself, within 10 % (medians of 3 rounds).

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

dm_tmpdir
mnt="$DM_TMPDIR/fast"
log="$DM_TMPDIR/requests.log"
kept="$DM_TMPDIR/writes.bin"
size_mib=32
dm_slow_fs_mount "$mnt" 20 8 --write-us 20 --log-requests "$log" --keep-writes "$kept"

# run NAME WORKLOAD [MOUNT LOG]: one measured run of 2 s; keeps the log
# lines and the kept writes it caused as NAME.log and NAME.bin.
run ()
{
  local name="$1" wl="$2" m="${3:-$mnt}" l="${4:-$log}" before after kb ka
  cat "$m/.served" >/dev/null # flushes the log
  before=$(wc -l < "$l")
  kb=$(stat -c %s "$kept" 2>/dev/null || echo 0)
  "$DM_CLI" --workload "name=$name;$wl" --count 1 --duration 2 --warmup 0 --interval 0 \
    --size "${size_mib}MiB" --no-history --quiet --format json \
    --output "$DM_TMPDIR/$name.json" "$m" \
    || dm_die "diskmeter-cli --workload $wl failed"
  cat "$m/.served" >/dev/null
  after=$(wc -l < "$l")
  sed -n "$((before + 1)),${after}p" "$l" > "$DM_TMPDIR/$name.log"
  ka=$(stat -c %s "$kept" 2>/dev/null || echo 0)
  tail -c +"$((kb + 1))" "$kept" | head -c "$((ka - kb))" > "$DM_TMPDIR/$name.bin"
  dm_log "$name ($wl): $((after - before)) requests logged"
}

# judge KIND NAME: the arithmetic for one kind of check, on NAME's log.
judge ()
{
  local barrier=
  [ "$1" = flush ] && barrier=--barrier
  python3 "$DM_SOURCE_ROOT/tests/workload-judge.py" "$1" "$DM_TMPDIR" "$2" "$((size_mib << 20))" $barrier
}

dm_check "block-size split 4K/50,8K/30,64K/20: each size's share within 1 point" \
  dm_sampled 3 "$DM_TMPDIR/split.log" run split "block=4K/50,8K/30,64K/20;read=100;qd=4" -- judge split split
dm_check "random=60: 60 % of the requests jump, within 2 points" \
  dm_sampled 3 "$DM_TMPDIR/random.log" run random "block=4K;read=100;random=60;qd=1" -- judge random random
dm_check "hot:10/90: the first 10 % of the file gets 90 % of the I/O, within 2 points" \
  dm_sampled 3 "$DM_TMPDIR/hot.log" run hot "block=4K;read=100;distribution=hot:10/90;qd=4" -- judge hot hot
run zipf "block=4K;read=100;distribution=zipf:1.2;qd=4"
dm_check "zipf:1.2: the head of the curve as the law gives it, within 10 %" judge zipf zipf
run rate "block=4K;read=100;rate=2000;qd=4"
dm_check "rate=2000 on a faster device: 2000 requests a second, within 1 %" judge rate rate
run flush "block=4K;read=0;sync=flush:8;qd=1"
dm_check "sync=flush:8: one fdatasync per 8 writes, counted by the device" judge flush flush
run flushq "block=4K;read=0;sync=flush:8;qd=16"
dm_check "sync=flush:8 at Q=16: one per 8 writes, each after the 8 are done and alone" \
  judge flush flushq
run compress "block=4K;read=0;compress=50;qd=4"
dm_check "compress=50: zlib shrinks the written data to 50 %, within 5 points" judge compress compress
run dedupe "block=4K;read=0;dedupe=30;qd=4"
dm_check "dedupe=30: 30 % of the 4 KiB blocks repeat another, within 5 points" judge dedupe dedupe

dm_slow_fs_unmount "$mnt" || dm_check "slow-fs ended cleanly" false

# A device that serves 4000 reads a second, 4 at a time (1 ms each),
# offered 8000; and the one where fio's figure is the device's, not its
# own overhead's, so the two tools can agree.
slow="$DM_TMPDIR/slow"
slow_log="$DM_TMPDIR/slow-requests.log"
dm_slow_fs_mount "$slow" 1000 4 --log-requests "$slow_log"
run behind "block=4K;read=100;rate=8000;qd=16" "$slow" "$slow_log"
dm_check "rate=8000 on a device of 4000/s: not met, what it served reached, latency growing as the backlog does" \
  judge behind behind
mark=$(dm_slow_fs_mark "$slow")
run split-slow "block=4K/50,8K/30,64K/20;read=100;distribution=hot:10/90;qd=8" "$slow" "$slow_log"
dm_late=$(dm_slow_fs_late_us "$slow" "$mark")
if command -v fio >/dev/null; then
  mark=$(dm_slow_fs_mark "$slow")
  fio --name=split --filename="$slow/fio.dat" --size="${size_mib}M" --rw=randread \
    --bssplit=4k/50:8k/30:64k/20 --random_distribution=zoned:90/10:10/90 --iodepth=8 \
    --ioengine=io_uring --direct=1 --time_based --runtime=2 --output-format=json \
    --output="$DM_TMPDIR/fio.json" >/dev/null 2>&1 || dm_die "fio failed on slow-fs"
  fio_iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$DM_TMPDIR/fio.json")
  fio_late=$(dm_slow_fs_late_us "$slow" "$mark")
  dm_iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["iops"])' "$DM_TMPDIR/split-slow.json")
  # The two ran one after the other, and a host that stalls the VM slows
  # slow-fs for one more than the other (a CI rehearsal: Diskmeter 16 %
  # over fio). Each is held to the service the device gave it: 1 ms plus
  # the machine's time per read that slow-fs counted during its run.
  dm_log "slow-fs: $dm_late us late per read for Diskmeter, $fio_late us for fio"
  dm_within "the split with a hot spot: IOPS x (1 ms + late) against fio's" \
    "$(python3 -c "print($dm_iops * (1000 + $dm_late) / 1000)")" \
    "$(python3 -c "print($fio_iops * (1000 + $fio_late) / 1000)")" 5
  rm -f "$slow/fio.dat"
else
  dm_log "fio is not installed: no comparison with it"
fi
dm_slow_fs_unmount "$slow" || dm_check "slow-fs ended cleanly" false

# dsync on a real block device: the flushes the block layer counted
# (/sys/block/DEV/stat fields 16-17), or writes it sent with FUA where the
# device takes them, grow with the writes; plain writes send neither.
dm_need_loop
dm_loop_create 256
dm_mkfs_mount
sync
flushes () { awk '{print $16}' "/sys/block/$DM_LOOP_NAME/stat"; }
wl_run ()
{
  "$DM_CLI" --workload "name=$1;$2" --count 1 --duration 1 --warmup 0 --interval 0 --size 64MiB \
    --no-history --quiet --format json --output "$DM_TMPDIR/$1.json" "$DM_MNT" \
    || dm_die "diskmeter-cli --workload $2 on $DM_LOOP failed"
}
f0=$(flushes); wl_run plainw "block=4K;read=0;qd=1"; f1=$(flushes)
wl_run dsync "block=4K;read=0;qd=1;sync=dsync"; f2=$(flushes)
ios=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(sum(x["ios"] for x in r["runs"]))' "$DM_TMPDIR/dsync.json")
dm_log "loop flushes: plain writes $((f1 - f0)), dsync writes $((f2 - f1)) for $ios measured writes"
dm_check "dsync: the device saw a flush per write (at least as many as the measured writes)" \
  test "$((f2 - f1))" -ge "$ios" -a "$ios" -gt 100
dm_check "plain writes: the device saw (almost) no flushes" test "$((f1 - f0))" -le 3

# CPU per I/O: the workload path against the plain one, alternating, each
# side's least of five. A neighbour's work only ever adds to a run's
# figure: ten pairs on this machine went from 0.90 to 1.17 one against the
# other, so a median of three failed a path that costs the same (2.206
# against 2.295 us at least, 2.39 against 2.42 in the median).
cpu ()
{
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["cpu_us_per_io"])' "$1"
}
plain=() shaped=()
for round in 1 2 3 4 5; do
  "$DM_CLI" --tests RND4K_Q32T1 --modes read --count 1 --duration 2 --warmup 0.5 --interval 0 \
    --size 64MiB --no-history --quiet --format json --output "$DM_TMPDIR/plain.json" "$DM_MNT" \
    || dm_die "RND4K_Q32T1 failed"
  plain+=("$(cpu "$DM_TMPDIR/plain.json")")
  "$DM_CLI" --workload "name=rnd4k;block=4K;read=100;random=100;qd=32" --count 1 --duration 2 \
    --warmup 0.5 --interval 0 --size 64MiB --no-history --quiet --format json \
    --output "$DM_TMPDIR/shaped.json" "$DM_MNT" || dm_die "the RND4K workload failed"
  shaped+=("$(cpu "$DM_TMPDIR/shaped.json")")
done
least () { printf '%s\n' "$@" | sort -g | sed -n 1p; }
dm_log "CPU us per I/O: plain ${plain[*]}, workload ${shaped[*]}"
dm_check "a workload row of RND4K's shape costs at most 10 % more CPU per I/O" \
  python3 -c 'import sys; p, s = float(sys.argv[1]), float(sys.argv[2]); print("# plain %.3f, workload %.3f us/IO" % (p, s)); sys.exit(s > 1.10 * p)' \
  "$(least "${plain[@]}")" "$(least "${shaped[@]}")"
dm_finish
