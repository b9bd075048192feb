/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's state lives in GSettings: the dropdowns, the menus and the
 * command line all write keys there, and the window follows each key, so
 * the three ways in never disagree. A run is a DmJob; the grid keeps its
 * own report so that finished rows keep their values. This file is the hub
 * of the window's files: it builds the window, runs the tests, exports the
 * grid and holds what its topic files share (dm-window-*.c), which call
 * only this file.
 */
#include "dm-window.h"
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "dm-format.h"
#include "dm-frame-wait.h"
#include "dm-measure.h"
#include "dm-reason.h"
#include "dm-tile.h"
#include "dm-ui.h"
#include "dm-zoom.h"

G_DEFINE_FINAL_TYPE_WITH_CODE (DmWindow, dm_window, GTK_TYPE_APPLICATION_WINDOW,
                               G_IMPLEMENT_INTERFACE (DM_TYPE_SCRIPTABLE,
                                                      _dm_window_scriptable_init))

enum { PROP_0, PROP_RUNNING, PROP_MODES, PROP_PROFILE_FILE, PROP_SETTLED, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* --- messages -------------------------------------------------------------- */

void
dm_window_show_error (DmWindow   *self,
                      const char *message)
{
  g_return_if_fail (DM_IS_WINDOW (self));
  /* A message may name a path or a saved run's reason, whose bytes need
   * not be UTF-8, which a label takes only: shown with U+FFFD there. */
  g_autofree char *shown = g_utf8_make_valid (message, -1);
  g_printerr ("diskmeter: %s\n", shown);
  gtk_label_set_text (GTK_LABEL (self->error_label), shown);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

static void
on_error_dismiss (DmWindow *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), FALSE);
}

void
_dm_window_set_status (DmWindow   *self,
                       const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
}

/* --- what a run measures --------------------------------------------------- */

char *
_dm_window_current_target (DmWindow *self)
{
  char *target = g_settings_get_string (self->settings, "target");

  if (target[0] == '\0')
    {
      g_free (target);
      target = g_strdup (g_get_home_dir ());
    }
  else if (!g_path_is_absolute (target))
    {
      /* A relative key (a D-Bus action, a run saved by an older version)
       * names a folder of this process's working directory, where the run
       * measures: the reports and the history keep that absolute path. */
      char *absolute = g_canonicalize_filename (target, NULL);

      g_free (target);
      target = absolute;
    }
  return target;
}

/* A whole disk or partition is only ever read from the window. Until the
 * background scan has probed the target the path tells (the first frame
 * does not wait on the disk); a run probes it first. */
gboolean
_dm_window_target_is_device (DmWindow *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  if (self->have_target_info && g_strcmp0 (self->target_info.path, target) == 0)
    return self->target_info.is_block_device;
  return g_str_has_prefix (target, "/dev/") || g_str_has_prefix (target, "\\\\.\\");
}

/* The columns a run measures: those on screen that the modes setting
 * names (all of them when it names none that is on screen), and only
 * Read on a device. */
guint
_dm_window_run_modes (DmWindow *self)
{
  g_autofree char *text = g_settings_get_string (self->settings, "modes");
  guint shown = dm_grid_layout_modes (&self->layout);
  guint mask = DM_MODES_ALL;

  if (_dm_window_target_is_device (self))
    return shown & DM_MODE_BIT (DM_MODE_READ);
  if (!dm_modes_setting_parse (text, &mask, NULL, 0) || !(mask & shown))
    mask = DM_MODES_ALL;
  return shown & mask;
}

/* After the modes setting or the target changed: a grid whose columns no
 * longer match what a run measures starts over (during a run, once it is
 * done), and the selector follows, saying why when a disk is only read. */
void
_dm_window_modes_changed (DmWindow *self)
{
  if (_dm_window_run_modes (self) != self->run_modes)
    {
      if (self->job)
        self->layout_stale = TRUE;
      else
        _dm_window_rebuild_grid (self);
    }
  _dm_window_sync_modes (self, TRUE);
}

