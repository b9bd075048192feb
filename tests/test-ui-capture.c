/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the Capture window on a real (Xvfb) display for
 * tests/gui-capture.sh, the way a user does: "run DISK OUT" opens the
 * application's main window with DISK as its target, opens Capture…
 * from the application's menu action, starts a capture of 60 s, writes
 * OUT/capturing once the window says it captures, presses Cancel once
 * OUT/stop appears (OUT/ended once the capture has), saves the window's summary (summary.txt), the
 * capture's JSON and a PNG of the window, then presses Use as Grid Row
 * and saves the main window's JSON (grid.json) and screenshot (grid.png);
 * with a HEADROOM folder after them, it presses Headroom and saves its
 * text (headroom.txt) and JSON (headroom.json) once it is done; last it
 * starts another capture and closes the window while it runs.
 * "counters DISK OUT" does the same with a capture of 4 s left to end on
 * its own, for a user without root: it saves the summary and what Use as
 * Grid Row answered (use-row.txt) before the grid's JSON.
 */
#include <stdlib.h>

#include <gtk/gtk.h>

#include "dm-capture-window.h"
#include "dm-ui-test.h"

#define WAIT_S 180

static const char *out;

static char *
out_path (const char *name)
{
  return g_build_filename (out, name, NULL);
}

/* The first label under root whose text begins with prefix. */
static GtkWidget *
find_label (GtkWidget  *root,
            const char *prefix)
{
  if (GTK_IS_LABEL (root) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (root)), prefix))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, prefix);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
