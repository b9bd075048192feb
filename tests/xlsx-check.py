#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Reads a Diskmeter workbook back with openpyxl and checks it against the
# JSON it was made from: figures as real numbers equal to the JSON's, fills
# green or red as the rules say, frozen headers, widths, the settings sheet.
# Shared by tests/xlsx-export.sh (diskmeter-cli) and tests/gui-history-xlsx.sh
# (the window's History).
#   xlsx-check.py runs BOOK.xlsx [--rule "MB/s green>G red<R"] RUN.json...
#       rows labelled by each run's comment; without --rule the fills are the
#       colours saved with each run
#   xlsx-check.py merge BOOK.xlsx MERGE.json
#   xlsx-check.py study BOOK.xlsx SHEET.json "MB/s green>G red<R"
#       a study's sheet (diskmeter-cli study show --format json): a row per
#       scenario with its tags, the figures, fills by the rule on every MB/s
#       figure, the autofilter, the Ranking of the rows green everywhere
#   xlsx-check.py same BOOK.xlsx OTHER.xlsx
#       the same sheets, cells, values, number types and fills
# Prints a line per check; exits 1 if any failed.
import json
import sys

import openpyxl
from openpyxl.utils import get_column_letter

GREEN, RED = 'FFC6EFCE', 'FFFFC7CE'
bad = 0


def check(what, ok, detail=''):
    global bad
    print('%s %s %s' % ('ok  ' if ok else 'FAIL', what, detail))
    bad += not ok


def colour_by_rule(rule, value):
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
    # A sheet per mode any run measured, in this order.
    modes = [m for m in ('Read', 'Write', 'Mix')
             if any(r['mode'] == m.lower() for rep in reports for r in rep['results'])]
    check(path + ': sheets', wb.sheetnames == modes + ['Settings'], str(wb.sheetnames))
    tests = []
    for r in reports[0]['results']:
        if r['test'] not in tests:
            tests.append(r['test'])
    n_green = n_red = 0
    for mode in modes:
        if mode not in wb.sheetnames:
            continue  # said above
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
                res = next((r for r in rep['results']
                            if r['test'] == test and r['mode'] == mode.lower()), None)
                for u, (key, unit) in enumerate((('mb_per_s', 'MB/s'), ('iops', 'IOPS'),
                                                  ('best_latency_us', 'us'))):
                    cell = row[1 + 3 * t + u] if 1 + 3 * t + u < len(row) else None
                    where = '%s %s %s%d' % (path, mode, get_column_letter(2 + 3 * t + u), i + 2)
                    if res is None or res.get('status') != 'complete':
                        check(where + ' is empty: the run has no such figure',
                              cell is None or cell.value is None)
                        continue
                    ok = (cell.data_type == 'n' and isinstance(cell.value, (int, float))
                          and abs(cell.value - res[key]) <= 1e-9 * max(1, abs(res[key])))
                    check(where + ' is the number in the JSON', ok,
                          '%r vs %r' % (cell.value, res[key]))
                    if rule:
                        want = colour_by_rule(rule, res[key]) if unit == 'MB/s' else None
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


def merge_workbook(path, m):
    wb = openpyxl.load_workbook(path)
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


def same_workbook(path, other):
    a, b = openpyxl.load_workbook(path), openpyxl.load_workbook(other)
    check('%s and %s have the same sheets' % (path, other), a.sheetnames == b.sheetnames,
          '%s vs %s' % (a.sheetnames, b.sheetnames))
    for name in a.sheetnames:
        if name not in b.sheetnames:
            continue
        x, y = a[name], b[name]
        cells = lambda ws: [(c.coordinate, c.value, c.data_type, fill(c), c.number_format)
                            for row in ws.iter_rows() for c in row]
        diff = [(p, q) for p, q in zip(cells(x), cells(y)) if p != q]
        check('%s: every cell as in %s (value, type, fill, format)' % (name, other),
              x.dimensions == y.dimensions and not diff,
              '%s vs %s %s' % (x.dimensions, y.dimensions, diff[:3]))
        check('%s: the same frozen panes' % name, x.freeze_panes == y.freeze_panes)