/* --- the grid -------------------------------------------------------------- */

char *
_dm_window_column_title (DmWindow *self,
                         dm_mode   mode)
{
  const char *unit = dm_unit_display_name (self->unit);

  /* A workload's mix is its own: one column for the whole row. */
  if (mode == DM_N_MODES)
    return g_strdup_printf (_("Workload (%s)"), unit);
  if (mode == DM_MODE_MIX)
    {
      int r = g_settings_get_int (self->settings, "mix-ratio");
      return g_strdup_printf (_("Mix R%d%%/W%d%% (%s)"), r, 100 - r, unit);
    }
  /* The engine's titles stay English (reports); the window's are translated. */
  return g_strdup_printf ("%s (%s)",
                          mode == DM_MODE_READ    ? _("Read")
                          : mode == DM_MODE_WRITE ? _("Write")
                                                  : dm_mode_title (mode),
                          unit);
}

void
_dm_window_update_column_titles (DmWindow *self)
{
  for (guint c = 0; c < (self->shaped ? 1 : self->layout.n_columns); c++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->grid), c + 1, 0);
      g_autofree char *title = _dm_window_column_title (self, self->shaped ? DM_N_MODES
                                                                    : self->layout.columns[c]);

      if (GTK_IS_LABEL (label))
        gtk_label_set_text (GTK_LABEL (label), title);
    }
}

/* New rows or columns: the grid's widgets and report start over. */
void
_dm_window_rebuild_grid (DmWindow *self)
{
  _dm_window_compute_layout (self, &self->layout);
  _dm_window_grid_build (self);
  _dm_window_reset_report (self);
  dm_report_clear (&self->columns_kept);
  self->columns_stale = FALSE;
  _dm_window_sync_modes (self, FALSE);
  /* The footer and title too: the title names the profile, and the
   * figures' date went with them. */
  _dm_window_refresh (self);
  self->layout_stale = FALSE;
  _dm_window_fit_height (self);
}

/* Only the columns changed (Mix ticked or unticked): the grid's widgets
 * start over, its figures do not (_dm_window_grid_keep). */
void
_dm_window_rebuild_columns (DmWindow *self)
{
  dm_report old = self->report;

  memset (&self->report, 0, sizeof self->report);
  _dm_window_compute_layout (self, &self->layout);
  _dm_window_grid_build (self);
  _dm_window_reset_report (self);
  _dm_window_grid_keep (self, &old);
  dm_report_clear (&old);
  _dm_window_sync_modes (self, FALSE);
  _dm_window_refresh (self);
  self->columns_stale = FALSE;
}

void
_dm_window_refresh (DmWindow *self)
{
  _dm_window_grid_show_all (self);
  _dm_window_update_footer (self);
}

/* --- runs ------------------------------------------------------------------ */

/* The controls that would change a run under way follow the running
 * property (bound in dm_window_init and for each row's button); the
 * application watches it to stay alive until the engine has cleaned up. */
