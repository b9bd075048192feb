#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Study window driven over D-Bus (gapplication action, as a script or
# another program would): a plan over two folders of an ext4 loop device,
# crossed with
# Q 1,2, is opened, run from the window and saved. Its rules make every
# Q1 cell green and every Q2 cell red, whatever the speed, so the truth is
# the plan's arithmetic: the window's CSV must be diskmeter-cli study show
# --format csv of the same history byte for byte (and its workbook the
# CLI's, read back), the PNG must show four green cells on the first two
# rows and four red ones below them, sorted by Q descending the red rows
# come first, and "only all-green rows" leaves the two Q1 rows. While a
# second, longer plan runs the window names the scenario and the time left
# (OCR); stopped while it measures, the space of its test file is back
# within a second and nothing is saved; started again and quit while it
# measures, the process ends at once and leaves no test file. A plan with
# a bad line is refused with the file, the line and the reason.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
dm_need_cli
dm_need_loop
for tool in dbus-run-session gapplication gdbus; do
  command -v "$tool" >/dev/null || dm_die "$tool is missing (build-aux/dev installs it)"
done

dm_loop_create 128
dm_mkfs_mount
dm_tmpdir
out="$DM_TMPDIR"
# The study's runs go to a history of this test's own, off the device.
export XDG_DATA_HOME="$out/data"
mkdir -p "$XDG_DATA_HOME" "$DM_MNT/a" "$DM_MNT/b"

cat >"$out/plan.txt" <<EOF2
[study]
name = guitest
tests = SEQ1M
modes = read,write
q = 1, 2
t = 1
count = 1
size = 16MiB
duration = 0.3
warmup = 0
interval = 0
# Green at Q1, red at Q2, whatever the folder measures.
threshold = read SEQ1M_Q1T1 MB/s green>0
threshold = write SEQ1M_Q1T1 MB/s green>0
threshold = read SEQ1M_Q2T1 MB/s red>0
threshold = write SEQ1M_Q2T1 MB/s red>0

[target A]
path = $DM_MNT/a

[target B]
path = $DM_MNT/b
EOF2
# The one to stop: long enough to be measuring when Stop comes.
sed -e 's/^name = guitest/name = stopped/' -e 's/^duration = 0.3/duration = 30/' \
  "$out/plan.txt" >"$out/long.txt"

# A plan with a bad line: refused with the file, the line and the reason.
printf '[study]\nname = bad\nq = 1, zero\n' >"$out/bad.txt"

dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

used_before=$(dm_fs_used "$DM_MNT")
timeout 150 dbus-run-session -- bash -c '
  id=io.github.diskmeter.Diskmeter
  o=$1 mnt=$2 before=$3
  act () { gapplication action "$id" "$1" ${2:+"$2"}; }
  q () { printf "%s" "'"'"'$1'"'"'"; }
  rows () { [ -s "$1" ] && echo $(( $(wc -l <"$1") - 1 )) || echo 0; }
  "$DM_GUI" 2>"$o/gui.err" & gui=$!
  gdbus wait --session --timeout 20 "$id" || { kill $gui; exit 3; }
  act study-open "$(q "$o/bad.txt")" && sleep 0.3 &&
  act study-open "$(q "$o/plan.txt")" && act study-start || { kill $gui; exit 4; }
  for i in $(seq 1 120); do
    sleep 0.5
    act study-save-csv-to "$(q "$o/poll.csv")"
    [ "$(rows "$o/poll.csv")" = 4 ] && break
  done
  sleep 1
  act study-save-csv-to "$(q "$o/window.csv")" && act study-save-xlsx-to "$(q "$o/window.xlsx")" &&
  act study-save-png-to "$(q "$o/all.png")" && sleep 1 &&
  act study-sort "$(q "-Q")" && act study-save-png-to "$(q "$o/sorted.png")" && sleep 1 &&
  act study-green-only true && act study-save-png-to "$(q "$o/green.png")" && sleep 1 &&
  act study-green-only false || { kill $gui; exit 5; }
  # A run stopped while it measures: its test file (16 MiB, unnamed) is
  # the space used on the device beyond what it was.
  used () { sync -f "$mnt"; stat -f -c "%b %f %S" "$mnt" | awk "{ printf \"%.0f\\n\", (\$1 - \$2) * \$3 }"; }
  act study-open "$(q "$o/long.txt")" && act study-start || { kill $gui; exit 6; }
  for i in $(seq 1 100); do
    sleep 0.1
    [ $(( $(used) - before )) -gt $((12 << 20)) ] && break
  done
  sleep 1
  act study-save-png-to "$(q "$o/running.png")" && sleep 0.7
  echo "in use while measuring: $(( $(used) - before )) bytes more" >"$o/stop.txt"
  t0=$(date +%s%N)
  act study-stop
  for i in $(seq 1 100); do
    [ $(( $(used) - before )) -lt $((1 << 20)) ] && break
    sleep 0.02
  done
  echo "stop took $(( ($(date +%s%N) - t0) / 1000000 )) ms" >>"$o/stop.txt"
  sleep 0.5
  # Start goes on with the same scenario; Quit while it measures cancels
  # it and the process ends once the engine has removed the test file.
  act study-start || { kill $gui; exit 7; }
  for i in $(seq 1 100); do
    sleep 0.1
    [ $(( $(used) - before )) -gt $((12 << 20)) ] && break
  done
  sleep 1
  echo "in use again: $(( $(used) - before )) bytes more" >>"$o/stop.txt"
  t0=$(date +%s%N)
  act quit
  rc=$?
  wait $gui
  gui_rc=$?
  echo "quit took $(( ($(date +%s%N) - t0) / 1000000 )) ms, then $(( $(used) - before )) bytes more in use" >>"$o/stop.txt"
  exit $(( rc || gui_rc ))' _ "$out" "$DM_MNT" "$used_before" >"$out/dbus.log" 2>&1
