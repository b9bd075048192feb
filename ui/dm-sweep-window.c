/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sweep is an ordinary report run by an ordinary DmJob, so its thread,
 * progress and cancellation are the main window's; this file only turns
 * the controls into a dm_sweep_plan (dm-sweep-kinds.c makes it the kind's
 * chosen) and the results into heat maps or a chart. Each
 * cell of the maps remembers which result it shows, so the maps fill in
 * while the job runs and a click opens that result's latency detail.
 */
#include "dm-sweep-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "dm-footer.h"
#include "dm-heatmap.h"
#include "dm-sweep-cap-text.h"
#include "dm-sweep-chart.h"
#include "dm-job.h"
#include "dm-json.h"
#include "dm-latency-view.h"
#include "dm-pdf.h"
#include "dm-platform.h"
#include "dm-reason.h"
#include "dm-screenshot.h"
#include "dm-script.h"
#include "dm-sweep.h"
#include "dm-sweep-kinds.h"
#include "dm-sweep-script.h"
#include "dm-tags-field.h"
#include "dm-tool-run.h"
#include "dm-units.h"
#include "dm-warmup-setting.h"

#define MAX_CELLS (DM_HEATMAP_MAX_AXIS * DM_HEATMAP_MAX_AXIS)

struct _DmSweepWindow
{
  GtkWindow      parent_instance;

  /* template children */
  GtkWidget     *content;
  GtkWidget     *start_button;
  GtkWidget     *stop_button;
  GtkDropDown   *pattern_dropdown;
  GtkDropDown   *block_dropdown;
  GtkDropDown   *mode_dropdown;
  GtkWidget     *bound_entry;
  GtkWidget     *qd_entry;
  GtkWidget     *threads_entry;
  GtkWidget     *target_entry;
  GtkWidget     *status_label;
  GtkWidget     *time_label;
  GtkWidget     *progress_bar;
  GtkWidget     *throughput_map;
  GtkWidget     *latency_map;
  GtkWidget     *maps_box;
  GtkWidget     *chart_area;      /* a block sweep's or a rate curve's chart, for the maps */
  GtkWidget     *summary_label;
  GtkWidget     *footer_label;
  DmSweepKinds   kinds;           /* the kind choice and its fields */

  GSettings     *settings;        /* may be NULL */
  unsigned       logical_cpus;
  DmToolRun      run;             /* the job, or a saved sweep shown */

  /* what the maps show */
  dm_sweep_plan  plan;
  unsigned       qds[DM_HEATMAP_MAX_AXIS];
  unsigned       n_qds;
  unsigned       threads[DM_HEATMAP_MAX_AXIS];
  unsigned       n_threads;
  int            cell_result[MAX_CELLS]; /* result index per cell, -1 */
  char           note[512];       /* combinations the plan left out */
};

static void refresh_maps_grid (DmSweepWindow *self);

G_DEFINE_FINAL_TYPE_WITH_CODE (DmSweepWindow, dm_sweep_window, GTK_TYPE_WINDOW,
                               G_IMPLEMENT_INTERFACE (DM_TYPE_SCRIPTABLE,
                                                      _dm_sweep_window_scriptable_init))

static const uint32_t block_sizes[] = { 4096, 8192, 16384, 65536, 131072, 1048576 };

/* --- what is shown --------------------------------------------------------- */

static gboolean
is_running (DmSweepWindow *self)
{
  return dm_tool_run_is_running (&self->run);
}

static const dm_report *
shown_report (DmSweepWindow *self)
{
  return dm_tool_run_shown (&self->run);
}

static const dm_result *
result_at (DmSweepWindow *self,
           int            index)
{
  const dm_report *r;

  if (index < 0)
    return NULL;
  if (self->run.job)
    return dm_job_peek_result (self->run.job, index);
  r = self->run.have_loaded ? &self->run.loaded : NULL;
  return r && (unsigned) index < r->n_results ? &r->results[index] : NULL;
}

