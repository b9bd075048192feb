#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Save as PDF, read back with poppler: the saved runs of tests/pixels/
# opened with --save-pdf. The grid's PDF has one page for the grid and one
# for each finished test's latency detail; pdftotext finds every figure of
# the JSON on them as the window shows it (MB/s to the hundredth, the
# latencies to three digits), so they are text, not pictures; images
# cover next to nothing of the first page; and pdftoppm's rendering of
# page 1 at the screenshot's size is the screenshot, but for how the
# glyphs are smoothed. A comparison's PDF has its page and each run's
# latency details; the Sweep and the Sustained windows save a page each
# with their figures, and the grid's PDF made over D-Bus with both open
# ends with their pages. A PDF saved into a folder nothing
# may be created in fails with one line and a non-zero exit, and leaves
# nothing there. Under LANGUAGE=de a sustained run and a sweep that fail
# in that folder say why in German (the engine's reason translated, as
# diskmeter-cli shows it), read from their PDFs.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
DM_UI_PDF="${DM_UI_PDF:-}"
[ -n "$DM_UI_PDF" ] && [ -x "$DM_UI_PDF" ] || dm_die "DM_UI_PDF is not set to test-ui-pdf (run through meson test)"
for tool in pdftotext pdftoppm pdfinfo pdfimages; do
  command -v "$tool" >/dev/null || dm_die "$tool is missing (build-aux/dev installs poppler-utils)"
done
fixtures="$DM_SOURCE_ROOT/tests/pixels"

dm_tmpdir
out="$DM_TMPDIR"
export XDG_DATA_HOME="$out/data" HOME="$out/home"
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

# A folder nothing may be created in, even by root: immutable (chattr) for
# root, read-only for anyone else. Its flag is taken off before the
# teardown removes it.
locked="$out/locked"
mkdir "$locked"
unlock () { chattr -i "$locked" 2>/dev/null; chmod 755 "$locked" 2>/dev/null; }
trap 'unlock; _dm_on_exit' EXIT
if [ "$(id -u)" = 0 ]; then chattr +i "$locked" 2>/dev/null; else chmod 555 "$locked"; fi
touch "$locked/probe" 2>/dev/null && { rm -f "$locked/probe"; unlock
  dm_die "cannot make a folder nobody may create a file in (chattr +i or chmod 555)"; }

pages () { pdfinfo "$1" 2>/dev/null | sed -n 's/^Pages: *//p'; }
# says PDF TEXT: the PDF's text holds TEXT (lines joined).
says () { [ -n "$2" ] && pdftotext "$1" - 2>/dev/null | tr '\n' ' ' | grep -qF -- "$2"; }

# figures JSON PDF KIND [PAGE | OTHER.json...]: every figure of the JSON
# on the PDF's pages as the window writes it (a sweep's or a sustained
# run's on PAGE, 1 unless given; a comparison's with OTHER's); prints what
# is missing.
figures ()
{
  python3 - "$@" <<'PY'
import json, math, os, subprocess, sys

path, pdf, kind = sys.argv[1:4]
report = json.load(open(path))
done = [r for r in report["results"] if r["status"] == "complete"]

def page(n):
    return subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), pdf, "-"],
                          capture_output=True, text=True, check=True).stdout

def latency(us):
    # dm_format_latency_us: three significant digits in µs, ms or s.
    units, u = [(1, "µs"), (1e3, "ms"), (1e6, "s")], 0
    while u + 1 < len(units) and us / units[u][0] >= 999.5:
        u += 1
    v = us / units[u][0]
    decimals = 2 - int(math.floor(math.log10(v)))
    if decimals > 0 and abs(v) * 10 ** decimals >= 999.5:
        decimals -= 1
    return "%.*f %s" % (max(0, min(decimals, 9)), v, units[u][1])

missing = []
def want(text, figure, what):
    if figure not in text:
        missing.append("%s: %s" % (what, figure))