static void
set_running (DmWindow *self,
             gboolean  running)
{
  _dm_window_actions_update (self);
  gtk_button_set_label (GTK_BUTTON (self->all_button), running ? _("Stop") : _("All"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->all_button),
                                  running ? "win.stop" : "win.run-all");
  if (running)
    gtk_widget_add_css_class (self->all_button, "stop");
  else
    gtk_widget_remove_css_class (self->all_button, "stop");
  if (self->running != running)
    {
      self->running = running;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
  _dm_window_sync_modes (self, FALSE);
}

static void
on_job_progress (DmJob    *job,
                 DmWindow *self)
{
  const DmJobProgress *p = dm_job_get_progress (job);
  g_autofree char *left = dm_format_seconds_left (p->seconds_left);
  g_autofree char *status = NULL;
  const dm_result *current = NULL;
  guint n = self->report.n_results;
  double fraction;

  for (guint i = 0; i < n; i++)
    {
      const dm_result *res;
      guint r, c;

      if (!dm_job_is_selected (job, i))
        continue;
      res = dm_job_peek_result (job, i);
      if (!_dm_window_grid_find (self, i, res, &r, &c))
        continue;
      _dm_window_grid_show (self, r, c, res,
                   (int) i == p->result_index && p->phase != DM_PHASE_DONE
                   && res->status != DM_STATUS_COMPLETE && res->status != DM_STATUS_FAILED);
      /* An unattended run logs each figure as it is final, so a script or
       * a CI log can follow it without a screen. */
      if (dm_script_get (self) && i < 32 && !(self->reported & (1u << i))
          && res->status == DM_STATUS_COMPLETE)
        {
          g_autofree char *line = dm_tile_describe (&res->spec, res->mode,
                                                    dm_result_value (res, self->unit),
                                                    self->unit, TRUE);

          /* A workload row: what its tile shows, for a log to check. */
          if (self->shaped && r < DM_WINDOW_MAX_ROWS)
            {
              g_free (line);
              line = g_strdup (dm_tile_get_description (DM_TILE (self->tiles[r][0])));
            }
          self->reported |= 1u << i;
          g_print ("diskmeter: %s\n", line);
        }
      if ((int) i == p->result_index)
        current = res;
    }

  status = dm_job_describe_progress (p, current);
  _dm_window_set_status (self, status);
  dm_comparison_live (self->comparison, job);
  fraction = CLAMP (p->fraction, 0.0, 1.0);
  /* Redraw the bar only when it moves by about a pixel: a long run would
   * otherwise repaint it ten times a second for nothing. */
  if (fabs (fraction - gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (self->progress_bar)))
      >= 1.0 / MAX (gtk_widget_get_width (self->progress_bar), 100))
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
  gtk_label_set_text (GTK_LABEL (self->time_label), left);
}

/* The running job's figures again, e.g. in another unit. */
void
_dm_window_show_progress (DmWindow *self)
{
  if (self->job)
    on_job_progress (self->job, self);
}

