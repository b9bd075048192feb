#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Which machine and adapter diskmeter-cli.exe says a result came from,
# against what the host says itself: under Wine, CPUID is the host CPU's
# and the topology, NUMA nodes and memory are Wine's view of the host's
# /sys and /proc, so the report must match nproc, lscpu, /sys and
# /proc/meminfo, and the text's Machine: line must say the same. Wine's
# disks sit behind no storage adapter: with pvscsi's DriverParameter
# planted in the test's own Wine prefix, a report must still claim no
# controller, DriverParameter or queue depth for them, nor advice from
# them: a result has advice only where its flags and the facts agree. On
# Windows itself the facts are printed, not judged.
set -uo pipefail

: "${DM_CLI:?}" "${DM_BUILD_ROOT:?}"
wine=${DM_WINE-wine}
failures=0
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
skipped=()
skip_part() { echo "  (skipped: $*)"; skipped+=("$*"); }

if [ -n "$wine" ]; then
  command -v "$wine" >/dev/null || skip "no $wine"
  [ -n "${WINEPREFIX:-}" ] || skip "WINEPREFIX is not set (build-aux/test-windows sets it)"
  export WINEDEBUG=${WINEDEBUG:--all}
fi
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"

scratch=$(mktemp -d "$DM_BUILD_ROOT/windows-facts.XXXXXX")
planted=""
pvkey='HKLM\SYSTEM\CurrentControlSet\Services\pvscsi'
cleanup() {
  [ -n "$planted" ] && "$wine" reg delete "$pvkey" /f >/dev/null 2>&1
  rm -rf "$scratch"
}
trap cleanup EXIT

winpath() {
  if [ -n "$wine" ]; then
    local p=${1//\//\\}
    printf 'Z:%s' "$p"
  else
    cygpath -w "$1"
  fi
}
run_win() { ${wine:+"$wine"} "$@"; }
# j FILE KEY.SUB: one member of a report.
j() {
  python3 -c 'import json, sys
v = json.load(open(sys.argv[1], encoding="utf-8"))
for k in sys.argv[2].split("."):
    v = v.get(k, "") if isinstance(v, dict) else ""
print(v)' "$1" "$2"
}
eq() {
  echo "  $1: report '$2', host '$3'"
  [ "$2" = "$3" ] || fail "$1: the report says '$2', the host '$3'"
}
# advice FILE: every result's advice agrees with the facts: one only for a
# result flagged host_bound or queue_not_held (or whose device queue is
# shorter than Q x T), naming the driver the facts name; none where the
# facts name no controller. Prints each result's flags and advice.
advice() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
t = r["target"]
bad = 0
for res in r["results"]:
    a, flags = res.get("advice"), res.get("flags", [])
    asked = res["queue_depth"] * res["threads"]
    limit = (res.get("device") or {}).get("queue_limit", 0)
    print("  %s %s: flags %s, advice %s" % (res["test"], res["mode"], flags,
                                            a["sentence"] if a else "none"))
    if a is None:
        continue
    if not (set(flags) & {"host_bound", "queue_not_held"} or 0 < limit < asked):
        print("  FAIL: advice for a result neither flagged nor queue-limited"); bad += 1
    if not t.get("controller") or (" %s admits " % t.get("driver")) not in a["sentence"]:
        print("  FAIL: advice names no driver of the facts (%r, %r)" % (t.get("driver"), t.get("controller"))); bad += 1
    if not a.get("setting") or not a.get("source"):
        print("  FAIL: advice without its setting or source"); bad += 1
sys.exit(1 if bad else 0)' "$1" || fail "the advice in $(basename "$1") disagrees with its facts"
}

run_once() {
  run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 16MiB --duration 0.3 --warmup 0 \
    --interval 0 --format json --output "$(winpath "$1")" "$(winpath "$scratch")" \
    >"$scratch/run.log" 2>&1 || { fail "the run exited with $?"; sed 's/^/    /' "$scratch/run.log"; }
}

