/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's state lives in GSettings: the dropdowns, the menus and the
 * command line all write keys there, and one "changed" handler brings the
 * grid up to date, so the three ways in never disagree. A run is a DmJob;
 * the grid keeps its own report so that finished rows keep their values.
 */
#include "dm-window.h"
#include "dm-window-private.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "dm-application.h"
#include "dm-compare-view.h"
#include "dm-format.h"
#include "dm-history.h"
#include "dm-history-window.h"
#include "dm-job.h"
#include "dm-latency-view.h"
#include "dm-measure.h"
#include "dm-platform.h"
#include "dm-profile.h"
#include "dm-report.h"
#include "dm-file-dialog.h"
#include "dm-screenshot.h"
#include "dm-thresholds-dialog.h"
#include "dm-tile.h"
#include "dm-ui.h"

struct _DmWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget     *content;
  GtkWidget     *all_button;
  GtkDropDown   *count_dropdown;
  GtkDropDown   *size_dropdown;
  GtkDropDown   *target_dropdown;
  GtkDropDown   *units_dropdown;
  GtkStringList *target_model;
  GtkWidget     *grid;
  GtkWidget     *error_revealer;
  GtkWidget     *error_label;
  GtkWidget     *comment_entry;
  GtkWidget     *status_label;
  GtkWidget     *progress_bar;
  GtkWidget     *time_label;
  GtkWidget     *footer_label;
  GtkSizeGroup  *row_size_group;

  GSettings     *settings;
  gboolean       syncing;         /* widgets are being set from settings */

  /* what the grid shows */
  DmGridLayout   layout;
  dm_unit        unit;
  dm_report      report;          /* the grid's figures, exported as they are */
  gboolean       layout_stale;    /* settings changed during a run */
  GtkWidget     *row_buttons[DM_GRID_MAX_ROWS];
  GtkWidget     *tiles[DM_GRID_MAX_ROWS][DM_N_MODES];

  /* targets: target_model holds their labels, then "Choose folder…" */
  GPtrArray     *target_paths;
  dm_target_info target_info;     /* of the current target, for the footer */
  gboolean       have_target_info;
  dm_system_info system;
  gboolean       have_system;
  GCancellable  *cancellable;
  GtkFileChooserNative *chooser;

  DmJob         *job;
  gboolean       close_after_job; /* the window was closed mid-run */
  DmScript      *script;
  guint          reported;        /* results already logged by a script (bits) */

  /* comparison: a second target run interleaved with the first */
  GtkWidget     *compare_view;
  char          *compare_target;  /* NULL: plain runs */
  dm_report      compare_b;       /* the second target's finished figures */
  dm_report      live_a, live_b;  /* shallow views of a running job's figures */
  dm_compare     compare;
  gboolean       comparing;       /* the view (and exports) show the comparison */
  guint          live_complete;   /* completed results when the view was built */
  dm_report     *saved;           /* saved runs being compared, from the history */
  char         **saved_names;
  guint          n_saved;
  GtkWidget     *history_window;  /* weak: open while the user keeps it */
  dm_threshold   rules[DM_THRESHOLDS_MAX]; /* green/red limits, from settings */
  unsigned       n_rules;
};

G_DEFINE_FINAL_TYPE (DmWindow, dm_window, GTK_TYPE_APPLICATION_WINDOW)

static const char *const choose_folder_label = "Choose folder…";

static void dm_window_rebuild_grid (DmWindow *self);
static void dm_window_refresh_tiles (DmWindow *self);
static void dm_window_start (DmWindow *self, int only_row);
static void dm_window_update_footer (DmWindow *self);
static void script_continue (DmWindow *self);
static void script_save (DmWindow *self, gboolean with_screenshot);
static void compare_prepare (DmWindow *self, DmJob *job, int only_row);
static void compare_live (DmWindow *self, DmJob *job);
static void compare_finished (DmWindow *self, DmJob *job);
static gboolean compare_export (DmWindow *self, int kind, dm_buf *buf);
static void history_save (DmWindow *self, const dm_report *r);
static void compare_show (DmWindow *self, gboolean show);
static void thresholds_changed (DmWindow *self);
static void compare_reunit (DmWindow *self);

void
dm_script_free (DmScript *script)
{
  if (!script)
    return;
  g_free (script->screenshot);
  g_free (script->json);
  g_free (script->text);
  g_free (script->csv);
  g_free (script);
}

/* --- messages -------------------------------------------------------------- */

static void
show_error (DmWindow   *self,
            const char *message)
{
  g_printerr ("diskmeter: %s\n", message);
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

void
dm_window_show_error (DmWindow   *self,
                      const char *message)
{
  g_return_if_fail (DM_IS_WINDOW (self));
  show_error (self, message);
}

static void
on_error_dismiss (DmWindow *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), FALSE);
}

static void
set_status (DmWindow   *self,
            const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
}

/* --- settings -------------------------------------------------------------- */

static const dm_profile *
current_profile (DmWindow *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "profile");
  const dm_profile *profile = dm_profile_find (name);

  return profile ? profile : dm_profile_find ("default");
}

static gboolean
is_custom (DmWindow *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "profile");
  return g_strcmp0 (name, "custom") == 0;
}

static void
compute_layout (DmWindow     *self,
                DmGridLayout *layout)
{
  gboolean mix = g_settings_get_boolean (self->settings, "mix");

  if (is_custom (self))
    {
      g_auto (GStrv) names = g_settings_get_strv (self->settings, "custom-tests");
      dm_spec specs[DM_GRID_MAX_ROWS];
      guint n = 0;

      for (guint i = 0; names[i] && n < DM_GRID_MAX_ROWS; i++)
        if (dm_spec_parse (names[i], &specs[n], NULL, 0) == 0)
          n++;
      if (n > 0)
        {
          dm_grid_layout_custom (layout, specs, n, mix);
          return;
        }
    }
  dm_grid_layout_init (layout, current_profile (self),
                       g_settings_get_boolean (self->settings, "nvme"), mix);
}

static void
engine_settings (DmWindow    *self,
                 dm_settings *s)
{
  g_autofree char *size = g_settings_get_string (self->settings, "size");
  g_autofree char *data = g_settings_get_string (self->settings, "test-data");
  uint64_t bytes;

  dm_settings_init (s);
  s->count = CLAMP (g_settings_get_int (self->settings, "count"), DM_COUNT_MIN, DM_COUNT_MAX);
  if (dm_size_parse (size, &bytes, NULL, 0) == 0)
    s->test_size = bytes;
  s->measure_s = g_settings_get_double (self->settings, "measure-time");
  s->interval_s = g_settings_get_double (self->settings, "interval");
  s->warmup_s = g_settings_get_double (self->settings, "warmup");
  s->mix_read_percent = g_settings_get_int (self->settings, "mix-ratio");
  if (dm_data_parse (data, &s->data) != 0)
    s->data = DM_DATA_RANDOM;
}

static char *
current_target (DmWindow *self)
{
  char *target = g_settings_get_string (self->settings, "target");

  if (target[0] == '\0')
    {
      g_free (target);
      target = g_strdup (g_get_home_dir ());
    }
  return target;
}

/* Starts the grid over: new rows or columns, or new run settings, make the
 * old figures meaningless, as in CrystalDiskMark. */
