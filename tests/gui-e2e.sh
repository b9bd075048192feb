#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real Diskmeter window, unattended, on a private X display, against an
# ext4 folder on a loop device this test owns: the demo profile runs to the
# end and leaves a JSON with results and a screenshot of the window's size
# that is not blank; closing the window mid-run stops cleanly and keeps the
# finished row; a read-only target gives a readable error, not a crash;
# --modes read runs and exports the Read column only, its Write tiles drawn
# empty; a disk (the loop device itself) is only read. No test file may be
# left behind in any case.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
dm_need_loop

dm_loop_create 256
dm_mkfs_mount
dm_tmpdir
out="$DM_TMPDIR"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
dm_log "display $DISPLAY, target $DM_MNT"

# The test file never has a name to look for: what a run must not leave is
# a file held open on the test filesystem or space it took (tests/lib.sh).
used_empty=$(dm_fs_used "$DM_MNT")
no_test_file ()
{
  dm_no_test_file "$DM_MNT" "$used_empty"
}

# --- 1. A complete run --------------------------------------------------------
timeout 120 "$DM_GUI" --target "$DM_MNT" --profile demo --count 1 --size 16MiB \
  --duration 1 --warmup 0 --interval 0 --comment "e2e run" \
  --run --save-screenshot "$out/shot.png" --save-json "$out/run.json" --quit-when-done \
  >"$out/run.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/run.log"
dm_check "the window ran the demo profile and quit with status 0 (got $rc)" test "$rc" = 0

dm_check "the JSON has complete, positive results for the demo profile" python3 - "$out/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"]
modes = sorted(x["mode"] for x in res)
print("#   status", r["status"], "results", [(x["test"], x["mode"], x["mb_per_s"]) for x in res])
assert r["status"] == "complete", r["status"]
assert modes == ["read", "write"], modes
assert all(x["mb_per_s"] > 0 and x["iops"] > 0 for x in res)
assert all(x["test"].upper().startswith("SEQ1M") for x in res)
assert r.get("comment") == "e2e run", r.get("comment")
PY

read -r png_w png_h png_colours png_ink < <(dm_png stats "$out/shot.png")
read -r win_w win_h < <(sed -n 's/^diskmeter: saved screenshot \([0-9]*\)x\([0-9]*\) .*/\1 \2/p' "$out/run.log")
dm_log "screenshot ${png_w}x${png_h}, window ${win_w:-?}x${win_h:-?}, $png_colours colours, ink $png_ink"
dm_check "the screenshot has the window's size" test "${png_w}x${png_h}" = "${win_w}x${win_h}"
# The window is as tall as its content: the Demo profile's one row, the
# comment, status and footer under the control row and the header bar.
dm_check "the window is of a usable size (at least 600x250)" test "$png_w" -ge 600 -a "$png_h" -ge 250
dm_check "the screenshot is not blank (many colours, ink on over 5% of it)" \
  python3 -c "import sys; sys.exit(0 if int('$png_colours') > 50 and float('$png_ink') > 0.05 else 1)"
dm_check "no test file is left after a complete run" no_test_file
if [ -n "${DM_GUI_KEEP:-}" ]; then cp "$out/shot.png" "$DM_GUI_KEEP"; fi

# --- 1b. A saved run opened again -------------------------------------------
# Another machine's run (its drive and OS named in the file): the window
# shows it with its own profile, count and size, and saving it again keeps
# every figure and says where it was measured, not where the window is.
python3 - "$out/run.json" "$out/elsewhere.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["target"]["path"] = "/srv/elsewhere"
r["system"]["os"] = "Elsewhere OS 1.0"
json.dump(r, open(sys.argv[2], "w"))
PY
timeout 60 "$DM_GUI" --target "$DM_MNT" --open "$out/elsewhere.json" --save-json "$out/reopened.json" \
  --save-screenshot "$out/reopened.png" --quit-when-done >"$out/open.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/open.log"
dm_check "--open showed the saved run and quit with status 0 (got $rc)" test "$rc" = 0
dm_check "saved again, the run keeps its figures, settings, drive and OS" \
  python3 - "$out/elsewhere.json" "$out/reopened.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fig = lambda r: sorted((x["test"], x["mode"], x["mb_per_s"], x["iops"]) for x in r["results"])
print("#   reopened:", b["profile"], b["settings"]["count"], b["settings"]["test_size"],
      b["target"]["path"], b["system"]["os"], fig(b))
