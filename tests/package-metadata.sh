#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The version a user sees is the same everywhere: meson.build's version is
# the newest release in the AppStream metainfo and the version of the
# newest entry of debian/changelog. Each screenshot the metainfo names is
# in resources/screenshots/ with the width and height it states.

source "$(dirname "$0")/lib.sh"

src="$DM_SOURCE_ROOT"
metainfo="$src/resources/io.github.diskmeter.Diskmeter.metainfo.xml.in"
version="$(meson introspect "$DM_BUILD_ROOT" --projectinfo 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')"
[ -n "$version" ] || dm_die "no project version from meson introspect $DM_BUILD_ROOT"
dm_log "meson.build: $version"

release="$(python3 - "$metainfo" <<'PY'
import sys, xml.etree.ElementTree as ET
rel = ET.parse(sys.argv[1]).getroot().find("releases")
print(rel[0].get("version") if rel is not None and len(rel) else "")
PY
)"
dm_log "metainfo's newest release: $release"
dm_check "the metainfo's newest release is meson.build's version ($version)" \
  test "$release" = "$version"

if [ -f "$src/debian/changelog" ]; then
  deb="$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$src/debian/changelog")"
  dm_log "debian/changelog: $deb"
  # A native package: the Debian version is the upstream one, or the
  # upstream one and a revision (0.1.0-2).
  dm_check "debian/changelog's version is meson.build's ($version)" \
    test "${deb%-*}" = "$version"
fi

check_screenshots ()
{
  python3 - "$metainfo" "$src/resources/screenshots" <<'PY'
import os, struct, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
images = root.findall("./screenshots/screenshot/image")
if not images:
    sys.exit("# the metainfo has no screenshot")
bad = 0
for img in images:
    path = os.path.join(sys.argv[2], os.path.basename(img.text.strip()))
    if not os.path.isfile(path):
        print("# %s: no %s" % (img.text.strip(), path)); bad += 1; continue
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        print("# %s is not a PNG" % path); bad += 1; continue
    w, h = struct.unpack(">II", head[16:24])
    if (str(w), str(h)) != (img.get("width"), img.get("height")):
        print("# %s is %dx%d, the metainfo says %sx%s" % (path, w, h, img.get("width"), img.get("height")))
        bad += 1
    else:
        print("# %s: %dx%d" % (os.path.basename(path), w, h))
sys.exit(1 if bad else 0)
PY
}
dm_check "the metainfo's screenshots are in the repository, at the stated size" check_screenshots

# The screenshots' web address comes from the publisher (meson's
# screenshot_url): with one, every screenshot is under it; without one the
# metainfo lists none, and both forms are valid AppStream.
dm_tmpdir
python3 "$src/resources/metainfo.py" "$metainfo" "$DM_TMPDIR/with.xml" "BASE/shots/"
python3 "$src/resources/metainfo.py" "$metainfo" "$DM_TMPDIR/without.xml"
dm_check "with screenshot_url, every screenshot is under it" python3 - "$DM_TMPDIR/with.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
images = [i.text.strip() for i in ET.parse(sys.argv[1]).getroot().findall("./screenshots/screenshot/image")]
print("# %s" % images)
sys.exit(0 if images and all(i.startswith("BASE/shots/") and i.count("/") == 2 for i in images) else 1)
PY
dm_check "without it, no screenshot and no placeholder is left" \
  sh -c "! grep -q -e '<screenshot' -e '@SCREENSHOT_URL@' '$DM_TMPDIR/without.xml'"
if command -v appstreamcli >/dev/null; then
  dm_check "without it, the metainfo is still valid" appstreamcli validate --no-net "$DM_TMPDIR/without.xml"
fi

dm_finish
