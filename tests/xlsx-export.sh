#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Excel workbooks of compare, history export and merge, read back with
# openpyxl: a sheet per mode with a row per run labelled by its comment and
# MB/s, IOPS and µs columns per test holding the JSON's figures as numbers;
# fills green or red as the rules given or saved with the runs say; frozen
# headers and widths; the settings sheet; the merged sums and percentiles.
. "$(dirname "$0")/lib.sh"
dm_need_cli
trap dm_teardown EXIT
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"
python3 -c 'import openpyxl' 2>/dev/null \
  || dm_die "python3-openpyxl is missing (build-aux/dev installs it)"
export XDG_DATA_HOME="$DM_TMPDIR/data"
mkdir t

if "$DM_CLI" merge x.json y.json --format xlsx 2>&1 | grep -q "without Excel support"; then
  dm_skip "this diskmeter-cli was built without libxlsxwriter (build-aux/dev installs libxlsxwriter-dev)"
fi

args=(--tests SEQ1M_Q1T1,RND4K_Q1T1 --mix --count 1 --duration 0.3 --warmup 0 --interval 0
      --size 16MiB --buffered --quiet --format json)
dm_run r1.out r1.err "${args[@]}" --output one.json --comment "controller A, QD 1" t
dm_run r2.out r2.err "${args[@]}" --output two.json --comment "controller B" \
  --threshold "read MB/s green>1000 red<200" --threshold "write us red>50" t
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

cat > check.py <<'EOF'
import json, sys
import openpyxl
from openpyxl.utils import get_column_letter

GREEN, RED = 'FFC6EFCE', 'FFFFC7CE'
bad = 0
def check(what, ok, detail=''):
    global bad
    print('%s %s %s' % ('ok  ' if ok else 'FAIL', what, detail))
    bad += not ok

def colour_by_rule(rule, unit, value):
    # "MB/s green>G red<R" as given to compare
    _, g, r = rule.split()
    if value > float(g[6:]):
        return GREEN
    if value < float(r[4:]):
        return RED
    return None

def fill(cell):
    return cell.fill.fgColor.rgb if cell.fill.fill_type == 'solid' else None

def runs_workbook(path, reports, labels, rule=None):
    wb = openpyxl.load_workbook(path)
    modes = [m for m in ('Read', 'Write', 'Mix')]
    check(path + ': sheets', wb.sheetnames == modes + ['Settings'], str(wb.sheetnames))
    tests = []
    for r in reports[0]['results']:
        if r['test'] not in tests:
            tests.append(r['test'])
    n_green = n_red = 0
    for mode in modes:
        ws = wb[mode]
        check(path + ' ' + mode + ': frozen header and label column', ws.freeze_panes == 'B2',
              str(ws.freeze_panes))
        check(path + ' ' + mode + ': label column wide enough',
              (ws.column_dimensions['A'].width or 0) >= 20)
        want_head = ['Run'] + ['%s %s' % (t, u) for t in tests for u in ('MB/s', 'IOPS', '\u00b5s')]
        head = [c.value for c in ws[1]]
        check(path + ' ' + mode + ': header', head == want_head, str(head))
        for i, (rep, label) in enumerate(zip(reports, labels)):
            row = ws[i + 2]
            check('%s %s row %d label' % (path, mode, i + 2), row[0].value == label,
                  repr(row[0].value))
            for t, test in enumerate(tests):
                res = next(r for r in rep['results']
                           if r['test'] == test and r['mode'] == mode.lower())
                for u, (key, unit) in enumerate((('mb_per_s', 'MB/s'), ('iops', 'IOPS'),
                                                  ('best_latency_us', 'us'))):
                    cell = row[1 + 3 * t + u]
                    where = '%s %s %s%d' % (path, mode, get_column_letter(2 + 3 * t + u), i + 2)
                    ok = (cell.data_type == 'n' and isinstance(cell.value, (int, float))
                          and abs(cell.value - res[key]) <= 1e-9 * max(1, abs(res[key])))
                    check(where + ' is the number in the JSON', ok,
                          '%r vs %r' % (cell.value, res[key]))
                    if rule:
                        want = colour_by_rule(rule, unit, res[key]) if unit == 'MB/s' else None
                    else:
                        c = res.get('colour', {}).get(unit)
                        want = {'green': GREEN, 'red': RED}.get(c)
                    check(where + ' fill', fill(cell) == want, '%r vs %r' % (fill(cell), want))
                    n_green += want == GREEN
                    n_red += want == RED
    check(path + ': both colours are checked', n_green > 0 and n_red > 0,
          '%d green, %d red' % (n_green, n_red))
    ws = wb['Settings']
    head = [c.value for c in ws[1]]
    for i, (rep, label) in enumerate(zip(reports, labels)):
        row = {h: c for h, c in zip(head, ws[i + 2])}
        check('%s settings row %d' % (path, i + 2),
              row['Run'].value == label and row['Count'].value == rep['settings']['count']
              and row['Count'].data_type == 'n'
              and row['Test size (bytes)'].value == rep['settings']['test_size']
              and row['Target'].value == rep['target']['path']
              and row['Kernel'].value == rep['system']['kernel']
              and row['Logical CPUs'].value == rep['system']['logical_cpus'])
    check(path + ': settings header frozen', ws.freeze_panes == 'B2')

