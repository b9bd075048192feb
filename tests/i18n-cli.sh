#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli speaks the user's language: under LANGUAGE=de (ja, zh_CN)
# its --help and its usage errors come from the build's catalogues
# ($DISKMETER_LOCALEDIR, the build folder's po/), while what names options,
# tests and units stays as typed.
set -uo pipefail
. "$DM_SOURCE_ROOT/tests/lib.sh"

[ "${DM_NLS:-0}" = 1 ] || dm_skip "built without translations (-Dnls, gettext)"
export DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po"
for l in de ja zh_CN; do
  [ -f "$DISKMETER_LOCALEDIR/$l/LC_MESSAGES/diskmeter.mo" ] \
    || dm_die "no $l catalogue in $DISKMETER_LOCALEDIR"
done
# C.UTF-8: gettext ignores LANGUAGE in the plain C locale.
unset LC_ALL LC_MESSAGES
export LANG=C.UTF-8

cli () { LANGUAGE="$1" "$DM_CLI" "${@:2}" 2>&1; }

help_de=$(cli de --help)
dm_check "German --help: usage line" grep -q '^Aufruf: diskmeter-cli \[OPTIONS\] TARGET$' <<<"$help_de"
dm_check "German --help: an option's text" \
  grep -qE '^  -h, --help +diese Hilfe ausgeben und beenden$' <<<"$help_de"
dm_check "German --help: headings" grep -q '^Einstellungen:$' <<<"$help_de"
dm_check "German --help: option names and test names as typed" \
  grep -q 'SEQ1M_Q8T1,RND4K_Q32T16' <<<"$help_de"
dm_check "German sweep --help" grep -q 'Strg+C' <<<"$(cli de sweep --help)"

err_de=$(cli de --bogus /tmp); status=$?
dm_check "German usage error, exit status 2" test "$status" = 2
dm_check "German usage error: the reason" grep -q "unbekannte Option „--bogus“" <<<"$err_de"
dm_check "German usage error: the usage line" grep -q '^Aufruf: diskmeter-cli' <<<"$err_de"
dm_check "German reason from the engine's value checks" \
  grep -q "^diskmeter-cli: --count: „0“ liegt außerhalb des Bereichs (1 bis 9)$" <<<"$(cli de --count 0 /tmp)"
dm_check "Japanese reason from the engine's test-name parser" \
  grep -q "'FOO' はテスト名ではありません" <<<"$(cli ja --tests FOO /tmp)"
dm_check "German error of a subcommand" \
  grep -q 'braucht mindestens zwei Ergebnisdateien' <<<"$(cli de compare a.json)"

dm_check "Japanese --help" grep -q '^使い方: diskmeter-cli' <<<"$(cli ja --help)"
dm_check "Japanese usage error" grep -q "不明なオプション '--bogus'" <<<"$(cli ja --bogus)"
dm_check "Chinese --help" grep -q '显示此帮助并退出' <<<"$(cli zh_CN --help)"

# Every --help line fits 79 terminal columns (a kanji takes two, as
# Python's Unicode tables say), unless one word alone is longer, and no
# line starts with a closing mark.
help_width ()
{
  python3 -c '
import sys, unicodedata
bad = []
for n, line in enumerate(sys.stdin.read().splitlines(), 1):
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    if w > 79 and " " in line.strip():
        bad.append("line %d is %d columns: %s" % (n, w, line))
    if line.strip()[:1] in ("\u3001", "\u3002", "\uff09", ")", ",", "\u300d"):
        bad.append("line %d starts with a closing mark: %s" % (n, line))
print("\n".join(bad))
sys.exit(1 if bad else 0)'
}
for l in C de ja zh_CN; do
  for cmd in "" compare show sweep sustained history merge; do
    dm_check "$l ${cmd:-diskmeter-cli} --help fits 79 columns" \
      help_width <<<"$(cli "$l" $cmd --help)"
  done
done

# The same program in English: the catalogues change nothing else.
help_c=$(LANGUAGE= LANG=C "$DM_CLI" --help)
dm_check "English --help without LANGUAGE" grep -q '^Usage: diskmeter-cli' <<<"$help_c"
dm_check "German --help has the same option lines" \
  diff <(grep -oE '^  (-[a-z], )?--[a-z-]+' <<<"$help_c") <(grep -oE '^  (-[a-z], )?--[a-z-]+' <<<"$help_de")
# The engine's reasons for a refused run come in the user's language on
# the terminal, the names in them as given, while the saved report keeps
# its English.
dm_tmpdir
missing="$DM_TMPDIR/missing"
: > "$DM_TMPDIR/file"
dm_check "German: a missing target" \
  grep -qxF "diskmeter-cli: $missing existiert nicht" <<<"$(cli de --no-history "$missing")"
dm_check "Japanese: a missing target" \
  grep -qxF "diskmeter-cli: $missing は存在しません" <<<"$(cli ja --no-history "$missing")"
dm_check "Chinese: a missing target" \
  grep -qxF "diskmeter-cli: $missing 不存在" <<<"$(cli zh_CN --no-history "$missing")"
dm_check "German: a file is no target" \
  grep -qxF "diskmeter-cli: $DM_TMPDIR/file ist weder ein Ordner noch ein Blockgerät" \
  <<<"$(cli de --no-history "$DM_TMPDIR/file")"
dm_check "German: sustained's own check" \
  grep -qxF "diskmeter-cli: $missing existiert nicht" <<<"$(cli de sustained --no-history "$missing")"
cli de --no-history --format json --output "$DM_TMPDIR/refused.json" "$missing" >/dev/null
dm_check "the report keeps the English reason" \
  test "$(dm_json "$DM_TMPDIR/refused.json" "j['error']")" = "$missing does not exist"

dm_finish
