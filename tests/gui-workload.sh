#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A profile file of workload rows in the real window, driven over D-Bus as
# a user's menu would: a bad file is refused with its line number, and the
# grid stays as it was to the pixel; a good one, run against a folder,
# gives one row per section, its button named by the section's header and
# one tile spanning the Read and Write columns; the figures each tile draws
# (read back from the window's own PDF, which keeps its text) are those of
# the JSON it saves, within their rounding: MB/s, IOPS, p99 latency, reads'
# and writes' p99 apart for the mixed row, and the rate the capped row did
# not reach. The saved JSON opened again shows the same grid and saves the
# same rows; the text export and the PDF's latency pages carry every row.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
for tool in dbus-run-session gapplication gdbus pdftotext; do
  command -v "$tool" >/dev/null \
    || dm_die "$tool is missing (build-aux/dev installs dbus-daemon, libglib2.0-bin and poppler-utils)"
done

dm_tmpdir
out="$DM_TMPDIR"
export XDG_DATA_HOME="$out/data"
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
mkdir -p "$out/target" "$out/xdg/applications"
cp "$DM_SOURCE_ROOT/resources/io.github.diskmeter.Diskmeter.desktop" "$out/xdg/applications/"

# Three rows: a 70/30 mix, a sequential read, and a read offered far more
# I/O per second than one thread at Q1 can do.
cat >"$out/mine.ini" <<'EOF'
# The test's own profile.
[OLTP 8K 70/30]
block = 8K
read = 70
random = 100
qd = 4

[Seq read 1M]
block = 1M
read = 100
random = 0
qd = 2

[Capped 4K]
block = 4K
read = 100
rate = 1000000iops
EOF
# Line 5 is wrong: a read share past 100.
printf '[fine]\nblock = 4K\n\n[wrong]\nread = 150\n' >"$out/bad.ini"

XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
timeout 150 dbus-run-session -- bash -c '
  id=io.github.diskmeter.Diskmeter
  o=$1
  act () { gapplication action "$id" "$1" ${2:+"'"'"'$2'"'"'"}; }
  "$DM_GUI" --target "$o/target" --count 1 --size 16MiB --duration 1 --warmup 0 --interval 0 \
    2>"$o/gui.err" & gui=$!
  gdbus wait --session --timeout 20 "$id" || { kill $gui; exit 3; }
  act save-screenshot-to "$o/plain.png" && act save-json-to "$o/plain.json" &&
  act profile-file "$o/bad.ini" && sleep 0.5 &&
  act save-screenshot-to "$o/bad.png" && act save-json-to "$o/bad.json" &&
  act profile-file "$o/mine.ini" && sleep 0.5 &&
  act save-json-to "$o/fresh.json" &&
  act run-all || { kill $gui; exit 4; }
  # Done once every row is: the saved JSON says so.
  for i in $(seq 1 90); do
    sleep 1
    act save-json-to "$o/poll.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if len(r[\"results\"]) == 3 and all(x[\"status\"] == \"complete\" for x in r[\"results\"]) else 1)" "$o/poll.json" 2>/dev/null && break
  done
  sleep 1
  act save-json-to "$o/run.json" && act save-text-to "$o/run.txt" && act save-csv-to "$o/run.csv" &&
  act save-screenshot-to "$o/run.png" && sleep 0.5 && act save-pdf-to "$o/run.pdf" &&
  sleep 2 && act quit
  rc=$?
  wait $gui
  exit $(( rc || $? ))' _ "$out" >"$out/dbus.log" 2>&1
rc=$?
grep -v "^dbus-daemon\|^$" "$out/dbus.log" | sed 's/^/#   /'
sed 's/^/#   gui: /' "$out/gui.err" | head -20
dm_check "gapplication chose the profiles, ran it, saved and quit (status $rc)" test "$rc" = 0

# --- a bad profile file ---------------------------------------------------------
reason=$(grep -m1 "bad.ini" "$out/gui.err")
dm_check "the bad file's reason names it and its line 5 ($reason)" \
  grep -q "bad.ini: line 5: read: .*150" "$out/gui.err"
