#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Workload rows (--workload) of diskmeter-cli.exe, the iocp backend under
# Wine, against what the device was asked, request by request, as
# truth-workload.sh holds the Linux build: tests/slow-fs.c (built for the
# build machine, mounted on Linux and seen by Wine as a folder of Z:) logs
# each request it serves and keeps every write, and each feature is judged
# by arithmetic on that log, not by Diskmeter's own figures:
# - a block-size split 4K/50,8K/30,64K/20: each size's share of the
#   requests within 1 point;
# - random=60: 60 % of the requests do not continue the one before, within
#   2 points;
# - hot:10/90: the file's first 10 % gets 90 % of the requests, within 2
#   points;
# - rate=1000 on a device far faster: requests arrive at 1000/s within 1 %,
#   and the report says it was met (Wine does each I/O in the calling
#   thread, at 0.3-0.6 ms each on a busy machine: one thread of QD 4 did
#   not always keep up with 2000/s, and then the device was not asked it);
# - sync=flush:8: FlushFileBuffers, which Wine turns into fsync(2), reaches
#   the device as one fsync (F) per 8 writes, and the report counts them;
# - compress=50 and dedupe=30, from the writes the device kept (zlib within
#   5 points, repeated 4 KiB blocks within 5 points);
# - affinity=spread: while the run goes, each worker thread is pinned to a
#   CPU of its own (Wine turns SetThreadAffinityMask into
#   sched_setaffinity, which /proc shows); affinity=none pins none;
# - sync=dsync (FILE_FLAG_WRITE_THROUGH) on a loop device: the block
#   layer's flush counter grows with the writes. Wine 8 opens the file
#   without O_DSYNC or O_SYNC (nor O_DIRECT for FILE_FLAG_NO_BUFFERING), so
#   write-through never reaches a device under Wine: where the counter does
#   not move, that one check is skipped with the figures, and Linux's
#   diskmeter-cli on the same device shows that the device does count them;
# - one shape (the split with a hot spot, 8 threads) on a slow-fs of 1000
#   reads a second: the IOPS of the Windows build within 5 % of Linux's
#   diskmeter-cli on the same device (DM_LINUX_CLI, which
#   build-aux/test-windows passes from the Linux build when there is one).
# Under Wine each thread holds one I/O at a time (windows-cli.sh shows
# why), so the shapes judged here do not depend on the queue depth.

. "$(dirname "$0")/lib.sh"

dm_need_wine
[ -n "$wine" ] || dm_skip "slow-fs is a FUSE device mounted on Linux: this test runs under Wine only"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

# A Unix path as the Windows program sees it: Wine maps / to Z:.

dm_tmpdir
mnt="$DM_TMPDIR/fast"
log="$DM_TMPDIR/requests.log"
kept="$DM_TMPDIR/writes.bin"
size_mib=32
dm_slow_fs_mount "$mnt" 20 8 --write-us 20 --log-requests "$log" --keep-writes "$kept"

# run NAME WORKLOAD [DURATION MOUNT LOG CLI]: one measured run (3 s: Wine's
# time per I/O on a busy machine left 2 s runs short of the requests the
# judge needs for its tolerances); keeps the
# log lines and the kept writes it caused as NAME.log and NAME.bin. CLI is
# "win" (the .exe under Wine, the default) or a Linux diskmeter-cli.
run ()
{
  local name="$1" wl="$2" dur="${3:-3}" m="${4:-$mnt}" l="${5:-$log}" cli="${6:-win}"
  local before after kb ka out target
  cat "$m/.served" >/dev/null # flushes the log
  before=$(wc -l < "$l")
  kb=$(stat -c %s "$kept" 2>/dev/null || echo 0)
  out="$DM_TMPDIR/$name.json" target="$m"
  if [ "$cli" = win ]; then
    out=$(winpath "$out") target=$(winpath "$m")
  fi
  "$cli" --workload "name=$name;$wl" --count 1 --duration "$dur" --warmup 0 --interval 0 \
    --size "${size_mib}MiB" --no-history --quiet --format json --output "$out" "$target" \
    > "$DM_TMPDIR/$name.out" 2>&1 \
    || dm_die "diskmeter-cli --workload $wl failed: $(head -c 500 "$DM_TMPDIR/$name.out")"
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
  python3 "$DM_SOURCE_ROOT/tests/workload-judge.py" "$1" "$DM_TMPDIR" "$2" "$((size_mib << 20))" --backend iocp
}

dm_check "iocp: block-size split 4K/50,8K/30,64K/20, each size's share within 1 point" \
  dm_sampled 3 "$DM_TMPDIR/split.log" run split "block=4K/50,8K/30,64K/20;read=100;qd=1;threads=2" 5 -- judge split split
