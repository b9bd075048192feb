/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The floor build-aux/measure-gui holds Diskmeter's window against: a bare
 * GtkApplication window with one label, drawn by the same GTK and renderer
 * and timed by the same dm-measure code. It quits after its first frame, as
 * `diskmeter --quit-when-done` does, so the two start-ups compare like for
 * like on a machine whose absolute times cannot be trusted.
 */
#include <gtk/gtk.h>

#include "dm-measure.h"

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       app)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, app);
  g_application_quit (G_APPLICATION (app));
}

static void
on_map (GtkWidget *window,
        gpointer   app)
{
  /* Connected after dm-measure's own handler, so the figure is printed
   * before the quit. */
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), app);
}

static void
on_activate (GtkApplication *app)
{
  GtkWidget *window = gtk_application_window_new (app);

  gtk_window_set_title (GTK_WINDOW (window), "Bare");
  gtk_window_set_default_size (GTK_WINDOW (window), 770, 506);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Bare window"));
  dm_measure_watch_first_frame (window);
  g_signal_connect_after (window, "map", G_CALLBACK (on_map), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GtkApplication) app = NULL;
  int status;

  /* What app/diskmeter-main.c chooses by default: no GL at all. */
  g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  app = gtk_application_new ("io.github.diskmeter.MeasureBare", G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  status = g_application_run (G_APPLICATION (app), argc, argv);
  dm_measure_exit ();
  return status;
}
