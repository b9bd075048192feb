#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Whatever waits under the test file's name, Diskmeter writes only to a new
# file of its own. The name is random; an LD_PRELOAD shim
# (tests/preload-getrandom.c) makes it diskmeter-aaaaaa.tmp, and before
# each run the test plants there a symlink to a victim file, a hard link
# to it, a regular file with content, a symlink to a block device the test
# owns, or a dangling symlink. Each time the victim (and the device) stay
# byte-identical, the planted name is untouched, no new name appears in
# the folder, and the run either refuses with one line, or, when only the
# first name is fixed, completes on another name. (safety-files already
# compares a whole folder of ordinary files before and after a run.)

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop
preload="${DM_PRELOAD_GETRANDOM:-}"
[ -n "$preload" ] || dm_die "DM_PRELOAD_GETRANDOM is not set (run through meson test)"
[ -f "$preload" ] || dm_die "DM_PRELOAD_GETRANDOM=$preload does not exist"
command -v sha256sum >/dev/null || dm_die "sha256sum is missing"

dm_tmpdir
out_dir="$DM_TMPDIR"

# A block device the test owns, full of random data, with no filesystem.
dm_loop_create 8
dev="$DM_LOOP"
dev_name="$DM_LOOP_NAME"
dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none \
  || dm_die "cannot write $dev"

dm_loop_create 256
dm_mkfs_mount
target="$DM_MNT/bench"
mkdir "$target" "$DM_MNT/victim"
victim="$DM_MNT/victim/data.bin"
head -c $((5 << 20)) /dev/urandom > "$victim"
outside="$out_dir/outside.bin"
head -c $((1 << 20)) /dev/urandom > "$outside"
planted="$target/diskmeter-aaaaaa.tmp"

# Under AddressSanitizer the shim, loaded first, comes before the sanitizer
# runtime; that is harmless here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

sums ()
{
  sha256sum "$victim" "$outside"
  sha256sum < "$dev"
  stat -c '%n %h %s %Y' "$victim" "$outside"
}

snapshot ()
{
  (
    cd "$DM_MNT" || exit 1
    find . -mindepth 1 -path ./lost+found -prune -o -printf '%p %y %s %m %n %l\n' | sort
    find . -path ./lost+found -prune -o -type f -print0 | sort -z | xargs -0 sha256sum
  )
}

# run NAME FIXED_CALLS: a write run on the target with getrandom fixed for
# the first FIXED_CALLS calls (empty: all). Sets rc.
run ()
{
  local name="$1" fixed="$2" w0 w1
  w0=$(dm_stat_bytes "$dev_name")
  printf '# $ LD_PRELOAD=preload-getrandom.so DM_FIXED_GETRANDOM=%s diskmeter-cli ... %s\n' \
    "${fixed:-all}" "$target"
  env LD_PRELOAD="$preload" ${fixed:+DM_FIXED_GETRANDOM="$fixed"} "$DM_CLI" \
    --tests SEQ1M_Q8T1,RND4K_Q32T1 --modes write --size 16MiB --count 1 --duration 0.2 \
    --warmup 0 --interval 0 --format json --output "$out_dir/$name.json" "$target" \
    > "$out_dir/$name.out" 2> "$out_dir/$name.err"
  rc=$?
  sed 's/^/#   stderr: /' "$out_dir/$name.err" | head -n 5
  dm_settle
  w1=$(dm_stat_bytes "$dev_name")
  dm_check "/safety/race/$name nothing was written to $dev" test "${w0#* }" = "${w1#* }"
}

# Refused: exit 1, one error line (a warning about the planted file may
# come before it), a report that failed before any test ran.
check_refused ()
{
  local name="$1" err="$out_dir/$1.err"
  dm_check "/safety/race/$name exit status 1 (got $rc)" test "$rc" = 1
  dm_check "/safety/race/$name one error line" \
    test "$(grep -vc '^diskmeter-cli: warning: ' "$err")" = 1
  dm_check "/safety/race/$name the line says why" \
    grep -q "^diskmeter-cli: cannot create a test file in $target: " "$err"
  dm_check "/safety/race/$name report failed, no test ran" \
    test "$(dm_json "$out_dir/$name.json" '(j["status"], [r["status"] for r in j["results"]])' 2>/dev/null)" = "('failed', ['pending', 'pending'])"
}

# plant NAME COMMAND...: runs COMMAND to plant something at $planted,
# runs Diskmeter with every getrandom call fixed, checks, removes it.
plant ()
{
  local name="$1" linkto="" before after; shift
  "$@" || dm_die "cannot plant $name"
  [ -L "$planted" ] && linkto="$(readlink "$planted")"
  sums > "$out_dir/sums.before"
  snapshot > "$out_dir/snap.before"
  run "$name" ""
  check_refused "$name"
  sums > "$out_dir/sums.after"
  snapshot > "$out_dir/snap.after"
  dm_check "/safety/race/$name victim and device are byte-identical" \
    diff -u "$out_dir/sums.before" "$out_dir/sums.after"
  dm_check "/safety/race/$name the folder is as it was (planted name untouched, no new name)" \
    diff -u "$out_dir/snap.before" "$out_dir/snap.after"
  if [ -n "$linkto" ]; then
    dm_check "/safety/race/$name still a symlink to the same place" \
      test "$(readlink "$planted")" = "$linkto"
  fi
  rm -f "$planted"
}

dm_settle
used0=$(dm_fs_used "$DM_MNT")

plant symlink ln -s ../victim/data.bin "$planted"
plant symlink-outside ln -s "$outside" "$planted"
plant hardlink ln "$victim" "$planted"
plant file bash -c 'head -c 100000 /dev/urandom > "$1"' _ "$planted"
plant symlink-device ln -s "$dev" "$planted"
plant dangling ln -s "$out_dir/not-there" "$planted"
dm_check "/safety/race/dangling the symlink's target was not created" \
  test ! -e "$out_dir/not-there"

# Only the first name is predictable: Diskmeter takes another and runs.
ln -s ../victim/data.bin "$planted"
sums > "$out_dir/sums.before"
snapshot > "$out_dir/snap.before"
run next-name 1
dm_check "/safety/race/next-name exit status 0 (got $rc)" test "$rc" = 0
dm_check "/safety/race/next-name report complete" \
  test "$(dm_json "$out_dir/next-name.json" 'j["status"]' 2>/dev/null)" = complete
used=$(dm_json "$out_dir/next-name.json" 'j["test_file"]' 2>/dev/null)
dm_log "next-name: the run used $used"
dm_check "/safety/race/next-name used its own new name" \
  bash -c '[[ "$1" == "$2"/diskmeter-*.tmp && "$1" != "$3" ]]' _ "$used" "$target" "$planted"
sums > "$out_dir/sums.after"
snapshot > "$out_dir/snap.after"
dm_check "/safety/race/next-name victim and device are byte-identical" \
  diff -u "$out_dir/sums.before" "$out_dir/sums.after"
dm_check "/safety/race/next-name the folder is as it was" \
  diff -u "$out_dir/snap.before" "$out_dir/snap.after"
rm -f "$planted"

# The test file has no name once it is open, so a listing cannot find it:
# after all the runs no process holds a file open on the filesystem and
# the space in use there is what it was before the first.
dm_check "/safety/race no test file left open or allocated" \
  dm_no_test_file "$DM_MNT" "$used0"

dm_finish
