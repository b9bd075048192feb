/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grid's widgets: a Run button per test, a tile per test and column,
 * and how a figure shows in a tile (a value, a word, an empty tile, the
 * user's green and red limits). A finished tile opens its latency detail.
 * The layout and the report they show are dm-window.c's.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include "dm-latency-view.h"
#include "dm-reason.h"
#include "dm-tile.h"
#include "dm-tooltip.h"

/* --- rows and columns ------------------------------------------------------- */

/* A workload profile's rows are its workloads, each one tile wide. */
static guint
n_rows (DmWindow *self)
{
  return self->shaped ? MIN (self->n_workloads, DM_WINDOW_MAX_ROWS) : self->layout.n_rows;
}

static guint
n_columns (DmWindow *self)
{
  return self->shaped ? 1 : self->layout.n_columns;
}

/* The grid report's figure of (r, c), in the order its rows were made. */
static dm_result *
result_at (DmWindow *self,
           guint     r,
           guint     c)
{
  if (self->shaped)
    return r < self->report.n_results && c == 0 ? &self->report.results[r] : NULL;
  if (r >= self->layout.n_rows || c >= self->layout.n_columns)
    return NULL;
  return dm_report_find (&self->report, &self->layout.rows[r], self->layout.columns[c]);
}

/* What a row's button and its tiles' sentences call it. */
static void
row_name (DmWindow *self,
          guint     r,
          char     *name,
          gsize     size)
{
  if (self->shaped && self->workloads[r].name[0])
    g_strlcpy (name, self->workloads[r].name, size);
  else if (self->shaped)
    dm_workload_describe (&self->workloads[r], name, size);
  else
    dm_spec_label (&self->layout.rows[r], name, size);
}

/* --- latency detail -------------------------------------------------------- */

/* The latency detail of the grid's figure at (r, c), if it has a finished
 * one: the grid's report owns its histograms, so they outlive the run. */
static gboolean
open_latency_view (DmWindow *self,
                   guint     r,
                   guint     c)
{
  const dm_result *res = result_at (self, r, c);
  GtkWidget *view;
  char label[DM_WORKLOAD_NAME_MAX];
  g_autofree char *title = NULL;

  if (!res || res->status != DM_STATUS_COMPLETE)
    return FALSE;
  row_name (self, r, label, sizeof label);
  title = self->shaped ? g_strdup (label)
                       : g_strdup_printf ("%s %s", label, dm_mode_title (res->mode));
  view = dm_latency_view_new (GTK_WINDOW (self), title, res);
  dm_latency_view_set_device_note (DM_LATENCY_VIEW (view), self->report.device_note);
  gtk_window_present (GTK_WINDOW (view));
  return TRUE;
}

/* The menu's Latency Detail: the focused tile's, or the first finished
 * one in the focused row (its Run button), or in the first row. */
static void
action_latency (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  guint row = 0;

  for (guint r = 0; r < n_rows (self); r++)
    {
      if (focus && focus == self->row_buttons[r])
        row = r;
      for (guint c = 0; c < n_columns (self); c++)
        if (focus && focus == self->tiles[r][c] && open_latency_view (self, r, c))
          return;
    }
  for (guint c = 0; c < n_columns (self); c++)
    if (open_latency_view (self, row, c))
      return;
}

/* --- the grid -------------------------------------------------------------- */

static void
on_row_clicked (GtkButton *button,
                DmWindow  *self)
{
  int row = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "dm-row"));

  gtk_widget_activate_action (GTK_WIDGET (self), "win.run-row", "i", row);
}

static void
on_tile_activate (GtkWidget *tile,
                  gpointer   data)
{
  guint cell = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (tile), "dm-cell"));

  open_latency_view (data, cell / DM_N_MODES, cell % DM_N_MODES);
}

