/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Side by side: a second folder measured in turns with the target, and
 * saved runs from the history, one shown in the grid or several compared.
 * Completed runs go into the history from here too.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-compare-view.h"
#include "dm-history.h"
#include "dm-history-window.h"
#include "dm-profile.h"

/* --- comparison and history ------------------------------------------------ */

/* Completed and cancelled runs go into the history, so this week can be
 * compared with last week; not saving is worth a line, never a failure.
 * The history keeps what the exports hold: the tests the run reached, not
 * the rows a single-row run or a stop left out. */
void
_dm_window_history_save (DmWindow        *self,
                         const dm_report *r)
{
  char path[1200];
  gboolean any = FALSE;
  dm_report view;
  int err;

  if (r->status != DM_STATUS_COMPLETE && r->status != DM_STATUS_CANCELLED)
    return;
  for (unsigned i = 0; i < r->n_results && !any; i++)
    any = r->results[i].status == DM_STATUS_COMPLETE;
  if (!any)
    return;
  err = dm_report_view_ran (r, &view);
  if (err == 0)
    err = dm_history_save (&view, path, sizeof path);
  dm_report_view_free (&view);
  if (err < 0)
    g_warning ("The run was not saved in the history: %s", dm_strerror (err));
  else if (dm_script_get (self))
    g_print ("diskmeter: kept in the history as %s\n", path);
  if (self->history_window)
    dm_history_window_reload (DM_HISTORY_WINDOW (self->history_window));
}

void
dm_window_set_compare_target (DmWindow   *self,
                              const char *path)
{
  g_return_if_fail (DM_IS_WINDOW (self));
  g_free (self->compare_target);
  self->compare_target = path && path[0] ? g_strdup (path) : NULL;
  _dm_window_update_footer (self);
}

/* Shows the comparison (or the grid again with FALSE). */
void
_dm_window_compare_show (DmWindow *self,
                         gboolean  show)
{
  self->comparing = show;
  gtk_widget_set_visible (self->grid, !show);
  gtk_widget_set_visible (self->compare_view, show);
  dm_compare_view_set_comparison (DM_COMPARE_VIEW (self->compare_view),
                                  show ? &self->compare : NULL);
}

