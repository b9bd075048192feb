#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What Diskmeter writes, read back where the device received it: the
# Default profile's tests (SEQ1M_Q8T1, SEQ1M_Q1T1, RND4K_Q32T1, RND4K_Q1T1)
# in Write and Mix on tests/slow-fs.c, which keeps a copy of every write as
# it came (the test file's name is removed at once, so nothing else could
# read it). No two 4 KiB blocks, nor two 512-byte sectors, of the fill and
# of the tests' writes may be alike, so deduplicating storage cannot skip
# one, and neither a 4 KiB block, nor a write as the device got it, nor the
# whole fill may shrink under zlib (compressed size at least 0.99 of the
# original), so compressing storage cannot flatter a figure. The same checks
# must fail on a run with --data zeros, or they could not fail at all.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: mounting a FUSE file system needs root"

size_mib=16
dm_tmpdir

# Reads the kept writes of one run and prints a figure per line: "name
# value". The first size bytes written are the fill (the runner fills the
# file before it measures anything); the rest are the tests' writes.
data_figures ()
{
  python3 - "$1" "$((size_mib << 20))" <<'PY'
import struct, sys, zlib

path, fill_size = sys.argv[1], int(sys.argv[2])
data = memoryview(open(path, "rb").read())
pos, filled = 0, 0
fill, writes, misaligned = [], [], 0
while pos + 16 <= len(data):
    off, length, _ = struct.unpack_from("<QII", data, pos)
    chunk = data[pos + 16:pos + 16 + length]
    pos += 16 + length
    if off % 4096 or length % 4096:
        misaligned += 1
    if filled < fill_size:
        fill.append((off, chunk))
        filled += length
    else:
        writes.append((off, chunk))

def ratio(b):
    return len(zlib.compress(b, 6)) / len(b) if len(b) else 1.0

seen, dup_fill, dup_write, blocks, worst_block = set(), 0, 0, 0, 9.0
for kind, reqs in (("fill", fill), ("write", writes)):
    for _, chunk in reqs:
        for i in range(0, len(chunk) - 4095, 4096):
            b = chunk[i:i + 4096].tobytes()
            blocks += 1
            if b in seen:
                if kind == "fill":
                    dup_fill += 1
                else:
                    dup_write += 1
            seen.add(b)
            worst_block = min(worst_block, ratio(b))
worst_req = min([ratio(c.tobytes()) for _, c in fill + writes] or [0.0])
fill_bytes = b"".join(c.tobytes() for _, c in sorted(fill, key=lambda r: r[0]))
covered = sorted((o, len(c)) for o, c in fill)
contiguous = all(covered[i][0] + covered[i][1] == covered[i + 1][0] for i in range(len(covered) - 1))
# Storage that deduplicates by 512-byte sector: no sector of the fill or
# of a test's write may equal another, though each write buffer goes out
# again and again.
sectors, dup_sector, n_sectors = set(), 0, 0
for _, c in fill + writes:
    for i in range(0, len(c) - 511, 512):
        s = c[i:i + 512].tobytes()
        n_sectors += 1
        if s in sectors:
            dup_sector += 1
        sectors.add(s)
print("requests", len(fill) + len(writes))
print("misaligned", misaligned)
print("fill_bytes", len(fill_bytes))
print("fill_whole", int(len(fill_bytes) == fill_size and covered[0][0] == 0 and contiguous) if covered else 0)
print("write_requests", len(writes))
print("write_bytes", sum(len(c) for _, c in writes))
print("blocks", blocks)
print("dup_fill", dup_fill)
print("dup_write", dup_write)
print("worst_block_ratio", "%.4f" % worst_block)
print("worst_request_ratio", "%.4f" % worst_req)
print("fill_ratio", "%.4f" % ratio(fill_bytes))
print("sectors", n_sectors)
print("dup_sector", dup_sector)
PY
}

# data_run NAME WRITE_US TESTS DURATION [ARGS...]: mounts slow-fs keeping
# every write (10 ms reads and WRITE_US writes, four at once: the service
# time bounds the bytes to keep), runs TESTS in Write and Mix on it with
# ARGS and leaves the figures in fig[].
declare -A fig
data_run ()
{
  local name="$1" write_us="$2" tests="$3" duration="$4" mnt kept; shift 4
  mnt="$DM_TMPDIR/mnt-$name"
  kept="$DM_TMPDIR/kept-$name.bin"
  dm_slow_fs_mount "$mnt" 10000 4 --write-us "$write_us" --keep-writes "$kept"
  dm_run "$DM_TMPDIR/$name.json" "$DM_TMPDIR/err.txt" --tests "$tests" --modes write,mix \
    --count 1 --size "${size_mib}MiB" --duration "$duration" --warmup 0.1 --interval 0 \
    --no-history --format json --quiet "$@" "$mnt"
  dm_check "$name: exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  local served
  served="$(cat "$mnt/.served")"
  dm_log "$name: slow-fs: $served"
  dm_slow_fs_unmount "$mnt"
  local rc=$?
  dm_check "$name: slow-fs ended cleanly after unmount (status $rc)" test "$rc" = 0
  fig=()
  local k v
  while read -r k v; do
    fig[$k]="$v"
  done < <(data_figures "$kept")
  dm_log "$name: $(for k in requests misaligned fill_bytes fill_whole write_requests \
    write_bytes blocks dup_fill dup_write worst_block_ratio worst_request_ratio fill_ratio \
    sectors dup_sector; do printf '%s %s, ' "$k" "${fig[$k]:-?}"; done)"
  fig[served]="$served"
  fig[report]="$DM_TMPDIR/$name.json"
  rm -f "$kept"
}

