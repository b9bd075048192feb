#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes the AppStream metainfo from its .in file. Its screenshots live in
# resources/screenshots/, but AppStream wants them as web addresses, and
# only whoever publishes them knows where: with a base address (meson's
# screenshot_url option) every @SCREENSHOT_URL@ becomes it; without one the
# <screenshots> element and the comment before it are left out, which the
# validator accepts.
#
#   metainfo.py INPUT OUTPUT [BASE]
import re
import sys

source, target = sys.argv[1], sys.argv[2]
base = sys.argv[3].rstrip("/") if len(sys.argv) > 3 else ""
with open(source, encoding="utf-8") as f:
    text = f.read()
if base:
    text = text.replace("@SCREENSHOT_URL@", base)
else:
    text = re.sub(r"\n[ \t]*(<!--(?:(?!-->).)*-->\s*)?<screenshots>.*?</screenshots>", "",
                  text, flags=re.S)
if "@SCREENSHOT_URL@" in text:
    sys.exit("metainfo.py: %s has @SCREENSHOT_URL@ outside <screenshots>" % source)
with open(target, "w", encoding="utf-8") as f:
    f.write(text)