static void
on_job_finished (DmJob    *job,
                 int       code,
                 DmWindow *self)
{
  const dm_report *done = dm_job_get_report (job);
  const dm_report *second;
  g_autofree char *message = NULL;

  dm_measure_run_finished ();
  _dm_window_grid_merge (self, job, done);
  _dm_window_history_save (self, done);
  second = dm_comparison_finish (self->comparison, job, &self->report);
  if (second)
    _dm_window_history_save (self, second);
  g_clear_object (&self->job);
  set_running (self, FALSE);

  if (self->layout_stale)
    _dm_window_rebuild_grid (self);
  else if (self->columns_stale)
    _dm_window_rebuild_columns (self);
  else
    _dm_window_refresh (self);
  gtk_label_set_text (GTK_LABEL (self->time_label), "");

  if (code == 0)
    {
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
      _dm_window_set_status (self, self->report.cached
                                     ? _("Done (cached: the figures include the page cache)")
                                     : _("Done"));
    }
  else if (code == -ECANCELED)
    _dm_window_set_status (self, _("Stopped; finished tests keep their figures"));
  else
    {
      _dm_window_set_status (self, _("Failed"));
      char shown[sizeof self->report.error * 2];

      /* The report keeps the engine's English; the user reads it in their
       * language, as diskmeter-cli prints it. */
      message = g_strdup_printf (_("The run failed: %s"),
                                 self->report.error[0]
                                   ? dm_reason_shown (self->report.error, shown, sizeof shown)
                                   : dm_strerror (code));
      dm_window_show_error (self, message);
    }

  if (!message && self->report.warning[0])
    {
      char shown[sizeof self->report.warning * 2];

      message = g_strdup (dm_reason_shown (self->report.warning, shown, sizeof shown));
      dm_window_show_error (self, message);
    }

  /* A failed test inside a completed run still deserves a sentence. */
  if (!message)
    for (unsigned i = 0; i < self->report.n_results; i++)
      if (self->report.results[i].status == DM_STATUS_FAILED && self->report.results[i].error[0])
        {
          const dm_result *res = &self->report.results[i];
          char name[64];
          char shown[sizeof res->error * 2];
          const char *reason = dm_reason_shown (res->error, shown, sizeof shown);
          g_autofree char *m = NULL;

          dm_spec_label (&res->spec, name, sizeof name);
          m = res->shaped ? g_strdup_printf (_("%s failed: %s"), res->workload.name, reason)
                          : g_strdup_printf (_("%s %s failed: %s"), name,
                                             dm_mode_title (res->mode), reason);
          dm_window_show_error (self, m);
          break;
        }

  if (self->close_after_job)
    {
      /* A scripted run that was stopped still leaves its figures behind:
       * the finished tests are in the files, marked as cancelled. */
      dm_script_save_before_close (self, code == 0 ? 0 : 1);
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  dm_script_run_finished (self, code == 0 ? 0 : 1);
}

void
_dm_window_start (DmWindow *self,
                  int       only_row)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) second = NULL;
  g_autofree char *target = _dm_window_current_target (self);
  g_autofree bool *selection = NULL;
  dm_settings s;
  dm_report r;
  char why[256];
  dm_tag tags[DM_TAGS_MAX];
  unsigned n_tags;
  g_autofree char *bad_tags = NULL;

  if (self->job)
    return;
  on_error_dismiss (self);

  /* Whether the target is a device decides what may run: probed now if
   * the background scan has not yet. */
  if (!self->have_target_info || g_strcmp0 (self->target_info.path, target) != 0)
    _dm_window_update_target_info (self);
  if (self->layout_stale || _dm_window_run_modes (self) != self->run_modes)
    _dm_window_rebuild_grid (self);
  else if (self->columns_stale)
    _dm_window_rebuild_columns (self);

  _dm_window_engine_settings (self, &s);
  if (dm_settings_check (&s, why, sizeof why) != 0)
    {
      g_autofree char *m = g_strdup_printf (_("Settings: %s"), why);
      dm_window_show_error (self, m);
      return;
    }
  if (!dm_tags_field_get (self->tags_field, tags, &n_tags, &bad_tags))
    {
      dm_window_show_error (self, bad_tags);
      return;
    }

  memset (&r, 0, sizeof r);
  if (_dm_window_init_report (self, &s, &r) != 0)
    {
      dm_window_show_error (self, _("Out of memory while setting up the run."));
      return;
    }
  g_strlcpy (r.profile, self->report.profile, sizeof r.profile);
  r.nvme = self->report.nvme;
  memcpy (r.thresholds, self->rules, self->n_rules * sizeof self->rules[0]);
  r.n_thresholds = self->n_rules;
  dm_report_set_comment (&r, gtk_editable_get_text (GTK_EDITABLE (self->comment_entry)));
  dm_report_set_comment (&self->report, r.comment);
  dm_report_set_tags (&r, tags, n_tags);
  dm_report_set_tags (&self->report, tags, n_tags);

  /* Rows about to run start from nothing; the others keep their figures. */
  selection = _dm_window_grid_select (self, &r, only_row);
  _dm_window_refresh (self);

  self->reported = 0;
  self->job = dm_job_new (&r, target, selection);
  /* A run of every row with a second target measures both in turns (the
   * comparison knows plain tests only). */
  if (only_row >= 0 || self->shaped || !dm_comparison_get_target (self->comparison))
    dm_comparison_hide (self->comparison);
  else if (!dm_comparison_prepare (self->comparison, self->job, &self->report, &s, &self->layout,
                                   self->run_modes, &second))
    dm_window_show_error (self, second->message);
  g_signal_connect (self->job, "progress", G_CALLBACK (on_job_progress), self);
  g_signal_connect (self->job, "finished", G_CALLBACK (on_job_finished), self);
  if (!dm_job_start (self->job, &error))
    {
      g_clear_object (&self->job);
      dm_window_show_error (self, error->message);
      return;
    }

  set_running (self, TRUE);
  {
    g_autofree char *status = dm_job_describe_progress (dm_job_get_progress (self->job), NULL);
    _dm_window_set_status (self, status);
  }
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_label_set_text (GTK_LABEL (self->time_label), "");
  dm_measure_run_started ();
}