void
_dm_window_grid_build (DmWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->grid)))
    {
      if (GTK_IS_BUTTON (child))
        gtk_size_group_remove_widget (self->row_size_group, child);
      gtk_grid_remove (GTK_GRID (self->grid), child);
    }
  memset (self->row_buttons, 0, sizeof self->row_buttons);
  memset (self->tiles, 0, sizeof self->tiles);

  /* A workload row's mix is part of it: one column, as wide as Read and
   * Write together, under one title. */
  for (guint c = 0; c < n_columns (self); c++)
    {
      g_autofree char *title = _dm_window_column_title (self, self->shaped ? DM_N_MODES
                                                                    : self->layout.columns[c]);
      GtkWidget *label = gtk_label_new (title);

      gtk_widget_add_css_class (label, "column-title");
      gtk_widget_set_hexpand (label, TRUE);
      gtk_grid_attach (GTK_GRID (self->grid), label, c + 1, 0, self->shaped ? DM_WORKLOAD_SPAN : 1,
                       1);
    }

  for (guint r = 0; r < n_rows (self); r++)
    {
      char label[DM_WORKLOAD_NAME_MAX];
      g_autofree char *tooltip = NULL;
      GtkWidget *button;

      row_name (self, r, label, sizeof label);
      button = gtk_button_new_with_label (label);
      tooltip = g_strdup_printf (_("Run %s only"), label);
      dm_tooltip_set (button, tooltip);
      gtk_widget_add_css_class (button, "run-button");
      gtk_widget_add_css_class (button, "row-button");
      g_object_set_data (G_OBJECT (button), "dm-row", GINT_TO_POINTER (r));
      g_signal_connect (button, "clicked", G_CALLBACK (on_row_clicked), self);
      gtk_size_group_add_widget (self->row_size_group, button);
      g_object_bind_property (self, "running", button, "sensitive",
                              G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
      gtk_grid_attach (GTK_GRID (self->grid), button, 0, r + 1, 1, 1);
      self->row_buttons[r] = button;

      for (guint c = 0; c < n_columns (self); c++)
        {
          GtkWidget *tile = dm_tile_new ();

          gtk_widget_set_hexpand (tile, TRUE);
          gtk_grid_attach (GTK_GRID (self->grid), tile, c + 1, r + 1,
                           self->shaped ? DM_WORKLOAD_SPAN : 1, 1);
          self->tiles[r][c] = tile;
          g_object_set_data (G_OBJECT (tile), "dm-cell", GUINT_TO_POINTER (r * DM_N_MODES + c));
          dm_latency_view_connect_activate (tile, G_CALLBACK (on_tile_activate), self);
        }
    }

}

/* A workload row's other figures, one a line: IOPS and p99 latency,
 * reads' and writes' p99 apart when it has both, and a rate it did not
 * reach. A live figure has no latency yet (the run's end gives it). */
static char *
workload_detail (const dm_result *res)
{
  g_autofree char *iops = dm_format_value (res->iops, DM_UNIT_IOPS);
  GString *s = g_string_new (NULL);
  double reached;

  g_string_append_printf (s, _("%s IOPS"), iops);
  if (res->latency.p99 > 0)
    {
      g_autofree char *p99 = dm_format_latency_us (res->latency.p99);
      g_string_append_printf (s, _(" · p99 %s"), p99);
    }
  if (res->read_percent > 0 && res->read_percent < 100 && res->latency_read.p99 > 0
      && res->latency_write.p99 > 0)
    {
      g_autofree char *rd = dm_format_latency_us (res->latency_read.p99);
      g_autofree char *wr = dm_format_latency_us (res->latency_write.p99);
      g_string_append_printf (s, _("\nRead p99 %s · Write p99 %s"), rd, wr);
    }
  if (res->n_runs > 0 && !dm_result_rate_met (res, &reached))
    {
      dm_unit unit = res->workload.rate_unit == DM_RATE_IOPS ? DM_UNIT_IOPS : DM_UNIT_MBPS;
      g_autofree char *got = dm_format_value (reached, unit);
      g_autofree char *offered = dm_format_value (res->workload.rate, unit);

      g_string_append_printf (s, _("\nRate not met: %s of %s %s"), got, offered,
                              dm_unit_display_name (unit));
    }
  return g_string_free (s, FALSE);
}

/* A workload row's wide tile: as a plain tile shows its figure, with the
 * row's other figures beside it and no green or red (the limits name
 * CrystalDiskMark's tests). */
