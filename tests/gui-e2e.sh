#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real Diskmeter window, unattended, on a private X display, against an
# ext4 folder on a loop device this test owns: the demo profile runs to the
# end and leaves a JSON with results and a screenshot of the window's size
# that is not blank; closing the window mid-run stops cleanly and keeps the
# finished row; a read-only target gives a readable error, not a crash. No
# test file may be left behind in any case.
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

no_test_file ()
{
  ! ls "$DM_MNT"/diskmeter-*.tmp >/dev/null 2>&1
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
dm_check "the window is of a usable size (at least 600x400)" test "$png_w" -ge 600 -a "$png_h" -ge 400
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

timeout 30 "$DM_GUI" --open "$out/missing.json" --quit-when-done >/dev/null 2>"$out/open.err"
rc=$?
dm_check "--open of a missing file fails with status 1 (got $rc)" test "$rc" = 1
dm_check "... and one line saying why" \
  test "$(grep -c '^diskmeter: --open: .*missing.json' "$out/open.err")" = 1
timeout 30 "$DM_GUI" --open "$out/run.json" --run >/dev/null 2>"$out/open.err"
rc=$?
dm_check "--open with --run is refused with status 2 (got $rc)" test "$rc" = 2

# --- 2. Closing the window mid-run -------------------------------------------
# SIGTERM goes through the quit action, i.e. the same close request as the
# window's close button. It is sent a second into the write test: the
# window logs each figure as it is final, and the read's line says when.
"$DM_GUI" --target "$DM_MNT" --profile demo --count 1 --size 16MiB \
  --duration 3 --warmup 0 --interval 0 \
  --run --save-json "$out/stopped.json" --quit-when-done >"$out/stop.log" 2>&1 &
gui=$!
dm_track_pid "$gui"
for _ in $(seq 1 600); do
  grep -q "Read: " "$out/stop.log" && break
  kill -0 "$gui" 2>/dev/null || break
  sleep 0.05
done
sleep 1
t0=$(date +%s%N)
kill -TERM "$gui"
for _ in $(seq 1 100); do kill -0 "$gui" 2>/dev/null || break; sleep 0.05; done
wait "$gui" 2>/dev/null
dm_untrack_pid "$gui"
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
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
    gapplication action "$id" quit
    rc=$?
    wait $gui
    exit $(( rc || $? ))' _ "$DM_MNT" "$out/dbus.json" >"$out/dbus.log" 2>&1
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
fi

dm_finish