rc=$?
grep -v "^dbus-daemon\|^$" "$out/dbus.log" | sed 's/^/#   /'
sed 's/^/#   gui: /' "$out/gui.err" | head -20
dm_check "the window ran the plan over D-Bus, saved and quit (status $rc)" test "$rc" = 0

reason=$(grep -m1 "bad.txt" "$out/gui.err")
dm_check "the bad plan is refused with its file, line 3 and why ($reason)" \
  grep -q "bad.txt: line 3: .*zero" "$out/gui.err"

# --- the sheet: the CLI's, of the same history ------------------------------------
dm_run "$out/cli.csv" "$out/cli.err" study show guitest --format csv
dm_check "diskmeter-cli study show exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_log "the window's CSV: $(head -c 400 "$out/window.csv" | tr '\n' '|')"
dm_check "the window's CSV holds the four scenarios" test "$(wc -l <"$out/window.csv")" = 5
dm_check "the window's CSV is diskmeter-cli study show --format csv, byte for byte" \
  cmp "$out/window.csv" "$out/cli.csv"
dm_check "by the plan's rules, Q1 rows are all green and Q2 rows are not" python3 - "$out/cli.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = sorted((r["target"], r["q"], r["all_green"]) for r in rows)
want = [("A", "1", "yes"), ("A", "2", "no"), ("B", "1", "yes"), ("B", "2", "no")]
print("#   rows (target, q, all_green):", got)
sys.exit(0 if got == want else 1)
PY
if [ -s "$out/window.xlsx" ] && python3 -c "import openpyxl" 2>/dev/null; then
  dm_run "$out/cli.out" "$out/cli.err" study show guitest --format xlsx --output "$out/cli.xlsx"
  dm_check "the window's workbook holds the CLI's cells" python3 - "$out/window.xlsx" "$out/cli.xlsx" <<'PY'
import openpyxl, sys
def cells(p):
    b = openpyxl.load_workbook(p)
    return {ws.title: [[c.value for c in r] for r in ws.iter_rows()] for ws in b.worksheets}
a, b = cells(sys.argv[1]), cells(sys.argv[2])
print("#   sheets", list(a), "rows", [len(v) for v in a.values()])
sys.exit(0 if a == b and a else 1)
PY
elif [ -s "$out/window.xlsx" ]; then
  dm_skip_part "the workbook's cells: no openpyxl"
else
  dm_check "the window saved a workbook (a build without libxlsxwriter says why)" \
    grep -q "Excel\|xlsx" "$out/gui.err"
fi

