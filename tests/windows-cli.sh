#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli.exe end to end, under Wine in the MinGW-w64 cross build (or
# directly in an MSYS2 shell on Windows). Proves correctness, not speed:
# an iocp run at queue depths above 1 gives a complete JSON report with
# real figures, a drive letter and a folder with a non-ASCII name work, a
# drive without room is refused before anything is written, neither a
# run, nor Ctrl-C, nor a killed process leaves its test file behind (under
# any name, nor the space it took), a link into the Windows folder is
# refused and one elsewhere named, compare --format xlsx writes a
# workbook openpyxl reads with the JSON's figures, and a report under Wine
# says that the queue asked never reached the device (queue_not_held) and
# that the device's await is not counted;
# a study runs, resumes and shows its sheet.
set -uo pipefail

: "${DM_CLI:?}" "${DM_WIN_PLATFORM_TEST:?}" "${DM_WINE_OVERLAPPED:?}" "${DM_BUILD_ROOT:?}"
wine=${DM_WINE-wine}
failures=0

fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
# A part this machine cannot run: the rest still runs, then the test ends
# as skipped (77) and names the part, unless something failed.
skipped=()
skip_part() { echo "  (skipped: $*)"; skipped+=("$*"); }

if [ -n "$wine" ]; then
  command -v "$wine" >/dev/null || skip "no $wine"
  [ -n "${WINEPREFIX:-}" ] || skip "WINEPREFIX is not set (build-aux/test-windows sets it)"
  export WINEDEBUG=${WINEDEBUG:--all}
fi
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
# The system's Python, where build-aux/dev installs python3-openpyxl: a
# version manager's python3 earlier on PATH may not have it.
if [ -x /usr/bin/python3 ]; then
  python3() { /usr/bin/python3 "$@"; }
fi

scratch=$(mktemp -d "$DM_BUILD_ROOT/windows-cli.XXXXXX")
pids=()
mounts=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$scratch"
}
trap cleanup EXIT

