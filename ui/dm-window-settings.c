/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GSettings and the window kept in step: the count, size and unit
 * dropdowns are bound to their keys, and each key the grid depends on has
 * its own "changed::KEY" handler, whoever changed it (a dropdown, a menu,
 * the command line or D-Bus). The keys become the grid's layout and the
 * engine's settings here, and the run mode's selector (All, Read only,
 * Write only) is kept here too.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <string.h>

#include "dm-format.h"
#include "dm-profile.h"
#include "dm-thresholds-dialog.h"
#include "dm-tooltip.h"
#include "dm-warmup-setting.h"
#include "dm-zoom.h"

/* --- the grid and the engine's settings ------------------------------------ */

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

static gboolean
is_workloads (DmWindow *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "profile");
  return g_strcmp0 (name, "workloads") == 0;
}

/* --- profile files ----------------------------------------------------------- */

/* The workloads of a profile file: a path, or a resource:/// address of
 * one compiled in (resources/profiles). 0, or a negative errno with a
 * line ("line 4: ...") in why. */
static int
load_profile_file (const char  *where,
                   dm_workload *out,
                   unsigned    *n,
                   char        *why,
                   gsize        why_size)
{
  if (g_str_has_prefix (where, "resource://"))
    {
      g_autoptr (GBytes) bytes = g_resources_lookup_data (where + strlen ("resource://"), 0, NULL);
      gsize len = 0;
      const char *text;

      if (!bytes)
        {
          g_snprintf (why, why_size, _("%s: no such profile in Diskmeter"), where);
          return -ENOENT;
        }
      text = g_bytes_get_data (bytes, &len);
      return dm_profile_file_parse (text, len, out, DM_WINDOW_MAX_ROWS, n, why, why_size);
    }
  return dm_profile_file_load (where, out, DM_WINDOW_MAX_ROWS, n, why, why_size);
}

/* The grid's workloads from now on, loaded from where. */
static void
take_workloads (DmWindow    *self,
                dm_workload *workloads,
                unsigned     n,
                const char  *where)
{
  g_free (self->workloads);
  self->workloads = workloads;
  self->n_workloads = n;
  g_free (self->workloads_from);
  self->workloads_from = g_strdup (where);
}

/* The profile-file key's workloads, at start-up and when the key or the
 * profile changes; one that no longer loads (moved, edited) says why, and
 * the grid falls back to Default. */
static void
load_profile_key (DmWindow *self)
{
  g_autofree char *where = g_settings_get_string (self->settings, "profile-file");
  g_autofree dm_workload *w = NULL;
  unsigned n = 0;
  char why[400];

  if (where[0] && g_strcmp0 (where, self->workloads_from) == 0 && self->n_workloads)
    return;
  w = g_new0 (dm_workload, DM_WINDOW_MAX_ROWS);
  if (!where[0])
    g_strlcpy (why, _("no profile file was chosen"), sizeof why);
  else if (load_profile_file (where, w, &n, why, sizeof why) == 0 && n > 0)
    {
      take_workloads (self, g_steal_pointer (&w), n, where);
      return;
    }
  if (!is_workloads (self))
    return;
  take_workloads (self, NULL, 0, NULL);
  {
    g_autofree char *m = g_strdup_printf (_("Profile: %s; showing Default"), why);

    dm_window_show_error (self, m);
  }
  g_settings_set_string (self->settings, "profile", "default");
}

char *
_dm_window_get_profile_file (DmWindow *self)
{
  if (!is_workloads (self) || !self->workloads_from)
    return g_strdup ("");
  return g_strdup (self->workloads_from);
}