dm_check "the bad file leaves the grid's report as it was (Default's tests)" \
  python3 - "$out/plain.json" "$out/bad.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rows = lambda r: [(x["test"], x["mode"]) for x in r["results"]]
print("#   before %s, after %s" % (a["profile"], b["profile"]))
assert a["profile"] == b["profile"] == "default" and rows(a) == rows(b), (rows(a), rows(b))
PY
# The pictures alike, pixel for pixel, down to where the error bar starts.
dm_check "the bad file leaves the grid as it was, to the pixel" \
  python3 - "$DM_SOURCE_ROOT/tests" "$out/plain.png" "$out/bad.png" <<'PY'
import sys, types
png = types.SimpleNamespace()
exec(open(sys.argv[1] + "/png.py").read().rsplit("main(sys.argv)", 1)[0], vars(png))
wa, ha, _, a = png.read_png(sys.argv[2])
wb, hb, _, b = png.read_png(sys.argv[3])
assert wa == wb, (wa, wb)
same = 0
while same < min(ha, hb) and a[same] == b[same]:
    same += 1
# The grid of four rows ends about 390 px down at this size; the error bar
# comes after it.
print("#   the first %d of %d rows are the same" % (same, ha))
assert same >= 380, same
PY

# --- the run --------------------------------------------------------------------
dm_check "the profile's rows are in the JSON, in order, each a complete workload" \
  python3 - "$out/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = [x["workload"].split(";")[0] for x in r["results"]]
print("#   %s: %s" % (r["profile"], names))
assert r["profile"] == "workloads"
assert names == ["name=OLTP 8K 70/30", "name=Seq read 1M", "name=Capped 4K"], names
assert all(x["status"] == "complete" for x in r["results"])
PY

# What each tile draws, from the PDF's first page (the window as drawn).
pdftotext -f 1 -l 1 "$out/run.pdf" "$out/page1.txt" 2>/dev/null
sed 's/^/#   pdf: /' "$out/page1.txt" | grep -v "pdf: $" | head -40
dm_check "the tiles draw the JSON's figures, within their rounding" \
  python3 - "$out/run.json" "$out/page1.txt" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
lines = [l.strip() for l in open(sys.argv[2]) if l.strip()]
res = r["results"]
names = ["OLTP 8K 70/30", "Seq read 1M", "Capped 4K"]
# The row buttons, top to bottom.
at = [lines.index(n) for n in names]
assert at == sorted(at), at
def us(text):
    v, unit = text.split()
    return float(v) * {"µs": 1, "ms": 1e3, "s": 1e6}[unit]
def close(shown, want, what):
    # Three significant digits: half a unit of the last one.
    digits = len(re.sub(r"\D", "", shown.split()[0]).lstrip("0")) or 1
    tol = max(abs(want) * 0.5 * 10 ** (1 - max(digits, 3)), 0.5 * 10 ** -2)
    ok = abs(us(shown) - want) <= tol * 1.01
    print("#   %s: drawn %s, JSON %.3f us%s" % (what, shown, want, "" if ok else "  <-- differs"))
    return ok
good = True
details = [l for l in lines if re.match(r"^\d+ IOPS · p99 ", l)]
assert len(details) == 3, details
for x, d, n in zip(res, details, names):
    m = re.match(r"^(\d+) IOPS · p99 (.+)$", d)
    print("#   %s: drawn %s IOPS, JSON %.3f" % (n, m.group(1), x["iops"]))
    good &= abs(int(m.group(1)) - x["iops"]) <= 0.5 + 1e-6
    good &= close(m.group(2), x["latency_us"]["p99"], n + " p99")