def latency_pages(runs):
    # One latency page per finished test of each run, in any order, found by
    # its title ("... Read (before.json)" in a comparison); its figures on it.
    n_pages = sum(len(results) for _, results in runs)
    pages = {n: page(n) for n in range(2, n_pages + 2)}
    for name, results in runs:
        for r in results:
            title = "Latency — %s %s%s" % (r["test"].replace("_", " / "), r["mode"].capitalize(),
                                           " (%s)" % name if name else "")
            hits = [n for n, text in pages.items() if title in text]
            if len(hits) != 1:
                missing.append("a page titled %s (found on %s)" % (title, hits or "none"))
                continue
            for key in ("min", "p50", "p90", "p99", "p99_9", "p99_99", "max", "mean"):
                want(pages[hits[0]], latency(r["latency_us"][key]), "page %d, %s" % (hits[0], key))

if kind == "grid":
    first = page(1)
    for r in done:
        want(first, "%.2f" % r["mb_per_s"], "page 1, %s %s MB/s" % (r["test"], r["mode"]))
    latency_pages([(None, done)])
elif kind == "compare":
    # The runs side by side on page 1; then their latency details, each
    # titled with its run's file name.
    runs = [(os.path.basename(path), done)]
    for other in sys.argv[4:]:
        runs.append((os.path.basename(other), [r for r in json.load(open(other))["results"]
                                               if r["status"] == "complete"]))
    first = page(1)
    for name, results in runs:
        for r in results:
            want(first, "%.2f" % r["mb_per_s"], "page 1, %s %s %s" % (name, r["test"], r["mode"]))
    latency_pages(runs)
