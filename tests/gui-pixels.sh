#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window draws the same saved runs the same way, pixel for pixel: the
# default grid, Mix, IOPS and µs, two runs compared, a sweep and a
# sustained run, each opened with --open from tests/pixels/ and saved with
# --save-screenshot, against the PNGs stored beside them. A change meant to
# alter the picture remakes them with DM_PIXELS_UPDATE=1 (and shows the new
# PNGs in its commit); any other change must leave every pixel alone.
# The saved runs' folder is one that does not exist, and HOME too, so no
# free space or path of this machine gets into the picture.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
fixtures="$DM_SOURCE_ROOT/tests/pixels"
png="$DM_SOURCE_ROOT/tests/png.py"

dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"
export HOME=/srv/diskmeter-pixels-home
# The footer's date and the figures' decimal point as stored.
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
[ ! -e /srv/diskmeter-pixels ] && [ ! -e "$HOME" ] \
  || dm_die "/srv/diskmeter-pixels or $HOME exists: the pictures would show it"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

# view: NAME then the window's arguments before --save-screenshot.
views=(
  "default --open $fixtures/run.json"
  "mix --open $fixtures/mix.json"
  "iops --open $fixtures/run.json --units IOPS"
  "us --open $fixtures/run.json --units us"
  "compare --open $fixtures/run.json --open $fixtures/b.json"
  "sweep --open $fixtures/sweep.json"
  "sustained --open $fixtures/sustained.json"
)
for view in "${views[@]}"; do
  read -r -a args <<< "$view"
  name="${args[0]}"
  shot="$DM_TMPDIR/$name.png"
  "$DM_GUI" "${args[@]:1}" --save-screenshot "$shot" --quit-when-done >"$DM_TMPDIR/$name.log" 2>&1
  status=$?
  [ "$status" = 0 ] || cat "$DM_TMPDIR/$name.log"
  dm_check "$name: the window saves its picture (exit $status)" test "$status" = 0 -a -s "$shot"
  [ -s "$shot" ] || continue
  if [ "${DM_PIXELS_UPDATE:-}" = 1 ]; then
    cp "$shot" "$fixtures/$name.png"
    dm_log "$name: reference remade"
    continue
  fi
  verdict="missing reference $fixtures/$name.png"
  [ -f "$fixtures/$name.png" ] && verdict="$(python3 "$png" differ "$fixtures/$name.png" "$shot")"
  if [ "$verdict" != SAME ]; then
    kept="$DM_BUILD_ROOT/meson-logs/pixels-$name.png"
    cp "$shot" "$kept"
    dm_log "$name: $verdict; the new picture is kept as $kept"
  fi
  dm_check "$name: every pixel as stored ($verdict)" test "$verdict" = SAME
done

# A comparison with a file that cannot be read ends with its reason, not
# with an empty window left up.
timeout 30 "$DM_GUI" --open "$fixtures/run.json" --open "$DM_TMPDIR/missing.json" --quit-when-done \
  >"$DM_TMPDIR/bad.log" 2>&1
status=$?
dm_check "a missing second file ends the command (exit $status)" test "$status" = 1
dm_check "with one line naming it: $(head -c 200 "$DM_TMPDIR/bad.log")" \
  test "$(grep -c . "$DM_TMPDIR/bad.log")" = 1 -a -n "$(grep -F missing.json "$DM_TMPDIR/bad.log")"
dm_finish
