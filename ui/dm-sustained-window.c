/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sustained test is a one-result report that the engine runs in one
 * pass (dm_sustained_report_init, dm_runner_set_pass), as diskmeter-cli
 * sustained runs it, here on an ordinary DmJob: its worker thread,
 * cancellation and test-file removal are the main window's. This file
 * turns the controls into a plan and the job's samples into the timeline;
 * the cliff is named from the samples as a saved file holds them, so the
 * window, its JSON and the CLI's agree to the byte.
 */
#include "dm-sustained-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-footer.h"
#include "dm-job.h"
#include "dm-tags-field.h"
#include "dm-pdf.h"
#include "dm-platform.h"
#include "dm-reason.h"
#include "dm-screenshot.h"
#include "dm-script.h"
#include "dm-sustained.h"
#include "dm-timeline-chart.h"
#include "dm-tool-run.h"
#include "dm-units.h"

struct _DmSustainedWindow
{
  GtkWindow       parent_instance;

  /* template children */
  GtkWidget      *content;
  GtkWidget      *start_button;
  GtkDropDown    *mode_dropdown;
  GtkDropDown    *pattern_dropdown;
  GtkDropDown    *block_dropdown;
  GtkWidget      *qd_entry;
  GtkWidget      *threads_entry;
  GtkWidget      *span_entry;
  GtkWidget      *duration_entry;
  GtkWidget      *sample_entry;
  GtkWidget      *target_entry;
  GtkWidget      *status_label;
  GtkWidget      *time_label;
  GtkWidget      *progress_bar;
  GtkWidget      *chart;
  GtkWidget      *summary_label;
  GtkWidget      *footer_label;

  GSettings      *settings;        /* may be NULL */
  DmToolRun       run;             /* the job, or a saved run shown */

  dm_sustained_plan plan;          /* of the run shown */
  dm_sustained_cliff cliff;        /* as shown */
  gboolean        have_cliff;
  guint           n_shown;         /* samples drawn */
};

static void scriptable_init (DmScriptableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DmSustainedWindow, dm_sustained_window, GTK_TYPE_WINDOW,
                               G_IMPLEMENT_INTERFACE (DM_TYPE_SCRIPTABLE, scriptable_init))

/* The Block control's items (dm-sustained-window.ui), in its order. */
static const uint32_t block_sizes[] = { 4096, 16384, 65536, 131072, 262144, 1048576, 4194304,
                                        8388608 };

/* --- what is shown --------------------------------------------------------- */

static gboolean
is_running (DmSustainedWindow *self)
{
  return dm_tool_run_is_running (&self->run);
}

static const dm_report *
shown_report (DmSustainedWindow *self)
{
  return dm_tool_run_shown (&self->run);
}

static char *
format_rate (double mb_per_s)
{
  return g_strdup_printf (mb_per_s >= 100 ? "%.0f MB/s" : "%.1f MB/s", mb_per_s);
}

/* The timeline and its marks from these samples; axis_s > 0 while running
 * (the axis is the whole duration, the line grows into it). */
static void
show_samples (DmSustainedWindow *self,
              const dm_sample   *samples,
              guint              n,
              double             axis_s,
              gboolean           final)
{
  DmTimelineMarks marks;

  dm_timeline_chart_set_samples (DM_TIMELINE_CHART (self->chart), samples, n, axis_s);
  self->n_shown = n;
  /* The opening rate needs its first seconds, and a cliff two samples
   * after it: before that there is nothing to mark. */
  self->have_cliff = n >= 4 || (final && n > 0);
  if (!self->have_cliff)
    {
      memset (&self->cliff, 0, sizeof self->cliff);
      dm_timeline_chart_set_marks (DM_TIMELINE_CHART (self->chart), NULL);
      return;
    }
  /* As a saved file will give it, so the figures shown are those it names. */
  dm_sustained_find_cliff_as_saved (samples, n, &self->cliff);
  marks.found = self->cliff.found;
  marks.at_s = self->cliff.at_s;
  marks.cache_bytes = self->cliff.cache_bytes;
  marks.before_mb_per_s = self->cliff.before_mb_per_s;
  marks.after_mb_per_s = self->cliff.after_mb_per_s;
  dm_timeline_chart_set_marks (DM_TIMELINE_CHART (self->chart), &marks);
}

