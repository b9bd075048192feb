/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Renders the Sweep window from a sweep JSON saved by diskmeter-cli, and
 * the latency detail of one of its combinations, to PNGs on a real (Xvfb)
 * display, for tests/gui-sweep.sh to judge. Usage: test-ui-sweep SWEEP.json
 * SWEEP.png LATENCY.png [QD THREADS]; it re-saves the sweep as JSON next
 * to the PNG (and CSV), to show the window's writers keep the sweep. With
 * --run FOLDER SWEEP.png SWEEP.json [--stop] the window runs a small sweep
 * itself through Start (and Stop once its first combination is measured)
 * and saves what it has; after FOLDER SWEEP.png SWEEP.json, --kind blocks|rates
 * chooses what it varies, with --blocks LIST, --bound DURATION, --qd N,
 * --threads N and --measure SECONDS as the window's fields take them (the
 * CSV is saved beside the JSON). With --device DEVICE FOLDER SWEEP.json it holds
 * the Mode control to Read (insensitive, with a tooltip) while the target
 * is a disk, runs a Write sweep chosen for FOLDER there, and gives the
 * choice back once the target is FOLDER again. After each sweep the window
 * is still open, and no descriptor of this process may still hold a file
 * on the target's filesystem: the test file has no name to look for. A
 * sweep shown from its JSON prints the summary under the maps.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gtk/gtk.h>

#include "dm-screenshot.h"
#include "dm-sweep-window.h"
#include "dm-ui.h"

/* The summary under the maps, the one label that ends "Click a cell for
 * its latency detail.", found in the widget tree; NULL without one. */
static const char *
summary_of (GtkWidget *w)
{
  if (GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), "Click a cell"))
    return gtk_label_get_text (GTK_LABEL (w));
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *text = summary_of (c);
      if (text)
        return text;
    }
  return NULL;
}

/* Lets the main loop lay out and paint: mapped, sized and a few frames on. */
static void
settle (GtkWidget *window)
{
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < until
         && !(gtk_widget_get_mapped (window) && gtk_widget_get_width (window) > 0))
    g_main_context_iteration (NULL, FALSE);
  until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);
}

/* The Mode control as the test sees it: 0 Read, 1 Write, 2 Mix. */
static gboolean
mode_is (GtkWidget  *mode,
         guint       selected,
         gboolean    sensitive,
         const char *when)
{
  const char *tip = gtk_widget_get_tooltip_text (mode);

  g_print ("test-ui-sweep: %s: Mode %u, %s, tooltip \"%s\"\n", when,
           gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)),
           gtk_widget_get_sensitive (mode) ? "sensitive" : "insensitive", tip ? tip : "");
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)) != selected
      || gtk_widget_get_sensitive (mode) != sensitive || (!sensitive && !(tip && tip[0])))
    {
      g_printerr ("test-ui-sweep: %s: the Mode control should be %u and %s%s\n", when, selected,
                  sensitive ? "sensitive" : "insensitive", sensitive ? "" : ", with a tooltip");
      return FALSE;
    }
  return TRUE;
}

/* The window's test file, named or not, is closed once a sweep has ended
 * or been stopped: no descriptor of this process holds a regular file on
 * target's filesystem, or target itself where it is a disk. */
static gboolean
test_file_closed (const char *target)
{
  g_autoptr (GDir) fds = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  gboolean disk;
  struct stat st;
  dev_t dev;

  if (!fds || stat (target, &st) != 0)
    {
      g_printerr ("test-ui-sweep: cannot look at /proc/self/fd or %s\n", target);
      return FALSE;
    }
  disk = S_ISBLK (st.st_mode);
  dev = disk ? st.st_rdev : st.st_dev;
  while ((name = g_dir_read_name (fds)))
    {
      g_autofree char *fd = g_build_filename ("/proc/self/fd", name, NULL);

      if (stat (fd, &st) == 0
          && (disk ? S_ISBLK (st.st_mode) && st.st_rdev == dev
                   : S_ISREG (st.st_mode) && st.st_dev == dev))
        {
          g_autofree char *file = g_file_read_link (fd, NULL);

          g_printerr ("test-ui-sweep: the sweep has ended, and descriptor %s still holds %s "
                      "(%lld bytes)\n", name, file ? file : "?", (long long) st.st_size);
          return FALSE;
        }
    }
  return TRUE;
}

