#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's warm-up takes the steady form diskmeter-cli's --warmup
# takes: `diskmeter --warmup steady:50:6 --run` saves a report whose
# settings say steady with that margin and limit, as the CLI's report of
# the same run does, and every test's warm-up ran for at least the steady
# window (5 s of 0.5 s samples must be seen before it can settle) and at
# most the limit and one sample more. A bad steady form is refused with
# its one-line reason and exit status 2, as the CLI refuses it; seconds
# given after a steady warm-up was kept bring the seconds back.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
dm_need_cli
dm_need_loop

dm_loop_create 256
dm_mkfs_mount
dm_tmpdir
out="$DM_TMPDIR"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

run=(--profile demo --count 1 --size 16MiB --duration 1 --interval 0)

dm_run "$out/cli.json" "$out/cli.err" "${run[@]}" --warmup steady:50:6 --format json \
  --quiet --no-history "$DM_MNT"
dm_check "diskmeter-cli ran with a steady warm-up (status $DM_RC)" test "$DM_RC" = 0

timeout 120 "$DM_GUI" --target "$DM_MNT" "${run[@]}" --warmup steady:50:6 --run \
  --save-json "$out/gui.json" --quit-when-done >"$out/gui.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/gui.log"
dm_check "the window ran with --warmup steady:50:6 and quit with status 0 (got $rc)" test "$rc" = 0
[ -s "$out/gui.json" ] || dm_die "the window saved no JSON"

steady='j["settings"].get("warmup_steady")'
dm_log "CLI: $(dm_json "$out/cli.json" "$steady"), window: $(dm_json "$out/gui.json" "$steady")"
dm_check "the window's report says its warm-up was steady, margin 50 %, limit 6 s" \
  test "$(dm_json "$out/gui.json" "[$steady['margin_percent'], $steady['limit_s']]")" = "[50, 6]"
dm_check "as the CLI's report of the same run says it" \
  test "$(dm_json "$out/gui.json" "$steady")" = "$(dm_json "$out/cli.json" "$steady")"
for f in cli gui; do
  dm_check "$f: every test's warm-up lasted from the 5 s window to the 6 s limit and a sample" \
    python3 - "$out/$f.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
took = [(x["test"], x["mode"], x["warmup"]["took_s"], x["warmup"]["settled"]) for x in r["results"]]
print("#   warm-ups", took)
assert r["status"] == "complete", r["status"]
assert len(took) == 2, took
assert all(5.0 - 1e-6 <= t <= 6.5 for _, _, t, _ in took), took
PY
done

# A bad steady form: the engine's reason, one line, exit 2, no window.
timeout 30 "$DM_GUI" --target "$DM_MNT" --warmup steady:500 --run --quit-when-done \
  >"$out/bad.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/bad.log"
dm_check "--warmup steady:500 is refused with exit status 2 (got $rc)" test "$rc" = 2
dm_check "with one line saying why" \
  bash -c 'test "$(wc -l < "$1")" = 1 && grep -q "^diskmeter: --warmup: .*margin.*500" "$1"' _ "$out/bad.log"
"$DM_CLI" --warmup steady:500 "$DM_MNT" >/dev/null 2>"$out/cli-bad.err"
dm_check "as diskmeter-cli refuses it (status $?)" grep -q "margin.*500" "$out/cli-bad.err"

# Seconds again: the warm-up is those seconds, not steady.
timeout 60 "$DM_GUI" --target "$DM_MNT" "${run[@]}" --warmup 0.5 --run \
  --save-json "$out/seconds.json" --quit-when-done >"$out/seconds.log" 2>&1
dm_check "a run with --warmup 0.5 saves no steady warm-up, and 0.5 s" \
  test "$(dm_json "$out/seconds.json" '[j["settings"].get("warmup_steady"), j["settings"]["warmup_s"]]')" = "[null, 0.5]"

dm_gui_stop_display
dm_finish
