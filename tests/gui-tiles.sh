#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The grid's tiles as the real window draws them, read from its own PNGs
# and exports: the meter bar agrees with the figure beside it in every unit
# (more MB/s or IOPS is fuller, less latency is fuller), on one tile width
# whatever the unit; a saved run keeps its figures when Mix is ticked over
# D-Bus (the tiles, the footer's date and a save-json-to after it), the
# Mix column beside them empty; a grid before any run shows every tile in
# the one grey look of "no figure yet"; a run stopped mid-test shows the
# tests it did not finish as empty tiles, the stopped one too; and a
# failed run's reason is in the user's language (LANGUAGE=de). The tiles'
# digits and spoken labels are tests/test-ui-tiles.c's.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
fixtures="$DM_SOURCE_ROOT/tests/pixels"
for tool in dbus-run-session gapplication gdbus; do
  command -v "$tool" >/dev/null \
    || dm_die "$tool is missing (build-aux/dev installs dbus-daemon and libglib2.0-bin)"
done

dm_tmpdir
out="$DM_TMPDIR"
export XDG_DATA_HOME="$out/data"
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

# tiles.py COMMAND PNG...: what the screenshots hold, by tests/png.py's reader.
cat >"$out/tiles.py" <<'PY'
import sys, types
# png.py's reader, without running its command line.
png = types.SimpleNamespace()
exec(open(sys.argv[1] + "/png.py").read().rsplit("main(sys.argv)", 1)[0], vars(png))

BLUE = (54, 133, 227)   # the meter strip

def strips(path):
    """The meter strips, {column left: [(top, length)...]} top to bottom."""
    width, height, bpp, rows = png.read_png(path)
    near = lambda line, x: all(abs(line[x * bpp + i] - BLUE[i]) <= 8 for i in range(3))
    found = []
    for y, line in enumerate(rows):
        x = 0
        while x < width:
            if not near(line, x):
                x += 1
                continue
            start = x
            while x < width and near(line, x):
                x += 1
            if x - start < 6:
                continue
            for bar in found:
                if bar[3] == y - 1 and abs(bar[1] - start) <= 3:
                    bar[2] = max(bar[2], x - start)
                    bar[1] = min(bar[1], start)
                    bar[3] = y
                    break
            else:
                found.append([y, start, x - start, y])
    cols = {}
    for top, left, length, last in sorted(found):
        if last - top >= 1:
            cols.setdefault(left, []).append((top, length))
    return cols

cmd = sys.argv[2]
if cmd == "bars":
    # bars PNG: "LEFT TOP LENGTH" per strip, column by column.
    for left, bars in sorted(strips(sys.argv[3]).items()):
        for top, length in bars:
            print(left, top, length)
elif cmd == "size":
    w, h, _, _ = png.read_png(sys.argv[3])
    print(w, h)
elif cmd == "darkest":
    # darkest PNG X0 Y0 X1 Y1: the lowest R+G+B inside the box.
    w, h, bpp, rows = png.read_png(sys.argv[3])
    x0, y0, x1, y1 = map(int, sys.argv[4:8])
    print(min(sum(rows[y][x * bpp:x * bpp + 3]) for y in range(y0, y1) for x in range(x0, x1)))
PY
tiles () { python3 "$out/tiles.py" "$DM_SOURCE_ROOT/tests" "$@"; }

# The figures of run.json, by test and mode.
figure ()
{
  python3 - "$fixtures/run.json" "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for x in r["results"]:
    if x["test"] == sys.argv[2] and x["mode"] == sys.argv[3]:
        v = x[sys.argv[4]]
        print(v["mean"] if isinstance(v, dict) else v)
PY
}

