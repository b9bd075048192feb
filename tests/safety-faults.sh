#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A device or folder that fails under a running write test never makes
# Diskmeter lie, hang or leave its test file: the run either stops with
# exit status 1, one line naming the failed test and the reason, and a
# report that says the same and shows no figure for that test, or it
# completes with a valid report. Each case runs SEQ1M_Q8T1 writes on an
# ext4 loop device of its own and breaks something from another process
# in the middle of the measurement:
#
#   read-only  blockdev --setro on the device. Linux only warns
#              ("Trying to write to read-only block-device") and lets a
#              mounted filesystem's writes through: the device's own
#              counter shows them arriving after the switch, so they were
#              stored and the run must complete with valid figures. Were
#              the writes refused (the counter still), it must fail as
#              below; what the kernel did decides, not the run's status.
#   shrink     the backing file is truncated and the loop device's
#              capacity reread: writes past the new end fail with EIO.
#   thin       the loop device's backing file lives on a small tmpfs, like
#              a thin-provisioned virtual disk on a datastore: its blocks
#              are punched out and another process fills the store, so the
#              device can no longer store writes (ENOSPC below ext4, which
#              aborts its journal and remounts read-only).
#   full       another process fills the same ext4 filesystem. The test
#              file was reserved (fallocate) and filled before measuring,
#              so overwriting it needs no new block: the run must complete
#              and its figures must be valid.
#   rmdir      the target folder is removed (rm -rf). The test file has no
#              name any more, only an open descriptor, so the run must
#              complete, and the space comes back when it ends.
#
# Where a case cannot be set up (no block cgroup for thin) the other cases
# still run and the test ends as skipped, naming the case; a run that ended
# before its fault came is a failed check.
#
# (losetup -d on a mounted loop device only marks it for removal at
# unmount, and this kernel has no device-mapper or make-it-fail
# injection, so those are not ways to break the device here.)

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
for tool in blockdev fallocate truncate dd; do
  command -v "$tool" >/dev/null || dm_die "$tool is missing (build-aux/dev installs util-linux and coreutils)"
done

dm_tmpdir
out_dir="$DM_TMPDIR"

# The thin case stacks a loop device on a file in a tmpfs this script
# mounts. lib.sh unmounts every mount before it detaches any loop device,
# which cannot take such a stack apart, so this script takes down its own
# inner device first, then lets lib.sh do the rest.
run_pid=""
thin_img=""
thin_loop=""
thin_mnt=""

