# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shared by the truth and safety scenario tests: they build a real block
# device they own (a loop device over a file in /dev/shm, formatted ext4),
# may slow it down to a known speed with the block cgroup throttle, read the
# kernel's own sector counters, and run diskmeter-cli against it. One EXIT
# trap tears down everything a test made, in reverse order, whether the test
# passed, failed or was interrupted; nothing the test did not create is
# ever touched.
#
# A script sources this file, calls dm_need_loop (and dm_need_cgroup when it
# throttles), builds its device, runs its checks with dm_check/dm_within and
# ends with dm_finish. A check that fails is reported and counted, and the
# script goes on, so one run shows every discrepancy.

set -uo pipefail

DM_CLI="${DM_CLI:-}"

# The system's Python: a version manager's shim on PATH can take seconds per
# start, and the scripts call Python for every figure they compare.
if [ -x /usr/bin/python3 ]; then
  DM_PYTHON=/usr/bin/python3
else
  DM_PYTHON="$(command -v python3 || echo python3)"
fi
python3 () { "$DM_PYTHON" "$@"; }
DM_SOURCE_ROOT="${DM_SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

_dm_failures=0
_dm_checks=0
_dm_pids=()      # background processes we started
_dm_cgroups=()   # block cgroups we created
_dm_mounts=()    # mount points we mounted
_dm_loops=()     # loop devices we attached
_dm_files=()     # files we created (loop backing files)
_dm_dirs=()      # temporary folders we created
_dm_settings=()  # kernel settings we changed: "PATH<TAB>OLD VALUE"
_dm_v2_enabled_io="" # cgroup v2 parent in which we enabled the io controller

dm_log () { printf '# %s\n' "$*"; }

dm_skip ()
{
  printf 'SKIP: %s\n' "$*"
  exit 77
}

# A failure that makes the rest of the script pointless.
dm_die ()
{
  printf 'FAIL: %s\n' "$*"
  _dm_failures=$((_dm_failures + 1))
  exit 1
}

# dm_check DESCRIPTION COMMAND...: runs the command; a non-zero status is a
# failed check.
dm_check ()
{
  local what="$1"; shift
  _dm_checks=$((_dm_checks + 1))
  if "$@"; then
    printf 'ok %d - %s\n' "$_dm_checks" "$what"
  else
    printf 'not ok %d - %s\n' "$_dm_checks" "$what"
    _dm_failures=$((_dm_failures + 1))
  fi
}

# dm_sampled TRIES LOG RUN... -- JUDGE...: runs RUN, then JUDGE; while
# JUDGE exits 2 (its tolerance needs more requests than the file LOG holds:
# a busy host ran the program slowly), runs RUN again, keeps LOG's lines of
# every run and judges them together, at most TRIES runs. JUDGE's status.
dm_sampled ()
{
  # Names of its own: bash's locals are seen by the functions it calls,
  # and RUN's may read a global of the same name (a test's own $log).
  local _dm_tries="$1" _dm_log="$2" _dm_i=1 _dm_rc
  local -a _dm_run=()
  shift 2
  while [ "$1" != -- ]; do _dm_run+=("$1"); shift; done
  shift
  "${_dm_run[@]}" || return
  while :; do
    "$@"
    _dm_rc=$?
    [ "$_dm_rc" = 2 ] && [ "$_dm_i" -lt "$_dm_tries" ] || return "$_dm_rc"
    _dm_i=$((_dm_i + 1))
    dm_log "too few requests for the tolerance: run $_dm_i of at most $_dm_tries, judged with the runs before"
    mv "$_dm_log" "$_dm_log.before"
    "${_dm_run[@]}" || return
    cat "$_dm_log" >> "$_dm_log.before" && mv "$_dm_log.before" "$_dm_log"
  done
}

