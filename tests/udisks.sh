#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A whole disk read without opening it ourselves: the real udisks2 daemon
# runs on a private system bus, inside a mount and network namespace of
# its own (unshare) that sees one udev entry, the test's loop device. With
# DM_UDISKS=only diskmeter-cli must read the device through udisks2's
# OpenForBenchmark, and the kernel's counters must show the bytes it
# reports; with udisks2 gone the same run must fail in one line, and with
# libsystemd gone in another that says so. A user without rights on the
# device gets one line too. Where udisks2 cannot run
# here, the test skips saying what stops it.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
[ "${DM_UDISKS_CLIENT:-}" = 1 ] \
  || dm_skip "diskmeter-cli was built without libsystemd's sd-bus, so it cannot ask udisks2 (build-aux/dev installs libsystemd-dev)"
udisksd=
for u in /usr/libexec/udisks2/udisksd /usr/lib/udisks2/udisksd; do
  [ -x "$u" ] && udisksd="$u" && break
done
[ -n "$udisksd" ] || dm_skip "udisksd is not installed (package udisks2)"
for tool in dbus-daemon gdbus unshare setpriv; do
  command -v "$tool" >/dev/null || dm_skip "$tool is missing (packages dbus-daemon, libglib2.0-bin, util-linux)"
done

# udisks2 sees the devices udev has a database entry for. In a namespace
# of our own, /run is a fresh tmpfs holding one entry: the test's device.
if [ -z "${DM_UDISKS_NAMESPACE:-}" ]; then
  trap - EXIT
  exec unshare --mount --net --propagation private env DM_UDISKS_NAMESPACE=1 bash "$0" "$@"
fi

dm_tmpdir
tmp="$DM_TMPDIR"
dm_loop_create 64
loop="$DM_LOOP"
dd if=/dev/urandom of="$loop" bs=1M count=64 oflag=direct status=none || dm_die "filling $loop failed"
mount -t tmpfs -o size=16m tmpfs /run || dm_skip "cannot mount a private /run"
mkdir -p /run/udev/data
printf 'I:%s\n' "$(($(date +%s) * 1000000))" > "/run/udev/data/b$DM_LOOP_DEV"

cat > "$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$tmp/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile > "$tmp/dbus.log" 2>&1 &
dm_track_pid $!
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/system_bus_socket"
for _ in $(seq 50); do [ -S "$tmp/system_bus_socket" ] && break; sleep 0.1; done
[ -S "$tmp/system_bus_socket" ] || dm_skip "dbus-daemon did not start: $(head -c 300 "$tmp/dbus.log")"

udisks_start ()
{
  "$udisksd" --no-sigint > "$tmp/udisksd.log" 2>&1 &
  udisks_pid=$!
  dm_track_pid "$udisks_pid"
  for _ in $(seq 100); do
    object=$(gdbus call --system --dest org.freedesktop.UDisks2 \
      --object-path /org/freedesktop/UDisks2/Manager \
      --method org.freedesktop.UDisks2.Manager.ResolveDevice "{'path': <'$loop'>}" "{}" 2>/dev/null \
      | grep -o "'/org/freedesktop/UDisks2/block_devices/[^']*'" | tr -d "'")
    [ -n "$object" ] && return 0
    kill -0 "$udisks_pid" 2>/dev/null || break
    sleep 0.1
  done
  dm_skip "udisksd did not come up with $loop on the private bus: $(tail -c 400 "$tmp/udisksd.log")"
}
udisks_start
dm_log "udisks2 $(gdbus introspect --system --dest org.freedesktop.UDisks2 --object-path /org/freedesktop/UDisks2/Manager 2>/dev/null | grep -o "Version = '[^']*'") on a private bus; $loop is $object"

# udisks2 itself hands out a descriptor of the device.
dm_check "OpenForBenchmark on $object returns a descriptor" \
  sh -c "gdbus call --system --dest org.freedesktop.UDisks2 --object-path '$object' \
    --method org.freedesktop.UDisks2.Block.OpenForBenchmark '{}' | grep -q 'handle'"

# diskmeter-cli reads the device through it.
out="$tmp/run.json"
err="$tmp/err.txt"
read -r r0 w0 <<< "$(dm_stat_bytes)"
DM_UDISKS=only dm_run "$out" "$err" --modes read --tests SEQ1M_Q8T1,RND4K_Q32T1 --count 1 \
  --duration 1 --warmup 0.2 --interval 0 --size 32MiB --format json --quiet --no-history "$loop"
