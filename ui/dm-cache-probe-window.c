/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Cache Probe window runs the ladder as diskmeter-cli cache-probe
 * does: the engine's plan and sizes, then one small report per working
 * set on a DmJob of its own (its worker thread, cancel and test-file
 * removal the main window's), each set's results copied into the probe's
 * report when its job finishes, the next set started from there. The
 * time limit stops it before a set that would pass it and cancels one
 * that does; the steps are the engine's, drawn by dm-cache-probe-chart.c.
 */
#include "dm-cache-probe-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <string.h>

#include "dm-cache-probe.h"
#include "dm-cache-probe-chart.h"
#include "dm-file-dialog.h"
#include "dm-job.h"
#include "dm-platform.h"
#include "dm-reason.h"
#include "dm-screenshot.h"
#include "dm-tool-run.h"
#include "dm-units.h"

struct _DmCacheProbeWindow
{
  GtkWindow       parent_instance;

  /* template children */
  GtkWidget      *content;
  GtkWidget      *start_button;
  GtkDropDown    *mode_dropdown;
  GtkWidget      *min_entry;
  GtkWidget      *max_entry;
  GtkWidget      *limit_entry;
  GtkWidget      *duration_entry;
  GtkWidget      *target_entry;
  GtkWidget      *status_label;
  GtkWidget      *progress_bar;
  GtkWidget      *chart;
  GtkWidget      *summary_label;

  GSettings      *settings;       /* may be NULL */
  dm_report       report;         /* the probe's, filled as sets finish */
  gboolean        have_report;
  dm_cache_probe_info info;
  char           *target;
  DmJob          *job;            /* the set running, or the last one */
  unsigned        k;              /* the set running */
  gboolean        running;
  gboolean        stopping;       /* Stop was pressed */
  gboolean        timed_out;      /* the time limit cancelled the set */
  double          deadline_s;
  double          fill_rate;      /* bytes/s of the sets written so far */
  double          set_start_s;
  GtkFileChooserNative *chooser;
  GApplication   *held;           /* held while running */
};

G_DEFINE_FINAL_TYPE (DmCacheProbeWindow, dm_cache_probe_window, GTK_TYPE_WINDOW)

static double
now_s (void)
{
  return (double) dm_clock_ns () / 1e9;
}

/* The application is held while a set may still have a test file to
 * remove; a window without one (a test's) holds nothing. */
static void
hold (DmCacheProbeWindow *self,
      gboolean            on)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  /* The one held is let go, even once the window has left it. */
  if (on && app && !self->held)
    {
      self->held = G_APPLICATION (g_object_ref (app));
      g_application_hold (self->held);
    }
  else if (!on && self->held)
    {
      g_application_release (self->held);
      g_clear_object (&self->held);
    }
}

static void
update_actions (DmCacheProbeWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "probe.start", !self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "probe.stop", self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "probe.save",
                                 self->have_report && !self->running);
  gtk_widget_set_visible (self->progress_bar, self->running);
}

/* The steps in words, as the text report says them. */
static void
show_summary (DmCacheProbeWindow *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (unsigned t = 0; self->have_report && t < DM_CACHE_PROBE_TESTS; t++)
    {
      dm_cache_probe_ladder l;
      char name[32], line[256];

      dm_cache_probe_ladder_of (&self->report, t, &l);
      dm_spec_name (&dm_cache_probe_tests[t], name, sizeof name);
      for (unsigned s = 0; s < l.n_steps; s++)
        {
          dm_cache_probe_step_text (&l.steps[s], line, sizeof line);
          g_string_append_printf (text, "%s%s: %s.", text->len ? "\n" : "", name, line);
        }
      if (!l.n_steps && l.n >= 2)
        g_string_append_printf (text, "%s%s: %s", text->len ? "\n" : "", name,
                                _ ("no step: no cache below this VM held part of these sets."));
    }
  if (text->len)
    g_string_append (text, _ ("\nThe test file is O_DIRECT: the guest's own page cache serves "
                              "none of it, so a step is a cache below this VM."));
  gtk_label_set_text (GTK_LABEL (self->summary_label), text->str);
  gtk_widget_queue_draw (self->chart);
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  DmCacheProbeWindow *self = data;

  dm_cache_probe_chart_draw (GTK_WIDGET (area), cr, width, height,
                             self->have_report ? &self->report : NULL);
}

