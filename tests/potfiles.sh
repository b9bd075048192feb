#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# po/POTFILES.in lists every source file with sentences marked for
# translation, and only files that exist: a file that marks sentences but
# is missing from the list would ship them untranslated without a word.
# Marked means _() or N_(), a plural through dm_ngettext or g_dngettext,
# translatable="yes" in a .ui file, or in engine/ a reason given to
# dm_why() (or the merge's and sweep's refuse() and fail()) or dm_gettext().
set -uo pipefail
. "$DM_SOURCE_ROOT/tests/lib.sh"
cd "$DM_SOURCE_ROOT" || dm_die "no source tree"

listed=$(grep -v '^\s*\(#\|$\)' po/POTFILES.in | sort -u)
marked=$(grep -lE '(^|[^A-Za-z0-9_])N?_ ?\("|dm_ngettext ?\(|g_dngettext ?\(|translatable="yes"|dm_gettext ?\("|(dm_why|refuse|fail) ?\(why, *[a-z_]+,\s*"' \
           app/*.c ui/*.c ui/*.ui engine/*.c export/*.c 2>/dev/null | sort -u)

dm_check "POTFILES.in is not empty" test -n "$listed"
for f in $marked; do
  dm_check "$f marks sentences and is in po/POTFILES.in" grep -qxF "$f" <<<"$listed"
done
for f in $listed; do
  dm_check "$f in po/POTFILES.in exists" test -f "$f"
done

# The catalogues: every .po passes msgfmt's checks (printf directives as in
# the English, plural forms), and German, Japanese and Chinese translate
# every sentence the sources mark today. The sentences are read with the
# arguments po/meson.build gives xgettext.
if command -v xgettext >/dev/null && command -v msgmerge >/dev/null; then
  tmp=$(mktemp -d) || dm_die "no temporary folder"
  trap 'rm -rf "$tmp"' EXIT
  args=$(sed -n "s/^ *'\(--[a-z-]*=[^']*\)',.*/\1/p" po/meson.build)
  # shellcheck disable=SC2086
  xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=g_dngettext:2,3 $args \
    -f po/POTFILES.in -o "$tmp/diskmeter.pot" 2>"$tmp/xgettext.log" \
    || dm_die "xgettext failed: $(cat "$tmp/xgettext.log")"
  for po in po/*.po; do
    lang=$(basename "$po" .po)
    dm_check "$po passes msgfmt -c" msgfmt -c -o /dev/null "$po"
    dm_check "$lang is in po/LINGUAS" grep -qx "$lang" po/LINGUAS
    case $lang in de|ja|zh_CN) ;; *) continue ;; esac
    msgmerge -q --no-fuzzy-matching -o "$tmp/$lang.po" "$po" "$tmp/diskmeter.pot" 2>/dev/null
    # Untranslated: only "%s", which is a sentence in no language.
    missing=$(msgattrib --untranslated --no-obsolete "$tmp/$lang.po" 2>/dev/null \
                | grep '^msgid "' | grep -vx 'msgid ""' | grep -vx 'msgid "%s"')
    dm_check "$lang translates every marked sentence${missing:+ (missing: $(head -3 <<<"$missing" | tr '\n' ' '))}" \
      test -z "$missing"
  done
else
  dm_skip_part "gettext tools missing: the catalogues are not checked (build-aux/dev installs gettext)"
fi
# The stored reasons the terminal translates (engine/dm-reason.c) are the
# sentences the test file's checks say: one changed in dm-testfile.c and
# not there would stay English on screen.
reasons_known ()
{
  python3 - engine/dm-testfile.c engine/dm-reason.c <<'PY'
import re, sys
def strings(text, call):
    out = []
    for m in re.finditer(call + r'((?:\s*"(?:[^"\\]|\\.)*")+)', text):
        out.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
    return out
said = strings(open(sys.argv[1]).read(), r'\bfail \(r, [^,]+, [^,]+,')
known = set(strings(open(sys.argv[2]).read(), r'\bR_ \('))
missing = [f for f in said if f not in known]
for f in missing:
    print("#   not in dm-reason.c:", f)
sys.exit(1 if missing or len(said) < 10 else 0)
PY
}
dm_check "every reason of dm-testfile.c is one dm-reason.c translates" reasons_known
dm_finish
