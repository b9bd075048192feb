#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli.exe --list-targets under Wine: drives as Windows reports
# them. A private Wine prefix (sharing drive C: with the test prefix) gets
# three drive letters: a network drive, a removable one with a label, and
# a read-only one, so that each comes back with its kind, label and
# whether a test file can be created there. Wine has no physical disks to
# offer and no mapped shares behind a network drive, so the UNC path and
# \\.\PhysicalDriveN are left to a real Windows.
set -uo pipefail

: "${DM_CLI:?}" "${DM_BUILD_ROOT:?}"
wine=${DM_WINE-wine}
failures=0
checks=0

skip() { echo "SKIP: $*"; exit 77; }
[ -n "$wine" ] || skip "not under Wine: drive letters are made by Wine's registry here"
command -v "$wine" >/dev/null || skip "no $wine"
[ -n "${WINEPREFIX:-}" ] && [ -f "$WINEPREFIX/system.reg" ] \
  || skip "no Wine prefix in WINEPREFIX (build-aux/test-windows makes one)"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON list"
[ "$(id -u)" = 0 ] || skip "not root: the read-only drive is a read-only bind mount"

scratch=$(mktemp -d "$DM_BUILD_ROOT/discovery-windows.XXXXXX")
prefix="$scratch/prefix"
ro_mounted=
cleanup() {
  WINEPREFIX="$prefix" wineserver -k >/dev/null 2>&1
  [ -n "$ro_mounted" ] && umount "$scratch/ro"
  rm -rf --one-file-system "$scratch"
}
trap cleanup EXIT

# The test prefix's registry and drive C:, but drive letters and a
# wineserver of its own, so the registry's drive types are read afresh and
# nothing changes for the other tests.
mkdir -p "$prefix/dosdevices" "$scratch/net" "$scratch/stick" "$scratch/ro"
cp "$WINEPREFIX"/*.reg "$prefix/"
ln -s "$WINEPREFIX/drive_c" "$prefix/drive_c"
ln -s ../drive_c "$prefix/dosdevices/c:"
ln -s / "$prefix/dosdevices/z:"
ln -s "$scratch/net" "$prefix/dosdevices/m:"
ln -s "$scratch/stick" "$prefix/dosdevices/n:"
ln -s "$scratch/ro" "$prefix/dosdevices/o:"
# Wine reads a drive's label from this file in its root.
echo "DM STICK" > "$scratch/stick/.windows-label"
echo "DM RO" > "$scratch/ro/.windows-label"
mount --bind "$scratch/ro" "$scratch/ro" && ro_mounted=1 \
  && mount -o remount,bind,ro "$scratch/ro" || skip "cannot make a read-only bind mount here"

export WINEPREFIX="$prefix" WINEDEBUG=-all
for v in "m: network" "n: floppy"; do
  # Wine's helper processes start with the first program: on /dev/null.
  "$wine" reg add 'HKLM\Software\Wine\Drives' /v "${v% *}" /d "${v#* }" /f \
    </dev/null >/dev/null 2>&1 || skip "wine reg add failed"
done
# Drive types are read when the wineserver starts: let this one end.
wineserver -w

json="$scratch/targets.json"
text="$scratch/targets.txt"
"$wine" "$DM_CLI" --list-targets --format json </dev/null >"$json" 2>/dev/null
rc=$?
"$wine" "$DM_CLI" --list-targets </dev/null >"$text" 2>/dev/null
sed 's/^/#   /' "$text"

check ()
{
  checks=$((checks + 1))
  if python3 - "$json" "$2" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
by_path = {e["path"]: e for e in t}
ok = eval(sys.argv[2])
if not ok:
    for e in t:
        print("#   %s" % json.dumps(e))
sys.exit(0 if ok else 1)
EOF
  then echo "ok $checks - $1"
  else echo "not ok $checks - $1"; failures=$((failures + 1))
  fi
}

checks=$((checks + 1))
if [ "$rc" = 0 ]; then echo "ok $checks - --list-targets --format json exits 0"
else echo "not ok $checks - --list-targets --format json exits $rc"; failures=$((failures + 1)); fi

keys='["path", "kind", "filesystem", "label", "model", "bus", "size_bytes", "free_bytes", "writable"]'
check "an array of objects with every key" "t and all(all(k in e for k in $keys) for e in t)"
check "C: is a local drive with a filesystem and room" \
  "by_path.get('C:', {}).get('kind') == 'local' and by_path['C:']['filesystem'] and by_path['C:']['free_bytes'] > 0"
check "C: is writable" "by_path.get('C:', {}).get('writable') is True"
check "M: (a network drive) is listed as network" "by_path.get('M:', {}).get('kind') == 'network'"
check "M: is on the network bus" "by_path.get('M:', {}).get('bus') == 'network'"
check "N: (a floppy-type drive) is listed as removable" "by_path.get('N:', {}).get('kind') == 'removable'"
check "N: has its label" "by_path.get('N:', {}).get('label') == 'DM STICK'"
check "N: is writable" "by_path.get('N:', {}).get('writable') is True"
check "O: (read-only) is listed with its label" "by_path.get('O:', {}).get('label') == 'DM RO'"
check "O: is not writable" "by_path.get('O:', {}).get('writable') is False"
check "no physical disk is offered where none can be opened" \
  "not any(e['kind'] == 'device' for e in t) or all(e['path'].startswith('\\\\\\\\.\\\\PhysicalDrive') for e in t if e['kind'] == 'device')"
checks=$((checks + 1))
if ls "$scratch/net" "$scratch/stick" | grep -q 'diskmeter-'; then
  echo "not ok $checks - the writable probes left a file behind"; failures=$((failures + 1))
else echo "ok $checks - the writable probes left no file behind"; fi
checks=$((checks + 1))
if grep -q '^N:\\ *removable ' "$text"; then echo "ok $checks - the text table lists N: as removable"
else echo "not ok $checks - the text table lists N: as removable"; failures=$((failures + 1)); fi

if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures of $checks checks failed"
  exit 1
fi
echo "PASS: $checks checks"
