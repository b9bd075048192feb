/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window as a DmScriptable: a script (--run, --save-*,
 * --quit-when-done) starts the grid's run over every test, saves what the
 * grid shows and shows its errors in the window's error bar. The waiting,
 * saving and closing are DmScript's, as for every window.
 */
#include "dm-window-private.h"

static gboolean
scriptable_start (DmScriptable *window)
{
  DmWindow *self = DM_WINDOW (window);

  /* A start that fails (bad settings) shows why in the error bar. */
  _dm_window_start (self, -1);
  return dm_window_is_running (self);
}

static gboolean
scriptable_save (DmScriptable *window,
                 const char   *format,
                 const char   *path,
                 GError      **error)
{
  return dm_window_save (DM_WINDOW (window), format, path, error);
}

static gboolean
scriptable_is_running (DmScriptable *window)
{
  return dm_window_is_running (DM_WINDOW (window));
}

static void
scriptable_show_error (DmScriptable *window,
                       const char   *message)
{
  dm_window_show_error (DM_WINDOW (window), message);
}

void
_dm_window_scriptable_init (DmScriptableInterface *iface)
{
  iface->start = scriptable_start;
  iface->save = scriptable_save;
  iface->is_running = scriptable_is_running;
  iface->show_error = scriptable_show_error;
}