static void
reset_report (DmWindow *self)
{
  dm_settings s;
  g_autofree char *target = current_target (self);

  engine_settings (self, &s);
  dm_report_clear (&self->report);
  memset (&self->report, 0, sizeof self->report);
  if (dm_report_init (&self->report, &s, self->layout.rows, self->layout.n_rows,
                      dm_grid_layout_modes (&self->layout)) != 0)
    show_error (self, "Out of memory while setting up the grid.");
  g_strlcpy (self->report.profile, is_custom (self) ? "custom" : current_profile (self)->name,
             sizeof self->report.profile);
  self->report.nvme = g_settings_get_boolean (self->settings, "nvme");
  if (self->have_target_info)
    self->report.target = self->target_info;
  else
    g_strlcpy (self->report.target.path, target, sizeof self->report.target.path);
  if (self->have_system)
    self->report.system = self->system;
}

/* --- the grid -------------------------------------------------------------- */

static char *
column_title (DmWindow *self,
              dm_mode   mode)
{
  const char *unit = dm_unit_display_name (self->unit);

  if (mode == DM_MODE_MIX)
    {
      int r = g_settings_get_int (self->settings, "mix-ratio");
      return g_strdup_printf ("Mix R%d%%/W%d%% (%s)", r, 100 - r, unit);
    }
  return g_strdup_printf ("%s (%s)", dm_mode_title (mode), unit);
}

static void
on_row_clicked (GtkButton *button,
                DmWindow  *self)
{
  int row = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "dm-row"));

  g_action_group_activate_action (G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (self))),
                                  "run-row", g_variant_new_int32 (row));
}

/* The latency detail of the grid's figure at (r, c), if it has a finished
 * one: the grid's report owns its histograms, so they outlive the run. */
static gboolean
open_latency_view (DmWindow *self,
                   guint     r,
                   guint     c)
{
  const dm_result *res;
  GtkWidget *view;
  char label[64];
  g_autofree char *title = NULL;

  if (r >= self->layout.n_rows || c >= self->layout.n_columns)
    return FALSE;
  res = dm_report_find (&self->report, &self->layout.rows[r], self->layout.columns[c]);
  if (!res || res->status != DM_STATUS_COMPLETE)
    return FALSE;
  dm_spec_label (&res->spec, label, sizeof label);
  title = g_strdup_printf ("%s %s", label, dm_mode_title (res->mode));
  view = dm_latency_view_new (GTK_WINDOW (self), title, res);
  dm_latency_view_set_device_note (DM_LATENCY_VIEW (view), self->report.device_note);
  gtk_window_present (GTK_WINDOW (view));
  return TRUE;
}

static void
on_tile_activate (GtkWidget *tile,
                  gpointer   data)
{
  guint cell = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (tile), "dm-cell"));

  open_latency_view (data, cell / DM_N_MODES, cell % DM_N_MODES);
}

/* The menu's Latency Detail: the focused tile's, or the first finished
 * one in the focused row (its Run button), or in the first row. */
static void
action_latency (GSimpleAction *action,
                GVariant      *param,
                gpointer       data)
{
  DmWindow *self = data;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  guint row = 0;

  for (guint r = 0; r < self->layout.n_rows; r++)
    {
      if (focus && focus == self->row_buttons[r])
        row = r;
      for (guint c = 0; c < self->layout.n_columns; c++)
        if (focus && focus == self->tiles[r][c] && open_latency_view (self, r, c))
          return;
    }
  for (guint c = 0; c < self->layout.n_columns; c++)
    if (open_latency_view (self, row, c))
      return;
}

static void
dm_window_rebuild_grid (DmWindow *self)
{
  GtkWidget *child;

  compute_layout (self, &self->layout);

  while ((child = gtk_widget_get_first_child (self->grid)))
    {
      if (GTK_IS_BUTTON (child))
        gtk_size_group_remove_widget (self->row_size_group, child);
      gtk_grid_remove (GTK_GRID (self->grid), child);
    }
  memset (self->row_buttons, 0, sizeof self->row_buttons);
  memset (self->tiles, 0, sizeof self->tiles);

  for (guint c = 0; c < self->layout.n_columns; c++)
    {
      g_autofree char *title = column_title (self, self->layout.columns[c]);
      GtkWidget *label = gtk_label_new (title);

      gtk_widget_add_css_class (label, "column-title");
      gtk_widget_set_hexpand (label, TRUE);
      gtk_grid_attach (GTK_GRID (self->grid), label, c + 1, 0, 1, 1);
    }

  for (guint r = 0; r < self->layout.n_rows; r++)
    {
      char label[64];
      g_autofree char *tooltip = NULL;
      GtkWidget *button;

      dm_spec_label (&self->layout.rows[r], label, sizeof label);
      button = gtk_button_new_with_label (label);
      tooltip = g_strdup_printf ("Run %s only", label);
      gtk_widget_set_tooltip_text (button, tooltip);
      gtk_widget_add_css_class (button, "run-button");
      gtk_widget_add_css_class (button, "row-button");
      g_object_set_data (G_OBJECT (button), "dm-row", GINT_TO_POINTER (r));
      g_signal_connect (button, "clicked", G_CALLBACK (on_row_clicked), self);
      gtk_size_group_add_widget (self->row_size_group, button);
      gtk_grid_attach (GTK_GRID (self->grid), button, 0, r + 1, 1, 1);
      self->row_buttons[r] = button;

      for (guint c = 0; c < self->layout.n_columns; c++)
        {
          GtkWidget *tile = dm_tile_new ();

          gtk_widget_set_hexpand (tile, TRUE);
          gtk_grid_attach (GTK_GRID (self->grid), tile, c + 1, r + 1, 1, 1);
          self->tiles[r][c] = tile;
          g_object_set_data (G_OBJECT (tile), "dm-cell", GUINT_TO_POINTER (r * DM_N_MODES + c));
          dm_latency_view_connect_activate (tile, G_CALLBACK (on_tile_activate), self);
        }
    }

  reset_report (self);
  dm_window_refresh_tiles (self);
  self->layout_stale = FALSE;
}

static void
update_column_titles (DmWindow *self)
{
  for (guint c = 0; c < self->layout.n_columns; c++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->grid), c + 1, 0);
      g_autofree char *title = column_title (self, self->layout.columns[c]);

      if (GTK_IS_LABEL (label))
        gtk_label_set_text (GTK_LABEL (label), title);
    }
}

static void
show_result (DmWindow        *self,
             guint            r,
             guint            c,
             const dm_result *res,
             gboolean         live)
{
  DmTile *tile = DM_TILE (self->tiles[r][c]);
  gboolean has_value = res && (res->n_runs > 0 || res->status == DM_STATUS_COMPLETE);
  double value = has_value ? dm_result_value (res, self->unit) : 0;
  g_autofree char *digits = dm_format_value (value, self->unit);
  g_autofree char *description = NULL;
  DmTileState state;

  if (res && res->status == DM_STATUS_FAILED)
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
  /* A failed test shows a word, not a 0.00 that could pass for a figure. */
  dm_tile_set_figure (tile, state == DM_TILE_FAILED ? "Error" : digits,
                      has_value ? dm_meter_fraction (res->mb_per_s) : 0);
  dm_tile_set_device (tile, state == DM_TILE_DONE ? res : NULL);
  description = dm_tile_describe (&self->layout.rows[r], self->layout.columns[c],
                                  value, self->unit, has_value);
  if (state == DM_TILE_FAILED && res->error[0])
    {
      g_autofree char *failed = g_strdup_printf ("%s (failed: %s)", description, res->error);
      dm_tile_set_description (tile, failed);
    }
  else
    dm_tile_set_description (tile, description);
}

