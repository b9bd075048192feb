#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# --headroom of diskmeter-cli.exe, the iocp backend under Wine, on a plain
# temporary folder: the engine plans and runs it the same on both systems,
# so this checks that it runs through iocp and what it writes, not its
# figures (Wine's are not Windows', and a folder of Z: has no known speed;
# tests/truth-headroom.sh holds the figures to arithmetic on Linux):
# - the JSON's "headroom" object: the captured rate, its p99, the maximum,
#   a ratio of at least 1 (the row unbounded is no slower than the row
#   held to 200 IOPS), the bound (twice that p99) and the eight-row ladder;
# - the text's sentence, CSV's rows;
# - a profile row without a rate is refused with one line, exit 2.

. "$(dirname "$0")/lib.sh"

dm_need_wine

dm_tmpdir
target="$DM_TMPDIR/plain"
mkdir -p "$target"
profile="$DM_TMPDIR/captured.ini"
printf '# as capture writes it\n[captured]\nblock = 4K\nread = 70\nrandom = 100\nqd = 4\nrate = 200\n' \
  > "$profile"
norate="$DM_TMPDIR/norate.ini"
printf '[plain]\nblock = 4K\nread = 100\nqd = 4\n' > "$norate"
common=(--profile-file "$(winpath "$profile")" --headroom --size 16MiB --duration 1
        --warmup 0.2 --quiet --no-history)

out="$DM_TMPDIR/headroom.json"
printf '# $ diskmeter-cli.exe --profile-file captured.ini --headroom --format json ... (iocp)\n'
win "${common[@]}" --format json --output "$(winpath "$out")" "$(winpath "$target")" \
  > "$DM_TMPDIR/json.log" 2>&1
rc=$?
dm_check "/windows/headroom/json: exit status 0 (got $rc)" test "$rc" = 0
[ -s "$out" ] || { sed 's/^/#   /' "$DM_TMPDIR/json.log"; dm_die "no headroom JSON"; }
h='j["headroom"]["workloads"][0]'
dm_log "headroom: $(dm_json "$out" "{k: v for k, v in $h.items() if k != 'ladder'}")"
dm_check "/windows/headroom/json: the backend is iocp" test "$(dm_json "$out" 'j["backend"]')" = iocp
dm_check "/windows/headroom/json: the captured rate is the file's" \
  test "$(dm_json "$out" "$h['captured_rate_iops']")" = 200.0
dm_check "/windows/headroom/json: a p99 at it, a maximum and a ratio of at least 1" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
sys.exit(0 if h['captured_p99_us'] > 0 and h['max_iops'] > 0 and h['ratio'] >= 1
         and abs(h['ratio'] - h['max_iops'] / 200.0) < 0.01 else 1)"
dm_check "/windows/headroom/json: the bound is twice the p99 at the captured rate" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
sys.exit(0 if abs(h['p99_bound_us'] - 2 * h['captured_p99_us']) < 0.01
         and h['p99_bound_from'] == 'twice captured p99' else 1)"
dm_check "/windows/headroom/json: the ladder: captured, max, then 10..100 % of the maximum" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
pts = h['ladder']
ok = [p['point'] for p in pts] == ['captured', 'max', '10%', '50%', '70%', '80%', '90%', '100%']
ok = ok and all(p['offered_iops'] == max(1, round(h['max_iops'] * p['percent'] / 100.0))
                for p in pts[2:]) and all(p['status'] == 'complete' for p in pts)
sys.exit(0 if ok else 1)"
dm_check "/windows/headroom/json: a rate named under the bound is one the ladder offered" \
  python3 -c "import json, sys
h = json.load(open('$out'))['headroom']['workloads'][0]
sys.exit(0 if h['best_rate_iops'] is None
         or h['best_rate_iops'] in [p['offered_iops'] for p in h['ladder']] else 1)"

# The text to standard output, through a pipe. One CI run got none of it
# and kept no stderr to say why; now a failed run prints both. A run that
# failed with neither a line of diskmeter-cli's own nor a crash report of
# Wine's on stderr is taken for Wine's and run once more (said in the
# log); a run that says why it failed, or crashed, is not: an
# intermittent crash of diskmeter-cli.exe fails the test.
txt="$DM_TMPDIR/headroom.txt"
text_run ()
{
  win "${common[@]}" "$(winpath "$target")" 2> "$DM_TMPDIR/text.log" | tr -d '\r' > "$txt"
  rc=${PIPESTATUS[0]}
}
text_run
if [ "$rc" != 0 ] && ! grep -Eq '^diskmeter-cli|Unhandled|[Ee]xception|Backtrace|page fault' \
     "$DM_TMPDIR/text.log"; then
  dm_log "the text run ended with $rc and no line of diskmeter-cli's own; its output and stderr:"
  sed 's/^/#   /' "$txt" "$DM_TMPDIR/text.log"
  text_run
fi
dm_check "/windows/headroom/text: exit status 0 (got $rc)" test "$rc" = 0
dm_log "$(tail -n 1 "$txt")"
said=0
grep -Eq '^(at your|your) 200 IOPS.* this disk reaches [0-9,]+ IOPS at the same shape \([0-9.]+x\), p99 ' "$txt" \
  || { said=1; dm_log "its output and stderr:"; sed 's/^/#   /' "$txt" "$DM_TMPDIR/text.log"; }
dm_check "/windows/headroom/text: the sentence" test "$said" = 0

csv="$DM_TMPDIR/headroom.csv"
win "${common[@]}" --format csv --output "$(winpath "$csv")" "$(winpath "$target")" \
  > "$DM_TMPDIR/csv.log" 2>&1
dm_check "/windows/headroom/csv: a header and eight rows" \
  test "$(tr -d '\r' < "$csv" | grep -c '^captured,')" = 8

win --profile-file "$(winpath "$norate")" --headroom --size 16MiB --quiet --no-history \
  "$(winpath "$target")" > /dev/null 2> "$DM_TMPDIR/refuse.err"
rc=$?
tr -d '\r' < "$DM_TMPDIR/refuse.err" > "$DM_TMPDIR/refuse.txt"
dm_check "/windows/headroom/refuse: a row without a rate: exit 2 (got $rc)" test "$rc" = 2
dm_check "/windows/headroom/refuse: one line ($(head -n 1 "$DM_TMPDIR/refuse.txt"))" \
  dm_usage_error "$DM_TMPDIR/refuse.txt"
dm_check "/windows/headroom/no test file was left" test -z "$(ls -A "$target")"

dm_finish
