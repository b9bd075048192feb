#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's saves harm nothing at the path they are given, as
# diskmeter-cli --output does not (tests/safety-output.sh): after a
# scripted run, the JSON goes through a symbolic link that stays a link,
# the CSV into a file of another owner that keeps its mode and owner, the
# text into a character device made like /dev/null that stays one, and the
# screenshot (a PNG) through a link too. On a tmpfs of the test's own.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

DM_GUI="${DM_GUI:-}"
[ -n "$DM_GUI" ] && [ -x "$DM_GUI" ] || dm_die "DM_GUI is not set to the diskmeter binary (run through meson test)"
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: the test makes device nodes and files of another owner"

dm_tmpdir
out="$DM_TMPDIR"
dir="$out/fs"
mkdir "$dir" || dm_die "mkdir $dir failed"
dm_mount_extra -t tmpfs -o dev,size=96m,mode=0755 tmpfs "$dir" || dm_die "cannot mount a tmpfs on $dir"
export XDG_DATA_HOME="$out/data"
dm_gui_start_display || dm_die "no X display for the window"
dm_track_pid "$_dm_xvfb_pid"

mkdir "$dir/saved"
echo old > "$dir/saved/run.json"
chmod 0604 "$dir/saved/run.json"
ln -s saved/run.json "$dir/json-link"
echo old > "$dir/owned.csv"
chown 4321:4322 "$dir/owned.csv"
chmod 0640 "$dir/owned.csv"
mknod "$dir/null" c "$((16#$(stat -c %t /dev/null)))" "$((16#$(stat -c %T /dev/null)))" \
  || dm_die "mknod failed"
echo old > "$dir/saved/shot.png"
ln -s saved/shot.png "$dir/png-link"

dm_settle
used0=$(dm_fs_used "$dir")
timeout 120 "$DM_GUI" --target "$dir" --profile demo --count 1 --size 16MiB \
  --duration 0.2 --warmup 0 --interval 0 \
  --run --save-json "$dir/json-link" --save-csv "$dir/owned.csv" --save-text "$dir/null" \
  --save-screenshot "$dir/png-link" --quit-when-done >"$out/run.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/run.log"
dm_check "the window ran and saved, status 0 (got $rc)" test "$rc" = 0

dm_check "the JSON link is still a link to saved/run.json" test "$(readlink "$dir/json-link")" = saved/run.json
dm_check "the JSON went to the link's target, which kept mode 604 ($(stat -c %a "$dir/saved/run.json"))" \
  bash -c 'grep -q "\"results\"" "$1" && [ "$(stat -c %a "$1")" = 604 ]' _ "$dir/saved/run.json"
dm_check "the CSV file kept mode 640 and owner 4321:4322 ($(stat -c '%a %u:%g' "$dir/owned.csv"))" \
  test "$(stat -c '%a %u:%g' "$dir/owned.csv")" = "640 4321:4322"
dm_check "the CSV file holds the results" bash -c '[ "$(wc -l < "$1")" -gt 1 ]' _ "$dir/owned.csv"
dm_check "the /dev/null node is still a character device ($(stat -c %F "$dir/null"))" test -c "$dir/null"
dm_check "the PNG link is still a link" test -L "$dir/png-link"
dm_check "the PNG went to the link's target" \
  bash -c '[ "$(head -c 4 "$1" | od -An -tx1 | tr -d " ")" = 89504e47 ]' _ "$dir/saved/shot.png"
# A part file of a save has a name to look for; the test file has none
# once it is open, so what tells is a descriptor or space it left.
dm_check "no part file of a save is left" \
  bash -c '[ -z "$(find "$1" -name "*.??????" -newer "$1/null")" ]' _ "$dir"
dm_check "no test file is left open or allocated" dm_no_test_file "$dir" "$used0"

dm_finish