# A Unix path as the Windows program sees it: Wine maps / to Z:.
winpath() {
  if [ -n "$wine" ]; then
    local p=${1//\//\\}
    printf 'Z:%s' "$p"
  else
    cygpath -w "$1"
  fi
}

# Foreground only: started in the background through a function, $! would
# be a subshell that a signal does not pass through.
run_win() { ${wine:+"$wine"} "$@"; }

# The folders the runs test sit on a tmpfs of this test's own where it can
# mount one (root, under Wine), so that the space in use there is the runs'
# alone; elsewhere in the scratch folder, where only names can tell.
vol="$scratch/vol"
mkdir -p "$vol"
vol_used() { :; }
if [ -n "$wine" ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=512m diskmeter-test "$vol"; then
  mounts+=("$vol")
  vol_used() { stat -f -c '%b %f %S' "$vol" | awk '{ printf "%.0f\n", ($1 - $2) * $3 }'; }
else
  skip_part "space given back: a tmpfs of its own is mounted as root under Wine only"
fi

# new_names DIR: the names in DIR but the report the test asked for. The
# test file is named while it is open (FILE_FLAG_DELETE_ON_CLOSE removes it
# with the last handle), but what a run must not leave is any name at all.
new_names() { ls -A "$1" | grep -v -x -e report.json; }

# check_json FILE MIN_RESULTS: a complete iocp run with real figures.
check_json() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
path, want = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    r = json.load(f)
errors = []
if r.get("backend") != "iocp":
    errors.append("backend is %r, not iocp" % r.get("backend"))
if r.get("status") != "complete":
    errors.append("status is %r (%s)" % (r.get("status"), r.get("error")))
res = r.get("results", [])
if len(res) < want:
    errors.append("%d results, expected at least %d" % (len(res), want))
for x in res:
    name = "%s %s" % (x.get("test"), x.get("mode"))
    if x.get("status") != "complete":
        errors.append("%s: status %r (%s)" % (name, x.get("status"), x.get("error")))
    if not x.get("mb_per_s", 0) > 0:
        errors.append("%s: mb_per_s %r" % (name, x.get("mb_per_s")))
    if x.get("queue_depth", 0) > 1 and not x.get("iops", 0) > 0:
        errors.append("%s: iops %r" % (name, x.get("iops")))
    print("  %-12s %-5s %10.2f MB/s %10.0f IOPS" % (x.get("test"), x.get("mode"),
          x.get("mb_per_s", 0), x.get("iops", 0)))
if not r.get("system", {}).get("os"):
    errors.append("no system.os")
print("  os: %s / %s" % (r.get("system", {}).get("os"), r.get("system", {}).get("kernel")))
for e in errors:
    print("  FAIL: " + e)
sys.exit(1 if errors else 0)
EOF
}

# wait_for_file DIR SECONDS: until the run's test file appears.
wait_for_file() {
  for _ in $(seq $(($2 * 10))); do
    [ -n "$(new_names "$1")" ] && return 0
    sleep 0.1
  done
  return 1
}

# wait_gone DIR USED_BEFORE SECONDS: until no name but the report is left
# in DIR and the space in use on the test's tmpfs is back within 1 MiB of
# USED_BEFORE (vol_used before the run; empty where there is no tmpfs). A
# test file is 16 MiB. Says what is left if anything.
wait_gone() {
  local names used
  for _ in $(seq $(($3 * 10))); do
    names=$(new_names "$1")
    used=$(vol_used)
    [ -z "$names" ] && { [ -z "$2" ] || [ "$used" -le $(($2 + (1 << 20))) ]; } && return 0
    sleep 0.1
  done
  echo "  left in $1:${names:+ $(echo $names)}${2:+ $((used - $2)) bytes more in use than before}"
  return 1
}

# The drives the window offers: GetLogicalDriveStringsW and friends.
echo "/windows/cli/list-targets"
out=$(run_win "$DM_CLI" --list-targets 2>/dev/null | tr -d '\r')
echo "$out" | sed 's/^/  /'
echo "$out" | grep -q '^C:\\ .*NTFS' || fail "drive C: (NTFS) is not listed"

echo "/windows/cli/json-iocp-qd"
dir="$vol/plain"
mkdir -p "$dir"
used0=$(vol_used)
# RND4K_Q8T4: four workers, four completion ports, one file.
run_win "$DM_CLI" --tests SEQ1M_Q8T1,RND4K_Q32T1,RND4K_Q8T4 --count 1 --size 16MiB --duration 1 \
  --warmup 0 --interval 0 --format json --output "$(winpath "$dir/report.json")" \
  "$(winpath "$dir")" >"$scratch/plain.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { fail "exit status $rc"; sed 's/^/    /' "$scratch/plain.log"; }
if [ -f "$dir/report.json" ]; then
  check_json "$dir/report.json" 6 || fail "report of the plain folder"
else
  fail "no report.json"
fi
wait_gone "$dir" "$used0" 5 || fail "the run left its test file"

# The saved run printed again: the same JSON, byte for byte, and the text
# with its figures.
echo "/windows/cli/show"
if [ -f "$dir/report.json" ]; then
  run_win "$DM_CLI" show "$(winpath "$dir/report.json")" --format json \
    --output "$(winpath "$scratch/shown.json")" >"$scratch/show.log" 2>&1 ||
    { fail "show exited with $?"; sed 's/^/    /' "$scratch/show.log"; }
  cmp -s "$dir/report.json" "$scratch/shown.json" || fail "show --format json changed the report"
  run_win "$DM_CLI" show "$(winpath "$dir/report.json")" 2>/dev/null | tr -d '\r' \
    | grep -q 'SEQ    1MiB (Q=  8, T= 1):' || fail "show printed no SEQ1M_Q8T1 line"
fi

# Two folders at the same moment (--concurrent): each target complete with
# its own figures, a total of their sums, no test file left in either.
echo "/windows/cli/concurrent"
ce="$vol/ce" cf="$vol/cf"
mkdir -p "$ce" "$cf"
used0=$(vol_used)
run_win "$DM_CLI" --tests SEQ1M_Q8T1 --modes read --count 2 --size 16MiB --duration 0.5 \
  --warmup 0.2 --interval 0 --no-history --format json --output "$(winpath "$ce/report.json")" \
  "$(winpath "$ce")" --concurrent "$(winpath "$cf")" >"$scratch/concurrent.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { fail "concurrent: exit status $rc"; sed 's/^/    /' "$scratch/concurrent.log"; }
if [ -f "$ce/report.json" ]; then
  python3 - "$ce/report.json" <<'EOF' || fail "concurrent: the report"
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    c = json.load(f)["concurrent"]
t, total = c["targets"], c["total"]["results"][0]
errors = []
if len(t) != 2:
    errors.append("%d targets, not 2" % len(t))
for r in t:
    x = r["results"][0]
    print("  %s: %.2f MB/s, runs %s" % (r["target"]["path"], x["mb_per_s"], [y["mb_per_s"] for y in x["runs"]]))
    if r["status"] != "complete" or not x["mb_per_s"] > 0:
        errors.append("%s: status %s, %r MB/s" % (r["target"]["path"], r["status"], x["mb_per_s"]))
want = max(sum(r["results"][0]["runs"][k]["mb_per_s"] for r in t) for k in range(2))
print("  total: %.3f MB/s (best window's sum %.3f)" % (total["mb_per_s"], want))
if abs(total["mb_per_s"] - want) > 0.002:
    errors.append("total %r, not the best window's sum %r" % (total["mb_per_s"], want))
for e in errors:
    print("  FAIL: " + e)
sys.exit(1 if errors else 0)
EOF
else
  fail "concurrent: no report.json"
fi
wait_gone "$ce" "" 5 || fail "concurrent: a test file left in the first folder"
wait_gone "$cf" "" 5 || fail "concurrent: a test file left in the second folder"
[ -z "$used0" ] || [ "$(vol_used)" -le $((used0 + (2 << 20))) ] \
  || fail "concurrent: the test files' space did not come back"

# Wine reads and writes a regular file inside ReadFile and WriteFile, in the
# calling thread, and only then says ERROR_IO_PENDING: each thread holds
# one I/O at a time however many it posts. The backend sees the OVERLAPPED
# already done as the call returns, so the report must say the system held
# about one I/O per thread (os_queue) and flag every test that asked for
# more than twice that (queue_not_held), in JSON and in the text; a test at
# QD 1 is not flagged. On Windows itself the figure is printed, not judged.
# check_queue FILE: those facts of one report.
check_queue() {
  python3 - "$1" "${wine:+wine}" <<'EOF'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    r = json.load(f)
under_wine = len(sys.argv) > 2 and sys.argv[2] == "wine"
errors = []
for x in r.get("results", []):
    name = "%s %s" % (x.get("test"), x.get("mode"))
    qd, t = x.get("queue_depth", 0), x.get("threads", 0)
    held, flags = x.get("os_queue"), x.get("flags", [])
    print("  %-12s %-5s os_queue %s of %d, flags %s" % (x.get("test"), x.get("mode"), held, qd * t, flags))
    if held is None:
        errors.append("%s: no os_queue" % name)
        continue
    if ("queue_not_held" in flags) != (held < 0.5 * qd * t):
        errors.append("%s: queue_not_held %s with os_queue %s of %d" % (name, flags, held, qd * t))
    if under_wine and held > t + 0.01:
        errors.append("%s: os_queue %s, more than one per thread under Wine" % (name, held))
    if under_wine and (qd >= 4) != ("queue_not_held" in flags):
        errors.append("%s: QD %d under Wine, flags %s" % (name, qd, flags))
for e in errors:
    print("  FAIL: " + e)
sys.exit(1 if errors else 0)
EOF
}

echo "/windows/cli/queue-not-held"
if [ -f "$vol/plain/report.json" ]; then
  check_queue "$vol/plain/report.json" || fail "the plain folder's report misstates the queue"
  if [ -n "$wine" ]; then
    n=$(run_win "$DM_CLI" show "$(winpath "$vol/plain/report.json")" 2>/dev/null | tr -d '\r' \
      | grep -c 'queue not held: the system held [0-9.]* of the [0-9]* I/Os asked')
    [ "$n" -eq 6 ] || fail "the text report has $n queue-not-held lines, not 6"
  fi
fi

# Each direction's await and the part above the device come from
# IOCTL_DISK_PERFORMANCE, which Wine does not answer: under Wine they say
# "not counted" (no device object in JSON, a line per test in --latency,
# empty cells in CSV's last columns), never a 0; on Windows a read test's
# r_await is a figure where the volume keeps counters.
echo "/windows/cli/await-not-counted"
if [ -f "$vol/plain/report.json" ]; then
  python3 - "$vol/plain/report.json" "${wine:+wine}" <<'PY' || fail "the plain folder's report misstates the await"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
under_wine = len(sys.argv) > 2 and sys.argv[2] == "wine"
bad = []
for x in r["results"]:
    d = x.get("device")
    print("  %-12s %-5s device %s" % (x["test"], x["mode"], None if d is None else
          {k: d.get(k) for k in ("read_await_us", "write_await_us", "read_guest_us", "write_guest_us")}))
    if under_wine and d is not None:
        bad.append("%s %s: a device object under Wine" % (x["test"], x["mode"]))
    if not under_wine and d is not None and x["mode"] == "read" and not (d.get("read_await_us") or 0) > 0:
        bad.append("%s read: counters but no r_await" % x["test"])
for b in bad:
    print("  FAIL: " + b)
sys.exit(1 if bad else 0)
PY
  if [ -n "$wine" ]; then
    n=$(run_win "$DM_CLI" show --latency "$(winpath "$vol/plain/report.json")" 2>/dev/null | tr -d '\r' \
      | grep -c '^  \(Read\|Write\) at the device: [rw]_await not counted, nor the part above it$')
    [ "$n" -eq 6 ] || fail "the --latency text has $n await-not-counted lines, not 6"
    run_win "$DM_CLI" show --format csv "$(winpath "$vol/plain/report.json")" 2>/dev/null | tr -d '\r' \
      | python3 -c 'import csv, sys
rows = list(csv.reader(sys.stdin))
ok = rows[0][-4:] == ["device_read_await_us", "device_write_await_us", "guest_read_us", "guest_write_us"] \
     and len(rows) == 7 and all(r[-4:] == ["", "", "", ""] for r in rows[1:])
print("  csv", rows[0][-4:], [r[-4:] for r in rows[1:2]])
sys.exit(0 if ok else 1)' || fail "CSV's await cells under Wine are not empty"
  fi
fi
# The same on slow-fs (reads of 10 ms, 4 at once: 400 a second from QD 4
# up): what wine-overlapped sees of four reads posted at once, printed for
# the README, and diskmeter-cli's RND4K at QD 4 and 1.
if [ -z "$wine" ]; then
  skip_part "slow-fs: a FUSE device under Wine only"
elif [ -z "${DM_SLOW_FS:-}" ]; then
  skip_part "slow-fs: not built (the cross build needs libfuse3-dev for the build machine)"
elif [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
  skip_part "slow-fs: mounting a FUSE file system needs root and /dev/fuse"
else
  slow="$scratch/slow"
  mkdir -p "$slow"
  "$DM_SLOW_FS" "$slow" 10000 4 2>"$scratch/slow-fs.log" &
  pids+=("$!")
  for _ in $(seq 50); do mountpoint -q "$slow" && break; sleep 0.1; done
  if ! mountpoint -q "$slow"; then
    fail "slow-fs did not mount: $(head -c 300 "$scratch/slow-fs.log")"
  else
    mounts=("$slow" "${mounts[@]}")
    dd if=/dev/urandom of="$slow/probe" bs=64k count=4 status=none
    out=$(run_win "$DM_WINE_OVERLAPPED" "$(winpath "$slow/probe")" 4 2>&1 | tr -d '\r')
    echo "$out" | sed 's/^/  /'
    echo "$out" | grep -q '^posted 4 sync [0-9]' || fail "wine-overlapped did not finish its four reads"
    rm -f "$slow/probe"
    run_win "$DM_CLI" --tests RND4K_Q4T1,RND4K_Q1T1 --count 1 --size 16MiB --duration 1 \
      --warmup 0.2 --interval 0 --no-history --format json \
      --output "$(winpath "$scratch/slow.json")" "$(winpath "$slow")" >"$scratch/slow.log" 2>&1 ||
      { fail "the run on slow-fs exited with $?"; sed 's/^/    /' "$scratch/slow.log"; }
    if [ -f "$scratch/slow.json" ]; then
      check_queue "$scratch/slow.json" || fail "the slow-fs report misstates the queue"
    else
      fail "no report from slow-fs"
    fi
    # Wine's server may hold the test file a moment after the program ends.
    for _ in $(seq 50); do umount "$slow" 2>/dev/null && break; sleep 0.1; done
    mountpoint -q "$slow" && umount -l "$slow"
  fi
fi

echo "/windows/cli/non-ascii-folder"
dir="$vol/Prüfung-диск-測試"
mkdir -p "$dir"
used0=$(vol_used)
export LANG=C.UTF-8 LC_ALL=C.UTF-8
run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 16MiB --duration 0.5 \
  --warmup 0 --interval 0 --format json --output "$(winpath "$dir/report.json")" \
  "$(winpath "$dir")" >"$scratch/utf8.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { fail "exit status $rc"; sed 's/^/    /' "$scratch/utf8.log"; }
if [ -f "$dir/report.json" ]; then
  check_json "$dir/report.json" 2 || fail "report of the non-ASCII folder"
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1],encoding="utf-8"))["target"]["path"]; sys.exit(0 if "Prüfung-диск-測試" in p else 1)' \
    "$dir/report.json" || fail "target path in the report lost its name"
