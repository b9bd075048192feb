#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli --start-at: two runs started apart wait for the same TIME,
# every test begins on the schedule computed from TIME and the settings
# (not when the test before it ended), the JSON keeps the planned and the
# actual start of each, and the two reports merge over common windows. A
# TIME already past is a usage error, a TIME missed before the run could
# begin fails with its reason, both before the test file is made; Ctrl-C
# ends the wait.
. "$(dirname "$0")/lib.sh"
dm_need_cli
trap dm_teardown EXIT
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
mkdir a b

# Slot per test: warm-up 0.3 + 2 x 0.4 + interval 0.2 = 1.3 s.
args=(--tests SEQ1M_Q1T1,RND4K_Q1T1 --count 2 --duration 0.4 --warmup 0.3 --interval 0.2
      --size 16MiB --buffered --no-history --quiet --format json)
start="$(python3 -c 'import datetime, time
t = datetime.datetime.fromtimestamp(int(time.time()) + 4, datetime.timezone.utc)
print(t.strftime("%Y-%m-%dT%H:%M:%SZ"))')"
dm_log "TIME $start"
"$DM_CLI" "${args[@]}" --start-at "$start" --output a.json a 2> a.err &
pid_a=$!
dm_track_pid "$pid_a"
sleep 1
"$DM_CLI" "${args[@]}" --start-at "$start" --output b.json b 2> b.err
rc_b=$?
wait "$pid_a"
rc_a=$?
dm_untrack_pid "$pid_a"
cat a.err b.err
dm_check "both runs complete" [ "$rc_a" = 0 -a "$rc_b" = 0 ]

python3 - "$start" <<'EOF'
import datetime, json, sys
def ms(s):
    return datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ').replace(
        tzinfo=datetime.timezone.utc).timestamp() * 1000
t0 = datetime.datetime.strptime(sys.argv[1], '%Y-%m-%dT%H:%M:%SZ').replace(
    tzinfo=datetime.timezone.utc).timestamp() * 1000
bad = 0
for f in ('a.json', 'b.json'):
    d = json.load(open(f))
    for k, r in enumerate(d['results']):
        planned, started = ms(r['planned_start']), ms(r['started'])
        want = t0 + k * 1300
        ok = abs(planned - want) < 1 and 0 <= started - planned < 500
        print('%s %s %s %s: planned %s (want +%d ms), started %+.0f ms' % (
            'ok  ' if ok else 'FAIL', f, r['test'], r['mode'], r['planned_start'], k * 1300,
            started - planned))
        bad += not ok
sys.exit(1 if bad else 0)
EOF
dm_check "each test is planned at TIME + k x 1.3 s and began on time" [ $? = 0 ]

dm_run m.json m.err merge a.json b.json --format json
dm_check "the two runs merge" [ "$DM_RC" = 0 ]
dm_check "as scheduled runs" [ "$(dm_json m.json 'j["scheduled"]')" = True ]
dm_check "over a common window of most of each test's 0.8 s" \
  python3 -c 'import datetime, json
f = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
for r in json.load(open("m.json"))["results"]:
    w = r["window"]
    assert f(w["end"]) - f(w["start"]) > 0.6, w'

# A TIME already past is a usage error, before any file is made.
dm_run late.out late.err "${args[@]}" --start-at 2020-01-01T00:00:00Z --output late.json a
dm_check "a TIME in the past is a usage error" \
  eval '[ "$DM_RC" = 2 ] && dm_usage_error late.err && grep -q "in the past" late.err'
dm_check "and leaves no report and no file" [ ! -e late.json -a -z "$(ls -A a)" ]

# A TIME whose first warm-up was due before the run could begin is missed
# at once, before the test file is made (+0 with a 2 s warm-up).
dm_run missed.out missed.err "${args[@]}" --warmup 2 --start-at +0 --output missed.json a
dm_check "a missed TIME fails" [ "$DM_RC" = 1 ]
dm_check "with its reason on one line" \
  eval 'dm_one_line_error missed.err && grep -q "missed --start-at" missed.err'
dm_check "before anything was prepared" [ "$(dm_json missed.json 'j["io_totals"]["prepare_bytes"]')" = 0 ]
dm_check "the report says so too" \
  [ "$(dm_json missed.json 'j["status"]')" = failed -a "$(dm_json missed.json '"missed --start-at" in j["error"]')" = True ]
dm_check "and no test ran" [ "$(dm_json missed.json 'sum(len(r["runs"]) for r in j["results"])')" = 0 ]

dm_run bad.out bad.err --start-at 21:00 a
dm_check "a TIME that is not RFC 3339 or +SEC is a usage error" \
  eval '[ "$DM_RC" = 2 ] && grep -q "RFC 3339" bad.err'
dm_run bad.out bad.err --start-at +10 --compare-with b a
dm_check "--start-at with --compare-with is a usage error" [ "$DM_RC" = 2 ]

# Ctrl-C while waiting: cancelled at once, the test file removed.
"$DM_CLI" "${args[@]}" --start-at +60 --output int.json a 2> int.err &
pid=$!
dm_track_pid "$pid"
sleep 1.5
t0=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$?
dm_untrack_pid "$pid"
t1=$(date +%s%N)
dm_check "Ctrl-C during the wait exits 130" [ "$rc" = 130 ]
dm_check "within a second" [ $(((t1 - t0) / 1000000)) -lt 1000 ]
dm_check "and leaves no test file" [ -z "$(ls -A a)" ]
dm_finish
