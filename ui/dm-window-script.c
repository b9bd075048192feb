/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window as a DmScriptable: a script (--run, --save-*,
 * --quit-when-done) starts the grid's run over every test, saves what the
 * grid shows and shows its errors in the window's error bar. The waiting,
 * saving and closing are DmScript's, as for every window. A comparison
 * (--compare-with, or --open given twice) ends its log with the whole
 * comparison, A's figures, B's and the differences, in the lines
 * `diskmeter-cli compare` prints.
 */
#include "dm-window-private.h"

#include "dm-compare.h"

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

static char *
scriptable_summary (DmScriptable *window)
{
  DmWindow *self = DM_WINDOW (window);
  const dm_compare *compare = dm_comparison_get_compare (self->comparison);
  g_auto (GStrv) lines = NULL;
  GString *log;
  dm_buf text;

  if (!compare)
    return NULL;
  dm_buf_init (&text);
  dm_compare_write_text (compare, &text);
  if (text.error || !text.data)
    {
      dm_buf_free (&text);
      return NULL;
    }
  /* Every line of the log is the window's ("diskmeter: "), so a script
   * tells it from other output; the script puts the first one's. */
  lines = g_strsplit (g_strchomp (text.data), "\n", -1);
  dm_buf_free (&text);
  log = g_string_new (NULL);
  for (guint i = 0; lines[i]; i++)
    g_string_append_printf (log, "%s%s", i ? "\ndiskmeter: " : "", lines[i]);
  return g_string_free (log, FALSE);
}

void
_dm_window_scriptable_init (DmScriptableInterface *iface)
{
  iface->start = scriptable_start;
  iface->save = scriptable_save;
  iface->is_running = scriptable_is_running;
  iface->show_error = scriptable_show_error;
  iface->summary = scriptable_summary;
}