# dm_within DESCRIPTION ACTUAL EXPECTED PERCENT [SHORT]: ACTUAL must lie
# within PERCENT % of EXPECTED, or, given SHORT, from SHORT % under it to
# PERCENT % over (for a rate a busy machine can only lower). Prints both
# figures and the deviation either way.
dm_within ()
{
  local what="$1" actual="$2" expected="$3" pct="$4" short="${5:-$4}" dev limit
  _dm_checks=$((_dm_checks + 1))
  limit="$pct"
  [ "$short" = "$pct" ] || limit="-$short..+$pct"
  dev=$(python3 -c 'import sys
a, e = float(sys.argv[1]), float(sys.argv[2])
print("%+.2f" % ((a - e) / e * 100.0) if e else "inf")' "$actual" "$expected" 2>/dev/null) || dev="nan"
  if python3 -c 'import sys
a, e, p, s = map(float, sys.argv[1:5])
sys.exit(0 if e and -abs(e) * s / 100.0 <= a - e <= abs(e) * p / 100.0 else 1)' "$actual" "$expected" "$pct" "$short" 2>/dev/null; then
    printf 'ok %d - %s: %s vs %s (%s%%, limit %s%%)\n' "$_dm_checks" "$what" "$actual" "$expected" "$dev" "$limit"
  else
    printf 'not ok %d - %s: %s vs %s (%s%%, limit %s%%)\n' "$_dm_checks" "$what" "$actual" "$expected" "$dev" "$limit"
    _dm_failures=$((_dm_failures + 1))
  fi
}

# dm_skip_part REASON: one part of the test cannot run on this machine. The
# other checks still run; then dm_finish ends the test as skipped (77),
# naming every part left out, so the part cannot vanish from a green run.
_dm_skipped_parts=()
dm_skip_part ()
{
  printf '# SKIP part: %s\n' "$*"
  _dm_skipped_parts+=("$*")
}

dm_finish ()
{
  local part
  if [ "$_dm_failures" -gt 0 ]; then
    printf 'FAIL: %d of %d checks failed\n' "$_dm_failures" "$_dm_checks"
    exit 1
  fi
  if [ ${#_dm_skipped_parts[@]} -gt 0 ]; then
    for part in "${_dm_skipped_parts[@]}"; do
      printf 'SKIP: %s\n' "$part"
    done
    printf 'SKIP: %d checks passed, %d parts left out\n' "$_dm_checks" "${#_dm_skipped_parts[@]}"
    exit 77
  fi
  printf 'PASS: %d checks\n' "$_dm_checks"
  exit 0
}

# --- Teardown ---------------------------------------------------------------

_dm_cgroup_empty ()
{
  local group="$1" root pid
  root="$(dirname "$group")"
  [ -f "$group/cgroup.procs" ] || return 0
  for _ in 1 2 3 4 5; do
    while read -r pid; do
      echo "$pid" > "$root/cgroup.procs" 2>/dev/null || true
    done < "$group/cgroup.procs"
    [ -s "$group/cgroup.procs" ] || return 0
    sleep 0.1
  done
}

dm_teardown ()
{
  local i pid
  trap - EXIT INT TERM HUP
  set +e
  for pid in "${_dm_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  for ((i = ${#_dm_settings[@]} - 1; i >= 0; i--)); do
    printf '%s\n' "${_dm_settings[i]#*$'\t'}" > "${_dm_settings[i]%%$'\t'*}" \
      || printf '# teardown: could not put back %s\n' "${_dm_settings[i]%%$'\t'*}"
  done
  for ((i = ${#_dm_cgroups[@]} - 1; i >= 0; i--)); do
    _dm_cgroup_empty "${_dm_cgroups[i]}"
    rmdir "${_dm_cgroups[i]}" 2>/dev/null \
      || printf '# teardown: could not remove cgroup %s\n' "${_dm_cgroups[i]}"
  done
  if [ -n "$_dm_v2_enabled_io" ]; then
    echo "-io" > "$_dm_v2_enabled_io/cgroup.subtree_control" 2>/dev/null
  fi
  for ((i = ${#_dm_mounts[@]} - 1; i >= 0; i--)); do
    if mountpoint -q "${_dm_mounts[i]}"; then
      umount "${_dm_mounts[i]}" 2>/dev/null || { sleep 0.5; umount "${_dm_mounts[i]}"; } \
        || umount -l "${_dm_mounts[i]}"
    else
      # A FUSE mount whose server was killed above is no mount point to
      # mountpoint(1) ("transport endpoint is not connected"), yet mounted.
      umount -l "${_dm_mounts[i]}" 2>/dev/null
    fi
  done
  for ((i = ${#_dm_loops[@]} - 1; i >= 0; i--)); do
    losetup -d "${_dm_loops[i]}" 2>/dev/null || { sleep 0.5; losetup -d "${_dm_loops[i]}"; }
  done
  for ((i = ${#_dm_files[@]} - 1; i >= 0; i--)); do
    rm -f -- "${_dm_files[i]}"
  done
  for ((i = ${#_dm_dirs[@]} - 1; i >= 0; i--)); do
    rm -rf --one-file-system -- "${_dm_dirs[i]}"
  done
}

_dm_on_exit ()
{
  local rc=$?
  dm_teardown
  exit "$rc"
}

trap _dm_on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- Requirements -----------------------------------------------------------

dm_need_cli ()
{
  [ -n "$DM_CLI" ] || dm_die "DM_CLI is not set (run through meson test)"
  [ -x "$DM_CLI" ] || dm_die "DM_CLI=$DM_CLI is not an executable"
}

# dm_cli_for_user UID GID: sets DM_USER_CLI to a diskmeter-cli that this
# user can run. The source tree may live where only root gets in (a root
# user's clone under /root, mode 700): then the build's binary is copied
# into a folder of mode 0755. It needs nothing else of the build folder
# (system libraries only, no rpath; catalogues from the installed prefix
# or DISKMETER_LOCALEDIR).
dm_cli_for_user ()
{
  local uid="$1" gid="$2" d
  DM_USER_CLI="$DM_CLI"
  setpriv --reuid="$uid" --regid="$gid" --clear-groups test -x "$DM_CLI" && return 0
  d="$(mktemp -d "${TMPDIR:-/tmp}/diskmeter-user-XXXXXX")" || dm_die "mktemp -d failed"
  _dm_dirs+=("$d")
  chmod 0755 "$d"
  cp "$DM_CLI" "$d/diskmeter-cli" && chmod 0755 "$d/diskmeter-cli" || dm_die "cannot copy $DM_CLI"
  DM_USER_CLI="$d/diskmeter-cli"
  setpriv --reuid="$uid" --regid="$gid" --clear-groups test -x "$DM_USER_CLI" \
    || dm_die "user $uid cannot run $DM_CLI, nor a copy in $d (is ${TMPDIR:-/tmp} private?)"
  dm_log "user $uid cannot reach $DM_CLI: runs a copy, $DM_USER_CLI"
}

# Loop devices, ext4 and a RAM filesystem for the backing files.
dm_need_loop ()
{
  [ "$(uname -s)" = Linux ] || dm_skip "not Linux"
  [ "$(id -u)" = 0 ] || dm_skip "not root: loop devices, mounts and cgroups need root"
  [ -e /dev/loop-control ] || dm_skip "no /dev/loop-control: this kernel or container has no loop devices"
  local tool
  for tool in losetup mkfs.ext4 mount umount mountpoint python3; do
    command -v "$tool" >/dev/null || dm_die "$tool is missing (build-aux/dev installs it)"
  done
  [ -d /dev/shm ] && [ -w /dev/shm ] || dm_skip "no writable /dev/shm for RAM-backed loop devices"
}

# Finds a block cgroup with throttling: cgroup v1 blkio, or cgroup v2 with
# the io controller. Sets DM_CGROUP_MODE (v1|v2) and DM_CGROUP_ROOT, or
# returns 1.
dm_have_cgroup ()
{
  local v2
  [ "$(id -u)" = 0 ] || return 1
  if [ -f /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ] \
     && [ -w /sys/fs/cgroup/blkio/cgroup.procs ]; then
    DM_CGROUP_MODE=v1
    DM_CGROUP_ROOT=/sys/fs/cgroup/blkio
    return 0
  fi
  for v2 in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [ "$(stat -fc %T "$v2" 2>/dev/null)" = cgroup2fs ] \
       && grep -qw io "$v2/cgroup.controllers" 2>/dev/null \
       && [ -w "$v2/cgroup.subtree_control" ]; then
      DM_CGROUP_MODE=v2
      DM_CGROUP_ROOT="$v2"
      return 0
    fi
  done
  return 1
}

dm_need_cgroup ()
{
  dm_have_cgroup \
    || dm_skip "no block cgroup: neither cgroup v1 blkio nor cgroup v2 io is available"
}

# --- Devices ----------------------------------------------------------------

dm_tmpdir ()
{
  local d
  d="$(mktemp -d "${TMPDIR:-/tmp}/diskmeter-test-XXXXXX")" || dm_die "mktemp -d failed"
  _dm_dirs+=("$d")
  DM_TMPDIR="$d"
}

# dm_loop_create SIZE_MIB: a loop device over a new sparse file in /dev/shm,
# with direct I/O to the backing file where the kernel accepts it (so the
# page cache holds each block once, not twice). Sets DM_LOOP (/dev/loopN),
# DM_LOOP_NAME (loopN) and DM_LOOP_DEV (MAJ:MIN).
dm_loop_create ()
{
  local mib="$1" img dev
  img="$(mktemp /dev/shm/diskmeter-test-XXXXXX.img)" || dm_die "mktemp in /dev/shm failed"
  _dm_files+=("$img")
  truncate -s "${mib}M" "$img" || dm_die "truncate $img failed"
  dev="$(losetup -f --show --direct-io=on "$img" 2>/dev/null)" \
    || dev="$(losetup -f --show "$img")" \
    || dm_skip "losetup could not attach a loop device"
  _dm_loops+=("$dev")
  DM_LOOP="$dev"
  DM_LOOP_NAME="${dev#/dev/}"
  DM_LOOP_DEV="$(cat "/sys/block/$DM_LOOP_NAME/dev")"
  # Let udev and the partition scan settle, so they do not read the device
  # while a test counts sectors.
  command -v udevadm >/dev/null && udevadm settle 2>/dev/null
  dm_log "loop device $DM_LOOP ($DM_LOOP_DEV) over $img, ${mib} MiB, direct-io=$(cat "/sys/block/$DM_LOOP_NAME/loop/dio" 2>/dev/null || echo ?)"
}

# dm_loop_over FILE: a loop device over an existing FILE (a backing file on
# slow-fs, say), with direct I/O where the kernel accepts it, detached on
# exit. Sets DM_OVER (/dev/loopN).
dm_loop_over ()
{
  DM_OVER="$(losetup -f --show --direct-io=on "$1" 2>/dev/null)" \
    || DM_OVER="$(losetup -f --show "$1")" || dm_die "losetup over $1 failed"
  _dm_loops+=("$DM_OVER")
}

# dm_loop_detach DEV: detaches DEV now (before the file system under its
# backing file is unmounted) and forgets it for the exit's teardown.
dm_loop_detach ()
{
  local keep=() l
  losetup -d "$1" 2>/dev/null || { sleep 0.5; losetup -d "$1"; }
  for l in "${_dm_loops[@]}"; do [ "$l" = "$1" ] || keep+=("$l"); done
  _dm_loops=("${keep[@]}")
}

# dm_mkfs_mount [MOUNT_OPTIONS]: formats $DM_LOOP as ext4 and mounts it on a
# new folder. Inode tables and the journal are written now, not by a
# background thread during a measurement. Sets DM_MNT.
dm_mkfs_mount ()
{
  local opts="${1:-}" mnt
  mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$DM_LOOP" \
    || dm_die "mkfs.ext4 $DM_LOOP failed"
  mnt="$(mktemp -d "${TMPDIR:-/tmp}/diskmeter-mnt-XXXXXX")" || dm_die "mktemp -d failed"
  _dm_dirs+=("$mnt")
  mount ${opts:+-o "$opts"} "$DM_LOOP" "$mnt" || dm_die "mount $DM_LOOP failed"
  _dm_mounts+=("$mnt")
  DM_MNT="$mnt"
}

# dm_mount_extra ARGS... MOUNT_POINT: a further mount the teardown undoes
# (bind mounts, FUSE, ramfs). The last argument is the mount point.
dm_mount_extra ()
{
  local mnt="${!#}"
  mount "$@" || return 1
  _dm_mounts+=("$mnt")
}

# dm_set_kernel PATH VALUE: writes VALUE to a kernel setting (sysfs, procfs)
# that reads back as it is written (a cpumask, a number; not a list with
# the choice in brackets, as queue/scheduler) and puts the old value back
# at teardown. Fails, changing nothing, when the kernel refuses VALUE.
dm_set_kernel ()
{
  local old
  old="$(cat "$1")" || return 1
  printf '%s\n' "$2" > "$1" 2>/dev/null || return 1
  _dm_settings+=("$1"$'\t'"$old")
}

dm_track_mount () { _dm_mounts+=("$1"); }
dm_track_pid () { _dm_pids+=("$1"); }
# Once a process was waited for, its id may go to another process: forget it.
dm_untrack_pid ()
{
  local keep=() p
  for p in "${_dm_pids[@]}"; do
    [ "$p" = "$1" ] || keep+=("$p")
  done
  _dm_pids=("${keep[@]}")
}

# dm_slow_fs_mount FOLDER SERVICE_US PARALLEL [OPTIONS...]: mounts
# tests/slow-fs.c (reads of SERVICE_US each, PARALLEL at once; OPTIONS as
# slow-fs takes them) on FOLDER, made if missing; skips where it was not
# built or the kernel has no FUSE. Sets DM_SLOW_FS_PID.
dm_slow_fs_mount ()
{
  local mnt="$1"
  [ -n "${DM_SLOW_FS:-}" ] || dm_skip "built without libfuse3 (build-aux/dev installs libfuse3-dev)"
  [ -c /dev/fuse ] || dm_skip "no /dev/fuse: this kernel or container has no FUSE"
  mkdir -p "$mnt" || dm_die "mkdir $mnt failed"
  "$DM_SLOW_FS" "$mnt" "$2" "$3" "${@:4}" 2> "$mnt.log" &
  DM_SLOW_FS_PID=$!
  _dm_pids+=("$DM_SLOW_FS_PID")
  _dm_mounts+=("$mnt")
  for _ in $(seq 50); do
    mountpoint -q "$mnt" && return 0
    kill -0 "$DM_SLOW_FS_PID" 2>/dev/null || break
    sleep 0.1
  done
  dm_die "slow-fs did not mount $mnt: $(head -c 300 "$mnt.log")"
}

# dm_need_wine: for a test of diskmeter-cli.exe (DM_CLI) built on this
# file: sets wine (DM_WINE; empty on real Windows), skips where Wine or its
# prefix is missing, turns Wine's own debug output off, and defines winpath
# (a Unix path as the program sees it: Wine maps / to Z:) and win (the
# program, through Wine where there is one).
dm_need_wine ()
{
  : "${DM_CLI:?}"
  wine=${DM_WINE-wine}
  dm_need_cli
  if [ -n "$wine" ]; then
    command -v "$wine" >/dev/null || dm_skip "no $wine"
    [ -n "${WINEPREFIX:-}" ] || dm_skip "WINEPREFIX is not set (build-aux/test-windows sets it)"
    export WINEDEBUG=${WINEDEBUG:--all}
  fi
  winpath () { if [ -n "$wine" ]; then local p=${1//\//\\}; printf 'Z:%s' "$p"; else printf '%s' "$1"; fi; }
  win () { $wine "$DM_CLI" "$@"; }
}

# dm_slow_fs_field FOLDER KEY: the number after KEY in the .served of the
# slow-fs mounted on FOLDER (reading it also flushes the request log).
dm_slow_fs_field ()
{
  tr -d '\n' < "$1/.served" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

# dm_trace_leftovers TRACEFS: the trace instances of Diskmeter's captures
# (instances/diskmeter-PID) whose process is gone, one a line: what a
# capture that ended left behind. A capture still running, another test's
# beside this one, is not left behind.
dm_trace_leftovers ()
{
  local d
  for d in "$1"/instances/diskmeter-*; do
    [ -d "$d" ] && [ ! -d "/proc/${d##*-}" ] && echo "$d"
  done
  return 0
}

# dm_slow_fs_mark FOLDER: "HELD LATE_NS IDLE_NS" of the slow-fs on FOLDER
# now, reads and writes served in slots together, for dm_slow_fs_late_us
# to count from.
dm_slow_fs_mark ()
{
  # One read of .served, so the figures are of one moment.
  tr -d '\n' < "$1/.served" | awk '{
    for (i = 1; i < NF; i++) {
      if ($i == "held" || $i == "wheld") h += $(i + 1)
      if ($i == "late_ns" || $i == "wlate_ns") l += $(i + 1)
      if ($i == "idle_ns") d = $(i + 1)
    }
    printf "%.0f %.0f %.0f\n", h, l, d }'
}

# dm_slow_fs_late_us FOLDER "MARK": the machine's time per request served
# in a slot since MARK, in microseconds: how late slow-fs's sleeps ended,
# plus the slot time left free while a request's thread woke to take it.
# The device delivered each request in its service time plus this, so that
# is what a rate is held to.
dm_slow_fs_late_us ()
{
  python3 -c 'import sys
h0, l0, i0, h, l, i = map(int, sys.argv[1:7])
print("%.1f" % ((l - l0 + i - i0) / 1000 / max(1, h - h0)))' $2 $(dm_slow_fs_mark "$1")
}

# dm_slow_fs_unmount FOLDER: unmounts it and waits for slow-fs to end; its
# exit status. The kernel may hold the test file's last release a moment
# after diskmeter-cli exits ("target is busy"), so unmounting is retried.
dm_slow_fs_unmount ()
{
  local mnt="$1" rc
  for _ in $(seq 50); do
    umount "$mnt" 2>/dev/null && break
    sleep 0.1
  done
  mountpoint -q "$mnt" && umount -l "$mnt"
  for _ in $(seq 50); do
    kill -0 "$DM_SLOW_FS_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$DM_SLOW_FS_PID" 2>/dev/null
  wait "$DM_SLOW_FS_PID"
  rc=$?
  dm_untrack_pid "$DM_SLOW_FS_PID"
  return "$rc"
}

# Sectors the kernel moved through a device so far: "READ_BYTES WRITE_BYTES"
# (fields 3 and 7 of /sys/block/NAME/stat, in 512-byte units whatever the
# logical block size).
dm_stat_bytes ()
{
  local name="${1:-$DM_LOOP_NAME}" f
  read -r -a f < "/sys/block/$name/stat" || return 1
  echo "$((f[2] * 512)) $((f[6] * 512))"
}

# Writes dirty pages and the ext4 journal of the test's own filesystems out,
# so that counters read next include them.
dm_settle ()
{
  local m
  for m in "${_dm_mounts[@]}"; do
    mountpoint -q "$m" && sync -f "$m" 2>/dev/null
  done
  sleep 0.1
}

# --- The test file ----------------------------------------------------------
# The test file has no name a directory listing could find (it is unlinked
# at once, or never linked at all), so "no diskmeter-*.tmp in the folder"
# proves nothing. What a user loses to a test file left behind is an open
# descriptor and the space it holds: these look for exactly those.

# dm_fs_used DIR: bytes in use on DIR's filesystem (statfs: blocks less
# free blocks, in fragment size units).
dm_fs_used ()
{
  stat -f -c '%b %f %S' "$1" | awk '{ printf "%.0f\n", ($1 - $2) * $3 }'
}

# dm_fs_files DIR: files (inodes) in use on DIR's filesystem. An empty file
# left under any name, which takes no block, still takes one of these.
dm_fs_files ()
{
  stat -f -c '%c %d' "$1" | awk '{ print $1 - $2 }'
}

# dm_open_files_on DIR [PID]: prints "PID FD BYTES_ALLOCATED" for each
# regular file on DIR's filesystem that a process (PID, or any) holds open,
# named or not, read through /proc/PID/fd.
dm_open_files_on ()
{
  python3 - "$1" "${2:-}" <<'PY'
import os, stat, sys
dev = os.stat(sys.argv[1]).st_dev
pids = [sys.argv[2]] if sys.argv[2] else [p for p in os.listdir("/proc") if p.isdigit()]
for pid in pids:
    if pid == str(os.getpid()):
        continue
    try:
        fds = os.listdir("/proc/%s/fd" % pid)
    except OSError:
        continue
    for fd in fds:
        try:
            st = os.stat("/proc/%s/fd/%s" % (pid, fd))
        except OSError:
            continue
        if st.st_dev == dev and stat.S_ISREG(st.st_mode):
            print(pid, fd, st.st_blocks * 512)
PY
}

# dm_wait_test_file DIR PID [SECONDS]: waits (10 s by default) until PID
# holds a file on DIR's filesystem open, that is until its run has created
# its test file; 1 if PID ended or the time ran out first.
dm_wait_test_file ()
{
  local dir="$1" pid="$2" i
  for ((i = 0; i < ${3:-10} * 10; i++)); do
    [ -n "$(dm_open_files_on "$dir" "$pid")" ] && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# dm_no_test_file DIR USED_BEFORE: after a run, no process holds a file on
# DIR's filesystem open and the space in use there is back within 1 MiB of
# USED_BEFORE (dm_fs_used before the run; a test file is 16 MiB or more).
# An unlinked file's blocks come back when its last reference goes, and
# I/O the kernel still had queued when the process ended holds one a
# moment longer, so this waits up to 5 s. Says what is left if anything.
dm_no_test_file ()
{
  local dir="$1" before="$2" used open i
  for ((i = 0; i < 50; i++)); do
    sync -f "$dir" 2>/dev/null
    used=$(dm_fs_used "$dir")
    open=$(dm_open_files_on "$dir")
    [ -z "$open" ] && [ "$used" -le $((before + (1 << 20))) ] && return 0
    sleep 0.1
  done
  dm_log "left on $dir's filesystem: $((used - before)) bytes more in use than before${open:+; open (pid fd bytes): $(echo $open)}"
  return 1
}

# --- Block cgroup throttle --------------------------------------------------

# Creates this test's block cgroup. Sets DM_CGROUP.
dm_cgroup_create ()
{
  local group
  if [ "$DM_CGROUP_MODE" = v2 ] && ! grep -qw io "$DM_CGROUP_ROOT/cgroup.subtree_control"; then
    echo "+io" > "$DM_CGROUP_ROOT/cgroup.subtree_control" \
      || dm_skip "cannot enable the io controller in $DM_CGROUP_ROOT"
    _dm_v2_enabled_io="$DM_CGROUP_ROOT"
  fi
  group="$DM_CGROUP_ROOT/diskmeter-test-$$"
  mkdir "$group" || dm_skip "cannot create block cgroup $group"
  _dm_cgroups+=("$group")
  DM_CGROUP="$group"
}

# dm_throttle KIND VALUE: KIND is read_bps, write_bps, read_iops or
# write_iops; VALUE bytes or I/Os per second, 0 to lift the limit. Applies
# to $DM_LOOP only.
dm_throttle ()
{
  local kind="$1" value="$2" key
  if [ "$DM_CGROUP_MODE" = v1 ]; then
    echo "$DM_LOOP_DEV $value" > "$DM_CGROUP/blkio.throttle.${kind}_device" \
      || dm_die "cannot set $kind=$value on $DM_LOOP_DEV"
  else
    case "$kind" in
      read_bps) key=rbps ;; write_bps) key=wbps ;;
      read_iops) key=riops ;; write_iops) key=wiops ;;
      *) dm_die "unknown throttle $kind" ;;
    esac
    [ "$value" = 0 ] && value=max
    echo "$DM_LOOP_DEV $key=$value" > "$DM_CGROUP/io.max" \
      || dm_die "cannot set $key=$value on $DM_LOOP_DEV"
  fi
}

dm_unthrottle ()
{
  local k
  for k in read_bps write_bps read_iops write_iops; do
    dm_throttle "$k" 0
  done
}

# dm_throttled COMMAND...: runs the command inside this test's block cgroup
# (only that process and its children are slowed down).
dm_throttled ()
{
  (
    echo "$BASHPID" > "$DM_CGROUP/cgroup.procs" || exit 125
    exec "$@"
  )
}

# --- Running the CLI --------------------------------------------------------

# dm_run OUT ERR ARGS...: runs diskmeter-cli with ARGS (add dm_throttled
# in front with DM_RUN_PREFIX=dm_throttled), stdout to OUT, stderr to ERR.
# Sets DM_RC.
dm_run ()
{
  local out="$1" err="$2"; shift 2
  printf '# $ diskmeter-cli %s\n' "$*"
  ${DM_RUN_PREFIX:-} "$DM_CLI" "$@" > "$out" 2> "$err"
  DM_RC=$?
  if [ -s "$err" ]; then
    sed 's/^/#   stderr: /' "$err" | head -n 20
  fi
  return 0
}

# dm_run_watch OUT LOG PATTERN COMMAND...: runs COMMAND (diskmeter-cli, or a
# wrapper that execs it) with stdout to OUT and stderr on a pseudo-terminal,
# so that the CLI prints its progress line. Each line goes to LOG as
# "SECONDS<tab>LINE<tab>SNAPSHOT", SNAPSHOT being the contents of the file
# DM_WATCH_READ (if set) read as the line came. The first line that matches
# the regular expression PATTERN (empty: none) sends COMMAND SIGINT: a test
# acts on the run's own progress, not after a guessed sleep. Sets DM_RC.
dm_run_watch ()
{
  local out="$1" log="$2" pattern="$3"; shift 3
  printf '# $ %s (progress watched%s)\n' "$*" "${pattern:+, Ctrl-C at /$pattern/}"
  local pid
  "$DM_PYTHON" - "$out" "$log" "$pattern" "${DM_WATCH_READ:-}" "$@" <<'PY' &
import ctypes, os, pty, re, signal, subprocess, sys, time
out, log, pattern, watch = sys.argv[1:5]
master, slave = pty.openpty()
# The command dies with this watcher, which the teardown kills.
libc = ctypes.CDLL(None, use_errno=True)
child = subprocess.Popen(sys.argv[5:], stdin=subprocess.DEVNULL, stdout=open(out, "wb"),
                         stderr=slave, preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))
os.close(slave)
sent, rest = False, b""
with open(log, "w") as f:
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            chunk = b""
        if not chunk:
            break
        parts = re.split(rb"[\r\n]", rest + chunk)
        # A progress line is written whole and ends in "left"; anything else
        # waits for its end of line.
        rest = b"" if parts[-1].rstrip().endswith(b"left") else parts.pop()
        for part in parts:
            line = part.decode(errors="replace").strip()
            if not line:
                continue
            snap = open(watch).read().strip() if watch else ""
            f.write("%.3f\t%s\t%s\n" % (time.monotonic(), line, snap))
            f.flush()
            if pattern and not sent and re.search(pattern, line):
                child.send_signal(signal.SIGINT)
                sent = True
rc = child.wait()
sys.exit(rc if rc >= 0 else 128 - rc)
PY
  pid=$!
  _dm_pids+=("$pid")
  wait "$pid"
  DM_RC=$?
  dm_untrack_pid "$pid"
  grep -v ' left	' "$log" | cut -f 2 | sed 's/^/#   stderr: /' | head -n 20
  return 0
}

# dm_json FILE EXPRESSION: evaluates a Python expression over the JSON
# report j and prints the result.
dm_json ()
{
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if not isinstance(v, (dict, list)) else json.dumps(v))' "$1" "$2"
}

# dm_one_line_error FILE: stderr holds exactly one line, and it starts with
# "diskmeter-cli: ".
dm_one_line_error ()
{
  local file="$1"
  [ "$(wc -l < "$file")" -eq 1 ] && grep -q '^diskmeter-cli: .' "$file"
}

# dm_usage_error FILE: a bad command line is refused with one line starting
# "diskmeter-cli: " that gives the reason, optionally followed by one
# "Usage: ..." hint line.
dm_usage_error ()
{
  local file="$1" n
  n="$(wc -l < "$file")"
  head -n 1 "$file" | grep -q '^diskmeter-cli: .' || return 1
  [ "$n" -eq 1 ] || { [ "$n" -eq 2 ] && sed -n 2p "$file" | grep -q '^Usage: '; }
}
