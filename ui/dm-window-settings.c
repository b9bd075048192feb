/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GSettings and the window kept in step: the dropdowns write their keys,
 * and one "changed" handler brings the widgets, the grid, the zoom and the
 * comparison up to date, whoever changed the key (a dropdown, a menu, the
 * command line or D-Bus). The run mode's selector (All, Read only, Write
 * only) is made here too: which columns a run measures depends on the
 * modes key and on the target, a disk being only read.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-format.h"

/* --- run modes: All, Read only, Write only -------------------------------- */

gboolean
dm_window_modes_parse (const char *text,
                       guint      *mask,
                       char       *why,
                       gsize       why_size)
{
  unsigned m = 0;

  if (text && (!g_ascii_strcasecmp (text, "all") || !text[0]))
    {
      *mask = DM_MODES_ALL;
      return TRUE;
    }
  if (dm_modes_parse (text, &m, why, why_size) != 0)
    return FALSE;
  *mask = m;
  return TRUE;
}

char *
dm_window_modes_format (guint mask)
{
  GString *s;

  if ((mask & DM_MODES_ALL) == DM_MODES_ALL || !(mask & DM_MODES_ALL))
    return g_strdup ("all");
  s = g_string_new (NULL);
  for (int m = 0; m < DM_N_MODES; m++)
    if (mask & DM_MODE_BIT (m))
      g_string_append_printf (s, "%s%s", s->len ? "," : "", dm_mode_name (m));
  return g_string_free (s, FALSE);
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
  if (!dm_window_modes_parse (text, &mask, NULL, 0) || !(mask & shown))
    mask = DM_MODES_ALL;
  return shown & mask;
}

static const char *const modes_tooltip =
  N_("Which columns a run measures: all, Read only or Write only");

static const char *const device_read_only =
  N_("A disk or partition is only read: writing to it would destroy its data "
     "(diskmeter-cli --destroy-data-on does that).");

/* The selector shows the setting as it applies to the grid on screen:
 * All, Read only, Write only, or another list (from --modes or D-Bus) as
 * a fourth entry ("Read + Mix"). */
void
_dm_window_sync_modes (DmWindow *self)
{
  guint shown = dm_grid_layout_modes (&self->layout);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->modes_model));
  gboolean device = _dm_window_target_is_device (self);
  guint run = _dm_window_run_modes (self);
  guint pick;

  if (device)
    pick = 1;
  else if (run == shown)
    pick = 0;
  else if (run == DM_MODE_BIT (DM_MODE_READ))
    pick = 1;
  else if (run == DM_MODE_BIT (DM_MODE_WRITE))
    pick = 2;
  else
    pick = 3;

  self->syncing = TRUE;
  if (pick == 3)
    {
      GString *label = g_string_new (NULL);

      for (int m = 0; m < DM_N_MODES; m++)
        if (run & DM_MODE_BIT (m))
          g_string_append_printf (label, "%s%s", label->len ? " + " : "", dm_mode_title (m));
      gtk_string_list_splice (self->modes_model, 3, n - 3,
                              (const char *const[]) { label->str, NULL });
      g_string_free (label, TRUE);
    }
  else if (n > 3)
    gtk_string_list_splice (self->modes_model, 3, n - 3, NULL);
  gtk_drop_down_set_selected (self->modes_dropdown, pick);
  self->syncing = FALSE;

  gtk_widget_set_sensitive (GTK_WIDGET (self->modes_dropdown), !self->job && !device);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->modes_dropdown),
                               device ? _(device_read_only) : _(modes_tooltip));
}

static void
on_modes_selected (DmWindow *self)
{
  static const char *const values[] = { "all", "read", "write" };
  guint i = gtk_drop_down_get_selected (self->modes_dropdown);
  g_autofree char *old = NULL;

  if (self->syncing || i >= G_N_ELEMENTS (values))
    return;
  old = g_settings_get_string (self->settings, "modes");
  if (g_strcmp0 (old, values[i]) != 0)
    g_settings_set_string (self->settings, "modes", values[i]);
}

/* After the modes setting or the target changed: the selector follows,
 * and a grid whose columns no longer match what a run measures starts
 * over (during a run, once it is done). */
void
_dm_window_modes_changed (DmWindow *self)
{
  _dm_window_sync_modes (self);
  if (_dm_window_run_modes (self) != self->run_modes)
    {
      if (self->job)
        self->layout_stale = TRUE;
      else
        _dm_window_rebuild_grid (self);
    }
  if (_dm_window_target_is_device (self) && !self->job)
    _dm_window_set_status (self, _(device_read_only));
}

/* All / Read only / Write only, beside the unit (in the template), as
 * CrystalDiskMark offers them; _dm_window_sync_modes sets it from the
 * setting. */
void
_dm_window_modes_init (DmWindow *self)
{
  g_signal_connect_swapped (self->modes_dropdown, "notify::selected",
                            G_CALLBACK (on_modes_selected), self);
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

  /* A device target is only read: the columns a run measures follow the
   * target as well as the modes setting. */
  if (!strcmp (key, "modes") || !strcmp (key, "target"))
    {
      _dm_window_modes_changed (self);
      if (!strcmp (key, "modes"))
        g_object_notify (G_OBJECT (self), "modes");
    }
  else if (!strcmp (key, "units"))
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
