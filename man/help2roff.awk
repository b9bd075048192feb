# SPDX-License-Identifier: GPL-3.0-or-later
# Turns one subcommand's --help into man(7) markup: usage lines verbatim,
# "  --option ARG   text" lines as tagged paragraphs, headings in bold.
# Every '-' becomes '\-' so the page shows (and copies as) ASCII options.

function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.']/)
    s = "\\&" s
  return s
}

BEGIN { mode = "text" }

# Usage lines and the lines aligned under them stay as printed.
/^Usage:/ || (mode == "usage" && /^       /) {
  if (mode != "usage")
    print ".PP\n.nf"
  mode = "usage"
  # "Usage: " is 7 columns: lines under it keep their alignment.
  if (!sub(/^Usage: /, ""))
    sub(/^       /, "")
  print esc($0)
  next
}
mode == "usage" { print ".fi"; mode = "text" }

/^[[:space:]]*$/ { print ".PP"; mode = "text"; next }

# A heading: "Sweep:", "Output:", "Settings (as for a plain run):".
/^[A-Z][^ ]*( [^ ]+)*:$/ && length($0) < 40 {
  print ".PP\n.B " esc($0)
  mode = "text"
  next
}

# An option line: the option and its argument, then (after two or more
# spaces) what it does, which may go on on the lines below.
/^  +-/ {
  line = $0
  sub(/^ +/, "", line)
  opt = line
  desc = ""
  if (match(line, /   */)) {
    opt = substr(line, 1, RSTART - 1)
    desc = substr(line, RSTART + RLENGTH)
  }
  print ".TP\n\\fB" esc(opt) "\\fR"
  if (desc != "")
    print esc(desc)
  mode = "option"
  next
}

# Continuation of an option's text (indented under it).
mode == "option" && /^      / {
  line = $0
  sub(/^ +/, "", line)
  print esc(line)
  next
}

{
  if (mode == "option")
    print ".PP"
  mode = "text"
  line = $0
  sub(/^ +/, "", line)
  print esc(line)
}

END { if (mode == "usage") print ".fi" }
