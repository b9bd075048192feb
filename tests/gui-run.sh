#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a command on a private X display: Xvfb on the first free display
# number (Xvfb picks it and tells us through -displayfd), GSettings in memory
# with the build's compiled schema, and the cairo renderer so no GL is
# needed. Used by the widget tests and the window's end-to-end test.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/gui-lib.sh"

dm_gui_start_display || exit $?
"$@" &
pid=$!
wait "$pid"
rc=$?
dm_gui_stop_display
exit "$rc"
