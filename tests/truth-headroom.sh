#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# --headroom against a device whose answer is arithmetic: tests/slow-fs.c
# serves each read in 2000 us, at most 4 at once, so at any queue of 4 or
# more its maximum is 4 / 2 ms = 2000 IOPS, and a read offered well under
# that waits its service alone. A profile file written as capture writes
# one (4K random reads at Q8, rate = 400) is run with --headroom:
# - the captured rate is reached (400 within 3 %), its p50 is one service
#   time and its p99 is not under one (the device cannot serve faster);
# - the maximum is 4 / (2 ms + how late slow-fs's sleeps ended) less
#   FUSE's own time per request, the ratio
#   is that maximum over 400 (5x), and the points offer the rate curve's
#   shares of the measured maximum;
# - the highest rate named under the bound is the one the ladder shows;
# - bad command lines and rows without a rate are refused with one line.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

service_us=2000
parallel=4
rate=400
dm_tmpdir
mnt="$DM_TMPDIR/mnt"
dm_slow_fs_mount "$mnt" "$service_us" "$parallel" --write-us "$service_us"
rt=()
if command -v chrt >/dev/null && chrt -f 5 true 2>/dev/null; then
  rt=(chrt -f 5)
fi

profile="$DM_TMPDIR/captured.ini"
cat > "$profile" <<INI
# A profile as diskmeter-cli capture --profile-file writes it.
[captured]
block = 4K
read = 100
random = 100
qd = 8
rate = $rate
INI

# --- the default bound: twice the p99 at the captured rate ----------------------
out="$DM_TMPDIR/headroom.json"
"${rt[@]}" "$DM_CLI" --profile-file "$profile" --headroom --size 32MiB --duration 2 \
  --warmup 0.5 --format json --quiet --no-history --output "$out" "$mnt" 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/truth/headroom/json: exit status 0 (got $rc)" test "$rc" = 0
[ -s "$out" ] || dm_die "no JSON report: $(head -c 300 "$DM_TMPDIR/err")"
h='j["headroom"]["workloads"][0]'
dm_check "/truth/headroom/json: one workload, eight rates" \
  test "$(dm_json "$out" "'%d/%d/%d' % (len(j['headroom']['workloads']), len($h['ladder']), len(j['results']))")" = "1/8/8"
dm_check "/truth/headroom/json: the captured rate is the file's" \
  test "$(dm_json "$out" "$h['captured_rate_iops']")" = "$rate.0"
dm_within "/truth/headroom/json: the captured rate is reached" \
  "$(dm_json "$out" "$h['captured_reached_iops']")" "$rate" 3
p50=$(dm_json "$out" "$h['ladder'][0]['p50_latency_us']")
p99=$(dm_json "$out" "$h['captured_p99_us']")
dm_log "at $rate IOPS: p50 $p50 us, p99 $p99 us; ladder p99: $(dm_json "$out" "' '.join('%s %.0f' % (p['point'], p['p99_latency_us']) for p in $h['ladder'])")"
# Paced reads wait only their own service: unpaced, Q8 on 4 slots would
# make each wait two. p50, not p99, carries the check: 800 reads make p99
# the eighth slowest, which a busy machine's scheduler moves by a
# millisecond; p99 is held only to what the device cannot beat.
dm_check "/truth/headroom/json: p50 at the captured rate is one service time ($p50 us)" \
  python3 -c "import sys; sys.exit(0 if $service_us <= $p50 <= 1.3 * $service_us else 1)"
dm_check "/truth/headroom/json: p99 at the captured rate is not under one service time ($p99 us)" \
  python3 -c "import sys; sys.exit(0 if $p99 >= $service_us else 1)"
max=$(dm_json "$out" "$h['max_iops']")
# The service as the machine let slow-fs deliver it: on a loaded machine
# its sleeps end late and its slots wait for threads to wake (slow-fs
# counts both), which no disk of 2 ms would do, and 4 slots then serve
# 4 / (service + lateness).
late_us=$(dm_slow_fs_late_us "$mnt" "0 0 0")
max_late=$(python3 -c "print('%.1f' % ($parallel * 1e6 / ($service_us + $late_us)))")
dm_log "slow-fs: $late_us us of the machine's time a request (late sleeps, idle slots), so 4 slots serve $max_late IOPS"
# FUSE's own time per request comes on top of that (3.5-4.5 % seen here
# on a loaded machine; under ASan, whose slow-fs is instrumented too, 9 %
# and once 15.9 % with its sleeps 312 us late): the maximum is held to
# 20 %. A queue that reached only 3 of the device's 4 slots would be 25 %
# off before FUSE's time, and more with it.
dm_within "/truth/headroom/json: the maximum vs $parallel / ($service_us + $late_us) us" "$max" "$max_late" 20
ratio=$(dm_json "$out" "$h['ratio']")
dm_within "/truth/headroom/json: the ratio is the maximum over the captured rate" \
  "$ratio" "$(python3 -c "print($max / $rate)")" 0.1