static void
show_workload (DmWindow        *self,
               guint            r,
               const dm_result *res,
               gboolean         live)
{
  DmTile *tile = DM_TILE (self->tiles[r][0]);
  gboolean has_value = res->n_runs > 0 || res->status == DM_STATUS_COMPLETE
                       || (live && res->mb_per_s > 0);
  double value = has_value ? dm_result_value (res, self->unit) : 0;
  g_autofree char *digits = dm_format_value (value, self->unit);
  g_autofree char *detail = NULL;
  g_autofree char *description = NULL;
  char name[DM_WORKLOAD_NAME_MAX];
  DmTileState state;

  row_name (self, r, name, sizeof name);
  gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-green");
  gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-red");
  if (!live && !has_value && !self->job && self->report.finished
      && res->status != DM_STATUS_FAILED)
    {
      description = g_strdup_printf (res->status == DM_STATUS_CANCELLED ? _("%s: stopped")
                                                                        : _("%s: not run"),
                                     name);
      dm_tile_set_state (tile, DM_TILE_NOT_RUN);
      dm_tile_set_no_figure (tile, "");
      dm_tile_set_detail (tile, NULL);
      dm_tile_set_device (tile, NULL);
      dm_tile_set_description (tile, description);
      return;
    }
  state = res->status == DM_STATUS_FAILED ? DM_TILE_FAILED
          : live                          ? DM_TILE_RUNNING
          : has_value                     ? DM_TILE_DONE
                                          : DM_TILE_IDLE;
  dm_tile_set_state (tile, state);
  if (state == DM_TILE_FAILED)
    dm_tile_set_figure (tile, _("Error"), has_value ? dm_meter_fraction_in (value, self->unit) : 0);
  else if (has_value)
    dm_tile_set_figure (tile, digits, dm_meter_fraction_in (value, self->unit));
  else
    dm_tile_set_no_figure (tile, digits);
  if (has_value && state != DM_TILE_FAILED)
    detail = workload_detail (res);
  dm_tile_set_detail (tile, detail);
  dm_tile_set_device (tile, state == DM_TILE_DONE ? res : NULL);
  if (state == DM_TILE_FAILED)
    {
      char shown[sizeof res->error * 2];
      g_autofree char *reason
        = g_utf8_make_valid (res->error[0] ? dm_reason_shown (res->error, shown, sizeof shown)
                                           : "", -1);
      description = g_strdup_printf (_("%s (failed: %s)"), name, reason);
    }
  else if (!has_value)
    description = g_strdup_printf (_("%s: not measured"), name);
  else
    {
      /* The figures as the tile shows them, its lines joined. */
      g_auto (GStrv) lines = g_strsplit (detail, "\n", -1);
      g_autofree char *joined = g_strjoinv ("; ", lines);
      description = g_strdup_printf ("%s: %s %s; %s", name, digits,
                                     dm_unit_display_name (self->unit), joined);
    }
  dm_tile_set_description (tile, description);
}

void
_dm_window_grid_show_all (DmWindow *self)
{
  for (guint r = 0; r < n_rows (self); r++)
    for (guint c = 0; c < n_columns (self); c++)
      _dm_window_grid_show (self, r, c, result_at (self, r, c), FALSE);
}

