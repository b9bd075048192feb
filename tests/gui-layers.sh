#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's code calls downward only: the application knows the main
# window, the main window knows the History window, and nothing answers back
# by calling up. The History window asks with signals, the main window tells
# the application with its running and exit-status properties, and the
# window's private header stays among the window's own files (and its tests).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ui="$DM_SOURCE_ROOT/ui"

includers ()  # header: the ui/ files that include it
{
  grep -l "#include \"$1\"" "$ui"/*.c "$ui"/*.h 2>/dev/null | xargs -r -n1 basename | sort | tr '\n' ' '
}

only ()  # header allowed...: fails when another ui/ file includes header
{
  local header="$1" file bad=""
  shift
  for file in $(includers "$header"); do
    case " $* " in *" $file "*) ;; *) bad="$bad $file" ;; esac
  done
  [ -z "$bad" ] || { echo "#   $header is included by:$bad"; return 1; }
}

dm_check "only the application includes dm-application.h (the window does not call up)" \
  only dm-application.h dm-application.c
dm_check "dm-window.h is included by the window's files and the application only" \
  only dm-window.h dm-window.c dm-window-private.h dm-application.c
dm_check "dm-window-private.h stays among the window's own files" \
  only dm-window-private.h dm-window.c dm-window-actions.c dm-window-compare.c \
  dm-window-script.c dm-window-settings.c dm-window-targets.c dm-window-zoom.c
dm_check "the History window does not know the main window (it emits open-run and compare-runs)" \
  only dm-history-window.h dm-window-private.h dm-window-actions.c dm-window-compare.c \
  dm-history-window.c
for f in "$ui"/dm-window*.c; do
  n=$(wc -l <"$f")
  dm_check "$(basename "$f") is about a thousand lines at most ($n)" test "$n" -le 1100
done
dm_finish