/* A sweep run by the window: QD 1,2,4 x 1,2 threads of 0.3 s each on a
 * 16 MiB file, so the whole thing takes a few seconds. With a device, Write
 * is chosen for folder, and the sweep runs on the device: the Mode control
 * must hold Read for it and give Write back for folder afterwards. */
/* What --run's options ask of the window: NULL keeps the window's. */
typedef struct
{
  const char *kind;
  const char *blocks;
  const char *bound;
  const char *qd;
  const char *threads;
  double      measure_s;
} RunKind;

static int
run_sweep (const char    *folder,
           const char    *png,
           const char    *json,
           gboolean       stop,
           const char    *device,
           const RunKind *kind)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.diskmeter.Diskmeter");
  g_autoptr (GError) error = NULL;
  GtkWidget *window, *mode;
  gint64 started, deadline;

  g_settings_set_string (settings, "size", "16MiB");
  g_settings_set_double (settings, "measure-time",
                         kind && kind->measure_s > 0 ? kind->measure_s : 0.3);
  g_settings_set_double (settings, "warmup", 0);
  g_settings_set_double (settings, "interval", 0);

  window = dm_sweep_window_new (NULL, settings);
  mode = dm_sweep_window_get_mode_control (DM_SWEEP_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 1060, 700);
  /* The QD sweep's lists first, then the kind, which gives a kind of one
   * load its defaults from them, as a person switching would see. */
  dm_sweep_window_set_plan (DM_SWEEP_WINDOW (window), "1,2,4", "1,2", folder);
  if (kind && kind->kind
      && !dm_sweep_window_set_kind (DM_SWEEP_WINDOW (window), kind->kind, kind->blocks,
                                    kind->bound))
    {
      g_printerr ("test-ui-sweep: no kind of sweep is called %s\n", kind->kind);
      return 2;
    }
  if (kind && kind->qd)
    dm_sweep_window_set_plan (DM_SWEEP_WINDOW (window), kind->qd, kind->threads, folder);
  gtk_window_present (GTK_WINDOW (window));
  settle (window);
  if (device)
    {
      gtk_drop_down_set_selected (GTK_DROP_DOWN (mode), 1);
      if (!mode_is (mode, 1, TRUE, "a folder, Write chosen"))
        return 1;
      dm_sweep_window_set_plan (DM_SWEEP_WINDOW (window), "1,2,4", "1,2", device);
      if (!mode_is (mode, 0, FALSE, "the disk"))
        return 1;
    }

  /* Before Start: the estimate and what the plan left out, for a person. */
  if (g_getenv ("DM_SWEEP_BEFORE_PNG")
      && !dm_sweep_window_save (DM_SWEEP_WINDOW (window), "png", g_getenv ("DM_SWEEP_BEFORE_PNG"),
                                &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }
  gtk_widget_activate_action (window, "sweep.start", NULL);
  if (!dm_sweep_window_is_running (DM_SWEEP_WINDOW (window)))
    {
      g_printerr ("test-ui-sweep: Start did not start a sweep: %s\n",
                  dm_sweep_window_get_status (DM_SWEEP_WINDOW (window)));
      return 1;
    }
  started = g_get_monotonic_time ();
  deadline = started + 60 * G_USEC_PER_SEC;
  while (dm_sweep_window_is_running (DM_SWEEP_WINDOW (window)))
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_printerr ("test-ui-sweep: the sweep did not finish within a minute\n");
          return 1;
        }
      /* Stop as soon as the first combination is measured (its latency
       * detail opens only then): what was measured must stay. Waiting on
       * the sweep's own progress, not a time, holds on a busy machine. */
      if (stop)
        {
          GtkWidget *first = dm_sweep_window_open_latency (DM_SWEEP_WINDOW (window), 1, 1);
          if (first)
            {
              gtk_window_destroy (GTK_WINDOW (first));
              gtk_widget_activate_action (window, "sweep.stop", NULL);
              stop = FALSE;
            }
        }
      g_main_context_iteration (NULL, TRUE);
    }
  settle (window);
  if ((png && !dm_sweep_window_save (DM_SWEEP_WINDOW (window), "png", png, &error))
      || !dm_sweep_window_save (DM_SWEEP_WINDOW (window), "json", json, &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }
  if (kind && kind->kind)
    {
      g_autofree char *csv = g_strconcat (json, ".csv", NULL);

      if (!dm_sweep_window_save (DM_SWEEP_WINDOW (window), "csv", csv, &error))
        {
          g_printerr ("test-ui-sweep: %s\n", error->message);
          return 1;
        }
    }
  if (!test_file_closed (device ? device : folder))
    return 1;
  if (device)
    {
      if (!mode_is (mode, 0, FALSE, "the disk, after the sweep"))
        return 1;
      dm_sweep_window_set_plan (DM_SWEEP_WINDOW (window), "1,2,4", "1,2", folder);
      if (!mode_is (mode, 1, TRUE, "the folder again"))
        return 1;
    }
  g_print ("test-ui-sweep: ran a sweep in %s, saved %s\n", device ? device : folder, json);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json_out = NULL;
  g_autofree char *csv_out = NULL;
  GtkWidget *window, *view;
  unsigned qd = 1, threads = 1;

  if (argc == 5 && g_str_equal (argv[1], "--device"))
    {
      gtk_init ();
      dm_ui_init ();
      return run_sweep (argv[3], NULL, argv[4], FALSE, argv[2], NULL);
    }
  if (argc >= 5 && g_str_equal (argv[1], "--run"))
    {
      RunKind kind = { 0 };
      gboolean stop = FALSE;

      for (int i = 5; i < argc; i++)
        {
          const char *v = i + 1 < argc ? argv[i + 1] : NULL;

          if (g_str_equal (argv[i], "--stop"))
            stop = TRUE;
          else if (v && g_str_equal (argv[i], "--kind"))
            kind.kind = argv[++i];
          else if (v && g_str_equal (argv[i], "--blocks"))
            kind.blocks = argv[++i];
          else if (v && g_str_equal (argv[i], "--bound"))
            kind.bound = argv[++i];
          else if (v && g_str_equal (argv[i], "--qd"))
            kind.qd = argv[++i];
          else if (v && g_str_equal (argv[i], "--threads"))
            kind.threads = argv[++i];
          else if (v && g_str_equal (argv[i], "--measure"))
            kind.measure_s = g_ascii_strtod (argv[++i], NULL);
          else
            {
              g_printerr ("test-ui-sweep: unknown --run option %s\n", argv[i]);
              return 2;
            }
        }
      gtk_init ();
      dm_ui_init ();
      return run_sweep (argv[2], argv[3], argv[4], stop, NULL, &kind);
    }
  if (argc != 4 && argc != 6)
    {
      g_printerr ("usage: %s SWEEP.json SWEEP.png LATENCY.png [QD THREADS]\n", argv[0]);
      return 2;
    }
  if (argc == 6)
    {
      qd = atoi (argv[4]);
      threads = atoi (argv[5]);
    }
  gtk_init ();
  dm_ui_init ();

  window = dm_sweep_window_new (NULL, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1060, 700);
  if (!dm_sweep_window_load (DM_SWEEP_WINDOW (window), argv[1], &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }
  gtk_window_present (GTK_WINDOW (window));
  settle (window);
  g_print ("test-ui-sweep: summary: %s\n", summary_of (window) ? summary_of (window) : "(none)");
  if (!dm_sweep_window_save (DM_SWEEP_WINDOW (window), "png", argv[2], &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }
  json_out = g_strconcat (argv[2], ".json", NULL);
  csv_out = g_strconcat (argv[2], ".csv", NULL);
  if (!dm_sweep_window_save (DM_SWEEP_WINDOW (window), "json", json_out, &error)
      || !dm_sweep_window_save (DM_SWEEP_WINDOW (window), "csv", csv_out, &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }

  view = dm_sweep_window_open_latency (DM_SWEEP_WINDOW (window), qd, threads);
  if (!view)
    {
      g_printerr ("test-ui-sweep: QD %u x %u threads was not measured\n", qd, threads);
      return 1;
    }
  settle (view);
  if (!dm_screenshot_save (view, view, argv[3], &error))
    {
      g_printerr ("test-ui-sweep: %s\n", error->message);
      return 1;
    }
  g_print ("test-ui-sweep: saved %s, %s and %s\n", argv[2], json_out, argv[3]);
  gtk_window_destroy (GTK_WINDOW (view));
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
