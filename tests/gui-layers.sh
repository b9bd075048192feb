#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's code calls downward only: the application knows the main
# window, the main window knows the History window, and nothing answers back
# by calling up. The History window asks with signals, the main window tells
# the application with its running property (a script with its done
# callback), and the window's private header stays among the window's own
# files (and its tests).
# And the build's facts are stated once (config.h).
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
# The build's facts are written once: the version in meson.build's
# project() (config.h carries it), the compiled-in features in config.h, a
# data limit where the data lives (engine/), and a log domain per folder.
src="$DM_SOURCE_ROOT"
dm_check "DM_VERSION is defined nowhere in the sources (config.h has it)" \
  test -z "$(grep -rln '#define DM_VERSION' "$src"/engine "$src"/platform "$src"/ui "$src"/app)"
dm_check "no meson.build passes -DDM_HAVE_* (config.h has the features)" \
  test -z "$(grep -rl --include=meson.build -e "-DDM_HAVE" "$src"/meson.build "$src"/platform \
             "$src"/engine "$src"/ui "$src"/app "$src"/tests)"
dm_check "DM_THRESHOLDS_MAX is defined once, in engine/" \
  test "$(grep -rl '#define DM_THRESHOLDS_MAX' "$src"/engine "$src"/platform "$src"/ui "$src"/app | xargs -r -n1 dirname | xargs -r -n1 basename | tr '\n' ' ')" = "engine "
dm_check "the window's folder has its own log domain" grep -q "G_LOG_DOMAIN=" "$src/ui/meson.build"
if [ -n "${DM_CLI:-}" ] && [ -x "$DM_CLI" ]; then
  want=$(sed -n "s/^  version: '\(.*\)',$/\1/p" "$src/meson.build" | head -1)
  got=$("$DM_CLI" --version)
  dm_check "diskmeter-cli --version says meson.build's version ($got, $want)" \
    test "$got" = "diskmeter-cli $want"
fi

dm_finish
