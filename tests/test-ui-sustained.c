/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the Sustained window and DmJob on a real (Xvfb) display for
 * tests/gui-sustained.sh: "close FOLDER SPAN" starts a run and closes the
 * window once three samples are drawn; "stop FOLDER SPAN JSON" presses Stop
 * then and saves what was kept; "job FOLDER" runs a two-run test on a DmJob
 * and holds the live figure of the result being measured to the last
 * sample closed, as diskmeter-cli's progress line shows it. "device DEVICE
 * FOLDER JSON" holds the Mode control to Read (insensitive, with a tooltip)
 * while the target is a disk, runs the read pass there and saves it, and
 * gives the Write chosen for FOLDER back once the target is FOLDER again.
 * "show JSON PNG TREE" opens a saved run and saves the whole window (its
 * header bar too) and its widget tree, one widget a line with its place
 * and text, so a change in how the window is built can be held to the
 * same window.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gtk/gtk.h>

#include "dm-job.h"
#include "dm-screenshot.h"
#include "dm-sustained-window.h"
#include "dm-ui.h"

#define WAIT_S 60

/* Runs the main loop until the window shows n samples or is no longer
 * running; FALSE after WAIT_S seconds. */
static gboolean
wait_samples (DmSustainedWindow *window,
              guint              n)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (dm_sustained_window_count_samples (window) < n
         && dm_sustained_window_is_running (window))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  return dm_sustained_window_count_samples (window) >= n;
}