elif kind == "sweep":
    # The heat maps: IOPS in thousands, the p99 latency in µs.
    first = page(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    for r in done:
        want(first, "%.0fk" % (r["iops"] / 1000), "%s QD%d T%d IOPS" % (r["test"], r["queue_depth"], r["threads"]))
        want(first, latency(r["latency_us"]["p99"]).split()[0], "%s p99" % r["test"])
elif kind == "sustained":
    first = page(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    s = report["sustained"]
    want(first, "%.1f MB/s on average" % done[0]["mb_per_s"], "the average")
    want(first, "opening %.0f MB/s" % s["opening_mb_per_s"], "the opening rate")
for m in missing:
    print("#   missing %s" % m)
print("#   %d figures missing" % len(missing))
sys.exit(1 if missing else 0)
PY
}

# --- the grid ---------------------------------------------------------------

timeout 90 "$DM_GUI" --open "$fixtures/run.json" --save-pdf "$out/run.pdf" \
  --save-screenshot "$out/run.png" --quit-when-done >"$out/run.log" 2>&1
status=$?
sed 's/^/#   /' "$out/run.log"
dm_check "the grid's PDF and screenshot were saved (exit $status)" \
  test "$status" = 0 -a -s "$out/run.pdf" -a -s "$out/run.png"
n_done=$(dm_json "$fixtures/run.json" 'sum(r["status"] == "complete" for r in j["results"])')
dm_check "one page for the grid and one per finished test: $((n_done + 1)) (got $(pages "$out/run.pdf"))" \
  test "$(pages "$out/run.pdf")" = "$((n_done + 1))"
info=$(pdfinfo "$out/run.pdf" 2>/dev/null)
dm_check "its title and creator name Diskmeter" \
  bash -c 'grep -q "^Title: *Diskmeter –" <<<"$1" && grep -q "^Creator: *Diskmeter [0-9]" <<<"$1"' _ "$info"
dm_check "every MB/s of the JSON is text on page 1, every latency on its test's page" \
  figures "$fixtures/run.json" "$out/run.pdf" grid
# Vector, not a picture: the images on page 1 (the buttons' shadows) cover
# under 5% of it.
read -r pw ph < <(pdfinfo -f 1 -l 1 "$out/run.pdf" \
                   | sed -n 's/^Page *1 size: *\([0-9.]*\) x \([0-9.]*\).*/\1 \2/p')
share=$(pdfimages -list -f 1 -l 1 "$out/run.pdf" | python3 -c '
import sys
rows = [l.split() for l in sys.stdin.read().splitlines()[2:]]
# width and height in pixels at x-ppi and y-ppi: the area they are drawn on
area = sum(int(r[3]) * 72.0 / int(r[12]) * int(r[4]) * 72.0 / int(r[13]) for r in rows)
print("%.4f" % (area / (float(sys.argv[1]) * float(sys.argv[2]))))' "${pw:-1}" "${ph:-1}")
dm_check "page 1 is drawn, not pasted: images cover ${share:-?} of it" \
  python3 -c "import sys; sys.exit(0 if float('${share:-1}') < 0.05 else 1)"
read -r w h _ < <(dm_png stats "$out/run.png")
pdftoppm -f 1 -l 1 -scale-to-x "$w" -scale-to-y "$h" -png "$out/run.pdf" "$out/page"
page1=$(ls "$out"/page*.png 2>/dev/null | head -1)
verdict=$([ -n "$page1" ] && dm_png differ "$out/run.png" "$page1" 24)
dm_log "page 1 at ${w}x${h} against the screenshot: ${verdict:-no page}"
dm_check "page 1 rendered at the screenshot's size is the screenshot" test "$verdict" = SAME

# --- the comparison, the sweep, the sustained run ---------------------------

timeout 60 "$DM_GUI" --open "$fixtures/run.json" --open "$fixtures/b.json" \
  --save-pdf "$out/compare.pdf" --quit-when-done >"$out/compare.log" 2>&1
status=$?
n_b=$(dm_json "$fixtures/b.json" 'sum(r["status"] == "complete" for r in j["results"])')
dm_check "the comparison's PDF: its page and both runs' latency pages, $((1 + n_done + n_b)) (exit $status, $(pages "$out/compare.pdf") pages)" \
  test "$status" = 0 -a "$(pages "$out/compare.pdf")" = $((1 + n_done + n_b))
dm_check "... with both runs' figures" \
  figures "$fixtures/run.json" "$out/compare.pdf" compare "$fixtures/b.json"
for kind in sweep sustained; do
  timeout 60 "$DM_GUI" --open "$fixtures/$kind.json" --save-pdf "$out/$kind.pdf" --quit-when-done \
    >"$out/$kind.log" 2>&1
  status=$?
  dm_check "the $kind window's PDF: one page (exit $status, $(pages "$out/$kind.pdf") pages)" \
    test "$status" = 0 -a "$(pages "$out/$kind.pdf")" = 1
  dm_check "... with its figures" figures "$fixtures/$kind.json" "$out/$kind.pdf" "$kind"
done

# --- the report of everything on screen ------------------------------------

# The grid's Save as PDF, reached as `gapplication action` reaches it on a
# session bus of the test's own, with a sweep and a sustained run opened
# beside it by two more `diskmeter --open` handed to the running window:
# their windows are its last two pages.
if command -v dbus-run-session >/dev/null && command -v gapplication >/dev/null \
   && command -v gdbus >/dev/null; then
  mkdir -p "$out/xdg/applications"
  cp "$DM_SOURCE_ROOT/resources/io.github.diskmeter.Diskmeter.desktop" "$out/xdg/applications/"
  XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
  timeout 90 dbus-run-session -- bash -c '
    id=io.github.diskmeter.Diskmeter
    "$DM_GUI" --open "$1" & gui=$!
    gdbus wait --session --timeout 15 "$id" || { kill $gui; exit 3; }
    "$DM_GUI" --open "$2" && "$DM_GUI" --open "$3" || { kill $gui; exit 4; }
    gapplication action "$id" save-pdf-to "'"'"'$4'"'"'" || { kill $gui; exit 5; }
    for _ in $(seq 1 200); do [ -s "$4" ] && break; sleep 0.1; done
    gapplication action "$id" quit
    wait $gui' _ "$fixtures/run.json" "$fixtures/sweep.json" "$fixtures/sustained.json" \
    "$out/all.pdf" >"$out/all.log" 2>&1
  status=$?
  grep -v "^dbus-daemon\|^$" "$out/all.log" | sed 's/^/#   /'
  dm_check "the report of the grid, a sweep and a sustained run: grid, $n_done latency pages, sweep, sustained (exit $status, $(pages "$out/all.pdf") pages)" \
    test "$status" = 0 -a "$(pages "$out/all.pdf")" = "$((n_done + 3))"
  dm_check "... the grid's figures first" figures "$fixtures/run.json" "$out/all.pdf" grid
  dm_check "... then the sweep's" figures "$fixtures/sweep.json" "$out/all.pdf" sweep $((n_done + 2))
  dm_check "... then the sustained run's" \
    figures "$fixtures/sustained.json" "$out/all.pdf" sustained $((n_done + 3))
else
  dm_check "dbus-run-session, gapplication and gdbus are installed (build-aux/dev installs them)" false
fi

# --- a save that cannot be made ---------------------------------------------

timeout 60 "$DM_GUI" --open "$fixtures/run.json" --save-pdf "$locked/run.pdf" --quit-when-done \
  >"$out/locked.log" 2>"$out/locked.err"
status=$?
sed 's/^/#   /' "$out/locked.err"
dm_check "a PDF into a locked folder fails the command (exit $status)" test "$status" = 1
dm_check "... with one line that says which file and why" \
  bash -c "[ \$(wc -l <'$out/locked.err') = 1 ] && grep -q 'Could not save $locked/run.pdf: .' '$out/locked.err'"
dm_check "... and leaves nothing in the folder" test -z "$(ls -A "$locked")"

# --- failures in the user's language ----------------------------------------

if [ "${DM_NLS:-1}" = 1 ]; then
  export DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po"
  german=$(python3 - "$DM_SOURCE_ROOT/po/de.po" "$locked" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
def entry(msgid):
    m = re.search(r'\nmsgid "%s"\nmsgstr ((?:"[^\n]*"\n)+)' % re.escape(msgid), text)
    return "".join(re.findall(r'"(.*)"', m.group(1))) if m else ""
print(entry("Failed: %s").replace("%s", entry("no permission to create a file in %s")).replace(
    "%s", sys.argv[2]))
PY
)
  dm_log "the German failure: $german"
  LC_ALL= LANG=C.UTF-8 LANGUAGE=de timeout 60 "$DM_GUI" --sustained --target "$locked" \
    --span 16MiB --duration 1 --save-pdf "$out/sustained-de.pdf" --quit-when-done \
    >"$out/sustained-de.log" 2>&1
  status=$?
  shown=$(pdftotext "$out/sustained-de.pdf" - 2>/dev/null | grep -m1 -F "$locked ")
  dm_log "the Sustained window says: ${shown:-nothing}"
  dm_check "a sustained run that cannot write fails the command (exit $status)" test "$status" = 1
  dm_check "... and says why in German" says "$out/sustained-de.pdf" "$german"
  LC_ALL= LANG=C.UTF-8 LANGUAGE=de timeout 90 "$DM_UI_PDF" sweep "$locked" "$out/sweep-de.pdf" \
    >"$out/sweep-de.log" 2>&1
  status=$?
  sed 's/^/#   /' "$out/sweep-de.log"
  dm_check "a sweep that cannot write is saved as a PDF (exit $status)" test "$status" = 0
  dm_check "... and says why in German" says "$out/sweep-de.pdf" "$german"
else
  dm_skip_part "a build without translations has no German failures to show"
fi
dm_check "nothing was left in the locked folder" test -z "$(ls -A "$locked")"

dm_finish