gboolean
dm_window_is_running (DmWindow *self)
{
  return self->job != NULL;
}

/* --- exports --------------------------------------------------------------- */

void
_dm_window_sync_comment (DmWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->comment_entry));
  g_autofree char *shown = g_utf8_make_valid (self->report.comment, -1);
  /* Unchanged since an opened run set it: the run keeps its exact bytes,
   * which the entry (UTF-8 only) may show with U+FFFD. Otherwise the
   * engine's rule: a comment too long is cut at a character boundary. */
  if (strcmp (text, shown) != 0)
    dm_report_set_comment (&self->report, text);
}


void
_dm_window_write (DmWindow     *self,
                  DmExportKind  kind,
                  dm_buf       *buf)
{
  const dm_compare *compare = dm_comparison_get_compare (self->comparison);
  dm_report view;

  /* While the comparison is shown, the exports are the comparison. */
  if (compare)
    {
      if (kind == DM_EXPORT_TEXT)
        dm_compare_write_text (compare, buf);
      else if (kind == DM_EXPORT_JSON)
        dm_compare_write_json (compare, buf);
      else
        dm_compare_write_csv (compare, buf);
      return;
    }
  /* What the exports hold: the tests the run on screen reached; the rest
   * are empty tiles. */
  if (dm_report_view_ran (&self->report, &view) < 0)
    {
      buf->error = -ENOMEM;
      return;
    }
  if (kind == DM_EXPORT_TEXT)
    dm_report_write_text (&view, buf);
  else if (kind == DM_EXPORT_JSON)
    dm_report_write_json (&view, buf);
  else
    dm_report_write_csv (&view, buf);
  dm_report_view_free (&view);
}

gboolean
_dm_window_export_to (DmWindow     *self,
                      DmExportKind  kind,
                      const char   *path,
                      GError      **error)
{
  dm_buf buf;
  int rc;

  if (kind == DM_EXPORT_PNG)
    return dm_window_save_screenshot (self, path, error);
  if (kind == DM_EXPORT_PDF)
    return _dm_window_save_pdf (self, path, error);

  _dm_window_sync_comment (self);
  dm_buf_init (&buf);
  _dm_window_write (self, kind, &buf);
  rc = buf.error ? buf.error : dm_write_file_atomic (path, &buf);
  dm_buf_free (&buf);
  if (rc != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not save %s: %s"), path,
                   dm_strerror (rc));
      return FALSE;
    }
  return TRUE;
}

