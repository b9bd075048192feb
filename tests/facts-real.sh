#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The facts a real run reports about this machine and its disk, checked
# against what the kernel says directly: nproc, lscpu, /proc/cpuinfo's
# hypervisor flag, /sys/class/dmi/id, and the disk's queue files in
# /sys/block. Run on a KVM guest with virtio_blk, it checks KVM, vCPUs,
# virtio_blk and the virtqueue's nr_requests; elsewhere whatever is there.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"
export LANGUAGE=C LC_ALL=C.UTF-8
command -v python3 >/dev/null || dm_skip "python3 is missing"
target="$DM_TMPDIR/target"
mkdir "$target"
"$DM_CLI" --tests RND4K_Q1T1 --modes read --size 16MiB --count 1 --duration 0.2 --warmup 0 \
  --interval 0 --no-history -q --format json --output "$DM_TMPDIR/r.json" \
  --tag site=lab --tag "vcpus=override me" "$target" >"$DM_TMPDIR/out" 2>&1 \
  || { cat "$DM_TMPDIR/out"; dm_die "the run failed"; }
"$DM_CLI" show "$DM_TMPDIR/r.json" >"$DM_TMPDIR/r.txt" || dm_die "show failed"

j () { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d
for k in sys.argv[2].split("."): v=v[k]
print(v)' "$DM_TMPDIR/r.json" "$1"; }

eq ()
{
  local what="$1" got="$2" want="$3"
  dm_log "$what: report '$got', kernel '$want'"
  dm_check "$what as the kernel says" test "$got" = "$want"
}

eq "vCPUs (nproc)" "$(j system.logical_cpus)" "$(nproc)"
if command -v lscpu >/dev/null; then
  eq "sockets (lscpu)" "$(j system.sockets)" "$(lscpu | sed -n 's/^Socket(s): *//p')"
  eq "cores per socket (lscpu)" "$(j system.cores_per_socket)" \
    "$(lscpu | sed -n 's/^Core(s) per socket: *//p')"
  eq "threads per core (lscpu)" "$(j system.threads_per_core)" \
    "$(lscpu | sed -n 's/^Thread(s) per core: *//p')"
  hv="$(lscpu | sed -n 's/^Hypervisor vendor: *//p')"
  case "$hv" in
    Microsoft) hv=Hyper-V ;;
    "") grep -qw hypervisor /proc/cpuinfo || hv=none ;;
  esac
  [ -n "$hv" ] && eq "hypervisor (lscpu)" "$(j system.hypervisor)" "$hv"
fi
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -gt 0 ] && eq "NUMA nodes (/sys/devices/system/node)" "$(j system.numa_nodes)" "$nodes"
if [ -r /sys/class/dmi/id/sys_vendor ]; then
  dm_check "the machine names the DMI vendor" \
    grep -qF "$(cat /sys/class/dmi/id/sys_vendor)" <<<"$(j system.machine)"
fi

# The disk under the target, as the kernel finds it.
sys=$(realpath "/sys/dev/block/$(stat -c '%Hd:%Ld' "$target")")
[ -e "$sys/partition" ] && sys=${sys%/*}
dm_log "disk: $sys"
if [ -r "$sys/queue/nr_requests" ]; then
  eq "nr_requests" "$(j target.nr_requests)" "$(cat "$sys/queue/nr_requests")"
  eq "max_segments" "$(j target.max_segments)" "$(cat "$sys/queue/max_segments")"
  eq "hardware queues (mq/*)" "$(j target.hw_queues)" "$(ls -d "$sys"/mq/[0-9]* 2>/dev/null | wc -l)"
  want=$(cat "$sys/device/queue_depth" 2>/dev/null || cat "$sys/queue/nr_requests")
  eq "queue depth" "$(j target.queue_depth)" "$want"
  drv=$(basename "$(realpath "$sys/device/driver" 2>/dev/null)" 2>/dev/null)
  [ -n "$drv" ] && [ "$drv" != sd ] && eq "driver (device/driver)" "$(j target.driver)" "$drv"
  eq "the tag queue_depth" "$(j tags.queue_depth)" "$want"
else
  dm_skip_part "the target's filesystem has no block device of its own here"
fi
eq "the user's tag" "$(j tags.site)" "lab"
eq "the user's tag overrides the fact" "$(j tags.vcpus)" "override me"
dm_check "show prints the machine line" grep -q "^Machine: $(j system.hypervisor)" "$DM_TMPDIR/r.txt"
dm_check "show prints the user's tags" grep -qx "   Tags: vcpus=override me, site=lab" "$DM_TMPDIR/r.txt"

dm_finish
