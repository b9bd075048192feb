#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's Tags field: set over D-Bus (the tags action, as a menu or a
# script sets any kept setting) it is kept in the settings file; the next
# start's run carries those tags in its JSON and its history file, a tag
# of a fact's name replacing the fact, and the screenshot's footer shows
# them; the Sustained window's run carries them too. Tags that do not
# parse refuse the run with one line saying why, and no run is kept.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
for tool in dbus-run-session gapplication gdbus; do
  command -v "$tool" >/dev/null \
    || dm_die "$tool is missing (build-aux/dev installs dbus-daemon and libglib2.0-bin)"
done
dm_tmpdir
out="$DM_TMPDIR"
export XDG_DATA_HOME="$out/data"
export LANGUAGE=C LC_ALL=C.UTF-8
target="$out/target"
mkdir -p "$target" "$out/xdg/applications" "$out/keep"
cp "$DM_SOURCE_ROOT/resources/io.github.diskmeter.Diskmeter.desktop" "$out/xdg/applications/"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
run=(--target "$target" --profile demo --count 1 --size 16MiB --duration 0.5 --warmup 0
     --interval 0 --run --quit-when-done)
history_count () { ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | wc -l; }

# --- Set over D-Bus, kept in the settings file ------------------------------
XDG_DATA_DIRS="$out/xdg:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/keep" \
timeout 60 dbus-run-session -- bash -c '
  id=io.github.diskmeter.Diskmeter
  "$DM_GUI" --target "$1" & gui=$!
  gdbus wait --session --timeout 15 "$id" || { kill $gui; exit 3; }
  gapplication action "$id" tags "'"'"'site=lab 2, controller=pvscsi'"'"'"
  rc=$?
  sleep 0.3
  gapplication action "$id" quit
  wait $gui
  exit $(( rc || $? ))' _ "$target" >"$out/keep.log" 2>&1
rc=$?
grep -v "^dbus-daemon\|^$" "$out/keep.log" | sed 's/^/#   /'
sed 's/^/#   keyfile: /' "$out/keep/glib-2.0/settings/keyfile" 2>/dev/null
dm_check "the tags action over D-Bus wrote the tags to the settings file (status $rc)" \
  grep -qxF "tags='site=lab 2, controller=pvscsi'" "$out/keep/glib-2.0/settings/keyfile"

# --- The next start's run carries them ----------------------------------------
GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/keep" timeout 120 "$DM_GUI" "${run[@]}" \
  --save-json "$out/run.json" --save-screenshot "$out/run.png" >"$out/run.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/run.log"
dm_check "the run with the kept tags exits 0 (got $rc)" test "$rc" = 0
saved="$(ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | head -n1)"
dm_check "the run's JSON and its history file carry the tags, controller replacing the fact" \
  python3 - "$out/run.json" "$saved" <<'PY'
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))
    t = r.get("tags", {})
    print("#   %s: tags %s, the fact: %r" % (path.rsplit("/", 1)[-1], t,
                                            r["target"].get("controller")))
    assert r["status"] == "complete", r["status"]
    assert t.get("site") == "lab 2" and t.get("controller") == "pvscsi", t
PY
if command -v tesseract >/dev/null; then
  tesseract "$out/run.png" "$out/run" >/dev/null 2>&1
  sed 's/^/#   ocr: /' "$out/run.txt"
  # The footer's order is the report's (a fact's key first), not the
  # field's: it is the footer that was read, not the entry.
  dm_check "the screenshot's footer shows the tags (OCR)" \
    grep -q "controller=pvscsi, site=lab 2" "$out/run.txt"
else
  dm_check "tesseract is installed for the OCR check (build-aux/dev installs tesseract-ocr)" false
fi

# --- The Sustained window's run carries them too -------------------------------
GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/keep" timeout 120 "$DM_GUI" --sustained \
  --span 16MiB --duration 1 --target "$target" --save-json "$out/sustained.json" \
  --save-screenshot "$out/sustained.png" --quit-when-done >"$out/sustained.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/sustained.log"
dm_check "the Sustained window's run exits 0 (got $rc)" test "$rc" = 0
dm_check "... and its JSON carries the kept tags" python3 - "$out/sustained.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("tags", {})
print("#   sustained: %s, tags %s" % (r.get("profile"), t))
assert r["profile"] == "sustained" and t.get("site") == "lab 2" and t.get("controller") == "pvscsi"
PY

# --- Tags that do not parse -------------------------------------------------
mkdir -p "$out/bad/glib-2.0/settings"
printf "[io/github/diskmeter/Diskmeter]\ntags='site=lab, Bad Key=1'\n" \
  >"$out/bad/glib-2.0/settings/keyfile"
before=$(history_count)
GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$out/bad" timeout 120 "$DM_GUI" "${run[@]}" \
  >"$out/bad.log" 2>"$out/bad.err"
rc=$?
sed 's/^/#   /' "$out/bad.err"
dm_check "a run with tags that do not parse fails (status $rc)" test "$rc" != 0
dm_check "... with one line saying which tag and why" \
  test "$(grep -cxF "diskmeter: Tags: tag key 'Bad Key' is not 1 to 32 of a-z 0-9 _ . -" \
          "$out/bad.err")" = 1
dm_check "... and keeps no run in the history ($before before, $(history_count) after)" \
  test "$(history_count)" = "$before"
dm_finish