void
_dm_window_choose_profile_file (DmWindow   *self,
                                const char *where)
{
  g_autofree dm_workload *w = NULL;
  g_autofree char *old_file = NULL;
  unsigned n = 0;
  char why[400];
  gboolean was;

  if (!where || !where[0])
    return;
  if (self->job)
    {
      dm_window_show_error (self, _("A run is in progress; choose a profile when it is done."));
      return;
    }
  w = g_new0 (dm_workload, DM_WINDOW_MAX_ROWS);
  /* A file that does not load changes nothing: the grid stays as it was. */
  if (load_profile_file (where, w, &n, why, sizeof why) != 0 || n == 0)
    {
      g_autofree char *m = g_strdup_printf (_("Profile: %s"), n == 0 && why[0] == '\0'
                                                                ? _("it holds no workload")
                                                                : why);
      dm_window_show_error (self, m);
      return;
    }
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), FALSE);
  take_workloads (self, g_steal_pointer (&w), n, where);
  old_file = g_settings_get_string (self->settings, "profile-file");
  was = is_workloads (self);
  /* Both keys are the chosen profile, kept for the next start; the same
   * file chosen again (edited meanwhile) is loaded again all the same. */
  g_settings_set_string (self->settings, "profile-file", where);
  g_settings_set_string (self->settings, "profile", "workloads");
  if (was && g_strcmp0 (old_file, where) == 0)
    _dm_window_rebuild_grid (self);
  g_object_notify (G_OBJECT (self), "profile-file");
}

/* --- the grid and the engine's settings ------------------------------------ */