static void
dm_window_refresh_tiles (DmWindow *self)
{
  for (guint r = 0; r < self->layout.n_rows; r++)
    for (guint c = 0; c < self->layout.n_columns; c++)
      show_result (self, r, c,
                   dm_report_find (&self->report, &self->layout.rows[r], self->layout.columns[c]),
                   FALSE);
}

static gboolean
find_cell (DmWindow        *self,
           const dm_result *res,
           guint           *row,
           guint           *col)
{
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

/* --- targets --------------------------------------------------------------- */

static char *
format_gib (uint64_t bytes)
{
  double gib = bytes / 1073741824.0;

  if (bytes < (1ull << 30))
    return g_strdup_printf ("%.0fMiB", bytes / 1048576.0);
  if (gib >= 1000)
    return g_strdup_printf ("%.1fTiB", gib / 1024);
  if (gib >= 10)
    return g_strdup_printf ("%.0fGiB", gib);
  return g_strdup_printf ("%.1fGiB", gib);
}

static char *
target_label (const dm_target_info *t)
{
  g_autofree char *size = format_gib (t->size_bytes);
  g_autofree char *free_space = format_gib (MIN (t->free_bytes, t->size_bytes));
  GString *s = g_string_new (t->path[0] ? t->path : t->mount_point);

  /* What the pick depends on: room for the test file, and which disk. */
  g_string_append_printf (s, "  %s free of %s", free_space, size);
  if (t->filesystem[0])
    g_string_append_printf (s, "  %s", t->filesystem);
  if (t->model[0])
    g_string_append_printf (s, "  %s", t->model);
  return g_string_free (s, FALSE);
}

/* Selects target in the dropdown, adding it if it is not a listed mount.
 * Its label needs a probe, which waits for the background scan at start
 * (probe = FALSE) so the first frame does not wait on the disk. */
static void
select_target_item (DmWindow   *self,
                    const char *target,
                    gboolean    probe)
{
  guint i;

  for (i = 0; i < self->target_paths->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->target_paths, i), target) == 0)
      break;

  if (i == self->target_paths->len)
    {
      dm_target_info info;
      g_autofree char *label = NULL;

      memset (&info, 0, sizeof info);
      if (self->have_target_info && g_strcmp0 (self->target_info.path, target) == 0)
        label = target_label (&self->target_info);
      else if (probe && dm_target_probe (target, &info) == 0)
        {
          g_strlcpy (info.path, target, sizeof info.path);
          label = target_label (&info);
        }
      else
        label = g_strdup (target);
      g_ptr_array_add (self->target_paths, g_strdup (target));
      self->syncing = TRUE;
      gtk_string_list_splice (self->target_model, i, 0, (const char *const[]) { label, NULL });
      self->syncing = FALSE;
    }

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->target_dropdown, i);
  self->syncing = FALSE;
}

static void
update_target_info (DmWindow *self)
{
  g_autofree char *target = current_target (self);

  memset (&self->target_info, 0, sizeof self->target_info);
  self->have_target_info = dm_target_probe (target, &self->target_info) == 0;
  if (self->have_target_info)
    g_strlcpy (self->target_info.path, target, sizeof self->target_info.path);
  dm_window_update_footer (self);
}

typedef struct
{
  dm_target_info *list;
  unsigned        n;
  dm_system_info  system;
  gboolean        have_system;
  char           *target;       /* the current target when the scan began */
  dm_target_info  target_info;
  gboolean        have_target_info;
} TargetScan;

static void
target_scan_free (gpointer data)
{
  TargetScan *scan = data;

  if (scan->list)
    dm_target_list_free (scan->list);
  g_free (scan->target);
  g_free (scan);
}

static void
scan_targets_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  TargetScan *scan = g_new0 (TargetScan, 1);

  /* Mount tables, sysfs and statvfs can be slow on a busy or networked
   * machine; the first frame does not wait for them. */
  scan->target = g_strdup (task_data);
  scan->have_target_info = dm_target_probe (scan->target, &scan->target_info) == 0;
  if (scan->have_target_info)
    g_strlcpy (scan->target_info.path, scan->target, sizeof scan->target_info.path);
  if (dm_target_list (&scan->list, &scan->n) != 0)
    {
      scan->list = NULL;
      scan->n = 0;
    }
  scan->have_system = dm_system_info_get (&scan->system) == 0;
  g_task_return_pointer (task, scan, target_scan_free);
}

static void
on_targets_scanned (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  DmWindow *self;
  TargetScan *scan = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *target = NULL;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  if (!scan)
    return;  /* cancelled: the window is gone */
  self = DM_WINDOW (source);

  if (scan->have_system)
    {
      self->system = scan->system;
      self->have_system = TRUE;
      /* A run on screen (finished, or opened from a file) keeps the
       * machine and drive it was measured on: its figures are theirs. */
      if (!self->job && !self->report.finished)
        self->report.system = scan->system;
    }

  g_ptr_array_set_size (self->target_paths, 0);
  for (unsigned i = 0; i < scan->n; i++)
    {
      g_ptr_array_add (self->target_paths, g_strdup (scan->list[i].mount_point));
      g_ptr_array_add (labels, target_label (&scan->list[i]));
    }
  g_ptr_array_add (labels, g_strdup (choose_folder_label));
  g_ptr_array_add (labels, NULL);

  self->syncing = TRUE;
  gtk_string_list_splice (self->target_model, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->target_model)),
                          (const char *const *) labels->pdata);
  self->syncing = FALSE;

  target = current_target (self);
  if (g_strcmp0 (target, scan->target) == 0)
    {
      self->target_info = scan->target_info;
      self->have_target_info = scan->have_target_info;
      if (!self->job && !self->report.finished && self->have_target_info)
        self->report.target = self->target_info;
    }
  select_target_item (self, target, TRUE);
  dm_window_update_footer (self);
  target_scan_free (scan);
}

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    g_settings_set_string (self->settings, "target", path);
  else
    {
      /* The list shows "Choose folder…" until it shows a folder again. */
      g_autofree char *target = current_target (self);
      select_target_item (self, target, TRUE);
    }
  g_clear_object (&self->chooser);
}

static void
choose_folder (DmWindow *self)
{
  if (self->chooser)
    return;
  self->chooser = gtk_file_chooser_native_new ("Choose a Folder to Test", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               "_Select", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
target_item_setup (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize)
    {
      /* The closed dropdown shares the row with four other controls; the
       * full line is in the open list and in the footer. */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 20);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 44);
    }
  gtk_list_item_set_child (item, label);
}

static void
target_item_bind (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  ellipsize)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      string ? gtk_string_object_get_string (string) : "");
}

static GtkListItemFactory *
target_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (target_item_setup), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (target_item_bind), GINT_TO_POINTER (ellipsize));
  return factory;
}

static void
on_target_selected (DmWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->target_dropdown);

  if (self->syncing || i == GTK_INVALID_LIST_POSITION)
    return;
  if (i >= self->target_paths->len)
    choose_folder (self);
  else
    g_settings_set_string (self->settings, "target", g_ptr_array_index (self->target_paths, i));
}

/* --- footer ---------------------------------------------------------------- */