/* The summary under the chart: what a report would quote. */
static void
show_summary (DmSustainedWindow *self,
              const dm_report   *r)
{
  const dm_result *res = r && r->n_results ? &r->results[0] : NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *before = format_rate (self->cliff.before_mb_per_s);
  g_autofree char *after = format_rate (self->cliff.after_mb_per_s);
  g_autofree char *opening = format_rate (self->cliff.opening_mb_per_s);
  char size[32], span[32], name[64];

  if (!res)
    return;
  dm_block_short (res->spec.block_size, name, sizeof name);
  dm_size_human (r->settings.test_size, span, sizeof span);
  g_string_append_printf (text, "%s %s%s Q%uT%u over %s", dm_mode_title (res->mode),
                          res->spec.pattern == DM_SEQ ? "SEQ" : "RND", name,
                          res->spec.queue_depth, res->spec.threads, span);
  if (res->n_runs > 0)
    {
      char moved[32];

      dm_size_human (res->runs[0].bytes, moved, sizeof moved);
      g_string_append_printf (text, ": %s in %.1f s, %.1f MB/s on average.", moved,
                              res->runs[0].seconds, res->runs[0].mb_per_s);
    }
  else
    g_string_append (text, ".");
  if (!self->have_cliff)
    g_string_append (text, "  No samples.");
  else if (self->cliff.found)
    {
      dm_size_human (self->cliff.cache_bytes, size, sizeof size);
      g_string_append_printf (text, "  Cliff after %s (at %.1f s): %s before, %s after.", size,
                              self->cliff.at_s, before, after);
    }
  else
    g_string_append_printf (text, "  No cliff: the rate stayed above half of its opening %s "
                                  "(last quarter %s).", opening, after);
  gtk_label_set_text (GTK_LABEL (self->summary_label), text->str);
}

static void
update_actions (DmSustainedWindow *self)
{
  gboolean running = is_running (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sustained.start", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sustained.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sustained.save", shown_report (self) != NULL);
  gtk_widget_set_visible (self->progress_bar, running);
  dm_footer_show (self->footer_label, shown_report (self),
                  gtk_editable_get_text (GTK_EDITABLE (self->target_entry)));
}

/* --- planning -------------------------------------------------------------- */

static gboolean
read_plan (DmSustainedWindow *self,
           dm_sustained_plan *p,
           gboolean          *span_free,
           char              *why,
           size_t             ws)
{
  const char *span = gtk_editable_get_text (GTK_EDITABLE (self->span_entry));
  const char *duration = gtk_editable_get_text (GTK_EDITABLE (self->duration_entry));
  const char *sample = gtk_editable_get_text (GTK_EDITABLE (self->sample_entry));
  guint block = gtk_drop_down_get_selected (self->block_dropdown);
  char inner[200];

  dm_sustained_plan_init (p);
  p->mode = gtk_drop_down_get_selected (self->mode_dropdown) == 1 ? DM_MODE_READ : DM_MODE_WRITE;
  p->pattern = gtk_drop_down_get_selected (self->pattern_dropdown) == 1 ? DM_RND : DM_SEQ;
  p->block_size = block_sizes[MIN (block, G_N_ELEMENTS (block_sizes) - 1)];
  if (dm_uint_parse (gtk_editable_get_text (GTK_EDITABLE (self->qd_entry)), 1, DM_QUEUE_MAX,
                     &p->queue_depth, inner, sizeof inner) < 0)
    return g_snprintf (why, ws, _ ("queue depth: %s"), inner), FALSE;
  if (dm_uint_parse (gtk_editable_get_text (GTK_EDITABLE (self->threads_entry)), 1,
                     DM_THREADS_MAX, &p->threads, inner, sizeof inner) < 0)
    return g_snprintf (why, ws, _ ("threads: %s"), inner), FALSE;
  *span_free = g_ascii_strcasecmp (span, "free") == 0;
  if (!*span_free)
    {
      if (dm_size_parse (span, &p->span, inner, sizeof inner) < 0)
        return g_snprintf (why, ws, _ ("span: %s"), inner), FALSE;
      if (p->span < DM_TEST_SIZE_MIN || p->span > DM_TEST_SIZE_MAX || p->span % DM_BLOCK_MAX_ALIGN)
        return g_snprintf (why, ws, _ ("the span must be free or a whole number of MiB from "
                                    "16MiB to 64GiB, not %s"), span), FALSE;
    }
  if (dm_duration_parse (duration, &p->duration_s, inner, sizeof inner) < 0)
    return g_snprintf (why, ws, _ ("duration: %s"), inner), FALSE;
  if (dm_duration_parse (sample, &p->sample_s, inner, sizeof inner) < 0)
    return g_snprintf (why, ws, _ ("sample: %s"), inner), FALSE;
  if (p->sample_s < DM_SAMPLE_MIN_S || p->sample_s > DM_SAMPLE_MAX_S)
    return g_snprintf (why, ws, _ ("the sample step must be %g to %g s"), DM_SAMPLE_MIN_S,
                       DM_SAMPLE_MAX_S), FALSE;
  return TRUE;
}

