#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli merge against figures worked out here: one real run, made
# into three hosts with different figures and latencies; the merged sums
# must be the sums of the hosts' mean figures, the merged percentiles those
# of one histogram built here from every host's buckets, and files that
# cannot be merged are refused with the file named, one host given twice
# among them.
. "$(dirname "$0")/lib.sh"
dm_need_cli
trap dm_teardown EXIT
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
mkdir t

dm_run run.out run.err --tests SEQ1M_Q1T1,RND4K_Q1T1 --mix --count 2 --duration 0.3 \
  --warmup 0 --interval 0 --size 16MiB --buffered --no-history --quiet --format json \
  --output a.json --comment "host A" t
[ "$DM_RC" = 0 ] || dm_die "the run failed ($DM_RC)"

# b: twice the throughput, every latency doubled; c: three times the
# throughput and three times the I/Os at the same latencies.
python3 - <<'EOF' || dm_die "cannot make the other hosts"
import json
a = json.load(open('a.json'))
def host(scale, lat, comment, name):
    d = json.loads(json.dumps(a))
    d['comment'] = comment
    for r in d['results']:
        for run in r['runs']:
            run['mb_per_s'] *= scale
            run['iops'] *= scale
        for key in ('latency_us', 'latency_read_us', 'latency_write_us'):
            if key in r:
                for k in r[key]:
                    r[key][k] *= lat
        for side in ('read', 'write'):
            r['latency_histogram'][side] = [[ns * lat, n * scale]
                                            for ns, n in r['latency_histogram'][side]]
    json.dump(d, open(name, 'w'), indent=1)
host(2, 2, 'host B', 'b.json')
host(3, 1, 'host C', 'c.json')
EOF

# The reference: one histogram of every host's I/O, read as
# engine/dm-histogram.c reads it (bucket midpoint, clamped to min and max).
cat > ref.py <<'EOF'
import json, math, sys

def bucket(ns):
    if ns < 128:
        return ns, 1
    msb = ns.bit_length() - 1
    width = 1 << (msb - 6)
    return ns - ns % width, width

def quantile(buckets, lo, hi, q):
    count = sum(buckets.values())
    rank = max(1, math.ceil(q * count))
    seen = 0
    for low in sorted(buckets):
        seen += buckets[low]
        if seen >= rank:
            _, width = bucket(low)
            v = low + (width - 1) / 2.0 if width > 1 else float(low)
            return min(max(v, lo), hi)
    return hi

def merged(files, test, mode):
    buckets, lo, hi = {}, None, None
    for f in files:
        r = next(r for r in json.load(open(f))['results']
                 if r['test'] == test and r['mode'] == mode)
        for side in ('read', 'write'):
            pairs = r['latency_histogram'][side]
            if not pairs:
                continue
            summary = r['latency_%s_us' % side] if mode == 'mix' else r['latency_us']
            smin, smax = int(summary['min'] * 1000), int(summary['max'] * 1000)
            lo = smin if lo is None else min(lo, smin)
            hi = smax if hi is None else max(hi, smax)
            for ns, n in pairs:
                low, _ = bucket(int(ns))
                buckets[low] = buckets.get(low, 0) + int(n)
    return buckets, lo, hi
EOF

dm_run merge.json merge.err merge a.json b.json c.json --format json
dm_check "merge exits 0" [ "$DM_RC" = 0 ]
dm_check "merge writes nothing on stderr" [ ! -s merge.err ]
python3 - <<'EOF'
import json, sys
sys.path.insert(0, '.')
from ref import merged, quantile
files = ['a.json', 'b.json', 'c.json']
hosts = [json.load(open(f)) for f in files]
m = json.load(open('merge.json'))
bad = 0
def check(what, got, want, tol):
    global bad
    ok = abs(got - want) <= tol
    print('%s %s: %s vs %s' % ('ok  ' if ok else 'FAIL', what, got, want))
    bad += not ok
check('rows', len(m['results']), len(hosts[0]['results']), 0)
for row in m['results']:
    name = '%s %s' % (row['test'], row['mode'])
    means = []
    for h in hosts:
        r = next(r for r in h['results'] if r['test'] == row['test'] and r['mode'] == row['mode'])
        means.append((sum(x['mb_per_s'] for x in r['runs']) / len(r['runs']),
                      sum(x['iops'] for x in r['runs']) / len(r['runs'])))
    check(name + ' sum MB/s', row['mb_per_s'], sum(x[0] for x in means), 0.005)
    check(name + ' sum IOPS', row['iops'], sum(x[1] for x in means), 0.2)
    for i, c in enumerate(row['per_host']):
        check(name + ' host %d MB/s' % i, c['mb_per_s'], means[i][0], 0.005)
    check(name + ' min MB/s', row['spread']['mb_per_s']['min'], min(x[0] for x in means), 0.005)
    check(name + ' max MB/s', row['spread']['mb_per_s']['max'], max(x[0] for x in means), 0.005)
    buckets, lo, hi = merged(files, row['test'], row['mode'])
    check(name + ' histogram I/Os', sum(n for _, n in row['latency_histogram']),
          sum(buckets.values()), 0)
    for key, q in (('p50', 0.5), ('p90', 0.9), ('p99', 0.99), ('p99_9', 0.999)):
        check(name + ' merged ' + key, row['latency_us'][key], quantile(buckets, lo, hi, q) / 1000,
              0.0011)
    # Averaged percentiles would be wrong: they are not what merge gives.
    avg = sum(c['latency_us']['p99'] for c in row['per_host']) / 3
    print('#  %s p99 merged %.3f us, mean of the hosts\' p99 %.3f us'
          % (name, row['latency_us']['p99'], avg))
