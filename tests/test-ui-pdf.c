/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests/gui-pdf.sh: "sweep FOLDER PDF" runs a small sweep in the
 * Sweep window on FOLDER (QD 1,2 x 1 thread, 16 MiB, 0.2 s each), waits
 * for its end however it ends, and saves the window as a PDF. The
 * Sweep window has no command line of its own, and a failed sweep's
 * reason is on its status line only, so the PDF's text is where the test
 * reads it.
 */
#include <locale.h>
#include <stdlib.h>

#include <gtk/gtk.h>

#include "dm-i18n-ui.h"
#include "dm-sweep-window.h"
#include "dm-ui.h"

#define WAIT_S 60

static void
on_after_paint (GdkFrameClock *clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

/* Iterates until the window has been painted once more, or WAIT_S. */
static gboolean
wait_paint (GtkWidget *window)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  gboolean painted = FALSE;
  GdkFrameClock *clock;
  gulong handler;

  while (!gtk_widget_get_mapped (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  clock = gtk_widget_get_frame_clock (window);
  if (!clock)
    return FALSE;
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (window);
  while (!painted && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);
  g_signal_handler_disconnect (clock, handler);
  return painted;
}

static int
sweep (const char *folder,
       const char *pdf)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.diskmeter.Diskmeter");
  g_autoptr (GError) error = NULL;
  gint64 deadline;
  GtkWidget *window;

  g_settings_set_string (settings, "size", "16MiB");
  g_settings_set_double (settings, "measure-time", 0.2);
  g_settings_set_double (settings, "warmup", 0);
  g_settings_set_double (settings, "interval", 0);
  window = dm_sweep_window_new (NULL, settings);
  dm_sweep_window_set_plan (DM_SWEEP_WINDOW (window), "1,2", "1", folder);
  gtk_window_present (GTK_WINDOW (window));
  if (!wait_paint (window))
    {
      g_printerr ("test-ui-pdf: the Sweep window was not drawn\n");
      return 1;
    }
  gtk_widget_activate_action (window, "sweep.start", NULL);
  deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  while (dm_sweep_window_is_running (DM_SWEEP_WINDOW (window)))
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_printerr ("test-ui-pdf: the sweep did not end within %d s\n", WAIT_S);
          return 1;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  if (!wait_paint (window) || !dm_sweep_window_save (DM_SWEEP_WINDOW (window), "pdf", pdf, &error))
    {
      g_printerr ("test-ui-pdf: %s\n", error ? error->message : "the window was not drawn");
      return 1;
    }
  g_print ("test-ui-pdf: the sweep in %s saved as %s\n", folder, pdf);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc != 4 || !g_str_equal (argv[1], "sweep"))
    {
      g_printerr ("usage: %s sweep FOLDER PDF\n", argv[0]);
      return 2;
    }
  /* In the user's language, as diskmeter binds it (the build's catalogues
   * through DISKMETER_LOCALEDIR). */
  setlocale (LC_ALL, "");
  if (g_getenv ("DISKMETER_LOCALEDIR"))
    bindtextdomain (GETTEXT_PACKAGE, g_getenv ("DISKMETER_LOCALEDIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  gtk_init ();
  dm_ui_init ();
  return sweep (argv[2], argv[3]);
}