/* The span to run in folder, by the engine's rule (as diskmeter-cli
 * sustained takes it): "free" is all free space but the margin, and on a
 * disk, which is only read, the first 4 GiB at most. */
static gboolean
resolve_span (const dm_sustained_plan *p,
              gboolean                 span_free,
              const char              *folder,
              uint64_t                *span,
              char                    *why,
              size_t                   ws)
{
  dm_target_info t;
  char a[32], m[32];
  int err = dm_target_probe (folder, &t);

  if (err < 0)
    return g_snprintf (why, ws, _ ("cannot use %s: %s"), folder, g_strerror (-err)), FALSE;
  err = dm_sustained_resolve_span (&t, p->mode,
                                   span_free ? DM_SUSTAINED_SPAN_DEFAULT : DM_SUSTAINED_SPAN_SIZE,
                                   p->span, span);
  if (err == -EPERM)
    return g_snprintf (why, ws, "%s", dm_tool_run_device_note ()), FALSE;
  if (err < 0)
    {
      dm_size_human (t.free_bytes, a, sizeof a);
      dm_size_human (dm_sustained_margin (t.size_bytes), m, sizeof m);
      return g_snprintf (why, ws, _ ("not enough free space in %s: %s free, and %s of it stays "
                                  "free"), folder, a, m), FALSE;
    }
  return TRUE;
}

static void
base_settings (DmSustainedWindow *self,
               dm_settings       *s)
{
  dm_settings_init (s);
  if (self->settings)
    {
      g_autofree char *data = g_settings_get_string (self->settings, "test-data");

      if (dm_data_parse (data, &s->data) != 0)
        s->data = DM_DATA_RANDOM;
    }
}

/* --- running --------------------------------------------------------------- */

static void
on_job_progress (DmJob             *job,
                 DmSustainedWindow *self)
{
  const DmJobProgress *p = dm_job_get_progress (job);
  const dm_sample *samples;
  guint n;

  dm_tool_run_progress (&self->run, p);
  if (p->phase == DM_PHASE_PREPARE || p->result_index < 0)
    {
      /* A disk has no test file: the line keeps saying it is only read. */
      if (!self->run.device)
        gtk_label_set_text (GTK_LABEL (self->status_label), _ ("Preparing the test file…"));
      return;
    }
  samples = dm_job_peek_samples (job, &n);
  if (n != self->n_shown)
    show_samples (self, samples, n, self->plan.duration_s, FALSE);
  if (p->phase == DM_PHASE_MEASURE && p->sample.t > 0)
    {
      g_autofree char *rate = format_rate (p->sample.all.mb_per_s);
      g_autofree char *text = g_strdup_printf ("%s: %.1f s, %s",
                                               self->plan.mode == DM_MODE_READ ? _ ("Reading")
                                                                                : _ ("Writing"),
                                               p->sample.t, rate);
      gtk_label_set_text (GTK_LABEL (self->status_label), text);
    }
}

