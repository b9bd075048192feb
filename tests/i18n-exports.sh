#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Exports do not follow the locale: one saved run printed again by
# diskmeter-cli show as JSON, CSV (per test and per sample) and text under
# de_DE.UTF-8, whose decimal separator is a comma, and under LANGUAGE=de
# (translated messages) is byte for byte what the C locale prints.
set -uo pipefail
. "$DM_SOURCE_ROOT/tests/lib.sh"

[ -n "${DM_DECIMAL_COMMA_LOCALE:-}" ] || dm_skip "no decimal-comma locale in this build"
[ "$(LC_ALL="$DM_DECIMAL_COMMA_LOCALE" locale decimal_point 2>/dev/null)" = "," ] \
  || dm_die "$DM_DECIMAL_COMMA_LOCALE cannot be loaded (LOCPATH=${LOCPATH:-}); build-aux/dev installs locales"
export DISKMETER_LOCALEDIR="$DM_BUILD_ROOT/po"

work=$(mktemp -d "$DM_BUILD_ROOT/i18n-exports.XXXXXX") || dm_die "no temporary folder"
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"
# A short real run, buffered so any filesystem takes it; its figures have
# decimals, which is what a comma could creep into.
LC_ALL=C "$DM_CLI" --profile demo --count 1 --size 16MiB --duration 0.3 --warmup 0 \
  --interval 0 --sample 0.1 --buffered --no-history --quiet --format json \
  --output "$work/run.json" "$work/target" >/dev/null 2>&1 \
  || dm_die "the run to export failed"

# A sustained test too: its text summary is written by other code.
LC_ALL=C "$DM_CLI" sustained --span 32MiB --duration 1 --sample 0.1 --buffered --quiet \
  --no-history --format json --output "$work/sustained.json" "$work/target" >/dev/null 2>&1 \
  || dm_die "the sustained run to export failed"

for f in "json" "csv" "csv --samples" "text" "text --latency"; do
  name=${f// /}
  # shellcheck disable=SC2086
  LC_ALL=C "$DM_CLI" show --format $f "$work/run.json" > "$work/C.$name" 2>&1
  # shellcheck disable=SC2086
  LC_ALL="$DM_DECIMAL_COMMA_LOCALE" LANGUAGE=de "$DM_CLI" show --format $f "$work/run.json" \
    > "$work/de.$name" 2>&1
  dm_check "show --format $f has figures with a decimal point" grep -qE '[0-9]\.[0-9]' "$work/C.$name"
  dm_check "show --format $f under $DM_DECIMAL_COMMA_LOCALE is byte-identical to C" \
    cmp "$work/C.$name" "$work/de.$name"
done
for f in "json" "csv" "text"; do
  LC_ALL=C "$DM_CLI" show --format $f "$work/sustained.json" > "$work/C.s$f" 2>&1
  LC_ALL="$DM_DECIMAL_COMMA_LOCALE" LANGUAGE=de "$DM_CLI" show --format $f "$work/sustained.json" \
    > "$work/de.s$f" 2>&1
  dm_check "sustained show --format $f has figures with a decimal point" \
    grep -qE '[0-9]\.[0-9]' "$work/C.s$f"
  dm_check "sustained show --format $f under $DM_DECIMAL_COMMA_LOCALE is byte-identical to C" \
    cmp "$work/C.s$f" "$work/de.s$f"
done
dm_finish