static void
finish (DmCacheProbeWindow *self,
        int                 err)
{
  char shown[512];
  g_autofree char *text = NULL;

  if (err == -ECANCELED && !self->timed_out)
    snprintf (self->info.stopped, sizeof self->info.stopped, "cancelled");
  else if (self->timed_out)
    snprintf (self->info.stopped, sizeof self->info.stopped, "time-limit");
  else if (err < 0)
    snprintf (self->info.stopped, sizeof self->info.stopped, "failed");
  self->report.status = err == -ECANCELED && !self->timed_out ? DM_STATUS_CANCELLED
                        : err < 0 && !self->timed_out         ? DM_STATUS_FAILED
                                                              : DM_STATUS_COMPLETE;
  if (self->timed_out)
    text = g_strdup (_ ("Stopped at the time limit, with the working sets measured by then; "
                        "the test file was removed."));
  else if (err == -ECANCELED)
    text = g_strdup (_ ("Stopped: the working sets measured are kept; the test file was "
                        "removed."));
  else if (err < 0)
    text = g_strdup_printf (_ ("Failed: %s"),
                            self->report.error[0]
                              ? dm_reason_shown (self->report.error, shown, sizeof shown)
                              : g_strerror (-err));
  else
    text = g_strdup (_ ("Done; each test file was removed."));
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  self->running = FALSE;
  show_summary (self);
  update_actions (self);
  hold (self, FALSE);
}

static void start_set (DmCacheProbeWindow *self);

static void
on_job_progress (DmJob              *job,
                 DmCacheProbeWindow *self)
{
  const DmJobProgress *p = dm_job_get_progress (job);
  unsigned n = dm_cache_probe_n_sizes (&self->report);
  char ws[32];
  g_autofree char *text = NULL;

  if (now_s () >= self->deadline_s && !self->timed_out)
    {
      self->timed_out = TRUE;
      dm_job_cancel (job);
    }
  dm_size_human (dm_cache_probe_size (&self->report, self->k), ws, sizeof ws);
  if (p->phase == DM_PHASE_PREPARE || p->result_index < 0)
    text = g_strdup_printf (_ ("Set %u of %u, %s: writing it whole…"), self->k + 1, n, ws);
  else
    text = g_strdup_printf (_ ("Set %u of %u, %s: %s"), self->k + 1, n, ws,
                            p->result_index == 0 ? "RND4K_Q32T1" : "SEQ1M_Q8T1");
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 n ? (self->k + p->fraction) / n : 0);
}

static void
on_job_finished (DmJob              *job,
                 int                 code,
                 DmCacheProbeWindow *self)
{
  const dm_report *sub = dm_job_get_report (job);
  double took = now_s () - self->set_start_s - dm_cache_probe_size_seconds (&self->report);

  if (self->k == 0)
    {
      /* The run's facts are the first set's; the sizes are the probe's. */
      uint64_t largest = self->report.settings.test_size;

      dm_report_copy_run (&self->report, sub);
      self->report.settings.test_size = largest;
      snprintf (self->report.profile, sizeof self->report.profile, "cache-probe");
    }
  dm_cache_probe_take (&self->report, self->k, sub);
  self->report.finished = sub->finished;
  if (code < 0 && code != -ECANCELED)
    snprintf (self->report.error, sizeof self->report.error, "%s", sub->error);
  if (took > 0.01)
    self->fill_rate = (double) dm_cache_probe_size (&self->report, self->k) / took;
  show_summary (self);
  if (code < 0)
    {
      finish (self, code);
      return;
    }
  self->k++;
  if (self->k >= dm_cache_probe_n_sizes (&self->report))
    finish (self, 0);
  else
    start_set (self);
}

