#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The target list shows drives the way a file manager does. A USB stick
# automounted at /run/media/USER/LABEL, a read-only disk, a FUSE mount and
# the loop devices under them are built here and must be listed with their
# kind, label, size and whether a test file can be created there, while a
# bind mount, proc, cgroup2 and (unless asked) tmpfs must not be listed.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_tmpdir
tmp="$DM_TMPDIR"

# A stick as a desktop mounts it: ext4 with a label (a space in it, which
# mountinfo escapes as \040) under /run/media/dmtest/LABEL.
label="DM stick $$"
label="${label:0:16}"
dm_loop_create 64
stick="$DM_LOOP"
stick_name="$DM_LOOP_NAME"
mkfs.ext4 -q -F -L "$label" "$stick" || dm_die "mkfs.ext4 -L $stick failed"
[ -d /run/media ] || { mkdir -p /run/media && _dm_dirs+=(/run/media); }
if [ ! -d /run/media/dmtest ]; then
  mkdir /run/media/dmtest || dm_die "mkdir /run/media/dmtest failed"
  _dm_dirs+=(/run/media/dmtest)
fi
media="/run/media/dmtest/$label"
mkdir "$media" || dm_die "mkdir $media failed"
_dm_dirs+=("$media")
dm_mount_extra "$stick" "$media" || dm_die "mount $stick on $media failed"

# A second disk, mounted read-only in an ordinary folder, with a folder of
# it bind-mounted elsewhere.
dm_loop_create 48
disk="$DM_LOOP"
mkfs.ext4 -q -F -L "dm-ro-$$" "$disk" || dm_die "mkfs.ext4 $disk failed"
mkdir "$tmp/ro" "$tmp/bind" "$tmp/proc" "$tmp/cgroup" "$tmp/ram"
mount "$disk" "$tmp/ro" || dm_die "mount $disk failed"
mkdir "$tmp/ro/shared" && umount "$tmp/ro"
dm_mount_extra -o ro "$disk" "$tmp/ro" || dm_die "mount -o ro $disk failed"
dm_mount_extra --bind "$tmp/ro/shared" "$tmp/bind" || dm_die "bind mount failed"
dm_mount_extra -t proc proc "$tmp/proc" || dm_die "mount -t proc failed"
dm_mount_extra -t cgroup2 cgroup2 "$tmp/cgroup" || dm_log "no cgroup2 mount here: its check is moot"
dm_mount_extra -t tmpfs -o size=8m tmpfs "$tmp/ram" || dm_die "mount -t tmpfs failed"

# A FUSE file system (tests/slow-fs.c).
dm_slow_fs_mount "$tmp/fuse" 100 4

json="$tmp/targets.json"
text="$tmp/targets.txt"
all="$tmp/all.json"
err="$tmp/err.txt"
dm_run "$json" "$err" --list-targets --format json
dm_check "--list-targets --format json exits 0 (got $DM_RC)" test "$DM_RC" = 0
dm_run "$text" "$err" --list-targets
dm_check "--list-targets exits 0 (got $DM_RC)" test "$DM_RC" = 0
sed 's/^/#   /' "$text"
dm_run "$all" "$err" --list-targets --all-targets --format json
dm_check "--list-targets --all-targets exits 0 (got $DM_RC)" test "$DM_RC" = 0

# check NAME PYTHON-EXPRESSION: t is the parsed list, by_path maps paths
# to entries.
check ()
{
  local what="$1" expr="$2" file="${3:-$json}"
  dm_check "$what" python3 - "$file" "$expr" "$media" "$tmp" "$stick" "$disk" "$label" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
media, tmp, stick, disk, label = sys.argv[3:8]
by_path = {e["path"]: e for e in t}
ok = eval(sys.argv[2])
if not ok:
    for e in t:
        if e["path"].startswith((media, tmp, stick, disk)):
            print("#   %s" % json.dumps(e))
sys.exit(0 if ok else 1)
EOF
}

keys='["path", "kind", "filesystem", "label", "model", "bus", "size_bytes", "free_bytes", "writable"]'
check "the JSON is an array of objects with every key" \
  "isinstance(t, list) and t and all(all(k in e for k in $keys) for e in t)"