void
_dm_window_compute_layout (DmWindow     *self,
                           DmGridLayout *layout)
{
  gboolean mix = g_settings_get_boolean (self->settings, "mix");

  /* A workload profile: rows of their own, no tests, no columns. */
  self->shaped = is_workloads (self) && self->n_workloads > 0;
  if (self->shaped)
    {
      memset (layout, 0, sizeof *layout);
      return;
    }

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

void
_dm_window_engine_settings (DmWindow    *self,
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
  dm_warmup_setting_get (self->settings, s);
  /* A profile that times its own tests (Flash Memory: 1 s, 30 s apart),
   * as CrystalDiskMark's preset sets both when it is chosen. */
  const dm_profile *p = is_custom (self) ? NULL : current_profile (self);
  if (p && p->measure_s > 0)
    s->measure_s = p->measure_s;
  if (p && p->interval_s > 0)
    s->interval_s = p->interval_s;
  s->mix_read_percent = g_settings_get_int (self->settings, "mix-ratio");
  if (dm_data_parse (data, &s->data) != 0)
    s->data = DM_DATA_RANDOM;
}

int
_dm_window_init_report (DmWindow          *self,
                        const dm_settings *s,
                        dm_report         *r)
{
  int rc;

  if (self->shaped)
    return dm_report_init_workloads (r, s, self->workloads, self->n_workloads);
  rc = dm_report_init (r, s, self->layout.rows, self->layout.n_rows, self->run_modes);
  g_strlcpy (r->profile, is_custom (self) ? "custom" : current_profile (self)->name,
             sizeof r->profile);
  r->nvme = g_settings_get_boolean (self->settings, "nvme");
  return rc;
}

/* Starts the grid over: new rows or columns, or new run settings, make the
 * old figures meaningless, as in CrystalDiskMark. */
void
_dm_window_reset_report (DmWindow *self)
{
  dm_settings s;
  g_autofree char *target = _dm_window_current_target (self);

  _dm_window_engine_settings (self, &s);
  dm_report_clear (&self->report);
  memset (&self->report, 0, sizeof self->report);
  self->run_modes = _dm_window_run_modes (self);
  if (_dm_window_init_report (self, &s, &self->report) != 0)
    dm_window_show_error (self, _("Out of memory while setting up the grid."));
  if (self->have_target_info)
    self->report.target = self->target_info;
  else
    g_strlcpy (self->report.target.path, target, sizeof self->report.target.path);
  if (self->have_system)
    self->report.system = self->system;
}

/* --- run modes: All, Read only, Write only --------------------------------- */

static const char *const modes_tooltip =
  N_("Which columns a run measures: all, Read only or Write only");

static const char *const device_read_only =
  N_("A disk or partition is only read: writing to it would destroy its data "
     "(diskmeter-cli --destroy-data-on does that).");

static void
on_modes_selected (DmWindow *self)
{
  static const char *const values[] = { "all", "read", "write" };
  guint i = dm_choice_get_selected (self->modes_dropdown);
  g_autofree char *old = NULL;

  if (i >= G_N_ELEMENTS (values))
    return;
  old = g_settings_get_string (self->settings, "modes");
  if (g_strcmp0 (old, values[i]) != 0)
    g_settings_set_string (self->settings, "modes", values[i]);
}

/* The selector shows the setting as it applies to the grid on screen:
 * All, Read only, Write only, or another list (from --modes or D-Bus) as
 * a fourth entry ("Read + Mix"). With tell, the status line says why a
 * disk is only read. */
void
_dm_window_sync_modes (DmWindow *self,
                       gboolean  tell)
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

  /* Set from the setting, the selector does not write it back. */
  g_signal_handlers_block_by_func (self->modes_dropdown, on_modes_selected, self);
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
  dm_choice_set_selected (self->modes_dropdown, pick);
  g_signal_handlers_unblock_by_func (self->modes_dropdown, on_modes_selected, self);

  /* A workload's read share is its own. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->modes_dropdown),
                            !self->job && !device && !self->shaped);
  dm_tooltip_set (GTK_WIDGET (self->modes_dropdown),
                  device ? _(device_read_only) : _(modes_tooltip));
  if (tell && device && !self->job)
    _dm_window_set_status (self, _(device_read_only));
}

/* The window's modes property: a list naming Mix also shows the Mix
 * column, as diskmeter-cli's --modes runs it. */
void
_dm_window_set_modes (DmWindow   *self,
                      const char *text)
{
  g_autofree char *canonical = NULL;
  char why[128];
  guint mask;

  if (!dm_modes_setting_parse (text, &mask, why, sizeof why))
    {
      g_autofree char *m = g_strdup_printf (_("Modes: %s"), why);
      dm_window_show_error (self, m);
      return;
    }
  if (g_ascii_strcasecmp (text, "all") != 0 && (mask & DM_MODE_BIT (DM_MODE_MIX)))
    g_settings_set_boolean (self->settings, "mix", TRUE);
  canonical = dm_modes_setting_format (mask);
  g_settings_set_string (self->settings, "modes", canonical);
}

/* --- the dropdowns, bound to their keys ------------------------------------ */

/* Count: the dropdown lists 1 to 9. */
static gboolean
count_to_widget (GValue   *value,
                 GVariant *variant,
                 gpointer  data)
{
  g_value_set_uint (value, CLAMP (g_variant_get_int32 (variant), 1, 9) - 1);
  return TRUE;
}

static GVariant *
count_from_widget (const GValue       *value,
                   const GVariantType *type,
                   gpointer            data)
{
  guint i = g_value_get_uint (value);

  return i == GTK_INVALID_LIST_POSITION ? NULL : g_variant_new_int32 (i + 1);
}

/* Size: shown in the canonical form ("1GiB" for "1024MiB"); a size given
 * on the command line that the list lacks ("100MiB") is added to it, and
 * one that does not parse leaves the dropdown as it is. */
static gboolean
size_to_widget (GValue   *value,
                GVariant *variant,
                gpointer  data)
{
  DmWindow *self = data;
  GListModel *model = dm_choice_get_model (self->size_dropdown);
  guint n = g_list_model_get_n_items (model);
  uint64_t bytes;
  char canonical[32];

  if (dm_size_parse (g_variant_get_string (variant, NULL), &bytes, NULL, 0) != 0)
    {
      g_value_set_uint (value, dm_choice_get_selected (self->size_dropdown));
      return TRUE;
    }
  dm_size_format (bytes, canonical, sizeof canonical);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), canonical) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  gtk_string_list_append (GTK_STRING_LIST (model), canonical);
  g_value_set_uint (value, n);
  return TRUE;
}