def study_workbook(path, sheet, rule):
    wb = openpyxl.load_workbook(path)
    check(path + ': sheets', wb.sheetnames == ['Study', 'Ranking'], str(wb.sheetnames))
    ws = wb['Study']
    head = [c.value for c in ws[1]]
    want = (['Nr', 'Target'] + sheet['tag_keys'] + ['Q', 'T']
            + [c.replace(' us', ' \u00b5s') for c in sheet['columns']] + ['All green'])
    # The Advice column, where a row has advice (the facts name a short queue).
    if any(r.get('advice') for r in sheet['rows']):
        want.append('Advice')
    check('study: header', head == want, str(head))
    rows = list(ws.iter_rows(min_row=2, values_only=False))
    check('study: a row per scenario', len(rows) == len(sheet['rows']),
          '%d vs %d' % (len(rows), len(sheet['rows'])))
    last = get_column_letter(len(want))
    check('study: the autofilter covers the header and every row',
          ws.auto_filter.ref == 'A1:%s%d' % (last, len(rows) + 1), str(ws.auto_filter.ref))
    check('study: header frozen', ws.freeze_panes is not None, str(ws.freeze_panes))
    n_green = n_red = 0
    for cells, r in zip(rows, sheet['rows']):
        v = dict(zip(head, [c.value for c in cells]))
        check('study: row %d Nr, target, Q, T' % r['nr'],
              (v['Nr'], v['Target'], v['Q'], v['T']) == (r['nr'], r['target'], r['q'], r['t']),
              str((v['Nr'], v['Target'], v['Q'], v['T'])))
        check('study: row %d tags' % r['nr'],
              all(v[k] == (r['tags'][k] or None) for k in sheet['tag_keys']))
        for col, title in zip(cells[len(sheet['tag_keys']) + 4:], sheet['columns']):
            value = r['values'][title]
            if value is None:
                check('study: row %d %s empty' % (r['nr'], title), col.value is None)
                continue
            check('study: row %d %s a number equal to the JSON\'s' % (r['nr'], title),
                  isinstance(col.value, (int, float)) and abs(col.value - value) < 1e-6,
                  '%r vs %r' % (col.value, value))
            if title.endswith('MB/s'):
                expect = colour_by_rule(rule, col.value)
                got = fill(col)
                check('study: row %d %s %.2f filled %s' % (r['nr'], title, col.value,
                                                           {GREEN: 'green', RED: 'red'}.get(expect)),
                      got == expect, str(got))
                n_green += got == GREEN
                n_red += got == RED
        if 'Advice' in head:
            check('study: row %d Advice is the JSON\'s' % r['nr'],
                  (v['Advice'] or '').startswith(r.get('advice', '')) if r.get('advice')
                  else v['Advice'] is None, str(v['Advice']))
        check('study: row %d All green' % r['nr'],
              v['All green'] == ('yes' if r['all_green'] else 'no'), str(v['All green']))
    print('# study: %d green and %d red cells' % (n_green, n_red))
    rk = wb['Ranking']
    ranked = [row[1] for row in rk.iter_rows(min_row=2, values_only=True) if row[1] is not None]
    check('study: the Ranking lists the rows green everywhere, best first',
          ranked == sheet['ranking'], '%s vs %s' % (ranked, sheet['ranking']))


def main(argv):
    what, book, rest = argv[1], argv[2], argv[3:]
    if what == 'runs':
        rule = None
        if rest[:1] == ['--rule']:
            rule, rest = rest[1], rest[2:]
        reports = [json.load(open(f)) for f in rest]
        runs_workbook(book, reports, [r['comment'] for r in reports], rule)
    elif what == 'merge':
        merge_workbook(book, json.load(open(rest[0])))
    elif what == 'study':
        study_workbook(book, json.load(open(rest[0])), rest[1])
    elif what == 'same':
        same_workbook(book, rest[0])
    else:
        sys.exit('xlsx-check.py: runs, merge, study or same')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
