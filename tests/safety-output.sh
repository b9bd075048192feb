#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# --output writes the report and harms nothing at the path: on a tmpfs of
# the test's own, a character device made like /dev/null stays that device,
# one like /dev/full stays too and the command fails with "No space left on
# device", a FIFO receives the text, a symbolic link stays a link while the
# file it leads to gets the report, a file of another owner keeps its mode,
# owner and extended attributes, and a block device, a folder and a socket
# are refused with one line and left as they were. The run, show, compare,
# merge and the Excel writer (where built) all go through the same rules.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: the test makes device nodes and files of another owner"

dm_tmpdir
dir="$DM_TMPDIR/fs"
mkdir "$dir" || dm_die "mkdir $dir failed"
# A tmpfs of our own: device nodes work on it whatever /tmp is mounted with.
dm_mount_extra -t tmpfs -o dev,size=64m,mode=0755 tmpfs "$dir" || dm_die "cannot mount a tmpfs on $dir"
export XDG_DATA_HOME="$dir/data"

# A result to write again, from a tiny run on the tmpfs.
dm_run "$dir/run.json" "$DM_TMPDIR/run.err" --tests SEQ1M_Q1T1 --modes read --size 16MiB \
  --count 1 --duration 0.1 --warmup 0 --interval 0 --no-history --format json "$dir"
[ "$DM_RC" = 0 ] || dm_die "the tiny run failed (status $DM_RC)"
"$DM_CLI" show "$dir/run.json" > "$DM_TMPDIR/expected" || dm_die "show to stdout failed"

# node NAME LIKE: a character device with the numbers of LIKE (/dev/null).
node ()
{
  mknod "$dir/$1" c "$((16#$(stat -c %t "$2")))" "$((16#$(stat -c %T "$2")))" \
    || dm_die "mknod $1 like $2 failed"
}
node null /dev/null
node full /dev/full

# show --output PATH: status, stderr.
show_to ()
{
  "$DM_CLI" show --output "$1" "$dir/run.json" 2> "$DM_TMPDIR/err"
  rc=$?
  sed 's/^/#   stderr: /' "$DM_TMPDIR/err"
}
kind () { stat -c %F "$1"; }

show_to "$dir/null"
dm_check "/safety/output a /dev/null node: status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/output a /dev/null node is still a character device ($(kind "$dir/null"))" \
  test -c "$dir/null"

show_to "$dir/full"
dm_check "/safety/output a /dev/full node: status 1 (got $rc)" test "$rc" = 1
dm_check "/safety/output a /dev/full node: one line naming the full disk" \
  bash -c '[ "$(wc -l < "$1")" = 1 ] && grep -q "No space left on device" "$1"' _ "$DM_TMPDIR/err"
dm_check "/safety/output a /dev/full node is still a character device ($(kind "$dir/full"))" \
  test -c "$dir/full"
dm_check "/safety/output no temporary file is left beside it" \
  bash -c '[ -z "$(ls -A "$1" | grep -v "^\(data\|run.json\|null\|full\)$")" ]' _ "$dir"

# A FIFO gets the text, as the shell's > would give it.
mkfifo "$dir/fifo" || dm_die "mkfifo failed"
timeout 20 cat "$dir/fifo" > "$DM_TMPDIR/fifo.out" &
reader=$!
dm_track_pid "$reader"
show_to "$dir/fifo"
wait "$reader"
dm_untrack_pid "$reader"
dm_check "/safety/output a FIFO: status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/output a FIFO is still a FIFO ($(kind "$dir/fifo"))" test -p "$dir/fifo"
dm_check "/safety/output the FIFO's reader got the report" cmp -s "$DM_TMPDIR/fifo.out" "$DM_TMPDIR/expected"

# A link stays; the file it leads to, in another folder, gets the report
# and keeps its mode.
mkdir "$dir/elsewhere"
echo old > "$dir/elsewhere/target.txt"
chmod 0604 "$dir/elsewhere/target.txt"
ln -s elsewhere/target.txt "$dir/link"
show_to "$dir/link"
dm_check "/safety/output a symlink: status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/output the symlink is still a symlink ($(kind "$dir/link"))" test -L "$dir/link"
dm_check "/safety/output the symlink still leads to elsewhere/target.txt" \
  test "$(readlink "$dir/link")" = elsewhere/target.txt