static void
start_set (DmCacheProbeWindow *self)
{
  dm_report sub;
  uint64_t size = dm_cache_probe_size (&self->report, self->k);
  g_autoptr (GError) error = NULL;

  if (self->stopping)
    {
      finish (self, -ECANCELED);
      return;
    }
  /* A set that would end past the limit is not begun. */
  if (self->fill_rate > 0
      && now_s () + (double) size / self->fill_rate + dm_cache_probe_size_seconds (&self->report)
           > self->deadline_s)
    {
      self->timed_out = TRUE;
      finish (self, 0);
      return;
    }
  if (dm_cache_probe_size_report (&sub, &self->report, self->k) < 0)
    {
      snprintf (self->report.error, sizeof self->report.error, "out of memory");
      finish (self, -ENOMEM);
      return;
    }
  if (self->job)
    {
      g_signal_handlers_disconnect_by_data (self->job, self);
      g_clear_object (&self->job);
    }
  self->job = dm_job_new (&sub, self->target, NULL);
  g_signal_connect (self->job, "progress", G_CALLBACK (on_job_progress), self);
  g_signal_connect (self->job, "finished", G_CALLBACK (on_job_finished), self);
  self->set_start_s = now_s ();
  if (!dm_job_start (self->job, &error))
    {
      snprintf (self->report.error, sizeof self->report.error, "%s", error->message);
      finish (self, -EIO);
    }
}

gboolean
dm_cache_probe_window_start (DmCacheProbeWindow *self,
                             GError            **error)
{
  dm_cache_probe_plan p;
  dm_target_info t;
  dm_system_info sys;
  dm_settings base;
  uint64_t sizes[DM_CACHE_PROBE_SIZES], room = 0;
  unsigned n;
  char why[400] = "", inner[200];
  const char *min = gtk_editable_get_text (GTK_EDITABLE (self->min_entry));
  const char *max = gtk_editable_get_text (GTK_EDITABLE (self->max_entry));
  const char *limit = gtk_editable_get_text (GTK_EDITABLE (self->limit_entry));
  const char *duration = gtk_editable_get_text (GTK_EDITABLE (self->duration_entry));

  g_return_val_if_fail (DM_IS_CACHE_PROBE_WINDOW (self), FALSE);
  if (self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("A cache probe is under way"));
      return FALSE;
    }
  g_free (self->target);
  self->target = dm_tool_run_target (self->target_entry);
  dm_cache_probe_plan_init (&p);
  p.mode = gtk_drop_down_get_selected (self->mode_dropdown) == 1 ? DM_MODE_WRITE : DM_MODE_READ;
  int err = 0;
  if (dm_size_parse (min, &p.min, inner, sizeof inner) < 0)
    g_snprintf (why, sizeof why, _ ("smallest set: %s"), inner), err = -EINVAL;
  else if (max[0] && dm_size_parse (max, &p.max, inner, sizeof inner) < 0)
    g_snprintf (why, sizeof why, _ ("largest set: %s"), inner), err = -EINVAL;
  else if (dm_duration_parse (limit, &p.time_limit_s, inner, sizeof inner) < 0
           || p.time_limit_s < 1)
    g_snprintf (why, sizeof why, _ ("time limit: %s"), inner[0] ? inner : "at least 1 s"),
      err = -EINVAL;
  else if (dm_duration_parse (duration, &p.measure_s, inner, sizeof inner) < 0
           || p.measure_s < 0.1 || p.measure_s > 3600)
    g_snprintf (why, sizeof why, _ ("each test: %s"), inner[0] ? inner : "0.1 to 3600 s"),
      err = -EINVAL;
  else if ((err = dm_target_probe (self->target, &t)) < 0)
    g_snprintf (why, sizeof why, _ ("cannot use %s: %s"), self->target, g_strerror (-err));
  else if (t.is_block_device)
    g_snprintf (why, sizeof why, _ ("the cache probe writes its working sets into test files "
                                    "in a folder; %s is a disk"), self->target), err = -EPERM;
  if (!err)
    {
      /* The test file's own rule: a 64th of it and 16 MiB stay free. */
      if (t.size_bytes)
        room = t.free_bytes > (16ull << 20)
                 ? MAX ((t.free_bytes - (16ull << 20)) / 65 * 64 / DM_BLOCK_MAX_ALIGN
                          * DM_BLOCK_MAX_ALIGN, 1)
                 : 1;
      memset (&sys, 0, sizeof sys);
      dm_system_info_get (&sys);
      dm_settings_init (&base);
      if (self->settings)
        {
          g_autofree char *data = g_settings_get_string (self->settings, "test-data");

          if (dm_data_parse (data, &base.data) != 0)
            base.data = DM_DATA_RANDOM;
        }
      if (self->have_report)
        dm_report_clear (&self->report);
      self->have_report = FALSE;
      err = dm_cache_probe_sizes (&p, sys.memory_bytes, room, sizes, &n, why, sizeof why);
      if (!err)
        err = dm_cache_probe_report_init (&self->report, &p, sizes, n, &base, why, sizeof why);
      self->have_report = err == 0;
    }
  if (err < 0)
    {
      char shown[512];

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("Cannot start: %s"),
                   dm_reason_shown (why, shown, sizeof shown));
      update_actions (self);
      return FALSE;
    }
  memset (&self->info, 0, sizeof self->info);
  self->info.max_asked = p.max ? p.max : sys.memory_bytes * DM_CACHE_PROBE_RAM_FACTOR;
  self->info.time_limit_s = p.time_limit_s;
  self->k = 0;
  self->stopping = self->timed_out = FALSE;
  self->fill_rate = 0;
  self->deadline_s = now_s () + p.time_limit_s;
  self->running = TRUE;
  /* Held until the last job has removed its test file. */
  hold (self, TRUE);
  gtk_label_set_text (GTK_LABEL (self->summary_label), "");
  update_actions (self);
  gtk_widget_queue_draw (self->chart);
  start_set (self);
  return TRUE;
}

