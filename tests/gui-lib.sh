# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shared by the window's tests: a private Xvfb display and the environment a
# GTK test needs (memory GSettings with the build's schema, the cairo
# renderer, no accessibility bus). Sourced, not run.

: "${DM_BUILD_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../build" 2>/dev/null && pwd)}"

export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="${GSETTINGS_SCHEMA_DIR:-$DM_BUILD_ROOT/resources}"
export GSK_RENDERER="${GSK_RENDERER:-cairo}"
export GTK_A11Y=none
export NO_AT_BRIDGE=1
# A session bus the tests did not start is not theirs to talk to.
unset DBUS_SESSION_BUS_ADDRESS

_dm_xvfb_pid=""
_dm_xvfb_fifo=""

# Starts Xvfb on a free display and exports DISPLAY. Returns non-zero, with
# a reason, if Xvfb is missing or does not come up.
dm_gui_start_display ()
{
  local fd_file display=""
  if ! command -v Xvfb >/dev/null; then
    echo "FAIL: Xvfb is missing (build-aux/dev installs the xvfb package)"
    return 1
  fi
  fd_file="$(mktemp "${TMPDIR:-/tmp}/diskmeter-xvfb-XXXXXX")" || return 1
  _dm_xvfb_fifo="$fd_file"
  # -displayfd: Xvfb chooses a free display number and writes it to fd 3.
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$fd_file" \
    >/dev/null 2>&1 &
  _dm_xvfb_pid=$!
  for _ in $(seq 1 100); do
    display="$(head -n1 "$fd_file" 2>/dev/null)"
    [ -n "$display" ] && break
    kill -0 "$_dm_xvfb_pid" 2>/dev/null || break
    sleep 0.05
  done
  rm -f "$fd_file"
  if [ -z "$display" ]; then
    echo "FAIL: Xvfb did not start"
    dm_gui_stop_display
    return 1
  fi
  export DISPLAY=":$display"
  unset WAYLAND_DISPLAY
  return 0
}

dm_gui_stop_display ()
{
  if [ -n "$_dm_xvfb_pid" ]; then
    kill "$_dm_xvfb_pid" 2>/dev/null
    wait "$_dm_xvfb_pid" 2>/dev/null
    _dm_xvfb_pid=""
  fi
}

_dm_gui_lib_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Reads a screenshot without an imaging package: dm_png stats FILE, or
# dm_png colours FILE R,G,B..., or dm_png centre FILE R,G,B (what each
# prints is in tests/png.py).
dm_png ()
{
  python3 "$_dm_gui_lib_dir/png.py" "$@"
}
