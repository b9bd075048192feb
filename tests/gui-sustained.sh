#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Sustained window run for real on a private X display, against the SLC
# model of tests/slow-fs.c: the first 128 MiB written are served in 20 ms
# per 1 MiB write, every write after them in 60 ms, one at a time. A
# scripted `diskmeter --sustained` run must save JSON whose cache_bytes is
# 128 MiB within 5 %, and a screenshot whose red cliff line stands where
# the JSON's cliff_s puts it on the time axis, named "cliff after ...MiB"
# (OCR). Opening that JSON, or diskmeter-cli sustained's, in the window
# shows the same figures. No test file is left:
# not after the run, not after the window is closed or stopped mid-run.
# The live figure of a result being measured is its last closed sample.
# --modes read makes the scripted run a read pass. A disk as target is
# only read: the Mode control says so and nothing is written to it.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
DM_UI_SUSTAINED="${DM_UI_SUSTAINED:-}"
[ -n "$DM_UI_SUSTAINED" ] && [ -x "$DM_UI_SUSTAINED" ] \
  || dm_die "DM_UI_SUSTAINED is not set to test-ui-sustained (run through meson test)"

dm_tmpdir
out="$DM_TMPDIR"
mnt="$out/slc"
dm_slow_fs_mount "$mnt" 2000 1 --write-cache 128 --cache-us 20000 --write-us 60000
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

# Available bytes of a folder's filesystem.
avail () { stat -f -c '%a %S' "$1" | awk '{ print $1 * $2 }'; }

# The folder holds nothing and its space is all back (the kernel may hold
# the unlinked file's last release a moment after the window lets go).
no_test_file ()
{
  local folder="$1" before="$2" now
  for _ in $(seq 50); do
    now=$(avail "$folder")
    [ "$now" = "$before" ] && [ -z "$(ls -A "$folder")" ] && return 0
    sleep 0.1
  done
  dm_log "left in $folder: $(ls -A "$folder" | head -3), $now bytes available of $before"
  return 1
}

# The x of the column with the most pixels of the cliff's red: the line
# (the label beside it is short and horizontal).
red_line_x ()
{
  python3 - "$1" <<'EOF'
import contextlib, io, os, sys
sys.path.insert(0, os.environ["DM_TESTS_DIR"])
path = sys.argv[1]
# png.py runs its command line on import: give it a harmless one.
sys.argv = ["png.py", "stats", path]
with contextlib.redirect_stdout(io.StringIO()):
    import png
w, h, bpp, rows = png.read_png(path)
cols = [0] * w
for line in rows:
    for x in range(w):
        r, g, b = line[x * bpp:x * bpp + 3]
        if abs(r - 224) <= 8 and abs(g - 28) <= 8 and abs(b - 36) <= 8:
            cols[x] += 1
best = max(range(w), key=lambda x: cols[x])
print(best if cols[best] >= 100 else -1, cols[best], w)
EOF
}
# --- few samples, read back from the picture -------------------------------
# tests/pixels/sustained.json holds one sample; flat.json is it held for
# twelve samples (3 s), at the opening rate throughout. The chart's MB/s blue
# is counted inside the chart's box (the tree gives it): one sample is a
# dot, not a level drawn across; a rate that holds its opening level keeps
# its line in sight over the dashed "opening" line; the time axis
# names round ticks in seconds and no word "time"; the progress bar is in
# the status line, hidden once nothing runs; the footer names the target,
# the date and the system, as the main window's does.
chart_blue ()
{
  python3 - "$1" "$2" <<'EOF'
import contextlib, io, os, re, sys
sys.path.insert(0, os.environ["DM_TESTS_DIR"])
path, tree = sys.argv[1], sys.argv[2]
sys.argv = ["png.py", "stats", path]
with contextlib.redirect_stdout(io.StringIO()):
    import png
box = re.search(r"DmTimelineChart \S+ +(\d+),(\d+) (\d+)x(\d+)", open(tree).read())
x0, y0, cw, ch = map(int, box.groups())
w, h, bpp, rows = png.read_png(path)
blue = lambda line, x: all(abs(line[x * bpp + i] - v) <= 8 for i, v in enumerate((54, 133, 227)))
# The plot, inside the chart's 64 px scales and under its scale names.
xs = range(x0 + 64, x0 + cw - 64)
ys = range(y0 + 30, y0 + ch - 28)
widest = max(sum(1 for x in xs if blue(rows[y], x)) for y in ys)
total = sum(1 for y in ys for x in xs if blue(rows[y], x))
shown = sum(1 for x in xs if any(blue(rows[y], x) for y in ys))
print(widest, total, shown, len(xs))
EOF
}
# Spaces before a tree line's type: how deep the widget is.
depth () { sed 's/[^ ].*//' <<<"$1" | tr -d '\n' | wc -c; }
export DM_TESTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python3 - "$DM_TESTS_DIR/pixels/sustained.json" "$out/flat.json" <<'EOF'
import copy, json, sys
j = json.load(open(sys.argv[1]))
r = j["results"][0]
r["samples"] = [dict(copy.deepcopy(r["samples"][0]), t=0.25 * (k + 1)) for k in range(12)]
json.dump(j, open(sys.argv[2], "w"))
EOF
for name in one flat; do
  json="$out/flat.json"
  [ "$name" = one ] && json="$DM_TESTS_DIR/pixels/sustained.json"
  timeout 60 "$DM_UI_SUSTAINED" show "$json" "$out/$name.png" "$out/$name.tree" \
    >"$out/$name.log" 2>&1
  dm_check "the window showed the $name-sample run (status $?)" test -s "$out/$name.tree"