static void
set_axes (DmSweepWindow   *self,
          const dm_report *r)
{
  dm_sweep_axes (r, self->qds, &self->n_qds, self->threads, &self->n_threads);
  self->n_qds = MIN (self->n_qds, DM_HEATMAP_MAX_AXIS);
  self->n_threads = MIN (self->n_threads, DM_HEATMAP_MAX_AXIS);
  for (unsigned t = 0; t < self->n_threads; t++)
    for (unsigned q = 0; q < self->n_qds; q++)
      self->cell_result[t * self->n_qds + q] = dm_sweep_find (r, self->qds[q], self->threads[t]);
}

static gboolean
cell_of (DmSweepWindow *self,
         int            index,
         int           *column,
         int           *row)
{
  for (unsigned i = 0; i < self->n_qds * self->n_threads; i++)
    if (self->cell_result[i] == index)
      {
        *column = i % self->n_qds;
        *row = i / self->n_qds;
        return TRUE;
      }
  *column = *row = -1;
  return FALSE;
}

/* Small blocks are judged by IOPS, large ones by MB/s, as the engine's
 * text report does. */
static gboolean
uses_iops (DmSweepWindow *self)
{
  return self->plan.block_size < 65536;
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user)
{
  DmSweepWindow *self = user;
  dm_sweep_chart_draw (cr, width, height, is_running (self)
                       ? dm_sweep_kinds_live (&self->kinds, self->run.job)
                       : shown_report (self), &self->plan);
}

/* A block sweep or a rate curve: a chart and its summary instead of the
 * maps, which are a QD x T grid's. */
static void
refresh_chart (DmSweepWindow *self)
{
  const dm_report *r = shown_report (self);
  g_autoptr (GString) summary = g_string_new (NULL);

  gtk_widget_set_visible (self->maps_box, FALSE);
  gtk_widget_set_visible (self->chart_area, TRUE);
  gtk_widget_queue_draw (self->chart_area);
  if (!r || !r->n_results)
    return;
  dm_sweep_chart_summary (r, &self->plan, summary);
  gtk_label_set_text (GTK_LABEL (self->summary_label), summary->str);
}

static void
refresh_maps (DmSweepWindow *self)
{
  if (self->plan.kind != DM_SWEEP_QD)
    {
      refresh_chart (self);
      return;
    }
  gtk_widget_set_visible (self->chart_area, FALSE);
  gtk_widget_set_visible (self->maps_box, TRUE);
  refresh_maps_grid (self);
}

static void
refresh_maps_grid (DmSweepWindow *self)
{
  double tp[MAX_CELLS], p99[MAX_CELLS];
  const dm_report *r = shown_report (self);
  int knee = -1, best = -1, kc = -1, kr = -1, bc = -1, br = -1;
  g_autoptr (GString) summary = g_string_new (NULL);
  char name[64];

  for (unsigned i = 0; i < self->n_qds * self->n_threads; i++)
    {
      const dm_result *res = result_at (self, self->cell_result[i]);

      tp[i] = p99[i] = NAN;
      if (!res || !(res->status == DM_STATUS_COMPLETE || res->n_runs > 0))
        continue;
      tp[i] = uses_iops (self) ? res->iops : res->mb_per_s;
      if (res->latency.p99 > 0)
        p99[i] = res->latency.p99;
    }
  dm_block_short (self->plan.block_size, name, sizeof name);
  {
    g_autofree char *title = g_strdup_printf ("%s%s %s: %s", self->plan.pattern == DM_SEQ ? "SEQ" : "RND",
                                              name, dm_mode_title (self->plan.mode),
                                              uses_iops (self) ? "IOPS" : "MB/s");
    dm_heatmap_set_data (DM_HEATMAP (self->throughput_map), title,
                         uses_iops (self) ? "IOPS" : "MB/s", FALSE, self->qds, self->n_qds,
                         self->threads, self->n_threads, tp);
    dm_heatmap_set_data (DM_HEATMAP (self->latency_map), "p99 latency (µs)", "µs", TRUE,
                         self->qds, self->n_qds, self->threads, self->n_threads, p99);
  }

  if (r && dm_sweep_knee (r, &knee) == 0 && cell_of (self, knee, &kc, &kr))
    g_string_append_printf (summary, _ ("Knee at QD %u × %u threads: heavier loads gain under %d %% "
                            "throughput while latency rises."),
                            self->qds[kc], self->threads[kr], (int) (DM_SWEEP_KNEE_GAIN * 100));
  else if (r)
    g_string_append (summary, _ ("No knee: throughput still grows at the heaviest load, or latency "
                              "does not rise."));
  if (r && self->plan.latency_bound_us > 0)
    {
      g_autofree char *bound = dm_latency_view_format_us (self->plan.latency_bound_us);

      if (dm_sweep_best_under (r, self->plan.latency_bound_us, &best) == 0
          && cell_of (self, best, &bc, &br))
        g_string_append_printf (summary, _ ("  Highest load with p99 ≤ %s: QD %u × %u threads."),
                                bound, self->qds[bc], self->threads[br]);
      else
        g_string_append_printf (summary, _ ("  No load keeps p99 under %s."), bound);
    }
  dm_sweep_cap_text_append (summary, r);
  if (r)
    g_string_append (summary, _ ("  Click a cell for its latency detail."));
  if (r || self->run.job)
    gtk_label_set_text (GTK_LABEL (self->summary_label), summary->str);
  dm_heatmap_set_marks (DM_HEATMAP (self->throughput_map), kc, kr, bc, br);
  dm_heatmap_set_marks (DM_HEATMAP (self->latency_map), kc, kr, bc, br);
}

