#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The advice names the queue the kernel really kept: a loop device over a
# file on tests/slow-fs.c (10 ms reads, 16 at once) whose block-layer
# queue is cut to a few requests (queue/nr_requests, a figure this test
# picks at random) holds no more than that many of RND4K Q16T1's 16 I/Os,
# so the device's own queue limits the result, and its advice says "loop admits N per
# hardware queue" with N as /sys says it, in the JSON and in the text
# report, and a study over the device has it in its sheet (text, JSON,
# workbook) for Q16 and not for Q2. With the queue left at its own depth,
# which admits all 16, the same test gets no advice.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
dm_tmpdir

slow="$DM_TMPDIR/slow"
dm_slow_fs_mount "$slow" 10000 16
dd if=/dev/urandom of="$slow/backing" bs=1M count=16 status=none \
  || dm_die "cannot write the backing file on slow-fs"
dm_loop_over "$slow/backing"
sdev=$DM_OVER
name="${sdev#/dev/}"
sys="/sys/block/$name"
# A loop device keeps its nr_requests after losetup -d, for the next test
# that attaches it: it goes back to the loop module's depth on any exit.
own=$(cat /sys/module/loop/parameters/hw_queue_depth 2>/dev/null) || own=128
restore_queue () { [ -w "$sys/queue/nr_requests" ] && echo "$own" > "$sys/queue/nr_requests"; }
trap 'rc=$?; restore_queue 2>/dev/null; (exit $rc); _dm_on_exit' EXIT
restore_queue || dm_die "cannot set $sys/queue/nr_requests to the loop module's $own"
hwq=$(find "$sys/mq" -mindepth 1 -maxdepth 1 -name '[0-9]*' | wc -l)
dm_log "loop device $sdev over slow-fs (10 ms reads, 16 at once): nr_requests $own, $hwq hardware queue(s)"

# The sentence this version of the kernel's figures should give.
expect ()
{
  local n="$1"
  if [ "$hwq" -gt 1 ]; then
    echo "Q16T1 asks for 16 I/Os; loop admits $n per hardware queue, $((n * hwq)) in its $hwq queues, here (queue/nr_requests)"
  else
    echo "Q16T1 asks for 16 I/Os; loop admits $n per hardware queue here (queue/nr_requests)"
  fi
}

# --- A queue cut short: the advice names its figure --------------------------

# 4 to 7 requests: under half of the 16 asked, whatever the number of
# hardware queues (blk-mq keeps at least 4, BLKDEV_MIN_RQ).
cut=$((4 + RANDOM % 4))
[ "$hwq" -le 1 ] || cut=4
echo "$cut" > "$sys/queue/nr_requests" || dm_die "cannot set $sys/queue/nr_requests to $cut"
got=$(cat "$sys/queue/nr_requests")
dm_log "nr_requests set to $cut, reads back $got"
out="$DM_TMPDIR/cut.json"
dm_run "$out" "$DM_TMPDIR/cut.err" --tests RND4K_Q16T1 --modes read --size 16MiB \
  --count 1 --duration 2 --warmup 0.5 --interval 0 --format json --quiet "$sdev"
dm_check "/truth/advice/cut exit status 0 (got $DM_RC)" test "$DM_RC" = 0
q=$(dm_json "$out" 'j["results"][0]["device"]["avg_queue"]')
dm_log "device queue $q with nr_requests $got; flags $(dm_json "$out" 'j["results"][0]["flags"]')"
dm_check "/truth/advice/cut the device held at most nr_requests ($q <= $got)" \
  python3 -c "import sys; sys.exit(0 if $q <= $got * $hwq * 1.02 else 1)"
dm_check "/truth/advice/cut the device counters kept nr_requests $got as the queue's limit" \
  test "$(dm_json "$out" 'j["results"][0]["device"]["queue_limit"]')" = "$got"
