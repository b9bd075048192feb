#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The man pages say what the programs say: every option that
# "diskmeter-cli --help" lists, and every option each subcommand's --help
# lists, appears in diskmeter-cli(1) (a subcommand's in its own section),
# as does every option of "diskmeter --help" in diskmeter(1). Options are
# looked for in the page as man renders it, as ASCII "--option" a reader
# can copy. meson install must install both pages.

source "$(dirname "$0")/lib.sh"
dm_need_cli

man_dir="$DM_BUILD_ROOT/man"
[ -f "$man_dir/diskmeter-cli.1" ] \
  || dm_skip "no $man_dir/diskmeter-cli.1: help2man was not found at configure time (build-aux/dev installs it)"
command -v man >/dev/null || dm_skip "man (man-db) is not installed"

render ()
{
  MANWIDTH=250 LC_ALL=C.UTF-8 man -l -P cat "$1" 2>/dev/null | col -bx
}

# The options a --help text lists: long ones anywhere, short ones where a
# line starts with one ("  -t, --target=DIR").
options_of ()
{
  grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*[a-z0-9](-\*)?' |
    sed 's/^[^-]*//' | grep -v -- '-\*$'
  true
}
short_options_of ()
{
  sed -n 's/^ *\(-[A-Za-z]\),.*/\1/p'
}

# has_option TEXT OPTION: OPTION as a whole word of TEXT.
has_option ()
{
  grep -qE -- "(^|[^A-Za-z0-9_-])$2([^A-Za-z0-9_-]|$)" <<<"$1"
}

check_options ()
{
  local what="$1" page="$2" help="$3" missing="" n=0 opt
  for opt in $( { options_of <<<"$help"; short_options_of <<<"$help"; } | sort -u); do
    n=$((n + 1))
    has_option "$page" "$opt" || missing+=" $opt"
  done
  [ "$n" -gt 0 ] || { echo "# $what: --help lists no option"; return 1; }
  [ -z "$missing" ] || { echo "# $what: missing from the man page:$missing"; return 1; }
  echo "# $what: $n options, all in the man page"
}

cli_page="$(render "$man_dir/diskmeter-cli.1")"
[ -n "$cli_page" ] || dm_die "man renders nothing from $man_dir/diskmeter-cli.1"
cli_help="$("$DM_CLI" --help)"
dm_check "diskmeter-cli --help options in diskmeter-cli(1)" \
  check_options "diskmeter-cli" "$cli_page" "$cli_help"

commands="$(sed -n 's/^ *diskmeter-cli \([a-z][a-z-]*\).*/\1/p' <<<"$cli_help" | sort -u)"
dm_check "diskmeter-cli --help names its subcommands" test -n "$commands"

# One section per subcommand, from its heading ("   diskmeter-cli sweep")
# to the next heading.
section_of ()
{
  awk -v h="   diskmeter-cli $1" '
    $0 == h { on = 1; next }
    on && (/^   [^ ]/ || /^[A-Z]/) { on = 0 }
    on' <<<"$cli_page"
}

for c in $commands; do
  section="$(section_of "$c")"
  dm_check "diskmeter-cli(1) has a section for $c" test -n "$section"
  dm_check "diskmeter-cli $c --help options in its section" \
    check_options "diskmeter-cli $c" "$section" "$("$DM_CLI" "$c" --help)"
done

if [ -n "${DM_GUI:-}" ]; then
  dm_check "diskmeter(1) was made" test -f "$man_dir/diskmeter.1"
  gui_page="$(render "$man_dir/diskmeter.1")"
  gui_help="$(GSETTINGS_BACKEND=memory "$DM_GUI" --help)"
  dm_check "diskmeter --help options in diskmeter(1)" \
    check_options "diskmeter" "$gui_page" "$gui_help"
  dm_check "diskmeter(1) has a synopsis" grep -q '^SYNOPSIS' <<<"$gui_page"
fi

# What meson install puts where.
installed="$(meson introspect "$DM_BUILD_ROOT" --installed 2>/dev/null)"
dm_check "meson installs diskmeter-cli.1 under man1" \
  grep -qE '/man1/diskmeter-cli\.1"' <<<"$installed"
if [ -n "${DM_GUI:-}" ]; then
  dm_check "meson installs diskmeter.1 under man1" \
    grep -qE '/man1/diskmeter\.1"' <<<"$installed"
fi

dm_finish
