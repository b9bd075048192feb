#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tags (--tag KEY=VALUE) wherever a result goes: a sweep's and a sustained
# run's JSON keep them and show gives them back (text and CSV); the history
# lists a run's tags under it; compare names each run's tags and the ones
# that differ (text, JSON, CSV); merge keeps each host's and says the
# fleet's common ones once; CSVs and Excel get a tag_KEY column per tag, only
# with tags. Every figure checked here is the tag the command line gave.
# Needs no root and no device.
. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"
export LANGUAGE=C LC_ALL=C.UTF-8
cd "$DM_TMPDIR" || dm_die "cannot enter $DM_TMPDIR"
mkdir t t2
fast=(--size 16MiB --warmup 0 --buffered --quiet)
ok=(--tests RND4K_Q1T1 --modes read --count 1 --duration 0.5 --interval 0 "${fast[@]}")

# has NAME FILE TEXT: a line of FILE is exactly TEXT.
has ()
{
  grep -qxF -- "$3" "$2" || { printf '#   no line "%s" in:\n' "$3"; sed 's/^/#     /' "$2"; }
  dm_check "$1" grep -qxF -- "$3" "$2"
}

# --- sweep and sustained ---------------------------------------------------
dm_run sw.json sw.err sweep --tag site=lab --tag "vcpus=48 (HT)" --qd 1,2 --threads 1 \
  --duration 0.2 "${fast[@]}" --format json t
dm_check "sweep --tag exits 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "the sweep's JSON keeps the tags, vcpus replacing the fact" python3 - sw.json <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tags"]
print("#   sweep tags", t)
assert t["site"] == "lab" and t["vcpus"] == "48 (HT)", t
PY
dm_run sw.txt err show sw.json
has "show gives the sweep's tags back" sw.txt "Tags: vcpus=48 (HT), site=lab"
dm_run sw.csv err show sw.json --format csv
dm_check "the sweep's CSV has a column per tag, each row its value" python3 - sw.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print("#   header", rows[0])
assert rows[0][-2:] == ["tag_vcpus", "tag_site"], rows[0]
assert len(rows) == 3 and all(r[-2:] == ["48 (HT)", "lab"] for r in rows[1:]), rows
PY
dm_run su.json su.err sustained --tag site=lab --duration 1 --span 16MiB --buffered --quiet \
  --format json t
dm_check "sustained --tag exits 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "the sustained run's JSON keeps the tag" \
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["tags"]["site"] == "lab"' su.json
dm_run su.txt err show su.json
has "show gives the sustained run's tag back" su.txt "Tags: site=lab"
dm_run su.csv err show su.json --format csv
dm_check "the sustained run's samples CSV ends in its tag column" \
  python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert r[0][-1]=="tag_site" and len(r)>1 and all(x[-1]=="lab" for x in r[1:]), r[:2]' su.csv
dm_run out err sweep --tag "Bad=1" --qd 1 --threads 1 "${fast[@]}" t
dm_check "sweep --tag with a bad key exits 2 (got $DM_RC)" test "$DM_RC" = 2
has "... saying why in one line" err "diskmeter-cli: --tag: tag key 'Bad' is not 1 to 32 of a-z 0-9 _ . -"

# --- runs in the history ----------------------------------------------------
dm_run out err "${ok[@]}" --tag controller=pvscsi --tag site=lab t
dm_run out err "${ok[@]}" --tag controller=nvme --tag site=lab t
dm_run out err "${ok[@]}" --output plain.csv --format csv t
dm_run out err "${ok[@]}" --output plain2.json --format json t
dm_run out err "${ok[@]}" --tag site=lab --output tagged.csv --format csv t
dm_check "a run without tags has no tag column in its CSV" \
  python3 -c 'import csv,sys; h=next(csv.reader(open(sys.argv[1]))); assert not [c for c in h if "tag" in c], h' plain.csv
dm_check "a tagged run's CSV ends in tag_site, lab on every row" \
  python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert r[0][-1]=="tag_site" and all(x[-1]=="lab" for x in r[1:]), r' tagged.csv

dm_run list.txt err history list
has "history list shows the pvscsi run's tags under it" list.txt "     Tags: controller=pvscsi, site=lab"
has "... and the nvme run's" list.txt "     Tags: controller=nvme, site=lab"
dm_check "... and no Tags line for the runs without ($(grep -c 'Tags:' list.txt) lines)" \
  test "$(grep -c 'Tags:' list.txt)" = 3