dm_check "/safety/output the link's target holds the report" cmp -s "$dir/elsewhere/target.txt" "$DM_TMPDIR/expected"
dm_check "/safety/output the link's target kept mode 604 ($(stat -c %a "$dir/elsewhere/target.txt"))" \
  test "$(stat -c %a "$dir/elsewhere/target.txt")" = 604
dm_check "/safety/output nothing new beside the link's target" \
  test "$(ls -A "$dir/elsewhere")" = target.txt

# A file of another user keeps its mode, owner and extended attributes.
echo old > "$dir/owned.txt"
chown 4321:4322 "$dir/owned.txt"
chmod 0640 "$dir/owned.txt"
xattr=no
if python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.diskmeter-test", b"kept")' "$dir/owned.txt" 2>/dev/null; then
  xattr=yes
fi
show_to "$dir/owned.txt"
dm_check "/safety/output a file of another owner: status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/output the file holds the report" cmp -s "$dir/owned.txt" "$DM_TMPDIR/expected"
dm_check "/safety/output the file kept mode 640 and owner 4321:4322 ($(stat -c '%a %u:%g' "$dir/owned.txt"))" \
  test "$(stat -c '%a %u:%g' "$dir/owned.txt")" = "640 4321:4322"
if [ "$xattr" = yes ]; then
  dm_check "/safety/output the file kept its extended attribute" \
    test "$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.diskmeter-test").decode())' "$dir/owned.txt" 2>&1)" = kept
else
  dm_skip_part "this tmpfs takes no user extended attributes"
fi

# The same rules for the other writers: the run itself, compare, merge.
ln -s owned.txt "$dir/run-link"
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" --tests SEQ1M_Q1T1 --modes read --size 16MiB \
  --count 1 --duration 0.1 --warmup 0 --interval 0 --no-history --format json --output "$dir/run-link" "$dir"
dm_check "/safety/output run --output a symlink: status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/output run: the symlink is still a symlink" test -L "$dir/run-link"
dm_check "/safety/output run: its target holds a JSON report, mode and owner kept ($(stat -c '%a %u:%g' "$dir/owned.txt"))" \
  bash -c 'grep -q "\"status\"" "$1" && [ "$(stat -c "%a %u:%g" "$1")" = "640 4321:4322" ]' _ "$dir/owned.txt"
for cmd in compare merge; do
  # merge sums one run given twice only when told to.
  dup=(); [ "$cmd" = merge ] && dup=(--allow-duplicates)
  "$DM_CLI" "$cmd" "${dup[@]}" --output "$dir/full" "$dir/run.json" "$dir/run.json" 2> "$DM_TMPDIR/err"
  rc=$?
  dm_check "/safety/output $cmd --output a /dev/full node: status 1, 'No space left on device' (got $rc: $(head -c 200 "$DM_TMPDIR/err"))" \
    bash -c '[ "$1" = 1 ] && grep -q "No space left on device" "$2"' _ "$rc" "$DM_TMPDIR/err"
  dm_check "/safety/output $cmd: the node is still a character device" test -c "$dir/full"