# Reads and writes apart: the mixed row only.
rw = [l for l in lines if l.startswith("Read p99 ")]
assert len(rw) == 1, rw
m = re.match(r"^Read p99 (.+) · Write p99 (.+)$", rw[0])
good &= close(m.group(1), res[0]["latency_read_us"]["p99"], "OLTP read p99")
good &= close(m.group(2), res[0]["latency_write_us"]["p99"], "OLTP write p99")
# The big figures, in MB/s, in the rows' order after the rest of the page.
big = [l for l in lines if re.match(r"^\d+\.\d\d$", l)]
print("#   big figures %s, JSON %s" % (big, [x["mb_per_s"] for x in res]))
good &= len(big) == 3 and all(abs(float(b) - x["mb_per_s"]) <= 0.005 + 1e-9 for b, x in zip(big, res))
# The capped row did not reach its rate, and says by how much.
cap = res[2]["rate"]
nm = [l for l in lines if l.startswith("Rate not met: ")]
print("#   rate %s; drawn %s" % (cap, nm))
good &= not cap["met"] and cap["reached"] < 0.97 * cap["offered"]
good &= len(nm) == 1 and nm[0] == "Rate not met: %d of 1000000 IOPS" % round(cap["reached"])
sys.exit(0 if good else 1)
PY

# One strip per row, one column of them, as wide as two plain tiles.
dm_check "each workload row has one tile spanning the columns (its meter's scale)" \
  python3 - "$DM_SOURCE_ROOT/tests" "$out/run.png" "$out/run.json" <<'PY'
import json, math, sys, types
png = types.SimpleNamespace()
exec(open(sys.argv[1] + "/png.py").read().rsplit("main(sys.argv)", 1)[0], vars(png))
BLUE = (54, 133, 227)
width, height, bpp, rows = png.read_png(sys.argv[2])
res = json.load(open(sys.argv[3]))["results"]
strips = []
for y, line in enumerate(rows):
    x, runs = 0, []
    while x < width:
        if all(abs(line[x * bpp + i] - BLUE[i]) <= 8 for i in range(3)):
            s = x
            while x < width and all(abs(line[x * bpp + i] - BLUE[i]) <= 8 for i in range(3)):
                x += 1
            if x - s >= 6:
                runs.append((s, x - s))
        x += 1
    if runs:
        if strips and strips[-1][2] == y - 1:
            strips[-1][2] = y
        else:
            strips.append([y, runs, y])
print("#   strips (top, [(left, length)]): %s" % [(s[0], s[1]) for s in strips])
assert len(strips) == 3, strips
assert all(len(s[1]) == 1 for s in strips), "more than one tile in a row"
lefts = {s[1][0][0] for s in strips}
assert len(lefts) == 1, lefts
# Each strip is log10(MB/s x 10) / 6 of the tile's width: fit that width.
fr = [math.log10(x["mb_per_s"] * 10) / 6 for x in res]
ln = [s[1][0][1] for s in strips]
n = 3
mf, ml = sum(fr) / n, sum(ln) / n
w = sum((f - mf) * (l - ml) for f, l in zip(fr, ln)) / sum((f - mf) ** 2 for f in fr)
left = lefts.pop()
print("#   tile from %d, %.0f px wide, picture %d wide" % (left, w, width))
# Two plain tiles and the gap between: past 60 % of the window (one is
# under 40 %), and ending at its right margin.
assert w > 0.6 * width and abs(left + w - (width - 15)) <= 6, (left, w, width)
PY

dm_check "the text export has the workload rows" \
  bash -c 'grep -q "^\[Workloads\]" "$1" && grep -q "OLTP 8K 70/30:" "$1" && grep -q "Capped 4K:" "$1" && grep -q "reached: not met" "$1"' _ "$out/run.txt"
dm_check "the CSV export has a line per workload row with its figures" \
  python3 - "$out/run.json" "$out/run.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
got = [float(x["mb_per_s"]) for x in rows]
print("#   CSV MB/s %s" % got)
assert got == [x["mb_per_s"] for x in r["results"]], got
PY
dm_check "the PDF has each row's latency detail" \
  bash -c 'for n in "OLTP 8K 70/30" "Seq read 1M" "Capped 4K"; do pdftotext "$1" - | grep -q "Latency — $n" || exit 1; done' _ "$out/run.pdf"