static void
update_actions (DmSweepWindow *self)
{
  gboolean running = is_running (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.start", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.save", shown_report (self) != NULL);
  gtk_widget_set_sensitive (self->start_button, !running);
  gtk_widget_set_visible (self->progress_bar, running);
  dm_footer_show (self->footer_label, shown_report (self),
                  gtk_editable_get_text (GTK_EDITABLE (self->target_entry)));
}

/* --- planning -------------------------------------------------------------- */

static void
run_settings (DmSweepWindow *self,
              dm_settings   *s)
{
  dm_settings_init (s);
  if (self->settings)
    {
      g_autofree char *size = g_settings_get_string (self->settings, "size");
      g_autofree char *data = g_settings_get_string (self->settings, "test-data");
      uint64_t bytes;

      if (dm_size_parse (size, &bytes, NULL, 0) == 0)
        s->test_size = bytes;
      s->measure_s = g_settings_get_double (self->settings, "measure-time");
      s->interval_s = g_settings_get_double (self->settings, "interval");
      dm_warmup_setting_get (self->settings, s);
      s->mix_read_percent = g_settings_get_int (self->settings, "mix-ratio");
      if (dm_data_parse (data, &s->data) != 0)
        s->data = DM_DATA_RANDOM;
    }
  /* One measured run per combination: a sweep visits dozens of loads, and
   * its question is the curve's shape, not the best of five at one point. */
  s->count = 1;
}

static gboolean
read_plan (DmSweepWindow *self,
           dm_sweep_plan *p,
           char          *why,
           size_t         why_size)
{
  const char *bound = gtk_editable_get_text (GTK_EDITABLE (self->bound_entry));
  guint block = gtk_drop_down_get_selected (self->block_dropdown);

  dm_sweep_plan_init (p);
  p->pattern = gtk_drop_down_get_selected (self->pattern_dropdown) == 0 ? DM_SEQ : DM_RND;
  p->block_size = block_sizes[MIN (block, G_N_ELEMENTS (block_sizes) - 1)];
  p->mode = (dm_mode) MIN (gtk_drop_down_get_selected (self->mode_dropdown), DM_MODE_MIX);
  if (dm_sweep_list_parse (gtk_editable_get_text (GTK_EDITABLE (self->qd_entry)), 1,
                           DM_QUEUE_MAX, p->queue_depths, &p->n_queue_depths, why, why_size) < 0)
    return FALSE;
  if (dm_sweep_list_parse (gtk_editable_get_text (GTK_EDITABLE (self->threads_entry)), 1,
                           DM_THREADS_MAX, p->threads, &p->n_threads, why, why_size) < 0)
    return FALSE;
  return dm_sweep_kinds_bound (bound, &p->latency_bound_us, why, why_size);
}