gboolean
dm_window_save (DmWindow    *self,
                const char  *format,
                const char  *path,
                GError     **error)
{
  static const char *const formats[] = {
    [DM_EXPORT_TEXT] = "text", [DM_EXPORT_JSON] = "json", [DM_EXPORT_CSV] = "csv",
    [DM_EXPORT_PNG] = "png", [DM_EXPORT_PDF] = "pdf",
  };

  g_return_val_if_fail (DM_IS_WINDOW (self), FALSE);

  for (guint kind = 0; kind < G_N_ELEMENTS (formats); kind++)
    if (g_strcmp0 (format, formats[kind]) == 0)
      return _dm_window_export_to (self, kind, path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Cannot save as %s", format);
  return FALSE;
}

void
dm_window_set_compare_target (DmWindow   *self,
                              const char *path)
{
  g_return_if_fail (DM_IS_WINDOW (self));
  dm_comparison_set_target (self->comparison, path);
  _dm_window_update_footer (self);
  _dm_window_actions_update (self);
}

/* --- after the first frame -------------------------------------------------- */

/* What the first frame does not show waits until it is on screen: the scan
 * of mounts and disks, whose answer refills the target list and footer and
 * would lay the window out again. The main menu's popover waits longer,
 * until the menu is first opened (dm-window-actions.c). The
 * window has settled once that answer is drawn (dm-window-targets.c);
 * scripts and actions sent to the window wait for it (dm-application.c). */
static gboolean
after_first_frame (gpointer data)
{
  DmWindow *self = data;

  if (self->cancellable)  /* not disposed meanwhile */
    {
      _dm_window_targets_scan (self);
    }
  return G_SOURCE_REMOVE;
}

void
_dm_window_set_settled (DmWindow *self)
{
  if (self->settled)
    return;
  self->settled = TRUE;
  dm_measure_settled ();
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
}

/* --- life cycle ------------------------------------------------------------ */

static gboolean
dm_window_close_request (GtkWindow *window)
{
  DmWindow *self = DM_WINDOW (window);

  /* Closing mid-run stops the engine first: it removes its test file, and
   * the window goes once the worker has let go of it. */
  if (self->job)
    {
      self->close_after_job = TRUE;
      dm_job_cancel (self->job);
      gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (dm_window_parent_class)->close_request (window);
}

static void
dm_window_dispose (GObject *object)
{
  DmWindow *self = DM_WINDOW (object);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* Disposing a running job cancels and joins it. */
  g_clear_object (&self->job);
  if (self->chooser)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->history_window)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->history_window),
                                    (gpointer *) &self->history_window);
      gtk_window_destroy (GTK_WINDOW (self->history_window));
      self->history_window = NULL;
    }
  if (self->settings)
    _dm_window_settings_stop (self);
  g_clear_object (&self->settings);
  if (self->comparison)
    g_signal_handlers_disconnect_by_data (self->comparison, self);
  G_OBJECT_CLASS (dm_window_parent_class)->dispose (object);
}

static void
dm_window_finalize (GObject *object)
{
  DmWindow *self = DM_WINDOW (object);

  g_clear_object (&self->comparison);
  dm_report_clear (&self->report);
  dm_report_clear (&self->columns_kept);
  g_free (self->workloads);
  g_free (self->workloads_from);
  g_clear_object (&self->target_store);
  G_OBJECT_CLASS (dm_window_parent_class)->finalize (object);
}

static void
dm_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  DmWindow *self = DM_WINDOW (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_MODES:
      g_value_take_string (value, self->settings ? g_settings_get_string (self->settings, "modes")
                                                 : g_strdup ("all"));
      break;
    case PROP_PROFILE_FILE:
      g_value_take_string (value, self->settings ? _dm_window_get_profile_file (self)
                                                 : g_strdup (""));
      break;
    case PROP_SETTLED:
      g_value_set_boolean (value, self->settled);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The modes action's state is the setting. */
static void
dm_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  DmWindow *self = DM_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MODES:
      if (self->settings)
        _dm_window_set_modes (self, g_value_get_string (value));
      break;
    case PROP_PROFILE_FILE:
      if (self->settings)
        _dm_window_choose_profile_file (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dm_window_class_init (DmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dm_window_dispose;
  object_class->finalize = dm_window_finalize;
  object_class->get_property = dm_window_get_property;
  object_class->set_property = dm_window_set_property;
  window_class->close_request = dm_window_close_request;

  /* A run is under way (from All, a row, a script or D-Bus). */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Which columns a run measures: the modes setting, and the state of
   * the win.modes action ("all", "read", "write", "read,mix"). */
  properties[PROP_MODES] =
    g_param_spec_string ("modes", NULL, NULL, "all",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The profile file the grid shows ("" for none): the state of the
   * win.profile-file action, a path or a shipped profile's resource. */
  properties[PROP_PROFILE_FILE] =
    g_param_spec_string ("profile-file", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The first frame is on screen and the work put after it is done. */
  properties[PROP_SETTLED] =
    g_param_spec_boolean ("settled", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  dm_ui_init ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, all_button);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, count_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, target_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, units_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, modes_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, modes_model);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, grid);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, comment_entry);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, time_label);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, footer_label);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, row_size_group);
  gtk_widget_class_bind_template_callback (widget_class, on_error_dismiss);
  _dm_window_class_actions_init (widget_class);
  _dm_window_class_grid_init (widget_class);
  _dm_window_class_history_init (widget_class);
  _dm_window_class_targets_init (widget_class);

  g_type_ensure (DM_TYPE_TILE);
  g_type_ensure (DM_TYPE_CHOICE);
}