void
_dm_window_grid_show (DmWindow        *self,
                      guint            r,
                      guint            c,
                      const dm_result *res,
                      gboolean         live)
{
  DmTile *tile = DM_TILE (self->tiles[r][c]);
  /* A live result has a figure from its first closed sample on (DmJob
   * shows the sample's), not only once a whole run is done. */
  gboolean has_value = res && (res->n_runs > 0 || res->status == DM_STATUS_COMPLETE
                               || (live && res->mb_per_s > 0));
  double value = has_value ? dm_result_value (res, self->unit) : 0;
  g_autofree char *digits = dm_format_value (value, self->unit);
  g_autofree char *description = NULL;
  DmTileState state;

  if (self->shaped)
    {
      if (res)
        show_workload (self, r, res, live);
      return;
    }
  /* Two looks for a tile without a figure. A test that may still get one
   * (before any run, queued in a run, or measured now but before its
   * first sample) shows the unit's 0 in grey. One the run on screen is
   * over without (a column the run mode leaves out, a row it did not
   * reach, the test Stop cut short, a column added to a saved run) is an
   * empty tile, which no screenshot can pass off as a measured 0. */
  if (!res || (!live && !has_value && !self->job && self->report.finished
               && res->status != DM_STATUS_FAILED))
    {
      char name[64];
      g_autofree char *not_run = NULL;

      dm_spec_label (&self->layout.rows[r], name, sizeof name);
      not_run = g_strdup_printf (res && res->status == DM_STATUS_CANCELLED ? _("%s %s: stopped")
                                                                           : _("%s %s: not run"),
                                 name, dm_mode_title (self->layout.columns[c]));
      dm_tile_set_state (tile, DM_TILE_NOT_RUN);
      gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-green");
      gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-red");
      dm_tile_set_no_figure (tile, "");
      dm_tile_set_device (tile, NULL);
      dm_tile_set_description (tile, not_run);
      return;
    }

  if (res->status == DM_STATUS_FAILED)
    state = DM_TILE_FAILED;
  else if (live)
    state = DM_TILE_RUNNING;
  else if (has_value)
    state = DM_TILE_DONE;
  else
    state = DM_TILE_IDLE;

  dm_tile_set_state (tile, state);
  {
    /* The user's green and red limits tint a finished figure. */
    dm_colour colour = state == DM_TILE_DONE
                         ? dm_threshold_colour (self->rules, self->n_rules, &self->layout.rows[r],
                                                self->layout.columns[c], self->unit, value)
                         : DM_COLOUR_NONE;

    gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-green");
    gtk_widget_remove_css_class (GTK_WIDGET (tile), "threshold-red");
    if (colour == DM_COLOUR_GREEN)
      gtk_widget_add_css_class (GTK_WIDGET (tile), "threshold-green");
    else if (colour == DM_COLOUR_RED)
      gtk_widget_add_css_class (GTK_WIDGET (tile), "threshold-red");
  }
  /* A failed test shows a word, not a 0.00 that could pass for a figure.
   * The meter follows the figure beside it, in its unit: fuller is more
   * MB/s or IOPS, or less latency. */
  if (state == DM_TILE_FAILED)
    dm_tile_set_figure (tile, _("Error"),
                        has_value ? dm_meter_fraction_in (value, self->unit) : 0);
  else if (has_value)
    dm_tile_set_figure (tile, digits, dm_meter_fraction_in (value, self->unit));
  else
    dm_tile_set_no_figure (tile, digits);
  dm_tile_set_device (tile, state == DM_TILE_DONE ? res : NULL);
  description = dm_tile_describe (&self->layout.rows[r], self->layout.columns[c],
                                  value, self->unit, has_value);
  if (state == DM_TILE_FAILED && res->error[0])
    {
      /* The engine stores its reason in English; the user reads it in
       * their language, as diskmeter-cli prints it. */
      char shown[sizeof res->error * 2];
      g_autofree char *reason
        = g_utf8_make_valid (dm_reason_shown (res->error, shown, sizeof shown), -1);
      g_autofree char *failed = g_strdup_printf (_("%s (failed: %s)"), description, reason);
      dm_tile_set_description (tile, failed);
    }
  else
    dm_tile_set_description (tile, description);
}

/* The grid's new columns (Mix on or off) over old, the report before it.
 * A column still shown keeps its figures with the run's own settings,
 * date and machine, so a saved run opened and then shown with Mix keeps
 * its Read and Write, and the new column is empty (not run) until a run
 * measures it. A column taken away keeps its figures aside, out of the
 * exports as it is off the screen, and they come back with it while the
 * grid still shows the same run. */
void
_dm_window_grid_keep (DmWindow        *self,
                      const dm_report *old)
{
  dm_report hidden;
  unsigned n_hidden = 0;

  /* Workload rows have no columns to change: they keep their figures. */
  if (self->shaped)
    {
      for (unsigned i = 0; i < self->report.n_results && i < old->n_results; i++)
        if (old->results[i].shaped)
          dm_result_copy (&self->report.results[i], &old->results[i]);
      dm_report_copy_run (&self->report, old);
      return;
    }
  memset (&hidden, 0, sizeof hidden);
  for (unsigned i = 0; i < old->n_results; i++)
    n_hidden += old->results[i].status != DM_STATUS_PENDING
                && !dm_report_find (&self->report, &old->results[i].spec, old->results[i].mode);
  if (n_hidden
      && dm_report_init (&hidden, &old->settings, self->layout.rows, self->layout.n_rows,
                         DM_MODES_ALL) == 0)
    {
      for (unsigned i = 0; i < old->n_results; i++)
        {
          dm_result *slot = dm_report_find (&hidden, &old->results[i].spec, old->results[i].mode);

          if (slot && !dm_report_find (&self->report, &old->results[i].spec, old->results[i].mode))
            dm_result_copy (slot, &old->results[i]);
        }
      dm_report_copy_run (&hidden, old);
    }

  /* The figures still shown, and those a column brings back. */
  for (unsigned i = 0; i < self->report.n_results; i++)
    {
      dm_result *mine = &self->report.results[i];
      const dm_result *was = dm_report_find (old, &mine->spec, mine->mode);

      if (!was || was->status == DM_STATUS_PENDING)
        was = self->columns_kept.started == old->started && old->finished
                ? dm_report_find (&self->columns_kept, &mine->spec, mine->mode)
                : NULL;
      if (was)
        dm_result_copy (mine, was);
    }
  dm_report_copy_run (&self->report, old);
  dm_report_clear (&self->columns_kept);
  if (n_hidden)
    self->columns_kept = hidden;
}