static void
on_job_finished (DmJob             *job,
                 int                code,
                 DmSustainedWindow *self)
{
  const dm_report *r = dm_job_get_report (job);
  const dm_result *res = &r->results[0];
  g_autofree char *text = NULL;

  dm_tool_run_finished (&self->run, r);
  show_samples (self, res->samples, res->n_samples, 0, TRUE);
  if (r->status == DM_STATUS_COMPLETE && r->target.is_block_device)
    text = g_strdup (_ ("Done; the disk was only read."));
  else if (r->status == DM_STATUS_COMPLETE)
    text = g_strdup (_ ("Done; the test file was removed."));
  else if (r->status == DM_STATUS_CANCELLED && r->target.is_block_device)
    text = g_strdup (_ ("Stopped: the samples so far are kept; the disk was only read."));
  else if (r->status == DM_STATUS_CANCELLED)
    text = g_strdup (_ ("Stopped: the samples so far are kept; the test file was removed."));
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
  show_summary (self, r);
  update_actions (self);
  dm_script_run_finished (self, code == 0 ? 0 : 1);
}

gboolean
dm_sustained_window_start (DmSustainedWindow *self,
                           GError           **error)
{
  g_autofree char *target = dm_tool_run_target (self->target_entry);
  DmJob *job;
  dm_sustained_plan p;
  dm_settings base;
  dm_report r;
  gboolean span_free;
  uint64_t span = 0;
  char why[400] = "";

  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), FALSE);

  if (is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("A sustained run is under way"));
      return FALSE;
    }
  /* The target as it is now: on a disk the Mode control reads. */
  dm_tool_run_check_target (&self->run, target);
  memset (&r, 0, sizeof r);
  base_settings (self, &base);
  if (!read_plan (self, &p, &span_free, why, sizeof why)
      || !resolve_span (&p, span_free, target, &span, why, sizeof why)
      || dm_sustained_report_init (&r, &p, span, &base, why, sizeof why) < 0
      /* The Tags field's tags, as the main window's runs carry them. */
      || !dm_tags_apply_setting (self->settings, &r, why, sizeof why))
    {
      char shown[512];

      dm_report_clear (&r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("Cannot start: %s"),
                   dm_reason_shown (why, shown, sizeof shown));
      return FALSE;
    }

  dm_tool_run_clear (&self->run);
  self->plan = p;
  self->plan.span = span;
  job = dm_job_new (&r, target, NULL);
  /* A read pass reads what it wrote first; a write pass meets the storage
   * as it is, its cache empty. */
  dm_job_set_pass (job, p.mode == DM_MODE_READ);
  if (!dm_tool_run_start (&self->run, job, G_CALLBACK (on_job_progress),
                          G_CALLBACK (on_job_finished), error))
    {
      update_actions (self);
      return FALSE;
    }
  {
    char s[32];
    g_autofree char *text = NULL;

    dm_size_human (span, s, sizeof s);
    text = self->run.device ? g_strdup (dm_tool_run_device_note ())
                            : g_strdup_printf (_ ("Preparing a test file of %s…"), s);
    gtk_label_set_text (GTK_LABEL (self->status_label), text);
  }
  gtk_label_set_text (GTK_LABEL (self->summary_label), "");
  show_samples (self, NULL, 0, p.duration_s, FALSE);
  update_actions (self);
  return TRUE;
}

