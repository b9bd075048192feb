#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the device is asked, request by request: tests/slow-fs.c logs each
# read and write it serves (offset, length, arrival), and the requests of
# each test must have the test's shape, judged by arithmetic on the log, not
# by Diskmeter's own figures:
# - RND4K: every request 4 KiB, aligned to 4 KiB and inside the test file;
#   the offsets spread evenly over the file (each eighth of it gets its
#   eighth of the requests within 25 %, about six standard deviations of a
#   uniform draw of this many) and do not follow one another (under 5 % of
#   them continue the one before, where a sequential stream is near 100 %);
# - SEQ1M: the file is walked in order, one MiB after the next, wrapping at
#   its end (the kernel may cut a 1 MiB request into smaller ones, so the
#   walk is judged by the MiB each piece lies in);
# - the bytes the device served in a read test are the ones the report
#   says it moved (warm-up and measured), within 1 % and the few I/Os that
#   were in flight at either end.
# This is the log the application-shaped workloads are proven against.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

dm_tmpdir
mnt="$DM_TMPDIR/mnt"
log="$DM_TMPDIR/requests.log"
size_mib=32
dm_slow_fs_mount "$mnt" 50 4 --write-us 50 --log-requests "$log"

# run TEST MODE: one measured run; prints the log lines it caused.
run ()
{
  local test="$1" mode="$2" before after
  cat "$mnt/.served" >/dev/null # flushes the log
  before=$(wc -l < "$log")
  "$DM_CLI" --tests "$test" --modes "$mode" --count 1 --duration 1 --warmup 0 --interval 0 \
    --size "${size_mib}MiB" --no-history --quiet --format json \
    --output "$DM_TMPDIR/$test-$mode.json" "$mnt" \
    || dm_die "diskmeter-cli $test $mode failed"
  cat "$mnt/.served" >/dev/null
  after=$(wc -l < "$log")
  sed -n "$((before + 1)),${after}p" "$log" > "$DM_TMPDIR/$test-$mode.log"
  dm_log "$test $mode: $((after - before)) requests logged"
}

# shape KIND OP TEST MODE: the checks above, on the log of that run.
shape ()
{
  python3 - "$@" "$DM_TMPDIR" "$((size_mib << 20))" <<'PY'
import json, sys
kind, op, test, mode, tmp, size = sys.argv[1:5] + [sys.argv[5], int(sys.argv[6])]
reqs = []
with open("%s/%s-%s.log" % (tmp, test, mode)) as f:
    for line in f:
        o, off, length, arrived, done = line.split()
        if o == op:
            reqs.append((int(arrived), int(off), int(length)))
reqs.sort()
bad = []
if kind == "rnd":
    # The file's fill (sequential, larger requests) is not the test.
    reqs = [r for r in reqs if r[2] == 4096]
    n = len(reqs)
    if n < 2000:
        bad.append("only %d requests of 4 KiB" % n)
    off = [r[1] for r in reqs]
    if any(o % 4096 or o + 4096 > size for o in off):
        bad.append("a request is not 4 KiB-aligned inside the file")
    buckets = [0] * 8
    for o in off:
        buckets[o * 8 // size] += 1
    spread = max(abs(b - n / 8) / (n / 8) for b in buckets) if n else 1
    follow = sum(1 for a, b in zip(off, off[1:]) if b == a + 4096) / max(1, n - 1)
    print("# %d requests of 4 KiB; eighths %s (worst %.1f %% off); %.2f %% follow the one before"
          % (n, buckets, 100 * spread, 100 * follow))
    if spread > 0.25:
        bad.append("the offsets are not spread evenly")
    if follow > 0.05:
        bad.append("the offsets follow one another")
    if mode == "read":
        # Each byte the device served was asked for in the warm-up or the
        # measured window: the report's own totals of the bytes it moved.
        totals = json.load(open("%s/%s-%s.json" % (tmp, test, mode)))["io_totals"]
        moved = totals["warmup_bytes"] + totals["measured_bytes"]
        served = 4096 * n
        print("# the report moved %d bytes, the device served %d" % (moved, served))
        if abs(served - moved) > 0.01 * moved + 65536:
            bad.append("the device served %d bytes, the report moved %d" % (served, moved))
else:
    mib = []
    for _, o, length in reqs:
        if o + length > size or (o % (1 << 20)) + length > (1 << 20):
            bad.append("a piece at %d+%d crosses a MiB or the file's end" % (o, length))
            break
        m = o >> 20
        if not mib or mib[-1] != m:
            mib.append(m)
    steps = list(zip(mib, mib[1:]))
    inorder = sum(1 for a, b in steps if b == (a + 1) % (size >> 20))
    print("# %d pieces, %d MiB steps, %d of them to the next MiB" % (len(reqs), len(steps), inorder))
    if len(steps) < 50:
        bad.append("only %d MiB were read" % len(steps))
    elif inorder < 0.98 * len(steps):
        bad.append("the file is not walked in order")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}

run RND4K_Q4T1 read
dm_check "RND4K read: 4 KiB requests, aligned, spread over the file, the bytes the report moved" \
  shape rnd R RND4K_Q4T1 read
run RND4K_Q4T1 write
dm_check "RND4K write: 4 KiB requests, aligned, spread over the file" shape rnd W RND4K_Q4T1 write
run SEQ1M_Q1T1 read
dm_check "SEQ1M read: the file walked one MiB after the next" shape seq R SEQ1M_Q1T1 read

dm_slow_fs_unmount "$mnt" || dm_check "slow-fs ended cleanly" false
dm_finish
