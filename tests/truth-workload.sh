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
  python3 - "$1" "$DM_TMPDIR" "$2" "$((size_mib << 20))" <<'PY'
import hashlib, json, math, sys, zlib
kind, tmp, name, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
reqs = []
for line in open("%s/%s.log" % (tmp, name)):
    o, off, length, arrived, done = line.split()
    reqs.append((int(arrived), o, int(off), int(length), int(done)))
reqs.sort()
rep = json.load(open("%s/%s.json" % (tmp, name)))
res = rep["results"][0]
# The file's fill is sequential, in large writes: not the test.
fill = max((r[3] for r in reqs if r[1] == "W"), default=0) if kind not in ("flush", "compress", "dedupe") else 0
reads = [r for r in reqs if r[1] == "R"]
bad = []

def near(what, got, want, tol):
    print("# %s: %.3f, expected %.3f (tolerance %.3f)" % (what, got, want, tol))
    if abs(got - want) > tol:
        bad.append(what)

if kind == "split":
    n = len(reads)
    if n < 20000:
        bad.append("only %d reads" % n)
    for size_k, share in ((4, 0.5), (8, 0.3), (64, 0.2)):
        got = sum(1 for r in reads if r[3] == size_k << 10) / max(1, n)
        near("share of %d KiB requests" % size_k, 100 * got, 100 * share, 1.0)
    if any(r[2] % r[3] or r[2] + r[3] > size for r in reads):
        bad.append("a request is not aligned to its size inside the file")
elif kind == "random":
    n = len(reads)
    if n < 5000:
        bad.append("only %d reads" % n)
    jumps = sum(1 for a, b in zip(reads, reads[1:]) if b[2] != a[2] + a[3]) / max(1, n - 1)
    near("share of requests that do not continue the one before", 100 * jumps, 60, 2.0)