static void
dm_window_init (DmWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _dm_window_menu_init (self);
  /* The zoom goes between the window and its content. */
  g_object_ref (self->content);
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  self->zoom = dm_zoom_new (self->content);
  g_object_unref (self->content);
  gtk_window_set_child (GTK_WINDOW (self), self->zoom);
  /* The header bar, its title and buttons, grow with the content: a
   * second zoom around it follows the content's. */
  {
    GtkWidget *titlebar = g_object_ref (gtk_window_get_titlebar (GTK_WINDOW (self)));
    GtkWidget *titlebar_zoom;

    gtk_window_set_titlebar (GTK_WINDOW (self), NULL);
    titlebar_zoom = dm_zoom_new (titlebar);
    g_object_unref (titlebar);
    gtk_window_set_titlebar (GTK_WINDOW (self), titlebar_zoom);
    g_object_bind_property (self->zoom, "percent", titlebar_zoom, "percent", G_BINDING_DEFAULT);
  }
  _dm_window_targets_init (self);
  _dm_window_actions_update (self);
  g_object_bind_property (self, "running", self->count_dropdown, "sensitive",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_object_bind_property (self, "running", self->size_dropdown, "sensitive",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_object_bind_property (self, "running", self->target_dropdown, "sensitive",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  /* A bar left full or half drawn after Done would be in every screenshot. */
  g_object_bind_property (self, "running", self->progress_bar, "visible",
                          G_BINDING_SYNC_CREATE);
  self->cancellable = g_cancellable_new ();
  gtk_size_group_add_widget (self->row_size_group, self->all_button);
  /* The comparison takes the grid's place while it is shown. */
  self->comparison = dm_comparison_new ();
  gtk_widget_insert_after (dm_comparison_get_view (self->comparison),
                           gtk_widget_get_parent (self->grid), self->grid);
  g_object_bind_property (self->comparison, "shown", self->grid, "visible",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  /* Stop Comparing is enabled while runs are compared on screen. */
  g_signal_connect_swapped (self->comparison, "notify::shown",
                            G_CALLBACK (_dm_window_actions_update), self);
  _dm_window_actions_update (self);
}

DmWindow *
dm_window_new (GtkApplication *application,
               GSettings      *settings)
{
  DmWindow *self = g_object_new (DM_TYPE_WINDOW, "application", application, NULL);

  self->settings = g_object_ref (settings);
  self->tags_field = dm_tags_field_attach (self->comment_entry, settings);
  g_signal_connect_swapped (self->tags_field, "changed", G_CALLBACK (_dm_window_update_footer), self);
  _dm_window_settings_start (self);
  _dm_window_targets_start (self);

  dm_measure_watch_first_frame (GTK_WIDGET (self));
  dm_frame_wait_first (GTK_WIDGET (self), 0, after_first_frame);
  return self;
}

void
dm_window_set_comment (DmWindow   *self,
                       const char *comment)
{
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), comment ? comment : "");
  _dm_window_sync_comment (self);
}