pvscsi=$(grep -l '"controller": "pvscsi"' "$XDG_DATA_HOME"/diskmeter/history/*.json)
nvme=$(grep -l '"controller": "nvme"' "$XDG_DATA_HOME"/diskmeter/history/*.json)
[ -f "$pvscsi" ] && [ -f "$nvme" ] || dm_die "the tagged runs are not in the history"

# --- compare ----------------------------------------------------------------
dm_run cmp.txt err compare "$pvscsi" "$nvme"
has "compare names the tag that differs, each run's value" cmp.txt \
  "Different tags: controller pvscsi vs nvme"
has "... and each run's tags under it" cmp.txt "     Tags: controller=pvscsi, site=lab"
dm_run cmp.json err compare "$pvscsi" "$nvme" --format json
dm_check "compare's JSON: each run's tags and the one that differs" python3 - cmp.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print("#   different_tags", c["different_tags"])
assert c["different_tags"] == {"controller": ["pvscsi", "nvme"]}, c["different_tags"]
assert [r["tags"]["controller"] for r in c["runs"]] == ["pvscsi", "nvme"]
assert all(r["tags"]["site"] == "lab" for r in c["runs"])
PY
dm_run cmp.csv err compare "$pvscsi" "$nvme" --format csv
dm_check "compare's CSV: each run's tags and the keys that differ, on every row" \
  python3 - cmp.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print("#   header", rows[0][-3:], "row", rows[1][-3:])
assert rows[0][-3:] == ["A_tags", "B_tags", "different_tags"], rows[0]
assert all(r[-3:] == ["controller=pvscsi; site=lab", "controller=nvme; site=lab", "controller"]
           for r in rows[1:]), rows
PY
cp plain2.json plain3.json
dm_run plain.txt err compare plain2.json plain3.json
dm_check "compare of runs without tags says nothing of tags" \
  eval '! grep -q "Tags" plain.txt'
dm_run plain.ccsv err compare plain2.json plain3.json --format csv
dm_check "... nor has tag columns in its CSV" eval '! grep -q "_tags" plain.ccsv'

# --- merge ------------------------------------------------------------------
one=(--tests RND4K_Q1T1 --modes read --count 1 --duration 1 --interval 0 "${fast[@]}"
     --no-history --format json)
"$DM_CLI" "${one[@]}" --tag site=lab --tag host=a --output h1.json t 2>/dev/null &
pid=$!
"$DM_CLI" "${one[@]}" --tag site=lab --tag host=b --output h2.json t2 2>/dev/null
wait "$pid"
dm_run m.txt err merge h1.json h2.json
dm_check "merge of two overlapping runs exits 0 (got $DM_RC)" test "$DM_RC" = 0
has "merge says the tags every host has once" m.txt "Tags of every host: site=lab"
has "... and each host's own on its line" m.txt "Host 1: h1.json  [host=a]"
has "... the other host's too" m.txt "Host 2: h2.json  [host=b]"
dm_run m.json err merge h1.json h2.json --format json
dm_check "merge's JSON: the common tags at the top, every host's in its entry" \
  python3 - m.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["tags"] == {"site": "lab"}, m["tags"]
assert [h["tags"] for h in m["hosts"]] == [{"site": "lab", "host": "a"},
                                           {"site": "lab", "host": "b"}], m["hosts"]
PY
dm_run m.csv err merge h1.json h2.json --format csv
dm_check "merge's CSV: a tags column, the sum's row the common ones, a host's row its own" \
  python3 - m.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][-1] == "tags", rows[0]
assert [(r[2], r[-1]) for r in rows[1:]] == [("sum", "site=lab"), ("h1.json", "site=lab; host=a"),
                                             ("h2.json", "site=lab; host=b")], rows
PY

# --- Excel ------------------------------------------------------------------
dm_run m.out m.err merge h1.json h2.json --format xlsx --output m.xlsx
if grep -q "without Excel support" m.err; then
  dm_skip_part "this diskmeter-cli was built without libxlsxwriter"
elif ! python3 -c 'import openpyxl' 2>/dev/null; then
  dm_check "python3-openpyxl is installed for the workbook checks (build-aux/dev installs it)" false
else
  dm_run c.out c.err compare "$pvscsi" "$nvme" --format xlsx --output c.xlsx
  dm_check "the workbooks: a tag_KEY column per tag in Settings, each host's tags in Hosts, the fleet's below the sums" \
    python3 - m.xlsx c.xlsx <<'PY'
import openpyxl, sys
m, c = (openpyxl.load_workbook(p) for p in sys.argv[1:])
def rows(ws):
    return [[x.value for x in r] for r in ws.iter_rows()]
s = rows(m["Settings"])
col = {h: i for i, h in enumerate(s[0])}
assert [r[col["tag_site"]] for r in s[1:]] == ["lab", "lab"], s[0]
assert [r[col["tag_host"]] for r in s[1:]] == ["a", "b"], s[0]
h = rows(m["Hosts"])
assert h[0][-1] == "Tags" and [r[-1] for r in h[1:]] == ["site=lab; host=a", "site=lab; host=b"], h
f = rows(m["Fleet"])
assert ["Tags of every host", "site=lab"] == [v for v in f[-1] if v is not None], f[-1]
s = rows(c["Settings"])
col = {h: i for i, h in enumerate(s[0])}
assert [r[col["tag_controller"]] for r in s[1:]] == ["pvscsi", "nvme"], s[0]
assert [r[col["tag_site"]] for r in s[1:]] == ["lab", "lab"], s[0]
PY
fi
dm_finish
