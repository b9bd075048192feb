#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli capture against what the kernel and fio say was done:
# - on an idle loop device a capture adds no request (the device's own
#   counters do not move) and leaves no trace instance or mount behind;
# - while fio runs a job of known shape on it (sizes 4K/70 % 64K/30 % by
#   request, 70 % reads, 80 % random, iodepth 4, 500 IOPS), the capture,
#   ended by Ctrl-C, gives fio's request counts, read share, size split,
#   random share and rate within 3 % (sizes within 1 point), the kernel's
#   own counters (/sys/block/loopN/stat) the same requests, and blktrace
#   (blkparse) the same requests where this kernel lets it read its relay
#   files, bpftrace where it does not (a kernel in lockdown). Latency, outstanding requests at issue and interarrival time
#   match a second, independent reading of the same tracepoints (a trace
#   instance of this test's own, its text parsed here) within 3 %;
# - the profile file it writes loads, and diskmeter-cli running it while a
#   second capture runs shows the same shape within 5 %;
# - a user without root gets the counters' means, said to be so, with the
#   same requests, and a refused --profile-file.
# fio's rate_iops is counted in its smallest block (4 KiB): 500 I/Os a
# second of this split (22,323 bytes each on average) are rate_iops=1908,818
# for reads and writes, 350 and 150 of them. norandommap keeps fio from
# trimming a request to the part of the disk it has not touched yet, so
# every request is 4K or 64K.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
command -v fio >/dev/null || dm_die "fio is missing (build-aux/dev installs it)"
dm_tmpdir
T="$DM_TMPDIR"
dm_loop_create 256

tracing_mounted () { grep -q ' tracefs ' /proc/self/mounts; }
stat_ios () { awk '{ print $1, $5 }' "/sys/block/$DM_LOOP_NAME/stat"; }

# Waits until the capture in the background says it is capturing.
wait_capturing ()
{
  for _ in $(seq 100); do
    grep -q 'capturing' "$1" && return 0
    sleep 0.05
  done
  return 1
}

# --- Refusals: one line each ---------------------------------------------------

dm_run "$T/u.out" "$T/u.err" capture "$DM_LOOP"
dm_check "without --for: bad usage (2), one line" test "$DM_RC" = 2
dm_check "  saying so" grep -q "^diskmeter-cli capture: --for DURATION" "$T/u.err"
dm_run "$T/u.out" "$T/u.err" capture "$T/nothing-here" --for 1
dm_check "a target that is not there: 1 and one line" test "$DM_RC" = 1
dm_check "  saying so" dm_one_line_error "$T/u.err"
dm_run "$T/u.out" "$T/u.err" capture /dev/shm --for 1
dm_check "memory (tmpfs) has no disk to capture: 1 and one line" test "$DM_RC" = 1
dm_check "  saying so" grep -q 'lives in memory' "$T/u.err"

# --- Nothing left behind --------------------------------------------------------

mounted_before=no
tracing_mounted && mounted_before=yes
dm_run "$T/first.json" "$T/first.err" capture "$DM_LOOP" --for 1 --format json
dm_check "a capture ends with 0" test "$DM_RC" = 0
dm_check "it read the kernel's events" test "$(dm_json "$T/first.json" 'j["capture"]["from"]')" = events
mounted_after=no
tracing_mounted && mounted_after=yes
dm_check "tracefs is mounted as before ($mounted_before)" test "$mounted_before" = "$mounted_after"

# From here on tracefs stays mounted for this test's own trace instance,
# which records the same tracepoints as text, with the program of each.
if ! tracing_mounted; then
  mount -t tracefs tracefs /sys/kernel/tracing || dm_die "cannot mount tracefs"
  dm_track_mount /sys/kernel/tracing
fi
trace="$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)"
dm_check "no Diskmeter trace instance is left" \
  test -z "$(dm_trace_leftovers "$trace")"
