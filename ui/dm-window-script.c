/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run from the command line (--run, --save-*, --quit-when-done): it waits
 * for the window's first frame, starts, and once the last figure is drawn
 * writes the files it was asked for and closes the window if told to.
 * What went wrong sets the window's exit-status property, which the
 * application turns into the process's.
 */
#include "dm-window-private.h"

#include <math.h>

#include "dm-frame-wait.h"

void
dm_script_free (DmScript *script)
{
  if (!script)
    return;
  g_free (script->screenshot);
  g_free (script->json);
  g_free (script->text);
  g_free (script->csv);
  g_free (script);
}

/* --- scripted runs ------------------------------------------------------- */

/* Writes the files a script asked for; the screenshot only while the
 * window is still on screen. */
void
_dm_window_script_save (DmWindow *self,
                        gboolean  with_screenshot)
{
  DmScript *script = self->script;
  const struct { DmExportKind kind; const char *path; } outputs[] = {
    { DM_EXPORT_JSON, script->json },
    { DM_EXPORT_TEXT, script->text },
    { DM_EXPORT_CSV, script->csv },
    { DM_EXPORT_PNG, with_screenshot ? script->screenshot : NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_autoptr (GError) error = NULL;

      if (!outputs[i].path)
        continue;
      if (!_dm_window_export_to (self, outputs[i].kind, outputs[i].path, &error))
        {
          dm_window_show_error (self, error->message);
          _dm_window_set_exit_status (self, 1);
        }
      else if (outputs[i].kind == DM_EXPORT_PNG)
        {
          double scale = script->screenshot_scale > 0 ? script->screenshot_scale : 1;
          int w = gtk_widget_get_width (GTK_WIDGET (self));
          int h = gtk_widget_get_height (GTK_WIDGET (self));

          g_print ("diskmeter: saved screenshot %dx%d to %s (window %dx%d, scale %g)\n",
                   (int) ceil (w * scale), (int) ceil (h * scale), outputs[i].path, w, h, scale);
        }
      else
        g_print ("diskmeter: saved %s\n", outputs[i].path);
    }
}

static void
script_finish (DmWindow *self)
{
  gboolean quit = self->script->quit_when_done;

  _dm_window_script_save (self, TRUE);
  g_clear_pointer (&self->script, dm_script_free);
  if (quit)
    gtk_window_close (GTK_WINDOW (self));
}

static void
script_after_paint (GtkWidget *widget)
{
  DmWindow *self = DM_WINDOW (widget);

  /* Right after a paint every widget's render node is fresh, so the
   * screenshot shows the final figures, laid out and drawn. */
  if (self->script && !self->job)
    script_finish (self);
}

void
_dm_window_script_continue (DmWindow *self)
{
  dm_frame_wait_paint (GTK_WIDGET (self), script_after_paint);
}

static gboolean
script_begin (gpointer data)
{
  DmWindow *self = DM_WINDOW (data);

  if (!self->script)
    return G_SOURCE_REMOVE;
  if (self->script->run)
    {
      self->script->run = FALSE;
      _dm_window_start (self, -1);
      if (!self->job)
        {
          /* It could not even start (bad settings): the message is shown,
           * the script still writes what it can and quits. */
          _dm_window_set_exit_status (self, 1);
          _dm_window_script_continue (self);
        }
    }
  else
    _dm_window_script_continue (self);
  return G_SOURCE_REMOVE;
}

void
dm_window_run_script (DmWindow *self,
                      DmScript *script)
{
  if (self->job)
    {
      dm_window_show_error (self, "A run is already in progress; the new request was ignored.");
      dm_script_free (script);
      return;
    }
  g_clear_pointer (&self->script, dm_script_free);
  self->script = script;
  /* Start from the first frame on screen, so a screenshot has a window,
   * and let the window settle (first layouts, fonts, the target scan) so
   * a scripted run starts on a window in the state a user would click in. */
  dm_frame_wait_first (GTK_WIDGET (self), 150, script_begin);
}