check "types: sizes are integers (a device's free_bytes null), writable a boolean, the rest strings" \
  "all(isinstance(e['size_bytes'], int) and (isinstance(e['free_bytes'], int) if e['kind'] != 'device' else e['free_bytes'] is None) and isinstance(e['writable'], bool) and e['access'] in ('read-only', 'read-write') and all(isinstance(e[k], str) for k in ['path', 'kind', 'filesystem', 'label', 'model', 'bus']) for e in t)"
check "kinds are local, removable, network, fuse or device" \
  "all(e['kind'] in ('local', 'removable', 'network', 'fuse', 'device') for e in t)"

check "the stick under /run/media is listed as removable or local" \
  "by_path.get(media, {}).get('kind') in ('removable', 'local')"
check "the stick's label is '$label'" "by_path.get(media, {}).get('label') == label"
check "the stick's filesystem is ext4" "by_path.get(media, {}).get('filesystem') == 'ext4'"
check "the stick's size is its filesystem's (under 64 MiB, over 40)" \
  "40 << 20 < by_path.get(media, {}).get('size_bytes', 0) <= 64 << 20"
check "the stick has free space, less than its size" \
  "0 < by_path[media]['free_bytes'] < by_path[media]['size_bytes']"
check "the stick is writable" "by_path.get(media, {}).get('writable') is True"
check "the stick's bus is the loop device's" "by_path.get(media, {}).get('bus') == 'loop'"

check "the read-only disk is listed as local" "by_path.get(tmp + '/ro', {}).get('kind') == 'local'"
check "the read-only disk is not writable" "by_path.get(tmp + '/ro', {}).get('writable') is False"
check "the read-only disk's access is read-only" "by_path.get(tmp + '/ro', {}).get('access') == 'read-only'"
check "the read-only disk's label" "by_path.get(tmp + '/ro', {}).get('label') == 'dm-ro-$$'"

check "the FUSE mount is listed as fuse" "by_path.get(tmp + '/fuse', {}).get('kind') == 'fuse'"
check "the FUSE mount carries the overhead note" \
  "'O_DIRECT may be ignored' in by_path.get(tmp + '/fuse', {}).get('note', '')"

check "the bind mount is not listed" "tmp + '/bind' not in by_path"
check "the proc mount is not listed" "tmp + '/proc' not in by_path"
check "no proc, sysfs or cgroup filesystem is listed" \
  "not any(e['filesystem'] in ('proc', 'sysfs', 'cgroup', 'cgroup2') for e in t)"
check "the cgroup2 mount is not listed" "tmp + '/cgroup' not in by_path"
check "tmpfs is not listed unless asked" "tmp + '/ram' not in by_path"
check "tmpfs is listed with --all-targets, on memory" \
  "by_path.get(tmp + '/ram', {}).get('bus') == 'memory' and by_path[tmp + '/ram']['size_bytes'] == 8 << 20" "$all"

check "the stick's loop device is listed as a device of 64 MiB" \
  "by_path.get(stick, {}).get('kind') == 'device' and by_path[stick]['size_bytes'] == 64 << 20"
check "the device shows its filesystem's label and type" \
  "by_path.get(stick, {}).get('label') == label and by_path[stick]['filesystem'] == 'ext4'"
check "a device is never writable" "not any(e['writable'] for e in t if e['kind'] == 'device')"
check "the device's model names its backing file" \
  "'loop device over /dev/shm/' in by_path.get(stick, {}).get('model', '')"

# writable is true only where a test file can be created: try each one the
# test made.
for dir in "$media" "$tmp/ro"; do
  w=$(dm_json "$json" "[e['writable'] for e in j if e['path'] == '$dir'][0]")
  if touch "$dir/.dm-probe" 2>/dev/null; then created=True; rm -f "$dir/.dm-probe"; else created=False; fi
  dm_check "writable for $dir ($w) says whether a file can be created there ($created)" \
    test "$w" = "$created"
done

# The text form stays a table people read.
dm_check "the text table has a header" grep -q '^TARGET  *KIND  *SIZE  *FREE  *FS  *LABEL  *BUS  *ACCESS  *MODEL' "$text"
dm_check "the text table lists the stick with its kind" grep -q "^$media  *removable " "$text"
dm_check "the text table notes FUSE's overhead" \
  grep -q '^\* FUSE: user-space overhead in every figure, O_DIRECT may be ignored$' "$text"
dm_check "the text table lists the stick's device" grep -q "^$stick  *device " "$text"

dm_finish
