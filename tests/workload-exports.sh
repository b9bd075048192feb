#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Workload rows in every export, from real runs of a profile file on a RAM
# loop device, each checked against the run's JSON and arithmetic on it:
# - CSV: each row's name and canonical shape, MB/s, IOPS, p50/p99/p99.9 as
#   the JSON has them; reads and writes apart adding up to the row's
#   figure, in the shares the JSON's own timeline (bytes) and histograms
#   (I/Os) give; flushes as the JSON counts them and one per 8 writes the
#   histogram counts; the rate offered, reached and met; the profile hash;
# - the text: reads and writes apart, percentiles, rate and flushes;
# - Excel (openpyxl): a Workloads sheet with a row per run and workload,
#   figures as numbers equal to the JSON's;
# - history: the run saved, listed as Workloads with its rows' names, and
#   shown back byte for byte as "show" shows its JSON;
# - compare: rows matched by workload name and shape, the JSON's figures
#   and their difference; reports of another profile (another shape, or
#   CrystalDiskMark's tests) refused with one line and exit 2, compared
#   with --allow-profiles, which the line of differences then names.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
trap dm_teardown EXIT
dm_tmpdir
dm_loop_create 256
dm_mkfs_mount
before=$(dm_fs_used "$DM_MNT")
export XDG_DATA_HOME="$DM_TMPDIR/data"
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
mkdir t

cat > mixed.ini <<'EOF'
[Mixed 8K 70/30]
block = 8K
read = 70
random = 100
rate = 1500iops
qd = 4
threads = 1
[Log 4K+64K]
block = 4K/50,64K/50
read = 0
random = 0
sync = flush:8
EOF
# The same names, another shape: the mixed row at another queue depth.
sed 's/^qd = 4/qd = 8/' mixed.ini > other.ini

args=(--count 2 --duration 0.5 --warmup 0 --interval 0 --size 32MiB --quiet --format json)
dm_run a.out a.err --profile-file mixed.ini "${args[@]}" --output a.json --comment "first" "$DM_MNT"
dm_run b.out b.err --profile-file mixed.ini "${args[@]}" --output b.json --no-history "$DM_MNT"
dm_run c.out c.err --profile-file other.ini "${args[@]}" --output c.json --no-history "$DM_MNT"
dm_run p.out p.err --tests SEQ1M_Q1T1 "${args[@]}" --output p.json --no-history "$DM_MNT"
[ -s a.json ] && [ -s b.json ] && [ -s c.json ] && [ -s p.json ] || dm_die "the runs failed"
# (Also lets the runs' rings let go of the device before the teardown.)
dm_check "the runs left no test file behind" dm_no_test_file "$DM_MNT" "$before"
dm_log "a: $(dm_json a.json '[(r["workload"].split(";")[0], r["mb_per_s"], r["iops"]) for r in j["results"]]')"

# --- CSV --------------------------------------------------------------------
dm_run a.csv csv.err show --format csv a.json
python3 - a.json a.csv <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
bad = 0
def check(what, ok, detail=""):
    global bad
    print("%s %s %s" % ("ok  " if ok else "FAIL", what, detail))
    bad += not ok
