/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The history: finished runs are saved into it, and saved runs come back
 * from it, one into the grid (with the settings it was measured with) or
 * several side by side in the comparison, from the History window or the
 * command line.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-history.h"
#include "dm-history-window.h"
#include "dm-profile.h"
#include "dm-warmup-setting.h"

/* --- saving ---------------------------------------------------------------- */

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

/* --- opening --------------------------------------------------------------- */

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
    mix |= r->results[i].mode == DM_MODE_MIX && !r->results[i].shaped;
  if (r->n_results > 0 && r->results[0].shaped)
    {
      /* Workload rows: the grid's rows are the run's own workloads, and
       * All runs them again. */
      unsigned n = MIN (r->n_results, DM_WINDOW_MAX_ROWS);

      g_free (self->workloads);
      self->workloads = g_new0 (dm_workload, n);
      for (unsigned i = 0; i < n; i++)
        self->workloads[i] = r->results[i].workload;
      self->n_workloads = n;
      g_free (self->workloads_from);
      self->workloads_from = NULL;
      g_settings_set_string (self->settings, "profile", "workloads");
      _dm_window_rebuild_grid (self);
    }
  else if (dm_profile_find (r->profile))
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
    if (r->n_results > 0 && r->results[0].shaped)
      modes = DM_MODES_ALL;
    if ((modes & DM_MODE_BIT (DM_MODE_READ)) && (modes & DM_MODE_BIT (DM_MODE_WRITE)))
      modes = DM_MODES_ALL;
    text = dm_modes_setting_format (modes);
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
      dm_warmup_setting_set (self->settings, s);
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

  dm_comparison_hide (self->comparison);
  settings_from_run (self, &r);
  /* The grid keeps its own arrays; a saved figure fills the tile of the
   * same test and mode, and the next run starts the grid over. */
  for (unsigned i = 0; i < self->report.n_results; i++)
    dm_result_reset (&self->report.results[i]);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      /* A workload row by its place: two may share a spec. */
      dm_result *mine = !self->shaped ? dm_report_find (&self->report, &r.results[i].spec,
                                                        r.results[i].mode)
                        : i < self->report.n_results && r.results[i].shaped
                          ? &self->report.results[i] : NULL;

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

gboolean
dm_window_compare_saved (DmWindow           *self,
                         const char * const *paths,
                         guint               n,
                         GError            **error)
{
  g_autofree dm_report *reports = NULL;
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
  names = g_new0 (char *, n + 1);
  for (; loaded < n; loaded++)
    {
      if (!load_saved (paths[loaded], &reports[loaded], error))
        break;
      names[loaded] = g_path_get_basename (paths[loaded]);
    }
  if (loaded < n)
    {
      for (guint i = 0; i < loaded; i++)
        dm_report_clear (&reports[i]);
      return FALSE;
    }

  if (!dm_comparison_show_saved (self->comparison, g_steal_pointer (&reports),
                                 g_steal_pointer (&names), n, error))
    return FALSE;
  _dm_window_set_status (self, _ ("Comparing saved runs; the next run shows the grid again"));
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

static void
action_history (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);

  if (!self->history_window)
    {
      self->history_window = GTK_WIDGET (dm_history_window_new (GTK_WINDOW (self)));
      g_signal_connect_object (self->history_window, "open-run", G_CALLBACK (on_open_run), self, 0);
      g_signal_connect_object (self->history_window, "compare-runs", G_CALLBACK (on_compare_runs),
                               self, 0);
      g_object_add_weak_pointer (G_OBJECT (self->history_window),
                                 (gpointer *) &self->history_window);
    }
  else
    dm_history_window_reload (DM_HISTORY_WINDOW (self->history_window));
  gtk_window_present (GTK_WINDOW (self->history_window));
}

void
_dm_window_class_history_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.history", NULL, action_history);
}