else
  fail "no report.json in the non-ASCII folder"
fi
wait_gone "$dir" "$used0" 5 || fail "the run left its test file"

# A bare drive letter means the drive's root, as users type "E:". Under
# Wine C: is the prefix's drive_c, inside the build folder.
echo "/windows/cli/drive-letter"
if [ -n "$wine" ] && [ -d "$WINEPREFIX/drive_c" ]; then
  ls -A "$WINEPREFIX/drive_c" > "$scratch/drive_c.before"
  run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 16MiB --duration 0.5 --warmup 0 \
    --interval 0 --format json --output "$(winpath "$scratch/drive.json")" C: \
    >"$scratch/drive.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || { fail "exit status $rc"; sed 's/^/    /' "$scratch/drive.log"; }
  if [ -f "$scratch/drive.json" ]; then
    check_json "$scratch/drive.json" 2 || fail "report of drive C:"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1],encoding="utf-8")); t=r["test_file"]; print("  test file:", t); sys.exit(0 if t.upper().startswith("C:\\DISKMETER-") else 1)' \
      "$scratch/drive.json" || fail "the test file was not in the root of C:"
  else
    fail "no report for drive C:"
  fi
  ls -A "$WINEPREFIX/drive_c" > "$scratch/drive_c.after"
  diff "$scratch/drive_c.before" "$scratch/drive_c.after" | sed 's/^/    /'
  cmp -s "$scratch/drive_c.before" "$scratch/drive_c.after" || fail "the run left a name in C:\\"
