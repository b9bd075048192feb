#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Targets the CLI must not or cannot write to are refused with exit status
# 1 and one line on stderr, and the device's written-sector count does not
# move: a read-only mount, a folder that does not exist (and is not
# created), a path longer than the 1023 bytes Diskmeter keeps, a folder
# the user may not write, and a block device for write
# tests without --destroy-data-on naming it (its content stays the same),
# and a mounted block device even when --destroy-data-on names it; a
# --start-at TIME that is not a time; a link into a system folder (/etc).
# Read tests on a block device need no permission and change nothing.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
command -v setpriv >/dev/null || dm_die "setpriv is missing (util-linux)"

dm_tmpdir
args=(--tests RND4K_Q1T1 --modes read,write --size 16MiB --count 1 --duration 0.5 --warmup 0 --interval 0)

# refused NAME TARGET [PREFIX...]: checks a refusal against the loop
# device in $dev_name. EXPECT_RC (default 1) is the exit status wanted.
refused ()
{
  local name="$1" target="$2" want="${EXPECT_RC:-1}"; shift 2
  # Reading a new folder updates its access time once (relatime); let that
  # happen now, not during the count.
  ls -a "$target" > /dev/null 2>&1
  dm_settle
  read -r r0 w0 < <(dm_stat_bytes "$dev_name")
  DM_RUN_PREFIX="$*" dm_run "$DM_TMPDIR/$name.out" "$DM_TMPDIR/$name.err" "${args[@]}" "$target"
  dm_settle
  read -r r1 w1 < <(dm_stat_bytes "$dev_name")
  dm_check "/safety/refuse/$name exit status $want (got $DM_RC)" test "$DM_RC" = "$want"
  if [ "$want" = 2 ]; then
    dm_check "/safety/refuse/$name one-line reason on stderr" dm_usage_error "$DM_TMPDIR/$name.err"
  else
    dm_check "/safety/refuse/$name one-line error on stderr" dm_one_line_error "$DM_TMPDIR/$name.err"
  fi
  dm_check "/safety/refuse/$name no writes reached the device ($((w1 - w0)) B)" test "$w1" = "$w0"
}

# A read-only mount.
dm_loop_create 128
dm_mkfs_mount ro
dev_name="$DM_LOOP_NAME"
refused read-only "$DM_MNT"
dm_check "/safety/refuse/read-only the error says read-only" grep -qi 'read-only' "$DM_TMPDIR/read-only.err"

# A writable filesystem, for the next two.
dm_loop_create 128
dm_mkfs_mount
dev_name="$DM_LOOP_NAME"

refused missing "$DM_MNT/no/such/folder"
dm_check "/safety/refuse/missing the folder was not created" test ! -e "$DM_MNT/no"