void
dm_cache_probe_window_stop (DmCacheProbeWindow *self)
{
  g_return_if_fail (DM_IS_CACHE_PROBE_WINDOW (self));

  if (!self->running)
    return;
  self->stopping = TRUE;
  if (self->job && dm_job_is_running (self->job))
    dm_job_cancel (self->job);
}

gboolean
dm_cache_probe_window_is_running (DmCacheProbeWindow *self)
{
  g_return_val_if_fail (DM_IS_CACHE_PROBE_WINDOW (self), FALSE);

  return self->running;
}

const dm_report *
dm_cache_probe_window_get_report (DmCacheProbeWindow *self)
{
  g_return_val_if_fail (DM_IS_CACHE_PROBE_WINDOW (self), NULL);

  return self->have_report ? &self->report : NULL;
}

gboolean
dm_cache_probe_window_save (DmCacheProbeWindow *self,
                            const char         *format,
                            const char         *path,
                            GError            **error)
{
  dm_buf buf;

  g_return_val_if_fail (DM_IS_CACHE_PROBE_WINDOW (self), FALSE);

  if (g_strcmp0 (format, "png") == 0)
    return dm_screenshot_save_scaled (GTK_WIDGET (self), self->content, 1, path, error);
  if (!self->have_report || self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _ ("There is no finished cache probe to save yet"));
      return FALSE;
    }
  dm_buf_init (&buf);
  if (g_strcmp0 (format, "text") == 0)
    dm_cache_probe_write_text (&self->report, &self->info, &buf);
  else
    dm_cache_probe_write_json (&self->report, &self->info, &buf);
  return dm_tool_run_write (&buf, path, error);
}

gboolean
dm_cache_probe_window_load (DmCacheProbeWindow *self,
                            const char         *path,
                            GError            **error)
{
  g_autofree char *text = NULL;
  gsize len;
  dm_report r;

  g_return_val_if_fail (DM_IS_CACHE_PROBE_WINDOW (self), FALSE);
  if (self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("A cache probe is under way"));
      return FALSE;
    }
  if (!dm_tool_run_read_file (path, &r, &text, &len, error))
    return FALSE;
  if (!dm_cache_probe_is (&r))
    {
      dm_report_clear (&r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s is not a cache probe"), path);
      return FALSE;
    }
  if (self->have_report)
    dm_report_clear (&self->report);
  self->report = r;
  self->have_report = TRUE;
  dm_cache_probe_info_from_json (text, len, &self->info);
  if (r.target.path[0])
    gtk_editable_set_text (GTK_EDITABLE (self->target_entry), r.target.path);
  {
    g_autofree char *status = g_strdup_printf (_ ("Opened %s"), path);

    gtk_label_set_text (GTK_LABEL (self->status_label), status);
  }
  show_summary (self);
  update_actions (self);
  return TRUE;
}

