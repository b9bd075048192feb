#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window's code calls downward only: the application knows the main
# window, the main window knows the History window, and nothing answers back
# by calling up. The History window asks with signals, the main window tells
# the application with its running property (a script with its done
# callback), and the window's private header stays among the window's own
# files (and its tests).
# The main window's files form a star: each topic file (dm-window-*.c) calls
# dm-window.c, never another topic file. And the build's facts are stated
# once (config.h).
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
  only dm-application.h dm-application.c dm-application-private.h
dm_check "dm-application-private.h stays among the application's own files" \
  only dm-application-private.h dm-application.c dm-application-windows.c
dm_check "dm-window.h is included by the window's files and the application only" \
  only dm-window.h dm-window.c dm-window-private.h dm-application.c dm-application-windows.c
dm_check "dm-window-private.h stays among the window's own files" \
  only dm-window-private.h dm-window.c dm-window-actions.c dm-window-grid.c \
  dm-window-history.c dm-window-script.c dm-window-settings.c dm-window-targets.c
dm_check "the History window does not know the main window (it emits open-run and compare-runs)" \
  only dm-history-window.h dm-window-history.c dm-history-window.c

# star DIR: lists, for each topic file DIR/dm-window-*.c, the window's
# functions it calls (_dm_window_* and dm_window_*, comments and strings
# aside), and fails when one of them is defined in another topic file
# rather than in DIR/dm-window.c.
star ()
{
  python3 - "$1" <<'PY'
import glob, os, re, sys

def code (path):
    text = open (path, encoding="utf-8").read ()
    text = re.sub (r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub (r"//[^\n]*", " ", text)
    return re.sub (r'"(\\.|[^"\\\n])*"', '""', text)

folder = sys.argv[1]
files = {os.path.basename (f): code (f) for f in sorted (glob.glob (folder + "/dm-window*.c"))}
name = re.compile (r"(?<![\w])_?dm_window_\w+")
home = {}
for f, text in files.items ():
    for m in re.finditer (r"^(_?dm_window_\w+) \(", text, flags=re.M):
        home[m.group (1)] = f
bad = 0
for f, text in files.items ():
    if f == "dm-window.c":
        continue
    # A name at the start of a line is a definition, in GNU style.
    called = sorted ({m.group () for m in name.finditer (text)
                      if m.start () > 0 and text[m.start () - 1] != "\n"
                      and home.get (m.group (), f) != f})
    print ("#   %s calls %s" % (f, " ".join (called) or "nothing of the others"))
    for n in called:
        if home[n] != "dm-window.c":
            print ("#   %s calls %s, which is in %s, not in dm-window.c" % (f, n, home[n]))
            bad += 1
sys.exit (1 if bad else 0)
PY
}
dm_check "each dm-window-*.c calls only dm-window.c, never another topic file" star "$ui"
for f in "$ui"/dm-window*.c; do
  n=$(wc -l <"$f")
  dm_check "$(basename "$f") is under 900 lines ($n)" test "$n" -lt 900
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