static void
action_start (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DmSustainedWindow *self = DM_SUSTAINED_WINDOW (widget);
  g_autoptr (GError) error = NULL;

  if (!dm_sustained_window_start (self, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  dm_tool_run_stop (&DM_SUSTAINED_WINDOW (widget)->run);
}

/* --- saving ---------------------------------------------------------------- */

static gboolean
save_png (DmSustainedWindow *self,
          const char        *path,
          GError           **error)
{
  /* As the main window's Save Screenshot, larger when a script asks. */
  return dm_screenshot_save_scaled (GTK_WIDGET (self), self->content,
                                    dm_script_screenshot_scale (self), path, error);
}

gboolean
dm_sustained_window_save (DmSustainedWindow *self,
                          const char        *format,
                          const char        *path,
                          GError           **error)
{
  const dm_report *r = shown_report (self);
  dm_buf buf;

  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), FALSE);

  if (g_strcmp0 (format, "png") == 0)
    return save_png (self, path, error);
  /* The timeline as on screen, text and vectors, one page. */
  if (g_strcmp0 (format, "pdf") == 0)
    {
      g_autoptr (DmPdf) pdf = dm_pdf_new (gtk_window_get_title (GTK_WINDOW (self)));

      return dm_pdf_add_window (pdf, GTK_WIDGET (self), self->content, error)
             && dm_pdf_save (pdf, path, error);
    }
  if (!r)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _ ("There is no finished sustained run to save yet"));
      return FALSE;
    }
  dm_buf_init (&buf);
  if (g_strcmp0 (format, "csv") == 0)
    dm_report_write_samples_csv (r, &buf);
  else if (g_strcmp0 (format, "text") == 0)
    dm_sustained_write_text (r, &buf);
  else
    dm_sustained_write_json (r, &buf);
  return dm_tool_run_write (&buf, path, error);
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  const char *format = g_variant_get_string (parameter, NULL);
  g_autofree char *name = g_strdup_printf ("diskmeter-sustained.%s",
                                           g_str_equal (format, "text") ? "txt" : format);

  dm_tool_run_save_as (&DM_SUSTAINED_WINDOW (widget)->run, format, _ ("Save Sustained Run"),
                       name);
}

/* --- loading --------------------------------------------------------------- */

static void
set_entry_number (GtkWidget  *entry,
                  const char *format,
                  double      value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  gtk_editable_set_text (GTK_EDITABLE (entry), g_ascii_formatd (text, sizeof text, format, value));
}

gboolean
dm_sustained_window_load (DmSustainedWindow *self,
                          const char        *path,
                          GError           **error)
{
  g_autofree char *text = NULL;
  gsize len;
  dm_report r;
  char span[32];
  const dm_result *res;

  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), FALSE);

  if (is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("A sustained run is under way"));
      return FALSE;
    }
  if (!dm_tool_run_read_file (path, &r, &text, &len, error))
    return FALSE;
  if (!dm_sustained_is (&r, text, len))
    {
      dm_report_clear (&r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s is not a sustained run"), path);
      return FALSE;
    }

  dm_tool_run_take_loaded (&self->run, &r);
  res = &self->run.loaded.results[0];
  /* The target first: on a disk it fixes the Mode control, which then
   * shows the mode the file was measured with. */
  if (self->run.loaded.target.path[0])
    {
      /* An entry takes UTF-8 only; a folder named otherwise is shown as
       * the window can (and is the user's to correct before a new run). */
      g_autofree char *shown = g_utf8_make_valid (self->run.loaded.target.path, -1);
      gtk_editable_set_text (GTK_EDITABLE (self->target_entry), shown);
    }

  /* The controls as the run was made, so Start measures it again. */
  dm_sustained_plan_init (&self->plan);
  self->plan.mode = res->mode == DM_MODE_READ ? DM_MODE_READ : DM_MODE_WRITE;
  self->plan.pattern = res->spec.pattern;
  self->plan.block_size = res->spec.block_size;
  self->plan.queue_depth = res->spec.queue_depth;
  self->plan.threads = res->spec.threads;
  self->plan.span = self->run.loaded.settings.test_size;
  self->plan.duration_s = self->run.loaded.settings.measure_s;
  if (res->sample_s > 0)
    self->plan.sample_s = res->sample_s;
  gtk_drop_down_set_selected (self->mode_dropdown, self->plan.mode == DM_MODE_READ);
  gtk_drop_down_set_selected (self->pattern_dropdown, self->plan.pattern == DM_RND);
  for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
    if (block_sizes[i] == self->plan.block_size)
      gtk_drop_down_set_selected (self->block_dropdown, i);
  set_entry_number (self->qd_entry, "%.0f", self->plan.queue_depth);
  set_entry_number (self->threads_entry, "%.0f", self->plan.threads);
  dm_size_format (self->plan.span, span, sizeof span);
  gtk_editable_set_text (GTK_EDITABLE (self->span_entry), span);
  set_entry_number (self->duration_entry, "%g", self->plan.duration_s);
  set_entry_number (self->sample_entry, "%g", self->plan.sample_s);

  show_samples (self, res->samples, res->n_samples, 0, TRUE);
  show_summary (self, &self->run.loaded);
  {
    g_autofree char *base = g_path_get_basename (path);
    g_autofree char *msg = g_strdup_printf (_ ("Showing %s (%s)."), base,
                                            dm_status_name (self->run.loaded.status));
    gtk_label_set_text (GTK_LABEL (self->status_label), msg);
  }
  gtk_label_set_text (GTK_LABEL (self->time_label), "");
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  update_actions (self);
  return TRUE;
}

