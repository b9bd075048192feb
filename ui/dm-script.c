/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one scripted run (see dm-script.h): it rides on its window as object
 * data, waits for frames rather than times, and writes the same files with
 * the same log lines whichever window it drives. A window that goes away
 * before its files were written fails the script.
 */
#include "dm-script.h"

#include <math.h>

#include "dm-frame-wait.h"

G_DEFINE_INTERFACE (DmScriptable, dm_scriptable, GTK_TYPE_WINDOW)

static void
dm_scriptable_default_init (DmScriptableInterface *iface)
{
}

/* A script under way, on its window. */
typedef struct
{
  DmScript     *script;
  GtkWindow    *window;   /* not a reference: a weak one tells when it goes */
  DmScriptDone  done;
  gpointer      user_data;
  int           status;   /* the worst so far */
  gboolean      begun;
} ScriptRun;

static GQuark
script_quark (void)
{
  return g_quark_from_static_string ("dm-script-run");
}

DmScript *
dm_script_new (void)
{
  return g_new0 (DmScript, 1);
}

void
dm_script_free (DmScript *script)
{
  if (!script)
    return;
  g_free (script->screenshot);
  g_free (script->json);
  g_free (script->text);
  g_free (script->csv);
  g_free (script->pdf);
  g_free (script);
}

gboolean
dm_script_has_outputs (const DmScript *script)
{
  return script->quit_when_done || script->screenshot || script->json || script->text
         || script->csv || script->pdf;
}

gboolean
dm_script_is_empty (const DmScript *script)
{
  return !script->run && !dm_script_has_outputs (script);
}

static ScriptRun *
run_of (gpointer window)
{
  return window ? g_object_get_qdata (G_OBJECT (window), script_quark ()) : NULL;
}

const DmScript *
dm_script_get (gpointer window)
{
  ScriptRun *run = run_of (window);

  return run ? run->script : NULL;
}

double
dm_script_screenshot_scale (gpointer window)
{
  const DmScript *script = dm_script_get (window);

  return script && script->screenshot_scale > 0 ? script->screenshot_scale : 1;
}

static void
show_error (ScriptRun  *run,
            const char *message)
{
  DmScriptableInterface *iface = DM_SCRIPTABLE_GET_IFACE (run->window);

  if (iface->show_error)
    iface->show_error (DM_SCRIPTABLE (run->window), message);
  else
    g_printerr ("diskmeter: %s\n", message);
}

/* Off the window, done told, freed. */
static void
run_end (ScriptRun *run)
{
  g_object_set_qdata (G_OBJECT (run->window), script_quark (), NULL);
  if (run->done)
    run->done (run->user_data, run->status);
  dm_script_free (run->script);
  g_free (run);
}

static void
on_window_gone (gpointer data,
                GObject *where_it_was)
{
  ScriptRun *run = data;

  /* Closed (by the user, or by another script's quit) before its files. */
  g_printerr ("diskmeter: the window was closed before the run was saved\n");
  run->status = MAX (run->status, 1);
  if (run->done)
    run->done (run->user_data, run->status);
  dm_script_free (run->script);
  g_free (run);
}

/* Writes the files a script asked for; the screenshot only while the
 * window is still on screen. The screenshot last, so it shows the window
 * as the saves left it (an error bar among them). */
