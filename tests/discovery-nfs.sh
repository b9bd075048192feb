#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# An NFS export over loopback, as administrators benchmark VM datastores:
# the kernel's NFS server exports an ext4 loop device inside a private
# mount and network namespace (unshare), the kernel's client mounts it, and
# the target list must show the mount as `network`, named server:/export.
# Then the default profile runs on it with diskmeter-cli and with fio in
# turns (build-aux/bench-vs-fio): each test's MB/s must agree within 10 %.
# Where this kernel or machine cannot run an NFS server, the test skips
# and says exactly what is missing.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

# The kernel's client and server, built in or as modules.
have_fs ()
{
  grep -qw "$1" /proc/filesystems && return 0
  modprobe "$2" 2>/dev/null && grep -qw "$1" /proc/filesystems
}
modules="/lib/modules/$(uname -r)"
have_fs nfs4 nfsv4 || have_fs nfs4 nfs \
  || dm_skip "this kernel ($(uname -r)) has no NFS client: nfs4 is not in /proc/filesystems, $(
      [ -d "$modules" ] && echo "and modprobe nfsv4 failed" || echo "and there is no $modules to load it from")"
have_fs nfsd nfsd \
  || dm_skip "this kernel ($(uname -r)) has no NFS server: nfsd is not in /proc/filesystems, $(
      [ -d "$modules" ] && echo "and modprobe nfsd failed" || echo "and there is no $modules to load it from")"
for tool in rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs unshare ip fio; do
  command -v "$tool" >/dev/null \
    || dm_skip "$tool is missing (packages nfs-kernel-server, nfs-common, rpcbind, iproute2, fio)"
done

# Everything below runs in a mount and network namespace of its own: the
# server listens on that namespace's loopback only, and its state lives on
# private tmpfs mounts that vanish with it.
if [ -z "${DM_NFS_NAMESPACE:-}" ]; then
  trap - EXIT
  exec unshare --mount --net --propagation private env DM_NFS_NAMESPACE=1 bash "$0" "$@"
fi
ip link set lo up || dm_skip "cannot bring up lo in a new network namespace"

dm_tmpdir
tmp="$DM_TMPDIR"
mount -t tmpfs -o size=16m tmpfs /run && mkdir -p /run/rpcbind \
  || dm_skip "cannot mount a private /run for rpcbind"
mount -t tmpfs -o size=16m tmpfs /var/lib/nfs \
  && mkdir -p /var/lib/nfs/v4recovery /var/lib/nfs/rpc_pipefs \
  && touch /var/lib/nfs/etab /var/lib/nfs/rmtab \
  || dm_skip "cannot mount a private /var/lib/nfs"
mkdir -p /proc/fs/nfsd 2>/dev/null
mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd \
  || dm_skip "cannot mount the nfsd filesystem on /proc/fs/nfsd"

# The export: ext4 on a RAM-backed loop device, room for both tools' files.
dm_loop_create 640
dm_mkfs_mount
export_dir="$DM_MNT"
mnt="$tmp/nfs"
mkdir "$mnt"

nfs_stop ()
{
  # The client first: a mount whose server is gone hangs.
  mountpoint -q "$mnt" && { umount "$mnt" 2>/dev/null || umount -f -l "$mnt"; }
  rpc.nfsd 0 2>/dev/null
  exportfs -au 2>/dev/null
}
trap 'rc=$?; nfs_stop; (exit $rc); _dm_on_exit' EXIT

rpcbind -f > "$tmp/rpcbind.log" 2>&1 &
dm_track_pid $!
sleep 0.5
kill -0 $! 2>/dev/null || dm_skip "rpcbind did not start: $(head -c 300 "$tmp/rpcbind.log")"
exportfs -i -o rw,sync,no_root_squash,no_subtree_check,fsid=1 "127.0.0.1:$export_dir" \
  || dm_die "exportfs of $export_dir failed"
rpc.mountd -F > "$tmp/mountd.log" 2>&1 &
dm_track_pid $!
rpc.nfsd 4 > "$tmp/nfsd.log" 2>&1 \
  || dm_skip "rpc.nfsd could not start the kernel's server here: $(head -c 300 "$tmp/nfsd.log")"
timeout 60 mount -t nfs4 -o vers=4.2,proto=tcp,soft,timeo=100,retrans=2 \
    "127.0.0.1:$export_dir" "$mnt" 2> "$tmp/mount.log" \
  || dm_die "mount -t nfs4 127.0.0.1:$export_dir failed: $(head -c 300 "$tmp/mount.log")"
dm_log "NFS: 127.0.0.1:$export_dir on $mnt ($(findmnt -no FSTYPE,OPTIONS "$mnt" 2>/dev/null))"

json="$tmp/targets.json"
err="$tmp/err.txt"
dm_run "$json" "$err" --list-targets --format json
dm_check "--list-targets --format json exits 0 (got $DM_RC)" test "$DM_RC" = 0
entry=$(dm_json "$json" "[e for e in j if e['path'] == '$mnt']")
dm_log "entry: $entry"
dm_check "the NFS mount is listed as network" \
  test "$(dm_json "$json" "[e['kind'] for e in j if e['path'] == '$mnt']")" = "['network']"
dm_check "it is named by server:export (127.0.0.1:$export_dir)" \
  test "$(dm_json "$json" "[e['model'] for e in j if e['path'] == '$mnt']")" = "['127.0.0.1:$export_dir']"
dm_check "its filesystem is NFS" \
  test "$(dm_json "$json" "[e['filesystem'].startswith('nfs') for e in j if e['path'] == '$mnt']")" = "[True]"
dm_check "it is writable" \
  test "$(dm_json "$json" "[e['writable'] for e in j if e['path'] == '$mnt']")" = "[True]"
dm_check "its size is the export's" \
  test "$(dm_json "$json" "[abs(e['size_bytes'] - $(stat -fc '%b * %S' "$export_dir")) < (1 << 20) for e in j if e['path'] == '$mnt']")" = "[True]"

# The default profile on the NFS mount, diskmeter-cli and fio in turns.
bench="$tmp/bench.txt"
dm_log "build-aux/bench-vs-fio --target $mnt --profile default --modes read,write (3 rounds)"
"$DM_SOURCE_ROOT/build-aux/bench-vs-fio" --target "$mnt" --profile default --modes read,write \
  --rounds 3 --duration 2 --warmup 1 --size 128MiB --cli "$DM_CLI" > "$bench" 2>&1
rc=$?
sed -n '/^test /,/^$/p' "$bench" | grep -E '^test |MB/s ' | sed 's/^/#   /'
grep -q 'target(s) missed\|all targets met' "$bench" || sed 's/^/#   /' "$bench" | tail -n 20
dm_check "bench-vs-fio ran to the end" grep -q 'target(s) missed\|all targets met' "$bench"
n=0
while read -r test mode _ dm fio _; do
  dm_within "$test $mode MB/s, diskmeter-cli vs fio on NFS (median of 3 rounds)" "$dm" "$fio" 10
  n=$((n + 1))
done < <(awk '$3 == "MB/s" && $4 ~ /^[0-9.]+$/ { print }' "$bench")
dm_check "all 8 tests of the default profile were compared (got $n, exit $rc)" test "$n" = 8

dm_finish
