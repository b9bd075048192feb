#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The target drop-down on a private X display, over mounts and a disk the
# test makes: a writable ext4 folder, a read-only one, and a loop device
# whose "model" (the backing file's path) is long. The popup lists them
# under Folders and Disks headings a click does not pick, marks the
# read-only folder, shortens the long model rather than growing past the
# window; the closed drop-down shows the folder's free and total size
# whole, and says them to a screen reader, in English, German and
# Japanese, and OCR reads them in the window's picture; switching the unit
# leaves the target field its width. `diskmeter --target t1` typed in a
# folder saves the absolute path in the JSON and the history, also when a
# running window started elsewhere takes the command line.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
DM_UI_TARGETS="${DM_UI_TARGETS:-}"
[ -n "$DM_UI_TARGETS" ] && [ -x "$DM_UI_TARGETS" ] \
  || dm_die "DM_UI_TARGETS is not set to test-ui-targets (run through meson test)"
dm_need_loop
command -v tesseract >/dev/null || dm_die "tesseract is missing (build-aux/dev installs tesseract-ocr)"

dm_tmpdir
out="$DM_TMPDIR"
export DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po"
export XDG_DATA_HOME="$out/data"

# The read-only folder: its own filesystem (a bind mount of the writable
# one would be listed once, as that one).
dm_loop_create 48
dm_mkfs_mount ro
ro="$DM_MNT"
# The writable folder, on a disk whose backing file has a long name: the
# loop device's model in the Disks section is that path.
long="$(mktemp "/dev/shm/diskmeter-test-XXXXXX-a-backing-file-whose-name-is-far-longer-than-any-drop-down.img")" \
  || dm_die "mktemp in /dev/shm failed"
_dm_files+=("$long")
truncate -s 64M "$long" || dm_die "truncate $long failed"
disk="$(losetup -f --show "$long")" || dm_skip "losetup could not attach a loop device"
_dm_loops+=("$disk")
DM_LOOP="$disk"
dm_mkfs_mount
rw="$DM_MNT"
dm_log "read-only folder $ro, writable folder $rw on $disk over $long"

dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

# "39MiB free of 55MiB" as the window rounds it (dm-target-item.c), in
# LANGUAGE's words.
figures ()
{
  python3 - "$1" "$2" <<'PY'
import os, sys
lang, path = sys.argv[1], sys.argv[2]
st = os.statvfs(path)
size, free = st.f_blocks * st.f_frsize, min(st.f_bavail * st.f_frsize, st.f_blocks * st.f_frsize)
def gib(b):
    g = b / 1073741824.0
    if b < 1 << 30:
        return "%.0fMiB" % (b / 1048576.0)
    if g >= 1000:
        return "%.1fTiB" % (g / 1024)
    return "%.0fGiB" % g if g >= 10 else "%.1fGiB" % g
words = {"": "%s free of %s", "de": "%s von %s frei", "ja": "空き %s / %s"}[lang]
print(words % (gib(free), gib(size)))
PY
}

# field FILE KEY: the value of "KEY=" on the report's line that starts
# with the words before it ("button figures text").
field ()
{
  local file="$1" line="$2" key="$3"
  grep -m1 "^$line " "$file" | sed -n "s/.* $key=\([^ ]*\).*/\1/p"
}
text_of () { grep -m1 "^$2 " "$1" | sed -n 's/.* text=//p'; }

