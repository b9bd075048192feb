#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli.exe first-write under Wine (or in an MSYS2 shell on
# Windows), through iocp: the JSON holds both passes of both default tests
# complete, over the same number of blocks, with a penalty; the text and
# CSV forms are whole; Ctrl-C ends it with 130 and a report marked
# cancelled; and no run leaves its test file (no name, no space taken).
# Wine's figures are not Windows' (its files live on a Linux filesystem,
# with no NTFS zero-fill): this proves the command works, not its figures.
set -uo pipefail

. "$(dirname "$0")/windows-lib.sh" windows-firstwrite

# A tmpfs of the test's own where it can mount one, so that the space in
# use there is the runs' alone.
vol="$scratch/vol"
mkdir -p "$vol"
vol_used() { :; }
if [ -n "$wine" ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=512m diskmeter-test "$vol"; then
  mounts+=("$vol")
  vol_used() { stat -f -c '%b %f %S' "$vol" | awk '{ printf "%.0f\n", ($1 - $2) * $3 }'; }
fi

new_names() { ls -A "$1" | grep -v -x -e report.json -e report.txt -e report.csv; }
# Wine's server may hold the test file a moment after the program ends.
wait_gone() {
  local names used
  for _ in $(seq $(($3 * 10))); do
    names=$(new_names "$1")
    used=$(vol_used)
    [ -z "$names" ] && { [ -z "$2" ] || [ "$used" -le $(($2 + (1 << 20))) ]; } && return 0
    sleep 0.1
  done
  echo "  left in $1:${names:+ $(echo $names)}${2:+ $((used - $2)) bytes more in use than before}"
  return 1
}

echo "/windows/first-write/json"
dir="$vol/json"
mkdir -p "$dir"
used0=$(vol_used)
${wine:+"$wine"} "$DM_CLI" first-write --size 16MiB --format json --quiet \
  --output "$(winpath "$dir/report.json")" "$(winpath "$dir")" >"$scratch/json.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { fail "exit status $rc"; sed 's/^/    /' "$scratch/json.log"; }
python3 - "$dir/report.json" <<'EOF' || fail "the JSON report is not complete"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
errors = []
if r.get("backend") != "iocp":
    errors.append("backend %r" % r.get("backend"))
if r.get("status") != "complete":
    errors.append("status %r (%s)" % (r.get("status"), r.get("error")))
fw = r.get("first_write", {})
tests = fw.get("tests", [])
if [t.get("test") for t in tests] != ["RND4K_Q32T1", "SEQ1M_Q8T1"]:
    errors.append("tests %r" % [t.get("test") for t in tests])
for t in tests:
    f, w = t.get("first", {}), t.get("rewrite", {})
    print("  %-12s first %8.1f IOPS  rewrite %8.1f IOPS  penalty %s" %
          (t.get("test"), f.get("iops", 0), w.get("iops", 0), t.get("penalty")))
    for name, p in (("first", f), ("rewrite", w)):
        if p.get("status") != "complete" or not p.get("iops", 0) > 0:
            errors.append("%s %s: %r" % (t.get("test"), name, p))
    if not t.get("whole") or f.get("bytes") != 16 << 20 or w.get("bytes") != 16 << 20:
        errors.append("%s: not both passes over the whole 16 MiB" % t.get("test"))
    if f.get("ios") != w.get("ios"):
        errors.append("%s: %r blocks first, %r rewritten" % (t.get("test"), f.get("ios"), w.get("ios")))
    if not (t.get("penalty") or 0) > 0:
        errors.append("%s: penalty %r" % (t.get("test"), t.get("penalty")))
if len(r.get("results", [])) != 4:
    errors.append("%d results, not 4" % len(r.get("results", [])))
for e in errors:
    print("  FAIL: " + e)
sys.exit(1 if errors else 0)
EOF
wait_gone "$dir" "$used0" 5 || fail "the run left its test file"

echo "/windows/first-write/text-and-csv"
${wine:+"$wine"} "$DM_CLI" first-write --tests RND4K_Q8T1 --size 16MiB --quiet \
  --output "$(winpath "$dir/report.txt")" "$(winpath "$dir")" >"$scratch/text.log" 2>&1 \
  || fail "text: exit status $?"
grep -q "^First write against rewrite on " "$dir/report.txt" || fail "text: no title"
grep -q "^RND4K_Q8T1 *first " "$dir/report.txt" || fail "text: no first pass row"
grep -q "^ *rewrite " "$dir/report.txt" || fail "text: no rewrite row"
grep -q "^ *penalty *x[0-9]" "$dir/report.txt" || fail "text: no penalty"
grep -q "unwritten extents" "$dir/report.txt" || fail "text: no note on the filesystem's part"
${wine:+"$wine"} "$DM_CLI" first-write --tests RND4K_Q8T1 --size 16MiB --quiet --format csv \
  --output "$(winpath "$dir/report.csv")" "$(winpath "$dir")" >"$scratch/csv.log" 2>&1 \
  || fail "csv: exit status $?"
python3 - "$dir/report.csv" <<'EOF' || fail "the CSV is not complete"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")))
print("  csv:", [(r["test"], r["pass"], r["status"], r["penalty"]) for r in rows])
ok = [(r["test"], r["pass"]) for r in rows] == [("RND4K_Q8T1", "first"), ("RND4K_Q8T1", "rewrite")]
ok = ok and all(r["status"] == "complete" and float(r["iops"]) > 0 and float(r["penalty"]) > 0
                for r in rows)
sys.exit(0 if ok else 1)
EOF
wait_gone "$dir" "$used0" 5 || fail "text and csv: a run left its test file"

echo "/windows/first-write/ctrl-c"
dir="$vol/ctrl-c"
mkdir -p "$dir"
used0=$(vol_used)
if [ -z "$wine" ]; then
  echo "  (skipped: an MSYS2 shell cannot send CTRL_C_EVENT to a native program)"
else
  # One I/O at a time over 256 MiB: seconds of first writes to stop.
  "$wine" "$DM_CLI" first-write --tests RND4K_Q1T1 --size 256MiB --duration 60 --format json \
    --output "$(winpath "$dir/report.json")" "$(winpath "$dir")" >"$scratch/ctrl-c.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 300); do [ -n "$(new_names "$dir")" ] && break; sleep 0.1; done
  if [ -n "$(new_names "$dir")" ]; then
    sleep 0.5
    kill -INT "$pid"
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      fail "still running 15 s after Ctrl-C"
    else
      wait "$pid"
      rc=$?
      [ $rc -eq 130 ] || { fail "exit status $rc after Ctrl-C, expected 130"; sed 's/^/    /' "$scratch/ctrl-c.log"; }
      python3 -c 'import json,sys; s=json.load(open(sys.argv[1],encoding="utf-8"))["status"]; print("  report status:", s); sys.exit(0 if s=="cancelled" else 1)' \
        "$dir/report.json" || fail "the report after Ctrl-C is not marked cancelled"
    fi
    wait_gone "$dir" "$used0" 10 || fail "test file left after Ctrl-C"
  else
    fail "no test file appeared"; sed 's/^/    /' "$scratch/ctrl-c.log"
  fi
fi

if [ $failures -gt 0 ]; then
  echo "FAIL: $failures"
  exit 1
fi
echo "PASS"