static void
dm_window_update_footer (DmWindow *self)
{
  const dm_target_info *t = self->report.finished ? &self->report.target
                                                  : (self->have_target_info ? &self->target_info
                                                                            : NULL);
  const dm_system_info *sys = self->report.finished ? &self->report.system
                                                    : (self->have_system ? &self->system : NULL);
  GString *s = g_string_new (NULL);
  char date[64] = "";
  g_autofree char *target = current_target (self);

  /* What a screenshot must say to be worth pasting: where, on what, when;
   * the OS comes last, where a narrow window cuts it off first. */
  g_string_append (s, t && t->path[0] ? t->path : target);
  if (t && t->filesystem[0])
    g_string_append_printf (s, " · %s", t->filesystem);
  if (t && t->model[0])
    g_string_append_printf (s, " · %s", t->model);
  else if (t && t->device[0] && strcmp (t->device, t->filesystem) != 0)
    g_string_append_printf (s, " · %s", t->device);
  if (self->report.finished)
    {
      dm_format_local_time (self->report.finished, date, sizeof date);
      g_string_append_printf (s, " · %s", date);
    }
  if (self->compare_target)
    g_string_append_printf (s, " · compared with %s", self->compare_target);
  if (sys && sys->os[0])
    g_string_append_printf (s, " · %s", sys->os);
  if (self->report.cached)
    g_string_append (s, " · cached (no O_DIRECT)");
  gtk_label_set_text (GTK_LABEL (self->footer_label), s->str);
  g_string_free (s, TRUE);
}

/* --- runs ------------------------------------------------------------------ */

static void
set_running (DmWindow *self,
             gboolean  running)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  gtk_button_set_label (GTK_BUTTON (self->all_button), running ? "Stop" : "All");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->all_button),
                                  running ? "app.stop" : "app.run-all");
  if (running)
    gtk_widget_add_css_class (self->all_button, "stop");
  else
    gtk_widget_remove_css_class (self->all_button, "stop");
  gtk_widget_set_sensitive (GTK_WIDGET (self->count_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->size_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->target_dropdown), !running);
  for (guint r = 0; r < self->layout.n_rows; r++)
    gtk_widget_set_sensitive (self->row_buttons[r], !running);
  if (app)
    dm_application_set_running (DM_APPLICATION (app), running);
}

static const char *
phase_text (dm_phase phase)
{
  switch (phase)
    {
    case DM_PHASE_PREPARE:
      return "Preparing the test file";
    case DM_PHASE_WARMUP:
      return "warming up";
    case DM_PHASE_INTERVAL:
      return "pausing between tests";
    case DM_PHASE_MEASURE:
    case DM_PHASE_DONE:
    default:
      return "";
    }
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
      if (!find_cell (self, res, &r, &c))
        continue;
      show_result (self, r, c, res,
                   (int) i == p->result_index && p->phase != DM_PHASE_DONE
                   && res->status != DM_STATUS_COMPLETE && res->status != DM_STATUS_FAILED);
      /* An unattended run logs each figure as it is final, so a script or
       * a CI log can follow it without a screen. */
      if (self->script && i < 32 && !(self->reported & (1u << i))
          && res->status == DM_STATUS_COMPLETE)
        {
          g_autofree char *line = dm_tile_describe (&res->spec, res->mode,
                                                    dm_result_value (res, self->unit),
                                                    self->unit, TRUE);
          self->reported |= 1u << i;
          g_print ("diskmeter: %s\n", line);
        }
      if ((int) i == p->result_index)
        current = res;
    }

  if (p->phase == DM_PHASE_PREPARE || !current)
    status = g_strdup (phase_text (DM_PHASE_PREPARE));
  else
    {
      char name[64];

      dm_spec_label (&current->spec, name, sizeof name);
      if (p->phase == DM_PHASE_DONE)
        status = g_strdup_printf ("%s %s: done", name, dm_mode_title (current->mode));
      else if (p->phase == DM_PHASE_MEASURE)
        status = g_strdup_printf ("%s %s: run %u of %u", name, dm_mode_title (current->mode),
                                  p->run, p->count);
      else
        status = g_strdup_printf ("%s %s: %s", name, dm_mode_title (current->mode),
                                  phase_text (p->phase));
    }
  set_status (self, status);
  compare_live (self, job);
  fraction = CLAMP (p->fraction, 0.0, 1.0);
  /* Redraw the bar only when it moves by about a pixel: a long run would
   * otherwise repaint it ten times a second for nothing. */
  if (fabs (fraction - gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (self->progress_bar)))
      >= 1.0 / MAX (gtk_widget_get_width (self->progress_bar), 100))
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
  gtk_label_set_text (GTK_LABEL (self->time_label), left);
}

/* Takes the finished job's figures into the grid's report: only the rows
 * that ran, so a single-row run keeps the others. */
static void
merge_report (DmWindow        *self,
              DmJob           *job,
              const dm_report *done)
{
  char comment[sizeof self->report.comment];

  for (unsigned i = 0; i < done->n_results; i++)
    {
      dm_result *mine;

      if (!dm_job_is_selected (job, i))
        continue;
      mine = dm_report_find (&self->report, &done->results[i].spec, done->results[i].mode);
      if (mine)
        dm_result_copy (mine, &done->results[i]);
    }

  /* Everything else (status, target, system, settings, times) is the
   * finished run's; the arrays stay the grid's own. */
  memcpy (comment, self->report.comment, sizeof comment);
  dm_report_copy_run (&self->report, done);
  memcpy (self->report.comment, comment, sizeof comment);
}