sentence=$(dm_json "$out" 'j["results"][0].get("advice", {}).get("sentence")')
dm_log "advice: $sentence"
dm_check "/truth/advice/cut the sentence names nr_requests $got as /sys has it" \
  test "$sentence" = "$(expect "$got")"
dm_check "/truth/advice/cut the setting names this device's nr_requests file" \
  test "$(dm_json "$out" 'j["results"][0]["advice"]["setting"].startswith("echo 16 > /sys/block/'"$name"'/queue/nr_requests")')" = True
dm_check "/truth/advice/cut the source names the kernel's documentation" \
  test "$(dm_json "$out" '"Documentation/ABI/stable/sysfs-block" in j["results"][0]["advice"]["source"]')" = True
dm_check "/truth/advice/cut the text report carries the sentence" \
  sh -c "'$DM_CLI' show '$out' | grep -qF '  RND4K_Q16T1 Read: $(expect "$got")'"

# --- A study over the same device: the sheet carries the advice -------------

export XDG_DATA_HOME="$DM_TMPDIR/data"
plan="$DM_TMPDIR/plan.ini"
cat > "$plan" <<EOF
[study]
name = advice
tests = RND4K
modes = read
q = 2, 16
t = 1
count = 1
size = 16MiB
duration = 1
warmup = 0.5
interval = 0
threshold = read RND4K MB/s green>0.001 red<0.0005

[target cut]
path = $sdev
EOF
dm_run "$DM_TMPDIR/study.out" "$DM_TMPDIR/study.err" study run "$plan"
dm_check "/truth/advice/study exit status 0 (got $DM_RC)" test "$DM_RC" = 0
sheet="$DM_TMPDIR/sheet.json"
dm_run "$sheet" "$DM_TMPDIR/show.err" study show advice --format json
dm_check "/truth/advice/study Q16's row has the sentence with nr_requests $got" \
  test "$(dm_json "$sheet" '[r for r in j["rows"] if r["q"] == 16][0].get("advice")')" = "$(expect "$got")"
dm_check "/truth/advice/study Q2's row, which the queue admits, has none" \
  test "$(dm_json "$sheet" '"advice" in [r for r in j["rows"] if r["q"] == 2][0]')" = False
dm_check "/truth/advice/study the text sheet says it under the row" \
  sh -c "'$DM_CLI' study show advice | grep -qF '       Advice: $(expect "$got")'"
book="$DM_TMPDIR/study.xlsx"
dm_run "$DM_TMPDIR/xlsx.out" "$DM_TMPDIR/xlsx.err" study show advice --format xlsx --output "$book"
if [ -s "$book" ] && python3 -c 'import openpyxl' 2>/dev/null; then
  python3 "$(dirname "$0")/xlsx-check.py" study "$book" "$sheet" 'MB/s green>0.001 red<0.0005'
  dm_check "/truth/advice/study the workbook's Advice column is the sheet's" test $? = 0
else
  dm_skip_part "no workbook (built without libxlsxwriter) or no openpyxl"
fi

# --- The queue's own depth admits all 16: no advice --------------------------

restore_queue || dm_die "cannot set $sys/queue/nr_requests back to $own"
out="$DM_TMPDIR/own.json"
dm_run "$out" "$DM_TMPDIR/own.err" --tests RND4K_Q16T1 --modes read --size 16MiB \
  --count 1 --duration 2 --warmup 0.5 --interval 0 --format json --quiet "$sdev"
dm_check "/truth/advice/own exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_log "nr_requests $own: device queue $(dm_json "$out" 'j["results"][0]["device"]["avg_queue"]'), flags $(dm_json "$out" 'j["results"][0]["flags"]')"
dm_check "/truth/advice/own no advice where the queue admits what was asked" \
  test "$(dm_json "$out" '"advice" in j["results"][0]')" = False
dm_check "/truth/advice/own the text report has no advice" \
  sh -c "! '$DM_CLI' show '$out' | grep -q '^ Advice:'"

restore_queue
dm_loop_detach "$sdev"
dm_slow_fs_unmount "$slow"
dm_finish
