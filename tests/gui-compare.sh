#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window compares two drives: two ext4 folders on loop devices this test
# owns, throttled by the block cgroup to 40 and 20 MB/s, measured in turns
# from the window's command line. The comparison it saves must find the
# first twice as fast as the second (within 3%), say "better" for the
# faster one's side, and the screenshot must show the comparison grid with
# B's meter bars half as long as A's, as the throttles say.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
dm_need_loop
dm_need_cgroup

fast=40000000 # bytes per second
slow=20000000
dm_cgroup_create
dm_loop_create 128
dm_mkfs_mount
dm_throttle read_bps "$fast"
dm_throttle write_bps "$fast"
mnt_fast="$DM_MNT"
dm_loop_create 128
dm_mkfs_mount
dm_throttle read_bps "$slow"
dm_throttle write_bps "$slow"
mnt_slow="$DM_MNT"

dm_tmpdir
out="$DM_TMPDIR"
# The window keeps every run in the history: this test's own, not the user's.
export XDG_DATA_HOME="$out/data"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
dm_log "display $DISPLAY, A $mnt_fast (40 MB/s), B $mnt_slow (20 MB/s)"

# The test file has no name to look for: what the runs must not leave is a
# file held open on either test filesystem or space it took (tests/lib.sh).
dm_settle
used_fast=$(dm_fs_used "$mnt_fast")
used_slow=$(dm_fs_used "$mnt_slow")

# One second of warm-up spends the throttle's initial budget; the figure
# shown is the best of two runs, as in tests/truth-seq.sh.
dm_throttled timeout 120 "$DM_GUI" --target "$mnt_fast" --compare-with "$mnt_slow" \
  --profile demo --count 2 --size 32MiB --duration 2 --warmup 1 --interval 0 \
  --comment "throttled 40 vs 20 MB/s" \
  --run --save-screenshot "$out/compare.png" --save-json "$out/compare.json" \
  --save-csv "$out/compare.csv" --quit-when-done >"$out/run.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/run.log"
dm_check "the window compared the two folders and quit with status 0 (got $rc)" test "$rc" = 0

dm_check "the saved comparison finds A twice as fast as B (within 3%)" python3 - "$out/compare.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert len(c["runs"]) == 2, c["runs"]
rows = {r["mode"]: r for r in c["rows"] if r["test"].upper().startswith("SEQ1M")}
assert sorted(rows) == ["read", "write"], sorted(rows)
for mode, row in sorted(rows.items()):
    a, b = row["cells"]
    ratio = a["value"] / b["value"]
    print("#   %s: A %.2f, B %.2f MB/s, ratio %.3f, B %+.1f%% (%s)"
          % (mode, a["value"], b["value"], ratio, b["diff_percent"], b["verdict"]))
    assert abs(ratio / 2.0 - 1) <= 0.03, (mode, ratio)
    assert b["verdict"] == "worse", b
PY
dm_check "the CSV export is the comparison too" grep -qi "worse" "$out/compare.csv"
dm_check "both runs were kept in the history" \
  test "$(ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | wc -l)" -ge 2
dm_check "the screenshot is a PNG of a usable size" python3 - "$out/compare.png" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(32)
assert d[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", d[16:24])
print("#   screenshot %dx%d" % (w, h))
assert w >= 600 and h >= 400
PY
# The bars (the meter blue) under each figure, A's and B's side by side in
# each row: B's length over A's must be the figures' ratio, about 0.5.
dm_png bars "$out/compare.png" 53,132,228 > "$out/bars.txt"
sed 's/^/#   bar (top left length): /' "$out/bars.txt"
dm_check "B's bars are as much shorter than A's as its figures (within 3%)" \
  python3 - "$out/compare.json" "$out/bars.txt" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
want = [r["cells"][1]["value"] / r["cells"][0]["value"]
        for r in c["rows"] if r["test"].upper().startswith("SEQ1M")]
rows = {}
for line in open(sys.argv[2]):
    top, left, length = map(int, line.split())
    rows.setdefault(top, []).append((left, length))
pairs = [sorted(v) for v in rows.values() if len(v) == 2]
assert len(pairs) == len(want) == 2, (pairs, want)
for (a, b), ratio in zip(pairs, want):
    drawn = b[1] / a[1]
    print("#   bars %d and %d px: %.3f, figures %.3f" % (a[1], b[1], drawn, ratio))
    assert abs(drawn - ratio) <= 0.03, (drawn, ratio)
PY
if [ -n "${DM_GUI_KEEP:-}" ]; then cp "$out/compare.png" "$DM_GUI_KEEP"; fi
dm_check "no test file is left open or allocated in A ($mnt_fast)" \
  dm_no_test_file "$mnt_fast" "$used_fast"
dm_check "no test file is left open or allocated in B ($mnt_slow)" \
  dm_no_test_file "$mnt_slow" "$used_slow"

dm_finish