elif kind == "hot":
    n = len(reads)
    hot = sum(1 for r in reads if r[2] < size // 10) / max(1, n)
    near("share of requests in the file's first 10 %", 100 * hot, 90, 2.0)
elif kind == "zipf":
    units = size // 4096
    theta = 1.2
    h = sum(k ** -theta for k in range(1, units + 1))
    counts = {}
    for r in reads:
        counts[r[2]] = counts.get(r[2], 0) + 1
    top = sorted(counts.values(), reverse=True)
    n = len(reads)
    for k in (1, 10, 100):
        want = sum(j ** -theta for j in range(1, k + 1)) / h
        got = sum(top[:k]) / max(1, n)
        near("share of the hottest %d blocks (%%)" % k, 100 * got, 100 * want, 10 * want)
elif kind == "rate":
    arr = [r[0] for r in reads]
    # The first and last 10 % are the ramp of the schedule and its end.
    a = arr[len(arr) // 10:len(arr) * 9 // 10]
    rate = (len(a) - 1) / ((a[-1] - a[0]) / 1e9)
    near("requests per second the device was asked", rate, 2000, 20)
    near("the report's IOPS", res["iops"], 2000, 20)
    if not res["rate"]["met"]:
        bad.append("the report says the rate was not met")
elif kind == "behind":
    # What the device really served (its sleeps end late on a busy
    # machine): completions a second over the run.
    done = sorted(r[4] for r in reads)
    served = (len(done) - 1) / ((done[-1] - done[0]) / 1e9)
    offered = 8000
    near("IOPS reached against what the device served", res["rate"]["reached"], served, 0.05 * served)
    if res["rate"]["met"] or res["rate"]["reached"] > 0.97 * offered:
        bad.append("the report says the rate was met")
    s = [x for x in res["samples"] if x["iops"] > 0]
    lat = [x["latency_us_mean"] for x in s]
    print("# mean latency per sample (us): %s" % [round(v) for v in lat])
    if len(lat) < 3 or any(b < a * 0.9 for a, b in zip(lat, lat[1:])):
        bad.append("the latency does not grow with the backlog")
    # The I/O due at k/offered is served at about k/served: an I/O that
    # completes at t waited t (1 - served/offered) past its due time.
    step = s[-1]["t"] - s[-2]["t"]
    mid = s[-1]["t"] - step / 2
    want = mid * (1 - served / offered)
    near("last sample's mean latency (s)", lat[-1] / 1e6, want, 0.15 * want)
elif kind == "flush":
    w = [r for r in reqs if r[1] == "W" and r[3] == 4096]
    first, last = w[0][0], w[-1][0]
    fl = [r for r in reqs if r[1] in "DF" and first <= r[0] <= last]
    d = len(fl)
    print("# %d writes of 4 KiB, %d flushes among them; the report counted %d in its run"
          % (len(w), d, res["flushes"]))
    if len(w) < 1000 or abs(d - len(w) / 8) > 2 + 0.01 * len(w) / 8:
        bad.append("not one flush per 8 writes")
    if not 0.9 * d <= res["flushes"] <= d + 1:
        bad.append("the report's flush count is not the device's")
    # A barrier, as fio's fsync=N means it: when a flush arrives, every
    # write sent before it is done, and none arrives until it is done.
    import bisect
    arrs, dones = sorted(r[0] for r in w), sorted(r[4] for r in w)
    inflight = beside = 0
    for f in fl:
        inflight += bisect.bisect_left(arrs, f[0]) - bisect.bisect_right(dones, f[0])
        beside += bisect.bisect_left(arrs, f[4]) - bisect.bisect_left(arrs, f[0])
    print("# writes in flight when a flush arrived: %d; writes that arrived during a flush: %d"
          % (inflight, beside))
    if inflight or beside:
        bad.append("a flush went out beside writes in flight: not a barrier")
else:
    data = open("%s/%s.bin" % (tmp, name), "rb").read()
    blocks, pos = [], 0
    while pos + 16 <= len(data):
        off = int.from_bytes(data[pos:pos + 8], "little")
        length = int.from_bytes(data[pos + 8:pos + 12], "little")
        body = data[pos + 16:pos + 16 + length]
        pos += 16 + length
        if length == 4096:
            blocks.append(body)
    n = len(blocks)
    if n < 2000:
        bad.append("only %d writes of 4 KiB kept" % n)
    if kind == "compress":
        whole = b"".join(blocks)
        near("zlib's size of the written data (%)", 100 * len(zlib.compress(whole, 6)) / len(whole), 50, 5)
    else:
        seen, repeats = set(), 0
        for b in blocks:
            h = hashlib.sha256(b).digest()
            repeats += h in seen
            seen.add(h)
        near("share of 4 KiB blocks that repeat one written before (%)", 100 * repeats / n, 30, 5)
for b in bad:
    print("# FAILED: " + b)
sys.exit(1 if bad else 0)
PY
}

run split "block=4K/50,8K/30,64K/20;read=100;qd=4"
dm_check "block-size split 4K/50,8K/30,64K/20: each size's share within 1 point" judge split split
run random "block=4K;read=100;random=60;qd=1"
dm_check "random=60: 60 % of the requests jump, within 2 points" judge random random
run hot "block=4K;read=100;distribution=hot:10/90;qd=4"
dm_check "hot:10/90: the first 10 % of the file gets 90 % of the I/O, within 2 points" judge hot hot
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
run split-slow "block=4K/50,8K/30,64K/20;read=100;distribution=hot:10/90;qd=8" "$slow" "$slow_log"
if command -v fio >/dev/null; then
  fio --name=split --filename="$slow/fio.dat" --size="${size_mib}M" --rw=randread \
    --bssplit=4k/50:8k/30:64k/20 --random_distribution=zoned:90/10:10/90 --iodepth=8 \
    --ioengine=io_uring --direct=1 --time_based --runtime=2 --output-format=json \
    --output="$DM_TMPDIR/fio.json" >/dev/null 2>&1 || dm_die "fio failed on slow-fs"
  fio_iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$DM_TMPDIR/fio.json")
  dm_iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["iops"])' "$DM_TMPDIR/split-slow.json")
  dm_within "the split with a hot spot: IOPS against fio's of the same job" "$dm_iops" "$fio_iops" 5
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

# CPU per I/O: the workload path against the plain one, alternating.
cpu ()
{
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["cpu_us_per_io"])' "$1"
}
plain=() shaped=()
for round in 1 2 3; do
  "$DM_CLI" --tests RND4K_Q32T1 --modes read --count 1 --duration 2 --warmup 0.5 --interval 0 \
    --size 64MiB --no-history --quiet --format json --output "$DM_TMPDIR/plain.json" "$DM_MNT" \
    || dm_die "RND4K_Q32T1 failed"
  plain+=("$(cpu "$DM_TMPDIR/plain.json")")
  "$DM_CLI" --workload "name=rnd4k;block=4K;read=100;random=100;qd=32" --count 1 --duration 2 \
    --warmup 0.5 --interval 0 --size 64MiB --no-history --quiet --format json \
    --output "$DM_TMPDIR/shaped.json" "$DM_MNT" || dm_die "the RND4K workload failed"
  shaped+=("$(cpu "$DM_TMPDIR/shaped.json")")
done
median () { printf '%s\n' "$@" | sort -g | sed -n 2p; }
dm_log "CPU us per I/O: plain ${plain[*]}, workload ${shaped[*]}"
dm_check "a workload row of RND4K's shape costs at most 10 % more CPU per I/O" \
  python3 -c 'import sys; p, s = float(sys.argv[1]), float(sys.argv[2]); print("# plain %.3f, workload %.3f us/IO" % (p, s)); sys.exit(s > 1.10 * p)' \
  "$(median "${plain[@]}")" "$(median "${shaped[@]}")"
dm_finish
