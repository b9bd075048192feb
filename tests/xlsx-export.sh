#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Excel workbooks of compare, history export and merge, read back with
# openpyxl: a sheet per mode with a row per run labelled by its comment and
# MB/s, IOPS and µs columns per test holding the JSON's figures as numbers;
# fills green or red as the rules given or saved with the runs say; frozen
# headers and widths; the settings sheet; the merged sums and percentiles.
. "$(dirname "$0")/lib.sh"
check="$(cd "$(dirname "$0")" && pwd)/xlsx-check.py"
dm_need_cli
trap dm_teardown EXIT
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
python3 -c 'import openpyxl' 2>/dev/null \
  || dm_die "python3-openpyxl is missing (build-aux/dev installs it)"
export XDG_DATA_HOME="$DM_TMPDIR/data"
mkdir t

# (Captured first: under pipefail the refusal's status would fail a pipe.)
probe=$("$DM_CLI" merge x.json y.json --format xlsx --output x.xlsx 2>&1)
if [[ "$probe" == *"without Excel support"* ]]; then
  dm_skip "this diskmeter-cli was built without libxlsxwriter (build-aux/dev installs libxlsxwriter-dev)"
fi

args=(--tests SEQ1M_Q1T1,RND4K_Q1T1 --mix --count 1 --duration 0.3 --warmup 0 --interval 0
      --size 16MiB --buffered --quiet --format json)
dm_run r1.out r1.err "${args[@]}" --output one.json --comment "controller A, QD 1" t
# Rules every figure meets, read green and write red, whatever this
# machine's speed: the history workbook must show both colours as saved.
dm_run r2.out r2.err "${args[@]}" --output two.json --comment "controller B" \
  --threshold "read MB/s green>0.001" --threshold "write MB/s red<1000000" t
[ -s one.json ] && [ -s two.json ] || dm_die "the runs failed"

# compare, with a rule given here that splits the figures in two.
rule="$(python3 -c 'import json, statistics
v = [r["mb_per_s"] for f in ("one.json", "two.json") for r in json.load(open(f))["results"]]
print("MB/s green>%.3f red<%.3f" % ((statistics.median(v),) * 2))')"
dm_log "rule: $rule"
dm_run cmp.out cmp.err compare one.json two.json --threshold "$rule" --format xlsx --output cmp.xlsx
dm_check "compare --format xlsx exits 0" [ "$DM_RC" = 0 ]
dm_run h.out h.err history export 2,1 hist.xlsx --format xlsx
dm_check "history export N,M --format xlsx exits 0" [ "$DM_RC" = 0 ]
dm_run m.out m.err merge one.json two.json --format xlsx --output merge.xlsx
dm_check "merge refuses runs that did not overlap, also for xlsx" \
  eval '[ "$DM_RC" = 1 ] && [ ! -e merge.xlsx ]'

python3 "$check" runs cmp.xlsx --rule "$rule" one.json two.json
dm_check "compare workbook: figures, numbers, fills by the rule given, layout" [ $? = 0 ]
python3 "$check" runs hist.xlsx one.json two.json
dm_check "history workbook: figures, fills by the rules saved with the runs" [ $? = 0 ]

# A fleet workbook: two runs of the same tests made into hosts that ran at
# the same time, each with a test file of its own as real hosts have (the
# same file twice is refused as one host counted twice).
python3 - <<'EOF'
import json
d = json.load(open('one.json'))
for h in ('h1', 'h2'):
    d['comment'] = h
    d['test_file'] = d['test_file'][:-len('XXXXXX.tmp')] + h + 'abcd.tmp'
    json.dump(d, open(h + '.json', 'w'))
EOF
dm_run m.out m.err merge h1.json h2.json --format json --output merge.json
dm_run m.out m.err merge h1.json h2.json --format xlsx --output merge.xlsx
dm_check "merge --format xlsx exits 0" [ "$DM_RC" = 0 ]
python3 "$check" merge merge.xlsx merge.json
dm_check "merge workbook: the sums, percentiles and spread of the JSON" [ $? = 0 ]

dm_run u.out u.err merge h1.json h2.json --format xlsx
dm_check "xlsx without --output is a usage error" [ "$DM_RC" = 2 ]

# libxlsxwriter is loaded when a workbook is first written, not linked,
# so a start that writes none does not map it (nor minizip and libcrypto).
dm_check "diskmeter-cli does not link libxlsxwriter" \
  eval '! ldd "$DM_CLI" | grep -q libxlsxwriter'
# Where the library is missing (an empty file laid over it in a mount
# namespace of the run's own), a workbook is refused in one line that
# names the library, and no scratch file is left.
lib=$(ldconfig -p | awk '/libxlsxwriter\.so\./ { print $NF; exit }')
if [ "$(id -u)" = 0 ] && [ -n "$lib" ] && command -v unshare >/dev/null; then
  printf '#!/bin/sh\nmount --bind /dev/null "%s" || exit 99\nexec "$@"\n' "$lib" > no-xlsx.sh
  chmod +x no-xlsx.sh
  DM_RUN_PREFIX="unshare --mount --propagation private ./no-xlsx.sh" \
    dm_run n.out n.err compare one.json two.json --format xlsx --output none.xlsx
  dm_check "without libxlsxwriter, compare --format xlsx fails (exit $DM_RC)" [ "$DM_RC" = 1 ]
  dm_check "... in one line" eval '[ "$(wc -l < n.err)" = 1 ] && grep -q "^diskmeter-cli compare: cannot write none.xlsx: " n.err'
  dm_check "... naming the library to install" grep -qF "Excel workbooks need ${lib##*/}" n.err
  dm_check "... and writes no workbook" [ ! -e none.xlsx ]
else
  dm_log "not root, or no libxlsxwriter known to ldconfig: its absence is not checked"
fi
dm_check "no workbook is left half-written" [ -z "$(ls ./*.part 2>/dev/null)" ]
dm_finish