# A path longer than the 1023 bytes Diskmeter keeps: cut to fit, it named
# the existing folder above it, and the test file was made there.
above=$(python3 -c 'import sys
base = sys.argv[1]
parts = []
while len(base) + sum(len(p) + 1 for p in parts) < 1023:
    parts.append("d" * min(200, 1023 - len(base) - sum(len(p) + 1 for p in parts) - 1))
print(base + "".join("/" + p for p in parts))' "$DM_MNT")
[ "${#above}" = 1023 ] || dm_die "the folder above is ${#above} bytes, not 1023"
mkdir -p "$above/below" || dm_die "mkdir -p of a long path failed"
refused long-path "$above/below"
dm_check "/safety/refuse/long-path the reason gives the path's length" \
  grep -q 'bytes long' "$DM_TMPDIR/long-path.err"
dm_check "/safety/refuse/long-path the folder above holds nothing new" \
  test "$(ls -A "$above")" = below

# A folder owned by root, mode 755, for a user who is not root.
mkdir "$DM_MNT/locked"
chmod 0755 "$DM_MNT/locked"
dm_cli_for_user nobody nogroup
DM_CLI="$DM_USER_CLI" refused not-writable "$DM_MNT/locked" setpriv --reuid=nobody --regid=nogroup --clear-groups
dm_check "/safety/refuse/not-writable the error says permission" grep -qiE 'permission|not writable|access' "$DM_TMPDIR/not-writable.err"
dm_check "/safety/refuse/not-writable the folder is still empty" test -z "$(ls -A "$DM_MNT/locked")"

# --start-at TIMEs that are not times are usage errors before anything is
# written, not moments the run waits for or misses after filling its file:
# 30 February (not 2 March), a leap second within the coming day (not the
# next midnight), a day in the year 9999 (a wait of millennia) and an hour
# ago. "timeout" keeps a run that waits from holding the suite.
leap="$(python3 -c 'import datetime as d
t = d.datetime.now(d.timezone.utc) + d.timedelta(seconds=5)
print(t.strftime("%Y-%m-%dT23:59:60Z"))')"
ago="$(date -u -d '1 hour ago' +%Y-%m-%dT%H:%M:%SZ)"
saved=("${args[@]}")
for when in "feb-30 2026-02-30T12:00:00Z February" "leap-second $leap leap" \
            "year-9999 9999-06-01T12:00:00Z day" "past $ago past"; do
  read -r name time word <<< "$when"
  args=("${saved[@]}" --start-at "$time")
  EXPECT_RC=2 refused "start-at-$name" "$DM_MNT" timeout 20
  dm_check "/safety/refuse/start-at-$name the reason says '$word'" \
    bash -c 'head -n 1 "$1" | grep -q -- "--start-at: .*$2"' _ "$DM_TMPDIR/start-at-$name.err" "$word"
  dm_check "/safety/refuse/start-at-$name no test file was made" test -z "$(ls -A "$DM_MNT" | grep diskmeter)"
done
args=("${saved[@]}")

# A TARGET that is a link: one into a system folder is refused before a
# test file is made there; one into a folder of ours is measured, and the
# report names the folder really measured (JSON, and text and CSV again
# from the saved JSON).
ln -s /etc "$DM_TMPDIR/etc-link"
etc_before="$(ls -A /etc | grep '^diskmeter-' || true)"
dm_run "$DM_TMPDIR/etc.out" "$DM_TMPDIR/etc.err" "${args[@]}" "$DM_TMPDIR/etc-link"
dm_check "/safety/refuse/link-etc exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/refuse/link-etc one-line error on stderr" dm_one_line_error "$DM_TMPDIR/etc.err"
dm_check "/safety/refuse/link-etc the error names /etc as a system folder" \
  grep -q 'leads to /etc, inside the system folder /etc' "$DM_TMPDIR/etc.err"
dm_check "/safety/refuse/link-etc no test file in /etc" \
  test "$(ls -A /etc | grep '^diskmeter-' || true)" = "$etc_before"
mkdir "$DM_MNT/real"
ln -s "$DM_MNT/real" "$DM_TMPDIR/link"
dm_run "$DM_TMPDIR/link.json" "$DM_TMPDIR/link.err" "${args[@]}" --no-history --format json \
  "$DM_TMPDIR/link"
dm_check "/safety/refuse/link-folder a link to a folder of ours runs (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/refuse/link-folder the JSON keeps the path as given" \
  test "$(dm_json "$DM_TMPDIR/link.json" 'j["target"]["path"]')" = "$DM_TMPDIR/link"
dm_check "/safety/refuse/link-folder and names the folder really measured" \
  test "$(dm_json "$DM_TMPDIR/link.json" 'j["target"]["real_path"]')" = "$DM_MNT/real"
dm_run "$DM_TMPDIR/link.txt" "$DM_TMPDIR/link-show.err" show "$DM_TMPDIR/link.json"
dm_check "/safety/refuse/link-folder the text report, from the saved JSON, names it" \
  grep -qF "Path: $DM_MNT/real ($DM_TMPDIR/link leads there)" "$DM_TMPDIR/link.txt"
dm_run "$DM_TMPDIR/link.csv" "$DM_TMPDIR/link-show.err" show --format csv "$DM_TMPDIR/link.json"
dm_check "/safety/refuse/link-folder the CSV has it in target_real_path" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["target_real_path"] == sys.argv[2] for r in rows), rows[:1]' \
  "$DM_TMPDIR/link.csv" "$DM_MNT/real"

