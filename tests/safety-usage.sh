#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A mistyped command line is refused before anything happens: exit status
# 2, one line on stderr starting "diskmeter-cli: " (or "diskmeter-cli
# COMMAND: ") that says what is wrong (and at most a "Usage:" hint after
# it), nothing on stdout, and no file created in the target folder. Every
# command takes "--opt VALUE" and "--opt=VALUE" and prints its --help.
# Needs no root and no device.

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
# --concurrent: each target once and there, for a plain timed run.
other="$DM_TMPDIR/other"
mkdir "$other"
ln -s "$target" "$DM_TMPDIR/link"
bad concurrent-same "same target" "${ok[@]}" "$target" --concurrent "$target/"
bad concurrent-twice twice "${ok[@]}" "$target" --concurrent "$other" --concurrent "$other"
bad concurrent-missing "cannot measure" "${ok[@]}" "$target" --concurrent "$DM_TMPDIR/nope"
bad concurrent-link "same folder" "${ok[@]}" "$target" --concurrent "$DM_TMPDIR/link"
bad concurrent-compare compare-with "${ok[@]}" "$target" --concurrent "$other" --compare-with "$other"
bad concurrent-steady steady "${ok[@]}" --warmup steady "$target" --concurrent "$other"

# The subcommands, through the same option table: one line naming the
# option (the reading commands name themselves first).
usage_line ()
{
  local file="$1" n
  n="$(wc -l < "$file")"
  head -n 1 "$file" | grep -qE '^diskmeter-cli( [a-z]+)?: .' || return 1
  [ "$n" -eq 1 ] || { [ "$n" -eq 2 ] && sed -n 2p "$file" | grep -q '^Usage: '; }
}
sub_bad ()
{
  local name="$1" word="$2"; shift 2
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "$@"
  dm_check "/safety/usage/$name exit status 2 (got $DM_RC)" test "$DM_RC" = 2
  dm_check "/safety/usage/$name one-line reason on stderr" usage_line "$DM_TMPDIR/err"
  dm_check "/safety/usage/$name the reason mentions '$word'" bash -c 'head -n 1 "$1" | grep -qiF -- "$2"' _ "$DM_TMPDIR/err" "$word"
  dm_check "/safety/usage/$name nothing on stdout" test ! -s "$DM_TMPDIR/out"
}
sub_bad sweep-qd-0 --qd sweep --qd=0 "$target"
sub_bad sweep-block-3k --block sweep --block 3K "$target"
sub_bad sweep-tests --tests sweep --tests=RND4K_Q1T1 "$target"
sub_bad sweep-no-target target sweep --qd 1
sub_bad sustained-span --span sustained --span=15MiB "$target"
sub_bad sustained-count --count sustained --count 3 "$target"
sub_bad sustained-qd-list --qd sustained --qd=1,2 "$target"
sub_bad compare-unit --unit compare --unit=furlongs a.json b.json
sub_bad compare-one-file two compare a.json
sub_bad compare-xlsx --output compare --format=xlsx a.json b.json
sub_bad show-format --format show --format=xml a.json
sub_bad show-latency-json --latency show --latency --format json a.json
sub_bad merge-format --format merge --format=pdf a.json b.json
sub_bad history-format --format history --format=xml
sub_bad history-verb erase history erase 1
sub_bad help-value --help sweep --help=yes

dm_check "/safety/usage nothing was created in the target" test -z "$(ls -A "$target")"

# Every command's --help: a Usage line first, nothing on stderr.
for cmd in "" compare history merge show sweep sustained; do
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" $cmd --help
  dm_check "/safety/usage/help-${cmd:-run} exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  dm_check "/safety/usage/help-${cmd:-run} starts with Usage" \
    bash -c 'head -n 1 "$1" | grep -q "^Usage: diskmeter-cli ${2:+$2 }"' _ "$DM_TMPDIR/out" "$cmd"
  dm_check "/safety/usage/help-${cmd:-run} nothing on stderr" test ! -s "$DM_TMPDIR/err"
done

# Both forms in the reading commands, on two small saved runs.
runs="$DM_TMPDIR/runs"
mkdir "$runs"
for r in a b; do
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "${ok[@]}" --buffered --interval 0 --no-history \
    --format=json --output="$runs/$r.json" "$runs"
  dm_check "/safety/usage/saved-$r exit status 0 (got $DM_RC)" test "$DM_RC" = 0
done
forms ()
{
  local name="$1" want="$2"; shift 2
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "$@"
  dm_check "/safety/usage/$name exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  dm_check "/safety/usage/$name prints $want" grep -q -- "$want" "$DM_TMPDIR/out"
}
forms compare-json-joined '"runs"' compare --format=json --unit=IOPS "$runs/a.json" "$runs/b.json"
forms compare-json-apart '"runs"' compare --format json --unit IOPS "$runs/a.json" "$runs/b.json"
forms compare-sort-joined 'vs A' compare --sort=B "$runs/a.json" "$runs/b.json"
forms show-csv-joined '^RND4K_Q1T1,read' show --format=csv "$runs/a.json"
forms show-csv-apart '^RND4K_Q1T1,read' show "$runs/a.json" --format csv
# merge adds up runs made at the same time: a run with itself is one,
# once --allow-duplicates says it is meant.
forms merge-json-joined '"kind": "merge"' merge --format=json --allow-duplicates \
  "$runs/a.json" "$runs/a.json"
forms merge-csv-apart 'RND4K_Q1T1' merge "$runs/a.json" "$runs/a.json" --format csv \
  --allow-duplicates

dm_finish