# --- 1. The meter in each unit, on one tile width ----------------------------
# run.json's Read column, top to bottom: SEQ1M Q8T1 (6262 MB/s, 5972 IOPS,
# 1338 µs), SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1 (157 MB/s, 38269 IOPS,
# 26 µs). The first and last rows swap places in IOPS and in µs.
declare -A len_first len_last left_read width
for unit in MB/s IOPS us; do
  name=${unit%/s}
  shot="$out/$name.png"
  timeout 60 "$DM_GUI" --open "$fixtures/run.json" --units "$unit" --save-screenshot "$shot" \
    --quit-when-done >"$out/$name.log" 2>&1
  dm_check "$unit: the window saves its picture" test -s "$shot"
  [ -s "$shot" ] || continue
  tiles bars "$shot" >"$out/$name.bars"
  read -r left_read[$name] _ len_first[$name] < <(head -n1 "$out/$name.bars")
  len_last[$name]=$(awk -v l="${left_read[$name]}" '$1 == l { n = $3 } END { print n }' "$out/$name.bars")
  width[$name]=$(tiles size "$shot")
  dm_log "$unit: Read bars $(awk -v l="${left_read[$name]}" '$1 == l { printf "%s ", $3 }' "$out/$name.bars")px; picture ${width[$name]}"
  dm_check "$unit: eight bars, four in each column ($(wc -l <"$out/$name.bars"))" \
    test "$(wc -l <"$out/$name.bars")" = 8 -a "$(cut -d' ' -f1 "$out/$name.bars" | sort -u | wc -l)" = 2
done
dm_check "MB/s: SEQ1M Q8T1 (6262 MB/s) draws a longer bar (${len_first[MB]}) than RND4K Q1T1 (157 MB/s, ${len_last[MB]})" \
  test "${len_first[MB]:-0}" -gt "${len_last[MB]:-0}"
dm_check "IOPS: RND4K Q1T1 (38269 IOPS) draws a longer bar (${len_last[IOPS]}) than SEQ1M Q8T1 (5972 IOPS, ${len_first[IOPS]})" \
  test "${len_last[IOPS]:-0}" -gt "${len_first[IOPS]:-0}"
dm_check "µs: RND4K Q1T1 (26 µs) draws a longer bar (${len_last[us]}) than SEQ1M Q8T1 (1338 µs, ${len_first[us]})" \
  test "${len_last[us]:-0}" -gt "${len_first[us]:-0}"
# Each bar's length against its scale: log10(MB/s x 10) / 6,
# log10(IOPS / 10) / 6 and 1 - log10(µs) / 6 of the tile's width, the width
# found from the two bars of each picture, and the same in every unit.
fit=$(python3 - "$(figure SEQ1M_Q8T1 read mb_per_s)" "$(figure RND4K_Q1T1 read mb_per_s)" \
  "$(figure SEQ1M_Q8T1 read iops)" "$(figure RND4K_Q1T1 read iops)" \
  "$(figure SEQ1M_Q8T1 read latency_us)" "$(figure RND4K_Q1T1 read latency_us)" \
  "${len_first[MB]}" "${len_last[MB]}" "${len_first[IOPS]}" "${len_last[IOPS]}" \
  "${len_first[us]}" "${len_last[us]}" <<'PY'
import math, sys
mb1, mb2, io1, io2, us1, us2 = map(float, sys.argv[1:7])
lens = list(map(float, sys.argv[7:13]))
fr = [math.log10(mb1 * 10) / 6, math.log10(mb2 * 10) / 6,
      math.log10(io1 / 10) / 6, math.log10(io2 / 10) / 6,
      1 - math.log10(us1) / 6, 1 - math.log10(us2) / 6]
# One width W and one offset c (the tile's rounded corner) for all six.
n = len(fr)
mf, ml = sum(fr) / n, sum(lens) / n
w = sum((f - mf) * (l - ml) for f, l in zip(fr, lens)) / sum((f - mf) ** 2 for f in fr)
c = ml - w * mf
worst = max(abs(w * f + c - l) for f, l in zip(fr, lens))
print("%.1f %.1f %.2f" % (w, c, worst))
PY
)
read -r fit_w fit_c fit_worst <<<"$fit"
dm_log "one tile width fits all six bars: ${fit_w} px (offset ${fit_c}), worst ${fit_worst} px off"
dm_check "every bar is its figure's share of one tile width, within 2 px (worst $fit_worst)" \
  python3 -c "import sys; sys.exit(0 if float('$fit_worst') <= 2 else 1)"
