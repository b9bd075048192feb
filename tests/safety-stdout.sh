#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What a command prints on stdout either arrives or fails the command: with
# stdout on /dev/full, every command that prints (the run, sweep,
# sustained, show, compare, merge, history list, show and delete, --help,
# --version, --list-targets) exits non-zero with one line naming the real
# cause, "No space left on device". A script reads the exit status only.

. "$(dirname "$0")/lib.sh"

dm_need_cli
[ "$(uname -s)" = Linux ] || dm_skip "not Linux"
[ "$(id -u)" = 0 ] || dm_skip "not root: the test mounts a tmpfs for its tiny runs"
[ -c /dev/full ] || dm_skip "no /dev/full"

dm_tmpdir
dir="$DM_TMPDIR/fs"
mkdir "$dir" || dm_die "mkdir $dir failed"
dm_mount_extra -t tmpfs -o size=96m tmpfs "$dir" || dm_die "cannot mount a tmpfs on $dir"
# The runs saved here are this test's own history.
export XDG_DATA_HOME="$DM_TMPDIR/data"

tiny=(--size 16MiB --duration 0.1 --warmup 0)
run=(--tests SEQ1M_Q1T1 --modes read --count 1 --interval 0 "${tiny[@]}")

# full NAME ARGS...: diskmeter-cli ARGS with stdout on /dev/full.
full ()
{
  local name="$1"; shift
  printf '# $ diskmeter-cli %s > /dev/full\n' "$*"
  "$DM_CLI" "$@" > /dev/full 2> "$DM_TMPDIR/err"
  local rc=$?
  sed 's/^/#   stderr: /' "$DM_TMPDIR/err" | head -n 5
  dm_check "/safety/stdout $name > /dev/full: status 1 (got $rc)" test "$rc" = 1
  dm_check "/safety/stdout $name > /dev/full: stderr names 'No space left on device'" \
    grep -q "No space left on device" "$DM_TMPDIR/err"
}

# A saved result and a history entry to print again.
dm_run "$DM_TMPDIR/run.json" "$DM_TMPDIR/run.err" "${run[@]}" --format json "$dir"
[ "$DM_RC" = 0 ] || dm_die "the tiny run failed (status $DM_RC)"
res="$DM_TMPDIR/run.json"

full run "${run[@]}" --no-history "$dir"
full "run --format json" "${run[@]}" --no-history --format json "$dir"
full sweep sweep --qd 1 --threads 1 "${tiny[@]}" --quiet "$dir"
full sustained sustained --span 16MiB --duration 0.2 --quiet "$dir"
full show show "$res"
full compare compare "$res" "$res"
full "compare --format csv" compare --format csv "$res" "$res"
full merge merge --allow-duplicates "$res" "$res"
full "history list" history list
full "history show" history show 1
full --version --version
full --help --help
full "compare --help" compare --help
full --list-targets --list-targets

# Deleting prints one line; the run is gone, but a script must learn that
# it was not told.
n=$("$DM_CLI" history list | grep -c '^ *[0-9]')
full "history delete" history delete 1
dm_check "/safety/stdout history delete removed the run all the same" \
  test "$("$DM_CLI" history list | grep -c '^ *[0-9]')" = "$((n - 1))"

# Nothing printed, nothing to fail: a closed stdout is no error of a
# command that writes its report to a file.
"$DM_CLI" show --output "$DM_TMPDIR/copy.txt" "$res" >&- 2> "$DM_TMPDIR/err"
rc=$?
dm_check "/safety/stdout show --output FILE with stdout closed: status 0 (got $rc: $(head -c 200 "$DM_TMPDIR/err"))" \
  test "$rc" = 0

dm_finish
