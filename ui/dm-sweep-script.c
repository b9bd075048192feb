/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window as a DmScriptable: a script's run is the window's
 * Start with the plan it shows, whatever its kind (the QD x threads grid,
 * a block sweep or a rate curve: dm_sweep_window_set_kind chooses it as a
 * person would), and its saves are the window's. The waiting, saving and
 * closing are DmScript's, as for every window.
 */
#include "dm-sweep-script.h"

#include "dm-sweep-window.h"

/* Start, which says on the status line why it cannot. */
static gboolean
scriptable_start (DmScriptable *window)
{
  gtk_widget_activate_action (GTK_WIDGET (window), "sweep.start", NULL);
  return dm_sweep_window_is_running (DM_SWEEP_WINDOW (window));
}

static gboolean
scriptable_save (DmScriptable *window,
                 const char   *format,
                 const char   *path,
                 GError      **error)
{
  if (g_strcmp0 (format, "text") == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "A sweep is saved as JSON, CSV, a screenshot or a PDF");
      return FALSE;
    }
  return dm_sweep_window_save (DM_SWEEP_WINDOW (window), format, path, error);
}

static gboolean
scriptable_is_running (DmScriptable *window)
{
  return dm_sweep_window_is_running (DM_SWEEP_WINDOW (window));
}

void
_dm_sweep_window_scriptable_init (DmScriptableInterface *iface)
{
  iface->start = scriptable_start;
  iface->save = scriptable_save;
  iface->is_running = scriptable_is_running;
}