one, two = json.load(open('one.json')), json.load(open('two.json'))
which = sys.argv[1]
if which == 'compare':
    runs_workbook('cmp.xlsx', [one, two], [one['comment'], two['comment']], sys.argv[2])
elif which == 'history':
    runs_workbook('hist.xlsx', [one, two], [one['comment'], two['comment']])
else:
    m = json.load(open('merge.json'))
    wb = openpyxl.load_workbook('merge.xlsx')
    check('merge sheets', wb.sheetnames == ['Fleet', 'Hosts', 'Settings'], str(wb.sheetnames))
    ws = wb['Fleet']
    head = [c.value for c in ws[1]]
    for i, r in enumerate(m['results']):
        row = {h: c for h, c in zip(head, ws[i + 2])}
        check('Fleet row %d' % (i + 2),
              row['Test'].value == r['test'] and row['Mode'].value.lower() == r['mode']
              and row['Sum MB/s'].data_type == 'n'
              and abs(row['Sum MB/s'].value - r['mb_per_s']) < 0.001
              and abs(row['Sum IOPS'].value - r['iops']) < 0.1
              and abs(row['p99 \u00b5s'].value - r['latency_us']['p99']) < 0.001
              and abs(row['CV MB/s %'].value - r['spread']['mb_per_s']['cv_percent']) < 0.001)
    ws = wb['Hosts']
    check('Hosts rows', ws.max_row == 1 + len(m['results']) * len(m['hosts']), str(ws.max_row))
    check('Fleet frozen', wb['Fleet'].freeze_panes == 'C2')
sys.exit(1 if bad else 0)
EOF
python3 check.py compare "$rule"
dm_check "compare workbook: figures, numbers, fills by the rule given, layout" [ $? = 0 ]
python3 check.py history
dm_check "history workbook: figures, fills by the rules saved with the runs" [ $? = 0 ]

# A fleet workbook: two runs of the same tests made into hosts that ran at
# the same time.
python3 - <<'EOF'
import json
d = json.load(open('one.json'))
for h in ('h1', 'h2'):
    d['comment'] = h
    json.dump(d, open(h + '.json', 'w'))
EOF
dm_run m.out m.err merge h1.json h2.json --format json --output merge.json
dm_run m.out m.err merge h1.json h2.json --format xlsx --output merge.xlsx
dm_check "merge --format xlsx exits 0" [ "$DM_RC" = 0 ]
python3 check.py merge
dm_check "merge workbook: the sums, percentiles and spread of the JSON" [ $? = 0 ]

dm_run u.out u.err merge h1.json h2.json --format xlsx
dm_check "xlsx without --output is a usage error" [ "$DM_RC" = 2 ]
dm_check "no workbook is left half-written" [ -z "$(ls ./*.part 2>/dev/null)" ]
dm_finish