gboolean
_dm_window_grid_find (DmWindow        *self,
                      guint            index,
                      const dm_result *res,
                      guint           *row,
                      guint           *col)
{
  if (self->shaped)
    {
      *row = index;
      *col = 0;
      return index < n_rows (self);
    }
  for (guint r = 0; r < self->layout.n_rows; r++)
    if (dm_spec_equal (&self->layout.rows[r], &res->spec))
      for (guint c = 0; c < self->layout.n_columns; c++)
        if (self->layout.columns[c] == res->mode)
          {
            *row = r;
            *col = c;
            return TRUE;
          }
  return FALSE;
}

void
_dm_window_grid_merge (DmWindow        *self,
                       DmJob           *job,
                       const dm_report *done)
{
  char comment[sizeof self->report.comment];

  for (unsigned i = 0; i < done->n_results; i++)
    {
      dm_result *mine;

      if (!dm_job_is_selected (job, i))
        continue;
      /* Workload rows are the report's in order, and two may share a spec. */
      mine = self->shaped ? (i < self->report.n_results ? &self->report.results[i] : NULL)
                          : dm_report_find (&self->report, &done->results[i].spec,
                                            done->results[i].mode);
      if (mine)
        dm_result_copy (mine, &done->results[i]);
    }

  /* Everything else (status, target, system, settings, times) is the
   * finished run's; the arrays stay the grid's own. */
  memcpy (comment, self->report.comment, sizeof comment);
  dm_report_copy_run (&self->report, done);
  memcpy (self->report.comment, comment, sizeof comment);
}

/* Whether result i of a report of the grid's rows is in row only_row. */
static gboolean
in_row (DmWindow        *self,
        const dm_report *r,
        unsigned         i,
        int              only_row)
{
  if (only_row < 0)
    return TRUE;
  return self->shaped ? i == (unsigned) only_row
                      : dm_spec_equal (&r->results[i].spec, &self->layout.rows[only_row]);
}

bool *
_dm_window_grid_select (DmWindow        *self,
                        const dm_report *r,
                        int              only_row)
{
  bool *selection = NULL;
  /* A disk or partition is only read: a workload that writes is left out
   * (the engine would refuse the whole run). */
  gboolean reads_only = self->shaped && _dm_window_target_is_device (self);

  if (only_row >= 0 || reads_only)
    {
      selection = g_new0 (bool, MAX (r->n_results, 1));
      for (unsigned i = 0; i < r->n_results; i++)
        selection[i] = in_row (self, r, i, only_row)
                       && (!reads_only || r->results[i].read_percent == 100);
    }
  for (unsigned i = 0; i < self->report.n_results; i++)
    if (in_row (self, &self->report, i, only_row))
      dm_result_reset (&self->report.results[i]);
  for (unsigned i = 0; reads_only && i < r->n_results; i++)
    if (in_row (self, r, i, only_row) && !selection[i])
      {
        dm_window_show_error (self, _("A disk or partition is only read: the workloads that "
                                      "write are left out."));
        break;
      }
  return selection;
}

void
_dm_window_class_grid_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.latency", NULL, action_latency);
}

/* --- for the widget tests -------------------------------------------------- */

guint
_dm_window_get_n_rows (DmWindow *self)
{
  if (self->layout_stale && !self->job)
    _dm_window_rebuild_grid (self);
  return n_rows (self);
}

guint
_dm_window_get_n_columns (DmWindow *self)
{
  return n_columns (self);
}

GtkWidget *
_dm_window_get_row_button (DmWindow *self,
                           guint     row)
{
  g_return_val_if_fail (row < n_rows (self), NULL);
  return self->row_buttons[row];
}

GtkWidget *
_dm_window_get_tile (DmWindow *self,
                     guint     row,
                     guint     column)
{
  g_return_val_if_fail (row < n_rows (self) && column < n_columns (self), NULL);
  return self->tiles[row][column];
}

char *
_dm_window_get_column_title (DmWindow *self,
                             guint     column)
{
  GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->grid), column + 1, 0);

  return GTK_IS_LABEL (label) ? g_strdup (gtk_label_get_text (GTK_LABEL (label))) : NULL;
}

dm_report *
_dm_window_get_report (DmWindow *self)
{
  return &self->report;
}
