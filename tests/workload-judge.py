#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# workload-judge.py KIND TMP NAME SIZE [--backend B] [--barrier]
#
# The arithmetic for one workload row's check, on what the device was asked:
# TMP/NAME.log is slow-fs's request log (op, offset, length, arrived and done
# in ns), TMP/NAME.bin its kept writes, TMP/NAME.json Diskmeter's report of
# the row, SIZE the test file's bytes. Used by truth-workload.sh (io_uring)
# and windows-workload.sh (IOCP under Wine), so both engines are held to the
# same figures. Prints what it measured; exits 1 when a check failed, 2
# when the log holds too few requests for a share's tolerance (the caller
# may run again and judge the runs' logs together: see dm_sampled).
#   --backend B  the report must name backend B and be complete
#   --barrier    sync=flush:N must be a barrier: no write in flight when a
#                flush arrives, none arriving while it is served
import bisect, hashlib, json, math, sys, zlib

opts = sys.argv[5:]
kind, tmp, name, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
backend = opts[opts.index("--backend") + 1] if "--backend" in opts else None

reqs = []
for line in open("%s/%s.log" % (tmp, name)):
    o, off, length, arrived, done = line.split()
    reqs.append((int(arrived), o, int(off), int(length), int(done)))
reqs.sort()
rep = json.load(open("%s/%s.json" % (tmp, name), encoding="utf-8"))
res = rep["results"][0]
bad = []
if backend and rep.get("backend") != backend:
    bad.append("backend %r, not %s" % (rep.get("backend"), backend))
if backend and res.get("status") != "complete":
    bad.append("status %r (%s)" % (res.get("status"), res.get("error")))
reads = [r for r in reqs if r[1] == "R"]


def near(what, got, want, tol):
    print("# %s: %.3f, expected %.3f (tolerance %.3f)" % (what, got, want, tol))
    if abs(got - want) > tol:
        bad.append(what)


short = []


def enough(n, share, tol):
    """A share measured over n requests is a binomial count: the tolerance
    tol (a fraction) must be at least 3.5 of its standard deviations, or a
    right engine would fail the check about once in 2000 runs. A fixed
    minimum was too few on a busy host (Wine made 3536 hot:10/90 reads in
    3 s, where this machine makes 16000-33000), so too few is said apart
    from a wrong share."""
    need = math.ceil((3.5 / tol) ** 2 * share * (1 - share))
    print("# %d reads, %d needed for a share of %.2f within %.3f" % (n, need, share, tol))
    if n < need:
        short.append("only %d reads, %d needed" % (n, need))


def writes_of_4k():
    w = [r for r in reqs if r[1] == "W" and r[3] == 4096]
    if not w:
        bad.append("no writes of 4 KiB")
        return w, 0, -1
    return w, w[0][0], w[-1][0]


if kind == "split":
    n = len(reads)
    enough(n, 0.5, 0.01)
    for size_k, share in ((4, 0.5), (8, 0.3), (64, 0.2)):
        got = sum(1 for r in reads if r[3] == size_k << 10) / max(1, n)
        near("share of %d KiB requests" % size_k, 100 * got, 100 * share, 1.0)
    if any(r[2] % r[3] or r[2] + r[3] > size for r in reads):
        bad.append("a request is not aligned to its size inside the file")
elif kind == "random":
    n = len(reads)
    enough(n, 0.6, 0.02)
    jumps = sum(1 for a, b in zip(reads, reads[1:]) if b[2] != a[2] + a[3]) / max(1, n - 1)
    near("share of requests that do not continue the one before", 100 * jumps, 60, 2.0)
elif kind == "hot":
    n = len(reads)
    enough(n, 0.9, 0.02)
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
    offered = res["rate"]["offered"]
    near("requests per second the device was asked", rate, offered, 0.01 * offered)
    near("the report's IOPS", res["iops"], offered, 0.01 * offered)
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
    w, first, last = writes_of_4k()
    fl = [r for r in reqs if r[1] in "DF" and first <= r[0] <= last]
    f = sum(1 for r in fl if r[1] == "F")
    d = len(fl) - f
    print("# %d writes of 4 KiB, %d fsyncs and %d fdatasyncs among them; the report counted %d"
          % (len(w), f, d, res["flushes"]))
    # The count is exact, not a sample: 200 writes (25 flushes) show it,
    # and a busy host under Wine made only 1243 writes in a second.
    if len(w) < 200 or abs(len(fl) - len(w) / 8) > 2 + 0.01 * len(w) / 8:
        bad.append("not one flush per 8 writes")
    if not 0.9 * len(fl) <= res["flushes"] <= len(fl) + 1:
        bad.append("the report's flush count is not the device's")
    if "--barrier" in opts:
        # A barrier, as fio's fsync=N means it: when a flush arrives, every
        # write sent before it is done, and none arrives until it is done.
        arrs, dones = sorted(r[0] for r in w), sorted(r[4] for r in w)
        inflight = beside = 0
        for x in fl:
            inflight += bisect.bisect_left(arrs, x[0]) - bisect.bisect_right(dones, x[0])
            beside += bisect.bisect_left(arrs, x[4]) - bisect.bisect_left(arrs, x[0])
        print("# writes in flight when a flush arrived: %d; writes that arrived during a flush: %d"
              % (inflight, beside))
        if inflight or beside:
            bad.append("a flush went out beside writes in flight: not a barrier")
elif kind == "plain":
    # A row with no sync asks the device for no flush while it writes.
    w, first, last = writes_of_4k()
    f = sum(1 for r in reqs if r[1] in "DF" and first <= r[0] <= last)
    print("# %d writes of 4 KiB, %d flushes among them" % (len(w), f))
    if len(w) < 200:
        bad.append("only %d writes of 4 KiB, 200 needed" % len(w))
    if f:
        bad.append("flushes without sync=flush")
elif kind in ("compress", "dedupe"):
    data = open("%s/%s.bin" % (tmp, name), "rb").read()
    blocks, pos = [], 0
    while pos + 16 <= len(data):
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
        near("zlib's size of the written data (%)", 100 * len(zlib.compress(whole, 6)) / max(1, len(whole)), 50, 5)
    else:
        seen, repeats = set(), 0
        for b in blocks:
            h = hashlib.sha256(b).digest()
            repeats += h in seen
            seen.add(h)
        near("share of 4 KiB blocks that repeat one written before (%)", 100 * repeats / max(1, n), 30, 5)
else:
    bad.append("no such kind of check: " + kind)
for b in bad:
    print("# FAILED: " + b)
for b in short:
    print("# too few: " + b)
sys.exit(1 if bad else 2 if short else 0)
