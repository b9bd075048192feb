#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What happens before the measurement, held against what the device saw:
#
# - --precondition 2 on slow-fs (tests/slow-fs.c, which logs every request
#   it serves): before the first read of the test, the file was written
#   exactly 3 times over (the fill and 2 passes), every 4 KiB of it 3
#   times, each pass front to back (no request further back than the 16 MiB
#   the precondition keeps in flight, a new pass twice), then flushed; the
#   report says 2 passes and 2 x the file's bytes.
# - --warmup steady on a loop device throttled by the block cgroup: at a
#   constant 2000 reads a second the warm-up settles as soon as its first
#   window of 5 s is full (within 5 to 8 s); when the throttle changes
#   between 1000 and 4000 reads a second every second, it never settles and
#   the warm-up lasts its limit, and the report says "not settled".
# - sync=flush:8 at Q=16 on a raw loop device, against fio's fsync=8 with
#   the same queue (fio drains its queue before each sync): the device's
#   own flush and write counters (/sys/block/loopN/stat) give the same
#   flushes per write within 5 %, one per 8 writes (medians of alternating
#   rounds; the IOPS are logged). tests/truth-workload.sh checks on
#   slow-fs's log that no write is in flight when a flush arrives.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: FUSE, loop devices and cgroups need root"
dm_tmpdir

# --- Precondition, on slow-fs's request log ---------------------------------
if [ -n "${DM_SLOW_FS:-}" ] && [ -c /dev/fuse ]; then
  mnt="$DM_TMPDIR/slow"
  log="$DM_TMPDIR/requests.log"
  size_mib=64
  dm_slow_fs_mount "$mnt" 20 8 --write-us 5 --log-requests "$log"
  dm_run "$DM_TMPDIR/prec.json" "$DM_TMPDIR/prec.err" --precondition 2 --tests RND4K_Q8T1 \
    --modes read --count 1 --duration 1 --warmup 0 --interval 0 --size "${size_mib}MiB" \
    --no-history --quiet --format json --output "$DM_TMPDIR/prec.json" "$mnt"
  dm_check "diskmeter-cli --precondition 2 exits 0 (got $DM_RC)" test "$DM_RC" = 0
  cat "$mnt/.served" >/dev/null # flushes the log
  dm_check "the device's log: the file written 3 times, in order, flushed, before the first read" \
    python3 - "$log" "$DM_TMPDIR/prec.json" "$((size_mib << 20))" <<'PY'
import json, sys
log, rep, size = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
reqs = sorted((int(a), o, int(off), int(n)) for o, off, n, a, d in
              (line.split() for line in open(log)))
first_read = next(i for i, r in enumerate(reqs) if r[1] == "R")
before = reqs[:first_read]
writes = [r for r in before if r[1] == "W"]
bad = []
total = sum(r[3] for r in writes)
print("# %d write requests, %d bytes before the first read (file %d bytes)"
      % (len(writes), total, size))
if total != 3 * size:
    bad.append("%d bytes written before the test, not 3 x %d" % (total, size))