static void
on_job_finished (DmJob    *job,
                 int       code,
                 DmWindow *self)
{
  const dm_report *done = dm_job_get_report (job);
  g_autofree char *message = NULL;

  dm_measure_run_finished ();
  merge_report (self, job, done);
  history_save (self, done);
  compare_finished (self, job);
  g_clear_object (&self->job);
  set_running (self, FALSE);

  if (self->layout_stale)
    dm_window_rebuild_grid (self);
  else
    dm_window_refresh_tiles (self);
  dm_window_update_footer (self);
  gtk_label_set_text (GTK_LABEL (self->time_label), "");

  if (code == 0)
    {
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
      set_status (self, self->report.cached ? "Done (cached: the figures include the page cache)"
                                            : "Done");
    }
  else if (code == -ECANCELED)
    set_status (self, "Stopped; finished tests keep their figures");
  else
    {
      set_status (self, "Failed");
      message = g_strdup_printf ("The run failed: %s",
                                 self->report.error[0] ? self->report.error : dm_strerror (code));
      show_error (self, message);
    }

  if (!message && self->report.warning[0])
    {
      message = g_strdup (self->report.warning);
      show_error (self, message);
    }

  /* A failed test inside a completed run still deserves a sentence. */
  if (!message)
    for (unsigned i = 0; i < self->report.n_results; i++)
      if (self->report.results[i].status == DM_STATUS_FAILED && self->report.results[i].error[0])
        {
          char name[64];
          g_autofree char *m = NULL;

          dm_spec_label (&self->report.results[i].spec, name, sizeof name);
          m = g_strdup_printf ("%s %s failed: %s", name,
                               dm_mode_title (self->report.results[i].mode),
                               self->report.results[i].error);
          show_error (self, m);
          break;
        }

  if (self->script)
    dm_application_set_exit_status (DM_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                                    code == 0 ? 0 : 1);
  if (self->close_after_job)
    {
      /* A scripted run that was stopped still leaves its figures behind:
       * the finished tests are in the files, marked as cancelled. */
      if (self->script)
        script_save (self, FALSE);
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  if (self->script)
    script_continue (self);
}

static void
dm_window_start (DmWindow *self,
                 int       only_row)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *target = current_target (self);
  g_autofree bool *selection = NULL;
  dm_settings s;
  dm_report r;
  char why[256];

  if (self->job)
    return;
  on_error_dismiss (self);

  if (self->layout_stale)
    dm_window_rebuild_grid (self);

  engine_settings (self, &s);
  if (dm_settings_check (&s, why, sizeof why) != 0)
    {
      g_autofree char *m = g_strdup_printf ("Settings: %s", why);
      show_error (self, m);
      return;
    }

  memset (&r, 0, sizeof r);
  if (dm_report_init (&r, &s, self->layout.rows, self->layout.n_rows,
                      dm_grid_layout_modes (&self->layout)) != 0)
    {
      show_error (self, "Out of memory while setting up the run.");
      return;
    }
  g_strlcpy (r.profile, self->report.profile, sizeof r.profile);
  r.nvme = self->report.nvme;
  memcpy (r.thresholds, self->rules, self->n_rules * sizeof self->rules[0]);
  r.n_thresholds = self->n_rules;
  g_strlcpy (r.comment, gtk_editable_get_text (GTK_EDITABLE (self->comment_entry)),
             sizeof r.comment);
  g_strlcpy (self->report.comment, r.comment, sizeof self->report.comment);

  if (only_row >= 0)
    {
      selection = g_new0 (bool, MAX (r.n_results, 1));
      for (unsigned i = 0; i < r.n_results; i++)
        selection[i] = dm_spec_equal (&r.results[i].spec, &self->layout.rows[only_row]);
    }

  /* Rows about to run start from nothing; the others keep their figures. */
  for (unsigned i = 0; i < self->report.n_results; i++)
    if (only_row < 0 || dm_spec_equal (&self->report.results[i].spec,
                                       &self->layout.rows[only_row]))
      dm_result_reset (&self->report.results[i]);
  dm_window_refresh_tiles (self);

  self->reported = 0;
  self->job = dm_job_new (&r, target, selection);
  compare_prepare (self, self->job, only_row);
  g_signal_connect (self->job, "progress", G_CALLBACK (on_job_progress), self);
  g_signal_connect (self->job, "finished", G_CALLBACK (on_job_finished), self);
  if (!dm_job_start (self->job, &error))
    {
      g_clear_object (&self->job);
      show_error (self, error->message);
      return;
    }

  set_running (self, TRUE);
  set_status (self, phase_text (DM_PHASE_PREPARE));
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

static void
sync_comment (DmWindow *self)
{
  g_strlcpy (self->report.comment, gtk_editable_get_text (GTK_EDITABLE (self->comment_entry)),
             sizeof self->report.comment);
}

typedef enum { EXPORT_TEXT, EXPORT_JSON, EXPORT_CSV, EXPORT_PNG } ExportKind;

static gboolean
export_to (DmWindow    *self,
           ExportKind   kind,
           const char  *path,
           GError     **error)
{
  dm_buf buf;
  int rc;

  if (kind == EXPORT_PNG)
    return dm_window_save_screenshot (self, path, error);

  sync_comment (self);
  dm_buf_init (&buf);
  if (compare_export (self, kind, &buf))
    ;
  else if (kind == EXPORT_TEXT)
    dm_report_write_text (&self->report, &buf);
  else if (kind == EXPORT_JSON)
    dm_report_write_json (&self->report, &buf);
  else
    dm_report_write_csv (&self->report, &buf);
  rc = buf.error ? buf.error : dm_write_file_atomic (path, &buf);
  dm_buf_free (&buf);
  if (rc != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not save %s: %s", path,
                   dm_strerror (rc));
      return FALSE;
    }
  return TRUE;
}

static void
on_screenshot_after_paint (GdkFrameClock *clock,
                           DmWindow      *self)
{
  g_autofree char *path = g_object_steal_data (G_OBJECT (self), "dm-screenshot-path");
  g_autoptr (GError) error = NULL;

  g_signal_handlers_disconnect_by_func (clock, on_screenshot_after_paint, self);
  if (!path)
    return;
  if (!dm_window_save_screenshot (self, path, &error))
    show_error (self, error->message);
  else
    {
      g_autofree char *status = g_strdup_printf ("Saved %s", path);
      set_status (self, status);
    }
}

static void
export_and_report (DmWindow   *self,
                   ExportKind  kind,
                   const char *path)
{
  g_autoptr (GError) error = NULL;

  /* A screenshot waits for the next paint, when every widget's drawing is
   * up to date (a live tile may have just changed). */
  if (kind == EXPORT_PNG && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
      gboolean pending = g_object_get_data (G_OBJECT (self), "dm-screenshot-path") != NULL;

      g_object_set_data_full (G_OBJECT (self), "dm-screenshot-path", g_strdup (path), g_free);
      if (!pending)
        g_signal_connect (clock, "after-paint", G_CALLBACK (on_screenshot_after_paint), self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  if (!export_to (self, kind, path, &error))
    show_error (self, error->message);
  else
    {
      g_autofree char *status = g_strdup_printf ("Saved %s", path);
      set_status (self, status);
    }
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  DmWindow        *self)
{
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "dm-kind"));
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    export_and_report (self, kind, path);
  g_object_unref (dialog);
}

static void
save_with_chooser (DmWindow   *self,
                   ExportKind  kind)
{
  static const char *const ext[] = { "txt", "json", "csv", "png" };
  static const char *const titles[] = { "Save Results as Text", "Save Results as JSON",
                                        "Save Results as CSV", "Save Screenshot" };
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d%H%M%S");
  g_autofree char *name = g_strdup_printf ("Diskmeter_%s.%s", stamp, ext[kind]);
  GtkFileChooserNative *chooser;

  chooser = dm_file_dialog_new_save (GTK_WINDOW (self), titles[kind], name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "dm-kind", GINT_TO_POINTER (kind));
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
dm_window_save_screenshot (DmWindow    *self,
                           const char  *path,
                           GError     **error)
{
  /* The sweep window saves its PNG the same way. */
  return dm_screenshot_save (GTK_WIDGET (self), self->content, path, error);
}

/* --- actions --------------------------------------------------------------- */

static void
action_run_all (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  dm_window_start (DM_WINDOW (user_data), -1);
}

static void
action_run_row (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);
  int row = g_variant_get_int32 (param);

  if (self->layout_stale)
    dm_window_rebuild_grid (self);
  if (row < 0 || (guint) row >= self->layout.n_rows)
    {
      g_autofree char *m = g_strdup_printf ("There is no test row %d in this profile.", row);
      show_error (self, m);
      return;
    }
  dm_window_start (self, row);
}

static void
action_stop (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);

  if (self->job)
    {
      dm_job_cancel (self->job);
      set_status (self, "Stopping…");
    }
}

static void
action_copy_text (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);
  dm_buf buf;

  sync_comment (self);
  dm_buf_init (&buf);
  if (!compare_export (self, EXPORT_TEXT, &buf))
    dm_report_write_text (&self->report, &buf);
  if (!buf.error && buf.data)
    {
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), buf.data);
      set_status (self, "Results copied as text");
    }
  dm_buf_free (&buf);
}