check("csv: a row per result", len(rows) == len(j["results"]), "%d rows" % len(rows))
for res, row in zip(j["results"], rows):
    name = res["workload"].split(";")[0][len("name="):]
    check("csv %s: name" % name, row.get("workload") == name, row.get("workload"))
    check("csv %s: canonical shape" % name, row.get("workload_canonical") == res["workload"])
    check("csv %s: profile hash" % name, row.get("profile_hash") == j["profile_hash"])
    for col, key in (("mb_per_s", "mb_per_s"), ("iops", "iops")):
        check("csv %s: %s" % (name, col), abs(float(row[col]) - res[key]) < 0.05, row[col])
    for col, key in (("lat_p50_us", "p50"), ("lat_p99_us", "p99"), ("lat_p99_9_us", "p99_9")):
        check("csv %s: %s" % (name, col), abs(float(row[col]) - res["latency_us"][key]) < 0.01,
              "%s vs %s" % (row[col], res["latency_us"][key]))
    # Reads and writes apart: the row's figure shared out as the measured
    # runs moved bytes (the timeline) and I/Os (the histograms) each way.
    rd_n = sum(n for _, n in res["latency_histogram"]["read"]) if res["latency_histogram"]["read"] else 0
    wr_n = sum(n for _, n in res["latency_histogram"]["write"]) if res["latency_histogram"]["write"] else 0
    if res["read_percent"] in (0, 100):
        byte_share = io_share = res["read_percent"] / 100
    else:
        prev, rb, wb = 0, 0, 0
        for s in res["samples"]:
            rb += s["read"]["mb_per_s"] * (s["t"] - prev)
            wb += s["write"]["mb_per_s"] * (s["t"] - prev)
            prev = s["t"]
        byte_share, io_share = rb / (rb + wb), rd_n / (rd_n + wr_n)
    want = {"read_mb_per_s": res["mb_per_s"] * byte_share,
            "write_mb_per_s": res["mb_per_s"] * (1 - byte_share),
            "read_iops": res["iops"] * io_share, "write_iops": res["iops"] * (1 - io_share)}
    for col, v in want.items():
        # Half a unit of the last digit the CSV prints (IOPS with one
        # decimal, MB/s with three), plus the split's own 1e-4.
        text = row[col]
        half = 0.5 * 10 ** -(len(text.split(".")[1]) if "." in text else 0)
        check("csv %s: %s" % (name, col), abs(float(text) - v) <= half + 1e-4 * v,
              "%s vs %.3f" % (text, v))
    check("csv %s: reads + writes = the figure" % name,
          abs(float(row["read_mb_per_s"]) + float(row["write_mb_per_s"]) - res["mb_per_s"]) < 0.003)
    if res["read_percent"] == 70:
        check("csv %s: the I/Os read are 70%% within 5 points" % name,
              abs(io_share - 0.70) < 0.05, "%.3f" % io_share)
        check("csv %s: read p99" % name,
              abs(float(row["read_lat_p99_us"]) - res["latency_read_us"]["p99"]) < 0.01)
        check("csv %s: write p99" % name,
              abs(float(row["write_lat_p99_us"]) - res["latency_write_us"]["p99"]) < 0.01)
    if "rate" in res:
        r = res["rate"]
        check("csv %s: rate offered" % name, float(row["rate_offered"]) == r["offered"], row["rate_offered"])
        check("csv %s: rate unit" % name, row["rate_unit"] == r["unit"])
        check("csv %s: rate reached" % name, abs(float(row["rate_reached"]) - r["reached"]) < 0.05)
        check("csv %s: rate met" % name, row["rate_met"] == ("yes" if r["met"] else "no"))
        # The arithmetic of "met": within 3 % of what was offered.
        check("csv %s: met is reached >= 97%% of offered" % name,
              r["met"] == (r["reached"] >= 0.97 * r["offered"]))
    else:
        check("csv %s: no rate" % name, row["rate_offered"] == "" and row["rate_met"] == "")
    if "flushes" in res:
        check("csv %s: flushes" % name, int(row["flushes"]) == res["flushes"], row["flushes"])
        # One flush per 8 writes completed, each thread's last partial 8 aside.
        check("csv %s: a flush per 8 writes" % name,
              abs(res["flushes"] - wr_n / 8) <= 2, "%d flushes, %d writes" % (res["flushes"], wr_n))
sys.exit(1 if bad else 0)
PY
dm_check "CSV: workload rows against the JSON and its arithmetic" [ $? = 0 ]

# --- text -------------------------------------------------------------------
dm_run a.txt txt.err show a.json
reached=$(dm_json a.json '"%.0f" % j["results"][0]["rate"]["reached"]')
met=$(dm_json a.json '"met" if j["results"][0]["rate"]["met"] else "not met"')
dm_check "text: the rate reached against offered ($reached, $met)" \
  grep -q "Rate: 1500 IOPS offered, $reached reached: $met" a.txt
dm_check "text: the mixed row's reads and writes apart" \
  bash -c 'grep -q "^      Read: .* MB/s \[.* IOPS\] p99 " "$1" && grep -q "^     Write: .* MB/s" "$1"' _ a.txt
flushes=$(dm_json a.json 'j["results"][1]["flushes"]')
dm_check "text: the flushes ($flushes)" grep -q "Flushes: $flushes in the measured runs" a.txt
p999=$(dm_json a.json '"%.2f" % j["results"][0]["latency_us"]["p99_9"]')
dm_check "text: the p99.9 ($p999)" grep -q "p99.9 $p999 us" a.txt

# --- history ----------------------------------------------------------------
dm_run h.out h.err history
dm_check "history lists the run as Workloads with its rows' names" \
  grep -qE "Workloads +Mixed 8K 70/30, Log 4K\+64K +first" h.out
dm_run hs.out hs.err history show 1
dm_check "history show is the saved run as show prints its JSON" cmp -s hs.out a.txt
dm_run he.out he.err history export 1 h.json --format json
dm_check "history export writes the JSON as the run saved it" cmp -s h.json a.json

# --- compare ----------------------------------------------------------------
dm_run ab.json ab.err compare --format json a.json b.json
dm_check "compare of one profile exits 0" [ "$DM_RC" = 0 ]
python3 - a.json b.json ab.json <<'PY'
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:])
bad = 0
rows = c["rows"]
names = [r.get("workload") for r in rows]
want = [x["workload"].split(";")[0][5:] for x in a["results"]]
print("#", names)
bad += names != want
for r, x, y in zip(rows, a["results"], b["results"]):
    va, vb = r["cells"][0]["value"], r["cells"][1]["value"]
    bad += abs(va - x["mb_per_s"]) > 0.001 or abs(vb - y["mb_per_s"]) > 0.001
    bad += abs(r["cells"][1]["diff_percent"] - (vb - va) / va * 100) > 0.01
    bad += r["workload_canonical"] != x["workload"]
