#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A mistyped command line is refused before anything happens: exit status
# 2, one line on stderr starting "diskmeter-cli: " that says what is wrong
# (and at most a "Usage:" hint after it), nothing on stdout, and no file created in the target folder. Needs no
# root and no device.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
target="$DM_TMPDIR/target"
mkdir "$target"
ok=(--tests RND4K_Q1T1 --modes read --size 16MiB --count 1 --duration 0.5 --warmup 0)

# bad NAME WORD ARGS...: exit 2 and a one-line reason that contains WORD.
bad ()
{
  local name="$1" word="$2"; shift 2
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "$@"
  dm_check "/safety/usage/$name exit status 2 (got $DM_RC)" test "$DM_RC" = 2
  dm_check "/safety/usage/$name one-line reason on stderr" dm_usage_error "$DM_TMPDIR/err"
  dm_check "/safety/usage/$name the reason mentions '$word'" bash -c 'head -n 1 "$1" | grep -qiF -- "$2"' _ "$DM_TMPDIR/err" "$word"
  dm_check "/safety/usage/$name nothing on stdout" test ! -s "$DM_TMPDIR/out"
}

bad unknown-option --frobnicate "${ok[@]}" --frobnicate "$target"
bad count-0 count "${ok[@]}" --count 0 "$target"
bad count-10 count "${ok[@]}" --count 10 "$target"
bad count-word count "${ok[@]}" --count many "$target"
bad size-1KiB size "${ok[@]}" --size 1KiB "$target"
bad size-65GiB size "${ok[@]}" --size 65GiB "$target"
bad size-junk size "${ok[@]}" --size 12parsecs "$target"
bad tests-bad BAD "${ok[@]}" --tests BAD "$target"
bad tests-q0 RND4K_Q0T1 "${ok[@]}" --tests RND4K_Q0T1 "$target"
bad tests-block-3k SEQ3K_Q1T1 "${ok[@]}" --tests SEQ3K_Q1T1 "$target"
bad modes-bad modes "${ok[@]}" --modes read,fly "$target"
bad profile-bad profile "${ok[@]}" --profile fastest "$target"
bad data-bad data "${ok[@]}" --data ones "$target"
bad backend-bad backend "${ok[@]}" --backend carrier-pigeon "$target"
bad format-bad format "${ok[@]}" --format xml "$target"
bad duration-negative duration "${ok[@]}" --duration -1 "$target"
bad mix-read-5 mix "${ok[@]}" --mix-read 5 "$target"
bad missing-value count "${ok[@]}" "$target" --count
bad no-target target "${ok[@]}"
bad two-targets target "${ok[@]}" "$target" "$target"

dm_check "/safety/usage nothing was created in the target" test -z "$(ls -A "$target")"

dm_finish