done
read -r widest total _ _ < <(chart_blue "$out/one.png" "$out/one.tree")
dm_log "one sample: $total MB/s pixels, at most $widest in a row"
dm_check "one sample is a dot ($total pixels), not a line across (widest row $widest px)" \
  test "${total:-0}" -ge 12 -a "${widest:-999}" -le 16
read -r widest total shown plot < <(chart_blue "$out/flat.png" "$out/flat.tree")
dm_log "a rate at its opening level: its line shows in $shown of $plot columns"
dm_check "the MB/s line stays in sight over the opening level ($shown of $plot columns)" \
  python3 -c "import sys; sys.exit(0 if ${shown:-0} >= 0.95 * ${plot:-1} else 1)"
if command -v tesseract >/dev/null; then
  tesseract "$out/flat.png" "$out/flat" >/dev/null 2>&1
  axis=$(grep -E '^ *[0O] ?s ' "$out/flat.txt" | head -1)
  dm_log "the time axis read by OCR: '$axis'"
  dm_check "the time axis names round ticks in seconds ('$axis')" \
    test "$(grep -oE '[0-9O.]+ ?s\b' <<<"$axis" | wc -l)" -ge 4
  dm_check "no 'time' on the chart that reads as a tick" test -z "$(grep -wi time "$out/flat.txt")"
fi
for name in one flat; do
  bar=$(grep GtkProgressBar "$out/$name.tree")
  chart=$(grep DmTimelineChart "$out/$name.tree")
  dm_check "$name: the progress bar is in the status line, not across the chart" \
    test "$(depth "$bar")" -gt "$(depth "$chart")"
  dm_check "$name: the progress bar is hidden when nothing runs" grep -q ' hidden ' <<<"$bar"
  footer=$(grep -A1 'label.dm-footer' "$out/$name.tree" | tr '\n' ' ')
  dm_log "$name: footer $footer"
  dm_check "$name: the footer names the folder, its filesystem, the date and the system" \
    grep -qE '/srv/diskmeter-pixels · tmpfs 2026/12/0[12] [0-9:]+ · Debian' <<<"$footer"
done

# --- a scripted run ---------------------------------------------------------
before=$(avail "$mnt")
timeout 120 "$DM_GUI" --sustained --span 192MiB --duration 40 --target "$mnt" \
  --save-screenshot "$out/run.png" --save-json "$out/run.json" --quit-when-done \
  >"$out/run.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/run.log"
dm_check "diskmeter --sustained ran and quit with status 0 (got $rc)" test "$rc" = 0
[ -s "$out/run.json" ] || dm_die "no JSON from the Sustained window"
dm_log "samples: $(dm_json "$out/run.json" "[round(s['mb_per_s'], 1) for s in j['results'][0]['samples']]") MB/s"
dm_log "sustained: $(dm_json "$out/run.json" "j['sustained']")"
dm_check "its JSON is a complete sustained run" \
  test "$(dm_json "$out/run.json" "[j['profile'], j['status']]")" = '["sustained", "complete"]'
dm_check "the whole span was written" \
  test "$(dm_json "$out/run.json" "j['results'][0]['runs'][0]['bytes']")" = $((192 << 20))
dm_check "a cliff was found" \
  test "$(dm_json "$out/run.json" "j['sustained']['cache_bytes'] is not None")" = True
dm_within "cache_bytes vs the 128 MiB write cache" \
  "$(dm_json "$out/run.json" "j['sustained']['cache_bytes'] or 0")" $((128 << 20)) 5
# FUSE adds its own time to each write: the rates are bounded by the
# service times (1 MiB in 20 ms, then in 60 ms), not equal to them.
rates=$(dm_json "$out/run.json" "'%s %s' % (j['sustained']['before_mb_per_s'], j['sustained']['after_mb_per_s'])")
dm_check "the rates before and after ($rates MB/s) follow the service times" \
  python3 -c "import sys; b, a = map(float, '$rates'.split()); m = (1 << 20) / 1e6