# DM_TEST_KEEP=DIR keeps the pictures for a look by eye.
[ -n "${DM_TEST_KEEP:-}" ] && cp "$out"/*.png "$DM_TEST_KEEP"/
# --- the table's colours ------------------------------------------------------
# The cells' fills (resources/style.css): green #2ec27e, red #e01b24. Each
# coloured cell is one bar; a row's two figure cells share its top.
bars () { dm_png bars "$1" "$2" | awk '{ print $1 }' | sort -n | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' '; }
for shot in all sorted green running; do
  [ -s "$out/$shot.png" ] || dm_die "no $shot.png"
done
g=$(bars "$out/all.png" 46,194,126); r=$(bars "$out/all.png" 224,27,36)
dm_log "all.png: green cell rows (top:count) $g; red $r"
dm_check "two rows of two green cells, two rows of two red ones, green on top" python3 - "$g" "$r" <<'PY'
import sys
def rows(s):
    return [tuple(map(int, x.split(":"))) for x in s.split()]
g, r = rows(sys.argv[1]), rows(sys.argv[2])
ok = len(g) == 2 and len(r) == 2 and all(n == 2 for _, n in g + r) and max(t for t, _ in g) < min(t for t, _ in r)
sys.exit(0 if ok else 1)
PY
g=$(bars "$out/sorted.png" 46,194,126); r=$(bars "$out/sorted.png" 224,27,36)
dm_log "sorted by Q descending: green $g; red $r"
dm_check "sorted by Q descending, the red (Q2) rows come first" python3 - "$g" "$r" <<'PY'
import sys
g = [int(x.split(":")[0]) for x in sys.argv[1].split()]
r = [int(x.split(":")[0]) for x in sys.argv[2].split()]
sys.exit(0 if len(g) == 2 and len(r) == 2 and max(r) < min(g) else 1)
PY
g=$(bars "$out/green.png" 46,194,126); r=$(bars "$out/green.png" 224,27,36)
dm_log "only all-green rows: green $g; red '$r'"
dm_check "only all-green rows: the two Q1 rows, no red cell" \
  test "$(echo $g | wc -w)" = 2 -a -z "$r"

# While it runs: the scenario and the time left on the status line (OCR).
if command -v tesseract >/dev/null; then
  tesseract "$out/running.png" "$out/running" >/dev/null 2>&1
  line=$(grep -m1 -iE "scenario|left" "$out/running.txt" | tr -s ' ')
  dm_log "the running window's status, by OCR: '$line'"
  dm_check "while running the window says which scenario of how many (1 of 4)" \
    grep -qiE "scenario 1 of 4" "$out/running.txt"
  dm_check "... and the time left (M:SS left)" grep -qE "[0-9]+:[0-9]{2} left" "$out/running.txt"
else
  dm_skip_part "the running window's status: no tesseract"
fi

# --- Stop ---------------------------------------------------------------------
while read -r line; do dm_log "$line"; done <"$out/stop.txt"
grow=$(sed -n 's/.*while measuring: \([0-9]*\) bytes.*/\1/p' "$out/stop.txt")
ms=$(sed -n 's/stop took \([0-9]*\) ms/\1/p' "$out/stop.txt")
dm_check "the long run was measuring on its test file when stopped" test "${grow:-0}" -gt $((12 << 20))
dm_check "Stop gave the test file's space back within a second (${ms:-?} ms)" test "${ms:-9999}" -lt 1000
again=$(sed -n 's/.*in use again: \([0-9]*\) bytes.*/\1/p' "$out/stop.txt")
read -r quit_ms after < <(sed -n 's/quit took \([0-9]*\) ms, then \(-*[0-9]*\) bytes.*/\1 \2/p' "$out/stop.txt")
dm_check "Start after Stop measured again" test "${again:-0}" -gt $((12 << 20))
dm_check "Quit while measuring ended the process within two seconds (${quit_ms:-?} ms)" \
  test "${quit_ms:-9999}" -lt 2000
dm_check "... and the test file was gone when it ended" test "${after:-99999999}" -lt $((1 << 20))
dm_check "nothing left open or in use on the target's filesystem" dm_no_test_file "$DM_MNT" "$used_before"
dm_run "$out/stopped.csv" "$out/stopped.err" study show stopped --format csv
dm_check "the stopped scenario was not saved (study show: no study stopped, status 2)" \
  test "$DM_RC" = 2

dm_finish
