#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Bash completion of diskmeter-cli, run as bash runs it: COMP_WORDS and
# COMP_CWORD set, the completion function called, COMPREPLY read. Every
# option each --help lists (the CLI's and each subcommand's) must be offered
# after "--", the subcommands first, the engine's profiles and tests for
# --profile and --tests, the listed values of --format, and folders only
# (no files) for TARGET. meson install must install the script.

source "$(dirname "$0")/lib.sh"
dm_need_cli

script="$DM_BUILD_ROOT/completion/diskmeter-cli"
[ -f "$script" ] || dm_die "no $script (completion/meson.build makes it)"
# shellcheck source=/dev/null
source "$script" || dm_die "sourcing $script failed"
type _diskmeter_cli >/dev/null 2>&1 || dm_die "$script defines no _diskmeter_cli"

# complete WORD...: the completions for the command line WORD... (the last
# word is the one being completed), one per line, sorted.
complete_words ()
{
  COMP_WORDS=(diskmeter-cli "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="${COMP_WORDS[*]}"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _diskmeter_cli "$DM_CLI" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}

# offers WORD... :: EXPECTED...: each EXPECTED is among the completions.
offers ()
{
  local words=() got missing="" w
  while [ "$1" != :: ]; do words+=("$1"); shift; done
  shift
  got="$(complete_words "${words[@]}")"
  for w in "$@"; do
    grep -qxF -- "$w" <<<"$got" || missing+=" $w"
  done
  [ -z "$missing" ] || { echo "# '${words[*]}' misses:$missing (offered: $(echo $got))"; return 1; }
}

# The options a --help text lists.
options_of ()
{
  grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*[a-z0-9](-\*)?' |
    sed 's/^[^-]*//' | grep -v -- '-\*$' | sort -u
}

cli_help="$("$DM_CLI" --help)"
# shellcheck disable=SC2046
dm_check "every option of diskmeter-cli --help after --" \
  offers -- :: $(options_of <<<"$cli_help")
dm_check "options complete from a prefix" offers --pro :: --profile
commands="$(sed -n 's/^ *diskmeter-cli \([a-z][a-z-]*\).*/\1/p' <<<"$cli_help" | sort -u)"
dm_check "diskmeter-cli --help names subcommands" test -n "$commands"
# shellcheck disable=SC2086
dm_check "the subcommands as the first word" offers "" :: $commands
dm_check "a subcommand from a prefix" offers sw :: sweep
for c in $commands; do
  # shellcheck disable=SC2046
  dm_check "every option of diskmeter-cli $c --help after $c --" \
    offers "$c" -- :: $(options_of < <("$DM_CLI" "$c" --help))
done
no_profile() { ! complete_words sweep -- | grep -qx -- --profile; }
dm_check "sweep does not offer the plain run's --profile" no_profile

dm_check "--profile: the engine's profiles" offers --profile "" :: default peak realworld demo
dm_check "--profile from a prefix" offers --profile re :: realworld
# "--profile=re" reaches the function as "--profile" "=" "re" (COMP_WORDBREAKS).
dm_check "--profile=: the engine's profiles" offers --profile = :: default peak realworld demo
dm_check "--profile=re" offers --profile = re :: realworld
dm_check "--format=j" offers --format = j :: json
dm_check "--tests: the profiles' tests" offers --tests "" :: SEQ1M_Q8T1 SEQ1M_Q1T1 RND4K_Q32T1 RND4K_Q1T1
dm_check "--tests: the next item of a list" offers --tests SEQ1M_Q8T1,RND4K_Q3 :: SEQ1M_Q8T1,RND4K_Q32T1 SEQ1M_Q8T1,RND4K_Q32T16
dm_check "--modes: the columns" offers --modes read, :: read,write read,mix
dm_check "--format: the values --help lists" offers --format "" :: text json csv
dm_check "sweep --pattern: SEQ and RND" offers sweep --pattern "" :: SEQ RND
dm_check "--backend: this build's backends" offers --backend "" :: io_uring
dm_check "history: its actions" offers history "" :: list show comment export delete

dm_tmpdir
mkdir -p "$DM_TMPDIR/data/fast" "$DM_TMPDIR/data/slow"
: >"$DM_TMPDIR/data/file.txt"
: >"$DM_TMPDIR/data/run.json"
dm_check "TARGET: folders" offers --count 3 "$DM_TMPDIR/data/" :: "$DM_TMPDIR/data/fast" "$DM_TMPDIR/data/slow"
no_files() { ! complete_words "$DM_TMPDIR/data/" | grep -q 'file.txt\|run.json'; }
dm_check "TARGET: no plain files" no_files
dm_check "sweep TARGET: folders" offers sweep "$DM_TMPDIR/data/f" :: "$DM_TMPDIR/data/fast"
dm_check "show: saved runs" offers show "$DM_TMPDIR/data/" :: "$DM_TMPDIR/data/run.json"
dm_check "--output: files" offers --output "$DM_TMPDIR/data/fi" :: "$DM_TMPDIR/data/file.txt"

installed="$(meson introspect "$DM_BUILD_ROOT" --installed 2>/dev/null)"
dm_check "meson installs the completion under bash-completion/completions" \
  grep -qE '/bash-completion/completions/diskmeter-cli"' <<<"$installed"

dm_finish