static GVariant *
size_from_widget (const GValue       *value,
                  const GVariantType *type,
                  gpointer            data)
{
  DmWindow *self = data;
  guint i = g_value_get_uint (value);
  const char *size;
  g_autofree char *old = NULL;

  if (i == GTK_INVALID_LIST_POSITION)
    return NULL;
  size = gtk_string_list_get_string (GTK_STRING_LIST (dm_choice_get_model (self->size_dropdown)),
                                     i);
  old = g_settings_get_string (self->settings, "size");
  return g_strcmp0 (old, size) != 0 ? g_variant_new_string (size) : NULL;
}

/* Units: the dropdown lists them in dm_unit's order. */
static dm_unit
unit_of (const char *name)
{
  dm_unit unit = DM_UNIT_MBPS;

  if (dm_unit_parse (name, &unit) != 0)
    unit = DM_UNIT_MBPS;
  return unit;
}

static gboolean
units_to_widget (GValue   *value,
                 GVariant *variant,
                 gpointer  data)
{
  g_value_set_uint (value, unit_of (g_variant_get_string (variant, NULL)));
  return TRUE;
}

static GVariant *
units_from_widget (const GValue       *value,
                   const GVariantType *type,
                   gpointer            data)
{
  DmWindow *self = data;
  guint i = g_value_get_uint (value);

  return i < DM_N_UNITS && i != self->unit ? g_variant_new_string (dm_unit_name (i)) : NULL;
}

/* --- what a change does ---------------------------------------------------- */

/* Other tests or columns, or figures measured with other settings, which
 * an export would mislabel: the grid starts over (once a run is done), as
 * CrystalDiskMark's does. */
static void
on_grid_key_changed (GSettings  *settings,
                     const char *key,
                     DmWindow   *self)
{
  if (self->job)
    self->layout_stale = TRUE;
  else
    _dm_window_rebuild_grid (self);
}

/* The workloads profile chosen (a menu, D-Bus, a restart) needs its file
 * loaded; another file is loaded at once, and shown if it is the profile. */
static void
on_profile_changed (GSettings  *settings,
                    const char *key,
                    DmWindow   *self)
{
  gboolean workloads = is_workloads (self);

  if (strcmp (key, "profile-file") == 0 || (workloads && !self->n_workloads))
    load_profile_key (self);
  if (strcmp (key, "profile") == 0 || is_workloads (self))
    on_grid_key_changed (settings, key, self);
  g_object_notify (G_OBJECT (self), "profile-file");
}

/* Mix shown or not changes the columns only: every figure of the other
 * columns stays (a saved run too), and the Mix column's come back with
 * it while the grid shows the same run. */
static void
on_mix_changed (GSettings  *settings,
                const char *key,
                DmWindow   *self)
{
  if (self->job)
    self->columns_stale = TRUE;
  else
    _dm_window_rebuild_columns (self);
}

/* The Mix share is in the Mix column's title; without the column, only
 * the figures' settings changed. */
static void
on_mix_ratio_changed (GSettings  *settings,
                      const char *key,
                      DmWindow   *self)
{
  _dm_window_update_column_titles (self);
  if (self->job)
    self->layout_stale = TRUE;
  else if (!g_settings_get_boolean (settings, "mix"))
    _dm_window_reset_report (self);
  else
    _dm_window_rebuild_grid (self);
}

static void
on_units_changed (GSettings  *settings,
                  const char *key,
                  DmWindow   *self)
{
  g_autofree char *units = g_settings_get_string (settings, "units");

  self->unit = unit_of (units);
  _dm_window_update_column_titles (self);
  if (self->job)
    _dm_window_show_progress (self);
  else
    _dm_window_refresh (self);
  dm_comparison_set_unit (self->comparison, self->unit);
}

/* A device target is only read: the columns a run measures follow the
 * target (dm-window-targets.c) as well as the modes setting. */