dm_check "the tiles keep their place and the window its size in every unit (${left_read[*]}; ${width[*]})" \
  test "${left_read[MB]}" = "${left_read[IOPS]}" -a "${left_read[MB]}" = "${left_read[us]}" \
       -a "${width[MB]}" = "${width[IOPS]}" -a "${width[MB]}" = "${width[us]}"

# --- 2. Mix ticked over an opened run -----------------------------------------
mkdir -p "$out/xdg/applications"
cp "$DM_SOURCE_ROOT/resources/io.github.diskmeter.Diskmeter.desktop" "$out/xdg/applications/"
XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
timeout 90 dbus-run-session -- bash -c '
  id=io.github.diskmeter.Diskmeter
  "$DM_GUI" --open "$1" & gui=$!
  gdbus wait --session --timeout 20 "$id" || { kill $gui; exit 3; }
  gapplication action "$id" save-screenshot-to "'"'"'$2/before.png'"'"'" &&
  gapplication action "$id" mix &&
  sleep 0.5 &&
  gapplication action "$id" save-json-to "'"'"'$2/mix.json'"'"'" &&
  gapplication action "$id" save-screenshot-to "'"'"'$2/mix.png'"'"'" &&
  sleep 1 &&
  gapplication action "$id" mix &&
  sleep 0.5 &&
  gapplication action "$id" save-json-to "'"'"'$2/unmix.json'"'"'" &&
  gapplication action "$id" quit
  rc=$?
  wait $gui
  exit $(( rc || $? ))' _ "$fixtures/run.json" "$out" >"$out/dbus.log" 2>&1
rc=$?
grep -v "^dbus-daemon\|^$" "$out/dbus.log" | sed 's/^/#   /'
dm_check "gapplication opened the run, ticked Mix, saved and quit (status $rc)" test "$rc" = 0
for saved in mix unmix; do
  dm_check "$saved.json: every Read and Write figure of run.json, its dates, no Mix figure" \
    python3 - "$fixtures/run.json" "$out/$saved.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda x: (x["test"], x["mode"])
want = {key(x): x["mb_per_s"] for x in a["results"]}
got = {key(x): x["mb_per_s"] for x in b["results"]}
print("#   SEQ1M_Q8T1 read %s write %s MB/s; started %s finished %s" % (
    got.get(("SEQ1M_Q8T1", "read")), got.get(("SEQ1M_Q8T1", "write")),
    b.get("started"), b.get("finished")))
assert got == want, (got, want)
assert (b["started"], b["finished"]) == (a["started"], a["finished"])
PY
done
if [ -s "$out/before.png" ] && [ -s "$out/mix.png" ]; then
  tiles bars "$out/before.png" >"$out/before.bars"
  tiles bars "$out/mix.png" >"$out/mix.bars"
  dm_log "with Mix: $(tr '\n' ';' <"$out/mix.bars")"
  # Narrower tiles, the same figures: each bar the same share of its tile.
  dm_check "with Mix the tiles still draw eight bars of the run's figures" \
    python3 - "$out/before.bars" "$out/mix.bars" <<'PY'
import sys
a, b = ([float(l.split()[2]) for l in open(p)] for p in sys.argv[1:3])
assert len(a) == len(b) == 8, (a, b)
ma, mb = sum(a) / 8, sum(b) / 8
k = sum((x - ma) * (y - mb) for x, y in zip(a, b)) / sum((x - ma) ** 2 for x in a)
worst = max(abs(mb + k * (x - ma) - y) for x, y in zip(a, b))
print("#   Mix bars %.3f of the bars before, worst %.2f px off" % (k, worst))
assert worst <= 2, worst
PY
  # The third column's tiles are empty: as light as the tile itself.
  read -r mw mh < <(tiles size "$out/mix.png")
  mix_left=$(( $(sort -n -u -k1,1 "$out/mix.bars" | awk 'NR == 2 { print $1 }') + mw / 4 ))
  top=$(head -n1 "$out/mix.bars" | awk '{ print $2 - 45 }')
  bottom=$(tail -n1 "$out/mix.bars" | awk '{ print $2 }')
  dark=$(tiles darkest "$out/mix.png" $(( mw - mw / 5 )) "$top" $(( mw - 20 )) "$bottom")
  dm_check "the Mix column's tiles are empty: no digit, no bar (darkest $dark of 765)" test "$dark" -gt 600
