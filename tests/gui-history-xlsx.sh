#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The History window's Excel export. Two runs made by diskmeter-cli, both
# commented and one with limits saved, are checked in the window on a
# private Xvfb and exported with its history.export-xlsx-to action (what the
# Excel… button does after its file chooser). The workbook, read back with
# openpyxl, must hold the JSON's figures as numbers in rows labelled by the
# comments, filled as the saved limits say, and be cell for cell the
# workbook `diskmeter-cli history export 2,1 --format xlsx` writes. The
# window runs in a decimal-comma locale (de_DE), as many of its users do:
# the figures must still be numbers.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"
check="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/xlsx-check.py"

DM_UI_HISTORY_XLSX="${DM_UI_HISTORY_XLSX:-}"
[ -n "$DM_UI_HISTORY_XLSX" ] && [ -x "$DM_UI_HISTORY_XLSX" ] \
  || dm_die "DM_UI_HISTORY_XLSX is not set to test-ui-history-xlsx (run through meson test)"
dm_need_cli
python3 -c 'import openpyxl' 2>/dev/null \
  || dm_die "python3-openpyxl is missing (build-aux/dev installs it)"
# (Captured first: under pipefail the refusal's status would fail a pipe.)
probe=$("$DM_CLI" merge x.json y.json --format xlsx --output x.xlsx 2>&1)
if [[ "$probe" == *"without Excel support"* ]]; then
  dm_skip "this Diskmeter was built without libxlsxwriter (build-aux/dev installs libxlsxwriter-dev)"
fi
trap dm_teardown EXIT
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
# The runs are kept in a history of the test's own, which the window lists.
export XDG_DATA_HOME="$DM_TMPDIR/data"
mkdir t

args=(--tests SEQ1M_Q1T1,RND4K_Q1T1 --mix --count 1 --duration 0.3 --warmup 0 --interval 0
      --size 16MiB --buffered --quiet --format json)
dm_run r1.out r1.err "${args[@]}" --output one.json --comment "controller A, QD 1" t
# Rules every figure meets, read green and write red, whatever this
# machine's speed: the workbook must show both colours as saved. (A write
# latency limit of 50 us once left no red on a fast run.)
dm_run r2.out r2.err "${args[@]}" --output two.json --comment "controller B" \
  --threshold "read MB/s green>0.001" --threshold "write us red>0.001" t
[ -s one.json ] && [ -s two.json ] || dm_die "the runs failed"
mapfile -t saved < <(ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null)
[ "${#saved[@]}" = 2 ] || dm_die "expected 2 saved runs, found ${#saved[@]}"

locale=()
if [ -n "${DM_DECIMAL_COMMA_LOCALE:-}" ]; then
  python3 -c 'import locale, sys; locale.setlocale(locale.LC_ALL, sys.argv[1])' \
      "$DM_DECIMAL_COMMA_LOCALE" 2>/dev/null \
    || dm_die "the locale $DM_DECIMAL_COMMA_LOCALE cannot be loaded (build-aux/dev installs locales)"
  locale=(env LC_ALL="$DM_DECIMAL_COMMA_LOCALE" LANG="$DM_DECIMAL_COMMA_LOCALE")
  dm_log "the window runs in $DM_DECIMAL_COMMA_LOCALE"
fi
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
"${locale[@]}" timeout 60 "$DM_UI_HISTORY_XLSX" "$DM_TMPDIR/gui.xlsx" "${saved[@]}" >ui.log 2>&1
rc=$?
dm_gui_stop_display
sed 's/^/#   /' ui.log
dm_check "the History window checked both runs and saved the workbook (status $rc)" \
  [ "$rc" = 0 ]
dm_check "no workbook is left half-written" [ -z "$(ls ./*.part 2>/dev/null)" ]

python3 "$check" runs gui.xlsx one.json two.json > gui-check.log
rc=$?
sed 's/^/#   /' gui-check.log | grep -v '^#   ok' | head -n 40
dm_check "the window's workbook: the JSON's figures as numbers, labels, fills by the saved limits" \
  [ "$rc" = 0 ]

dm_run h.out h.err history export 2,1 cli.xlsx --format xlsx
dm_check "diskmeter-cli history export 2,1 --format xlsx exits 0" [ "$DM_RC" = 0 ]
python3 "$check" same gui.xlsx cli.xlsx > same.log
rc=$?
sed 's/^/#   /' same.log
dm_check "the window's workbook is diskmeter-cli's, cell for cell" [ "$rc" = 0 ]
dm_finish