dm_check "the run left no test file" test -z "$(ls -A "$out/target")"

# --- the saved run opened again -------------------------------------------------
timeout 60 "$DM_GUI" --open "$out/run.json" --save-screenshot "$out/opened.png" \
  --save-json "$out/opened.json" --quit-when-done >"$out/open.log" 2>&1
sed 's/^/#   /' "$out/open.log"
dm_check "the opened run saves the same workload rows and figures" \
  python3 - "$out/run.json" "$out/opened.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda r: [(x["workload"], x["mb_per_s"], x["iops"], x["latency_us"]["p99"]) for x in r["results"]]
assert b["profile"] == "workloads" and key(a) == key(b), (key(a), key(b))
PY
dm_check "the opened run draws the same grid" \
  python3 - "$DM_SOURCE_ROOT/tests" "$out/run.png" "$out/opened.png" <<'PY'
import sys, types
png = types.SimpleNamespace()
exec(open(sys.argv[1] + "/png.py").read().rsplit("main(sys.argv)", 1)[0], vars(png))
wa, ha, _, a = png.read_png(sys.argv[2])
wb, hb, _, b = png.read_png(sys.argv[3])
# The header bar's free space and the status line differ; the rows
# between the control row and the comment are the grid.
same = sum(1 for y in range(100, min(ha, hb) - 110) if a[y] == b[y])
print("#   %d of %d grid rows alike (%dx%d, %dx%d)" % (same, min(ha, hb) - 210, wa, ha, wb, hb))
assert (wa, ha) == (wb, hb) and same == min(ha, hb) - 210
PY

# --- a disk is only read --------------------------------------------------------
# The loop device itself as the target: the rows that write are left out,
# saying so, the read-only ones run, and not a byte of the disk changes.
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null \
   && [ -w /dev/shm ]; then
  dm_loop_create 64
  python3 -c "import os,sys; f=open(sys.argv[1],'r+b'); [f.write(os.urandom(1<<20)) for _ in range(64)]" "$DM_LOOP"
  sync
  sum_before=$(sha256sum <"$DM_LOOP")
  XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
  timeout 120 dbus-run-session -- bash -c '
    id=io.github.diskmeter.Diskmeter
    o=$1
    act () { gapplication action "$id" "$1" ${2:+"'"'"'$2'"'"'"}; }
    "$DM_GUI" --target "$2" --count 1 --size 16MiB --duration 1 --warmup 0 --interval 0 \
      2>"$o/disk.err" & gui=$!
    gdbus wait --session --timeout 20 "$id" || { kill $gui; exit 3; }
    act profile-file "$o/mine.ini" && sleep 0.5 && act run-all || { kill $gui; exit 4; }
    for i in $(seq 1 60); do
      sleep 1
      act save-json-to "$o/disk.json"
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r[\"finished\"] and len(r[\"results\"]) == 2 and all(x[\"status\"] == \"complete\" for x in r[\"results\"]) else 1)" "$o/disk.json" 2>/dev/null && break
    done
    act quit
    rc=$?
    wait $gui
    exit $(( rc || $? ))' _ "$out" "$DM_LOOP" >"$out/disk.log" 2>&1
  rc=$?
  sed 's/^/#   gui: /' "$out/disk.err" | head -5
  dm_check "the disk's run was made over D-Bus (status $rc)" test "$rc" = 0
  dm_check "on a disk the workload that writes is left out, saying so" \
    grep -q "only read: the workloads that write are left out" "$out/disk.err"
  dm_check "on a disk the read-only workloads ran, the mixed one did not" \
    python3 - "$out/disk.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = [(x["workload"].split(";")[0], x["status"]) for x in r["results"]]
print("#   %s" % got)
assert got == [("name=Seq read 1M", "complete"), ("name=Capped 4K", "complete")], got
PY
  sum_after=$(sha256sum <"$DM_LOOP")
  dm_check "not a byte of the disk changed" test "$sum_before" = "$sum_after"
else
  dm_skip_part "not root or no loop devices: the disk-is-only-read part needs one"
fi
dm_finish