static void
compare_rebuild (DmWindow        *self,
                 const dm_report *a,
                 const dm_report *b)
{
  const dm_report *runs[2] = { a, b };
  const char *names[2] = { a->target.path[0] ? a->target.path : "A",
                           b->target.path[0] ? b->target.path : "B" };

  dm_compare_clear (&self->compare);
  if (dm_compare_build (&self->compare, runs, names, 2, self->unit) < 0)
    {
      _dm_window_compare_show (self, FALSE);
      return;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  _dm_window_compare_show (self, TRUE);
}

/* A run of every row with a second target set measures both, interleaved
 * on the job's one worker; any other run leaves comparing. */
void
_dm_window_compare_prepare (DmWindow *self,
                            DmJob    *job,
                            int       only_row)
{
  dm_settings s;
  dm_report b;

  if (!self->compare_target || only_row >= 0)
    {
      if (self->comparing)
        _dm_window_compare_show (self, FALSE);
      return;
    }
  _dm_window_engine_settings (self, &s);
  memset (&b, 0, sizeof b);
  if (dm_report_init (&b, &s, self->layout.rows, self->layout.n_rows,
                      _dm_window_run_modes (self)) != 0)
    {
      dm_window_show_error (self, _ ("Out of memory while setting up the comparison."));
      return;
    }
  g_strlcpy (b.profile, self->report.profile, sizeof b.profile);
  b.nvme = self->report.nvme;
  g_strlcpy (b.comment, self->report.comment, sizeof b.comment);
  memcpy (b.thresholds, self->report.thresholds, sizeof b.thresholds);
  b.n_thresholds = self->report.n_thresholds;
  if (!dm_job_add_second (job, &b, self->compare_target))
    {
      dm_report_clear (&b);
      dm_window_show_error (self, _ ("Could not set up the second target of the comparison."));
      return;
    }
  dm_report_clear (&self->compare_b);
  self->live_complete = G_MAXUINT;
  _dm_window_compare_live (self, job);
}

/* Both targets' figures as they come: the comparison is rebuilt whenever
 * another test completes on either side. */
void
_dm_window_compare_live (DmWindow *self,
                         DmJob    *job)
{
  const dm_result *b_results;
  guint n_b, complete = 0;

  b_results = dm_job_peek_results_b (job, &n_b);
  if (!b_results)
    return;
  for (guint i = 0; i < self->report.n_results; i++)
    complete += dm_job_peek_result (job, i)->status == DM_STATUS_COMPLETE;
  for (guint i = 0; i < n_b; i++)
    complete += b_results[i].status == DM_STATUS_COMPLETE;
  if (complete == self->live_complete)
    return;
  self->live_complete = complete;

  /* Only the results are read from these: shallow copies do. */
  self->live_a = self->report;
  self->live_a.results = (dm_result *) dm_job_peek_result (job, 0);
  self->live_b = self->report;
  self->live_b.results = (dm_result *) b_results;
  self->live_b.n_results = n_b;
  g_strlcpy (self->live_b.target.path, self->compare_target, sizeof self->live_b.target.path);
  self->live_b.target.model[0] = '\0';
  compare_rebuild (self, &self->live_a, &self->live_b);
}

void
_dm_window_compare_finished (DmWindow *self,
                             DmJob    *job)
{
  dm_report b;

  if (!dm_job_steal_report_b (job, &b))
    return;
  _dm_window_history_save (self, &b);
  dm_compare_clear (&self->compare);
  dm_report_clear (&self->compare_b);
  self->compare_b = b;
  compare_rebuild (self, &self->report, &self->compare_b);
}

/* While the comparison is shown, the exports are the comparison. */
gboolean
_dm_window_compare_export (DmWindow *self,
                           int       kind,
                           dm_buf   *buf)
{
  if (!self->comparing || self->compare.n_runs < 2)
    return FALSE;
  if (kind == DM_EXPORT_TEXT)
    dm_compare_write_text (&self->compare, buf);
  else if (kind == DM_EXPORT_JSON)
    dm_compare_write_json (&self->compare, buf);
  else
    dm_compare_write_csv (&self->compare, buf);
  return TRUE;
}

/* The comparison in the unit the grid now shows: the same runs, rebuilt. */
void
_dm_window_compare_reunit (DmWindow *self)
{
  const dm_report *runs[DM_COMPARE_MAX];
  const char *names[DM_COMPARE_MAX];
  unsigned n = self->compare.n_runs;

  if (!self->comparing || n < 2 || self->compare.unit == self->unit)
    return;
  memcpy (runs, self->compare.runs, n * sizeof runs[0]);
  memcpy (names, self->compare.names, n * sizeof names[0]);
  dm_compare_clear (&self->compare);
  if (dm_compare_build (&self->compare, runs, names, n, self->unit) < 0)
    {
      _dm_window_compare_show (self, FALSE);
      return;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  _dm_window_compare_show (self, TRUE);
}

/* Green and red limits: the tiles, the comparison and the grid's exports
 * follow the saved rules as soon as they change. */
void
_dm_window_thresholds_changed (DmWindow *self)
{
  self->n_rules = dm_thresholds_from_settings (self->settings, self->rules);
  if (!self->job)
    {
      memcpy (self->report.thresholds, self->rules, self->n_rules * sizeof self->rules[0]);
      self->report.n_thresholds = self->n_rules;
      _dm_window_refresh (self);
    }
  if (self->comparing)
    {
      dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
      dm_compare_view_refresh (DM_COMPARE_VIEW (self->compare_view));
    }
}

/* Saved runs from the history: one is shown in the grid (its tests that the
 * grid has), two or more side by side in the comparison view. */
static gboolean
load_saved (const char  *path,
            dm_report   *out,
            GError     **error)
{
  char why[256] = "";

  memset (out, 0, sizeof *out);
  if (dm_history_load (path, out, why, sizeof why) < 0)
    {
      g_autofree char *name = g_path_get_basename (path);

      dm_report_clear (out);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("Could not open %s: %s"), name,
                   why[0] ? why : "unreadable");
      return FALSE;
    }
  return TRUE;
}

/* The selectors as the saved run was made: its profile or tests, Mix,
 * count, size and timings. A screenshot of it then says what it measured,
 * and All measures the same way again. Each change rebuilds the grid, so
 * this comes before the figures are filled in. */
static void
settings_from_run (DmWindow        *self,
                   const dm_report *r)
{
  const dm_settings *s = &r->settings;
  gboolean mix = FALSE;
  char size[32], why[128];

  for (unsigned i = 0; i < r->n_results; i++)
    mix |= r->results[i].mode == DM_MODE_MIX;
  if (dm_profile_find (r->profile))
    {
      g_settings_set_string (self->settings, "profile", r->profile);
      g_settings_set_boolean (self->settings, "nvme", r->nvme);
    }
  else if (r->n_results > 0)
    {
      g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
      g_auto (GStrv) names = NULL;

      for (unsigned i = 0; i < r->n_results; i++)
        {
          char name[64];
          gboolean seen = FALSE;

          for (unsigned k = 0; k < i && !seen; k++)
            seen = dm_spec_equal (&r->results[k].spec, &r->results[i].spec);
          if (seen)
            continue;
          dm_spec_name (&r->results[i].spec, name, sizeof name);
          g_strv_builder_add (builder, name);
        }
      names = g_strv_builder_end (builder);
      g_settings_set_strv (self->settings, "custom-tests", (const char *const *) names);
      g_settings_set_string (self->settings, "profile", "custom");
    }
  g_settings_set_boolean (self->settings, "mix", mix);
  /* A run of some columns only (Read only, diskmeter-cli --modes) opens as
   * one: the others are empty tiles, and out of its exports again. */
  {
    guint modes = 0;
    g_autofree char *text = NULL;

    for (unsigned i = 0; i < r->n_results; i++)
      modes |= DM_MODE_BIT (r->results[i].mode);
    if ((modes & DM_MODE_BIT (DM_MODE_READ)) && (modes & DM_MODE_BIT (DM_MODE_WRITE)))
      modes = DM_MODES_ALL;
    text = dm_window_modes_format (modes);
    g_settings_set_string (self->settings, "modes", text);
  }
  /* A file edited by hand may hold what the window cannot be set to: then
   * the run shows under the window's own settings. */
  if (dm_settings_check (s, why, sizeof why) == 0)
    {
      if (mix)
        g_settings_set_int (self->settings, "mix-ratio", (int) s->mix_read_percent);
      g_settings_set_int (self->settings, "count", (int) s->count);
      dm_size_format (s->test_size, size, sizeof size);
      g_settings_set_string (self->settings, "size", size);
      g_settings_set_double (self->settings, "measure-time", s->measure_s);
      g_settings_set_double (self->settings, "interval", s->interval_s);
      g_settings_set_double (self->settings, "warmup", s->warmup_s);
      g_settings_set_string (self->settings, "test-data", dm_data_name (s->data));
    }
  /* The folder too, when it is one on this machine. */
  if (!r->target.is_block_device && r->target.path[0]
      && g_file_test (r->target.path, G_FILE_TEST_IS_DIR))
    g_settings_set_string (self->settings, "target", r->target.path);
}

gboolean
dm_window_open_saved (DmWindow    *self,
                      const char  *path,
                      GError     **error)
{
  dm_report r;
  guint shown = 0, total;

  g_return_val_if_fail (DM_IS_WINDOW (self), FALSE);
  if (self->job)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _ ("A run is in progress; open the saved run when it is done."));
      return FALSE;
    }
  if (!load_saved (path, &r, error))
    return FALSE;

  _dm_window_compare_show (self, FALSE);
  settings_from_run (self, &r);
  /* The grid keeps its own arrays; a saved figure fills the tile of the
   * same test and mode, and the next run starts the grid over. */
  for (unsigned i = 0; i < self->report.n_results; i++)
    dm_result_reset (&self->report.results[i]);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *mine = dm_report_find (&self->report, &r.results[i].spec, r.results[i].mode);

      if (mine)
        {
          dm_result_copy (mine, &r.results[i]);
          shown++;
        }
    }
  dm_report_copy_run (&self->report, &r);
  /* GTK takes only UTF-8; the run's exact bytes stay in self->report
   * until the user edits the comment. */
  g_autofree char *comment = g_utf8_make_valid (r.comment, -1);
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), comment);
  total = r.n_results;
  dm_report_clear (&r);

  _dm_window_refresh (self);
  _dm_window_update_footer (self);
  {
    g_autofree char *name = g_path_get_basename (path);
    g_autofree char *status = NULL;

    if (shown < total)
      status = g_strdup_printf (_ ("Saved run %s: %u of its %u figures fit this grid"), name, shown,
                                total);
    else
      status = g_strdup_printf (_ ("Saved run %s"), name);
    _dm_window_set_status (self, status);
  }
  return TRUE;
}