count = [0] * (size // 4096)
for _, _, off, n in writes:
    for k in range(off // 4096, (off + n + 4095) // 4096):
        if k < len(count):
            count[k] += 1
if min(count) != 3 or max(count) != 3:
    bad.append("some 4 KiB written %d..%d times, not 3" % (min(count), max(count)))
# A write's pass is how many times its block was written before it: at a
# pass's end up to 16 writes are in flight, and the device may see the next
# pass's first writes among them (ASan's build did, and counting drops to the
# file's start then saw 3 wraps for 2). Within a pass, no write may arrive
# further behind the furthest one so far than the queue's 16 MiB.
seen, passes = {}, {}
for r in writes:
    k = seen.get(r[2], 0)
    seen[r[2]] = k + 1
    passes.setdefault(k, []).append(r[2])
back = 0
for offs in passes.values():
    top = 0
    for off in offs:
        back, top = max(back, top - off), max(top, off)
print("# %d passes; the furthest step back within a pass: %d bytes" % (len(passes), back))
if len(passes) != 3:
    bad.append("%d passes over the file, not 3" % len(passes))
if back > 16 << 20:
    bad.append("a write %d bytes behind the one before: not sequential" % back)
if not any(r[1] in "FD" for r in before[before.index(writes[-1]):]):
    bad.append("no flush between the last precondition write and the first read")
s, io = rep["settings"], rep["io_totals"]
print("# report: precondition %s, %s bytes in %s s" % (s.get("precondition"),
      io.get("precondition_bytes"), io.get("precondition_s")))
if s.get("precondition") != 2 or io.get("precondition_bytes") != 2 * size \
        or not io.get("precondition_s", 0) > 0:
    bad.append("the report does not say 2 passes of %d bytes and their time" % size)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
  dm_slow_fs_unmount "$mnt" || dm_check "slow-fs ended cleanly" false
else
  dm_skip_part "precondition: slow-fs was not built or there is no FUSE"
fi

# --- Steady warm-up, on a throttled loop device -----------------------------
dm_need_loop
dm_loop_create 256
dm_mkfs_mount

# steady NAME WARMUP: one measured run of 1 s after a steady warm-up, in
# the cgroup; $! of the subshell is diskmeter-cli's.
steady ()
{
  printf '# $ diskmeter-cli --warmup %s --tests RND4K_Q8T1 --modes read (throttled)\n' "$2"
  ( echo "$BASHPID" > "$DM_CGROUP/cgroup.procs" || exit 125
    exec "$DM_CLI" --warmup "$2" --tests RND4K_Q8T1 --modes read --count 1 --duration 1 \
      --interval 0 --size 64MiB --no-history --quiet --format json \
      --output "$DM_TMPDIR/$1.json" "$DM_MNT" 2> "$DM_TMPDIR/$1.err" ) &
  pid=$!
  dm_track_pid "$pid"
}

if dm_have_cgroup; then
  dm_cgroup_create
  dm_throttle read_iops 2000
  steady even "steady:10:20"
  wait "$pid"; rc=$?; dm_untrack_pid "$pid"
  dm_check "steady at a constant 2000 IOPS exits 0 (got $rc)" test "$rc" = 0
  took=$(dm_json "$DM_TMPDIR/even.json" 'j["results"][0]["warmup"]["took_s"]')
  settled=$(dm_json "$DM_TMPDIR/even.json" 'j["results"][0]["warmup"]["settled"]')
  spread=$(dm_json "$DM_TMPDIR/even.json" 'j["results"][0]["warmup"]["spread_percent"]')
  dm_log "constant throttle: settled=$settled after $took s, spread $spread %"
  dm_check "a device of one speed: the warm-up settles" test "$settled" = True
  dm_check "and ends as its first window is full: 5 to 8 s, not the 20 s limit ($took s)" \
    python3 -c 'import sys; sys.exit(0 if 5 - 1e-3 <= float(sys.argv[1]) <= 8 else 1)' "$took"

  steady wobbly "steady:10:10"
  # The device's speed changes every second while the CLI runs.
  fast=1
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$fast" = 1 ]; then dm_throttle read_iops 4000; fast=0
    else dm_throttle read_iops 1000; fast=1; fi
    sleep 1
  done
  wait "$pid"; rc=$?; dm_untrack_pid "$pid"
  dm_unthrottle
  dm_check "steady on a device whose speed changes exits 0 (got $rc)" test "$rc" = 0
  took=$(dm_json "$DM_TMPDIR/wobbly.json" 'j["results"][0]["warmup"]["took_s"]')
  settled=$(dm_json "$DM_TMPDIR/wobbly.json" 'j["results"][0]["warmup"]["settled"]')
  spread=$(dm_json "$DM_TMPDIR/wobbly.json" 'j["results"][0]["warmup"]["spread_percent"]')
  dm_log "changing throttle: settled=$settled after $took s, spread $spread %"
  dm_check "a device whose speed changes: the warm-up does not settle" test "$settled" = False
  dm_check "and lasts its limit of 10 s ($took s)" \
    python3 -c 'import sys; sys.exit(0 if 10 - 1e-3 <= float(sys.argv[1]) <= 10.3 else 1)' "$took"
  "$DM_CLI" show "$DM_TMPDIR/wobbly.json" > "$DM_TMPDIR/wobbly.txt"
  dm_check "the text says NOT SETTLED within 10 sec" grep -q "NOT SETTLED within 10.0 sec" \
    "$DM_TMPDIR/wobbly.txt"
else
  dm_skip_part "steady warm-up: no block cgroup to throttle the loop device"
fi

# --- sync=flush:8 at Q=16 against fio's fsync=8, on a raw loop device ------
# On the device itself, not a file system: every fsync is one flush at the
# device and nothing else writes (an ext4 file's first fsyncs also commit
# its journal, which fio's new file pays and Diskmeter's filled one not).
# The device counts a flush among its writes too (field 5), so a write is
# field 5 less field 16. fio's libaio engine: its io_uring engine (3.33)
# sends far more fsyncs than one per 8 writes (about one per 2 here).
if command -v fio >/dev/null; then
  dm_loop_create 128
  stat_of () { awk '{print $5, $16}' "/sys/block/$DM_LOOP_NAME/stat"; }
  rounds=()
  for round in 1 2 3; do
    order="dm fio"
    [ $((round % 2)) = 0 ] && order="fio dm"
    for tool in $order; do
      read -r w0 f0 < <(stat_of)
      if [ "$tool" = dm ]; then
        "$DM_CLI" --workload "name=f;block=4K;read=0;random=100;sync=flush:8;qd=16" --count 1 \
          --duration 2 --warmup 0.5 --interval 0 --size 64MiB --destroy-data-on "$DM_LOOP" \
          --no-history --quiet --format json --output "$DM_TMPDIR/dm.json" "$DM_LOOP" \
          || dm_die "diskmeter-cli failed on $DM_LOOP"
        iops=$(dm_json "$DM_TMPDIR/dm.json" 'j["results"][0]["iops"]')
      else
        fio --name=f --filename="$DM_LOOP" --size=64M --rw=randwrite --bs=4k \
          --ioengine=libaio --iodepth=16 --direct=1 --fsync=8 --time_based --runtime=2 \
          --ramp_time=0.5 --output-format=json --output="$DM_TMPDIR/fio.json" >/dev/null 2>&1 \
          || dm_die "fio failed on $DM_LOOP"
        iops=$(dm_json "$DM_TMPDIR/fio.json" 'j["jobs"][0]["write"]["iops"]')
      fi
      read -r w1 f1 < <(stat_of)
      dm_log "round $round $tool: $iops IOPS, device: $((w1 - w0)) writes, $((f1 - f0)) flushes"
      rounds+=("$tool $iops $((w1 - w0)) $((f1 - f0))")
    done
  done
  read -r dm_fpw fio_fpw dm_iops fio_iops < <(printf '%s\n' "${rounds[@]}" | python3 -c '
import statistics, sys
r = {"dm": [], "fio": []}
for line in sys.stdin:
    t, iops, w, f = line.split()
    r[t].append((float(iops), int(f) / max(1, int(w) - int(f))))
m = lambda t, k: statistics.median(x[k] for x in r[t])
print(m("dm", 1), m("fio", 1), m("dm", 0), m("fio", 0))')
  dm_within "flushes per write the device saw: Diskmeter against fio's fsync=8 (medians)" \
    "$dm_fpw" "$fio_fpw" 5
  dm_within "flushes per write: one per 8 writes" "$dm_fpw" 0.125 5
  # fio sends its fsync beside the writes in flight, Diskmeter after they
  # are done, and on a RAM disk the CPU is the limit: the IOPS are logged.
  dm_log "sync=flush:8 Q=16 IOPS: Diskmeter $dm_iops, fio $fio_iops (medians)"
else
  dm_skip_part "flush:8 against fio: fio is not installed"
fi

dm_finish
