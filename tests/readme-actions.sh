#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's list of the window's actions (what `gapplication action`
# and scripts reach) is the list the code installs: the application's own
# entries, every win.* action of the main window (forwarded under the same
# name) and the settings that double as actions. With the window built and
# Xvfb and a session bus at hand, the running window's own org.gtk.Actions
# list over D-Bus is compared too, and the README's way of reaching it from
# the build tree is the one used.

. "$(dirname "$0")/lib.sh"

cd "$DM_SOURCE_ROOT" || dm_die "no source tree"

readme_actions ()
{
  # The paragraph that starts "Actions", its backquoted names.
  awk '/^Actions /{on=1} on && /^$/{exit} on' README.md \
    | tr '\n' ' ' | grep -o '`[a-z][a-z-]*`' | tr -d '`' | sort -u
}

code_actions ()
{
  {
    sed -n '/^static const GActionEntry app_actions\[\] = {/,/^};/p' ui/dm-application.c \
      | grep -o '{ "[a-z-]*"' | grep -o '[a-z-]*'
    grep -ho 'gtk_widget_class_install\(_property\)\?_action (widget_class, "win\.[a-z-]*"' ui/dm-window*.c ui/dm-study-actions.c \
      | grep -o 'win\.[a-z-]*' | sed 's/^win\.//'
    sed -n '/^add_settings_actions/,/^}/p' ui/dm-application.c \
      | sed -n '/keys\[\] = {/,/};/p' | grep -o '"[a-z-]*"' | tr -d '"'
  } | sort -u
}

dm_tmpdir
readme_actions > "$DM_TMPDIR/readme-actions.txt"
code_actions > "$DM_TMPDIR/code-actions.txt"
same_lists ()
{
  local d
  d="$(diff "$1" "$2")" || { printf '%s\n' "$d" | sed 's/^/#   /'; return 1; }
}
dm_check "the code installs actions (found $(wc -l < "$DM_TMPDIR/code-actions.txt"))" \
  test "$(wc -l < "$DM_TMPDIR/code-actions.txt")" -gt 20
dm_check "the README lists every action the code installs, and no other (< README, > code)" \
  same_lists "$DM_TMPDIR/readme-actions.txt" "$DM_TMPDIR/code-actions.txt"

# The running window, reached as the README says: its desktop file in the
# user's applications folder, gapplication list-actions working, and the
# actions over D-Bus the same list.
if [ -z "${DM_GUI:-}" ] || [ ! -x "$DM_GUI" ]; then
  dm_log "no window built (DM_GUI): the running window's list is not compared"
elif ! command -v dbus-run-session >/dev/null || ! command -v gdbus >/dev/null \
     || ! command -v gapplication >/dev/null || ! command -v Xvfb >/dev/null; then
  dm_check "dbus-run-session, gdbus, gapplication and Xvfb are installed (build-aux/dev installs them)" false
else
  . "$(dirname "$0")/gui-lib.sh"
  dm_gui_start_display || dm_die "no display"
  export XDG_DATA_HOME="$DM_TMPDIR/data"
  mkdir -p "$XDG_DATA_HOME/applications"
  cp resources/io.github.diskmeter.Diskmeter.desktop "$XDG_DATA_HOME/applications/"
  # The desktop file's Exec=diskmeter must be found, or GLib ignores it.
  PATH="$(dirname "$DM_GUI"):$PATH"
  timeout 60 dbus-run-session -- bash -c '
    id=io.github.diskmeter.Diskmeter
    "$DM_GUI" & gui=$!
    gdbus wait --session --timeout 15 "$id" || { kill $gui; exit 3; }
    gapplication list-actions "$id" > "$1/list-actions.txt" || { kill $gui; exit 4; }
    gdbus call --session --dest "$id" --object-path /io/github/diskmeter/Diskmeter \
      --method org.gtk.Actions.DescribeAll > "$1/describe.txt" || { kill $gui; exit 5; }
    gapplication action "$id" quit
    wait $gui' _ "$DM_TMPDIR" > "$DM_TMPDIR/dbus.log" 2>&1
  rc=$?
  dm_gui_stop_display
  grep -v "^dbus-daemon\|^$" "$DM_TMPDIR/dbus.log" | sed 's/^/#   /' | head -20
  dm_check "the window started, gapplication list-actions ran, and it quit (status $rc)" test "$rc" = 0
  grep -o "'[a-z][a-z-]*': (" "$DM_TMPDIR/describe.txt" | grep -o "[a-z][a-z-]*" | sort -u \
    > "$DM_TMPDIR/running.txt"
  dm_check "the running window's actions are the README's (< README, > running)" \
    same_lists "$DM_TMPDIR/readme-actions.txt" "$DM_TMPDIR/running.txt"
fi

dm_finish
