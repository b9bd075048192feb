#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# An SMB share from Samba over loopback: smbd serves an ext4 loop device as
# a guest share inside a private mount and network namespace (unshare),
# the kernel's CIFS client mounts it, and the target list must show the
# mount as `network`, named //server/share, and writable. Where this kernel
# or machine cannot run it, the test skips and says exactly what is missing.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

modules="/lib/modules/$(uname -r)"
if ! grep -qw -e cifs -e smb3 /proc/filesystems && ! modprobe cifs 2>/dev/null; then
  dm_skip "this kernel ($(uname -r)) has no CIFS/SMB client: cifs is not in /proc/filesystems, $(
    [ -d "$modules" ] && echo "and modprobe cifs failed" || echo "and there is no $modules to load it from")"
fi
for tool in smbd mount.cifs unshare ip; do
  command -v "$tool" >/dev/null || dm_skip "$tool is missing (packages samba, cifs-utils, iproute2)"
done

# The server listens on the loopback of a network namespace of its own.
if [ -z "${DM_CIFS_NAMESPACE:-}" ]; then
  trap - EXIT
  exec unshare --mount --net --propagation private env DM_CIFS_NAMESPACE=1 bash "$0" "$@"
fi
ip link set lo up || dm_skip "cannot bring up lo in a new network namespace"

dm_tmpdir
tmp="$DM_TMPDIR"
dm_loop_create 128
dm_mkfs_mount
share_dir="$DM_MNT"
mnt="$tmp/cifs"
mkdir -p "$mnt" "$tmp/samba/lock" "$tmp/samba/state" "$tmp/samba/cache" "$tmp/samba/private" \
  "$tmp/samba/pid"

# Samba's state, logs and passwords stay in the test's folder; the share
# is a guest share written as root, so no account is needed.
cat > "$tmp/smb.conf" <<EOF
[global]
  server role = standalone server
  workgroup = DMTEST
  interfaces = lo
  bind interfaces only = yes
  smb ports = 445
  server min protocol = SMB2
  map to guest = Bad User
  lock directory = $tmp/samba/lock
  state directory = $tmp/samba/state
  cache directory = $tmp/samba/cache
  private dir = $tmp/samba/private
  pid directory = $tmp/samba/pid
  ncalrpc dir = $tmp/samba/ncalrpc
  log file = $tmp/samba/log.%m
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
[dmshare]
  path = $share_dir
  read only = no
  guest ok = yes
  force user = root
EOF

cifs_stop ()
{
  # The client first: a mount whose server is gone waits for it.
  mountpoint -q "$mnt" && { umount "$mnt" 2>/dev/null || umount -f -l "$mnt"; }
}
trap 'rc=$?; cifs_stop; (exit $rc); _dm_on_exit' EXIT

smbd --foreground --no-process-group -s "$tmp/smb.conf" > "$tmp/smbd.log" 2>&1 &
smbd_pid=$!
dm_track_pid "$smbd_pid"
for _ in $(seq 50); do
  (exec 3<>/dev/tcp/127.0.0.1/445) 2>/dev/null && break
  kill -0 "$smbd_pid" 2>/dev/null || dm_skip "smbd did not start here: $(head -c 300 "$tmp/smbd.log")"
  sleep 0.2
done
timeout 60 mount -t cifs //127.0.0.1/dmshare "$mnt" -o guest,vers=3.0 2> "$tmp/mount.log" \
  || dm_die "mount -t cifs //127.0.0.1/dmshare failed: $(head -c 300 "$tmp/mount.log")"
dm_log "SMB: //127.0.0.1/dmshare on $mnt ($(findmnt -no FSTYPE,OPTIONS "$mnt" 2>/dev/null))"

json="$tmp/targets.json"
err="$tmp/err.txt"
dm_run "$json" "$err" --list-targets --format json
dm_check "--list-targets --format json exits 0 (got $DM_RC)" test "$DM_RC" = 0
dm_log "entry: $(dm_json "$json" "[e for e in j if e['path'] == '$mnt']")"
dm_check "the SMB mount is listed as network" \
  test "$(dm_json "$json" "[e['kind'] for e in j if e['path'] == '$mnt']")" = "['network']"
dm_check "it is named by //server/share" \
  test "$(dm_json "$json" "[e['model'] for e in j if e['path'] == '$mnt']")" = "['//127.0.0.1/dmshare']"
dm_check "its filesystem is CIFS or SMB3" \
  test "$(dm_json "$json" "[e['filesystem'] in ('cifs', 'smb3') for e in j if e['path'] == '$mnt']")" = "[True]"
dm_check "it is writable" \
  test "$(dm_json "$json" "[e['writable'] for e in j if e['path'] == '$mnt']")" = "[True]"
dm_check "its size is the share's" \
  test "$(dm_json "$json" "[abs(e['size_bytes'] - $(stat -fc '%b * %S' "$share_dir")) < (1 << 20) for e in j if e['path'] == '$mnt']")" = "[True]"

dm_finish
