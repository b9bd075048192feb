#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Where the filesystem refuses unbuffered I/O (O_DIRECT), the CLI says so
# in one line naming the filesystem and exits 1, rather than measuring the
# page cache and calling it the disk; with --buffered it runs and the
# report says the figures are cached. Neither leaves anything on the
# ramfs, which held nothing before. ramfs refuses O_DIRECT on every
# kernel; tmpfs accepts it since Linux 6.6 and FUSE (bindfs) accepts it
# too, so neither would do.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting ramfs needs root"
grep -qw ramfs /proc/filesystems || dm_skip "this kernel has no ramfs"

dm_tmpdir
mnt="$DM_TMPDIR/target"
mkdir "$mnt"
dm_mount_extra -t ramfs -o mode=0755 diskmeter-test "$mnt" || dm_skip "cannot mount ramfs"

if python3 -c 'import os, sys
try:
    os.close(os.open(sys.argv[1], os.O_CREAT | os.O_RDWR | os.O_DIRECT))
except OSError:
    sys.exit(1)' "$mnt/probe"; then
  dm_skip "this kernel's ramfs accepts O_DIRECT; no filesystem here refuses it"
fi
rm -f "$mnt/probe"
dm_log "ramfs refuses O_DIRECT here, as expected"

# left NAME: the ramfs, empty before the run, is empty after it (the test
# file never has a name to look for, so any name counts) and no process
# holds a file on it open. ramfs counts neither blocks nor inodes, so the
# folder and the descriptors are what can tell.
left ()
{
  local names open
  names=$(ls -A "$mnt")
  open=$(dm_open_files_on "$mnt")
  dm_check "/safety/odirect $1nothing left on the ramfs${names:+ ($(echo $names))}" test -z "$names"
  dm_check "/safety/odirect $1no file held open there${open:+ ($open)}" test -z "$open"
}

args=(--tests SEQ1M_Q8T1,RND4K_Q1T1 --modes read,write --size 16MiB --count 1 --duration 0.5 --warmup 0 --interval 0 --format json)

dm_run "$DM_TMPDIR/direct.json" "$DM_TMPDIR/direct.err" "${args[@]}" "$mnt"
dm_check "/safety/odirect exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/odirect one-line error on stderr" dm_one_line_error "$DM_TMPDIR/direct.err"
dm_check "/safety/odirect the error speaks of O_DIRECT" grep -qiE 'O_DIRECT|unbuffered|direct I/O' "$DM_TMPDIR/direct.err"
dm_check "/safety/odirect the error names ramfs" grep -qw ramfs "$DM_TMPDIR/direct.err"
dm_check "/safety/odirect the error suggests --buffered" grep -q -- '--buffered' "$DM_TMPDIR/direct.err"
left ""

dm_run "$DM_TMPDIR/buffered.json" "$DM_TMPDIR/buffered.err" --buffered "${args[@]}" "$mnt"
dm_check "/safety/odirect --buffered exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/odirect --buffered status complete" \
  test "$(dm_json "$DM_TMPDIR/buffered.json" 'j["status"]' 2>/dev/null)" = complete
dm_check "/safety/odirect --buffered report says cached" \
  test "$(dm_json "$DM_TMPDIR/buffered.json" 'j["cached"]' 2>/dev/null)" = True
dm_check "/safety/odirect --buffered settings.buffered true" \
  test "$(dm_json "$DM_TMPDIR/buffered.json" 'j["settings"]["buffered"]' 2>/dev/null)" = True
dm_check "/safety/odirect --buffered filesystem is ramfs" \
  test "$(dm_json "$DM_TMPDIR/buffered.json" 'j["target"]["filesystem"]' 2>/dev/null)" = ramfs
left "--buffered "

dm_finish