static GtkWidget *
start (const char *folder,
       const char *span)
{
  GtkWidget *window = dm_sustained_window_new (NULL, NULL);
  g_autoptr (GError) error = NULL;

  dm_sustained_window_set_plan (DM_SUSTAINED_WINDOW (window), span, "60", folder);
  gtk_window_present (GTK_WINDOW (window));
  if (!dm_sustained_window_start (DM_SUSTAINED_WINDOW (window), &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      exit (1);
    }
  if (!wait_samples (DM_SUSTAINED_WINDOW (window), 3))
    {
      g_printerr ("test-ui-sustained: no three samples within %d s (running: %d)\n", WAIT_S,
                  dm_sustained_window_is_running (DM_SUSTAINED_WINDOW (window)));
      exit (1);
    }
  return window;
}

static int
close_mid_run (const char *folder,
               const char *span)
{
  GtkWidget *window = start (folder, span);
  guint n = dm_sustained_window_count_samples (DM_SUSTAINED_WINDOW (window));

  if (!dm_sustained_window_is_running (DM_SUSTAINED_WINDOW (window)))
    {
      g_printerr ("test-ui-sustained: the run ended before the window was closed\n");
      return 1;
    }
  /* As the close button does: the window goes, and with it the job. */
  gtk_window_close (GTK_WINDOW (window));
  g_print ("test-ui-sustained: closed the window while running, after %u samples\n", n);
  return 0;
}

static int
stop_mid_run (const char *folder,
              const char *span,
              const char *json)
{
  GtkWidget *window = start (folder, span);
  g_autoptr (GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  gtk_widget_activate_action (window, "sustained.stop", NULL);
  while (dm_sustained_window_is_running (DM_SUSTAINED_WINDOW (window)))
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_printerr ("test-ui-sustained: Stop did not end the run\n");
          return 1;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  if (!dm_sustained_window_save (DM_SUSTAINED_WINDOW (window), "json", json, &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      return 1;
    }
  g_print ("test-ui-sustained: stopped after %u samples, saved %s\n",
           dm_sustained_window_count_samples (DM_SUSTAINED_WINDOW (window)), json);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

typedef struct
{
  guint  checked;        /* ticks with a sample to compare */
  guint  in_first_run;   /* of them, before the first run ended */
  guint  differ;
  guint  samples;        /* most samples kept at once */
  double last_t;
  gboolean done;
  int    code;
} JobCheck;

static void
on_progress (DmJob    *job,
             JobCheck *c)
{
  const DmJobProgress *p = dm_job_get_progress (job);
  const dm_result *res;
  guint n;

  dm_job_peek_samples (job, &n);
  c->samples = MAX (c->samples, n);
  if (p->phase != DM_PHASE_MEASURE || !(p->sample.t > 0) || p->result_index < 0)
    return;
  res = dm_job_peek_result (job, p->result_index);
  if (res->status == DM_STATUS_COMPLETE)
    return;
  c->checked++;
  c->in_first_run += res->n_runs == 0;
  /* The tile's figure is the sample's, to the bit: one number, two views. */
  if (res->mb_per_s != p->sample.all.mb_per_s || res->iops != p->sample.all.iops)
    {
      if (c->differ++ < 3)
        g_printerr ("test-ui-sustained: at %.2f s the live figure is %.2f MB/s, the sample "
                    "%.2f MB/s\n", p->sample.t, res->mb_per_s, p->sample.all.mb_per_s);
    }
  c->last_t = p->sample.t;
}

static void
on_finished (DmJob    *job,
             int       code,
             JobCheck *c)
{
  c->done = TRUE;
  c->code = code;
}

static int
job_samples (const char *folder)
{
  dm_settings s;
  dm_report r;
  dm_spec spec = { DM_SEQ, 1u << 20, 1, 1 };
  JobCheck c = { 0 };
  g_autoptr (DmJob) job = NULL;
  g_autoptr (GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  const dm_report *done;

  dm_settings_init (&s);
  s.test_size = 16u << 20;
  s.count = 2;
  s.measure_s = 2;
  s.warmup_s = 0;
  s.interval_s = 0;
  memset (&r, 0, sizeof r);
  if (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)) < 0)
    return 1;
  r.sample_s = 0.25;
  job = dm_job_new (&r, folder, NULL);
  g_signal_connect (job, "progress", G_CALLBACK (on_progress), &c);
  g_signal_connect (job, "finished", G_CALLBACK (on_finished), &c);
  if (!dm_job_start (job, &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      return 1;
    }
  while (!c.done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  if (!c.done)
    {
      g_printerr ("test-ui-sustained: the job did not finish\n");
      return 1;
    }
  done = dm_job_get_report (job);
  g_print ("test-ui-sustained: job %d: %u ticks compared (%u in the first run), %u differed; "
           "%u live samples kept, %u in the report\n", c.code, c.checked, c.in_first_run,
           c.differ, c.samples, done->results[0].n_samples);
  if (c.code != 0 || c.checked < 4 || c.in_first_run < 2 || c.differ > 0)
    return 1;
  /* The live timeline kept (nearly) every sample the report has: the
   * engine reports many times per sample, a busy machine may skip one. */
  if (c.samples + 2 < done->results[0].n_samples)
    {
      g_printerr ("test-ui-sustained: only %u of %u samples seen live\n", c.samples,
                  done->results[0].n_samples);
      return 1;
    }
  return 0;
}

/* A disk as target, between two looks at a folder: the Mode control (0
 * Write, 1 Read) is Write and free for the folder, held at Read with a
 * tooltip for the disk, before and after its pass, and Write again for the
 * folder. */
static int
device_pass (const char *device,
             const char *folder,
             const char *json)
{
  const struct { const char *target; guint mode; gboolean run; } steps[] = {
    { folder, 0, FALSE }, { device, 1, TRUE }, { device, 1, FALSE }, { folder, 0, FALSE },
  };
  GtkWidget *window = dm_sustained_window_new (NULL, NULL);
  DmSustainedWindow *w = DM_SUSTAINED_WINDOW (window);
  GtkWidget *mode = dm_sustained_window_get_mode_control (w);

  dm_sustained_window_set_plan (w, "free", "20", NULL);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_autoptr (GError) error = NULL;
      const char *tip;
      guint shown;
      gboolean held;

      dm_sustained_window_set_plan (w, NULL, NULL, steps[i].target);
      /* The pass, to its end (or WAIT_S), and its JSON. */
      if (steps[i].run && dm_sustained_window_start (w, &error))
        wait_samples (w, G_MAXUINT);
      if (steps[i].run && !error && !dm_sustained_window_is_running (w))
        dm_sustained_window_save (w, "json", json, &error);
      if (steps[i].run && (error || dm_sustained_window_is_running (w)))
        {
          g_printerr ("test-ui-sustained: the pass over %s: %s\n", device,
                      error ? error->message : "still running");
          return 1;
        }
      tip = gtk_widget_get_tooltip_text (mode);
      shown = gtk_drop_down_get_selected (GTK_DROP_DOWN (mode));
      held = !gtk_widget_get_sensitive (mode) && tip && tip[0];
      g_print ("test-ui-sustained: step %u, %s: Mode %u, %s\n", i, steps[i].target, shown,
               held ? "held, its tooltip saying why" : "free to choose");
      if (shown != steps[i].mode || held != (steps[i].target == device))
        return 1;
    }
  g_print ("test-ui-sustained: read %s, %u samples, saved %s\n", device,
           dm_sustained_window_count_samples (w), json);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

/* One line per widget: type, CSS classes, bounds in the window, and what
 * it says or holds; its children indented under it. */
static void
dump_tree (GtkWidget *widget,
           GtkWidget *window,
           int        depth,
           GString   *out)
{
  g_auto (GStrv) classes = gtk_widget_get_css_classes (widget);
  g_autofree char *joined = g_strjoinv (".", classes);
  graphene_rect_t b = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (!gtk_widget_compute_bounds (widget, window, &b))
    b = GRAPHENE_RECT_INIT (-1, -1, -1, -1);
  g_string_append_printf (out, "%*s%s %s.%s %s%s %.0f,%.0f %.0fx%.0f", depth * 2, "",
                          G_OBJECT_TYPE_NAME (widget), gtk_widget_get_css_name (widget), joined,
                          gtk_widget_get_visible (widget) ? "" : "hidden ",
                          gtk_widget_get_sensitive (widget) ? "" : "insensitive ",
                          b.origin.x, b.origin.y, b.size.width, b.size.height);
  if (gtk_widget_get_tooltip_text (widget))
    g_string_append_printf (out, " tooltip=\"%s\"", gtk_widget_get_tooltip_text (widget));
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, " label=\"%s\" xalign=%g wrap=%d selectable=%d",
                            gtk_label_get_label (GTK_LABEL (widget)),
                            gtk_label_get_xalign (GTK_LABEL (widget)),
                            gtk_label_get_wrap (GTK_LABEL (widget)),
                            gtk_label_get_selectable (GTK_LABEL (widget)));
  if (GTK_IS_EDITABLE (widget) && GTK_IS_ENTRY (widget))
    g_string_append_printf (out, " text=\"%s\" width-chars=%d",
                            gtk_editable_get_text (GTK_EDITABLE (widget)),
                            gtk_editable_get_width_chars (GTK_EDITABLE (widget)));
  if (GTK_IS_DROP_DOWN (widget))
    g_string_append_printf (out, " selected=%u of %u",
                            gtk_drop_down_get_selected (GTK_DROP_DOWN (widget)),
                            g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (widget))));
  if (GTK_IS_ACTIONABLE (widget) && gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)))
    g_string_append_printf (out, " action=%s",
                            gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)));
  g_string_append_c (out, '\n');
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    dump_tree (c, window, depth + 1, out);
}

