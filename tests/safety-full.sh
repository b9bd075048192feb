#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A run that does not fit is refused before anything is written: on an
# ext4 filesystem with 24 MiB free, a 64 MiB test exits 1 with one line
# saying why, the device receives no data (only the few KiB of metadata a
# create and unlink may cost), and nothing is left: the free space, the
# count of files in use on the filesystem and the folder's listing are what
# they were. (The test file never has a name to look for.) A test that fits
# only without the room kept for the filesystem is refused with that room
# stated.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_loop_create 256
dm_mkfs_mount
dm_tmpdir

free_bytes () { stat -f -c '%a %S' "$DM_MNT" | awk '{ printf "%.0f\n", $1 * $2 }'; }

# Fill the filesystem with one big file (allocated, not written: fast).
fill=$(( $(free_bytes) - (24 << 20) ))
fallocate -l "$fill" "$DM_MNT/big.bin" || dm_die "fallocate $fill B failed"
ls -a "$DM_MNT" > /dev/null # the access time update of a first read, now
dm_settle
free0=$(free_bytes)
files0=$(dm_fs_files "$DM_MNT")
ls -A "$DM_MNT" > "$DM_TMPDIR/names.before"
dm_log "free space: $free0 B, $files0 files in use"

# left NAME: nothing the run made is left on the filesystem, under any name
# or none.
left ()
{
  local files
  files=$(dm_fs_files "$DM_MNT")
  ls -A "$DM_MNT" > "$DM_TMPDIR/names.after"
  dm_check "/safety/full $1no file left on the filesystem ($files0 -> $files in use)" \
    test "$files" = "$files0"
  dm_check "/safety/full $1the folder lists what it did" \
    diff -u "$DM_TMPDIR/names.before" "$DM_TMPDIR/names.after"
  dm_check "/safety/full $1no file held open there" test -z "$(dm_open_files_on "$DM_MNT")"
}

read -r r0 w0 < <(dm_stat_bytes)
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" \
  --tests SEQ1M_Q8T1 --modes read,write --size 64MiB --count 1 --duration 1 --warmup 0 "$DM_MNT"
dm_settle
read -r r1 w1 < <(dm_stat_bytes)
free1=$(free_bytes)

dm_check "/safety/full exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/full one-line error on stderr" dm_one_line_error "$DM_TMPDIR/err"
dm_check "/safety/full the error speaks of space" grep -qiE 'space|full|fit' "$DM_TMPDIR/err"
dm_log "kernel wrote $((w1 - w0)) B"
dm_check "/safety/full device received under 256 KiB of writes ($((w1 - w0)) B)" \
  test "$((w1 - w0))" -lt $((256 << 10))
left ""
dm_check "/safety/full free space unchanged ($free0 -> $free1)" test "$free1" = "$free0"

# The same with --size just over what is free.
over=$(( (free0 >> 20) + 1 ))
dm_run "$DM_TMPDIR/out2" "$DM_TMPDIR/err2" \
  --tests SEQ1M_Q8T1 --modes write --size "${over}MiB" --count 1 --duration 1 --warmup 0 "$DM_MNT"
dm_settle
read -r r2 w2 < <(dm_stat_bytes)
dm_check "/safety/full ${over}MiB: exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/full ${over}MiB: one-line error on stderr" dm_one_line_error "$DM_TMPDIR/err2"
dm_check "/safety/full ${over}MiB: device received under 256 KiB of writes ($((w2 - w1)) B)" \
  test "$((w2 - w1))" -lt $((256 << 10))
left "${over}MiB: "
free2=$(free_bytes)
dm_check "/safety/full ${over}MiB: free space unchanged ($free0 -> $free2)" test "$free2" = "$free0"

# A test file smaller than what is free, refused for the room kept beside
# it (1/64 of the file + 16 MiB): the sentence must say so, or "16MiB test
# file (24.0MiB free)" reads as a mistake.
dm_run "$DM_TMPDIR/out3" "$DM_TMPDIR/err3" \
  --tests SEQ1M_Q8T1 --modes write --size 16MiB --count 1 --duration 1 --warmup 0 "$DM_MNT"
dm_check "/safety/full 16MiB in 24MiB: exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/full 16MiB in 24MiB: one-line error on stderr" dm_one_line_error "$DM_TMPDIR/err3"
dm_check "/safety/full 16MiB in 24MiB: the error states the 16.2MiB kept free and the 32.2MiB needed" \
  grep -qE '16MiB test file: with the 16\.[23]MiB kept free .* it needs 32\.[23]MiB' "$DM_TMPDIR/err3"
left "16MiB in 24MiB: "

dm_finish