static void
save_outputs (ScriptRun *run,
              gboolean   with_screenshot)
{
  DmScriptable *window = DM_SCRIPTABLE (run->window);
  DmScript *script = run->script;
  const struct { const char *format; const char *path; } outputs[] = {
    { "json", script->json },
    { "text", script->text },
    { "csv", script->csv },
    /* Drawn from the window too, so on screen only, as the screenshot. */
    { "pdf", with_screenshot ? script->pdf : NULL },
    { "png", with_screenshot ? script->screenshot : NULL },
  };
  g_autofree char *summary = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_autoptr (GError) error = NULL;

      if (!outputs[i].path)
        continue;
      if (!DM_SCRIPTABLE_GET_IFACE (window)->save (window, outputs[i].format, outputs[i].path,
                                                   &error))
        {
          show_error (run, error->message);
          run->status = MAX (run->status, 1);
        }
      else if (g_str_equal (outputs[i].format, "png"))
        {
          double scale = dm_script_screenshot_scale (window);
          int w = gtk_widget_get_width (GTK_WIDGET (window));
          int h = gtk_widget_get_height (GTK_WIDGET (window));

          g_print ("diskmeter: saved screenshot %dx%d to %s (window %dx%d, scale %g)\n",
                   (int) ceil (w * scale), (int) ceil (h * scale), outputs[i].path, w, h, scale);
        }
      else
        g_print ("diskmeter: saved %s\n", outputs[i].path);
    }
  if (DM_SCRIPTABLE_GET_IFACE (window)->summary
      && (summary = DM_SCRIPTABLE_GET_IFACE (window)->summary (window)))
    g_print ("diskmeter: %s\n", summary);
}

static void
finish (ScriptRun *run)
{
  GtkWindow *window = run->window;
  gboolean quit = run->script->quit_when_done;

  save_outputs (run, TRUE);
  g_object_weak_unref (G_OBJECT (window), on_window_gone, run);
  run_end (run);
  /* Through close-request, as the close button. */
  if (quit)
    gtk_window_close (window);
}

static void
after_paint (GtkWidget *widget)
{
  ScriptRun *run = run_of (widget);

  /* Right after a paint every widget's render node is fresh, so the
   * screenshot shows the final figures, laid out and drawn. A run started
   * in between (by hand) is waited for. */
  if (run && !DM_SCRIPTABLE_GET_IFACE (widget)->is_running (DM_SCRIPTABLE (widget)))
    finish (run);
}

static gboolean
begin (gpointer data)
{
  ScriptRun *run = run_of (data);

  if (!run || run->begun)
    return G_SOURCE_REMOVE;
  run->begun = TRUE;
  if (run->script->run
      && !DM_SCRIPTABLE_GET_IFACE (run->window)->start (DM_SCRIPTABLE (run->window)))
    /* It could not even start (bad settings): the window said why; the
     * script still writes what it can and quits. */
    run->status = MAX (run->status, 1);
  else if (run->script->run)
    return G_SOURCE_REMOVE;  /* on to dm_script_run_finished */
  dm_frame_wait_paint (GTK_WIDGET (run->window), after_paint);
  return G_SOURCE_REMOVE;
}

void
dm_script_run (DmScript     *script,
               DmScriptable *window,
               DmScriptDone  done,
               gpointer      user_data)
{
  ScriptRun *run;

  g_return_if_fail (DM_IS_SCRIPTABLE (window));

  if (run_of (window) || DM_SCRIPTABLE_GET_IFACE (window)->is_running (window))
    {
      ScriptRun refused = { .window = GTK_WINDOW (window) };

      show_error (&refused, "A run is already in progress; the new request was ignored.");
      dm_script_free (script);
      return;
    }
  run = g_new0 (ScriptRun, 1);
  run->script = script;
  run->window = GTK_WINDOW (window);
  run->done = done;
  run->user_data = user_data;
  g_object_set_qdata (G_OBJECT (window), script_quark (), run);
  g_object_weak_ref (G_OBJECT (window), on_window_gone, run);
  /* Start from the first frame on screen, so a screenshot has a window,
   * and let the window settle (first layouts, fonts, the target scan) so
   * a scripted run starts on a window in the state a user would click in. */
  dm_frame_wait_first (GTK_WIDGET (window), 150, begin);
}

void
dm_script_run_finished (gpointer window,
                        int      status)
{
  ScriptRun *run = run_of (window);

  if (!run)
    return;
  run->status = MAX (run->status, status);
  dm_frame_wait_paint (GTK_WIDGET (window), after_paint);
}

void
dm_script_save_before_close (gpointer window,
                             int      status)
{
  ScriptRun *run = run_of (window);

  if (!run)
    return;
  run->status = MAX (run->status, status);
  save_outputs (run, FALSE);
  g_object_weak_unref (G_OBJECT (window), on_window_gone, run);
  run_end (run);
}