/* --- scripts --------------------------------------------------------------- */

static gboolean
scriptable_start (DmScriptable *window)
{
  DmSustainedWindow *self = DM_SUSTAINED_WINDOW (window);
  g_autoptr (GError) error = NULL;

  if (dm_sustained_window_start (self, &error))
    return TRUE;
  g_printerr ("diskmeter: %s\n", error->message);
  gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
  return FALSE;
}

static gboolean
scriptable_save (DmScriptable *window,
                 const char   *format,
                 const char   *path,
                 GError      **error)
{
  return dm_sustained_window_save (DM_SUSTAINED_WINDOW (window), format, path, error);
}

static gboolean
scriptable_is_running (DmScriptable *window)
{
  return is_running (DM_SUSTAINED_WINDOW (window));
}

/* The cliff as the chart marks it, for a script's log. */
static char *
scriptable_summary (DmScriptable *window)
{
  DmSustainedWindow *self = DM_SUSTAINED_WINDOW (window);

  if (!self->have_cliff)
    return NULL;
  if (!self->cliff.found)
    return g_strdup ("sustained: no cliff");
  return g_strdup_printf ("sustained: cliff after %" G_GUINT64_FORMAT " bytes, %.1f MB/s "
                          "before, %.1f MB/s after", (guint64) self->cliff.cache_bytes,
                          self->cliff.before_mb_per_s, self->cliff.after_mb_per_s);
}

static void
scriptable_init (DmScriptableInterface *iface)
{
  iface->start = scriptable_start;
  iface->save = scriptable_save;
  iface->is_running = scriptable_is_running;
  iface->summary = scriptable_summary;
}

/* --- life ------------------------------------------------------------------ */

static void
dm_sustained_window_dispose (GObject *object)
{
  DmSustainedWindow *self = DM_SUSTAINED_WINDOW (object);

  dm_tool_run_dispose (&self->run);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (dm_sustained_window_parent_class)->dispose (object);
}

static void
dm_sustained_window_finalize (GObject *object)
{
  dm_tool_run_finalize (&DM_SUSTAINED_WINDOW (object)->run);
  G_OBJECT_CLASS (dm_sustained_window_parent_class)->finalize (object);
}

static void
dm_sustained_window_class_init (DmSustainedWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_sustained_window_dispose;
  object_class->finalize = dm_sustained_window_finalize;

  /* Dispose has no gtk_widget_dispose_template: GtkWindow unparents its
   * own titlebar and child, and a second unparent would be a critical. */
  g_type_ensure (DM_TYPE_TIMELINE_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-sustained-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, pattern_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, qd_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, threads_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, span_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, duration_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, sample_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, target_entry);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, time_label);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, chart);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DmSustainedWindow, footer_label);

  gtk_widget_class_install_action (widget_class, "sustained.start", NULL, action_start);
  gtk_widget_class_install_action (widget_class, "sustained.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "sustained.save", "s", action_save);
}

