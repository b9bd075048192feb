#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Sweep window's own block sweep and rate curve, chosen with its kind
# control and run with Start, against tests/slow-fs.c: reads of 5 ms
# service each and writes of 10 ms, 4 at once, whatever their size, so the
# answers are arithmetic (as truth-sweep-curve holds the CLI to them).
#
# Block sweep 4K..64K at Q4T1, reads and writes: 4 in flight for 5 ms each
# is 800 reads a second of any size, 400 writes at 10 ms, so each size's
# MB/s is 800 (400) x size, with the service stretched by the machine's
# time slow-fs counted during the run, held to 15 % for FUSE's own time per
# request; the two differ so that a write measured as a read (or the
# reverse) shows. Rate curve of RND4K at Q8T1
# with a 6ms bound: the maximum is 800 IOPS, the offered rates are 10 to
# 100 % of the measured one, and the point named under the bound is the
# highest whose p99 is under it. Each saved JSON must be the CLI's (kind,
# sweep member; `diskmeter-cli show` gives it back byte for byte), its CSV
# a row per point, and its PNG the kind's chart (its series' colours, as
# ui/dm-sweep-chart.h). A bad block list gets its one-line reason on the
# status line and no run.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_UI_SWEEP="${DM_UI_SWEEP:-}"
[ -n "$DM_UI_SWEEP" ] && [ -x "$DM_UI_SWEEP" ] \
  || dm_die "DM_UI_SWEEP is not set to test-ui-sweep (run through meson test)"
dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

service_us=5000
write_us=10000
parallel=4
dm_tmpdir
out="$DM_TMPDIR"
mnt="$out/mnt"
dm_slow_fs_mount "$mnt" "$service_us" "$parallel" --write-us "$write_us"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"
rt=()
if command -v chrt >/dev/null && chrt -f 5 true 2>/dev/null; then
  rt=(chrt -f 5)
fi

# --- a bad list is refused with its reason, and nothing runs -----------------
timeout 60 "$DM_UI_SWEEP" --run "$mnt" "$out/bad.png" "$out/bad.json" --kind blocks \
  --blocks 4K,6K >"$out/bad.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/bad.log"
dm_check "a block list with 6K does not start (status $rc)" test "$rc" = 1
dm_check "and the reason is one line naming the field" \
  grep -q "Start did not start a sweep: Cannot sweep: Block sizes: .*6K" "$out/bad.log"

timeout 60 "$DM_UI_SWEEP" --run "$mnt" "$out/bad.png" "$out/bad.json" --kind rates --qd 8 \
  --threads 1 --bound 2parsecs >"$out/bad-bound.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/bad-bound.log"
dm_check "a curve with the bound 2parsecs does not start, the bound named (status $rc)" \
  bash -c 'test "$1" = 1 && grep -q "Cannot sweep: p99 bound: .*2parsecs" "$2"' _ "$rc" \
  "$out/bad-bound.log"
timeout 60 "$DM_UI_SWEEP" --run "$mnt" "$out/bad.png" "$out/bad.json" --kind blocks \
  --qd 1,2 --threads 1 >"$out/bad-load.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/bad-load.log"
dm_check "a block sweep over two queue depths does not start, saying why (status $rc)" \
  bash -c 'test "$1" = 1 && grep -q "Cannot sweep: a block sweep measures at one load" "$2"' _ \
  "$rc" "$out/bad-load.log"

# --- the block sweep ----------------------------------------------------------
blocks="4096 8192 16384 32768 65536"
# Each rate is held to the service slow-fs delivered during the run: the
# service time plus the machine's time per request it counted (sleeps
# that ended late, slots left idle while a thread woke), which a host that
# stalls the VM makes 15 % of a 5 ms read (a CI run: 32K and 64K reads
# 15-16 % under the bare arithmetic).
mark=$(dm_slow_fs_mark "$mnt")
timeout 120 "${rt[@]}" "$DM_UI_SWEEP" --run "$mnt" "$out/blocks.png" "$out/blocks.json" \
  --kind blocks --blocks 4K,...,64K --measure 1 >"$out/blocks.log" 2>&1
rc=$?
late_us=$(dm_slow_fs_late_us "$mnt" "$mark")
dm_log "slow-fs: $late_us us late per request over the block sweep"
sed 's/^/#   /' "$out/blocks.log"
dm_check "the window ran a block sweep (status $rc)" test "$rc" = 0
[ -s "$out/blocks.json" ] || dm_die "no block sweep JSON from the window"
dm_check "its JSON is a complete block sweep" \
  test "$(dm_json "$out/blocks.json" '[j["status"], j["sweep"]["kind"]]')" = '["complete", "blocks"]'
dm_check "5 sizes x read, write, at Q4T1" \
  test "$(dm_json "$out/blocks.json" 'sorted(set((r["queue_depth"], r["threads"]) for r in j["results"])) + [len(j["results"])]')" = "[[4, 1], 10]"