assert fig(a) == fig(b), (fig(a), fig(b))
assert b["target"]["path"] == "/srv/elsewhere", b["target"]
assert b["system"]["os"] == "Elsewhere OS 1.0", b["system"]
assert b["profile"] == a["profile"] == "demo", b["profile"]
for k in ("count", "test_size"):
    assert b["settings"][k] == a["settings"][k], (k, a["settings"][k], b["settings"][k])
PY
read -r w h _ < <(dm_png stats "$out/reopened.png")
dm_check "the reopened run's screenshot is the demo grid's size (${w}x${h} vs ${png_w}x${png_h})" \
  test "${w}x${h}" = "${png_w}x${png_h}"
# --- 1c. What a screenshot shows ----------------------------------------------
# The window exists to be pasted into reports: its title names the target
# and profile, the progress bar is gone once the run is done, the footer is
# whole (read back by OCR) even in the narrowest window, --screenshot-scale
# draws a larger PNG of the same window, and the dark style keeps the
# digits readable (WCAG contrast from the PNG's own pixels).
dm_check "the finished run's screenshot has no progress bar in its status line" \
  python3 - "$out/shot.png" "$DM_SOURCE_ROOT/tests/png.py" <<'PY'
import subprocess, sys
png, tool = sys.argv[1:3]
h = int(subprocess.check_output([sys.executable, tool, "stats", png]).split()[1])
# The tiles' meters and the progress bar are drawn in the same blue; only
# the bar sits in the bottom third, between the comment and the footer.
bars = [list(map(int, l.split())) for l in
        subprocess.check_output([sys.executable, tool, "bars", png, "53,132,228"]).decode().splitlines()]