fi

# A TARGET reached through a link (a symlink Wine shows as a reparse
# point, as a junction is on Windows): into the Windows folder it is
# refused before a test file is made there; into a folder of ours it is
# measured, and the report names the folder GetFinalPathNameByHandleW
# says it really is.
echo "/windows/cli/link"
if [ -n "$wine" ] && [ -d "$WINEPREFIX/drive_c/windows/temp" ]; then
  ln -sfn ../../windows/temp "$WINEPREFIX/drive_c/users/Public/dm-link"
  ls -A "$WINEPREFIX/drive_c/windows/temp" > "$scratch/temp.before"
  out=$(run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 16MiB --duration 0.5 --warmup 0 \
    --interval 0 --no-history 'C:\users\Public\dm-link' 2>&1 | tr -d '\r')
  rc=$?
  [ $rc -eq 1 ] || fail "a link into C:\\windows: exit status $rc, not 1"
  rm -f "$WINEPREFIX/drive_c/users/Public/dm-link"
  echo "$out" | grep -qi 'leads to C:\\windows\\temp, inside the system folder C:\\windows' \
    || fail "a link into C:\\windows was not refused as such: $out"
  [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "the refusal is not one line: $out"
  ls -A "$WINEPREFIX/drive_c/windows/temp" > "$scratch/temp.after"
  cmp -s "$scratch/temp.before" "$scratch/temp.after" \
    || fail "a name was left in C:\\windows\\temp: $(diff "$scratch/temp.before" "$scratch/temp.after" | tr '\n' ' ')"
  mkdir -p "$scratch/real"
  ln -sfn "$scratch/real" "$scratch/link"
  run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 16MiB --duration 0.5 --warmup 0 \
    --interval 0 --no-history --format json --output "$(winpath "$scratch/link.json")" \
    "$(winpath "$scratch/link")" >"$scratch/link.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || { fail "a link to a folder of ours: exit status $rc"; sed 's/^/    /' "$scratch/link.log"; }
  wait_gone "$scratch/real" "" 5 || fail "a link to a folder of ours: the run left its test file"
  python3 -c 'import json, sys
t = json.load(open(sys.argv[1], encoding="utf-8"))["target"]
print("  real path:", t["real_path"])
sys.exit(0 if t["real_path"].lower() == sys.argv[2].lower() else 1)' \
    "$scratch/link.json" "$(winpath "$scratch/real")" || fail "the report does not name the real folder"
else
  skip_part "link: made with a symlink in Wine's prefix only"
fi

# Free space as GetDiskFreeSpaceExW reports it: a 24 MiB filesystem (a
# tmpfs under Wine, which shows it as a folder of Z:) has no room for a
# 64 MiB test file, and the refusal comes before anything is written.
echo "/windows/cli/no-room"
dir="$scratch/small"
mkdir -p "$dir"
if [ -z "$wine" ]; then
  skip_part "no-room: a small drive is made as a tmpfs under Wine only"
elif [ "$(id -u)" != 0 ]; then
  skip_part "no-room: mounting its 24 MiB tmpfs needs root"
elif ! mount -t tmpfs -o size=24m diskmeter-test "$dir"; then
  fail "no-room: could not mount a 24 MiB tmpfs on $dir"
else
  mounts+=("$dir")
  out=$(run_win "$DM_CLI" --tests SEQ1M_Q8T1 --count 1 --size 64MiB --duration 0.5 \
    --warmup 0 --interval 0 "$(winpath "$dir")" 2>&1)
  rc=$?
  echo "  $out" | head -1
  [ $rc -eq 1 ] || fail "exit status $rc on a full drive, expected 1"
  echo "$out" | grep -q "not enough free space" || fail "no word of free space: $out"
  [ -z "$(ls -A "$dir")" ] || fail "something was written: $(ls -A "$dir")"
  umount "$dir"
fi

# Ctrl-C reaches a Windows console program under Wine as SIGINT, which Wine
# turns into CTRL_C_EVENT for the console handlers. (An MSYS2 shell has no
# such path to a native program, so natively this part is left out.)
echo "/windows/cli/ctrl-c"
dir="$vol/ctrl-c"
mkdir -p "$dir"
used0=$(vol_used)
if [ -z "$wine" ]; then
  skip_part "ctrl-c: an MSYS2 shell cannot send CTRL_C_EVENT to a native program"
else
  ${wine:+"$wine"} "$DM_CLI" --tests SEQ1M_Q8T1 --count 9 --size 16MiB --duration 30 \
    --warmup 0 --interval 0 --format json --output "$(winpath "$dir/report.json")" \
    "$(winpath "$dir")" >"$scratch/ctrl-c.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  if wait_for_file "$dir" 30; then
    sleep 1
    kill -INT "$pid"
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      fail "still running 15 s after Ctrl-C"
    else
      wait "$pid"
      rc=$?
      [ $rc -eq 130 ] || { fail "exit status $rc after Ctrl-C, expected 130"; sed 's/^/    /' "$scratch/ctrl-c.log"; }
      if [ -f "$dir/report.json" ]; then
        python3 -c 'import json,sys; s=json.load(open(sys.argv[1],encoding="utf-8"))["status"]; print("  report status:", s); sys.exit(0 if s=="cancelled" else 1)' \
          "$dir/report.json" || fail "report after Ctrl-C is not marked cancelled"
      else
        fail "no report written after Ctrl-C"
      fi
    fi
    wait_gone "$dir" "$used0" 10 || fail "test file left after Ctrl-C"
  else
    fail "no test file appeared"; sed 's/^/    /' "$scratch/ctrl-c.log"
  fi
fi

# A killed process runs no handler at all; FILE_FLAG_DELETE_ON_CLOSE has
# the system remove the file when it closes the dead process's handles.
echo "/windows/cli/killed"
dir="$vol/killed"
mkdir -p "$dir"
used0=$(vol_used)
${wine:+"$wine"} "$DM_CLI" --tests SEQ1M_Q8T1 --count 9 --size 16MiB --duration 30 \
  --warmup 0 --interval 0 "$(winpath "$dir")" >"$scratch/killed.log" 2>&1 &
pid=$!
pids+=("$pid")
if wait_for_file "$dir" 30; then
  sleep 1
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  wait_gone "$dir" "$used0" 10 || fail "test file left after the process was killed"
else
  fail "no test file appeared"; sed 's/^/    /' "$scratch/killed.log"
fi

# The same two at the platform level, independent of the runner.
echo "/windows/platform/killed-and-interrupted"
for sig in ${wine:+INT} KILL; do
  dir="$vol/hold-$sig"
  mkdir -p "$dir"
  used0=$(vol_used)
  ${wine:+"$wine"} "$DM_WIN_PLATFORM_TEST" --hold "$(winpath "$dir")" >"$scratch/hold.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  if wait_for_file "$dir" 30; then
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null
    wait_gone "$dir" "$used0" 10 || fail "test file left after SIG$sig"
  else
    fail "no test file appeared"; sed 's/^/    /' "$scratch/hold.log"
  fi
done

# Excel workbooks from the .exe, with libxlsxwriter cross-built from
# Debian's source (build-aux/cross-xlsxwriter, which build-aux/test-windows
# runs): two runs compared under a rule that splits their figures in two,
# read back with openpyxl as on Linux (tests/xlsx-check.py), and written a
# second time over the first, which a rename() on Windows would refuse.
echo "/windows/cli/xlsx"
dir="$scratch/xlsx"
mkdir -p "$dir/t"
if [ "${DM_XLSX:-0}" != 1 ]; then
  out=$(run_win "$DM_CLI" merge "$(winpath "$dir/a.json")" "$(winpath "$dir/b.json")" \
    --format xlsx --output "$(winpath "$dir/m.xlsx")" 2>&1 | tr -d '\r')
  echo "$out" | grep -q "without Excel support" || fail "--format xlsx refused without a reason: $out"
  skip_part "xlsx: built without libxlsxwriter (build-aux/test-windows builds it with build-aux/cross-xlsxwriter)"
elif ! python3 -c 'import openpyxl' 2>/dev/null; then
  fail "xlsx: python3-openpyxl is missing (build-aux/dev installs it)"
else
  args=(--tests SEQ1M_Q8T1,RND4K_Q8T1 --mix --count 1 --size 16MiB --duration 0.5 --warmup 0
        --interval 0 --format json --no-history)
  run_win "$DM_CLI" "${args[@]}" --comment "controller A, QD 8" \
    --output "$(winpath "$dir/one.json")" "$(winpath "$dir/t")" >"$scratch/xlsx1.log" 2>&1 ||
    { fail "the first run exited with $?"; sed 's/^/    /' "$scratch/xlsx1.log"; }
  run_win "$DM_CLI" "${args[@]}" --comment "controller B" \
    --output "$(winpath "$dir/two.json")" "$(winpath "$dir/t")" >"$scratch/xlsx2.log" 2>&1 ||
    { fail "the second run exited with $?"; sed 's/^/    /' "$scratch/xlsx2.log"; }
  rule=$(python3 -c 'import json, statistics, sys
v = [r["mb_per_s"] for f in sys.argv[1:] for r in json.load(open(f, encoding="utf-8"))["results"]]
print("MB/s green>%.3f red<%.3f" % ((statistics.median(v),) * 2))' "$dir/one.json" "$dir/two.json")
  echo "  rule: $rule"
  for round in 1 2; do
    run_win "$DM_CLI" compare "$(winpath "$dir/one.json")" "$(winpath "$dir/two.json")" \
      --threshold "$rule" --format xlsx --output "$(winpath "$dir/cmp.xlsx")" \
      >"$scratch/xlsx-cmp.log" 2>&1 ||
      { fail "compare --format xlsx (round $round) exited with $?"; sed 's/^/    /' "$scratch/xlsx-cmp.log"; }
  done
  if [ -f "$dir/cmp.xlsx" ]; then
    python3 "$(dirname "$0")/xlsx-check.py" runs "$dir/cmp.xlsx" --rule "$rule" \
      "$dir/one.json" "$dir/two.json" >"$scratch/xlsx-check.log" 2>&1 ||
      { fail "the workbook does not hold the runs' figures and fills"
        grep -v '^ok' "$scratch/xlsx-check.log" | head -n 20 | sed 's/^/    /'; }
    echo "  $(grep -c '^ok' "$scratch/xlsx-check.log") checks of cmp.xlsx passed"
  else
    fail "no cmp.xlsx"
  fi
  [ -z "$(ls "$dir" | grep '\.part$')" ] || fail "a half-written workbook was left: $(ls "$dir")"
fi

# A study: two folders, Q 1 and 2, four scenarios saved to a history of
# the test's own (%LOCALAPPDATA%), a second run measuring none of them
# again, and the sheet with a row per scenario and the plan's tags.
echo "/windows/cli/study"
dir="$scratch/study"
mkdir -p "$dir/a" "$dir/b" "$dir/appdata"
cat > "$dir/plan.ini" <<PLAN
[study]
name = wine
tests = SEQ1M
modes = read
q = 1, 2
t = 1
count = 1
size = 16MiB
duration = 0.2
warmup = 0
interval = 0
threshold = read SEQ1M MB/s green>1
[target A:]
path = $(winpath "$dir/a")
tag = controller=ctl-a
[target B:]
path = $(winpath "$dir/b")
PLAN
for round in 1 2; do
  LOCALAPPDATA="$(winpath "$dir/appdata")" run_win "$DM_CLI" study run "$(winpath "$dir/plan.ini")" \
    >"$scratch/study$round.log" 2>&1 ||
    { fail "study run (round $round) exited with $?"; sed 's/^/    /' "$scratch/study$round.log"; }
done
tr -d '\r' < "$scratch/study2.log" | grep -q 'all 4 scenarios are done' ||
  { fail "the second study run did not find the four scenarios done"; sed 's/^/    /' "$scratch/study2.log"; }
LOCALAPPDATA="$(winpath "$dir/appdata")" run_win "$DM_CLI" study show wine --format json \
  --output "$(winpath "$dir/sheet.json")" >"$scratch/study-show.log" 2>&1 ||
  { fail "study show exited with $?"; sed 's/^/    /' "$scratch/study-show.log"; }
if [ -f "$dir/sheet.json" ]; then
  python3 - "$dir/sheet.json" <<'PY' || fail "the study's sheet is not the four scenarios"
import json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
rows = j["rows"]
assert len(rows) == 4, "%d rows" % len(rows)
assert sorted((r["target"], r["q"]) for r in rows) == [("A:", 1), ("A:", 2), ("B:", 1), ("B:", 2)]
assert all(r["tags"]["controller"] == "ctl-a" for r in rows if r["target"] == "A:")
assert all(r["values"]["Read SEQ1M MB/s"] > 0 for r in rows)
assert all(r["colours"].get("Read SEQ1M MB/s") == "green" for r in rows)
PY
else
  fail "no study sheet"
fi
[ -z "$(ls -A "$dir/a")$(ls -A "$dir/b")" ] || fail "the study left files in its targets: $(ls -A "$dir/a") $(ls -A "$dir/b")"

# The .exe must run on a bare Windows Server: system DLLs only.
echo "/windows/cli/no-mingw-dlls"
if [ -n "${DM_OBJDUMP:-}" ]; then
  dlls=$("$DM_OBJDUMP" -p "$DM_CLI" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr -d '\r')
  echo "  imports: $(echo $dlls)"
  for d in $dlls; do
    case "${d,,}" in
      kernel32.dll|advapi32.dll|ntdll.dll|msvcrt.dll|ucrtbase.dll|api-ms-win-*|user32.dll|shell32.dll|ws2_32.dll) ;;
      *) fail "diskmeter-cli.exe needs $d" ;;
    esac
  done
else
  # build-aux/dev installs binutils-mingw-w64-x86-64, MSYS2 has objdump.
  fail "no objdump to list the DLLs diskmeter-cli.exe needs (DM_OBJDUMP is not set)"
fi

if [ $failures -gt 0 ]; then
  echo "$failures checks failed"
  exit 1
fi
if [ ${#skipped[@]} -gt 0 ]; then
  printf 'SKIP: %s\n' "${skipped[@]}"
  exit 77
fi
echo "all passed"
