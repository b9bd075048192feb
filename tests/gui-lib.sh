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

# dm_gui_close_window PID: closes PID's windows on $DISPLAY as a window
# manager does when the user clicks their close button: a WM_DELETE_WINDOW
# message to each normal top-level window whose _NET_WM_PID is PID and
# which takes that message. Through libX11
# itself (ctypes), as GTK already needs it; 1 if PID has no window.
dm_gui_close_window ()
{
  python3 - "$1" <<'PY'
import ctypes, ctypes.util, sys
pid = int(sys.argv[1])
x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
ul, vp = ctypes.c_ulong, ctypes.c_void_p
x.XOpenDisplay.restype = vp
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = ul
x.XDefaultRootWindow.argtypes = [vp]
x.XInternAtom.restype = ul
x.XInternAtom.argtypes = [vp, ctypes.c_char_p, ctypes.c_int]
x.XQueryTree.argtypes = [vp, ul, ctypes.POINTER(ul), ctypes.POINTER(ul),
                         ctypes.POINTER(ctypes.POINTER(ul)), ctypes.POINTER(ctypes.c_uint)]
x.XGetWindowProperty.argtypes = [vp, ul, ul, ctypes.c_long, ctypes.c_long, ctypes.c_int, ul,
                                 ctypes.POINTER(ul), ctypes.POINTER(ctypes.c_int),
                                 ctypes.POINTER(ul), ctypes.POINTER(ul),
                                 ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
x.XSendEvent.argtypes = [vp, ul, ctypes.c_int, ctypes.c_long, vp]
x.XFlush.argtypes = [vp]
x.XFree.argtypes = [vp]
x.XGetWMProtocols.argtypes = [vp, ul, ctypes.POINTER(ctypes.POINTER(ul)), ctypes.POINTER(ctypes.c_int)]

class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ul), ("send_event", ctypes.c_int),
                ("display", vp), ("window", ul), ("message_type", ul), ("format", ctypes.c_int),
                ("l", ctypes.c_long * 5)]
class XEvent(ctypes.Union):
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]

dpy = x.XOpenDisplay(None)
if not dpy:
    sys.exit("cannot open the display")
net_wm_pid = x.XInternAtom(dpy, b"_NET_WM_PID", 0)
wm_type = x.XInternAtom(dpy, b"_NET_WM_WINDOW_TYPE", 0)
normal = x.XInternAtom(dpy, b"_NET_WM_WINDOW_TYPE_NORMAL", 0)
protocols = x.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
delete = x.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
def prop(w, atom):
    kind, fmt, count, after = ul(), ctypes.c_int(), ul(), ul()
    data = ctypes.POINTER(ctypes.c_ubyte)()
    if x.XGetWindowProperty(dpy, w, atom, 0, 1, 0, 0, ctypes.byref(kind), ctypes.byref(fmt),
                            ctypes.byref(count), ctypes.byref(after), ctypes.byref(data)) != 0:
        return None
    value = ctypes.cast(data, ctypes.POINTER(ul))[0] if data and count.value else None
    if data:
        x.XFree(data)
    return value
root, parent, n = ul(), ul(), ctypes.c_uint()
children = ctypes.POINTER(ul)()
x.XQueryTree(dpy, x.XDefaultRootWindow(dpy), ctypes.byref(root), ctypes.byref(parent),
             ctypes.byref(children), ctypes.byref(n))
closed = 0
for i in range(n.value):
    w = children[i]
    # A normal window of PID's, one a window manager gives a close button
    # (GDK's hidden leader window has the same PID but no type).
    if prop(w, net_wm_pid) != pid or prop(w, wm_type) != normal:
        continue
    # Only a window that takes the message.
    atoms, n_atoms = ctypes.POINTER(ul)(), ctypes.c_int()
    takes = False
    if x.XGetWMProtocols(dpy, w, ctypes.byref(atoms), ctypes.byref(n_atoms)):
        takes = delete in atoms[:n_atoms.value]
        x.XFree(atoms)
    if not takes:
        continue
    ev = XEvent()
    ev.xclient.type = 33  # ClientMessage
    ev.xclient.window = w
    ev.xclient.message_type = protocols
    ev.xclient.format = 32
    ev.xclient.l[0] = delete
    ev.xclient.l[1] = 0  # CurrentTime
    x.XSendEvent(dpy, w, 0, 0, ctypes.byref(ev))
    closed += 1
x.XFlush(dpy)
if children:
    x.XFree(children)
print("# sent WM_DELETE_WINDOW to %d window(s) of process %d" % (closed, pid))
sys.exit(0 if closed else 1)
PY
}
