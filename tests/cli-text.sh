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

# --- A cancelled run -------------------------------------------------------
# A run saved as a stop left it: no test finished, so the history has no
# figure for it ("-"), and the text report says which tests never ran.
dm_run out err "${ok[@]}" --tests SEQ1M_Q1T1,RND4K_Q1T1 --format json --output "$DM_TMPDIR/run.json" \
  "$target"
dm_check "/cli/text/cancelled-fixture exit status 0 (got $DM_RC)" test "$DM_RC" = 0
saved="$(ls "$XDG_DATA_HOME"/diskmeter/history/*.json)"
python3 - "$saved" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["status"] = "cancelled"
for r in j["results"]:
    r.update(status="pending", runs=[], mb_per_s=0.0, iops=0.0, best_latency_us=0.0,
             mean_mb_per_s=0.0, stdev_mb_per_s=0.0, latency_us=None, latency_histogram=None,
             cpu_percent=0.0, cpu_us_per_io=0.0, device=None)
json.dump(j, open(sys.argv[1], "w"))
PY
dm_run out err history
dm_check "/cli/text/history-cancelled exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/cli/text/history-cancelled figures are '-'" \
  bash -c 'sed -n 3p "$1" | grep -qE "cancelled .* Custom +- +- +- +-  $"' _ out
dm_run out err show "$saved"
line_is show-not-run out 10 "  SEQ    1MiB (Q=  1, T= 1):   not run"
line_is show-not-run-rnd out 11 "  RND    4KiB (Q=  1, T= 1):   not run"

# --- The history's columns -------------------------------------------------
# A long folder name is cut in the middle with "…", keeping the folder's
# own name, and the columns line up by what the terminal shows, accents
# and kanji too.
for name in a-rather-long-folder-name "d\xc3\xa9p\xc3\xb4t-\xc3\xa9-\xc3\xa9-\xc3\xa9-\xc3\xa9" \
            "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe9\x95\xb7\xe3\x81\x84\xe5\x90\x8d\xe5\x89\x8d"; do
  dir="$DM_TMPDIR/$(printf "$name")/small"
  mkdir -p "$dir"
  dm_run out err "${ok[@]}" "$dir"
  dm_check "/cli/text/history-fixture exit status 0 (got $DM_RC)" test "$DM_RC" = 0
done
dm_run out err history
columns_line_up ()
{
  python3 - "$1" <<'PY'
import sys, unicodedata
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[1:]
def cols(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in s)
want = lines[0].index("DEVICE")
bad = [l for l in lines[1:] if cols(l[:l.index("/dev/")]) != want]
for l in bad:
    print("#   not lined up:", l)
rows = [l for l in lines[1:] if "/small" in l]
cut = [l for l in rows if "\u2026" in l and "/small  " in l]
print("#   %d rows, %d cut with an ellipsis" % (len(rows), len(cut)))
sys.exit(1 if bad or len(rows) != 3 or len(cut) != 3 else 0)
PY
}
dm_check "/cli/text/history-target-cut-and-lined-up" columns_line_up out

# --- --list-targets --------------------------------------------------------
# The table lines up whatever the paths' lengths, says "-" for every fact
# it lacks, and has a column of its own for read-only; the JSON gives a
# device no free space (null), and no folder is listed twice.
dm_run out err --list-targets --all-targets
dm_check "/cli/text/list-targets exit status 0 (got $DM_RC)" test "$DM_RC" = 0
table_lines_up ()
{
  python3 - "$1" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if not l.startswith("* ")]
head = lines[0]
heads = re.findall(r"\S+", head)
ok = heads == ["TARGET", "KIND", "SIZE", "FREE", "FS", "LABEL", "BUS", "ACCESS", "MODEL"]
# Left-aligned cells start where their heading starts, SIZE and FREE end
# where theirs ends, and a cell never runs into the next.
starts = [head.index(" " + h + " ") + 1 if i else 0 for i, h in enumerate(heads[:-1])] + [head.rindex("MODEL")]
for l in lines[1:]:
    for i, h in enumerate(heads):
        if h in ("SIZE", "FREE"):
            end = starts[i] + len(h)
            good = l[end - 1] != " " and l[end] == " "
        else:
            good = l[starts[i]] != " " and (i == 0 or l[starts[i] - 1] == " ")
        if not good:
            print("#   %s out of line: %s" % (h, l))
            ok = False
    if l != l.rstrip() or "(read-only)" in l:
        print("#   a blank cell or (read-only) in MODEL: %r" % l)
        ok = False
sys.exit(0 if ok and len(lines) > 1 else 1)
PY
}
dm_check "/cli/text/list-targets-columns" table_lines_up out
dm_run out err --list-targets --all-targets --format json
dm_check "/cli/text/list-targets-json device free_bytes null" \
  test "$(dm_json out "[e['free_bytes'] for e in j if e['kind'] == 'device' and e['free_bytes'] is not None]")" = "[]"
dm_check "/cli/text/list-targets-json each folder once" \
  test "$(dm_json out "len(j) == len(set(e['path'] for e in j))")" = True
dm_check "/cli/text/list-targets-json access" \
  test "$(dm_json out "all(e['access'] in ('read-only', 'read-write') for e in j)")" = True

# --- sustained's announcement ----------------------------------------------
# The duration as given, not rounded to whole seconds.
dm_run out err sustained --duration 1.5 --span 64MiB --buffered --no-history "$target"
dm_check "/cli/text/sustained exit status 0 (got $DM_RC)" test "$DM_RC" = 0
line_is sustained-duration err 1 "diskmeter-cli: sustained write over 64.0MiB, up to 1.5 s"

# --- A relative TARGET -----------------------------------------------------
# Saved as the absolute folder it named when typed, not as "target".
cd "$DM_TMPDIR" || dm_die "cannot enter $DM_TMPDIR"
here="$(pwd -P)"
for typed in target ./target target/ sub/../target; do
  mkdir -p sub
  dm_run out err "${ok[@]}" --no-history --format json "$typed"
  dm_check "/cli/text/relative-target '$typed' exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  got="$(dm_json out "j['target']['path']")"
  [ "$got" = "$here/target" ] || dm_log "got $got"
  dm_check "/cli/text/relative-target '$typed' is saved as $here/target" test "$got" = "$here/target"
done
cd / || dm_die "cannot leave $DM_TMPDIR"

# --- Sizes -----------------------------------------------------------------
# 32MB is not guessed (a report's MB is 10^6 bytes, fio's 2^20): the
# binary spelling is named, for every size option.
dm_run out err --size 32MB "$target"
dm_check "/cli/text/size-32MB exit status 2 (got $DM_RC)" test "$DM_RC" = 2
line_is size-32MB err 1 \
  "diskmeter-cli: --size: '32MB' is not a binary size: write 32MiB (1 MB = 1,000,000 bytes)"
dm_run out err sweep --block 4KB "$target"
line_is sweep-block-4KB err 1 \
  "diskmeter-cli: --block: '4KB' is not a binary size: write 4KiB (1 KB = 1,000 bytes)"
dm_run out err sustained --span 1GB "$target"
line_is sustained-span-1GB err 1 \
  "diskmeter-cli: --span: '1GB' is not a binary size: write 1GiB (1 GB = 1,000,000,000 bytes)"
dm_check "/cli/text/sizes refused before a file was made" test -z "$(ls -A "$target")"

dm_finish