/* The plan as a report, bounded by what this machine can hold. */
static gboolean
plan_report (DmSweepWindow *self,
             dm_sweep_plan *p,
             dm_report     *r,
             char          *why,
             size_t         why_size)
{
  dm_settings s;

  if (!read_plan (self, p, why, why_size))
    return FALSE;
  run_settings (self, &s);
  self->note[0] = '\0';
  return dm_sweep_kinds_plan (&self->kinds, p, &s, self->run.device, self->logical_cpus, r,
                              self->note, sizeof self->note, why, why_size);
}

static void
update_estimate (DmSweepWindow *self)
{
  dm_sweep_plan p;
  dm_report r;
  char why[256] = "";
  g_autofree char *text = NULL;

  if (is_running (self))
    return;
  memset (&r, 0, sizeof r);
  if (!plan_report (self, &p, &r, why, sizeof why))
    {
      char shown[512];
      g_autofree char *msg = g_strdup_printf (_ ("Cannot sweep: %s"),
                                              dm_reason_shown (why, shown, sizeof shown));
      gtk_label_set_text (GTK_LABEL (self->status_label), msg);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.start", FALSE);
      return;
    }
  {
    double seconds = dm_sweep_estimate_seconds (&r);
    g_autofree char *t = seconds < 90 ? g_strdup_printf ("%.0f s", ceil (seconds))
                                      : g_strdup_printf (_ ("%.0f min"), ceil (seconds / 60));
    const char *left_out = self->note[0] ? " Left out: " : "";
    g_autofree char *count = dm_sweep_kinds_count (p.kind, r.n_results);

    /* A disk has no test file to prepare, and the line says why it is
     * only read, as the main window's does. */
    if (self->run.device)
      {
        g_autofree char *estimate = g_strdup_printf (_ ("%s, about %s.%s%s"), count, t, left_out,
                                                     self->note);
        text = g_strdup_printf ("%s  %s", estimate, dm_tool_run_device_note ());
      }
    else
      text = g_strdup_printf (_ ("%s, about %s plus preparing the test file.%s%s"), count, t,
                              left_out, self->note);
  }
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.start", TRUE);
  /* Before any run the maps show the plan's empty grid, so the axes (and
   * what the machine's bounds left out) are seen before committing to it. */
  if (!self->run.job && !self->run.have_loaded)
    {
      self->plan = p;
      set_axes (self, &r);
      refresh_maps (self);
    }
  dm_report_clear (&r);
}

/* --- running --------------------------------------------------------------- */

/* Until the first combination: a folder's test file is being made, a disk
 * is opened to be read. */
static const char *
preparing (DmSweepWindow *self)
{
  return self->run.device ? dm_tool_run_device_note () : _ ("Preparing the test file…");
}

static void
on_job_progress (DmJob         *job,
                 DmSweepWindow *self)
{
  const DmJobProgress *p = dm_job_get_progress (job);

  dm_tool_run_progress (&self->run, p);
  if (p->result_index >= 0 && result_at (self, p->result_index))
    {
      g_autofree char *text = dm_sweep_kinds_measuring (self->plan.kind,
                                                        result_at (self, p->result_index),
                                                        p->result_index);
      gtk_label_set_text (GTK_LABEL (self->status_label), text);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->status_label), preparing (self));
  refresh_maps (self);
}

