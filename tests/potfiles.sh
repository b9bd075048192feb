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
dm_finish