dm_check "iocp: random=60, 60 % of the requests jump, within 2 points" \
  dm_sampled 3 "$DM_TMPDIR/random.log" run random "block=4K;read=100;random=60;qd=1" -- judge random random
dm_check "iocp: hot:10/90, the first 10 % of the file gets 90 % of the I/O, within 2 points" \
  dm_sampled 3 "$DM_TMPDIR/hot.log" run hot "block=4K;read=100;distribution=hot:10/90;qd=4" -- judge hot hot
run rate "block=4K;read=100;rate=1000;qd=4"
dm_check "iocp: rate=1000 on a faster device, 1000 requests a second, within 1 %" judge rate rate
run plain "block=4K;read=0;qd=1" 1
dm_check "iocp: plain writes ask the device for no flush" judge plain plain
run flush "block=4K;read=0;sync=flush:8;qd=1"
dm_check "iocp: sync=flush:8, FlushFileBuffers reaches the device as one fsync per 8 writes" judge flush flush
run compress "block=4K;read=0;compress=50;qd=4"
dm_check "iocp: compress=50, zlib shrinks the written data to 50 %, within 5 points" judge compress compress
run dedupe "block=4K;read=0;dedupe=30;qd=4"
dm_check "iocp: dedupe=30, 30 % of the 4 KiB blocks repeat another, within 5 points" judge dedupe dedupe