/* Ctrl+C. Application shortcuts come before the focused widget's in GTK 4,
 * so with text selected in the comment this copies that text, as Ctrl+C
 * does anywhere; otherwise the results. */
static void
action_copy (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  int start, end;

  if (focus && GTK_IS_EDITABLE (focus)
      && gtk_editable_get_selection_bounds (GTK_EDITABLE (focus), &start, &end))
    gtk_widget_activate_action (focus, "clipboard.copy", NULL);
  else
    action_copy_text (action, param, user_data);
}

static void
action_choose_folder (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  choose_folder (DM_WINDOW (user_data));
}

/* save-text, save-json-to, ...: the format is in the action's name. */
static ExportKind
export_kind_of (GSimpleAction *action)
{
  const char *name = g_action_get_name (G_ACTION (action));

  if (g_str_has_prefix (name, "save-json"))
    return EXPORT_JSON;
  if (g_str_has_prefix (name, "save-csv"))
    return EXPORT_CSV;
  if (g_str_has_prefix (name, "save-screenshot"))
    return EXPORT_PNG;
  return EXPORT_TEXT;
}

static void
action_save (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  save_with_chooser (DM_WINDOW (user_data), export_kind_of (action));
}

static void
action_save_to (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  export_and_report (DM_WINDOW (user_data), export_kind_of (action),
                     g_variant_get_string (param, NULL));
}

static void
action_history (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);

  if (!self->history_window)
    {
      self->history_window = GTK_WIDGET (dm_history_window_new (self));
      g_object_add_weak_pointer (G_OBJECT (self->history_window),
                                 (gpointer *) &self->history_window);
    }
  else
    dm_history_window_reload (DM_HISTORY_WINDOW (self->history_window));
  gtk_window_present (GTK_WINDOW (self->history_window));
}

static void
action_thresholds (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);

  gtk_window_present (GTK_WINDOW (dm_thresholds_dialog_new (GTK_WINDOW (self), self->settings)));
}

static void
on_compare_folder_chosen (GtkNativeDialog *dialog,
                          int              response,
                          DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    {
      g_autofree char *status = g_strdup_printf ("All compares with %s, measured in turns", path);
      dm_window_set_compare_target (self, path);
      set_status (self, status);
    }
  g_object_unref (dialog);
}

static void
action_compare_folder (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new ("Compare With Folder", GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Select",
                                         "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_compare_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
action_compare_off (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  DmWindow *self = DM_WINDOW (user_data);

  dm_window_set_compare_target (self, NULL);
  if (self->comparing && !self->job)
    compare_show (self, FALSE);
  set_status (self, "All measures the target alone");
}

static const GActionEntry window_actions[] = {
  { "run-all", action_run_all },
  { "run-row", action_run_row, "i" },
  { "stop", action_stop },
  { "copy", action_copy },
  { "copy-text", action_copy_text },
  { "choose-folder", action_choose_folder },
  { "save-text", action_save },
  { "save-json", action_save },
  { "save-csv", action_save },
  { "save-screenshot", action_save },
  /* For scripts: `gapplication action ID save-json-to "'/tmp/r.json'"`. */
  { "save-text-to", action_save_to, "s" },
  { "save-json-to", action_save_to, "s" },
  { "save-csv-to", action_save_to, "s" },
  { "save-screenshot-to", action_save_to, "s" },
  { "history", action_history },
  { "thresholds", action_thresholds },
  { "compare-folder", action_compare_folder },
  { "compare-off", action_compare_off },
  { "latency", action_latency },
};

/* Settings whose keys double as stateful actions for the menus and D-Bus. */
static const char *const settings_actions[] = {
  "profile", "nvme", "mix", "mix-ratio", "units", "count", "size", "target",
};

static void
install_actions (DmWindow       *self,
                 GtkApplication *app)
{
  g_action_map_add_action_entries (G_ACTION_MAP (app), window_actions,
                                   G_N_ELEMENTS (window_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (settings_actions); i++)
    {
      g_autoptr (GAction) action = g_settings_create_action (self->settings, settings_actions[i]);
      g_action_map_add_action (G_ACTION_MAP (app), action);
    }
}

static void
remove_actions (GtkApplication *app)
{
  for (guint i = 0; i < G_N_ELEMENTS (window_actions); i++)
    g_action_map_remove_action (G_ACTION_MAP (app), window_actions[i].name);
  for (guint i = 0; i < G_N_ELEMENTS (settings_actions); i++)
    g_action_map_remove_action (G_ACTION_MAP (app), settings_actions[i]);
}

/* --- settings to widgets ------------------------------------------------- */

static void
select_string (GtkDropDown *dropdown,
               const char  *value)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), value) == 0)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
  /* A size given on the command line that the list lacks ("100MiB"). */
  gtk_string_list_append (GTK_STRING_LIST (model), value);
  gtk_drop_down_set_selected (dropdown, n);
}

static void
sync_from_settings (DmWindow   *self,
                    const char *key)
{
  gboolean all = key == NULL;

  self->syncing = TRUE;

  if (all || !strcmp (key, "count"))
    gtk_drop_down_set_selected (self->count_dropdown,
                                CLAMP (g_settings_get_int (self->settings, "count"), 1, 9) - 1);
  if (all || !strcmp (key, "size"))
    {
      g_autofree char *size = g_settings_get_string (self->settings, "size");
      uint64_t bytes;
      char canonical[32];

      if (dm_size_parse (size, &bytes, NULL, 0) == 0)
        {
          dm_size_format (bytes, canonical, sizeof canonical);
          select_string (self->size_dropdown, canonical);
        }
    }
  if (all || !strcmp (key, "units"))
    {
      g_autofree char *units = g_settings_get_string (self->settings, "units");
      dm_unit unit = DM_UNIT_MBPS;

      if (dm_unit_parse (units, &unit) != 0)
        unit = DM_UNIT_MBPS;
      self->unit = unit;
      gtk_drop_down_set_selected (self->units_dropdown, unit);
    }
  self->syncing = FALSE;

  if (all || !strcmp (key, "target"))
    {
      g_autofree char *target = current_target (self);

      /* At start-up (all) the background scan probes the target. */
      if (!all)
        update_target_info (self);
      select_target_item (self, target, !all);
      if (!self->job && !self->report.finished && self->have_target_info)
        self->report.target = self->target_info;
      if (all)
        dm_window_update_footer (self);
    }

  if (all)
    return;

  if (!strcmp (key, "units"))
    {
      update_column_titles (self);
      if (self->job)
        on_job_progress (self->job, self);
      else
        dm_window_refresh_tiles (self);
    }
  else if (!strcmp (key, "profile") || !strcmp (key, "nvme") || !strcmp (key, "mix")
           || !strcmp (key, "custom-tests"))
    {
      if (self->job)
        self->layout_stale = TRUE;
      else
        dm_window_rebuild_grid (self);
    }
  else if (!strcmp (key, "mix-ratio") || !strcmp (key, "count") || !strcmp (key, "size")
           || !strcmp (key, "measure-time") || !strcmp (key, "interval")
           || !strcmp (key, "warmup") || !strcmp (key, "test-data"))
    {
      /* Figures measured with other settings would be mislabelled in an
       * export; CrystalDiskMark clears them too. */
      if (!strcmp (key, "mix-ratio"))
        update_column_titles (self);
      if (self->job)
        self->layout_stale = TRUE;
      else if (!strcmp (key, "mix-ratio") && !g_settings_get_boolean (self->settings, "mix"))
        reset_report (self);
      else
        dm_window_rebuild_grid (self);
    }
}

