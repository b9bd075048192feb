/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the Cache Probe window on a real (Xvfb) display for
 * tests/gui-cache-probe.sh: "run FOLDER MIN MAX JSON PNG" runs the ladder
 * to its end and saves its JSON and the window; "stop FOLDER MIN MAX JSON"
 * presses Stop once the first set is done and saves what was kept; "show
 * JSON PNG" opens a saved probe and saves the window.
 */
#include <stdlib.h>

#include <gtk/gtk.h>

#include "dm-cache-probe-window.h"
#include "dm-ui.h"

#define WAIT_S 240

static DmCacheProbeWindow *
start (const char *folder,
       const char *min,
       const char *max)
{
  GtkWidget *window = dm_cache_probe_window_new (NULL, NULL);
  g_autoptr (GError) error = NULL;

  dm_cache_probe_window_set_plan (DM_CACHE_PROBE_WINDOW (window), min, max, "10m",
                                  g_getenv ("DM_PROBE_DURATION"), folder);
  gtk_window_present (GTK_WINDOW (window));
  if (!dm_cache_probe_window_start (DM_CACHE_PROBE_WINDOW (window), &error))
    {
      g_printerr ("test-ui-cache-probe: %s\n", error->message);
      exit (1);
    }
  return DM_CACHE_PROBE_WINDOW (window);
}

/* Runs the main loop while until() is false and the probe runs. */
static gboolean
wait_while (DmCacheProbeWindow *w,
            gboolean          (*until) (DmCacheProbeWindow *w))
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (dm_cache_probe_window_is_running (w) && !(until && until (w)))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  return TRUE;
}

static gboolean
first_set_done (DmCacheProbeWindow *w)
{
  const dm_report *r = dm_cache_probe_window_get_report (w);
  return r && r->n_results > 1 && r->results[1].status == DM_STATUS_COMPLETE;
}

static int
save (DmCacheProbeWindow *w,
      const char         *format,
      const char         *path)
{
  g_autoptr (GError) error = NULL;

  /* Let the last figures reach the chart before it is saved. */
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  if (!dm_cache_probe_window_save (w, format, path, &error))
    {
      g_printerr ("test-ui-cache-probe: %s\n", error->message);
      return 1;
    }
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc < 4)
    {
      g_printerr ("usage: %s run FOLDER MIN MAX JSON PNG | stop FOLDER MIN MAX JSON | "
                  "show JSON PNG\n", argv[0]);
      return 2;
    }
  gtk_init ();
  dm_ui_init ();
  if (g_str_equal (argv[1], "show") && argc == 4)
    {
      GtkWidget *window = dm_cache_probe_window_new (NULL, NULL);
      g_autoptr (GError) error = NULL;

      gtk_window_present (GTK_WINDOW (window));
      if (!dm_cache_probe_window_load (DM_CACHE_PROBE_WINDOW (window), argv[2], &error))
        return g_printerr ("test-ui-cache-probe: %s\n", error->message), 1;
      /* Until the window is on screen and drawn. */
      for (int i = 0; i < 200 && !gtk_widget_get_mapped (window); i++)
        g_main_context_iteration (NULL, TRUE);
      return save (DM_CACHE_PROBE_WINDOW (window), "png", argv[3]);
    }
  if (argc < 6)
    return g_printerr ("test-ui-cache-probe: %s needs more arguments\n", argv[1]), 2;
  DmCacheProbeWindow *w = start (argv[2], argv[3], argv[4]);
  if (g_str_equal (argv[1], "run") && argc == 7)
    {
      if (!wait_while (w, NULL))
        return g_printerr ("test-ui-cache-probe: still running after %d s\n", WAIT_S), 1;
      return save (w, "json", argv[5]) || save (w, "png", argv[6]);
    }
  if (g_str_equal (argv[1], "stop") && argc == 6)
    {
      if (!wait_while (w, first_set_done) || !dm_cache_probe_window_is_running (w))
        return g_printerr ("test-ui-cache-probe: the first set did not finish in time\n"), 1;
      dm_cache_probe_window_stop (w);
      wait_while (w, NULL);
      return save (w, "json", argv[5]);
    }
  g_printerr ("test-ui-cache-probe: unknown mode %s\n", argv[1]);
  return 2;
}