/* The History window's Open and Compare buttons. */
static char *
on_open_run (DmHistoryWindow *history,
             const char      *path,
             DmWindow        *self)
{
  g_autoptr (GError) error = NULL;

  if (!dm_window_open_saved (self, path, &error))
    return g_strdup (error->message);
  gtk_window_present (GTK_WINDOW (self));
  return NULL;
}

static char *
on_compare_runs (DmHistoryWindow    *history,
                 const char * const *paths,
                 DmWindow           *self)
{
  g_autoptr (GError) error = NULL;

  if (!dm_window_compare_saved (self, paths, g_strv_length ((char **) paths), &error))
    return g_strdup (error->message);
  gtk_window_present (GTK_WINDOW (self));
  return NULL;
}

void
_dm_window_connect_history (DmWindow        *self,
                            DmHistoryWindow *history)
{
  g_signal_connect_object (history, "open-run", G_CALLBACK (on_open_run), self, 0);
  g_signal_connect_object (history, "compare-runs", G_CALLBACK (on_compare_runs), self, 0);
}

gboolean
dm_window_compare_saved (DmWindow           *self,
                         const char * const *paths,
                         guint               n,
                         GError            **error)
{
  g_autofree dm_report *reports = NULL;
  g_autofree const dm_report **runs = NULL;
  g_auto (GStrv) names = NULL;
  guint loaded = 0;

  g_return_val_if_fail (DM_IS_WINDOW (self), FALSE);
  if (n < 2 || n > DM_COMPARE_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("Choose between 2 and %d saved runs to compare."), DM_COMPARE_MAX);
      return FALSE;
    }
  if (self->job)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _ ("A run is in progress; compare saved runs when it is done."));
      return FALSE;
    }
  reports = g_new0 (dm_report, n);
  runs = g_new0 (const dm_report *, n);
  names = g_new0 (char *, n + 1);
  for (; loaded < n; loaded++)
    {
      if (!load_saved (paths[loaded], &reports[loaded], error))
        break;
      runs[loaded] = &reports[loaded];
      names[loaded] = g_path_get_basename (paths[loaded]);
    }
  if (loaded < n)
    {
      for (guint i = 0; i < loaded; i++)
        dm_report_clear (&reports[i]);
      return FALSE;
    }

  _dm_window_compare_show (self, FALSE);
  dm_compare_clear (&self->compare);
  for (guint i = 0; i < self->n_saved; i++)
    dm_report_clear (&self->saved[i]);
  g_free (self->saved);
  g_strfreev (self->saved_names);
  self->saved = g_steal_pointer (&reports);
  self->saved_names = g_steal_pointer (&names);
  self->n_saved = n;
  if (dm_compare_build (&self->compare, runs, (const char *const *) self->saved_names, n,
                        self->unit) < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("Out of memory while comparing the saved runs."));
      return FALSE;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  _dm_window_compare_show (self, TRUE);
  _dm_window_set_status (self, _ ("Comparing saved runs; the next run shows the grid again"));
  return TRUE;
}
