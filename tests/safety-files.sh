#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A benchmark run leaves the user's files alone: every file and folder in
# the target, including one named like a test file (diskmeter-abc123.tmp)
# and one with the literal template name, has the same content, size, mode
# and time after read, write and mix tests as before, and no new name
# appears in the folder. (The target folder's own time changes: the test
# file was created in it.) Both stale-looking files are named in a warning
# on stderr and in the report. show refuses a saved run whose fields
# contradict each other.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_need_loop

dm_loop_create 256
dm_mkfs_mount
dm_tmpdir

head -c $((3 << 20)) /dev/urandom > "$DM_MNT/report.pdf"
head -c 100000 /dev/urandom > "$DM_MNT/diskmeter-abc123.tmp"
head -c 4096 /dev/urandom > "$DM_MNT/diskmeter-XXXXXX.tmp"
: > "$DM_MNT/empty"
mkdir -p "$DM_MNT/sub/deeper"
head -c 65536 /dev/urandom > "$DM_MNT/sub/deeper/data.bin"
ln -s report.pdf "$DM_MNT/link"
chmod 0640 "$DM_MNT/report.pdf"
touch -d '2001-02-03 04:05:06' "$DM_MNT/diskmeter-abc123.tmp"

snapshot ()
{
  (
    cd "$DM_MNT" || exit 1
    find . -mindepth 1 -path ./lost+found -prune -o -printf '%p %y %s %m %T@ %l\n' | sort
    find . -path ./lost+found -prune -o -type f -print0 | sort -z | xargs -0 sha256sum
  )
}

snapshot > "$DM_TMPDIR/before"
dm_settle
used0=$(dm_fs_used "$DM_MNT")
dm_run "$DM_TMPDIR/out.json" "$DM_TMPDIR/err" \
  --tests SEQ1M_Q8T1,RND4K_Q32T1 --modes read,write,mix --size 32MiB --count 1 \
  --duration 0.5 --warmup 0 --interval 0 --format json "$DM_MNT"
dm_check "/safety/files run exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/files status complete" \
  test "$(dm_json "$DM_TMPDIR/out.json" 'j["status"]' 2>/dev/null)" = complete
snapshot > "$DM_TMPDIR/after"

# A stale test file from elsewhere is reported, on stderr and in the
# report, every one of them, and left where it is.
for stale in diskmeter-abc123.tmp diskmeter-XXXXXX.tmp; do
  dm_check "/safety/files stderr warns of $stale" \
    bash -c 'grep "^diskmeter-cli: warning: " "$1" | grep -qF "$2 ("' _ "$DM_TMPDIR/err" "$DM_MNT/$stale"
  dm_check "/safety/files the report's warning names $stale" \
    test "$(dm_json "$DM_TMPDIR/out.json" "\"$DM_MNT/$stale\" in (j[\"warning\"] or \"\")" 2>/dev/null)" = True
done
dm_check "/safety/files the warning says it is not deleted" grep -q 'not ours to delete' "$DM_TMPDIR/err"
dm_check "/safety/files the stale diskmeter-abc123.tmp is still there" \
  test "$(stat -c '%s %Y' "$DM_MNT/diskmeter-abc123.tmp")" = "100000 $(date -d '2001-02-03 04:05:06' +%s)"

if diff -u "$DM_TMPDIR/before" "$DM_TMPDIR/after"; then
  dm_check "/safety/files every file and folder is unchanged" true
else
  dm_check "/safety/files every file and folder is unchanged" false
fi

# The test file was named in the report, and is gone.
test_file=$(dm_json "$DM_TMPDIR/out.json" 'j["test_file"]' 2>/dev/null)
dm_log "test file was $test_file"
dm_check "/safety/files test file named diskmeter-*.tmp in the target" \
  bash -c '[[ "$1" == "$2"/diskmeter-*.tmp ]]' _ "$test_file" "$DM_MNT"
dm_check "/safety/files test file is gone" test ! -e "$test_file"
# Its name went as soon as it was open, so the name alone cannot tell:
# no file is held open on the filesystem and its space is back.
dm_check "/safety/files no test file left open or allocated" dm_no_test_file "$DM_MNT" "$used0"

# Result files come from pipes too (diskmeter-cli compare <(ssh host cat
# run.json) ...): read to their end, never beyond the size limit.
cmp_json="$DM_TMPDIR/compare.json"
"$DM_CLI" compare --format json <(cat "$DM_TMPDIR/out.json") "$DM_TMPDIR/out.json" \
  > "$cmp_json" 2> "$DM_TMPDIR/compare.err"
rc=$?
dm_check "/safety/files compare reads a result from a pipe (status $rc: $(head -c 200 "$DM_TMPDIR/compare.err"))" \
  test "$rc" = 0
dm_check "/safety/files the piped result is the same run" \
  test "$(dm_json "$cmp_json" 'len(j["runs"])' 2>/dev/null)" = 2
"$DM_CLI" compare <(head -c 70M /dev/zero) "$DM_TMPDIR/out.json" \
  > /dev/null 2> "$DM_TMPDIR/compare.err"
rc=$?
dm_check "/safety/files a 70 MiB pipe is refused (status $rc)" test "$rc" = 1
dm_check "/safety/files ... with one line saying why" \
  grep -q 'larger than any result file' "$DM_TMPDIR/compare.err"

# diskmeter-cli show prints a saved run again: its JSON byte for byte, its
# CSV with a row per result, and a file that is no run is refused.
"$DM_CLI" show "$DM_TMPDIR/out.json" --format json > "$DM_TMPDIR/shown.json"
dm_check "/safety/files show --format json gives back the saved JSON byte for byte" \
  cmp -s "$DM_TMPDIR/out.json" "$DM_TMPDIR/shown.json"
rows=$("$DM_CLI" show <(cat "$DM_TMPDIR/out.json") --format csv | wc -l)
dm_check "/safety/files show --format csv from a pipe: a header and a row per result ($rows lines)" \
  test "$rows" = "$(( $(dm_json "$DM_TMPDIR/out.json" 'len(j["results"])') + 1 ))"
"$DM_CLI" show "$DM_MNT/report.pdf" > /dev/null 2> "$DM_TMPDIR/show.err"
rc=$?
dm_check "/safety/files show refuses a file that is no run, status 1 and one line (got $rc)" \
  test "$rc" = 1 -a "$(wc -l < "$DM_TMPDIR/show.err")" = 1

# A saved run whose fields contradict its test name (edited, or not ours)
# is refused naming the field, not loaded with the figures rebuilt from
# the name.
for edit in block_size=1.8e23 queue_depth=0 threads=100000; do
  field="${edit%=*}"
  python3 - "$DM_TMPDIR/out.json" "$DM_TMPDIR/bad-$field.json" "$field" "${edit#*=}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0][sys.argv[3]] = float(sys.argv[4]) if "e" in sys.argv[4] else int(sys.argv[4])
json.dump(d, open(sys.argv[2], "w"))
EOF
  "$DM_CLI" show "$DM_TMPDIR/bad-$field.json" > "$DM_TMPDIR/bad.out" 2> "$DM_TMPDIR/bad.err"
  rc=$?
  dm_check "/safety/files show refuses $edit, status 1 (got $rc)" test "$rc" = 1
  dm_check "/safety/files ... with one line naming $field" \
    grep -q "'$field'" "$DM_TMPDIR/bad.err"
  dm_check "/safety/files ... on one line" test "$(wc -l < "$DM_TMPDIR/bad.err")" = 1
  dm_check "/safety/files ... and nothing on stdout" test ! -s "$DM_TMPDIR/bad.out"
done

dm_finish