thin_teardown ()
{
  if [ -n "$run_pid" ]; then
    kill -KILL "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
    run_pid=""
  fi
  if [ -n "$thin_mnt" ] && mountpoint -q "$thin_mnt"; then
    umount "$thin_mnt" 2>/dev/null || { sleep 0.5; umount "$thin_mnt"; } || umount -l "$thin_mnt"
  fi
  # Detach only while the device still reads from our own image.
  if [ -n "$thin_loop" ] \
     && [ "$(cat "/sys/block/${thin_loop#/dev/}/loop/backing_file" 2>/dev/null)" = "$thin_img" ]; then
    losetup -d "$thin_loop" 2>/dev/null || { sleep 0.5; losetup -d "$thin_loop"; }
  fi
  thin_mnt=""
  thin_loop=""
}

_faults_on_exit ()
{
  local rc=$?
  thin_teardown
  (exit "$rc")
  _dm_on_exit
}
trap _faults_on_exit EXIT

free_bytes () { stat -f -c '%a %S' "$1" | awk '{ printf "%.0f\n", $1 * $2 }'; }

# Bytes the kernel has written to a device so far.
written () { local b; b=$(dm_stat_bytes "$1") && echo "${b#* }"; }

SIZE_MIB=64
common=(--tests SEQ1M_Q8T1 --modes write --size "${SIZE_MIB}MiB" --count 8 --duration 0.5
        --warmup 0 --interval 0 --format json)

# start_run NAME LOOP_NAME TARGET: starts a write run in the background and
# returns once its test file is filled and the measurement is under way
# (the device has taken the whole file and the first run is half over).
# Sets used0, the bytes in use on TARGET's filesystem before the run.
start_run ()
{
  local name="$1" loop_name="$2" target="$3" base i
  base=$(written "$loop_name")
  dm_settle
  used0=$(dm_fs_used "$target")
  printf '# $ diskmeter-cli %s --output %s %s\n' "${common[*]}" "$name.json" "$target"
  ${RUN_PREFIX:-} "$DM_CLI" "${common[@]}" --output "$out_dir/$name.json" "$target" \
    > "$out_dir/$name.out" 2> "$out_dir/$name.err" &
  run_pid=$!
  dm_track_pid "$run_pid"
  for ((i = 0; i < 200; i++)); do
    [ "$(($(written "$loop_name") - base))" -ge $((SIZE_MIB << 20)) ] && break
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.05
  done
  sleep 0.7
  # A run that already ended tests nothing of the fault that follows.
  dm_check "/safety/faults/$name the run is measuring when the fault comes" \
    kill -0 "$run_pid"
}

# finish_run NAME LIMIT: waits at most LIMIT seconds for the run to end
# (then kills it, a failed check). Sets rc and took.
finish_run ()
{
  local name="$1" limit="$2" t0 i
  t0=$(date +%s.%N)
  for ((i = 0; i < limit * 10; i++)); do
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$run_pid" 2>/dev/null; then
    dm_check "/safety/faults/$name the run ends within $limit s of the fault" false
    kill -KILL "$run_pid"
  fi
  wait "$run_pid"
  rc=$?
  dm_untrack_pid "$run_pid"
  run_pid=""
  took=$(python3 -c "print(round($(date +%s.%N) - $t0, 2))")
  sed 's/^/#   stderr: /' "$out_dir/$name.err" | head -n 10
  dm_log "$name: exit status $rc, $took s after the fault"
}

# A failed run: exit 1; one line on stderr naming the test and why; the
# report failed with the reason; the failed test FAILED with its reason and
# no figure (its earlier runs stay in "runs", as raw data).
check_failed ()
{
  local name="$1" json="$out_dir/$1.json" err="$out_dir/$1.err"
  dm_check "/safety/faults/$name exit status 1 (got $rc)" test "$rc" = 1
  dm_check "/safety/faults/$name one line on stderr" dm_one_line_error "$err"
  dm_check "/safety/faults/$name the line names the test and the reason" \
    grep -Eq '^diskmeter-cli: SEQ1M_Q8T1 write failed: .+: .+' "$err"
  dm_check "/safety/faults/$name report status failed" \
    test "$(dm_json "$json" 'j["status"]' 2>/dev/null)" = failed
  dm_check "/safety/faults/$name report error names the test" \
    test "$(dm_json "$json" '"SEQ1M_Q8T1 write failed: " in (j["error"] or "")' 2>/dev/null)" = True
  dm_check "/safety/faults/$name the test is failed with a reason" \
    test "$(dm_json "$json" '[(r["status"], bool(r["error"])) for r in j["results"]][0]' 2>/dev/null)" = "('failed', True)"
  dm_check "/safety/faults/$name the failed test has no figure" \
    test "$(dm_json "$json" 'all(r[k] == 0 for k in ("mb_per_s", "iops", "best_latency_us", "mean_mb_per_s") for r in j["results"])' 2>/dev/null)" = True
  dm_log "$name: $(dm_json "$json" 'len(j["results"][0]["runs"])' 2>/dev/null) runs finished before the fault"
}

# A completed run: exit 0, nothing on stderr, every planned run measured
# with a figure above zero.
check_complete ()
{
  local name="$1" json="$out_dir/$1.json" err="$out_dir/$1.err"
  dm_check "/safety/faults/$name exit status 0 (got $rc)" test "$rc" = 0
  dm_check "/safety/faults/$name nothing on stderr" test ! -s "$err"
  dm_check "/safety/faults/$name report status complete" \
    test "$(dm_json "$json" 'j["status"]' 2>/dev/null)" = complete
  dm_check "/safety/faults/$name every run measured, with figures" \
    test "$(dm_json "$json" 'all(r["status"] == "complete" and len(r["runs"]) == 8 and r["mb_per_s"] > 0 and all(x["mb_per_s"] > 0 and x["bytes"] > 0 for x in r["runs"]) for r in j["results"])' 2>/dev/null)" = True
}

# No test file left: no process holds a file open on the target's
# filesystem, and the space in use there is back to its figure before the
# run (used0, set by start_run). The test file has no name to look for.
check_clean ()
{
  local name="$1" fs="$2"
  dm_check "/safety/faults/$name no test file left open or allocated" \
    dm_no_test_file "$fs" "$used0"
}

# Where the filesystem itself broke (ext4 aborted its journal), it can no
# longer free blocks: only the descriptor can tell.
check_closed ()
{
  local name="$1" fs="$2" open
  open=$(dm_open_files_on "$fs")
  dm_check "/safety/faults/$name no file left open on the filesystem${open:+ ($open)}" \
    test -z "$open"
}

# --- read-only: the device is switched read-only ---------------------------
dm_loop_create 256
dm_mkfs_mount
start_run readonly "$DM_LOOP_NAME" "$DM_MNT"
ro_base=$(written "$DM_LOOP_NAME")
blockdev --setro "$DM_LOOP"
finish_run readonly 15
ro_stored=$(($(written "$DM_LOOP_NAME") - ro_base))
blockdev --setrw "$DM_LOOP"
dm_log "readonly: the device took $ro_stored bytes of writes after it was set read-only"
if [ "$ro_stored" -gt 0 ]; then
  check_complete readonly
else
  check_failed readonly
fi
check_clean readonly "$DM_MNT"

# --- shrink: the device loses its end ---------------------------------------
dm_loop_create 256
dm_mkfs_mount
shrink_img="$(cat "/sys/block/$DM_LOOP_NAME/loop/backing_file")"
start_run shrink "$DM_LOOP_NAME" "$DM_MNT"
# Writes still queued on the old size may extend the file again before
# the new size is read: repeat until the device has shrunk.
for ((i = 0; i < 20; i++)); do
  truncate -s 16M "$shrink_img"
  losetup --set-capacity "$DM_LOOP"
  [ "$(blockdev --getsize64 "$DM_LOOP")" -le $((16 << 20)) ] && break
done
dm_log "shrink: the device now has $(blockdev --getsize64 "$DM_LOOP") bytes"
finish_run shrink 15
check_failed shrink
check_clean shrink "$DM_MNT"

# --- thin: the device's backing store runs out of space ----------------------
# Unthrottled, the run rewrites the whole 64 MiB file every few tens of
# milliseconds and wins back every punched block before the other process
# can take it; slowed to 16 MB/s by the block cgroup, it finds the store
# full at its next write.
if dm_have_cgroup; then
  dm_cgroup_create
  store="$out_dir/store"
  mkdir "$store"
  dm_mount_extra -t tmpfs -o size=160m,mode=0700 tmpfs "$store" \
    || dm_die "cannot mount a tmpfs on $store"
  thin_img="$store/disk.img"
  truncate -s 256M "$thin_img"
  thin_loop="$(losetup -f --show --direct-io=on "$thin_img" 2>/dev/null)" \
    || thin_loop="$(losetup -f --show "$thin_img")" \
    || dm_die "losetup could not attach $thin_img"
  command -v udevadm >/dev/null && udevadm settle 2>/dev/null
  mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$thin_loop" \
    || dm_die "mkfs.ext4 $thin_loop failed"
  thin_mnt="$out_dir/thin"
  mkdir "$thin_mnt"
  mount "$thin_loop" "$thin_mnt" || dm_die "mount $thin_loop failed"
  dm_log "thin: $thin_loop over $thin_img on a 160 MiB tmpfs"
  RUN_PREFIX=dm_throttled start_run thin "${thin_loop#/dev/}" "$thin_mnt"
  DM_LOOP_DEV="$(cat "/sys/block/${thin_loop#/dev/}/dev")" dm_throttle write_bps 16000000
  fallocate -p -o 0 -l 256M "$thin_img"
  dd if=/dev/zero of="$store/other-guest" bs=1M status=none 2>/dev/null
  thin_free=$(free_bytes "$store")
  dm_log "thin: the image holds $(du -k "$thin_img" | cut -f1) KiB, the store has $thin_free bytes free"
  dm_check "/safety/faults/thin the store was full during the run" test "$thin_free" -lt $((1 << 20))
  finish_run thin 15
  check_failed thin
  check_closed thin "$thin_mnt"
  thin_teardown
else
  dm_skip_part "no block cgroup (cgroup v1 blkio or v2 io): the thin-provisioning case needs a throttle"
fi

# --- full: another process fills the filesystem ------------------------------
dm_loop_create 256
dm_mkfs_mount
start_run full "$DM_LOOP_NAME" "$DM_MNT"
dd if=/dev/zero of="$DM_MNT/other-program" bs=1M status=none 2>/dev/null
full_free=$(free_bytes "$DM_MNT")
dm_log "full: $(stat -c %s "$DM_MNT/other-program") bytes written by another process, $full_free bytes free"
finish_run full 15
dm_check "/safety/faults/full the filesystem was full during the run" \
  test "$full_free" -lt $((1 << 20))
check_complete full
rm -f "$DM_MNT/other-program"
check_clean full "$DM_MNT"

# --- rmdir: the target folder is removed -------------------------------------
dm_loop_create 256
dm_mkfs_mount
mkdir "$DM_MNT/bench"
dm_settle
rmdir_free0=$(free_bytes "$DM_MNT")
start_run rmdir "$DM_LOOP_NAME" "$DM_MNT/bench"
rm -rf "$DM_MNT/bench"
dm_check "/safety/faults/rmdir the folder is gone while the run goes on" \
  bash -c '[ ! -e "$1" ] && kill -0 "$2"' _ "$DM_MNT/bench" "$run_pid"
finish_run rmdir 15
check_complete rmdir
check_clean rmdir "$DM_MNT"
dm_settle
rmdir_free1=$(free_bytes "$DM_MNT")
dm_log "rmdir: free space before $rmdir_free0 B, after $rmdir_free1 B"
# The folder's own block comes back too; nothing the run wrote is kept.
dm_check "/safety/faults/rmdir all the test file's space is free again" \
  test "$rmdir_free1" -ge "$((rmdir_free0 - (1 << 20)))"

dm_finish