static void
on_modes_changed (GSettings  *settings,
                  const char *key,
                  DmWindow   *self)
{
  _dm_window_modes_changed (self);
  g_object_notify (G_OBJECT (self), "modes");
}

/* The window is as tall as what it shows, as CrystalDiskMark's is: a
 * height kept from another profile (four rows for Demo's one) or from
 * before a zoom would leave an empty band under the grid. The width stays
 * the user's. */
void
_dm_window_fit_height (DmWindow *self)
{
  int w, h, natural;

  if (gtk_window_is_maximized (GTK_WINDOW (self)))
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
  /* Before the window is shown, no default height: it takes its natural
   * one. Once shown, GTK keeps the size it has unless given another, so
   * the natural height for its width (in the same units, borders
   * included) is set. */
  natural = -1;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && w > 0)
    gtk_widget_measure (GTK_WIDGET (self), GTK_ORIENTATION_VERTICAL, w, NULL, &natural, NULL,
                        NULL);
  if (natural != h)
    gtk_window_set_default_size (GTK_WINDOW (self), w, natural);
}

static gboolean
fit_height_idle (gpointer data)
{
  DmWindow *self = data;

  self->fit_height_source = 0;
  _dm_window_fit_height (self);
  return G_SOURCE_REMOVE;
}

/* The footer's second line (the system, known once the target is) comes
 * as the window is first shown, an error as it happens: the new height is
 * set once GTK has taken in the size the window was shown at, which would
 * otherwise replace it. */
static void
queue_fit_height (DmWindow *self)
{
  if (!self->fit_height_source)
    self->fit_height_source = g_idle_add (fit_height_idle, self);
}

/* The window grows and shrinks with its content, as CrystalDiskMark's
 * does; at start-up the saved width already has the zoom in it. */
static void
on_zoom_changed (GSettings  *settings,
                 const char *key,
                 DmWindow   *self)
{
  int zoom = CLAMP (g_settings_get_int (settings, "zoom"), DM_ZOOM_MIN, DM_ZOOM_MAX);
  int old = dm_zoom_get_percent (DM_ZOOM (self->zoom));
  int w, h;

  if (zoom != old && !gtk_window_is_maximized (GTK_WINDOW (self)))
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
      if (w > 0)
        gtk_window_set_default_size (GTK_WINDOW (self), w * zoom / old, h);
    }
  dm_zoom_set_percent (DM_ZOOM (self->zoom), zoom);
  _dm_window_fit_height (self);
}

/* Green and red limits: the tiles, the comparison and the grid's exports
 * follow the saved rules as soon as they change. */
static void
on_thresholds_changed (GSettings  *settings,
                       const char *key,
                       DmWindow   *self)
{
  self->n_rules = dm_thresholds_from_settings (self->settings, self->rules);
  if (!self->job)
    {
      memcpy (self->report.thresholds, self->rules, self->n_rules * sizeof self->rules[0]);
      self->report.n_thresholds = self->n_rules;
      _dm_window_refresh (self);
    }
  dm_comparison_set_thresholds (self->comparison, self->rules, self->n_rules);
}

/* --- set-up ---------------------------------------------------------------- */

/* On close: the size to open with next time. */
static gboolean
on_close_request (GtkWindow *window,
                  DmWindow  *self)
{
  if (!gtk_window_is_maximized (window))
    {
      int w, h;

      gtk_window_get_default_size (window, &w, &h);
      g_settings_set_int (self->settings, "window-width", w);
      g_settings_set_int (self->settings, "window-height", h);
    }
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  return GDK_EVENT_PROPAGATE;
}

