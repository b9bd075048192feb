#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# diskmeter-cli under valgrind's memcheck: no invalid read or write, no
# use of uninitialised memory, no leak, on a small real run with each
# Linux backend, on a refused run, on bad usage, and in the compare and
# history commands that read the reports back. Slow (every instruction
# is emulated), so in the 'slow' suite.
#
# io_uring: valgrind knows its system calls but not that the kernel fills
# the registered buffers behind its back; Diskmeter never looks at the data
# it reads, so that does not show, and the io_uring run is checked as well.
# Should a valgrind report the buffers as uninitialised, the psync run
# (plain pread/pwrite, which valgrind fully understands) is the one that
# counts for the engine.

. "$(dirname "$0")/lib.sh"

dm_need_cli
command -v valgrind >/dev/null || dm_skip "valgrind is not installed"
dm_need_loop

dm_loop_create 256
dm_mkfs_mount
dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"

# vg NAME EXPECTED_STATUS ARGS...: diskmeter-cli ARGS under memcheck; the
# tool's own exit status must be EXPECTED_STATUS and memcheck must find
# nothing (it would exit 99).
vg ()
{
  local name="$1" want="$2" rc t0; shift 2
  t0=$SECONDS
  printf '# $ valgrind diskmeter-cli %s\n' "$*"
  valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --track-fds=no \
    --log-file="$DM_TMPDIR/$name.vg" "$DM_CLI" "$@" \
    > "$DM_TMPDIR/$name.out" 2> "$DM_TMPDIR/$name.err"
  rc=$?
  dm_log "$name: $((SECONDS - t0)) s under valgrind"
  sed 's/^/#   stderr: /' "$DM_TMPDIR/$name.err" | head -n 5
  sed 's/^/#   valgrind: /' "$DM_TMPDIR/$name.vg" | head -n 60
  dm_check "/valgrind/cli/$name exit status $want (got $rc)" test "$rc" = "$want"
  # Valgrind's note that it lets an ioctl it has no table for through
  # (libblkid asks a device whether it is a CD) is not an error of ours.
  dm_check "/valgrind/cli/$name memcheck is clean" \
    test -z "$(grep -v -e 'Warning: noted but unhandled ioctl' -e 'could cause spurious value errors' \
                       -e 'README_MISSING_SYSCALL_OR_IOCTL' "$DM_TMPDIR/$name.vg")"
}

# The test file has no name to look for: what the runs must not leave is a
# file held open on the test filesystem or space it took (tests/lib.sh).
dm_settle
used0=$(dm_fs_used "$DM_MNT")

run=(--tests SEQ1M_Q8T1,RND4K_Q32T4 --modes read,write,mix --size 16MiB --count 2
     --duration 0.2 --warmup 0.1 --interval 0 --latency)

vg uring 0 "${run[@]}" --backend io_uring --format json --output "$DM_TMPDIR/uring.json" "$DM_MNT"
dm_check "/valgrind/cli/uring ran on io_uring" \
  test "$(dm_json "$DM_TMPDIR/uring.json" 'j["backend"]' 2>/dev/null)" = io_uring
# psync keeps Q helper threads per worker, which valgrind runs one at a
# time: a shallower queue keeps this within a minute.
psync=(--tests SEQ1M_Q8T1,RND4K_Q4T2 --modes read,write,mix --size 16MiB --count 1
       --duration 0.2 --warmup 0.1 --interval 0 --latency)
vg psync 0 "${psync[@]}" --backend psync --format json --output "$DM_TMPDIR/psync.json" "$DM_MNT"
dm_check "/valgrind/cli/psync ran on psync" \
  test "$(dm_json "$DM_TMPDIR/psync.json" 'j["backend"]' 2>/dev/null)" = psync
vg text 0 --tests SEQ1M_Q1T1,RND4K_Q1T1 --modes read,write --size 16MiB --count 1 \
  --duration 0.2 --warmup 0 --interval 0 --latency --backend psync "$DM_MNT"
vg csv 0 --tests RND4K_Q1T1 --size 16MiB --count 1 --duration 0.2 --warmup 0 --interval 0 \
  --format csv --threshold "read IOPS green>1" "$DM_MNT"
vg missing 1 --size 16MiB --count 1 "$DM_MNT/not-there"
vg usage 2 --tests SEQ1M_Q0T1 "$DM_MNT"
vg compare 0 compare "$DM_TMPDIR/uring.json" "$DM_TMPDIR/psync.json"
vg history 0 history
vg show 0 show "$DM_TMPDIR/uring.json" --latency
vg show-pipe 0 show <(cat "$DM_TMPDIR/psync.json") --format csv
dm_check "/valgrind/cli no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"

dm_finish