echo "/windows/facts/machine"
run_once "$scratch/r.json"
[ -f "$scratch/r.json" ] || { fail "no report"; exit 1; }
r=$scratch/r.json
if [ -z "$wine" ]; then
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["system"]); print(r["target"])' "$r"
else
  eq "vCPUs (online CPUs)" "$(j "$r" system.logical_cpus)" "$(getconf _NPROCESSORS_ONLN)"
  if command -v lscpu >/dev/null; then
    eq "sockets (lscpu)" "$(j "$r" system.sockets)" "$(lscpu | sed -n 's/^Socket(s): *//p')"
    eq "cores per socket (lscpu)" "$(j "$r" system.cores_per_socket)" \
      "$(lscpu | sed -n 's/^Core(s) per socket: *//p')"
    eq "threads per core (lscpu)" "$(j "$r" system.threads_per_core)" \
      "$(lscpu | sed -n 's/^Thread(s) per core: *//p')"
    # CPUID passes through Wine: the host's hypervisor is the report's.
    hv="$(lscpu | sed -n 's/^Hypervisor vendor: *//p')"
    case "$hv" in
      Microsoft) hv=Hyper-V ;;
      "") grep -qw hypervisor /proc/cpuinfo || hv=none ;;
    esac
    [ -n "$hv" ] && eq "hypervisor (lscpu, CPUID)" "$(j "$r" system.hypervisor)" "$hv"
  else
    skip_part "no lscpu for sockets, cores and the hypervisor"
  fi
  nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
  [ "$nodes" -gt 0 ] && eq "NUMA nodes (/sys/devices/system/node)" "$(j "$r" system.numa_nodes)" "$nodes"
  mem=$(j "$r" system.memory_bytes)
  host=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
  echo "  memory: report $mem, /proc/meminfo $host"
  awk -v a="$mem" -v b="$host" 'BEGIN { exit !(a > 0.99 * b && a < 1.01 * b) }' ||
    fail "memory $mem is not /proc/meminfo's $host within 1 %"
  # Wine builds its SMBIOS table from the host's DMI strings: the report
  # reads them back through GetSystemFirmwareTable.
  if [ -r /sys/class/dmi/id/sys_vendor ] && [ -s /sys/class/dmi/id/sys_vendor ]; then
    vendor=$(cat /sys/class/dmi/id/sys_vendor)
    echo "  machine: report '$(j "$r" system.machine)', DMI vendor '$vendor'"
    grep -qF -- "$vendor" <<<"$(j "$r" system.machine)" || fail "the machine does not name the DMI vendor"
  else
    skip_part "the host has no DMI strings for Wine's SMBIOS table"
  fi
fi

# Advice only where the facts name a controller whose queue is short.
echo "/windows/facts/advice"
advice "$r"

# The text says the same, as the settings of a VM would.
echo "/windows/facts/machine-line"
text=$(run_win "$DM_CLI" show "$(winpath "$r")" 2>/dev/null | tr -d '\r')
line=$(grep '^Machine: ' <<<"$text")
echo "  $line"
s=$(j "$r" system.sockets) c=$(j "$r" system.cores_per_socket) t=$(j "$r" system.threads_per_core)
want="Machine: $(j "$r" system.hypervisor), $(j "$r" system.logical_cpus) vCPU"
[[ "$line" == "$want"* ]] || fail "the Machine: line does not start '$want'"
[[ "$line" == *"($s socket"*" x $c core"*" x $t thread"* ]] || fail "the Machine: line lacks $s x $c x $t"

# pvscsi's settings where no disk is behind pvscsi: nothing of them is
# claimed for the target (Wine has no SCSI address for its drives).
echo "/windows/facts/no-adapter"
if [ -z "$wine" ]; then
  skip_part "planting a DriverParameter is done in a Wine prefix only"
elif [[ "$(realpath "$WINEPREFIX")" != "$(realpath "$DM_BUILD_ROOT")"/* ]]; then
  skip_part "WINEPREFIX is not the build folder's own: its registry is left alone"
elif "$wine" reg query "$pvkey" >/dev/null 2>&1; then
  skip_part "the Wine prefix has a pvscsi key of its own"
else
  planted=1
  "$wine" reg add "$pvkey\\Parameters\\Device" /v DriverParameter /t REG_SZ \
    /d "RequestRingPages=32,MaxQueueDepth=254" /f >/dev/null 2>&1 || fail "reg add failed"
  got=$("$wine" reg query "$pvkey\\Parameters\\Device" /v DriverParameter 2>/dev/null | tr -d '\r')
  grep -q "MaxQueueDepth=254" <<<"$got" || fail "the planted DriverParameter does not read back: $got"
  run_once "$scratch/pv.json"
  eq "controller" "$(j "$scratch/pv.json" target.controller)" ""
  eq "DriverParameter" "$(j "$scratch/pv.json" target.driver_params)" ""
  eq "queue depth (unknown)" "$(j "$scratch/pv.json" target.queue_depth)" "0"
  # pvscsi's settings are in the registry, but no disk is behind pvscsi:
  # no advice may speak of it.
  advice "$scratch/pv.json"
  grep -q '^ Advice: ' <<<"$(run_win "$DM_CLI" show "$(winpath "$scratch/pv.json")" 2>/dev/null)" &&
    fail "the text gives advice for a drive behind no adapter"
  grep -q '^Adapter: ' <<<"$(run_win "$DM_CLI" show "$(winpath "$scratch/pv.json")" 2>/dev/null)" &&
    fail "the text has an Adapter: line for a drive behind no adapter"
  "$wine" reg delete "$pvkey" /f >/dev/null 2>&1 && planted=""
fi

if [ $failures -gt 0 ]; then
  echo "$failures checks failed"
  exit 1
fi
# A part this host cannot show is named, and the rest still counts: the
# windows suite is gated, so a whole-test skip fails the machine's run for
# want of DMI strings, which a container never has.
if [ ${#skipped[@]} -gt 0 ]; then
  printf '# not checked here: %s\n' "${skipped[@]}"
fi
echo "all passed"
