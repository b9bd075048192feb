#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A QD x threads sweep of diskmeter-cli.exe, the iocp backend under Wine:
# its JSON carries the throttle fingerprint (sweep.rate_cap: capped or not,
# a verdict by name) and the text read back from the file says it again.
# On tests/slow-fs.c (2 ms reads, 8 at once, mounted on Linux and seen as
# a folder of Z:) Wine holds one I/O per thread whatever the queue depth
# (windows-cli.sh shows why), so throughput is flat over QD 1..8 while no
# queue was kept: the fingerprint must not call that a cap, and must say
# the queue was not held.

. "$(dirname "$0")/lib.sh"

dm_need_wine
verdicts='capped too_few_loads not_flat queue_not_held not_littles_law device_queue grows_first'

dm_tmpdir
mkdir -p "$DM_TMPDIR/plain"
out="$DM_TMPDIR/plain.json"
printf '# $ diskmeter-cli.exe sweep --qd 1,2,4,8 --threads 1,2 ... (iocp)\n'
win sweep --pattern RND --block 4K --mode read --qd 1,2,4,8 --threads 1,2 --size 16MiB \
  --duration 0.5 --warmup 0.2 --format json --quiet --output "$(winpath "$out")" \
  "$(winpath "$DM_TMPDIR/plain")" > "$DM_TMPDIR/plain.log" 2>&1
rc=$?
dm_check "/windows/sweep/exit status 0 (got $rc)" test "$rc" = 0
[ -s "$out" ] || { sed 's/^/#   /' "$DM_TMPDIR/plain.log"; dm_die "no sweep JSON"; }
dm_log "rate_cap: $(dm_json "$out" 'j["sweep"].get("rate_cap")')"
dm_check "/windows/sweep/the backend is iocp" test "$(dm_json "$out" 'j["backend"]')" = iocp
dm_check "/windows/sweep/the JSON says capped or not" \
  test "$(dm_json "$out" 'type(j["sweep"]["rate_cap"]["capped"]).__name__')" = bool
verdict=$(dm_json "$out" 'j["sweep"]["rate_cap"]["verdict"]')
dm_check "/windows/sweep/the verdict is one of the fingerprint's ($verdict)" \
  grep -qw -- "$verdict" <<< "$verdicts"
win show "$(winpath "$out")" 2>/dev/null | tr -d '\r' > "$DM_TMPDIR/plain.txt"
dm_check "/windows/sweep/show prints the rate cap line" grep -q '^Rate cap: ' "$DM_TMPDIR/plain.txt"

if [ -z "$wine" ]; then
  dm_skip_part "slow-fs: a FUSE device under Wine only"
elif [ -z "${DM_SLOW_FS:-}" ]; then
  dm_skip_part "slow-fs: not built (the cross build needs libfuse3-dev for the build machine)"
elif [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
  dm_skip_part "slow-fs: mounting a FUSE file system needs root and /dev/fuse"
else
  mnt="$DM_TMPDIR/slow"
  dm_slow_fs_mount "$mnt" 2000 8
  slow="$DM_TMPDIR/slow.json"
  printf '# $ diskmeter-cli.exe sweep --qd 1,2,4,8 --threads 1 ... on slow-fs\n'
  win sweep --pattern RND --block 4K --mode read --qd 1,2,4,8 --threads 1 --size 16MiB \
    --duration 1 --warmup 0.2 --format json --quiet --output "$(winpath "$slow")" \
    "$(winpath "$mnt")" > "$DM_TMPDIR/slow.log" 2>&1
  rc=$?
  dm_check "/windows/sweep/slow-fs exit status 0 (got $rc)" test "$rc" = 0
  [ -s "$slow" ] || dm_die "no sweep JSON from slow-fs"
  dm_log "IOPS by QD: $(dm_json "$slow" '["%.0f" % r["iops"] for r in j["results"]]'), system queue $(dm_json "$slow" '[r.get("os_queue") for r in j["results"]]')"
  dm_log "rate_cap: $(dm_json "$slow" 'j["sweep"]["rate_cap"]')"
  dm_check "/windows/sweep/one I/O per thread under Wine is not called capped" \
    test "$(dm_json "$slow" 'j["sweep"]["rate_cap"]["capped"]')" = False
  dm_check "/windows/sweep/its verdict: the queue was not held" \
    test "$(dm_json "$slow" 'j["sweep"]["rate_cap"]["verdict"]')" = queue_not_held
  dm_slow_fs_unmount "$mnt"
fi

dm_finish