# OCR of the box (x,y,w,h in the window) of the picture, drawn at twice the
# window's size.
ocr_box ()
{
  local png="$1" box="$2" lang="$3" crop="$1.crop.png"
  python3 - "$png" "$box" "$crop" "$_dm_gui_lib_dir" <<'PY' || return 1
import contextlib, io, struct, sys, zlib
png_path, box, crop, tests = sys.argv[1:5]
sys.path.insert(0, tests)
sys.argv = ["png.py", "stats", png_path]
with contextlib.redirect_stdout(io.StringIO()):
    import png
w, h, bpp, rows = png.read_png(png_path)
x, y, bw, bh = (int(float(v)) * 2 for v in box.split(","))
x, y, bw, bh = x - 8, y - 8, bw + 16, bh + 16
raw = b"".join(b"\0" + bytes(rows[r][(x * bpp):(x + bw) * bpp]) for r in range(y, y + bh))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
colour = 6 if bpp == 4 else 2
with open(crop, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", bw, bh, 8, colour, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY
  tesseract "$crop" - -l "$lang" --psm 7 2>/dev/null | tr -d '\n'
}

show ()
{
  local lang="$1" target="$2" name="$3"
  LC_ALL= LANG=C.UTF-8 LANGUAGE="$lang" timeout 90 "$DM_UI_TARGETS" show "$target" \
    "$out/$name.txt" "$out/$name.png" "$out/$name-popup.png" >"$out/$name.log" 2>&1
  local rc=$?
  dm_check "the window showed its target list ($name, status $rc)" test "$rc" = 0 -a -s "$out/$name.txt"
  [ "$rc" = 0 ] || sed 's/^/#   /' "$out/$name.log" | head -20
}

# --- the closed drop-down in three languages -------------------------------
for lang in "" de ja; do
  name="button-${lang:-C}"
  show "$lang" "$rw" "$name"
  report="$out/$name.txt"
  want="$(figures "$lang" "$rw")"
  got="$(text_of "$report" "button figures")"
  spoken="$(sed -n 's/^button spoken=//p' "$report")"
  dm_log "${lang:-C}: the button shows '$(text_of "$report" "button name")' '$got', says '$spoken'"
  dm_check "${lang:-C}: the button shows the figures '$want' ('$got')" test "$got" = "$want"
  dm_check "${lang:-C}: GTK does not shorten the figures" \
    test "$(field "$report" "button figures" cut)" = 0
  dm_check "${lang:-C}: the figures lie inside the drop-down" python3 - \
    "$(field "$report" "button figures" box)" "$(field "$report" "dropdown" box)" <<'PY'
import sys
fx, fy, fw, fh = map(float, sys.argv[1].split(","))
dx, dy, dw, dh = map(float, sys.argv[2].split(","))
sys.exit(0 if fw > 0 and dx <= fx and fx + fw <= dx + dw - 16 else 1)
PY
  dm_check "${lang:-C}: its accessible label is the name and the figures ('$spoken')" \
    test "$spoken" = "$rw, $want"
  ocr_lang=eng; [ "$lang" = ja ] && ocr_lang=jpn+eng
  read_text="$(ocr_box "$out/$name.png" "$(field "$report" "button figures" box)" "$ocr_lang")"
  dm_log "${lang:-C}: OCR of the figures in the picture: '$read_text'"
  for number in $(grep -oE '[0-9.]+[MGT]iB' <<<"$want"); do
    dm_check "${lang:-C}: OCR reads $number in the drop-down's figures" \
      grep -qF "$number" <<<"$(tr -d ' ' <<<"$read_text")"
  done
  # One width for every unit.
  widths="$(sed -n 's/^field unit=.* width=//p' "$report" | sort -u)"
  dm_check "${lang:-C}: the target field keeps its width across the units ($(tr '\n' ' ' <<<"$widths"))" \
    test "$(wc -l <<<"$widths")" = 1
done

# --- the popup -------------------------------------------------------------
report="$out/button-C.txt"
row_of ()  # the number of the row whose name is $1
{
  grep -m1 "^row [0-9]* name .* text=$1\$" "$report" | awk '{ print $2 }'
}
folders=$(row_of "Folders"); disks=$(row_of "Disks (read tests only)")
r_rw=$(row_of "$rw"); r_ro=$(row_of "$ro"); r_disk=$(row_of "$disk")
dm_log "popup rows: Folders $folders, $rw $r_rw, $ro $r_ro, Disks $disks, $disk $r_disk"
dm_check "the popup has a Folders and a Disks heading, then the folders, then the disk" \
  test -n "$folders" -a -n "$disks" -a -n "$r_rw" -a -n "$r_ro" -a -n "$r_disk" \
  && test "$folders" -lt "$r_rw" -a "$folders" -lt "$r_ro" -a "$r_rw" -lt "$disks" \
       -a "$r_ro" -lt "$disks" -a "$disks" -lt "$r_disk"
dm_check "a click picks no heading" \
  test "$(sed -n "s/^row $folders pickable=//p" "$report")$(sed -n "s/^row $disks pickable=//p" "$report")" = 00
dm_check "a click picks a folder and a disk" \
  test "$(sed -n "s/^row $r_rw pickable=//p" "$report")$(sed -n "s/^row $r_disk pickable=//p" "$report")" = 11
dm_check "the read-only folder is marked read-only" \
  test "$(text_of "$report" "row $r_ro mark")" = read-only
dm_check "the writable folder is not" test "$(field "$report" "row $r_rw mark" visible)" = 0
dm_check "a screen reader hears the mark too" \
  grep -q "^row $r_ro spoken=$ro, .*, read-only" "$report"
want="$(figures "" "$ro")"
dm_check "the read-only folder's row shows its figures '$want'" \
  test "$(text_of "$report" "row $r_ro figures")" = "$want"
detail="$(text_of "$report" "row $r_disk detail")"
dm_log "the disk's secondary line: '$detail'"
dm_check "the disk's secondary line names its long model" grep -qF "$long" <<<"$detail"
folder_detail="$(text_of "$report" "row $r_rw detail")"
dm_check "the folder on that disk names the same facts in the same order, and its device ('$folder_detail')" \
  test "${folder_detail/ · $disk · / · }" = "$detail"
dm_check "the long model is shortened, not the disk's size" \
  test "$(field "$report" "row $r_disk detail" cut)$(field "$report" "row $r_disk figures" cut)" = 10
popup=$(sed -n 's/^popup width=//p' "$report"); window=$(sed -n 's/^window width=//p' "$report")
dm_check "the popup (${popup:-?} px) is no wider than the window (${window:-?} px)" \
  test "${popup:-99999}" -le "${window:-0}"
tesseract "$out/button-C-popup.png" "$out/popup" -l eng >/dev/null 2>&1
dm_log "OCR of the popup: $(tr '\n' ' ' <"$out/popup.txt" | tr -s ' ' | cut -c1-300)"
dm_check "OCR reads the Folders and Disks headings in the popup" \
  bash -c "grep -q Folders '$out/popup.txt' && grep -q Disks '$out/popup.txt'"
dm_check "OCR reads the read-only mark in the popup" grep -q "read-only" "$out/popup.txt"

# The read-only folder as the target: the button marks it too.
show "" "$ro" ro
dm_check "the read-only folder in the button: its figures and the mark" \
  test "$(text_of "$out/ro.txt" "button figures")|$(text_of "$out/ro.txt" "button mark")" \
    = "$(figures "" "$ro")|read-only"
dm_check "and its accessible label says so" \
  grep -qx "button spoken=$ro, $(figures "" "$ro"), read-only" "$out/ro.txt"

# --- --target relative to where it was typed -------------------------------
mkdir "$rw/t1"
run_opts=(--profile demo --count 1 --size 16MiB --duration 0.3 --warmup 0 --interval 0 --run)
(cd "$rw" && timeout 60 "$DM_GUI" --target t1 "${run_opts[@]}" --save-json "$out/rel.json" \
   --quit-when-done) >"$out/rel.log" 2>&1
dm_check "diskmeter --target t1 ran and saved JSON (status $?)" test -s "$out/rel.json"
saved_target ()
{
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["target"]["path"])' "$1" 2>/dev/null
}
dm_check "the JSON holds the absolute path, $rw/t1 ('$(saved_target "$out/rel.json")')" \
  test "$(saved_target "$out/rel.json")" = "$rw/t1"