static void
on_job_finished (DmJob         *job,
                 int            code,
                 DmSweepWindow *self)
{
  const dm_report *r = dm_job_get_report (job);
  unsigned done = 0;
  g_autofree char *text = NULL, *count = NULL;

  dm_tool_run_finished (&self->run, r);
  for (unsigned i = 0; i < r->n_results; i++)
    done += r->results[i].status == DM_STATUS_COMPLETE;
  count = dm_sweep_kinds_count (self->plan.kind, r->n_results);
  if (r->status == DM_STATUS_COMPLETE)
    text = g_strdup_printf (_ ("Done: %s measured."), count);
  else if (r->status == DM_STATUS_CANCELLED)
    text = g_strdup_printf (_ ("Stopped: %u of %s measured and kept."), done, count);
  else
    {
      /* The engine's reason is stored in English; shown in the user's
       * language, as diskmeter-cli shows it. */
      char shown[512];
      g_autofree char *reason = g_utf8_make_valid (r->error[0]
                                                   ? dm_reason_shown (r->error, shown, sizeof shown)
                                                   : g_strerror (-code), -1);
      text = g_strdup_printf (_ ("Failed: %s"), reason);
    }
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  refresh_maps (self);
  update_actions (self);
  dm_script_run_finished (self, code == 0 ? 0 : 1);
}

static void
action_start (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DmSweepWindow *self = DM_SWEEP_WINDOW (widget);
  g_autoptr (GError) error = NULL;
  g_autofree char *target = dm_tool_run_target (self->target_entry);
  dm_sweep_plan p;
  dm_report r;
  DmJob *job;
  char why[256] = "";

  if (is_running (self))
    return;
  /* The target as it is now (a disk may have appeared under its name):
   * on a disk the Mode control reads, before the plan is read from it. */
  dm_tool_run_check_target (&self->run, target);
  memset (&r, 0, sizeof r);
  if (!plan_report (self, &p, &r, why, sizeof why))
    {
      char shown[512];
      g_autofree char *msg = g_strdup_printf (_ ("Cannot sweep: %s"),
                                              dm_reason_shown (why, shown, sizeof shown));
      gtk_label_set_text (GTK_LABEL (self->status_label), msg);
      return;
    }
  /* The Tags field's tags, as the main window's runs carry them. */
  if (!dm_tags_apply_setting (self->settings, &r, why, sizeof why))
    {
      dm_report_clear (&r);
      gtk_label_set_text (GTK_LABEL (self->status_label), why);
      return;
    }
  dm_tool_run_clear (&self->run);
  self->plan = p;
  set_axes (self, &r);
  dm_sweep_kinds_begin (&self->kinds, &r);
  job = dm_job_new (&r, target, NULL);
  /* As diskmeter-cli sweep runs it: a curve's maximum sets its rates. */
  dm_job_set_sweep (job);
  if (!dm_tool_run_start (&self->run, job, G_CALLBACK (on_job_progress),
                          G_CALLBACK (on_job_finished), &error))
    {
      g_autofree char *msg = g_strdup_printf (_ ("Cannot sweep: %s"), error->message);
      gtk_label_set_text (GTK_LABEL (self->status_label), msg);
      update_actions (self);
      return;
    }
  gtk_label_set_text (GTK_LABEL (self->status_label), preparing (self));
  refresh_maps (self);
  update_actions (self);
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  dm_tool_run_stop (&DM_SWEEP_WINDOW (widget)->run);
}

/* --- saving ---------------------------------------------------------------- */

gboolean
dm_sweep_window_save (DmSweepWindow  *self,
                      const char     *format,
                      const char     *path,
                      GError        **error)
{
  const dm_report *r = shown_report (self);
  dm_buf buf;

  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), FALSE);

  /* As the main window's Save Screenshot, larger when a script asks. */
  if (g_strcmp0 (format, "png") == 0)
    return dm_screenshot_save_scaled (GTK_WIDGET (self), self->content,
                                      dm_script_screenshot_scale (self), path, error);
  /* The heat maps as on screen, text and vectors, one page. */
  if (g_strcmp0 (format, "pdf") == 0)
    {
      g_autoptr (DmPdf) pdf = dm_pdf_new (gtk_window_get_title (GTK_WINDOW (self)));

      return dm_pdf_add_window (pdf, GTK_WIDGET (self), self->content, error)
             && dm_pdf_save (pdf, path, error);
    }
  if (!r)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _ ("There is no finished sweep to save yet"));
      return FALSE;
    }
  dm_buf_init (&buf);
  if (g_strcmp0 (format, "csv") == 0)
    dm_sweep_write_csv (r, &buf);
  else
    dm_sweep_write_json (r, &self->plan, &buf);
  return dm_tool_run_write (&buf, path, error);
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  const char *format = g_variant_get_string (parameter, NULL);
  g_autofree char *name = g_strdup_printf ("diskmeter-sweep.%s", format);

  dm_tool_run_save_as (&DM_SWEEP_WINDOW (widget)->run, format, _ ("Save Sweep"), name);
}