sys.exit(0 if m / 0.020 / 2 <= b <= m / 0.020 * 1.03 and m / 0.060 / 2 <= a <= m / 0.060 * 1.03 else 1)"
dm_check "the window printed the cliff it shows, as the JSON names it" \
  grep -q "^diskmeter: sustained: cliff after $(dm_json "$out/run.json" "j['sustained']['cache_bytes']") bytes" "$out/run.log"
dm_check "no test file is left after the run" no_test_file "$mnt" "$before"

# The red line where cliff_s falls on the time axis: the chart spans the
# content (12 px margins) less its 64 px scales, from 0 to the last sample.
read -r x n w < <(red_line_x "$out/run.png")
expect=$(dm_json "$out/run.json" "round(76 + ($w - 152) * j['sustained']['cliff_s'] / j['results'][0]['samples'][-1]['t'])")
dm_log "run.png ${w} px wide: red line at x=$x ($n pixels tall), cliff_s puts it at x=$expect"
dm_check "the screenshot draws the cliff as a red line ($n pixels)" test "${x:--1}" -ge 0
dm_check "the red line stands at the cliff's time (x $x, expected $expect, within 6 px)" \
  python3 -c "import sys; sys.exit(0 if abs(${x:--100} - ${expect:-0}) <= 6 else 1)"
if command -v tesseract >/dev/null; then
  tesseract "$out/run.png" "$out/run" >/dev/null 2>&1
  sed 's/^/#   ocr: /' "$out/run.txt"
  # The figure is what counts: OCR has read the word "cliff" as a stray
  # mark where the dashed level line runs under it.
  mib=$(grep -Eo '(cliff )?after [0-9.]+ *MiB' "$out/run.txt" | head -1 | grep -Eo '[0-9.]+')
  dm_check "the chart names the cliff: 'cliff after ${mib:-?} MiB' read by OCR" test -n "$mib"
  [ -n "$mib" ] && dm_within "the cliff named on the chart vs the JSON's, in MiB" "$mib" \
    "$(dm_json "$out/run.json" "j['sustained']['cache_bytes'] / 1048576")" 0.5
else
  dm_check "tesseract is installed for the OCR checks (build-aux/dev installs tesseract-ocr)" false
fi

# --- the JSON opened again --------------------------------------------------
timeout 60 "$DM_GUI" --open "$out/run.json" --save-screenshot "$out/open.png" \
  --save-json "$out/open.json" --quit-when-done >"$out/open.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/open.log"
dm_check "diskmeter --open showed the sustained run and quit with status 0 (got $rc)" test "$rc" = 0
dm_check "it opened into the Sustained window, which names the same cliff" \
  test "$(grep '^diskmeter: sustained:' "$out/open.log")" = "$(grep '^diskmeter: sustained:' "$out/run.log")"
dm_check "the JSON it saves has the same sustained figures" \
  test "$(dm_json "$out/open.json" "j['sustained']")" = "$(dm_json "$out/run.json" "j['sustained']")"
dm_check "... and the same samples" \
  test "$(dm_json "$out/open.json" "j['results'][0]['samples']")" = "$(dm_json "$out/run.json" "j['results'][0]['samples']")"
read -r x2 n2 _ < <(red_line_x "$out/open.png")
dm_check "its red line stands where the run's did (x $x2 vs $x)" \
  python3 -c "import sys; sys.exit(0 if ${x2:--1} >= 0 and abs(${x2:--100} - ${x:-0}) <= 1 else 1)"
dm_slow_fs_unmount "$mnt"

# --- closed and stopped mid-run ---------------------------------------------
# Writes in 20 ms each, no cache: 256 MiB take five seconds or more.
mnt="$out/slow"
dm_slow_fs_mount "$mnt" 2000 1 --write-us 20000
before=$(avail "$mnt")
timeout 90 "$DM_UI_SUSTAINED" close "$mnt" 256MiB >"$out/close.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/close.log"
dm_check "the window was closed mid-run (status $rc)" test "$rc" = 0
dm_check "no test file is left after closing the window mid-run" no_test_file "$mnt" "$before"

timeout 90 "$DM_UI_SUSTAINED" stop "$mnt" 256MiB "$out/stop.json" >"$out/stop.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/stop.log"
dm_check "Stop ended the run (status $rc)" test "$rc" = 0
dm_check "a stopped run says cancelled" test "$(dm_json "$out/stop.json" "j['status']")" = cancelled
dm_check "Stop kept the samples so far" \
  test "$(dm_json "$out/stop.json" "len(j['results'][0]['samples']) >= 3")" = True
dm_check "no test file is left after Stop" no_test_file "$mnt" "$before"