# A block device with data on it: write tests need --destroy-data-on.
dm_loop_create 64
dev_name="$DM_LOOP_NAME"
head -c $((64 << 20)) /dev/urandom | dd of="$DM_LOOP" bs=1M oflag=direct status=none
sum0=$(sha256sum < "$DM_LOOP")
refused device "$DM_LOOP"
dm_check "/safety/refuse/device the error names --destroy-data-on" grep -q -- '--destroy-data-on' "$DM_TMPDIR/device.err"

# Naming another device does not count as permission for this one: the
# command line contradicts itself, a usage error.
other="$DM_LOOP"
dm_loop_create 64
args+=(--destroy-data-on "$DM_LOOP")
EXPECT_RC=2 refused device-other "$other"
dm_check "/safety/refuse/device content unchanged" test "$(sha256sum < "$other")" = "$sum0"

# Read tests on a device: allowed, and nothing is written.
dm_settle
read -r r0 w0 < <(dm_stat_bytes "$dev_name")
dm_run "$DM_TMPDIR/device-read.json" "$DM_TMPDIR/device-read.err" \
  --tests RND4K_Q32T1 --modes read --size 16MiB --count 1 --duration 0.5 --warmup 0 --interval 0 --format json "$other"
dm_settle
read -r r1 w1 < <(dm_stat_bytes "$dev_name")
dm_check "/safety/refuse/device-read exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/refuse/device-read is_block_device true" \
  test "$(dm_json "$DM_TMPDIR/device-read.json" 'j["target"]["is_block_device"]' 2>/dev/null)" = True
dm_check "/safety/refuse/device-read read the device ($((r1 - r0)) B)" test "$r1" -gt "$r0"
dm_check "/safety/refuse/device-read no writes ($((w1 - w0)) B)" test "$w1" = "$w0"
dm_check "/safety/refuse/device-read content unchanged" test "$(sha256sum < "$other")" = "$sum0"

# A mounted device, even when named in --destroy-data-on: the device is
# opened O_EXCL for writing, which the kernel refuses while a filesystem
# holds it. Every write mode and the sweep are refused before one sector
# is written, and the device's content stays the same.
dm_loop_create 64
dm_mkfs_mount
mounted="$DM_LOOP"
dev_name="$DM_LOOP_NAME"
echo "keep me" > "$DM_MNT/data"
dm_settle
sum_mounted=$(sha256sum < "$mounted")
for modes in write mix read,write; do
  args=(--tests RND4K_Q1T1 --modes "$modes" --size 16MiB --count 1 --duration 0.5
        --warmup 0 --interval 0 --no-history --destroy-data-on "$mounted")
  refused "mounted-${modes/,/-}" "$mounted"
  dm_check "/safety/refuse/mounted-${modes/,/-} the error says the device is busy" \
    grep -qi 'busy' "$DM_TMPDIR/mounted-${modes/,/-}.err"
done
# The sweep announces its plan on stderr before it opens the target, so
# its refusal is the last line there rather than the only one.
dm_settle
read -r r0 w0 < <(dm_stat_bytes "$dev_name")
dm_run "$DM_TMPDIR/mounted-sweep.out" "$DM_TMPDIR/mounted-sweep.err" sweep --mode write \
  --qd 1 --threads 1 --size 16MiB --count 1 --duration 0.5 --warmup 0 --no-history \
  --destroy-data-on "$mounted" "$mounted"
dm_settle
read -r r1 w1 < <(dm_stat_bytes "$dev_name")
dm_check "/safety/refuse/mounted-sweep exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/refuse/mounted-sweep no writes reached the device ($((w1 - w0)) B)" test "$w1" = "$w0"
dm_check "/safety/refuse/mounted-sweep the last line says the device is busy" \
  bash -c 'tail -n 1 "$1" | grep -qi "^diskmeter-cli: .*busy"' _ "$DM_TMPDIR/mounted-sweep.err"
dm_check "/safety/refuse/mounted content unchanged (sha256)" \
  test "$(sha256sum < "$mounted")" = "$sum_mounted"
dm_check "/safety/refuse/mounted the filesystem still holds its file" \
  test "$(cat "$DM_MNT/data")" = "keep me"

dm_finish