/* --- actions --------------------------------------------------------------- */

static void
action_start (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DmCacheProbeWindow *self = DM_CACHE_PROBE_WINDOW (widget);
  g_autoptr (GError) error = NULL;

  if (!dm_cache_probe_window_start (self, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  dm_cache_probe_window_stop (DM_CACHE_PROBE_WINDOW (widget));
}

static void
on_save_response (GtkNativeDialog    *dialog,
                  int                 response,
                  DmCacheProbeWindow *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);
  g_autoptr (GError) error = NULL;

  if (path && !dm_cache_probe_window_save (self, "json", path, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
  g_clear_object (&self->chooser);
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DmCacheProbeWindow *self = DM_CACHE_PROBE_WINDOW (widget);

  if (self->chooser)
    return;
  self->chooser = dm_file_dialog_new_save (GTK_WINDOW (self), _ ("Save Cache Probe"),
                                           "diskmeter-cache-probe.json");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* --- the object ------------------------------------------------------------ */

static void
dm_cache_probe_window_dispose (GObject *object)
{
  DmCacheProbeWindow *self = DM_CACHE_PROBE_WINDOW (object);

  /* A set still running is cancelled; the job joins its worker, which
   * removes the test file, when it goes. */
  if (self->job)
    {
      g_signal_handlers_disconnect_by_data (self->job, self);
      if (dm_job_is_running (self->job))
        dm_job_cancel (self->job);
      g_clear_object (&self->job);
    }
  if (self->running)
    {
      self->running = FALSE;
      hold (self, FALSE);
    }
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (dm_cache_probe_window_parent_class)->dispose (object);
}

static void
dm_cache_probe_window_finalize (GObject *object)
{
  DmCacheProbeWindow *self = DM_CACHE_PROBE_WINDOW (object);

  if (self->have_report)
    dm_report_clear (&self->report);
  g_free (self->target);
  G_OBJECT_CLASS (dm_cache_probe_window_parent_class)->finalize (object);
}

static void
dm_cache_probe_window_class_init (DmCacheProbeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_cache_probe_window_dispose;
  object_class->finalize = dm_cache_probe_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-cache-probe-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, min_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, max_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, limit_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, duration_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, target_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, chart);
  gtk_widget_class_bind_template_child (widget_class, DmCacheProbeWindow, summary_label);
  gtk_widget_class_install_action (widget_class, "probe.start", NULL, action_start);
  gtk_widget_class_install_action (widget_class, "probe.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "probe.save", NULL, action_save);
}

static void
dm_cache_probe_window_init (DmCacheProbeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->chart), draw_chart, self, NULL);
}

GtkWidget *
dm_cache_probe_window_new (GtkApplication *app,
                           GSettings      *settings)
{
  DmCacheProbeWindow *self = g_object_new (DM_TYPE_CACHE_PROBE_WINDOW, "application", app, NULL);
  g_autofree char *target = dm_tool_run_first_target (settings);

  self->settings = settings ? g_object_ref (settings) : NULL;
  gtk_editable_set_text (GTK_EDITABLE (self->target_entry), target);
  update_actions (self);
  return GTK_WIDGET (self);
}

void
dm_cache_probe_window_set_plan (DmCacheProbeWindow *self,
                                const char         *min,
                                const char         *max,
                                const char         *time_limit,
                                const char         *duration,
                                const char         *folder)
{
  g_return_if_fail (DM_IS_CACHE_PROBE_WINDOW (self));

  if (min)
    gtk_editable_set_text (GTK_EDITABLE (self->min_entry), min);
  if (max)
    gtk_editable_set_text (GTK_EDITABLE (self->max_entry), max);
  if (time_limit)
    gtk_editable_set_text (GTK_EDITABLE (self->limit_entry), time_limit);
  if (duration)
    gtk_editable_set_text (GTK_EDITABLE (self->duration_entry), duration);
  if (folder)
    gtk_editable_set_text (GTK_EDITABLE (self->target_entry), folder);
}