static int
show_saved (const char *json,
            const char *png,
            const char *tree)
{
  GtkWidget *window = dm_sustained_window_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  gint64 until;

  if (!dm_sustained_window_load (DM_SUSTAINED_WINDOW (window), json, &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      return 1;
    }
  gtk_window_present (GTK_WINDOW (window));
  until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);
  if (!dm_screenshot_save (window, window, png, &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      return 1;
    }
  dump_tree (window, window, 0, out);
  if (!g_file_set_contents (tree, out->str, out->len, &error))
    {
      g_printerr ("test-ui-sustained: %s\n", error->message);
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc < 3)
    {
      g_printerr ("usage: %s close FOLDER SPAN | stop FOLDER SPAN JSON | job FOLDER | "
                  "device DEVICE FOLDER JSON | show JSON PNG TREE\n", argv[0]);
      return 2;
    }
  gtk_init ();
  dm_ui_init ();
  if (g_str_equal (argv[1], "close") && argc == 4)
    return close_mid_run (argv[2], argv[3]);
  if (g_str_equal (argv[1], "stop") && argc == 5)
    return stop_mid_run (argv[2], argv[3], argv[4]);
  if (g_str_equal (argv[1], "job"))
    return job_samples (argv[2]);
  if (g_str_equal (argv[1], "device") && argc == 5)
    return device_pass (argv[2], argv[3], argv[4]);
  if (g_str_equal (argv[1], "show") && argc == 5)
    return show_saved (argv[2], argv[3], argv[4]);
  g_printerr ("test-ui-sustained: unknown mode %s\n", argv[1]);
  return 2;
}