static const struct
{
  const char *key;
  GCallback   changed;
} key_handlers[] = {
  { "profile", G_CALLBACK (on_profile_changed) },
  { "profile-file", G_CALLBACK (on_profile_changed) },
  { "nvme", G_CALLBACK (on_grid_key_changed) },
  { "mix", G_CALLBACK (on_mix_changed) },
  { "custom-tests", G_CALLBACK (on_grid_key_changed) },
  { "count", G_CALLBACK (on_grid_key_changed) },
  { "size", G_CALLBACK (on_grid_key_changed) },
  { "measure-time", G_CALLBACK (on_grid_key_changed) },
  { "interval", G_CALLBACK (on_grid_key_changed) },
  { "warmup", G_CALLBACK (on_grid_key_changed) },
  { "warmup-steady", G_CALLBACK (on_grid_key_changed) },
  { "test-data", G_CALLBACK (on_grid_key_changed) },
  { "mix-ratio", G_CALLBACK (on_mix_ratio_changed) },
  { "units", G_CALLBACK (on_units_changed) },
  { "modes", G_CALLBACK (on_modes_changed) },
  { "zoom", G_CALLBACK (on_zoom_changed) },
  { "thresholds", G_CALLBACK (on_thresholds_changed) },
};

/* Once the window is built: its size, the widgets and the grid from the
 * settings, then both kept in step. */
void
_dm_window_settings_start (DmWindow *self)
{
  GSettings *settings = self->settings;
  g_autofree char *units = g_settings_get_string (settings, "units");

  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* The dropdowns' sensitivity follows the running property, not the
   * keys' writability. */
  g_settings_bind_with_mapping (settings, "count", self->count_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY,
                                count_to_widget, count_from_widget, self, NULL);
  g_settings_bind_with_mapping (settings, "size", self->size_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY,
                                size_to_widget, size_from_widget, self, NULL);
  g_settings_bind_with_mapping (settings, "units", self->units_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY,
                                units_to_widget, units_from_widget, self, NULL);
  self->unit = unit_of (units);
  dm_comparison_set_unit (self->comparison, self->unit);
  dm_zoom_set_percent (DM_ZOOM (self->zoom), g_settings_get_int (settings, "zoom"));

  load_profile_key (self);
  _dm_window_rebuild_grid (self);
  on_thresholds_changed (settings, "thresholds", self);

  for (guint i = 0; i < G_N_ELEMENTS (key_handlers); i++)
    {
      g_autofree char *signal = g_strconcat ("changed::", key_handlers[i].key, NULL);
      g_signal_connect (settings, signal, key_handlers[i].changed, self);
    }
  /* All / Read only / Write only, beside the unit (in the template), as
   * CrystalDiskMark offers them; _dm_window_sync_modes sets it from the
   * setting. */
  g_signal_connect_swapped (self->modes_dropdown, "notify::selected",
                            G_CALLBACK (on_modes_selected), self);
  /* Before the window's own handler, which may keep it open for a while. */
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), self);
  /* The footer's lines, an error shown or dismissed and the comparison
   * taking the grid's place change the content's height too. */
  g_signal_connect_swapped (self->footer_label, "notify::label",
                            G_CALLBACK (queue_fit_height), self);
  g_signal_connect_swapped (self->error_revealer, "notify::reveal-child",
                            G_CALLBACK (queue_fit_height), self);
  g_signal_connect_swapped (self->comparison, "notify::shown",
                            G_CALLBACK (queue_fit_height), self);
}

void
_dm_window_settings_stop (DmWindow *self)
{
  g_settings_unbind (self->count_dropdown, "selected");
  g_settings_unbind (self->size_dropdown, "selected");
  g_settings_unbind (self->units_dropdown, "selected");
  g_signal_handlers_disconnect_by_data (self->settings, self);
  g_signal_handlers_disconnect_by_func (self, on_close_request, self);
  g_signal_handlers_disconnect_by_data (self->footer_label, self);
  g_signal_handlers_disconnect_by_data (self->error_revealer, self);
  g_signal_handlers_disconnect_by_func (self->comparison, queue_fit_height, self);
  g_clear_handle_id (&self->fit_height_source, g_source_remove);
}
