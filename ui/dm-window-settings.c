/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GSettings and the window kept in step: the dropdowns write their keys,
 * and one "changed" handler brings the widgets, the grid, the zoom and the
 * comparison up to date, whoever changed the key (a dropdown, a menu, the
 * command line or D-Bus).
 */
#include "dm-window-private.h"

#include <string.h>

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
  if (all || !strcmp (key, "zoom"))
    {
      int zoom = CLAMP (g_settings_get_int (self->settings, "zoom"), DM_ZOOM_MIN, DM_ZOOM_MAX);
      int w, h;

      /* The window grows and shrinks with its content, as CrystalDiskMark's
       * does; at start-up the saved size already has the zoom in it. */
      if (!all && self->zoom_percent && zoom != self->zoom_percent
          && !gtk_window_is_maximized (GTK_WINDOW (self)))
        {
          gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
          if (w > 0 && h > 0)
            gtk_window_set_default_size (GTK_WINDOW (self), w * zoom / self->zoom_percent,
                                         h * zoom / self->zoom_percent);
        }
      self->zoom_percent = zoom;
      dm_window_zoom_set_percent (DM_WINDOW_ZOOM (self->zoom), zoom);
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
      g_autofree char *target = _dm_window_current_target (self);

      /* At start-up (all) the background scan probes the target. */
      if (!all)
        _dm_window_update_target_info (self);
      _dm_window_select_target (self, target, !all);
      if (!self->job && !self->report.finished && self->have_target_info)
        self->report.target = self->target_info;
      if (all)
        _dm_window_update_footer (self);
    }

  if (all)
    return;

  if (!strcmp (key, "units"))
    {
      _dm_window_update_column_titles (self);
      if (self->job)
        _dm_window_show_progress (self);
      else
        _dm_window_refresh (self);
    }
  else if (!strcmp (key, "profile") || !strcmp (key, "nvme") || !strcmp (key, "mix")
           || !strcmp (key, "custom-tests"))
    {
      if (self->job)
        self->layout_stale = TRUE;
      else
        _dm_window_rebuild_grid (self);
    }
  else if (!strcmp (key, "mix-ratio") || !strcmp (key, "count") || !strcmp (key, "size")
           || !strcmp (key, "measure-time") || !strcmp (key, "interval")
           || !strcmp (key, "warmup") || !strcmp (key, "test-data"))
    {
      /* Figures measured with other settings would be mislabelled in an
       * export; CrystalDiskMark clears them too. */
      if (!strcmp (key, "mix-ratio"))
        _dm_window_update_column_titles (self);
      if (self->job)
        self->layout_stale = TRUE;
      else if (!strcmp (key, "mix-ratio") && !g_settings_get_boolean (self->settings, "mix"))
        _dm_window_reset_report (self);
      else
        _dm_window_rebuild_grid (self);
    }
}

static void
on_settings_changed (GSettings  *settings,
                     const char *key,
                     DmWindow   *self)
{
  sync_from_settings (self, key);
  if (!strcmp (key, "thresholds"))
    _dm_window_thresholds_changed (self);
  else if (!strcmp (key, "units"))
    _dm_window_compare_reunit (self);
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

/* Once the window is built: the widgets from the settings, then both kept
 * in step. */
void
_dm_window_settings_start (DmWindow *self)
{
  sync_from_settings (self, NULL);
  _dm_window_rebuild_grid (self);
  _dm_window_thresholds_changed (self);

  g_signal_connect (self->settings, "changed", G_CALLBACK (on_settings_changed), self);
  g_signal_connect_swapped (self->count_dropdown, "notify::selected",
                            G_CALLBACK (on_count_selected), self);
  g_signal_connect_swapped (self->size_dropdown, "notify::selected",
                            G_CALLBACK (on_size_selected), self);
  g_signal_connect_swapped (self->units_dropdown, "notify::selected",
                            G_CALLBACK (on_units_selected), self);
}
