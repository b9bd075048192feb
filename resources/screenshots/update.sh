#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Remakes the screenshots the AppStream metainfo shows, with the window
# scripted as a user would script it, under a private Xvfb:
#   resources/screenshots/update.sh [BUILD_DIR] [FOLDER]
# main-window.png is the Default profile run on FOLDER (default: a scratch
# folder /var/tmp/diskmeter, on disk, made and removed here), sweep.png a
# small sweep of the same folder by diskmeter-cli, opened in the Sweep
# window. Short runs: the pictures show the layout, not a reference disk.
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
fi
trap 'dm_gui_stop_display; rm -rf "$state"; [ -n "${2:-}" ] || rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$state"
dm_gui_start_display

"$build/app/diskmeter" --target "$scratch" --profile default --count 1 --size 64MiB \
  --duration 1 --warmup 0 --interval 0 --comment "Debian 12 VM, virtio disk" \
  --run --save-screenshot "$out/main-window.png" --quit-when-done

"$build/app/diskmeter-cli" sweep --qd 1,2,4,8,16 --threads 1,2,4 --size 64MiB \
  --duration 1 --warmup 0 --quiet --format json --output "$state/sweep.json" "$scratch"
"$build/app/diskmeter" --open "$state/sweep.json" \
  --save-screenshot "$out/sweep.png" --quit-when-done

ls -l "$out"/*.png