served_field () { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<< "$1"; }

# The verdict, for either run: 0 when the data flatters nothing.
data_holds ()
{
  [ "${fig[misaligned]:-1}" = 0 ] && [ "${fig[dup_fill]:-1}" = 0 ] && [ "${fig[dup_write]:-1}" = 0 ] \
    && [ "${fig[dup_sector]:-1}" = 0 ] && python3 -c "import sys; sys.exit(0 if min($1) >= 0.99 else 1)"
}
data_fails () { ! data_holds "$@"; }
ratios () { echo "${fig[worst_block_ratio]:-0}, ${fig[worst_request_ratio]:-0}, ${fig[fill_ratio]:-0}"; }

# SEQ1M at 1 MiB per 40 ms write, RND4K at 4 KiB per 2 ms: some 60 MB and
# 1000 blocks to read back.
for run in "seq 40000 SEQ1M_Q8T1,SEQ1M_Q1T1 0.3" "rnd 2000 RND4K_Q32T1,RND4K_Q1T1 0.5"; do
  read -r name write_us tests duration <<< "$run"
  data_run "$name" "$write_us" "$tests" "$duration"
  report="${fig[report]}"
  dm_check "/truth/data/$name: every write was kept (dropped $(served_field "${fig[served]}" dropped_bytes) bytes)" \
    test "$(served_field "${fig[served]}" dropped_bytes)" = 0 -a \
         "$(served_field "${fig[served]}" kept_bytes)" = "$(served_field "${fig[served]}" write_bytes)"
  dm_check "/truth/data/$name: all four tests complete" \
    test "$(dm_json "$report" 'len([r for r in j["results"] if r["status"] == "complete"])')" = 4
  dm_check "/truth/data/$name: the fill is the whole file, once (${fig[fill_bytes]} bytes)" \
    test "${fig[fill_whole]}" = 1 -a "${fig[fill_bytes]}" = "$(dm_json "$report" 'j["io_totals"]["prepare_bytes"]')"
  dm_check "/truth/data/$name: the tests wrote after the fill (${fig[write_requests]} writes, ${fig[write_bytes]} bytes)" \
    test "${fig[write_requests]:-0}" -ge 40
  dm_check "/truth/data/$name: every write on 4 KiB boundaries" test "${fig[misaligned]}" = 0
  dm_check "/truth/data/$name: no two 4 KiB blocks of the fill alike (${fig[dup_fill]} of ${fig[blocks]} repeat)" \
    test "${fig[dup_fill]}" = 0
  dm_check "/truth/data/$name: no 4 KiB block a test wrote like another or the fill (${fig[dup_write]} repeat)" \
    test "${fig[dup_write]}" = 0
  dm_check "/truth/data/$name: no 512-byte sector written twice (${fig[dup_sector]} of ${fig[sectors]} repeat)" \
    test "${fig[dup_sector]}" = 0
  dm_check "/truth/data/$name: no 4 KiB block compresses (worst zlib ratio ${fig[worst_block_ratio]})" \
    python3 -c "import sys; sys.exit(0 if ${fig[worst_block_ratio]} >= 0.99 else 1)"
  dm_check "/truth/data/$name: no write as the device got it compresses (worst ${fig[worst_request_ratio]})" \
    python3 -c "import sys; sys.exit(0 if ${fig[worst_request_ratio]} >= 0.99 else 1)"
  dm_check "/truth/data/$name: the fill does not compress (ratio ${fig[fill_ratio]})" \
    python3 -c "import sys; sys.exit(0 if ${fig[fill_ratio]} >= 0.99 else 1)"
  dm_check "/truth/data/$name: the verdict holds for random data" data_holds "$(ratios)"
done

# The same checks on data that flatters: they must fail.
data_run zeros 2000 RND4K_Q32T1,RND4K_Q1T1 0.5 --data zeros
dm_check "/truth/data/zeros: the run itself completes" \
  test "$(dm_json "${fig[report]}" 'j["settings"]["data"]')" = zeros
dm_check "/truth/data/zeros: blocks repeat (${fig[dup_fill]} in the fill, ${fig[dup_write]} written)" \
  test "${fig[dup_fill]:-0}" -gt 0 -a "${fig[dup_write]:-0}" -gt 0
dm_check "/truth/data/zeros: the data compresses ($(ratios))" \
  python3 -c "import sys; sys.exit(0 if max(${fig[worst_block_ratio]}, ${fig[fill_ratio]}) < 0.5 else 1)"
dm_check "/truth/data/zeros: the verdict fails" data_fails "$(ratios)"

dm_finish