read -r r1 w1 <<< "$(dm_stat_bytes)"
dm_check "diskmeter-cli reads $loop through udisks2 (exit $DM_RC)" test "$DM_RC" = 0
[ -s "$out" ] || dm_die "no JSON report"
dm_check "the run is complete" test "$(dm_json "$out" 'j["status"]')" = complete
reported=$(dm_json "$out" 'j["io_totals"]["warmup_bytes"] + j["io_totals"]["measured_bytes"] + j["io_totals"]["prepare_bytes"]')
dm_log "kernel: $((r1 - r0)) bytes read, $((w1 - w0)) written; diskmeter: $reported bytes"
dm_check "the run read something" test "$reported" -gt 0
dm_within "bytes the kernel read from $loop vs bytes diskmeter-cli reports" "$((r1 - r0))" "$reported" 2
dm_check "nothing was written to $loop" test "$((w1 - w0))" = 0

# Without udisks2, the same run cannot open the device: the read above
# did go through it.
kill "$udisks_pid" && wait "$udisks_pid" 2>/dev/null
dm_untrack_pid "$udisks_pid"
DM_UDISKS=only dm_run "$out" "$err" --modes read --tests SEQ1M_Q8T1 --count 1 --duration 1 \
  --warmup 0 --size 32MiB --quiet --no-history "$loop"
dm_check "with udisks2 gone, DM_UDISKS=only fails (exit $DM_RC)" test "$DM_RC" = 1
dm_check "... in one line" dm_one_line_error "$err"
dm_check "... naming the device" grep -q "$loop" "$err"
dm_check "... saying udisks2 is not running and how to start it" grep -qF \
  "diskmeter-cli: cannot open $loop: udisks2, which opens disks for users, is not running (start it: systemctl start udisks2; or run as root)" "$err"

# A user without rights on the device, and udisks2 (without polkit, it
# lets only root in): one line saying permission is denied. The user must
# reach the program and the bus (the tree may be in root's private home),
# so that the refusal is udisks2's, not the file system's.
udisks_start
chmod 0755 "$tmp"
dm_cli_for_user 65534 65534
refused_by_udisks ()
{
  setpriv --reuid=65534 --regid=65534 --clear-groups gdbus call --system \
    --dest org.freedesktop.UDisks2 --object-path "$object" \
    --method org.freedesktop.UDisks2.Block.OpenForBenchmark '{}' > "$tmp/nobody-gdbus.txt" 2>&1
  sed 's/^/#   gdbus: /' "$tmp/nobody-gdbus.txt"
  grep -q 'UDisks2.Error.NotAuthorized' "$tmp/nobody-gdbus.txt"
}
dm_check "udisks2 itself refuses the user OpenForBenchmark" refused_by_udisks
setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_DATA_HOME="$tmp" "$DM_USER_CLI" \
  --modes read --tests SEQ1M_Q8T1 --count 1 --duration 1 --warmup 0 --size 32MiB --quiet \
  --no-history "$loop" > "$tmp/nobody.out" 2> "$tmp/nobody.err"
rc=$?
sed 's/^/#   stderr: /' "$tmp/nobody.err"
dm_check "a user without rights is refused (exit $rc)" test "$rc" = 1
dm_check "... in one line" dm_one_line_error "$tmp/nobody.err"
dm_check "... saying permission is denied" grep -q "cannot open $loop: Permission denied" "$tmp/nobody.err"


# udisks2 running, but libsystemd.so.0, which diskmeter-cli loads to ask
# it, missing: a mount namespace of the run's own lays an empty file over
# the library the loader would find. The one line must name that cause,
# not udisks2 (which is there to answer), and nothing else is printed.
libsystemd=$(ldconfig -p | awk '/libsystemd\.so\.0 / { print $NF; exit }')
if [ -n "$libsystemd" ]; then
  printf '#!/bin/sh\nmount --bind /dev/null "%s" || exit 99\nexec "$@"\n' "$libsystemd" \
    > "$tmp/no-libsystemd.sh"
  chmod +x "$tmp/no-libsystemd.sh"
  DM_RUN_PREFIX="unshare --mount --propagation private $tmp/no-libsystemd.sh" DM_UDISKS=only \
    dm_run "$out" "$err" --modes read --tests SEQ1M_Q8T1 --count 1 --duration 1 --warmup 0 \
    --size 32MiB --quiet --no-history "$loop"
  dm_check "without libsystemd, DM_UDISKS=only fails (exit $DM_RC)" test "$DM_RC" = 1
  dm_check "... in one line" dm_one_line_error "$err"
  dm_check "... saying libsystemd.so.0 cannot be loaded, not that udisks2 is not running" \
    grep -qF "diskmeter-cli: cannot open $loop: the disk needs root, or udisks2 asked through libsystemd.so.0, which cannot be loaded (install libsystemd0; or run as root)" "$err"
else
  dm_log "ldconfig knows no libsystemd.so.0: its absence is not checked"
fi

dm_finish