done
if "$DM_CLI" compare --help | grep -q xlsx; then
  ln -s book.xlsx "$dir/book-link"
  echo old > "$dir/book.xlsx"
  chmod 0600 "$dir/book.xlsx"
  # The name the workbook is first written under is not the user's to lose.
  echo mine > "$dir/book-link.part"
  "$DM_CLI" compare --format xlsx --output "$dir/book-link" "$dir/run.json" "$dir/run.json" 2> "$DM_TMPDIR/err"
  rc=$?
  dm_check "/safety/output compare --format xlsx to a symlink: status 0 (got $rc: $(head -c 200 "$DM_TMPDIR/err"))" test "$rc" = 0
  dm_check "/safety/output xlsx: the symlink is still a symlink" test -L "$dir/book-link"
  dm_check "/safety/output xlsx: its target is a workbook (zip), mode 600 kept" \
    bash -c '[ "$(head -c 2 "$1")" = PK ] && [ "$(stat -c %a "$1")" = 600 ]' _ "$dir/book.xlsx"
  dm_check "/safety/output xlsx: a file named like its part file is left as it was" \
    test "$(cat "$dir/book-link.part")" = mine
  dm_check "/safety/output xlsx: no part file is left behind" \
    bash -c '! ls "$1"/*.part | grep -v "/book-link.part$"' _ "$dir"
  # A workbook into a stream in a folder where nothing may be made, even
  # by root (a read-only mount, as /dev is to a user): its scratch file is
  # Diskmeter's own, not beside the stream.
  mkdir "$dir/sealed" || dm_die "mkdir $dir/sealed failed"
  dm_mount_extra -t tmpfs -o size=1m tmpfs "$dir/sealed" || dm_die "cannot mount $dir/sealed"
  mkfifo "$dir/sealed/pipe" || dm_die "mkfifo in $dir/sealed failed"
  mount -o remount,ro "$dir/sealed" || dm_die "cannot make $dir/sealed read-only"
  timeout 20 cat "$dir/sealed/pipe" > "$DM_TMPDIR/book.out" &
  reader=$!
  "$DM_CLI" compare --format xlsx --output "$dir/sealed/pipe" "$dir/run.json" "$dir/run.json" \
    2> "$DM_TMPDIR/err"
  rc=$?
  # A reader still waiting (the old way failed before it opened the FIFO)
  # is let go.
  [ "$rc" = 0 ] || : > "$dir/sealed/pipe"
  wait "$reader"
  dm_check "/safety/output xlsx into a FIFO: status 0 (got $rc: $(head -c 200 "$DM_TMPDIR/err"))" test "$rc" = 0
  dm_check "/safety/output xlsx into a FIFO: the reader got a workbook (zip)" \
    test "$(head -c 2 "$DM_TMPDIR/book.out")" = PK
  dm_check "/safety/output xlsx into a FIFO: nothing was made beside it" \
    test "$(ls -A "$dir/sealed")" = pipe
  dm_check "/safety/output xlsx: no scratch file is left in Diskmeter's folder" \
    bash -c '! ls "$1"/diskmeter/*.part' _ "$XDG_DATA_HOME"
fi

# Refused, untouched: a block device, a folder, a socket.
mknod "$dir/disk" b 7 250 || dm_die "mknod of a block device node failed"
show_to "$dir/disk"
dm_check "/safety/output a block device node: status 1 (got $rc)" test "$rc" = 1
dm_check "/safety/output a block device node: one line, 'a block device, not a file'" \
  bash -c '[ "$(wc -l < "$1")" = 1 ] && grep -q "a block device, not a file" "$1"' _ "$DM_TMPDIR/err"
dm_check "/safety/output the block device node is still one ($(kind "$dir/disk"))" test -b "$dir/disk"
mkdir "$dir/folder"
show_to "$dir/folder"
dm_check "/safety/output a folder: status 1, 'Is a directory' (got $rc)" \
  bash -c '[ "$1" = 1 ] && grep -q "Is a directory" "$2"' _ "$rc" "$DM_TMPDIR/err"
dm_check "/safety/output the folder is still an empty folder" \
  bash -c '[ -d "$1" ] && [ -z "$(ls -A "$1")" ]' _ "$dir/folder"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$dir/sock" \
  || dm_die "cannot make a socket"
show_to "$dir/sock"
dm_check "/safety/output a socket: status 1 (got $rc)" test "$rc" = 1
dm_check "/safety/output the socket is still a socket ($(kind "$dir/sock"))" test -S "$dir/sock"

# /dev/stdout names the process's own output: a file the shell opened for
# appending keeps what it had, and the report follows. The link is the
# test's own twin of /dev/stdout, so that a Diskmeter that replaced it
# would harm nothing of the system's.
ln -s /proc/self/fd/1 "$dir/stdout"
echo first > "$DM_TMPDIR/appended"
"$DM_CLI" show --output "$dir/stdout" "$dir/run.json" >> "$DM_TMPDIR/appended" 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/safety/output --output a /dev/stdout link >> FILE: status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/output --output a /dev/stdout link >> FILE appends to FILE" \
  bash -c '{ echo first; cat "$2"; } | cmp -s - "$1"' _ "$DM_TMPDIR/appended" "$DM_TMPDIR/expected"
"$DM_CLI" show --output "$dir/stdout" "$dir/run.json" 2> "$DM_TMPDIR/err" | cat > "$DM_TMPDIR/piped"
dm_check "/safety/output --output a /dev/stdout link into a pipe delivers the report" \
  cmp -s "$DM_TMPDIR/piped" "$DM_TMPDIR/expected"
dm_check "/safety/output the /dev/stdout link is still a link to /proc/self/fd/1" \
  test "$(readlink "$dir/stdout")" = /proc/self/fd/1

dm_finish