sys.exit(1 if bad else 0)
EOF
dm_check "merged sums, spread and percentiles match the reference" [ $? = 0 ]

dm_run merge.csv merge.err merge a.json b.json c.json --format csv
dm_check "CSV: a sum row and a row per host for each test" \
  [ "$(grep -c ',sum,' merge.csv)" = 6 -a "$(grep -c ',b.json,' merge.csv)" = 6 ]
dm_check "CSV sum equals the JSON sum" python3 -c '
import csv, json
rows = list(csv.DictReader(open("merge.csv")))
m = json.load(open("merge.json"))
s = [r for r in rows if r["host"] == "sum"]
assert all(abs(float(r["mb_per_s"]) - j["mb_per_s"]) < 0.002 and
           abs(float(r["lat_p99_us"]) - j["latency_us"]["p99"]) < 0.002
           for r, j in zip(s, m["results"]))'
dm_run merge.txt merge.err merge a.json b.json c.json
dm_check "text names the hosts and the sums" \
  grep -q 'fleet report of 3 hosts' merge.txt

# Refusals: nothing written, one line on stderr, the offending file named.
refused ()
{
  local file="$1"; shift
  rm -f out.json
  dm_run out.txt out.err merge "$@" --output out.json
  [ "$DM_RC" = 1 ] && [ ! -e out.json ] && [ "$(wc -l < out.err)" = 1 ] \
    && grep -q "^diskmeter-cli merge: $file: " out.err
}
python3 - <<'EOF'
import json
a = json.load(open('a.json'))
def variant(name, change):
    d = json.loads(json.dumps(a))
    change(d)
    json.dump(d, open(name, 'w'))