/* --- latency detail -------------------------------------------------------- */

static GtkWidget *
open_latency_index (DmSweepWindow *self,
                    int            index)
{
  const dm_result *res = result_at (self, index);
  char name[64];
  g_autofree char *title = NULL;
  GtkWidget *view;

  /* A running result's histograms are still the worker's; a finished one's
   * are final. */
  if (!res || res->status != DM_STATUS_COMPLETE)
    return NULL;
  dm_spec_label (&res->spec, name, sizeof name);
  title = g_strdup_printf ("%s %s", name, dm_mode_title (res->mode));
  view = dm_latency_view_new (GTK_WINDOW (self), title, res);
  gtk_window_present (GTK_WINDOW (view));
  return view;
}

GtkWidget *
dm_sweep_window_open_latency (DmSweepWindow *self,
                              unsigned       queue_depth,
                              unsigned       threads)
{
  for (unsigned t = 0; t < self->n_threads; t++)
    for (unsigned q = 0; q < self->n_qds; q++)
      if (self->qds[q] == queue_depth && self->threads[t] == threads)
        return open_latency_index (self, self->cell_result[t * self->n_qds + q]);
  return NULL;
}

static void
on_map_pressed (GtkGestureClick *gesture,
                int              n_press,
                double           x,
                double           y,
                DmSweepWindow   *self)
{
  GtkWidget *map = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint c, r;

  if (dm_heatmap_cell_at (DM_HEATMAP (map), x, y, &c, &r))
    open_latency_index (self, self->cell_result[r * self->n_qds + c]);
}

/* --- loading --------------------------------------------------------------- */

gboolean
dm_sweep_window_load (DmSweepWindow  *self,
                      const char     *path,
                      GError        **error)
{
  g_autofree char *text = NULL;
  gsize len;
  dm_report r;

  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), FALSE);

  if (!dm_tool_run_read_file (path, &r, &text, &len, error))
    return FALSE;
  if (r.n_results == 0)
    {
      dm_report_clear (&r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s holds no results"), path);
      return FALSE;
    }

  dm_tool_run_take_loaded (&self->run, &r);
  /* The target first: on a disk it fixes the Mode control, which then
   * shows the mode the file was measured with. */
  if (self->run.loaded.target.path[0])
    {
      /* An entry takes UTF-8 only; a folder named otherwise is shown as
       * the window can (and is the user's to correct before a new run). */
      g_autofree char *shown = g_utf8_make_valid (self->run.loaded.target.path, -1);
      gtk_editable_set_text (GTK_EDITABLE (self->target_entry), shown);
    }

  /* The plan the file was made with (its lists as planned, the bound); a
   * plain report shown here gets what it measured as its lists. */
  set_axes (self, &self->run.loaded);
  if (dm_sweep_plan_from_json (&self->run.loaded, text, len, &self->plan) < 0)
    {
      self->plan.pattern = r.results[0].spec.pattern;
      self->plan.block_size = r.results[0].spec.block_size;
      self->plan.mode = r.results[0].mode;
      self->plan.n_queue_depths = MIN (self->n_qds, DM_SWEEP_MAX_LIST);
      memcpy (self->plan.queue_depths, self->qds, self->plan.n_queue_depths * sizeof (unsigned));
      self->plan.n_threads = MIN (self->n_threads, DM_SWEEP_MAX_LIST);
      memcpy (self->plan.threads, self->threads, self->plan.n_threads * sizeof (unsigned));
    }

  /* The kind first: choosing it sets its own defaults, which the file's
   * plan then replaces. */
  dm_sweep_kinds_load (&self->kinds, &self->plan);
  gtk_drop_down_set_selected (self->pattern_dropdown, self->plan.pattern == DM_SEQ ? 0 : 1);
  for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
    if (block_sizes[i] == self->plan.block_size)
      gtk_drop_down_set_selected (self->block_dropdown, i);
  gtk_drop_down_set_selected (self->mode_dropdown, self->plan.mode);
  {
    g_autoptr (GString) qd = g_string_new (NULL);
    g_autoptr (GString) th = g_string_new (NULL);
    for (unsigned i = 0; i < self->n_qds; i++)
      g_string_append_printf (qd, "%s%u", i ? "," : "", self->qds[i]);
    for (unsigned i = 0; i < self->n_threads; i++)
      g_string_append_printf (th, "%s%u", i ? "," : "", self->threads[i]);
    gtk_editable_set_text (GTK_EDITABLE (self->qd_entry), qd->str);
    gtk_editable_set_text (GTK_EDITABLE (self->threads_entry), th->str);
  }
  if (self->plan.latency_bound_us > 0)
    {
      g_autofree char *b = g_strdup_printf ("%gus", self->plan.latency_bound_us);
      gtk_editable_set_text (GTK_EDITABLE (self->bound_entry), b);
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (self->bound_entry), "");

  {
    g_autofree char *base = g_path_get_basename (path);
    g_autofree char *count = dm_sweep_kinds_count (self->plan.kind, r.n_results);
    g_autofree char *msg = g_strdup_printf (_ ("Showing %s: %s (%s)."), base, count,
                                            dm_status_name (r.status));
    refresh_maps (self);
    gtk_label_set_text (GTK_LABEL (self->status_label), msg);
  }
  update_actions (self);
  return TRUE;
}