for mode in read write; do
  for b in $blocks; do
    us=$service_us
    [ "$mode" = write ] && us=$write_us
    sel="[r for r in j['results'] if r['block_size'] == $b and r['mode'] == '$mode'][0]"
    want=$(python3 -c "print('%.3f' % ($parallel * 1e6 / ($us + $late_us) * $b / 1e6))")
    dm_within "window blocks: $mode $((b / 1024))K MB/s vs $parallel x $b B / ($us + $late_us us)" \
      "$(dm_json "$out/blocks.json" "$sel['mb_per_s']")" "$want" 15
  done
done
"$DM_CLI" show "$out/blocks.json" --format json > "$out/blocks.shown"
dm_check "diskmeter-cli show gives the window's block sweep back byte for byte" \
  cmp -s "$out/blocks.json" "$out/blocks.shown"
dm_check "its CSV has a header and a row per size and mode" \
  test "$(wc -l < "$out/blocks.json.csv")" = 11
read -r w h _ blue green < <(dm_png colours "$out/blocks.png" 0,114,178 0,158,115)
dm_log "blocks.png ${w}x${h}: read-series pixels $blue, write-series $green"
dm_check "the window drew the block chart's read series" test "${blue:-0}" -ge 500
dm_check "the window drew the block chart's write series" test "${green:-0}" -ge 500

# --- the rate curve -------------------------------------------------------------
bound_us=6000
mark=$(dm_slow_fs_mark "$mnt")
timeout 120 "${rt[@]}" "$DM_UI_SWEEP" --run "$mnt" "$out/curve.png" "$out/curve.json" \
  --kind rates --qd 8 --threads 1 --bound 6ms --measure 2 >"$out/curve.log" 2>&1
rc=$?
late_us=$(dm_slow_fs_late_us "$mnt" "$mark")
sed 's/^/#   /' "$out/curve.log"
dm_check "the window ran a rate curve (status $rc)" test "$rc" = 0
[ -s "$out/curve.json" ] || dm_die "no rate curve JSON from the window"
dm_check "its JSON is a complete rate curve" \
  test "$(dm_json "$out/curve.json" '[j["status"], j["sweep"]["kind"]]')" = '["complete", "rates"]'
max=$(dm_json "$out/curve.json" 'j["sweep"]["max_iops"]')
rate=$(python3 -c "print($parallel * 1e6 / ($service_us + $late_us))")
dm_within "window curve: the maximum vs $parallel / ($service_us + $late_us us)" "$max" "$rate" 15
i=0
for pct in 10 50 70 80 90 100; do
  sel="j['sweep']['points'][$i]"
  dm_check "window curve: point $i is $pct %" test "$(dm_json "$out/curve.json" "$sel['percent']")" = "$pct"
  want=$(python3 -c "print(round($max * $pct / 100.0))")
  dm_within "window curve: $pct % offers $pct % of the measured maximum" \
    "$(dm_json "$out/curve.json" "$sel['offered_iops']")" "$want" 0.01
  if [ "$pct" -lt 100 ]; then
    dm_within "window curve: $pct % reaches its offered rate" \
      "$(dm_json "$out/curve.json" "$sel['reached_iops']")" \
      "$(dm_json "$out/curve.json" "$sel['offered_iops']")" 3
  fi
  i=$((i + 1))
done
p10=$(dm_json "$out/curve.json" 'j["sweep"]["points"][0]["p50_latency_us"]')
dm_check "window curve: p50 at 10 % is about one service time ($p10 us)" \
  python3 -c "import sys; sys.exit(0 if $service_us <= $p10 <= 1.3 * $service_us else 1)"
dm_check "window curve: the bound is kept" \
  test "$(dm_json "$out/curve.json" 'j["sweep"]["latency_bound_us"]')" = "$bound_us.0"
want=$(dm_json "$out/curve.json" "max([p['percent'] for p in j['sweep']['points'] if round(p['p99_latency_us'], 3) <= $bound_us] or [None])")
got=$(dm_json "$out/curve.json" '(j["sweep"]["best_under_bound"] or {}).get("percent")')
dm_check "window curve: the highest point with p99 <= $bound_us us is named ($got, want $want)" \
  test "$got" = "$want"
"$DM_CLI" show "$out/curve.json" --format json > "$out/curve.shown"
dm_check "diskmeter-cli show gives the window's curve back byte for byte" \
  cmp -s "$out/curve.json" "$out/curve.shown"
dm_check "its CSV has a header and a row per point, the maximum's too" \
  test "$(wc -l < "$out/curve.json.csv")" = 8
read -r w h _ blue purple < <(dm_png colours "$out/curve.png" 0,114,178 204,121,167)
dm_log "curve.png ${w}x${h}: p99 pixels $blue, bound $purple"
dm_check "the window drew the curve's p99 by offered rate" test "${blue:-0}" -ge 500
dm_check "the window drew the latency bound" test "${purple:-0}" -ge 300

if [ -n "${DM_GUI_KEEP:-}" ]; then
  cp "$out/blocks.png" "$out/curve.png" "$DM_GUI_KEEP/"
fi
dm_slow_fs_unmount "$mnt"
dm_gui_stop_display
dm_finish