variant('count.json', lambda d: d['settings'].update(count=3))
variant('tests.json', lambda d: d['results'].pop())
variant('late.json', lambda d: d.update(started='2027-01-01T00:00:00Z', finished='2027-01-01T00:01:00Z'))
variant('cancelled.json', lambda d: d.update(status='cancelled'))
def schedule(shift_ms):
    def change(d):
        for i, r in enumerate(d['results']):
            ms = 1796072400000 + i * 1000 + shift_ms
            s = '2026-11-30T21:00:%02d.%03dZ' % (ms // 1000 % 60, ms % 1000)
            r['planned_start'] = r['started'] = s
    return change
variant('s1.json', schedule(0))
variant('s2.json', schedule(250))
variant('s3.json', schedule(900))
EOF
dm_check "different settings are refused, naming the file" refused count.json a.json count.json
dm_check "different tests are refused, naming the file" refused tests.json a.json b.json tests.json
dm_check "runs that did not overlap are refused, naming the file" refused late.json a.json late.json
dm_check "a cancelled run is refused, naming the file" refused cancelled.json cancelled.json a.json
# Scheduled runs: each test's measured window (2 x 0.3 s) must overlap.
dm_run s.json s.err merge s1.json s2.json --format json
dm_check "scheduled runs 250 ms apart overlap" [ "$DM_RC" = 0 ]
dm_check "the common window is reported" \
  [ "$(dm_json s.json 'j["results"][0]["window"]["start"]')" = 2026-11-30T21:00:00.250Z ]
dm_check "scheduled runs 900 ms apart do not, naming the file" refused s3.json s1.json s2.json s3.json

# One host given twice, as the same file or a copy with a comment of its
# own, would be summed twice: refused unless --allow-duplicates.
python3 -c 'import json
d = json.load(open("a.json"))
d["comment"] = "host D"
json.dump(d, open("a-copy.json", "w"))'
dm_check "the same file twice is refused" refused a.json a.json a.json
dm_check "as is a copy of it, naming the copy" refused a-copy.json a.json b.json a-copy.json
dm_check "the reason says it is the same run and how to merge anyway" \
  grep -q "the same run as a.json.*--allow-duplicates" out.err
dm_run dup.json dup.err merge a.json a.json --allow-duplicates --format json
dm_check "--allow-duplicates merges it" [ "$DM_RC" = 0 ]
dm_check "as two hosts, summed" python3 -c '
import json
a = json.load(open("a.json"))["results"]
m = json.load(open("dup.json"))["results"]
for r, x in zip(a, m):
    mean = sum(k["mb_per_s"] for k in r["runs"]) / len(r["runs"])
    assert len(x["per_host"]) == 2 and abs(x["mb_per_s"] - 2 * mean) < 0.005, (x["mb_per_s"], mean)'

# A fleet of 300 hosts, more than merge once took (256): made from a.json
# by the benchmark's own maker, each host's figures and latencies scaled
# its own way. Every file is accepted and the sums, I/O counts and
# percentiles are those worked out here from the 300 files.
mkdir fleet
"$DM_SOURCE_ROOT/build-aux/bench-merge" --make fleet --hosts 300 a.json \
  || dm_die "cannot make the fleet"
dm_run fleet.json fleet.err merge fleet/host-*.json --format json
dm_check "300 files are merged" [ "$DM_RC" = 0 -a ! -s fleet.err ]
python3 - <<'EOF'
import glob, json, sys
sys.path.insert(0, '.')
from ref import merged, quantile
files = sorted(glob.glob('fleet/host-*.json'))
m = json.load(open('fleet.json'))
bad = 0
def check(what, ok):
    global bad
    print('%s %s' % ('ok  ' if ok else 'FAIL', what))
    bad += not ok
check('300 hosts listed in order', len(files) == 300
      and [h['file'] for h in m['hosts']] == files)
hosts = [json.load(open(f)) for f in files]
for row in m['results']:
    name = '%s %s' % (row['test'], row['mode'])
    means = []
    for h in hosts:
        r = next(r for r in h['results'] if r['test'] == row['test'] and r['mode'] == row['mode'])
        means.append((sum(x['mb_per_s'] for x in r['runs']) / len(r['runs']),
                      sum(x['iops'] for x in r['runs']) / len(r['runs'])))
    check(name + ' host count', row['host_count'] == 300 and len(row['per_host']) == 300)
    check(name + ' sum MB/s', abs(row['mb_per_s'] - sum(x[0] for x in means)) <= 0.005)
    check(name + ' sum IOPS', abs(row['iops'] - sum(x[1] for x in means)) <= 0.2)
    check(name + ' every host MB/s', all(abs(c['mb_per_s'] - x[0]) <= 0.00051
                                         for c, x in zip(row['per_host'], means)))
    buckets, lo, hi = merged(files, row['test'], row['mode'])
    check(name + ' histogram I/Os', sum(n for _, n in row['latency_histogram'])
          == sum(buckets.values()))
    for key, q in (('p50', 0.5), ('p90', 0.9), ('p99', 0.99), ('p99_9', 0.999)):
        check(name + ' merged ' + key,
              abs(row['latency_us'][key] - quantile(buckets, lo, hi, q) / 1000) <= 0.0011)
sys.exit(1 if bad else 0)
EOF
dm_check "300 hosts add up to the reference" [ $? = 0 ]
# Their workbook, written row by row to scratch files for a fleet this
# size: every host in the Hosts and Settings sheets, and a valid zip.
if "$DM_CLI" merge a.json a.json --allow-duplicates --format xlsx --output probe.xlsx \
     2>/dev/null; then
  dm_run x.out x.err merge fleet/host-*.json --format xlsx --output fleet.xlsx
  dm_check "300 hosts' workbook is written" [ "$DM_RC" = 0 -a -s fleet.xlsx ]
  dm_check "with a row per host and test, and per host in Settings" python3 -c '
import json, zipfile
z = zipfile.ZipFile("fleet.xlsx")
assert z.testzip() is None
tests = len(json.load(open("fleet.json"))["results"])
rows = [z.read("xl/worksheets/sheet%d.xml" % k).decode().count("<row ") for k in (1, 2, 3)]
assert rows == [1 + tests, 1 + 300 * tests, 1 + 300], rows
assert "host-00300.json" in z.read("xl/worksheets/sheet3.xml").decode()'
fi
# Among them, one host's file again under another name is still found.
cp fleet/host-00150.json fleet/host-00301.json
dm_check "a copy among 301 files is refused, naming the copy" \
  refused fleet/host-00301.json fleet/host-*.json
dm_check "and the host it copies" grep -q "the same run as fleet/host-00150.json" out.err
dm_run dup.json dup.err merge fleet/host-*.json --allow-duplicates --format json
dm_check "--allow-duplicates takes it as a 301st host" \
  [ "$DM_RC" = 0 -a "$(dm_json dup.json 'len(j["hosts"])')" = 301 ]

dm_run u.out u.err merge a.json
dm_check "one file is a usage error" [ "$DM_RC" = 2 ]
dm_run u.out u.err merge a.json b.json --format pdf
dm_check "an unknown format is a usage error" [ "$DM_RC" = 2 ]
dm_run u.out u.err merge a.json missing.json
dm_check "a missing file is named" grep -q missing.json u.err
dm_finish