# --- a read pass from the command line --------------------------------------
# --modes read, as the grid takes it, makes the scripted run the read pass:
# the span is written first, then read, and the JSON says read.
timeout 90 "$DM_GUI" --sustained --modes read --span 32MiB --duration 20 --target "$mnt" \
  --save-json "$out/read.json" --quit-when-done >"$out/read.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/read.log"
dm_check "diskmeter --sustained --modes read ran and quit with status 0 (got $rc)" test "$rc" = 0
dm_check "its JSON is a complete read pass over the 32 MiB span" \
  test "$(dm_json "$out/read.json" "[j['status'], j['results'][0]['mode'], j['results'][0]['runs'][0]['bytes']]" 2>/dev/null)" \
  = "[\"complete\", \"read\", $((32 << 20))]"
dm_check "no test file is left after the read pass" no_test_file "$mnt" "$before"
timeout 30 "$DM_GUI" --sustained --modes mix --target "$mnt" --quit-when-done \
  >"$out/mix.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/mix.log"
dm_check "--modes mix with --sustained is refused as a usage error (status $rc)" test "$rc" = 2

# --- diskmeter-cli's sustained JSON opens in the window ---------------------
dm_need_cli
dm_run "$out/cli.json" "$out/cli.err" sustained --span 48MiB --duration 20 --format json \
  --quiet "$mnt"
dm_check "diskmeter-cli sustained exit status 0 (got $DM_RC)" test "$DM_RC" = 0
timeout 60 "$DM_GUI" --open "$out/cli.json" --save-json "$out/cli-open.json" --quit-when-done \
  >"$out/cli-open.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/cli-open.log"
dm_check "diskmeter --open showed diskmeter-cli's sustained run (status $rc)" test "$rc" = 0
dm_check "it opened into the Sustained window (it names the cliff, or none)" \
  grep -q '^diskmeter: sustained: ' "$out/cli-open.log"
dm_check "the JSON it saves has the CLI's sustained figures" \
  test "$(dm_json "$out/cli-open.json" "j['sustained']")" = "$(dm_json "$out/cli.json" "j['sustained']")"

# --- the live figure is the sample's ----------------------------------------
timeout 90 "$DM_UI_SUSTAINED" job "$mnt" >"$out/job.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/job.log"
dm_check "a running result's live figure is its last closed sample, from the first run on (status $rc)" \
  test "$rc" = 0
dm_slow_fs_unmount "$mnt"

# --- a disk as target -------------------------------------------------------
# A loop device of its own with no filesystem: the Mode control is held to
# Read (insensitive, its tooltip saying why) over the Write a folder has, the
# pass reads the disk, in the window and from the command line (no --modes),
# and the kernel's count of sectors written to it does not move.
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null \
   && [ -w /dev/shm ]; then
  dm_loop_create 64
  read -r _ written_before < <(dm_stat_bytes "$DM_LOOP_NAME")
  timeout 90 "$DM_UI_SUSTAINED" device "$DM_LOOP" "$out" "$out/device.json" \
    >"$out/device.log" 2>&1
  rc=$?
  sed 's/^/#   /' "$out/device.log"
  dm_check "on the disk the Mode control was Read and insensitive, and the pass ran (status $rc)" \
    test "$rc" = 0
  timeout 90 "$DM_GUI" --sustained --duration 20 --target "$DM_LOOP" \
    --save-json "$out/device-cli.json" --quit-when-done >"$out/device-cli.log" 2>&1
  rc=$?
  sed 's/^/#   /' "$out/device-cli.log"
  dm_check "diskmeter --sustained on the disk ran and quit with status 0 (got $rc)" test "$rc" = 0
  for json in "$out/device.json" "$out/device-cli.json"; do
    dm_check "$(basename "$json"): a complete read pass over the whole 64 MiB disk" \
      python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
print("#   disk pass", r["status"], r["target"].get("path"), res["mode"],
      res["runs"][0]["bytes"] if res["runs"] else None, res["mb_per_s"])
assert r["status"] == "complete", r["status"]
assert r["target"]["is_block_device"], r["target"]
assert res["mode"] == "read", res["mode"]
assert res["runs"][0]["bytes"] == 64 << 20 and res["mb_per_s"] > 0, res["runs"]
PY
  done
  read -r _ written_after < <(dm_stat_bytes "$DM_LOOP_NAME")
  dm_check "nothing was written to the disk (written: ${written_before:-?} bytes before, ${written_after:-?} after)" \
    test -n "$written_before" -a "${written_after:-x}" = "$written_before"
else
  dm_skip_part "a disk as target: a loop device needs root, losetup and /dev/loop-control"
fi

if [ -n "${DM_GUI_KEEP:-}" ]; then
  cp "$out/run.png" "$DM_GUI_KEEP/sustained.png"
fi
dm_gui_stop_display
dm_finish