fi

# --- 3. No figure yet: one grey look ------------------------------------------
# A grid before any run: every tile shows the unit's 0 in grey, none in
# the black of a figure. The opened run's digits are black.
timeout 60 "$DM_GUI" --target "$out" --save-screenshot "$out/fresh.png" --quit-when-done \
  >"$out/fresh.log" 2>&1
dm_check "the fresh grid saves its picture" test -s "$out/fresh.png"
if [ -s "$out/fresh.png" ] && [ -s "$out/MB.png" ]; then
  read -r fw fh < <(tiles size "$out/fresh.png")
  # The grid's band: from above the first row's tiles to the last bar.
  top=$(head -n1 "$out/MB.bars" | awk '{ print $2 - 45 }')
  bottom=$(tail -n1 "$out/MB.bars" | awk '{ print $2 }')
  box=($(( fw / 4 )) "$top" $(( fw - 20 )) "$bottom")
  grey=$(tiles darkest "$out/fresh.png" "${box[@]}")
  black=$(tiles darkest "$out/MB.png" "${box[@]}")
  dm_check "no figure yet is grey (darkest $grey), a figure black (darkest $black)" \
    test "$grey" -gt 300 -a "$black" -lt 200
fi

# --- 4. A stopped run: the tests it did not finish are empty ------------------
mkdir "$out/target"
XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
timeout 90 dbus-run-session -- bash -c '
  id=io.github.diskmeter.Diskmeter
  "$DM_GUI" --target "$1" --profile demo --count 1 --size 16MiB --duration 5 --warmup 0 \
    --interval 0 & gui=$!
  gdbus wait --session --timeout 20 "$id" || { kill $gui; exit 3; }
  gapplication action "$id" run-all && sleep 2 &&
  gapplication action "$id" stop && sleep 1 &&
  gapplication action "$id" save-screenshot-to "'"'"'$2/stopped.png'"'"'" &&
  gapplication action "$id" quit
  rc=$?
  wait $gui
  exit $(( rc || $? ))' _ "$out/target" "$out" >"$out/stop.log" 2>&1
rc=$?
grep -v "^dbus-daemon\|^$" "$out/stop.log" | sed 's/^/#   /'
dm_check "the run was started and stopped over D-Bus (status $rc)" test "$rc" = 0
if [ -s "$out/stopped.png" ]; then
  read -r sw sh < <(tiles size "$out/stopped.png")
  # The demo profile's one row: its tiles' band, under the column titles.
  stopped=$(tiles darkest "$out/stopped.png" $(( sw / 4 )) 130 $(( sw - 20 )) 180)
  dm_check "Stop mid-test leaves empty tiles, the stopped one too, no grey 0.00 (darkest $stopped)" \
    test "$stopped" -gt 600
fi
dm_check "the stopped run left no test file" test -z "$(ls -A "$out/target")"

# --- 5. A failed run's reason in German ---------------------------------------
# A link of the test's own into a system folder: the engine refuses to put
# its test file there, and says so in English in the report.
if [ "${DM_NLS:-0}" = 1 ]; then
  ln -s /usr/share "$out/system"
  LC_ALL= LANG=C.UTF-8 LANGUAGE=de DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po" \
    timeout 60 "$DM_GUI" --target "$out/system" --profile demo --count 1 --duration 0.2 \
    --warmup 0 --interval 0 --run --quit-when-done >"$out/de.log" 2>&1
  sed 's/^/#   /' "$out/de.log"
  dm_check "the window gives the engine's reason in German" grep -q "Systemordner" "$out/de.log"
else
  dm_skip_part "built without translations (-Dnls, gettext): no German reason to show"
fi
dm_finish