inst="$trace/instances/truth-capture-$$"
cleanup_inst ()
{
  [ -d "$inst" ] || return 0
  echo 0 > "$inst/events/block/block_rq_issue/enable"
  echo 0 > "$inst/events/block/block_rq_complete/enable"
  rmdir "$inst"
}
trap 'rc=$?; cleanup_inst; (exit $rc); _dm_on_exit' EXIT
mkdir "$inst" || dm_die "cannot make the trace instance $inst"
IFS=: read -r ma mi < "/sys/block/$DM_LOOP_NAME/dev"
echo 16384 > "$inst/buffer_size_kb"
echo mono > "$inst/trace_clock" # the capture's clock: its seconds line up
for e in block_rq_issue block_rq_complete; do
  echo "dev == $(( (ma << 20) | mi ))" > "$inst/events/block/$e/filter"
  echo 1 > "$inst/events/block/$e/enable"
done

# --- Idle: no load of its own -------------------------------------------------------
# Other programs may read any disk now and then (a tool probing every
# disk's label): the capture sees theirs, while none is its own.

read -r r0 w0 < <(stat_ios)
dm_run "$T/idle.json" "$T/idle.err" capture "$DM_LOOP" --for 2 --format json
read -r r1 w1 < <(stat_ios)
own="$(grep -c 'block_rq_issue:.*\[diskmeter-cli\]' "$inst/trace")"
others="$(grep 'block_rq_issue:' "$inst/trace" | grep -v '\[diskmeter-cli\]' | grep -o '\[[^]]*\]$' | sort | uniq -c | tr -s ' \n' ' ')"
dm_check "an idle capture issues no request of its own (others': ${others:-none})" test "$own" = 0
dm_check "it saw each request the disk's counters count ($r0/$w0 -> $r1/$w1)" test \
  "$(dm_json "$T/idle.json" 'j["capture"]["directions"]["all"]["requests"]')" = \
  "$(( r1 - r0 + w1 - w0 ))"
echo > "$inst/trace"

# --- fio's known job under capture, blktrace and a text trace -------------------