print("#   blue bars (top left length):", bars, "height", h)
assert not [b for b in bars if b[0] > h * 2 // 3], "a progress bar is left on screen"
PY

if command -v tesseract >/dev/null; then
  # The narrowest window, a long folder and drive: the OS still shows.
  python3 - "$out/run.json" "$out/long.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["target"]["path"] = "/srv/benchmarks/storage-array-seven/a-rather-long-folder-name/run"
r["target"]["model"] = "Example Enterprise NVMe Drive 7.68TB"
r["system"]["os"] = "Elsewhere OS 1.0"
json.dump(r, open(sys.argv[2], "w"))
PY
  mkdir -p "$out/config/glib-2.0/settings"
  printf '[io/github/diskmeter/Diskmeter]\nwindow-width=320\nwindow-height=300\n' \
    >"$out/config/glib-2.0/settings/keyfile"
  GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/config" timeout 60 "$DM_GUI" \
    --open "$out/long.json" --save-screenshot "$out/narrow.png" --quit-when-done \
    >"$out/narrow.log" 2>&1
  sed 's/^/#   /' "$out/narrow.log"
  tesseract "$out/narrow.png" "$out/narrow" >/dev/null 2>&1
  sed 's/^/#   ocr: /' "$out/narrow.txt"
  dm_check "a narrow window's screenshot still shows the whole footer, OS last (OCR)" \
    grep -q "Elsewhere OS 1" "$out/narrow.txt"
else
  dm_check "tesseract is installed for the OCR checks (build-aux/dev installs tesseract-ocr)" false
fi

timeout 60 "$DM_GUI" --open "$out/run.json" --save-screenshot "$out/x2.png" --screenshot-scale 2 \
  --quit-when-done >"$out/x2.log" 2>&1
sed 's/^/#   /' "$out/x2.log"
read -r x2_w x2_h _ < <(dm_png stats "$out/x2.png")
read -r w1 h1 < <(sed -n 's/^diskmeter: saved screenshot .*(window \([0-9]*\)x\([0-9]*\), .*/\1 \2/p' "$out/x2.log")
dm_check "--screenshot-scale 2 draws the window at twice its size (${x2_w}x${x2_h}, window ${w1:-?}x${h1:-?})" \
  test "${x2_w}x${x2_h}" = "$(( ${w1:-0} * 2 ))x$(( ${h1:-0} * 2 ))"
dm_check "... and the window itself is the usual one (${w1:-?}x${h1:-?} vs ${png_w}x${png_h})" \
  test "${w1:-0}x${h1:-0}" = "${png_w}x${png_h}"
if command -v tesseract >/dev/null; then
  # Read at twice the size, where OCR does not drop the title bar's letters.
  tesseract "$out/x2.png" "$out/x2" >/dev/null 2>&1
  sed 's/^/#   ocr: /' "$out/x2.txt"
  dm_check "the title names the profile (OCR: 'Diskmeter ... Demo')" \
    grep -q "Diskmeter.*Demo" "$out/x2.txt"
fi
timeout 60 "$DM_GUI" --open "$out/run.json" --screenshot-scale 9 --save-screenshot "$out/x9.png" \
  --quit-when-done >/dev/null 2>&1
rc=$?
dm_check "--screenshot-scale 9 is refused with status 2 (got $rc)" test "$rc" = 2

GTK_THEME=Adwaita:dark timeout 60 "$DM_GUI" --open "$out/run.json" \
  --save-screenshot "$out/dark.png" --quit-when-done >"$out/dark.log" 2>&1
read -r dark_fg dark_bg dark_ratio < <(dm_png tile-contrast "$out/dark.png")
read -r light_fg light_bg light_ratio < <(dm_png tile-contrast "$out/shot.png")
dm_log "tile contrast: dark $dark_ratio:1 ($dark_fg on $dark_bg), light $light_ratio:1 ($light_fg on $light_bg)"
dm_check "in the dark style the tiles' digits stand out at least 4.5:1 (${dark_ratio:-?}:1)" \
  python3 -c "import sys; sys.exit(0 if float('${dark_ratio:-0}') >= 4.5 else 1)"
dm_check "... and the dark screenshot is dark (tile $dark_bg)" \
  python3 -c "import sys; sys.exit(0 if sum(map(int, '${dark_bg:-255,255,255}'.split(','))) < 300 else 1)"
if [ -n "${DM_GUI_KEEP_DARK:-}" ]; then cp "$out/dark.png" "$DM_GUI_KEEP_DARK"; fi

# A failed test's word is drawn in red: it must read as well as digits do,
# in both styles (the first row of tiles failed, with the engine's reason).
python3 - "$out/run.json" "$out/failed.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
first = j["results"][0]["test"]
for r in j["results"]:
    if r["test"] == first:
        r["status"], r["error"] = "failed", "no I/O completed in 5 s; the device does not answer"
json.dump(j, open(sys.argv[2], "w"))
PY
for style in light dark; do
  theme=Adwaita; [ "$style" = dark ] && theme=Adwaita:dark
  GTK_THEME="$theme" timeout 60 "$DM_GUI" --open "$out/failed.json" \
    --save-screenshot "$out/failed-$style.png" --quit-when-done >/dev/null 2>&1
  read -r failed_fg failed_bg failed_ratio < <(dm_png tile-contrast "$out/failed-$style.png")
  dm_check "in the $style style a failed tile's red word stands out at least 4.5:1 (${failed_ratio:-?}:1, $failed_fg on $failed_bg)" \
    python3 -c "import sys; sys.exit(0 if float('${failed_ratio:-0}') >= 4.5 else 1)"
done

timeout 30 "$DM_GUI" --open "$out/missing.json" --quit-when-done >/dev/null 2>"$out/open.err"
rc=$?
dm_check "--open of a missing file fails with status 1 (got $rc)" test "$rc" = 1
dm_check "... and one line saying why" \
  test "$(grep -c '^diskmeter: --open: .*missing.json' "$out/open.err")" = 1
timeout 30 "$DM_GUI" --open "$out/run.json" --run >/dev/null 2>"$out/open.err"
rc=$?
dm_check "--open with --run is refused with status 2 (got $rc)" test "$rc" = 2

# --- 2. Closing the window mid-run -------------------------------------------
# As a user does: the close button, here the window manager's message
# (WM_DELETE_WINDOW) that clicking it sends, a second into a 6 s write
# test, so that a window that let the test run on would take 5 s. The
# window logs each figure as it is final, and the read's line says when.
"$DM_GUI" --target "$DM_MNT" --profile demo --count 1 --size 16MiB \
  --duration 6 --warmup 0 --interval 0 \
  --run --save-json "$out/stopped.json" --quit-when-done >"$out/stop.log" 2>&1 &
gui=$!
dm_track_pid "$gui"
for _ in $(seq 1 600); do
  grep -q "Read: " "$out/stop.log" && break
  kill -0 "$gui" 2>/dev/null || break
  sleep 0.05
done
sleep 1
dm_check "the window is running its write test when it is closed" \
  test -n "$(dm_open_files_on "$DM_MNT" "$gui")"
t0=$(date +%s%N)
dm_check "the window took the close request" dm_gui_close_window "$gui"
for _ in $(seq 1 100); do kill -0 "$gui" 2>/dev/null || break; sleep 0.05; done
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill -KILL "$gui" 2>/dev/null && dm_log "the window was still there after 5 s: killed"
wait "$gui" 2>/dev/null
dm_untrack_pid "$gui"
sed 's/^/#   /' "$out/stop.log"
dm_check "closing mid-run ends the process within 2 s (took ${stop_ms} ms)" test "$stop_ms" -lt 2000
dm_check "no test file is left after closing mid-run" no_test_file
dm_check "the finished row keeps its figure, the run is marked cancelled" python3 - "$out/stopped.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = {x["mode"]: x for x in r["results"]}
print("#   status", r["status"], {m: (x["status"], x["mb_per_s"]) for m, x in res.items()})
assert r["status"] == "cancelled", r["status"]
assert res["read"]["mb_per_s"] > 0
PY

# --- 3. A read-only target ----------------------------------------------------
mount -o remount,ro "$DM_MNT" || dm_die "could not remount $DM_MNT read-only"
timeout 60 "$DM_GUI" --target "$DM_MNT" --profile demo --count 1 --size 16MiB \
  --duration 1 --warmup 0 --interval 0 \
  --run --save-json "$out/ro.json" --quit-when-done >"$out/ro.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/ro.log"
dm_check "a read-only target fails with status 1, not a crash (got $rc)" test "$rc" = 1
dm_check "the window says why in words" grep -qi "read-only\|read only" "$out/ro.log"
mount -o remount,rw "$DM_MNT"
dm_check "no test file is left after the failure" no_test_file

# --- 4. Scripting over D-Bus ------------------------------------------------
# Every menu entry is an application action: `gapplication action` reaches
# them on a session bus of the test's own, and a second `diskmeter` with
# options is handed to the running window instead of opening another.
# build-aux/dev installs both tools, so a machine without them fails here
# rather than quietly leaving the part out.
dbus_tools=1
for tool in dbus-run-session gapplication gdbus; do
  command -v "$tool" >/dev/null && continue
  dm_check "$tool is installed for the D-Bus part (build-aux/dev installs dbus-daemon and libglib2.0-bin)" false
  dbus_tools=
done
if [ -n "$dbus_tools" ]; then
  mkdir -p "$out/xdg/applications"
  cp "$DM_SOURCE_ROOT/resources/io.github.diskmeter.Diskmeter.desktop" "$out/xdg/applications/"
  XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
  timeout 60 dbus-run-session -- bash -c '
    id=io.github.diskmeter.Diskmeter
    "$DM_GUI" --target "$1" & gui=$!
    gdbus wait --session --timeout 15 "$id" || { kill $gui; exit 3; }
    gapplication action "$id" profile "'"'"'peak'"'"'" &&
    "$DM_GUI" --count 2 --comment "over D-Bus" &&
    sleep 0.5 &&
    gapplication action "$id" save-json-to "'"'"'$2'"'"'" &&
    gapplication action "$id" modes "'"'"'write'"'"'" &&
    sleep 0.5 &&
    gapplication action "$id" save-json-to "'"'"'$3'"'"'" &&
    gapplication action "$id" quit
    rc=$?
    wait $gui
    exit $(( rc || $? ))' _ "$DM_MNT" "$out/dbus.json" "$out/dbus-write.json" >"$out/dbus.log" 2>&1
  rc=$?
  grep -v "^dbus-daemon\|^$" "$out/dbus.log" | sed 's/^/#   /'
  dm_check "gapplication drove the running window and quit it (status $rc)" test "$rc" = 0
  dm_check "the actions and the forwarded options reached the window" python3 - "$out/dbus.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = sorted(set(x["test"] for x in r["results"]))
print("#   profile", r["profile"], "count", r["settings"].get("count"), "tests", tests, "comment", r["comment"])
assert r["profile"] == "peak", r["profile"]
assert tests == ["RND4K_Q32T1", "SEQ1M_Q8T1"], tests
assert r["comment"] == "over D-Bus", r["comment"]
assert r["settings"]["count"] == 2, r["settings"]
PY
  dm_check "the modes action set Write only: the next export has Write figures only" \
    python3 - "$out/dbus-write.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
modes = sorted(set(x["mode"] for x in r["results"]))
print("#   modes after 'modes write':", modes)
assert modes == ["write"], modes
PY
fi

# --- 5. Read only, and a disk -------------------------------------------------
# CrystalDiskMark's Read mode: --modes read runs the Read column only. Its
# Write tiles are drawn empty (no 0.00, no meter) and no export has a Write
# figure. A disk, here the loop device under the test folder, is only read
# whatever the modes say, and the footer says so.
timeout 120 "$DM_GUI" --target "$DM_MNT" --profile demo --count 1 --size 16MiB \
  --duration 1 --warmup 0 --interval 0 --modes read \
  --run --save-screenshot "$out/read.png" --save-json "$out/read.json" --save-csv "$out/read.csv" \
  --save-text "$out/read.txt" --quit-when-done >"$out/read.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/read.log"
dm_check "--modes read ran and quit with status 0 (got $rc)" test "$rc" = 0
dm_check "its JSON, CSV and text have the Read figure and nothing of Write or Mix" \
  python3 - "$out/read.json" "$out/read.csv" "$out/read.txt" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
modes = [x["mode"] for x in r["results"]]
rows = [x["mode"] for x in csv.DictReader(open(sys.argv[2]))]
text = open(sys.argv[3]).read()
print("#   json", r["status"], [(x["mode"], x["mb_per_s"]) for x in r["results"]], "csv", rows)
assert r["status"] == "complete", r["status"]
assert modes == ["read"] and r["results"][0]["mb_per_s"] > 0, modes
assert rows == ["read"], rows
assert "[Read]" in text and "[Write]" not in text and "[Mix]" not in text, text
PY
# The grid's first row of tiles, right of its green button: the Read tile
# has digits, the Write tile nothing but its background.
tile_ink ()
{
  python3 - "$1" "$DM_SOURCE_ROOT/tests/png.py" <<'PY'
import sys
png, tool = sys.argv[1:3]
ns = {"__name__": "png"}
exec(open(tool).read().replace("\nmain(sys.argv)", "\n"), ns)
width, height, bpp, rows = ns["read_png"](png)
green = (46, 139, 62)
near = lambda px, c, d: all(abs(px[i] - c[i]) <= d for i in range(3))
groups = []
for y, line in enumerate(rows):
    xs = [x for x in range(width) if near(line[x * bpp:x * bpp + 3], green, 12)]
    if len(xs) < 30:
        continue
    if groups and groups[-1][1] == y - 1:
        groups[-1][1] = y
        groups[-1][2] = max(groups[-1][2], xs[-1])
    else:
        groups.append([y, y, xs[-1]])
top, bottom, right = groups[1]
left, end = right + 8, width - 8
half = (left + end) // 2
def ink(x0, x1):
    band = [rows[y][x * bpp:x * bpp + 3] for y in range(top + 4, bottom - 6) for x in range(x0, x1)]
    bg = max(set(band), key=band.count)
    return sum(1 for px in band if not near(px, bg, 40))
print(ink(left, half - 4), ink(half + 4, end))
PY
}
read -r read_ink write_ink < <(tile_ink "$out/read.png")
read -r full_read_ink full_write_ink < <(tile_ink "$out/shot.png")
dm_log "ink in the first row's tiles: read-only run ${read_ink:-?} / ${write_ink:-?}, full run ${full_read_ink:-?} / ${full_write_ink:-?}"
dm_check "the screenshot's Read tile has its figure (${read_ink:-?} ink pixels)" \
  test "${read_ink:-0}" -gt 100
dm_check "... and its Write tile is empty (${write_ink:-?} ink pixels; ${full_write_ink:-?} with a figure)" \
  test "${write_ink:-999}" -lt 20 -a "${full_write_ink:-0}" -gt 100
dm_check "no test file is left after the read-only run" no_test_file
timeout 60 "$DM_GUI" --open "$out/read.json" --save-json "$out/read-again.json" \
  --save-screenshot "$out/read-again.png" --quit-when-done >"$out/read-again.log" 2>&1
rc=$?
read -r again_read_ink again_write_ink < <(tile_ink "$out/read-again.png")
dm_check "opened again, the Read-only run keeps its Write tile empty (${again_write_ink:-?} ink pixels) and its JSON Read only (status $rc)" \
  python3 - "$out/read-again.json" "${again_read_ink:-0}" "${again_write_ink:-999}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
modes = [x["mode"] for x in r["results"]]
print("#   reopened modes", modes)
assert modes == ["read"], modes
assert int(sys.argv[2]) > 100 and int(sys.argv[3]) < 20, sys.argv[2:]
PY

# The choice is kept: Write only, set over D-Bus in one session (as the
# selector sets it), is in the settings file and what the next start runs.
if [ -n "$dbus_tools" ]; then
  mkdir -p "$out/keep"
  XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
  GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/keep" \
  timeout 60 dbus-run-session -- bash -c '
    id=io.github.diskmeter.Diskmeter
    "$DM_GUI" --target "$1" & gui=$!
    gdbus wait --session --timeout 15 "$id" || { kill $gui; exit 3; }
    gapplication action "$id" modes "'"'"'write'"'"'" &&
    sleep 0.3 &&
    gapplication action "$id" quit
    rc=$?
    wait $gui
    exit $(( rc || $? ))' _ "$DM_MNT" >"$out/keep.log" 2>&1
  rc=$?
  grep -v "^dbus-daemon\|^$" "$out/keep.log" | sed 's/^/#   /'
  sed 's/^/#   keyfile: /' "$out/keep/glib-2.0/settings/keyfile" 2>/dev/null
  dm_check "the modes action over D-Bus wrote Write only to the settings file (status $rc)" \
    grep -qx "modes='write'" "$out/keep/glib-2.0/settings/keyfile"
  GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/keep" timeout 120 "$DM_GUI" --profile demo \
    --count 1 --size 16MiB --duration 1 --warmup 0 --interval 0 --run --save-json "$out/kept.json" \
    --quit-when-done >"$out/kept.log" 2>&1
  dm_check "the next start ran Write only from the kept setting" python3 - "$out/kept.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("#   kept run", r["status"], [(x["mode"], x["mb_per_s"]) for x in r["results"]])
assert r["status"] == "complete", r["status"]
assert [x["mode"] for x in r["results"]] == ["write"], r["results"]
PY
  dm_check "no test file is left after the write-only run" no_test_file
fi

timeout 30 "$DM_GUI" --modes sideways --quit-when-done >/dev/null 2>"$out/modes.err"
rc=$?
dm_check "--modes sideways is refused with status 2 (got $rc) and one line saying why" \
  test "$rc" = 2 -a "$(grep -c "^diskmeter: --modes: 'sideways' is not a mode" "$out/modes.err")" = 1

# The device itself: the window reads it and writes nothing, with the
# modes set to all; its Write tile is empty as well.
timeout 120 "$DM_GUI" --target "$DM_LOOP" --profile demo --count 1 --size 16MiB \
  --duration 1 --warmup 0 --interval 0 --modes all \
  --run --save-screenshot "$out/device.png" --screenshot-scale 2 --save-json "$out/device.json" \
  --quit-when-done >"$out/device.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/device.log"
dm_check "a disk as the target ran and quit with status 0 (got $rc)" test "$rc" = 0
dm_check "the disk was only read: the JSON has a Read figure and no Write or Mix" \
  python3 - "$out/device.json" "$DM_LOOP" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("#   device run", r["status"], r["target"].get("path"), [(x["mode"], x["mb_per_s"]) for x in r["results"]])
assert r["status"] == "complete", r["status"]
assert r["target"]["is_block_device"], r["target"]
assert [x["mode"] for x in r["results"]] == ["read"], r["results"]
assert r["results"][0]["mb_per_s"] > 0
PY
read -r dev_read_ink dev_write_ink < <(tile_ink "$out/device.png")
dm_check "the disk's Write tile is empty (${dev_write_ink:-?} ink pixels, Read ${dev_read_ink:-?})" \
  test "${dev_write_ink:-999}" -lt 20 -a "${dev_read_ink:-0}" -gt 100
if command -v tesseract >/dev/null; then
  tesseract "$out/device.png" "$out/device" >/dev/null 2>&1
  sed 's/^/#   ocr: /' "$out/device.txt"
  dm_check "the disk run's footer says it was only read (OCR: 'read tests only')" \
    grep -qi "read tests only" "$out/device.txt"
fi

dm_finish