dm_within "/truth/headroom/json: the ratio vs $max_late / $rate" "$ratio" \
  "$(python3 -c "print($max_late / $rate)")" 20
dm_check "/truth/headroom/json: the points offer 10, 50, 70, 80, 90, 100 % of the maximum" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
pts = h['ladder'][2:]
ok = [p['percent'] for p in pts] == [10, 50, 70, 80, 90, 100] and all(
  p['offered_iops'] == round(h['max_iops'] * p['percent'] / 100.0) for p in pts)
sys.exit(0 if ok else 1)"
# No point goes over its rate by more than 3 %, and up to 70 % none falls
# short by more. At 80 and 90 % the device is nearly full, and a shared
# host that slows FUSE down during the point takes that share off what it
# can deliver: 8 % short is allowed there, which a pacing that lost I/Os
# would still miss.
dm_check "/truth/headroom/json: below the maximum every point reaches its rate" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
for p in h['ladder'][2:7]:
    print('#   %d %%: offered %.0f, reached %.1f' % (p['percent'], p['offered_iops'], p['reached_iops']))
sys.exit(0 if all(-(0.03 if p['percent'] <= 70 else 0.08) * p['offered_iops']
                  <= p['reached_iops'] - p['offered_iops'] <= 0.03 * p['offered_iops']
                  for p in h['ladder'][2:7]) else 1)"
bound=$(dm_json "$out" "$h['p99_bound_us']")
dm_within "/truth/headroom/json: the default bound is twice the captured p99" \
  "$bound" "$(python3 -c "print(2 * $p99)")" 0.01
# The rate named, against the ladder: the highest offered rate that was
# reached and whose p99 is at or under the bound.
best_of_ladder () {
  python3 -c "import json
h = json.load(open('$1'))['headroom']['workloads'][0]
ok = [p['offered_iops'] for p in h['ladder'] if p['offered_iops'] is not None and p['rate_met']
      and round(p['p99_latency_us'], 3) <= h['p99_bound_us']]
print(max(ok) if ok else None)"
}
want=$(best_of_ladder "$out")
got=$(dm_json "$out" "$h['best_rate_iops']")
dm_check "/truth/headroom/json: the highest rate under the bound is the ladder's ($got, want $want)" \
  test "$got" = "$want"

# --- a bound given, the text's sentence --------------------------------------------
out="$DM_TMPDIR/headroom.txt"
"${rt[@]}" "$DM_CLI" --profile-file "$profile" --headroom --headroom-p99 3ms --size 32MiB \
  --duration 1 --warmup 0.3 --quiet --no-history --format json --output "$DM_TMPDIR/given.json" \
  "$mnt" 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/truth/headroom/given: exit status 0 (got $rc)" test "$rc" = 0
dm_check "/truth/headroom/given: the bound is the one given" \
  test "$(dm_json "$DM_TMPDIR/given.json" "$h['p99_bound_us']"),$(dm_json "$DM_TMPDIR/given.json" "$h['p99_bound_from']")" = "3000.0,given"
want=$(best_of_ladder "$DM_TMPDIR/given.json")
got=$(dm_json "$DM_TMPDIR/given.json" "$h['best_rate_iops']")
dm_check "/truth/headroom/given: the highest rate under 3 ms is the ladder's ($got, want $want)" \
  test "$got" = "$want"
"${rt[@]}" "$DM_CLI" --profile-file "$profile" --headroom --size 32MiB --duration 0.5 \
  --warmup 0.2 --quiet --no-history --output "$out" "$mnt" 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/truth/headroom/text: exit status 0 (got $rc)" test "$rc" = 0
dm_log "$(tail -n 1 "$out")"
dm_check "/truth/headroom/text: the sentence" \
  grep -Eq "^at your $rate IOPS, p99 [0-9.]+ ms; this disk reaches [0-9,]+ IOPS at the same shape \([0-9.]+x\), p99 under [0-9.]+ ms up to [0-9,]+$" "$out"
dm_check "/truth/headroom/text: eight rows" \
  test "$(grep -Ec '^  (captured|max|[0-9]+%) ' "$out")" = 8
"$DM_CLI" --profile-file "$profile" --headroom --size 32MiB --duration 0.3 --warmup 0 \
  --quiet --no-history --format csv --output "$DM_TMPDIR/h.csv" "$mnt" 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/truth/headroom/csv: exit status 0 (got $rc)" test "$rc" = 0
dm_check "/truth/headroom/csv: a header and eight rows of ten fields" \
  python3 -c "import csv, sys
rows = list(csv.reader(open('$DM_TMPDIR/h.csv')))
sys.exit(0 if len(rows) == 9 and rows[0][:3] == ['workload', 'point', 'offered_iops']
         and [r[1] for r in rows[1:3]] == ['captured', 'max'] else 1)"