/* --- life ------------------------------------------------------------------ */

static void
on_control_changed (DmSweepWindow *self)
{
  update_estimate (self);
}

static void
on_kind_changed (DmSweepWindow *self)
{
  dm_sweep_kinds_show (&self->kinds, GTK_EDITABLE (self->qd_entry),
                       GTK_EDITABLE (self->threads_entry), self->pattern_dropdown);
  update_estimate (self);
}

static void
on_target_changed (DmSweepWindow *self)
{
  dm_tool_run_check_target (&self->run,
                            gtk_editable_get_text (GTK_EDITABLE (self->target_entry)));
  update_estimate (self);
  update_actions (self);
}

static void
dm_sweep_window_dispose (GObject *object)
{
  DmSweepWindow *self = DM_SWEEP_WINDOW (object);

  dm_tool_run_dispose (&self->run);
  dm_sweep_kinds_clear (&self->kinds);
  g_clear_object (&self->settings);
  /* No gtk_widget_dispose_template: GtkWindow unparents its own titlebar
   * and child, and a second unparent would be a critical. */
  G_OBJECT_CLASS (dm_sweep_window_parent_class)->dispose (object);
}

static void
dm_sweep_window_finalize (GObject *object)
{
  dm_tool_run_finalize (&DM_SWEEP_WINDOW (object)->run);
  G_OBJECT_CLASS (dm_sweep_window_parent_class)->finalize (object);
}

static void
dm_sweep_window_class_init (DmSweepWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_sweep_window_dispose;
  object_class->finalize = dm_sweep_window_finalize;

  g_type_ensure (DM_TYPE_HEATMAP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-sweep-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, pattern_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, bound_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, qd_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, threads_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, target_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, time_label);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, throughput_map);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, latency_map);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, maps_box);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, chart_area);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DmSweepWindow, footer_label);
#define BIND_KIND(name) gtk_widget_class_bind_template_child_full (widget_class, #name, FALSE, \
                          G_STRUCT_OFFSET (DmSweepWindow, kinds.name))
  BIND_KIND (kind_dropdown);
  BIND_KIND (blocks_label);
  BIND_KIND (blocks_entry);
  BIND_KIND (both_check);
  BIND_KIND (block_label);
#undef BIND_KIND

  gtk_widget_class_install_action (widget_class, "sweep.start", NULL, action_start);
  gtk_widget_class_install_action (widget_class, "sweep.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "sweep.save", "s", action_save);
}

