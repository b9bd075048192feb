#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A study of three "controllers": three loop devices whose reads the block
# cgroup throttles to 10, 15 and 20 MB/s, crossed with Q 1, 4 and T 1, 2:
# 12 scenarios, each measured within 8 % of its device's throttle (the
# throttles are 33 % and more apart, so a scenario run on another target
# fails; a Q1 reader that this machine stalls for 0.1 s loses that time
# at a throttle, which gives no budget back: -6 % once in a 2 s run, with
# the machine loaded). Ctrl-C
# after the fifth scenario keeps five; the same command then runs the other
# seven, so the sheet has 12 rows and none twice. The workbook read back
# with openpyxl: 12 rows, the tags, the fills the rule gives each rate
# ("read SEQ128K MB/s green>12 red<12": 10 red, 15 and 20 green), the
# autofilter over the header and every row, and a ranking of the green
# rows only. Blocks of 128 KiB, not 1 MiB: a 2 s run at 10 MB/s is then
# 152 I/Os, so one I/O more or less in the window is 0.7 %, not 5 %; and
# not 64 KiB, at which this kernel's throttle, by its slices, let runs
# come 2-6 % over or under it. No rate above 20 MB/s: at 40, Q4T2 read 28
# MB/s in the ASan build, in every run, its 128 KiB reads reaching the
# device one by one, not merged in pairs as in the plain build. The
# warm-up of 2 s spends the throttle's first budget (1 s left the first
# scenario 4 % under its throttle in CI).

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_need_cgroup
python3 -c 'import openpyxl' 2>/dev/null \
  || dm_die "python3-openpyxl is missing (build-aux/dev installs it)"

dm_tmpdir
# The study's history is this test's own, not the build's shared one.
export XDG_DATA_HOME="$DM_TMPDIR/data"
dm_cgroup_create
rates=(10000000 15000000 20000000) # bytes per second: MB/s x 1e6
labels=("ctl10 C:" "ctl15 E:" "ctl20 F:")
targets=""
for i in 0 1 2; do
  dm_loop_create 160
  dm_throttle read_bps "${rates[i]}"
  targets+="
[target ${labels[i]}]
path = $DM_LOOP
tag = controller=ctl$((rates[i] / 1000000))
"
done

plan="$DM_TMPDIR/plan.ini"
cat > "$plan" <<EOF
# Three controllers, read only (the targets are devices).
[study]
name = truth
tests = SEQ128K
modes = read
q = 1, 4
t = 1, 2
count = 1
size = 64MiB
duration = 2
warmup = 2
interval = 0
tag = vcpus=48 (HT)
threshold = read SEQ128K MB/s green>12 red<12
$targets
EOF

in_cgroup=(bash -c 'echo "$BASHPID" > "$1/cgroup.procs" || exit 125; shift; exec "$@"' _ "$DM_CGROUP")

# Stopped once the fifth scenario is saved (the CLI's own line says so).
dm_run_watch "$DM_TMPDIR/run1.out" "$DM_TMPDIR/run1.log" 'study truth: 5/12 done' \
  "${in_cgroup[@]}" "$DM_CLI" study run "$plan"
dm_check "/truth/study/interrupted: exit status 130 (got $DM_RC)" test "$DM_RC" = 130
saved=$(grep -l '"study": "truth"' "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | wc -l)
dm_check "/truth/study/interrupted: five scenarios saved ($saved)" test "$saved" = 5

# The same command again: the other seven.
DM_RUN_PREFIX=dm_throttled dm_run "$DM_TMPDIR/run2.out" "$DM_TMPDIR/run2.err" study run "$plan"
dm_check "/truth/study/resumed: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/truth/study/resumed: 5 done, 7 to run" grep -q '12 scenarios, 5 done, 7 to run' \
  "$DM_TMPDIR/run2.err"
saved=$(grep -l '"study": "truth"' "$XDG_DATA_HOME"/diskmeter/history/*.json | wc -l)
dm_check "/truth/study/resumed: twelve runs saved in all ($saved)" test "$saved" = 12
# And once more: nothing left to run.
DM_RUN_PREFIX=dm_throttled dm_run "$DM_TMPDIR/run3.out" "$DM_TMPDIR/run3.err" study run "$plan"
dm_check "/truth/study/third run measures nothing" grep -q 'all 12 scenarios are done' \
  "$DM_TMPDIR/run3.err"

sheet="$DM_TMPDIR/sheet.json"
dm_run "$sheet" "$DM_TMPDIR/show.err" study show truth --format json
dm_check "/truth/study/show: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/truth/study/sheet: 12 rows" test "$(dm_json "$sheet" 'len(j["rows"])')" = 12
dm_check "/truth/study/sheet: no scenario twice" test "$(dm_json "$sheet" \
  'len(set((r["target"], r["q"], r["t"]) for r in j["rows"]))')" = 12
for i in 0 1 2; do
  want=$((rates[i] / 1000000))
  for q in 1 4; do
    for t in 1 2; do
      sel="[r for r in j['rows'] if r['target'] == '${labels[i]}' and r['q'] == $q and r['t'] == $t][0]"
      dm_within "/truth/study/${labels[i]} Q${q}T${t} MB/s vs its throttle" \
        "$(dm_json "$sheet" "$sel['values']['Read SEQ128K MB/s']")" "$want" 8
      dm_check "/truth/study/${labels[i]} Q${q}T${t} tagged controller=ctl$want" \
        test "$(dm_json "$sheet" "$sel['tags']['controller']")" = "ctl$want"
    done
  done
done
dm_check "/truth/study/sheet: every row has vcpus=48 (HT)" test "$(dm_json "$sheet" \
  'all(r["tags"]["vcpus"] == "48 (HT)" for r in j["rows"])')" = True
dm_check "/truth/study/ranking: the 8 rows of ctl15 and ctl20, none of ctl10" \
  test "$(dm_json "$sheet" 'sorted(set(r["target"] for r in j["rows"] if r["nr"] in j["ranking"])) == ["ctl15 E:", "ctl20 F:"] and len(j["ranking"]) == 8')" = True

csv="$DM_TMPDIR/sheet.csv"
dm_run "$csv" "$DM_TMPDIR/csv.err" study show truth --format csv
dm_check "/truth/study/csv: a header and 12 rows" test "$(wc -l < "$csv")" = 13

book="$DM_TMPDIR/study.xlsx"
dm_run "$DM_TMPDIR/xlsx.out" "$DM_TMPDIR/xlsx.err" study show truth --format xlsx --output "$book"
dm_check "/truth/study/xlsx: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
if [ -s "$book" ]; then
  python3 "$(dirname "$0")/xlsx-check.py" study "$book" "$sheet" 'MB/s green>12 red<12'
  dm_check "/truth/study/xlsx: the workbook as the rates and the rule say" test $? = 0
else
  dm_check "/truth/study/xlsx: a workbook" false
fi

dm_finish