wait_for (gboolean (*until) (gpointer), gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (!until (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
  return TRUE;
}

static gboolean
capturing (gpointer w)
{
  return find_label (w, "Capturing ") != NULL || !dm_capture_window_is_running (w);
}

static gboolean
stop_asked (gpointer w)
{
  g_autofree char *stop = out_path ("stop");

  return g_file_test (stop, G_FILE_TEST_EXISTS) || !dm_capture_window_is_running (w);
}

static gboolean
ended (gpointer w)
{
  return !dm_capture_window_is_running (w);
}

static void
fail (const char *what, GError *error)
{
  g_printerr ("test-ui-capture: %s%s%s\n", what, error ? ": " : "", error ? error->message : "");
  exit (1);
}

int
main (int   argc,
      char *argv[])
{
  DmApplication *app;
  GSettings *settings;
  DmWindow *main_window;
  DmCaptureWindow *w = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL, *path = NULL;

  gboolean counters = argc == 4 && g_str_equal (argv[1], "counters");
  const char *headroom = argc == 5 ? argv[4] : NULL;

  if (argc < 4 || argc > 5 || (!counters && !g_str_equal (argv[1], "run")))
    {
      g_printerr ("usage: %s run DISK OUT [HEADROOM] | counters DISK OUT\n", argv[0]);
      return 2;
    }
  out = argv[3];
  main_window = dm_ui_test_open_window (NULL, &app, &settings);
  g_settings_set_string (settings, "target", argv[2]);
  /* The main window reads its new target (its label, its size) first:
   * those are no part of the load the capture is to see. */
  {
    gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;
    gboolean settled = FALSE;

    while (!settled || g_get_monotonic_time () < until)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (10000);
        g_object_get (main_window, "settled", &settled, NULL);
      }
  }
  /* The menu's entry: Capture… (app.capture). */
  g_action_group_activate_action (G_ACTION_GROUP (app), "capture", NULL);
  dm_ui_test_spin ();
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (DM_IS_CAPTURE_WINDOW (l->data))
      w = l->data;
  if (!w)
    fail ("Capture… opened no capture window", NULL);
  for (int i = 0; i < 200 && !gtk_widget_get_mapped (GTK_WIDGET (w)); i++)
    g_main_context_iteration (NULL, TRUE);
  if (!counters)
    {
      /* A target with no disk under it first: the engine's refusal, shown. */
      GtkWidget *said;

      dm_capture_window_set_plan (w, "60", "/dev/shm", NULL);
      gtk_widget_activate_action (GTK_WIDGET (w), "capture.start", NULL);
      if (!wait_for (ended, w))
        fail ("a capture of /dev/shm did not end", NULL);
      dm_ui_test_spin ();
      said = find_label (GTK_WIDGET (w), "Cannot capture");
      g_free (path), path = out_path ("refused.txt");
      g_file_set_contents (path, said ? gtk_label_get_text (GTK_LABEL (said)) : "", -1, NULL);
      dm_capture_window_set_plan (w, NULL, argv[2], NULL);
    }
  dm_capture_window_set_plan (w, counters ? "4" : "60", NULL, NULL);
  gtk_widget_activate_action (GTK_WIDGET (w), "capture.start", NULL);
  if (!dm_capture_window_is_running (w))
    fail ("Start did not start a capture", NULL);
  if (!wait_for (capturing, w) || !dm_capture_window_is_running (w))
    fail ("the window never said it was capturing", NULL);
  path = out_path ("capturing");
  g_file_set_contents (path, gtk_label_get_text (GTK_LABEL (find_label (GTK_WIDGET (w),
                                                                       "Capturing "))),
                       -1, NULL);
  if (!counters && (!wait_for (stop_asked, w) || !dm_capture_window_is_running (w)))
    fail ("the capture ended before it was cancelled", NULL);
  if (!counters)
    gtk_widget_activate_action (GTK_WIDGET (w), "capture.stop", NULL);
  if (!wait_for (ended, w))
    fail ("Cancel did not end the capture", NULL);
  g_free (path), path = out_path ("ended");
  g_file_set_contents (path, "ended", -1, NULL);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  summary = dm_capture_window_get_summary (w);
  g_free (path), path = out_path ("summary.txt");
  g_file_set_contents (path, summary, -1, NULL);
  g_free (path), path = out_path ("capture.json");
  if (!dm_capture_window_save (w, "json", path, &error))
    fail ("save json", error);
  g_free (path), path = out_path ("capture.png");
  if (!dm_capture_window_save (w, "png", path, &error))
    fail ("save png", error);
  /* The button, then the main window as a user sees it. */
  if (counters)
    {
      g_autoptr (GError) refused = NULL;
      gboolean used = dm_capture_window_use_as_row (w, &refused);

      g_free (path), path = out_path ("use-row.txt");
      g_file_set_contents (path, used ? "used" : refused->message, -1, NULL);
    }
  gtk_widget_activate_action (GTK_WIDGET (w), "capture.use-row", NULL);
  dm_ui_test_spin ();
  g_free (path), path = out_path ("use-row-status.txt");
  {
    GtkWidget *said = find_label (GTK_WIDGET (w), "The grid's row");

    said = said ? said : find_label (GTK_WIDGET (w), "Saved as");
    g_file_set_contents (path, said ? gtk_label_get_text (GTK_LABEL (said)) : "", -1, NULL);
  }
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_free (path), path = out_path ("grid.json");
  if (!dm_window_save (main_window, "json", path, &error))
    fail ("save the grid's json", error);
  g_free (path), path = out_path ("grid.png");
  if (!dm_window_save_screenshot (main_window, path, &error))
    fail ("save the grid's screenshot", error);
  if (counters)
    return 0;
  if (headroom)
    {
      g_autofree char *text = NULL;

      g_settings_set_string (settings, "size", "16MiB");
      dm_capture_window_set_plan (w, NULL, NULL, headroom);
      gtk_widget_activate_action (GTK_WIDGET (w), "capture.headroom", NULL);
      if (!dm_capture_window_is_running (w))
        fail ("Headroom did not start", NULL);
      if (!wait_for (ended, w))
        fail ("the headroom did not end in time", NULL);
      for (int i = 0; i < 20; i++)
        g_main_context_iteration (NULL, FALSE);
      text = dm_capture_window_get_headroom (w);
      g_free (path), path = out_path ("headroom.txt");
      g_file_set_contents (path, text, -1, NULL);
      g_free (path), path = out_path ("headroom.json");
      if (!dm_capture_window_save (w, "headroom-json", path, &error))
        fail ("save the headroom's json", error);
      g_free (path), path = out_path ("headroom.png");
      if (!dm_capture_window_save (w, "png", path, &error))
        fail ("save png", error);
    }
  /* Closed while capturing: the window ends the capture and goes. */
  gtk_widget_activate_action (GTK_WIDGET (w), "capture.start", NULL);
  if (!wait_for (capturing, w) || !dm_capture_window_is_running (w))
    fail ("the second capture did not start", NULL);
  gtk_window_destroy (GTK_WINDOW (w));
  dm_ui_test_spin ();
  g_free (path), path = out_path ("closed");
  g_file_set_contents (path, "closed", -1, NULL);
  return 0;
}