sys.exit(1 if bad else 0)
PY
dm_check "compare: rows matched by workload, the JSON's figures and their difference" [ $? = 0 ]
dm_run ab.txt ab.err compare a.json b.json
dm_check "compare text names the rows by workload" \
  bash -c 'grep -q "^Mixed 8K 70/30 " "$1" && grep -q "^Log 4K+64K " "$1"' _ ab.txt

for other in c.json p.json; do
  dm_run refused.out refused.err compare a.json "$other"
  dm_check "compare refuses $other's other profile: exit 2 (got $DM_RC)" [ "$DM_RC" = 2 ]
  dm_check "compare refuses $other in one line that says --allow-profiles" \
    bash -c '[ "$(wc -l < "$1")" = 1 ] && grep -q "^diskmeter-cli compare: .*--allow-profiles" "$1"' \
    _ refused.err
  dm_check "compare refuses $other with nothing on stdout" [ ! -s refused.out ]
done
dm_run refused.out refused.err compare a.json c.json --format xlsx --output refused.xlsx
dm_check "compare refuses it for a workbook too, and writes none" \
  bash -c '[ "$1" = 2 ] && [ ! -e refused.xlsx ]' _ "$DM_RC"
dm_run ac.txt ac.err compare --allow-profiles a.json c.json
dm_check "compare --allow-profiles compares them (exit $DM_RC)" [ "$DM_RC" = 0 ]
ha=$(dm_json a.json 'j["profile_hash"]')
hc=$(dm_json c.json 'j["profile_hash"]')
dm_check "compare --allow-profiles names both profiles among the differences" \
  grep -q "profile workloads $ha vs workloads $hc" ac.txt
# The mixed rows differ in shape: two rows, each run's own; the log rows
# are the same shape: one row.
dm_check "compare --allow-profiles keeps rows of other shapes apart" \
  bash -c '[ "$(grep -c "^Mixed 8K 70/30 " "$1")" = 2 ] && [ "$(grep -c "^Log 4K+64K " "$1")" = 1 ]' \
  _ ac.txt

# --- Excel ------------------------------------------------------------------
probe=$("$DM_CLI" compare a.json b.json --format xlsx --output probe.xlsx 2>&1)
if [[ "$probe" == *"without Excel support"* ]]; then
  dm_skip_part "Excel: this diskmeter-cli was built without libxlsxwriter"
elif ! python3 -c 'import openpyxl' 2>/dev/null; then
  dm_skip_part "Excel: python3-openpyxl is missing (build-aux/dev installs it)"
else
  dm_run x.out x.err compare a.json b.json --format xlsx --output ab.xlsx
  dm_check "compare --format xlsx exits 0" [ "$DM_RC" = 0 ]
  python3 - ab.xlsx a.json b.json <<'PY'
import json, sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
reps = [json.load(open(f)) for f in sys.argv[2:]]
bad = 0
def check(what, ok, detail=""):
    global bad
    print("%s %s %s" % ("ok  " if ok else "FAIL", what, detail))
    bad += not ok
check("xlsx: sheets", wb.sheetnames == ["Workloads", "Settings"], str(wb.sheetnames))
ws = wb["Workloads"]
rows = list(ws.iter_rows(values_only=True))
head = rows[0]
col = {h: i for i, h in enumerate(head)}
want = [(f, x) for f, rep in zip(sys.argv[2:], reps) for x in rep["results"]]
check("xlsx: a row per run and workload", len(rows) - 1 == len(want), "%d" % (len(rows) - 1))
for row, (f, x) in zip(rows[1:], want):
    name = x["workload"].split(";")[0][5:]
    check("xlsx %s %s: name" % (f, name), row[col["Workload"]] == name)
    check("xlsx %s %s: canonical" % (f, name), row[col["Canonical"]] == x["workload"])
    for h, v in (("MB/s", x["mb_per_s"]), ("IOPS", x["iops"]), ("p99 \u00b5s", x["latency_us"]["p99"])):
        c = row[col[h]]
        check("xlsx %s %s: %s a number equal to the JSON's" % (f, name, h),
              isinstance(c, (int, float)) and abs(c - v) < 1e-6, "%r vs %r" % (c, v))
    rd, wr = row[col["Read MB/s"]], row[col["Write MB/s"]]
    check("xlsx %s %s: reads + writes = MB/s" % (f, name), abs(rd + wr - x["mb_per_s"]) < 1e-6)
    if "flushes" in x:
        check("xlsx %s %s: flushes" % (f, name), row[col["Flushes"]] == x["flushes"])
    if "rate" in x:
        check("xlsx %s %s: rate" % (f, name), row[col["Rate offered"]] == x["rate"]["offered"]
              and row[col["Rate met"]] == ("yes" if x["rate"]["met"] else "no"))
    check("xlsx %s %s: profile hash" % (f, name), row[col["Profile hash"]] == reps[0]["profile_hash"])
sys.exit(1 if bad else 0)
PY
  dm_check "Excel: the Workloads sheet holds the JSON's figures" [ $? = 0 ]
fi
dm_finish