# Where blktrace cannot, bpftrace (BPF, not debugfs) counts the requests of
# this disk at the same tracepoint, a program other than the capture's
# reader and the text trace. It runs over the round trip's capture, not
# the first: a BPF program at the tracepoint puts its own time between
# the text trace's stamp and the capture's, 1.6-2.7 us of a RAM disk's
# 28 us, which the first capture's latency check would see.
bp=""
bpftrace_start ()
{
  local kdev=$(( (${DM_LOOP_DEV%:*} << 20) | ${DM_LOOP_DEV#*:} ))
  bpftrace -e "tracepoint:block:block_rq_issue /args->dev == $kdev && args->nr_sector > 0/
               { @requests = count(); }" > "$T/bp.out" 2> "$T/bp.err" &
  bp=$!
  dm_track_pid "$bp"
  for _ in $(seq 100); do
    grep -q 'Attaching' "$T/bp.out" 2>/dev/null && break
    kill -0 "$bp" 2>/dev/null || break
    sleep 0.2
  done
  grep -q 'Attaching' "$T/bp.out" || dm_die "bpftrace did not attach: $(head -c 300 "$T/bp.err")"
  sleep 0.5
}
bpftrace_stop ()
{
  kill -INT "$bp"
  wait "$bp"
  dm_untrack_pid "$bp"
}

# blktrace needs debugfs; the kernel may refuse it its relay files.
bt=""
if command -v blktrace >/dev/null && command -v blkparse >/dev/null; then
  if ! mountpoint -q /sys/kernel/debug; then
    mount -t debugfs debugfs /sys/kernel/debug && dm_track_mount /sys/kernel/debug
  fi
  mkdir "$T/bt"
  blktrace -d "$DM_LOOP" -a issue -a complete -D "$T/bt" > "$T/bt.log" 2>&1 &
  bt=$!
  dm_track_pid "$bt"
  sleep 1
  if ! kill -0 "$bt" 2>/dev/null || grep -qi 'fail' "$T/bt.log"; then
    why="$(grep -i -m1 'fail' "$T/bt.log" || echo 'it ended at once')"
    # A kernel in lockdown (integrity) refuses debugfs files that map
    # memory, as blktrace's relay files do, even to root.
    grep -q 'Operation not permitted' "$T/bt.log" \
      && why="$why (the kernel's lockdown keeps debugfs relay files from root)"
    dm_log "blktrace: $why; bpftrace counts the requests instead"
    kill -INT "$bt" 2>/dev/null
    wait "$bt" 2>/dev/null
    dm_untrack_pid "$bt"
    bt=""
  fi
else
  dm_log "blktrace and blkparse are not installed; bpftrace counts the requests instead"
fi
fio_job=(--name=truth-capture --filename="$DM_LOOP" --bssplit=4k/70:64k/30 --rw=randrw
         --rwmixread=70 --percentage_random=80 --iodepth=4 --rate_iops=1908,818 --direct=1
         --norandommap=1 --ioengine=io_uring --output-format=json)
read -r r0 w0 < <(stat_ios)
"$DM_CLI" capture "$DM_LOOP" --for 60 --format json --output "$T/cap.json" \
  --profile-file "$T/cap.ini" 2> "$T/cap.err" &
cap=$!
dm_track_pid "$cap"
wait_capturing "$T/cap.err" || dm_die "the capture did not start: $(head -c 300 "$T/cap.err")"
fio "${fio_job[@]}" --runtime=10 --time_based > "$T/fio.json" || dm_die "fio failed"
sleep 0.3
kill -INT "$cap"
wait "$cap"
cap_rc=$?
dm_untrack_pid "$cap"
read -r r1 w1 < <(stat_ios)
echo 0 > "$inst/tracing_on"
if [ -n "$bt" ]; then
  kill -INT "$bt"
  wait "$bt"
  dm_untrack_pid "$bt"
fi
sed 's/^/#   capture: /' "$T/cap.err"
dm_check "Ctrl-C ends the capture with 0" test "$cap_rc" = 0
dm_check "it says it was ended by Ctrl-C" \
  test "$(dm_json "$T/cap.json" 'j["capture"]["interrupted"]')" = True

# What fio did, what the capture saw, what the text trace and blkparse saw.
python3 - "$T/fio.json" "$T/cap.json" "$inst/trace" "$T/bt" "$DM_LOOP_NAME" \
  "$((r1 - r0))" "$((w1 - w0))" > "$T/figures" <<'PY' || dm_die "cannot read the figures"
import json, os, re, subprocess, sys
fio_path, cap_path, trace_path, bt_dir, name, stat_r, stat_w = sys.argv[1:8]
f = json.load(open(fio_path))["jobs"][0]
c = json.load(open(cap_path))["capture"]
d = c["directions"]
out = {}
fr, fw = f["read"]["total_ios"], f["write"]["total_ios"]
n = fr + fw
big = (f["read"]["io_bytes"] + f["write"]["io_bytes"] - 4096 * n) / (65536 - 4096)
out["fio_reads"], out["cap_reads"], out["stat_reads"] = fr, d["read"]["requests"], int(stat_r)
out["fio_writes"], out["cap_writes"], out["stat_writes"] = fw, d["write"]["requests"], int(stat_w)
out["fio_read_pct"], out["cap_read_pct"] = 100.0 * fr / n, c["read_percent"]
sizes = d["all"]["sizes"]  # buckets <=512, 1K, 2K, 4K (3) ... 64K (7)
out["fio_4k_pct"], out["cap_4k_pct"] = 100.0 * (n - big) / n, 100.0 * sizes[3] / d["all"]["requests"]
out["fio_64k_pct"], out["cap_64k_pct"] = 100.0 * big / n, 100.0 * sizes[7] / d["all"]["requests"]
out["cap_random_pct"] = c["random_percent"]
out["fio_iops"] = n / (f["job_runtime"] / 1000.0)
out["cap_iops_p95"] = c["iops"]["p95"]
out["cap_latency_us"] = d["all"]["latency"]["mean_us"]
out["cap_depth_mean"] = d["all"]["depth_mean"]
out["cap_interarrival_us"] = d["all"]["interarrival"]["mean_us"]
# The text trace: "...  1557.518908: block_rq_issue: 7,0 R 4096 () 63240 + 8 ...".
ev = re.compile(r" (\d+\.\d+): (block_rq_issue|block_rq_complete): \d+,\d+ (\S+) .*?\) (\d+) \+ (\d+)")
pending, lat, depth, gaps, last, comms, seconds = {}, [], [], [], None, {}, {}
t0, samples = c["monotonic_ns"] / 1e9, c["iops"]["samples"]
for line in open(trace_path):
    m = ev.search(line)
    if not m or int(m.group(5)) == 0 or not re.search("[RW]", m.group(3)):
        continue
    t, sector = float(m.group(1)), int(m.group(4))
    if m.group(2) == "block_rq_issue":
        who = line.rsplit("[", 1)[-1].strip(" ]\n")
        if who != "fio":
            kind = "other_writes" if "W" in m.group(3) else "other_reads"
            comms[kind] = comms.get(kind, 0) + 1
        s = int(t - t0) if t >= t0 else -1
        seconds[s] = seconds.get(s, 0) + 1
        depth.append(len(pending) + 1)
        if last is not None:
            gaps.append(t - last)
        last = t
        pending[sector] = t
    elif sector in pending:
        lat.append(t - pending.pop(sector))
out["trace_requests"] = len(depth)
out["other_reads"] = comms.get("other_reads", 0)
out["other_writes"] = comms.get("other_writes", 0)
per_s = sorted(seconds.get(s, 0) for s in range(samples))
out["trace_iops_p95"] = per_s[-(-95 * samples // 100) - 1]
out["trace_latency_us"] = 1e6 * sum(lat) / len(lat)
out["trace_depth_mean"] = sum(depth) / len(depth)
out["trace_interarrival_us"] = 1e6 * sum(gaps) / len(gaps)
if os.path.isdir(bt_dir) and os.listdir(bt_dir):
    p = subprocess.run(["blkparse", "-i", name, "-D", bt_dir, "-f", "%a %d %n\n", "-q"],
                       capture_output=True, text=True)
    issued = [l.split() for l in p.stdout.splitlines() if l.startswith("D ")]
    out["bt_requests"] = sum(1 for a, rwbs, nr in issued if nr != "0" and re.search("[RW]", rwbs))
for k, v in out.items():
    print(k, v)
PY
fig () { awk -v k="$1" '$1 == k { print $2 }' "$T/figures"; }
sed 's/^/# /' "$T/figures"

# Every request of fio's lies inside the capture (it began before fio's
# first and ended after its last): the counts agree exactly, once the
# requests other programs made meanwhile (the text trace names them: a
# label probe of every disk by some tool) are taken out; 0.2 % is left
# for the one or two fio had in flight when its time ran out.
dm_log "other programs' requests meanwhile: $(fig other_reads) reads, $(fig other_writes) writes"
dm_within "reads: the capture vs fio" "$(( $(fig cap_reads) - $(fig other_reads) ))" \
  "$(fig fio_reads)" 0.2
dm_within "writes: the capture vs fio" "$(( $(fig cap_writes) - $(fig other_writes) ))" \
  "$(fig fio_writes)" 0.2
dm_within "reads: the capture vs the kernel's counters" "$(fig cap_reads)" "$(fig stat_reads)" 0.2
dm_within "writes: the capture vs the kernel's counters" "$(fig cap_writes)" "$(fig stat_writes)" 0.2
dm_within "requests: the capture vs the text trace" \
  "$(( $(fig cap_reads) + $(fig cap_writes) ))" "$(fig trace_requests)" 0.2
if [ -n "$(fig bt_requests)" ]; then
  dm_within "requests: the capture vs blkparse" \
    "$(( $(fig cap_reads) + $(fig cap_writes) ))" "$(fig bt_requests)" 0.2
fi
dm_within "read share vs fio's" "$(fig cap_read_pct)" "$(fig fio_read_pct)" 3
points () { python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) <= 1 else 1)' "$1" "$2"; }
dm_check "4K share $(fig cap_4k_pct) within 1 point of fio's $(fig fio_4k_pct)" \
  points "$(fig cap_4k_pct)" "$(fig fio_4k_pct)"
dm_check "64K share $(fig cap_64k_pct) within 1 point of fio's $(fig fio_64k_pct)" \
  points "$(fig cap_64k_pct)" "$(fig fio_64k_pct)"
# Binomial spread of 80 % over ~5000 requests: 0.6 points, a quarter of 3 %.
dm_within "random share vs fio's percentage_random" "$(fig cap_random_pct)" 80 3
dm_within "p95 IOPS of the 1 s samples vs the text trace's" "$(fig cap_iops_p95)" \
  "$(fig trace_iops_p95)" 3
dm_within "latency vs the text trace" "$(fig cap_latency_us)" "$(fig trace_latency_us)" 3
dm_within "outstanding at issue vs the text trace" "$(fig cap_depth_mean)" "$(fig trace_depth_mean)" 3
dm_within "interarrival vs the text trace" \
  "$(fig cap_interarrival_us)" "$(fig trace_interarrival_us)" 3

# --- The profile: it loads, and runs the same shape -------------------------------

sed 's/^/#   profile: /' "$T/cap.ini"
if [ -z "$bt" ]; then
  if command -v bpftrace >/dev/null; then
    bpftrace_start
  else
    dm_skip_part "blktrace cannot read its relay files here and bpftrace is not installed (build-aux/dev installs it)"
  fi
fi
"$DM_CLI" capture "$DM_LOOP" --for 60 --format json --output "$T/again.json" 2> "$T/again.err" &
cap=$!
dm_track_pid "$cap"
wait_capturing "$T/again.err" || dm_die "the second capture did not start"
dm_run "$T/run.json" "$T/run.err" --profile-file "$T/cap.ini" "$DM_LOOP" \
  --destroy-data-on "$DM_LOOP" --size 256MiB --warmup 0 --count 1 --duration 8 --interval 0 \
  --no-history --format json --quiet
sleep 0.3
kill -INT "$cap"
wait "$cap"
dm_untrack_pid "$cap"
dm_check "diskmeter-cli --profile-file runs the captured profile" test "$DM_RC" = 0
if [ -n "$bp" ]; then
  bpftrace_stop
  dm_within "requests again: the capture vs bpftrace" \
    "$(dm_json "$T/again.json" 'j["capture"]["directions"]["all"]["requests"]')" \
    "$(awk '$1 == "@requests:" { print $2 }' "$T/bp.out")" 0.2
fi
for k in read_percent random_percent; do
  dm_within "$k again vs the first capture" "$(dm_json "$T/again.json" "j['capture']['$k']")" \
    "$(dm_json "$T/cap.json" "j['capture']['$k']")" 5
done
share4k='100.0 * j["capture"]["directions"]["all"]["sizes"][3] / j["capture"]["directions"]["all"]["requests"]'
dm_within "4K share again vs the first capture" "$(dm_json "$T/again.json" "$share4k")" \
  "$(dm_json "$T/cap.json" "$share4k")" 5
# The profile offers the first capture's p95 as its rate; of a handful of
# seconds the p95 is their peak, where a rate limiter's catching up after
# a slow start shows, so the rate run is the median second.
rate="$(awk -F' = ' '$1 == "rate" { print $2 + 0 }' "$T/cap.ini")"
dm_within "median IOPS again vs the profile's rate" \
  "$(dm_json "$T/again.json" 'j["capture"]["iops"]["p50"]')" "$rate" 5
qd="$(awk -F' = ' '$1 == "qd" { print $2 }' "$T/cap.ini")"
dm_check "outstanding at issue again rounds to the profile's qd = $qd" test \
  "$(dm_json "$T/again.json" 'round(j["capture"]["depth_mean"])')" = "$qd"

# --- show reprints a saved capture -------------------------------------------------

dm_run "$T/shown.txt" "$T/shown.err" show "$T/cap.json"
dm_check "show prints a saved capture" grep -q '^Random  *[0-9.]* %' "$T/shown.txt"
dm_run "$T/shown.json" "$T/shown.err" show "$T/cap.json" --format json
dm_check "show --format json gives its figures back" test \
  "$(dm_json "$T/shown.json" 'j["capture"]["random_percent"]')" = \
  "$(dm_json "$T/cap.json" 'j["capture"]["random_percent"]')"

# --- Without root: the counters' means, said so ----------------------------------

dm_cli_for_user 65534 65534
echo > "$inst/trace"
echo 1 > "$inst/tracing_on"
setpriv --reuid=65534 --regid=65534 --clear-groups "$DM_USER_CLI" capture "$DM_LOOP" --for 60 \
  --format json > "$T/user.json" 2> "$T/user.err" &
cap=$!
dm_track_pid "$cap"
wait_capturing "$T/user.err" || dm_die "the user's capture did not start: $(head -c 300 "$T/user.err")"
fio "${fio_job[@]}" --runtime=3 --time_based > "$T/fio-user.json" || dm_die "fio failed"
sleep 0.3
kill -INT "$cap"
wait "$cap"
dm_untrack_pid "$cap"
echo 0 > "$inst/tracing_on"
sed 's/^/#   user: /' "$T/user.err"
# Requests other programs made meanwhile, as the text trace names them.
read -r other_r other_w < <(grep 'block_rq_issue:' "$inst/trace" | grep -v '\[fio\]$' \
  | awk '/ [A-Z]* 0 \(/ { next } / [A-Z]*W[A-Z]* [0-9]+ \(/ { w++; next } { r++ }
         END { print r + 0, w + 0 }')
dm_log "other programs' requests meanwhile: $other_r reads, $other_w writes"
dm_check "a user's capture falls back to the counters" \
  test "$(dm_json "$T/user.json" 'j["capture"]["from"]')" = counters
dm_check "and says what they cannot tell" grep -q 'no size, seek, outstanding, latency' "$T/user.err"
fio_n="$(dm_json "$T/fio-user.json" 'sum(j["jobs"][0][d]["total_ios"] for d in ("read", "write"))')"
dm_within "the user's capture counts fio's requests" \
  "$(dm_json "$T/user.json" "j['capture']['counters']['reads'] + j['capture']['counters']['writes'] - $other_r - $other_w")" \
  "$fio_n" 0.5
dm_within "and its read share" \
  "$(dm_json "$T/user.json" "100.0 * (j['capture']['counters']['reads'] - $other_r) / (j['capture']['counters']['reads'] + j['capture']['counters']['writes'] - $other_r - $other_w)")" \
  "$(dm_json "$T/fio-user.json" '100.0 * j["jobs"][0]["read"]["total_ios"] / sum(j["jobs"][0][d]["total_ios"] for d in ("read", "write"))')" 3
setpriv --reuid=65534 --regid=65534 --clear-groups "$DM_USER_CLI" capture "$DM_LOOP" --for 5 \
  --profile-file /dev/null > /dev/null 2> "$T/refused.err"
dm_check "a user's --profile-file is refused at once with 1" test $? = 1
dm_check "with a reason" grep -q 'profile-file needs the kernel' "$T/refused.err"

dm_finish
