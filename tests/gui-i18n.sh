#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window in Japanese: a saved run opened under LANGUAGE=ja, with the
# build's catalogues and a CJK font, is saved as a screenshot, and OCR
# (tesseract with its Japanese data) reads the grid's column titles as
# 読み込み and 書き込み (Read and Write). The same run opened in English
# reads "Read", so the check tells the two apart.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
[ "${DM_NLS:-0}" = 1 ] || dm_skip "built without translations (-Dnls, gettext)"
export DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po"
[ -f "$DISKMETER_LOCALEDIR/ja/LC_MESSAGES/diskmeter.mo" ] || dm_die "no Japanese catalogue in $DISKMETER_LOCALEDIR"
command -v tesseract >/dev/null && tesseract --list-langs 2>/dev/null | grep -qx jpn \
  || dm_die "tesseract with Japanese data is missing (build-aux/dev installs tesseract-ocr-jpn)"
fc-list :lang=ja 2>/dev/null | grep -q . \
  || dm_die "no Japanese font (build-aux/dev installs fonts-noto-cjk)"

# diskmeter --help, from the option table through GApplication.
help_de=$(LC_ALL= LANG=C.UTF-8 LANGUAGE=de "$DM_GUI" --help 2>&1)
dm_check "diskmeter --help in German" grep -qE '^  -t, --target=DIR +Zu testender Ordner' <<<"$help_de"

dm_tmpdir
out="$DM_TMPDIR"
mkdir "$out/target"
LC_ALL=C "$DM_CLI" --profile demo --count 1 --size 16MiB --duration 0.3 --warmup 0 \
  --interval 0 --buffered --no-history --quiet --format json --output "$out/run.json" \
  "$out/target" >/dev/null 2>&1 || dm_die "the run to show failed"

dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

shot ()
{
  local lang="$1" png="$2"
  # C.UTF-8: gettext ignores LANGUAGE in the plain C locale.
  LC_ALL= LANG=C.UTF-8 LANGUAGE="$lang" timeout 60 "$DM_GUI" --open "$out/run.json" \
    --screenshot-scale 2 --save-screenshot "$png" --quit-when-done >"$png.log" 2>&1
}

shot ja "$out/ja.png"
dm_check "the window saved a screenshot in Japanese" test -s "$out/ja.png"
tesseract "$out/ja.png" "$out/ja" -l jpn+eng >/dev/null 2>&1
# Japanese OCR puts spaces between the characters it reads.
ja_text=$(tr -d ' \t' < "$out/ja.txt" 2>/dev/null)
dm_log "OCR (ja): $(tr '\n' ' ' <<<"$ja_text" | cut -c1-300)"
dm_check "OCR reads the Read column's title as 読み込み" grep -q '読み込' <<<"$ja_text"
dm_check "OCR reads the Write column's title as 書き込み" grep -q '書き込' <<<"$ja_text"

shot "" "$out/c.png"
tesseract "$out/c.png" "$out/c" -l eng >/dev/null 2>&1
dm_check "in English the same screenshot says Read, not 読み込み" \
  bash -c "grep -q 'Read' '$out/c.txt' && ! grep -q '読み込' '$out/c.txt'"
dm_finish
