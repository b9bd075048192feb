#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli.exe cache-probe under Wine (or in an MSYS2 shell on
# Windows), through iocp on a small ladder: the estimate first, every
# working set's two tests complete with real figures, the JSON's
# "cache_probe" member and the text's table and steps complete, show
# reprinting the file, and no test file left. A time limit shorter than
# the ladder stops it with exit status 0, the sizes measured by then
# and "stopped": "time-limit", again leaving nothing behind. Wine's
# numbers are not Windows' numbers: this proves correctness only.
set -uo pipefail

. "$(dirname "$0")/windows-lib.sh" windows-cache-probe
dir="$scratch/target"
mkdir -p "$dir"

echo "# a ladder of 16, 32 and 64 MiB"
run_win "$DM_CLI" cache-probe --min 16MiB --max 64MiB --duration 0.5 --warmup 0 \
  --format json --output "$(winpath "$scratch/probe.json")" "$(winpath "$dir")" \
  2> "$scratch/err.txt"
rc=$?
[ "$rc" = 0 ] || fail "exit status $rc: $(tail -c 400 "$scratch/err.txt")"
grep -q "over 3 working sets from 16.0MiB to 64.0MiB: writes 112.0MiB" "$scratch/err.txt" \
  || fail "no estimate first: $(head -c 300 "$scratch/err.txt")"
python3 - "$scratch/probe.json" <<'PY' || failures=$((failures + 1))
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
errors = []
if r.get("backend") != "iocp":
    errors.append("backend is %r, not iocp" % r.get("backend"))
if r.get("status") != "complete":
    errors.append("status %r (%s)" % (r.get("status"), r.get("error")))
res = r.get("results", [])
if len(res) != 6:
    errors.append("%d results, expected 6" % len(res))
for x in res:
    print("  %-12s %-5s %10.2f MB/s" % (x.get("test"), x.get("mode"), x.get("mb_per_s", 0)))
    if x.get("status") != "complete" or not x.get("mb_per_s", 0) > 0:
        errors.append("%s: %r, %r MB/s" % (x.get("test"), x.get("status"), x.get("mb_per_s")))
p = r.get("cache_probe") or {}
if p.get("working_sets") != [16 << 20, 32 << 20, 64 << 20]:
    errors.append("working_sets %r" % p.get("working_sets"))
if p.get("stopped") is not None:
    errors.append("stopped %r" % p.get("stopped"))
lad = p.get("ladders", [])
if [l.get("test") for l in lad] != ["RND4K_Q32T1", "SEQ1M_Q8T1"] \
   or any(len(l.get("mb_per_s", [])) != 3 for l in lad):
    errors.append("ladders %r" % lad)
for e in errors:
    print("  FAIL: " + e)
sys.exit(1 if errors else 0)
PY
[ -z "$(ls -A "$dir")" ] || fail "left in the target: $(ls -A "$dir")"

echo "# show reprints it as text"
run_win "$DM_CLI" show "$(winpath "$scratch/probe.json")" > "$scratch/show.txt" 2> "$scratch/err.txt" \
  || fail "show: $(tail -c 300 "$scratch/err.txt")"
tr -d '\r' < "$scratch/show.txt" > "$scratch/show.lf"
for want in "Cache probe (read) of " "Backend iocp" "     16.0MiB" "     64.0MiB" "Steps (" \
            "RND4K_Q32T1: " "SEQ1M_Q8T1: "; do
  grep -qF -- "$want" "$scratch/show.lf" || fail "show: no '$want' in: $(head -c 600 "$scratch/show.lf")"
done

echo "# a time limit shorter than the ladder"
run_win "$DM_CLI" cache-probe --min 16MiB --max 256MiB --duration 1 --warmup 0 --time-limit 3 \
  --format json --output "$(winpath "$scratch/limit.json")" "$(winpath "$dir")" \
  2> "$scratch/err.txt"
rc=$?
[ "$rc" = 0 ] || fail "time limit: exit status $rc: $(tail -c 400 "$scratch/err.txt")"
grep -q "stopped at the time limit" "$scratch/err.txt" \
  || fail "time limit: not said: $(tail -c 300 "$scratch/err.txt")"
python3 - "$scratch/limit.json" <<'PY' || failures=$((failures + 1))
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
p = r.get("cache_probe") or {}
done = sum(1 for x in r.get("results", []) if x.get("status") == "complete")
print("  stopped %r after %d of %d tests" % (p.get("stopped"), done, len(r.get("results", []))))
ok = p.get("stopped") == "time-limit" and 1 <= done < 10
if not ok:
    print("  FAIL: stopped %r, %d tests complete" % (p.get("stopped"), done))
sys.exit(0 if ok else 1)
PY
[ -z "$(ls -A "$dir")" ] || fail "time limit: left in the target: $(ls -A "$dir")"

[ "$failures" = 0 ] && echo "PASS" || echo "FAIL: $failures"
exit $((failures > 0))
