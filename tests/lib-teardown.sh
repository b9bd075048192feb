#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/lib.sh's dm_set_kernel: a setting it changed is put back when the
# script ends, by an error, by exit or by a signal, and the script's own
# exit status is kept. A refused value changes nothing and leaves nothing
# to put back. Benchmarks use it on kernel settings (bench-vs-fio
# --worker-cpus writes the unbound workqueue cpumask); here the "setting"
# is a file of the test's own, so that no host setting is touched.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
lib="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
dm_tmpdir
cd "$DM_TMPDIR" || dm_die "cd $DM_TMPDIR"

# child HOW: a script that changes ./setting from "old" to "new" and then
# ends as HOW says.
child ()
{
  cat > child.sh <<EOC
. "$lib"
dm_set_kernel "$DM_TMPDIR/setting" new || exit 9
cat "$DM_TMPDIR/setting" > "$DM_TMPDIR/seen"
case "\$1" in
  exit) exit 3 ;;
  die) dm_die "on purpose" ;;
  # A trap runs once the foreground command ends; wait is cut short.
  signal) sleep 30 & dm_track_pid \$!; touch "$DM_TMPDIR/ready"; wait ;;
esac
EOC
  echo old > setting
  rm -f seen ready
}

for how in exit die; do
  child
  bash child.sh "$how" > "$how.log" 2>&1
  rc=$?
  dm_check "after $how: the new value was in place while the script ran" \
    [ "$(cat seen 2>/dev/null)" = new ]
  dm_check "after $how: the old value is back" [ "$(cat setting)" = old ]
  want=3; [ "$how" = die ] && want=1
  dm_check "after $how: the script's own status is kept ($rc)" [ "$rc" = "$want" ]
done

for sig in INT TERM; do
  child
  # With job control on, the child does not start with SIGINT ignored, as
  # a background job of a script otherwise does.
  set -m
  bash child.sh signal > "signal.log" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 1 100); do [ -e ready ] && break; sleep 0.05; done
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  dm_check "SIG$sig: the new value was in place while the script ran" \
    [ "$(cat seen 2>/dev/null)" = new ]
  dm_check "SIG$sig: the old value is back" [ "$(cat setting)" = old ]
  dm_check "SIG$sig: the script ends with status $rc, not 0" [ "$rc" != 0 ]
done

# A value the kernel refuses: the subshell's own /proc/self/stat reads
# like a setting and refuses every write (EINVAL, even for root), so
# nothing of the host's is touched.
(
  . "$lib"
  if dm_set_kernel /proc/self/stat new 2>/dev/null; then exit 1; fi
  [ ${#_dm_settings[@]} = 0 ] || exit 2
  trap - EXIT
  exit 0
)
rc=$?
dm_check "a refused value: dm_set_kernel fails and keeps nothing to put back ($rc)" [ "$rc" = 0 ]
dm_finish