static void
on_settings_changed (GSettings  *settings,
                     const char *key,
                     DmWindow   *self)
{
  sync_from_settings (self, key);
  if (!strcmp (key, "thresholds"))
    thresholds_changed (self);
  else if (!strcmp (key, "units"))
    compare_reunit (self);
}

static void
on_count_selected (DmWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->count_dropdown);

  if (!self->syncing && i != GTK_INVALID_LIST_POSITION
      && (int) i + 1 != g_settings_get_int (self->settings, "count"))
    g_settings_set_int (self->settings, "count", i + 1);
}

static void
on_size_selected (DmWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->size_dropdown);
  const char *size;
  g_autofree char *old = NULL;

  if (self->syncing || i == GTK_INVALID_LIST_POSITION)
    return;
  size = gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (self->size_dropdown)),
                                     i);
  old = g_settings_get_string (self->settings, "size");
  if (g_strcmp0 (old, size) != 0)
    g_settings_set_string (self->settings, "size", size);
}

static void
on_units_selected (DmWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->units_dropdown);

  if (!self->syncing && i < DM_N_UNITS && i != self->unit)
    g_settings_set_string (self->settings, "units", dm_unit_name (i));
}

/* --- life cycle ---------------------------------------------------------- */

static gboolean
dm_window_close_request (GtkWindow *window)
{
  DmWindow *self = DM_WINDOW (window);

  if (!gtk_window_is_maximized (window))
    {
      int w, h;

      gtk_window_get_default_size (window, &w, &h);
      g_settings_set_int (self->settings, "window-width", w);
      g_settings_set_int (self->settings, "window-height", h);
    }
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

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
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app)
    remove_actions (app);
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
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->script, dm_script_free);
  G_OBJECT_CLASS (dm_window_parent_class)->dispose (object);
}

static void
dm_window_finalize (GObject *object)
{
  DmWindow *self = DM_WINDOW (object);

  dm_report_clear (&self->report);
  dm_compare_clear (&self->compare);
  dm_report_clear (&self->compare_b);
  for (guint i = 0; i < self->n_saved; i++)
    dm_report_clear (&self->saved[i]);
  g_free (self->saved);
  g_strfreev (self->saved_names);
  g_free (self->compare_target);
  g_ptr_array_unref (self->target_paths);
  G_OBJECT_CLASS (dm_window_parent_class)->finalize (object);
}

static void
dm_window_class_init (DmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dm_window_dispose;
  object_class->finalize = dm_window_finalize;
  window_class->close_request = dm_window_close_request;

  dm_ui_init ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, all_button);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, count_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, target_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, units_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmWindow, target_model);
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

  g_type_ensure (DM_TYPE_TILE);
}

static void
dm_window_init (DmWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->target_paths = g_ptr_array_new_with_free_func (g_free);
  {
    g_autoptr (GtkListItemFactory) button = target_factory (TRUE);
    g_autoptr (GtkListItemFactory) list = target_factory (FALSE);

    gtk_drop_down_set_factory (self->target_dropdown, button);
    gtk_drop_down_set_list_factory (self->target_dropdown, list);
  }
  self->cancellable = g_cancellable_new ();
  gtk_size_group_add_widget (self->row_size_group, self->all_button);
  self->compare_view = dm_compare_view_new ();
  gtk_widget_set_visible (self->compare_view, FALSE);
  gtk_widget_insert_after (self->compare_view, gtk_widget_get_parent (self->grid), self->grid);
}

DmWindow *
dm_window_new (GtkApplication *application,
               GSettings      *settings)
{
  DmWindow *self = g_object_new (DM_TYPE_WINDOW, "application", application, NULL);
  g_autoptr (GTask) task = NULL;
  g_autofree char *target = NULL;

  self->settings = g_object_ref (settings);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  install_actions (self, application);

  /* Until the scan lists the mounts, the list holds the saved target. */
  target = current_target (self);
  gtk_string_list_append (self->target_model, choose_folder_label);
  sync_from_settings (self, NULL);
  dm_window_rebuild_grid (self);
  thresholds_changed (self);

  g_signal_connect (settings, "changed", G_CALLBACK (on_settings_changed), self);
  g_signal_connect_swapped (self->count_dropdown, "notify::selected",
                            G_CALLBACK (on_count_selected), self);
  g_signal_connect_swapped (self->size_dropdown, "notify::selected",
                            G_CALLBACK (on_size_selected), self);
  g_signal_connect_swapped (self->units_dropdown, "notify::selected",
                            G_CALLBACK (on_units_selected), self);
  g_signal_connect_swapped (self->target_dropdown, "notify::selected",
                            G_CALLBACK (on_target_selected), self);

  task = g_task_new (self, self->cancellable, on_targets_scanned, NULL);
  g_task_set_task_data (task, g_strdup (target), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, scan_targets_thread);

  dm_measure_watch_first_frame (GTK_WIDGET (self));
  return self;
}

void
dm_window_set_comment (DmWindow   *self,
                       const char *comment)
{
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), comment ? comment : "");
  sync_comment (self);
}

/* --- scripted runs ------------------------------------------------------- */

/* Writes the files a script asked for; the screenshot only while the
 * window is still on screen. */
static void
script_save (DmWindow *self,
             gboolean  with_screenshot)
{
  DmScript *script = self->script;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  const struct { ExportKind kind; const char *path; } outputs[] = {
    { EXPORT_JSON, script->json },
    { EXPORT_TEXT, script->text },
    { EXPORT_CSV, script->csv },
    { EXPORT_PNG, with_screenshot ? script->screenshot : NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_autoptr (GError) error = NULL;

      if (!outputs[i].path)
        continue;
      if (!export_to (self, outputs[i].kind, outputs[i].path, &error))
        {
          show_error (self, error->message);
          dm_application_set_exit_status (DM_APPLICATION (app), 1);
        }
      else if (outputs[i].kind == EXPORT_PNG)
        g_print ("diskmeter: saved screenshot %dx%d to %s\n",
                 gtk_widget_get_width (GTK_WIDGET (self)),
                 gtk_widget_get_height (GTK_WIDGET (self)), outputs[i].path);
      else
        g_print ("diskmeter: saved %s\n", outputs[i].path);
    }
}

static void
script_finish (DmWindow *self)
{
  gboolean quit = self->script->quit_when_done;

  script_save (self, TRUE);
  g_clear_pointer (&self->script, dm_script_free);
  if (quit)
    gtk_window_close (GTK_WINDOW (self));
}

static void
script_after_paint (GdkFrameClock *clock,
                    DmWindow      *self)
{
  g_signal_handlers_disconnect_by_func (clock, script_after_paint, self);
  /* Right after a paint every widget's render node is fresh, so the
   * screenshot shows the final figures, laid out and drawn. */
  if (self->script && !self->job)
    script_finish (self);
}

static void
script_continue (DmWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_connect (clock, "after-paint", G_CALLBACK (script_after_paint), self);
}

static gboolean
script_begin (gpointer data)
{
  DmWindow *self = DM_WINDOW (data);

  if (!self->script)
    return G_SOURCE_REMOVE;
  if (self->script->run)
    {
      self->script->run = FALSE;
      dm_window_start (self, -1);
      if (!self->job)
        {
          /* It could not even start (bad settings): the message is shown,
           * the script still writes what it can and quits. */
          dm_application_set_exit_status (DM_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))), 1);
          script_continue (self);
        }
    }
  else
    script_continue (self);
  return G_SOURCE_REMOVE;
}