# --- a saved run read back: show gives the ladder, not eight plain rows -------
same_headroom () {
  python3 - "$1" "$2" <<'PY'
import json, math, sys
a, b = (json.load(open(f))["headroom"] for f in sys.argv[1:3])
def same(x, y, at):
    if isinstance(x, float) or isinstance(y, float):
        # A p99 saved to the ns and read back may round 1 ns apart.
        ok = isinstance(x, (int, float)) and isinstance(y, (int, float)) \
             and math.isclose(x, y, rel_tol=1e-5, abs_tol=0.002)
    elif isinstance(x, dict):
        ok = isinstance(y, dict) and x.keys() == y.keys() and all(same(x[k], y[k], at + "." + k) for k in x)
    elif isinstance(x, list):
        ok = isinstance(y, list) and len(x) == len(y) and all(same(p, q, "%s[%d]" % (at, i)) for i, (p, q) in enumerate(zip(x, y)))
    else:
        ok = x == y
    if not ok and not isinstance(x, (dict, list)):
        print("#   %s: saved %r, shown %r" % (at, x, y))
    return ok
sys.exit(0 if same(a, b, "headroom") else 1)
PY
}
for saved in "$DM_TMPDIR/headroom.json" "$DM_TMPDIR/given.json"; do
  name=$(basename "$saved" .json)
  "$DM_CLI" show --format json --output "$DM_TMPDIR/shown.json" "$saved" 2> "$DM_TMPDIR/err"
  dm_check "/truth/headroom/show: $name's JSON read back has its headroom" \
    same_headroom "$saved" "$DM_TMPDIR/shown.json"
done
"$DM_CLI" show --output "$DM_TMPDIR/shown.txt" "$DM_TMPDIR/given.json" 2> "$DM_TMPDIR/err"
dm_log "$(tail -n 1 "$DM_TMPDIR/shown.txt")"
# The sentence the saved run calls for: a host that stalls can put every
# point's p99 over 3 ms (a CI run: 6.7 ms at the captured rate), and then
# the sentence says so instead of naming a rate under it.
under="p99 under 3.0 ms up to [0-9,]+"
[ "$got" = None ] && under="p99 over 3.0 ms at every rate it reached"
dm_check "/truth/headroom/show: the text read back has eight rows and the sentence for the bound given ($under)" \
  test "$(grep -Ec '^  (captured|max|[0-9]+%) ' "$DM_TMPDIR/shown.txt")" = 8 -a \
  "$(grep -Ec "^at your $rate IOPS, p99 [0-9.]+ ms; this disk reaches [0-9,]+ IOPS .* $under" "$DM_TMPDIR/shown.txt")" = 1
"$DM_CLI" show --format csv --output "$DM_TMPDIR/shown.csv" "$DM_TMPDIR/given.json" 2> "$DM_TMPDIR/err"
dm_check "/truth/headroom/show: the CSV read back has a header and eight rows" \
  test "$(head -n 1 "$DM_TMPDIR/shown.csv" | cut -d, -f1-3),$(wc -l < "$DM_TMPDIR/shown.csv")" = "workload,point,offered_iops,9"

# --- refusals ----------------------------------------------------------------
norate="$DM_TMPDIR/norate.ini"
printf '[plain]\nblock = 4K\nread = 100\nqd = 8\n' > "$norate"
mbps="$DM_TMPDIR/mbps.ini"
printf '[bytes]\nblock = 4K\nread = 100\nqd = 8\nrate = 5MB/s\n' > "$mbps"
refuse () {
  local what="$1" want="$2"; shift 2
  "$DM_CLI" "$@" --size 32MiB --quiet --no-history "$mnt" > "$DM_TMPDIR/out" 2> "$DM_TMPDIR/err"
  local rc=$?
  dm_check "/truth/headroom/refuse: $what: exit 2 (got $rc)" test "$rc" = 2
  dm_check "/truth/headroom/refuse: $what: one line ($(head -n 1 "$DM_TMPDIR/err"))" \
    dm_usage_error "$DM_TMPDIR/err"
  dm_check "/truth/headroom/refuse: $what: says why" grep -q -- "$want" "$DM_TMPDIR/err"
}
refuse "no --profile-file" "one --profile-file" --headroom
refuse "a row without a rate" "has no rate" --headroom --profile-file "$norate"
refuse "a rate in MB/s" "in MB/s" --headroom --profile-file "$mbps"
refuse "--workload" "no --workload" --headroom --profile-file "$profile" --workload "block=4K;rate=10"
refuse "--compare-with" "compare-with" --headroom --profile-file "$profile" --compare-with /tmp
refuse "--headroom-p99 alone" "goes with --headroom" --profile-file "$profile" --headroom-p99 2ms
refuse "--headroom-p99 not a duration" "headroom-p99" --headroom --profile-file "$profile" \
  --headroom-p99 fast
dm_check "/truth/headroom/refuse: no test file was left" test -z "$(ls -A "$mnt")"

dm_finish
