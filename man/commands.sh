#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a help2man include file with a COMMANDS section: every subcommand
# that "diskmeter-cli --help" names, each with its own "--help" as roff.
# Run at build time, so the man page follows the option table as it changes.
set -eu

cli="$1"
out="$2"

commands=$("$cli" --help | sed -n 's/^ *diskmeter-cli \([a-z][a-z-]*\).*/\1/p' | sort -u)
if [ -z "$commands" ]; then
  echo "commands.sh: $cli --help names no subcommand" >&2
  exit 1
fi

{
  printf '%s\n' '[COMMANDS]' \
    'Each command has its own options, printed by' \
    '.B "diskmeter\-cli \fICOMMAND\fP \-\-help"' \
    'and listed here.'
  for c in $commands; do
    printf '.SS "diskmeter\\-cli %s"\n' "$c"
    "$cli" "$c" --help | awk -f "$(dirname "$0")/help2roff.awk"
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