static void
script_after_first_paint (GdkFrameClock *clock,
                          DmWindow      *self)
{
  g_signal_handlers_disconnect_by_func (clock, script_after_first_paint, self);
  /* Let the window settle (first layouts, fonts, the target scan) so a
   * scripted run starts on a window in the state a user would click in. */
  g_timeout_add_full (G_PRIORITY_DEFAULT, 150, script_begin, g_object_ref (self), g_object_unref);
}

static gboolean
script_start (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       data)
{
  g_signal_connect (clock, "after-paint", G_CALLBACK (script_after_first_paint), widget);
  return G_SOURCE_REMOVE;
}

void
dm_window_run_script (DmWindow *self,
                      DmScript *script)
{
  if (self->job)
    {
      show_error (self, "A run is already in progress; the new request was ignored.");
      dm_script_free (script);
      return;
    }
  g_clear_pointer (&self->script, dm_script_free);
  self->script = script;
  /* Start from the first frame on screen, so a screenshot has a window. */
  gtk_widget_add_tick_callback (GTK_WIDGET (self), script_start, NULL, NULL);
}

/* --- comparison and history ------------------------------------------------ */

/* Completed and cancelled runs go into the history, so this week can be
 * compared with last week; not saving is worth a line, never a failure. */
static void
history_save (DmWindow        *self,
              const dm_report *r)
{
  char path[1200];
  gboolean any = FALSE;
  int err;

  if (r->status != DM_STATUS_COMPLETE && r->status != DM_STATUS_CANCELLED)
    return;
  for (unsigned i = 0; i < r->n_results && !any; i++)
    any = r->results[i].status == DM_STATUS_COMPLETE;
  if (!any)
    return;
  err = dm_history_save (r, path, sizeof path);
  if (err < 0)
    g_warning ("The run was not saved in the history: %s", dm_strerror (err));
  else if (self->script)
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
  dm_window_update_footer (self);
}

/* Shows the comparison (or the grid again with FALSE). */
static void
compare_show (DmWindow *self,
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
      compare_show (self, FALSE);
      return;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  compare_show (self, TRUE);
}

/* A run of every row with a second target set measures both, interleaved
 * on the job's one worker; any other run leaves comparing. */
static void
compare_prepare (DmWindow *self,
                 DmJob    *job,
                 int       only_row)
{
  dm_settings s;
  dm_report b;

  if (!self->compare_target || only_row >= 0)
    {
      if (self->comparing)
        compare_show (self, FALSE);
      return;
    }
  engine_settings (self, &s);
  memset (&b, 0, sizeof b);
  if (dm_report_init (&b, &s, self->layout.rows, self->layout.n_rows,
                      dm_grid_layout_modes (&self->layout)) != 0)
    {
      show_error (self, "Out of memory while setting up the comparison.");
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
      show_error (self, "Could not set up the second target of the comparison.");
      return;
    }
  dm_report_clear (&self->compare_b);
  self->live_complete = G_MAXUINT;
  compare_live (self, job);
}

/* Both targets' figures as they come: the comparison is rebuilt whenever
 * another test completes on either side. */
static void
compare_live (DmWindow *self,
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

static void
compare_finished (DmWindow *self,
                  DmJob    *job)
{
  dm_report b;

  if (!dm_job_steal_report_b (job, &b))
    return;
  history_save (self, &b);
  dm_compare_clear (&self->compare);
  dm_report_clear (&self->compare_b);
  self->compare_b = b;
  compare_rebuild (self, &self->report, &self->compare_b);
}

/* While the comparison is shown, the exports are the comparison. */
static gboolean
compare_export (DmWindow *self,
                int       kind,
                dm_buf   *buf)
{
  if (!self->comparing || self->compare.n_runs < 2)
    return FALSE;
  if (kind == EXPORT_TEXT)
    dm_compare_write_text (&self->compare, buf);
  else if (kind == EXPORT_JSON)
    dm_compare_write_json (&self->compare, buf);
  else
    dm_compare_write_csv (&self->compare, buf);
  return TRUE;
}

/* The comparison in the unit the grid now shows: the same runs, rebuilt. */
static void
compare_reunit (DmWindow *self)
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
      compare_show (self, FALSE);
      return;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  compare_show (self, TRUE);
}

/* Green and red limits: the tiles, the comparison and the grid's exports
 * follow the saved rules as soon as they change. */
static void
thresholds_changed (DmWindow *self)
{
  self->n_rules = dm_thresholds_from_settings (self->settings, self->rules);
  if (!self->job)
    {
      memcpy (self->report.thresholds, self->rules, self->n_rules * sizeof self->rules[0]);
      self->report.n_thresholds = self->n_rules;
      dm_window_refresh_tiles (self);
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
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "Could not open %s: %s", name,
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
                           "A run is in progress; open the saved run when it is done.");
      return FALSE;
    }
  if (!load_saved (path, &r, error))
    return FALSE;

  compare_show (self, FALSE);
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
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), r.comment);
  total = r.n_results;
  dm_report_clear (&r);

  dm_window_refresh_tiles (self);
  dm_window_update_footer (self);
  {
    g_autofree char *name = g_path_get_basename (path);
    g_autofree char *status = NULL;

    if (shown < total)
      status = g_strdup_printf ("Saved run %s: %u of its %u figures fit this grid", name, shown,
                                total);
    else
      status = g_strdup_printf ("Saved run %s", name);
    set_status (self, status);
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
  g_autofree const dm_report **runs = NULL;
  g_auto (GStrv) names = NULL;
  guint loaded = 0;

  g_return_val_if_fail (DM_IS_WINDOW (self), FALSE);
  if (n < 2 || n > DM_COMPARE_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Choose between 2 and %d saved runs to compare.", DM_COMPARE_MAX);
      return FALSE;
    }
  if (self->job)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           "A run is in progress; compare saved runs when it is done.");
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

  compare_show (self, FALSE);
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
                           "Out of memory while comparing the saved runs.");
      return FALSE;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  compare_show (self, TRUE);
  set_status (self, "Comparing saved runs; the next run shows the grid again");
  return TRUE;
}

/* --- for the widget tests -------------------------------------------------- */

guint
_dm_window_get_n_rows (DmWindow *self)
{
  if (self->layout_stale && !self->job)
    dm_window_rebuild_grid (self);
  return self->layout.n_rows;
}

guint
_dm_window_get_n_columns (DmWindow *self)
{
  return self->layout.n_columns;
}

GtkWidget *
_dm_window_get_row_button (DmWindow *self,
                           guint     row)
{
  g_return_val_if_fail (row < self->layout.n_rows, NULL);
  return self->row_buttons[row];
}

GtkWidget *
_dm_window_get_tile (DmWindow *self,
                     guint     row,
                     guint     column)
{
  g_return_val_if_fail (row < self->layout.n_rows && column < self->layout.n_columns, NULL);
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

void
_dm_window_refresh (DmWindow *self)
{
  dm_window_refresh_tiles (self);
}