/* Checked as it is typed (a cheap probe): a disk fixes the Mode control to
 * Read, and the status line says why. */
static void
on_target_changed (DmSustainedWindow *self)
{
  const char *note = dm_tool_run_device_note ();
  const char *shown = gtk_label_get_text (GTK_LABEL (self->status_label));

  if (dm_tool_run_check_target (&self->run,
                                gtk_editable_get_text (GTK_EDITABLE (self->target_entry))))
    {
      if (!is_running (self))
        gtk_label_set_text (GTK_LABEL (self->status_label), note);
    }
  else if (g_strcmp0 (shown, note) == 0 && !is_running (self))
    gtk_label_set_text (GTK_LABEL (self->status_label), "");
  update_actions (self);
}

static void
dm_sustained_window_init (DmSustainedWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  dm_tool_run_init (&self->run, GTK_WINDOW (self), self->status_label, self->time_label,
                    self->progress_bar, (DmToolRunSave) dm_sustained_window_save);
  dm_tool_run_set_mode (&self->run, self->mode_dropdown, 1);
  g_signal_connect_swapped (self->target_entry, "changed", G_CALLBACK (on_target_changed), self);
  dm_sustained_plan_init (&self->plan);
}

GtkWidget *
dm_sustained_window_new (GtkApplication *app,
                         GSettings      *settings)
{
  DmSustainedWindow *self = g_object_new (DM_TYPE_SUSTAINED_WINDOW, "application", app, NULL);
  g_autofree char *target = dm_tool_run_first_target (settings);

  self->settings = settings ? g_object_ref (settings) : NULL;
  gtk_editable_set_text (GTK_EDITABLE (self->target_entry), target);
  update_actions (self);
  return GTK_WIDGET (self);
}

void
dm_sustained_window_set_plan (DmSustainedWindow *self,
                              const char        *span,
                              const char        *duration,
                              const char        *folder)
{
  g_return_if_fail (DM_IS_SUSTAINED_WINDOW (self));

  if (span)
    gtk_editable_set_text (GTK_EDITABLE (self->span_entry), span);
  if (duration)
    gtk_editable_set_text (GTK_EDITABLE (self->duration_entry), duration);
  if (folder)
    gtk_editable_set_text (GTK_EDITABLE (self->target_entry), folder);
}

void
dm_sustained_window_set_mode (DmSustainedWindow *self,
                              dm_mode            mode)
{
  guint index = mode == DM_MODE_READ ? 1 : 0;

  g_return_if_fail (DM_IS_SUSTAINED_WINDOW (self));

  /* On a disk the control stays at Read; the choice is kept for a folder. */
  if (self->run.device)
    self->run.mode_before = index;
  else
    gtk_drop_down_set_selected (self->mode_dropdown, index);
}

GtkWidget *
dm_sustained_window_get_mode_control (DmSustainedWindow *self)
{
  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), NULL);

  return GTK_WIDGET (self->mode_dropdown);
}

gboolean
dm_sustained_window_is_running (DmSustainedWindow *self)
{
  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), FALSE);

  return is_running (self);
}

void
dm_sustained_window_get_cliff (DmSustainedWindow *self,
                               gboolean          *found,
                               guint64           *cache_bytes,
                               double            *before_mb_per_s,
                               double            *after_mb_per_s)
{
  g_return_if_fail (DM_IS_SUSTAINED_WINDOW (self));

  *found = self->have_cliff && self->cliff.found;
  *cache_bytes = *found ? self->cliff.cache_bytes : 0;
  *before_mb_per_s = self->have_cliff ? self->cliff.before_mb_per_s : 0;
  *after_mb_per_s = self->have_cliff ? self->cliff.after_mb_per_s : 0;
}

guint
dm_sustained_window_count_samples (DmSustainedWindow *self)
{
  g_return_val_if_fail (DM_IS_SUSTAINED_WINDOW (self), 0);

  return self->n_shown;
}
