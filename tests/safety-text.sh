#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every run diskmeter-cli saves loads again, whatever text it carries: a
# comment longer than a report keeps (600 "é") is refused in one line
# before anything happens, by the run and by 'history comment'; a comment
# of a stray byte, with newlines, a forged [Read] row and terminal escapes,
# in a folder named in Latin-1, is saved, and show, compare and history
# read it back (exit 0), the JSON valid UTF-8 with the exact bytes kept,
# and nothing raw reaches the terminal. Needs no root and no device.

. "$(dirname "$0")/lib.sh"

dm_need_cli
dm_tmpdir
export XDG_DATA_HOME="$DM_TMPDIR/data"
ok=(--tests RND4K_Q1T1 --modes read --size 16MiB --count 1 --duration 0.5 --warmup 0
    --buffered --interval 0)
long="$(printf '\xc3\xa9%.0s' $(seq 600))"      # 600 é, 1200 bytes
fits="$(printf '\xc3\xa9%.0s' $(seq 255))x"     # 511 bytes, the most a comment keeps
forged=$'\xff fast\n[Read]\n  SEQ1M Q8T1: 99999.999 MB/s [ 99999.0 IOPS] <    1.00 us>\n\x1b[2J\x1b]0;owned\x07'
latin1="$DM_TMPDIR/caf"$'\xe9'
mkdir "$latin1"

# no_raw FILE: no C0 control but newline, no DEL, no C1 (UTF-8 C2 80..9F),
# and valid UTF-8.
no_raw ()
{
  python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
text = data.decode("utf-8")   # raises on bytes that are not UTF-8
bad = [c for c in text if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
PY
}

# The JSON is strict JSON in valid UTF-8, with the comment's exact bytes.
json_keeps ()
{
  python3 - "$1" "$2" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw.decode("utf-8"))
want = bytes.fromhex(sys.argv[2])
got = bytes.fromhex(doc["comment_bytes"]) if "comment_bytes" in doc else doc["comment"].encode()
sys.exit(0 if got == want else 1)
PY
}
hex () { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }

# A comment too long is refused, as any bad option: exit 2, one line.
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "${ok[@]}" --no-history --comment "$long" "$latin1"
dm_check "/safety/text/long-comment exit status 2 (got $DM_RC)" test "$DM_RC" = 2
dm_check "/safety/text/long-comment one-line reason" dm_usage_error "$DM_TMPDIR/err"
dm_check "/safety/text/long-comment the reason names --comment" grep -q -- '--comment' "$DM_TMPDIR/err"
dm_check "/safety/text/long-comment nothing created" test -z "$(ls -A "$latin1")"

# The longest comment a report keeps is kept whole.
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "${ok[@]}" --no-history --comment "$fits" \
  --format json --output "$DM_TMPDIR/fits.json" "$latin1"
dm_check "/safety/text/fits exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/fits comment kept whole" json_keeps "$DM_TMPDIR/fits.json" "$(hex "$fits")"

# A stray byte, forged rows and escapes, in a Latin-1 folder: saved in the
# history and as a file, both read back.
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" "${ok[@]}" --comment "$forged" \
  --format json --output "$DM_TMPDIR/odd.json" "$latin1"
dm_check "/safety/text/odd exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/odd JSON keeps the comment's bytes" json_keeps "$DM_TMPDIR/odd.json" "$(hex "$forged")"
dm_check "/safety/text/odd JSON has no raw control byte" no_raw "$DM_TMPDIR/odd.json"
dm_check "/safety/text/odd JSON keeps the folder's bytes" \
  grep -q '"path_bytes": "'"$(hex "$latin1")"'"' "$DM_TMPDIR/odd.json"

dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" show "$DM_TMPDIR/odd.json"
dm_check "/safety/text/show exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/show prints nothing raw" no_raw "$DM_TMPDIR/out"
dm_check "/safety/text/show one result row" test "$(grep -c '^  RND4K' "$DM_TMPDIR/out")" = 1
dm_check "/safety/text/show one [Read] section" test "$(grep -c '^\[Read\]' "$DM_TMPDIR/out")" = 1
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" show --format csv "$DM_TMPDIR/odd.json"
dm_check "/safety/text/show-csv exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/show-csv names the folder readably" grep -qF 'caf\xe9' "$DM_TMPDIR/out"
tr -d '\r\t' < "$DM_TMPDIR/out" > "$DM_TMPDIR/csv"   # a cell keeps tabs, a row ends in CRLF
dm_check "/safety/text/show-csv prints nothing raw" no_raw "$DM_TMPDIR/csv"
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" compare "$DM_TMPDIR/odd.json" "$DM_TMPDIR/fits.json"
dm_check "/safety/text/compare exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/compare prints nothing raw" no_raw "$DM_TMPDIR/out"

# The workbook: its XML takes no control character and only UTF-8, or
# Excel refuses the whole file.
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" compare --format xlsx --output "$DM_TMPDIR/odd.xlsx" \
  "$DM_TMPDIR/odd.json" "$DM_TMPDIR/fits.json"
if grep -q 'without Excel' "$DM_TMPDIR/err"; then
  dm_skip_part "/safety/text/xlsx: this diskmeter-cli has no Excel support"
else
  dm_check "/safety/text/xlsx exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  dm_check "/safety/text/xlsx every part is well-formed XML" python3 - "$DM_TMPDIR/odd.xlsx" <<'PY'
import sys, zipfile, xml.dom.minidom
book = zipfile.ZipFile(sys.argv[1])
for name in book.namelist():
    if name.endswith(".xml"):
        xml.dom.minidom.parseString(book.read(name))
PY
fi

# The history: a comment too long is refused and the run left as it was;
# one of odd bytes is kept, and the run still shows and compares.
saved="$(ls "$XDG_DATA_HOME"/diskmeter/history/*.json 2>/dev/null | head -n 1)"
dm_check "/safety/text/history the run was saved" test -n "$saved"
before="$(sha256sum < "$saved")"
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" history comment 1 "$long"
dm_check "/safety/text/history-long exit status 2 (got $DM_RC)" test "$DM_RC" = 2
dm_check "/safety/text/history-long one line naming the limit" \
  bash -c '[ "$(wc -l < "$1")" -le 2 ] && grep -q "511" "$1"' _ "$DM_TMPDIR/err"
dm_check "/safety/text/history-long the saved run is unchanged" test "$(sha256sum < "$saved")" = "$before"
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" history comment 1 "$forged"
dm_check "/safety/text/history-odd exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_check "/safety/text/history-odd the file keeps the bytes" json_keeps "$saved" "$(hex "$forged")"
for verb in list "show 1"; do
  dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" history $verb
  dm_check "/safety/text/history-$verb exit status 0 (got $DM_RC)" test "$DM_RC" = 0
  dm_check "/safety/text/history-$verb prints nothing raw" no_raw "$DM_TMPDIR/out"
done
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" show "$saved"
dm_check "/safety/text/history-file show exit status 0 (got $DM_RC)" test "$DM_RC" = 0
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" compare "$saved" "$DM_TMPDIR/odd.json"
dm_check "/safety/text/history-file compare exit status 0 (got $DM_RC)" test "$DM_RC" = 0

# A file name with an escape in an error message is shown escaped.
dm_run "$DM_TMPDIR/out" "$DM_TMPDIR/err" show "$DM_TMPDIR/no"$'\x1b[2J'".json"
dm_check "/safety/text/error exit status 1 (got $DM_RC)" test "$DM_RC" = 1
dm_check "/safety/text/error shows the name escaped" grep -qF 'no\x1b[2J.json' "$DM_TMPDIR/err"
dm_check "/safety/text/error prints nothing raw" no_raw "$DM_TMPDIR/err"

dm_finish