static void
dm_sweep_window_init (DmSweepWindow *self)
{
  dm_system_info sys;
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->kinds.block_dropdown = GTK_WIDGET (self->block_dropdown);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->chart_area), draw_chart, self, NULL);
  dm_tool_run_init (&self->run, GTK_WINDOW (self), self->status_label, self->time_label,
                    self->progress_bar, (DmToolRunSave) dm_sweep_window_save);
  dm_tool_run_set_mode (&self->run, self->mode_dropdown, 0);
  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  self->logical_cpus = sys.logical_cpus ? sys.logical_cpus : 1;
  dm_sweep_plan_init (&self->plan);
  for (unsigned i = 0; i < MAX_CELLS; i++)
    self->cell_result[i] = -1;

  for (GtkWidget *map = self->throughput_map; map;
       map = map == self->throughput_map ? self->latency_map : NULL)
    {
      click = gtk_gesture_click_new ();
      g_signal_connect (click, "pressed", G_CALLBACK (on_map_pressed), self);
      gtk_widget_add_controller (map, GTK_EVENT_CONTROLLER (click));
    }
  g_signal_connect_swapped (self->pattern_dropdown, "notify::selected",
                            G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->block_dropdown, "notify::selected",
                            G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->mode_dropdown, "notify::selected",
                            G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->qd_entry, "changed", G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->threads_entry, "changed", G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->bound_entry, "changed", G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->target_entry, "changed", G_CALLBACK (on_target_changed), self);
  g_signal_connect_swapped (self->kinds.kind_dropdown, "notify::selected",
                            G_CALLBACK (on_kind_changed), self);
  g_signal_connect_swapped (self->kinds.blocks_entry, "changed", G_CALLBACK (on_control_changed),
                            self);
  g_signal_connect_swapped (self->kinds.both_check, "toggled", G_CALLBACK (on_control_changed),
                            self);
  on_kind_changed (self);
}

GtkWidget *
dm_sweep_window_new (GtkApplication *app,
                     GSettings      *settings)
{
  DmSweepWindow *self = g_object_new (DM_TYPE_SWEEP_WINDOW, "application", app, NULL);
  g_autofree char *target = dm_tool_run_first_target (settings);

  self->settings = settings ? g_object_ref (settings) : NULL;
  gtk_editable_set_text (GTK_EDITABLE (self->target_entry), target);
  gtk_label_set_text (GTK_LABEL (self->summary_label),
                      "Start measures every combination, lightest load first; the maps fill in "
                      "as it goes, and Stop keeps what was measured.");
  update_estimate (self);
  update_actions (self);
  return GTK_WIDGET (self);
}

void
dm_sweep_window_set_plan (DmSweepWindow *self,
                          const char    *queue_depths,
                          const char    *threads,
                          const char    *folder)
{
  g_return_if_fail (DM_IS_SWEEP_WINDOW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->qd_entry), queue_depths);
  gtk_editable_set_text (GTK_EDITABLE (self->threads_entry), threads);
  gtk_editable_set_text (GTK_EDITABLE (self->target_entry), folder);
}

gboolean
dm_sweep_window_set_kind (DmSweepWindow *self,
                          const char    *kind,
                          const char    *blocks,
                          const char    *bound)
{
  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), FALSE);
  return dm_sweep_kinds_set (&self->kinds, kind, blocks, bound, self->bound_entry);
}

const char *
dm_sweep_window_get_status (DmSweepWindow *self)
{
  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->status_label));
}

GtkWidget *
dm_sweep_window_get_mode_control (DmSweepWindow *self)
{
  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), NULL);

  return GTK_WIDGET (self->mode_dropdown);
}

gboolean
dm_sweep_window_has_results (DmSweepWindow *self)
{
  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), FALSE);

  return shown_report (self) != NULL;
}

gboolean
dm_sweep_window_is_running (DmSweepWindow *self)
{
  g_return_val_if_fail (DM_IS_SWEEP_WINDOW (self), FALSE);

  return is_running (self);
}