# pinned AFFINITY THREADS: runs a read row in the background and, a second
# in, prints the CPU of each of the process's threads that is pinned to
# exactly one, one a line, as /proc shows them.
pinned ()
{
  local pid t cpus
  # Not through win: in the background a function is a subshell, and
  # $! would name it, not Wine's process.
  "$wine" "$DM_CLI" --workload "name=pin;block=4K;read=100;qd=1;threads=$2;affinity=$1" --count 1 --duration 3 \
    --warmup 0 --interval 0 --size 16MiB --no-history --quiet --format json \
    --output "$(winpath "$DM_TMPDIR/pin-$1.json")" "$(winpath "$mnt")" > "$DM_TMPDIR/pin.out" 2>&1 &
  pid=$!
  sleep 1.5
  for t in /proc/"$pid"/task/*; do
    cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t/status" 2>/dev/null)
    case "$cpus" in *[-,]* | "") ;; *) echo "$cpus" ;; esac
  done
  wait "$pid" || echo "exit $?"
}
ncpu=$(nproc)
want=$((ncpu < 2 ? ncpu : 2))
spread=$(pinned spread "$want" | sort)
dm_log "affinity=spread, threads=$want on $ncpu CPUs: threads pinned to CPUs $(echo $spread)"
dm_check "iocp: affinity=spread pins each of the $want workers to a CPU of its own" \
  test "$(echo $spread)" = "$(seq -s ' ' 0 $((want - 1)))"
none=$(pinned none "$want")
if [ "$ncpu" -gt 1 ]; then
  dm_check "iocp: affinity=none pins no thread" test -z "$none"
fi
dm_check "iocp: the spread run's report is complete and says affinity=spread" python3 -c '
import json, sys
x = json.load(open(sys.argv[1], encoding="utf-8"))["results"][0]
sys.exit(not (x["status"] == "complete" and "affinity=spread" in x["workload"]))' "$DM_TMPDIR/pin-spread.json"

dm_slow_fs_unmount "$mnt" || dm_check "slow-fs ended cleanly" false

# One shape on a device that serves 1000 reads a second (4 ms each, 4 at
# once): Wine's build against Linux's on the same device. Eight threads of
# one I/O each keep the device's four slots busy on both, so that the
# device sets the pace, not the time Wine adds to each I/O (a tenth of a
# millisecond or more: with only four threads, four slots, Wine's build
# reaches some 10 % less than Linux's). Wine's I/O also passes through
# its one wineserver: at 2000 reads a second it ran 6-9 % under Linux's
# on a busy machine, CPU it did not have, not the engine's pace.
slow="$DM_TMPDIR/slow"
slow_log="$DM_TMPDIR/slow-requests.log"
dm_slow_fs_mount "$slow" 4000 4 --log-requests "$slow_log"
shape="block=4K/50,8K/30,64K/20;read=100;distribution=hot:10/90;qd=1;threads=8"
run shape-win "$shape" 3 "$slow" "$slow_log"
iops () { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["iops"])' "$1"; }
served () # requests a second the device completed, from its log
{
  python3 -c '
import sys
d = sorted(int(l.split()[4]) for l in open(sys.argv[1]) if l[0] == "R")
d = d[len(d) // 10:]
print("%.1f" % ((len(d) - 1) / ((d[-1] - d[0]) / 1e9)))' "$1"
}
win_iops=$(iops "$DM_TMPDIR/shape-win.json")
dm_within "iocp: the split with a hot spot, IOPS against what the device served" \
  "$win_iops" "$(served "$DM_TMPDIR/shape-win.log")" 3
if [ -n "${DM_LINUX_CLI:-}" ] && [ -x "$DM_LINUX_CLI" ]; then
  run shape-linux "$shape" 3 "$slow" "$slow_log" "$DM_LINUX_CLI"
  linux_iops=$(iops "$DM_TMPDIR/shape-linux.json")
  dm_log "backend under Linux: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"])' "$DM_TMPDIR/shape-linux.json")"
  dm_within "the split with a hot spot: iocp under Wine against Linux on the same slow-fs" \
    "$win_iops" "$linux_iops" 5
else
  dm_skip_part "the comparison with Linux: no DM_LINUX_CLI (build-aux/test-windows passes build/app/diskmeter-cli)"
fi
dm_slow_fs_unmount "$slow" || dm_check "slow-fs ended cleanly" false

# sync=dsync on a real block device: the flushes the block layer counted
# (/sys/block/DEV/stat field 16) grow with the writes; plain writes add none.
if [ ! -e /dev/loop-control ] || ! [ -w /dev/shm ]; then
  dm_skip_part "dsync: no loop devices here"
else
  dm_loop_create 256
  dm_mkfs_mount
  sync
  flushes () { awk '{print $16}' "/sys/block/$DM_LOOP_NAME/stat"; }
  wl_run () # NAME WORKLOAD [CLI]
  {
    local out="$DM_TMPDIR/$1.json" target="$DM_MNT" cli="${3:-win}"
    [ "$cli" = win ] && out=$(winpath "$out") target=$(winpath "$DM_MNT")
    "$cli" --workload "name=$1;$2" --count 1 --duration 1 --warmup 0 --interval 0 --size 64MiB \
      --no-history --quiet --format json --output "$out" "$target" > "$DM_TMPDIR/$1.out" 2>&1 \
      || dm_die "diskmeter-cli --workload $2 on $DM_LOOP failed: $(head -c 500 "$DM_TMPDIR/$1.out")"
  }
  ios () { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(sum(x["ios"] for x in r["runs"]))' "$1"; }
  f0=$(flushes); wl_run plainw "block=4K;read=0;qd=1"; f1=$(flushes)
  wl_run dsync "block=4K;read=0;qd=1;sync=dsync"; f2=$(flushes)
  n=$(ios "$DM_TMPDIR/dsync.json")
  dm_log "loop flushes under Wine: plain writes $((f1 - f0)), write-through writes $((f2 - f1)) for $n measured writes"
  dm_check "iocp: plain writes, the device saw (almost) no flushes" test "$((f1 - f0))" -le 3
  dm_check "iocp: the write-through run completed $n writes" test "$n" -gt 100
  if [ "$((f2 - f1))" -ge "$n" ]; then
    dm_check "iocp: write-through, the device saw a flush per write" true
  else
    linux=""
    if [ -n "${DM_LINUX_CLI:-}" ] && [ -x "$DM_LINUX_CLI" ]; then
      f3=$(flushes); wl_run dsync-linux "block=4K;read=0;qd=1;sync=dsync" "$DM_LINUX_CLI"; f4=$(flushes)
      m=$(ios "$DM_TMPDIR/dsync-linux.json")
      linux="; Linux's O_DSYNC on the same device: $((f4 - f3)) flushes for $m writes"
      dm_check "Linux: dsync on the same device, a flush per write (the device counts them)" \
        test "$((f4 - f3))" -ge "$m" -a "$m" -gt 100
    fi
    # Wine drops the flag on its way to the device: what it can show is
    # that the engine asks for it, in its own trace of the file calls.
    dm_log "dsync: $("$wine" --version 2>/dev/null) opens files without O_DSYNC or O_SYNC, so FILE_FLAG_WRITE_THROUGH never reaches the device ($((f2 - f1)) flushes for $n write-through writes$linux)"
    WINEDEBUG=+file win --workload "name=dsync-trace;block=4K;read=0;qd=1;sync=dsync" --count 1 \
      --duration 0.3 --warmup 0 --interval 0 --size 16MiB --no-history --quiet --format json \
      --output "$(winpath "$DM_TMPDIR/dsync-trace.json")" "$(winpath "$DM_MNT")" \
      > /dev/null 2> "$DM_TMPDIR/dsync-trace.log" || dm_die "the traced write-through run failed"
    asked=$(python3 -c '
import re, sys
n = 0
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"trace:file:(ReOpenFile|CreateFileW).*attributes 0x([0-9a-f]+)", line)
    if m and int(m.group(2), 16) & 0x80000000:
        n += 1
print(n)' "$DM_TMPDIR/dsync-trace.log")
    dm_check "iocp: write-through asks the system for FILE_FLAG_WRITE_THROUGH ($asked opens with it, in Wine's +file trace)" \
      test "$asked" -ge 1
  fi
fi
dm_finish
