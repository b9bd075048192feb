#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Remakes the screenshots the AppStream metainfo and the README show, with
# the real window under a private Xvfb:
#   resources/screenshots/update.sh [BUILD_DIR] [FOLDER]
# FOLDER (default: a scratch folder /var/tmp/diskmeter, on disk, made and
# removed here) is measured once by diskmeter-cli: a Default run with Mix,
# a run without Mix and a second one for the comparison, a small sweep and a short sustained
# write. Each saved run is then opened in the window in every view a user
# screenshots (the grid; with Mix; in IOPS; in us; two runs compared; the
# Sweep and the Sustained window), in English, German and Japanese:
# VIEW-LANG.png. Short runs: the pictures show the window, not a
# reference disk.
set -euo pipefail

top="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$top/build}" && pwd)"
out="$top/resources/screenshots"
DM_BUILD_ROOT="$build"
# shellcheck source=../../tests/gui-lib.sh
source "$top/tests/gui-lib.sh"

if [ -n "${2:-}" ]; then
  scratch="$2"
  state="$(mktemp -d)"
else
  scratch=/var/tmp/diskmeter
  mkdir "$scratch" # fails if it is there: not ours to remove
  state="$scratch/.state"
  mkdir "$state"
fi
trap 'dm_gui_stop_display; rm -rf "$state"; [ -n "${2:-}" ] || rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$state"
# The build folder's catalogues, as tests/gui-i18n.sh reads them.
export DISKMETER_LOCALEDIR="$build/po"
[ -f "$DISKMETER_LOCALEDIR/ja/LC_MESSAGES/diskmeter.mo" ] \
  || { echo "update.sh: no catalogues in $DISKMETER_LOCALEDIR" >&2; exit 1; }
dm_gui_start_display

cli="$build/app/diskmeter-cli"
short=(--count 1 --size 64MiB --duration 1 --warmup 0 --interval 0 --quiet --format json)
"$cli" "${short[@]}" --profile default \
  --comment "Debian 12 VM, virtio disk" --output "$state/plain.json" "$scratch"
"$cli" "${short[@]}" --profile default --mix \
  --comment "Debian 12 VM, virtio disk" --output "$state/run.json" "$scratch"
"$cli" "${short[@]}" --profile default \
  --comment "Debian 12 VM, after the change" --output "$state/after.json" "$scratch"
"$cli" sweep --qd 1,2,4,8,16 --threads 1,2,4 --size 64MiB --duration 1 --warmup 0 \
  --quiet --format json --output "$state/sweep.json" "$scratch"
"$cli" sustained --span 512MiB --duration 4 --sample 0.2 --quiet --format json \
  --output "$state/sustained.json" "$scratch"

rm -f "$out"/*.png
for lang in C de ja; do
  shot () { # VIEW ARGS...: the window showing ARGS, saved as VIEW-LANG.png
    local view="$1"; shift
    # C.UTF-8: gettext ignores LANGUAGE in the plain C locale.
    LC_ALL= LANG=C.UTF-8 LANGUAGE="$lang" timeout 120 "$build/app/diskmeter" "$@" \
      --save-screenshot "$out/$view-$lang.png" --quit-when-done
  }
  shot default --open "$state/plain.json"
  shot mix --open "$state/run.json" --mix
  shot iops --open "$state/run.json" --units IOPS
  shot us --open "$state/run.json" --units us
  shot compare --open "$state/plain.json" --open "$state/after.json"
  shot sweep --open "$state/sweep.json"
  shot sustained --open "$state/sustained.json"
done

# The metainfo states each picture's size: write what was made.
python3 - "$out" "$top/resources/io.github.diskmeter.Diskmeter.metainfo.xml.in" <<'PY'
import os, re, struct, sys
shots, metainfo = sys.argv[1], sys.argv[2]
def size(name):
    with open(os.path.join(shots, name), "rb") as f:
        return struct.unpack(">II", f.read(24)[16:24])
def fix(m):
    w, h = size(m.group(3))
    return '%swidth="%d" height="%d"%s%s' % (m.group(1), w, h, m.group(2), m.group(3))
with open(metainfo, encoding="utf-8") as f:
    text = f.read()
text, n = re.subn(r'(<image type="source" )width="\d+" height="\d+"([^>]*>@SCREENSHOT_URL@/)([^<]+)',
                  fix, text)
missing = [m for m in re.findall(r'@SCREENSHOT_URL@/([^<]+)', text)
           if not os.path.isfile(os.path.join(shots, m))]
if missing:
    sys.exit("update.sh: the metainfo names pictures not made: %s" % " ".join(missing))
with open(metainfo, "w", encoding="utf-8") as f:
    f.write(text)
print("%s: %d sizes written" % (os.path.basename(metainfo), n))
PY