kept="$(ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | head -1)"
dm_check "the history holds it too ('$(saved_target "$kept")')" test "$(saved_target "$kept")" = "$rw/t1"

# A running window, started in another folder, takes the command line
# typed in $rw; a relative target set over D-Bus, with no folder it was
# typed in, is the running window's own folder, which it measures.
# remote JSON COMMAND...: COMMAND given to a running window started in
# $out/elsewhere.
remote ()
{
  local json="$1"; shift
  (cd "$out/elsewhere" && timeout 90 dbus-run-session -- bash -c '
     "$DM_GUI" & gui=$!
     gdbus wait --session --timeout 15 io.github.diskmeter.Diskmeter || { kill $gui; exit 3; }
     bash -c "$1"
     rc=$?
     wait $gui
     exit $(( rc || $? ))' _ "$*") >"$json.log" 2>&1
  local rc=$?
  grep -v "^dbus-daemon\|^$" "$json.log" | sed 's/^/#   /' | head -10
  return "$rc"
}
if command -v dbus-run-session >/dev/null && command -v gdbus >/dev/null \
   && command -v gapplication >/dev/null; then
  mkdir -p "$out/elsewhere/t1"
  export DM_GUI
  remote "$out/remote.json" "cd '$rw' && \"\$DM_GUI\" --target t1 ${run_opts[*]}" \
    "--save-json '$out/remote.json' --quit-when-done"
  dm_check "a running window took --target t1 (status $?) and saved $rw/t1 ('$(saved_target "$out/remote.json")')" \
    test "$(saved_target "$out/remote.json")" = "$rw/t1"
  remote "$out/action.json" "gapplication action io.github.diskmeter.Diskmeter target \"'t1'\" &&" \
    "\"\$DM_GUI\" ${run_opts[*]} --save-json '$out/action.json' --quit-when-done"
  dm_check "a relative target set over D-Bus (status $?) is saved as $out/elsewhere/t1 ('$(saved_target "$out/action.json")')" \
    test "$(saved_target "$out/action.json")" = "$out/elsewhere/t1"
else
  dm_check "dbus-run-session, gdbus and gapplication are installed (build-aux/dev installs them)" false
fi
dm_finish
