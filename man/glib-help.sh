#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the window's program for help2man, which reads a synopsis only from
# "Usage: PROGRAM ..." on one line, while GLib prints "Usage:" and the
# command line below it. GSettings stays in memory: the build writes
# nothing under the builder's home. help2man names the page after this
# script, so meson calls it "diskmeter" in the build folder.
GSETTINGS_BACKEND=memory "@PROGRAM@" "$@" | sed '/^Usage:$/{N;s/\n */ /;}'
