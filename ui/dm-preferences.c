/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Timing values are bound straight to their keys, so they take effect at
 * once; the row definitions are checked with the engine's own parser and
 * only written, together with profile=custom, when every row parses.
 */
#include "dm-preferences.h"
#include "dm-i18n-ui.h"

#include "dm-format.h"
#include "dm-profile.h"
#include "dm-spec.h"
#include "dm-ui.h"
#include "dm-warmup-setting.h"

struct _DmPreferences
{
  GtkWindow    parent_instance;

  GtkWidget   *measure_spin;
  GtkWidget   *interval_spin;
  GtkWidget   *warmup_spin;
  GtkWidget   *warmup_steady_entry;
  GtkWidget   *warmup_error;
  guint        warmup_idle;     /* the steady form's check, once the edit is over */
  GtkDropDown *data_dropdown;
  GtkWidget   *mix_spin;
  GtkWidget   *rows_box;
  GtkWidget   *rows_error;
  GtkWidget   *row_entries[DM_GRID_MAX_ROWS];

  GSettings   *settings;
};

G_DEFINE_FINAL_TYPE (DmPreferences, dm_preferences, GTK_TYPE_WINDOW)

/* Kept only when the engine reads it, as --warmup would; the reason is
 * shown under it otherwise. While steady, the seconds are not used. */
static gboolean
check_warmup_steady (gpointer data)
{
  DmPreferences *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->warmup_steady_entry));
  char why[200] = "";
  gboolean ok = dm_warmup_setting_check (text, why, sizeof why);

  if (ok)
    {
      g_autofree char *kept = g_settings_get_string (self->settings, "warmup-steady");

      if (g_strcmp0 (kept, text) != 0)
        g_settings_set_string (self->settings, "warmup-steady", text);
    }
  else
    {
      g_autofree char *msg = g_strdup_printf (_("Warm-up: %s"), why);

      gtk_label_set_text (GTK_LABEL (self->warmup_error), msg);
    }
  gtk_widget_set_visible (self->warmup_error, !ok);
  gtk_widget_set_sensitive (self->warmup_spin, !(ok && text[0]));
  self->warmup_idle = 0;
  return G_SOURCE_REMOVE;
}

/* Once the main loop is idle: replacing the text is a deletion and an
 * insertion, and the empty text between them would turn steady off. */
static void
on_warmup_steady_changed (DmPreferences *self)
{
  if (!self->warmup_idle)
    self->warmup_idle = g_idle_add (check_warmup_steady, self);
}

static void
fill_rows (DmPreferences    *self,
           const dm_spec    *specs,
           guint             n)
{
  for (guint i = 0; i < DM_GRID_MAX_ROWS; i++)
    {
      char name[64] = "";

      if (i < n)
        dm_spec_name (&specs[i], name, sizeof name);
      gtk_editable_set_text (GTK_EDITABLE (self->row_entries[i]), name);
    }
  gtk_label_set_text (GTK_LABEL (self->rows_error), "");
}

static void
on_fill_clicked (DmPreferences *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "profile");
  const dm_profile *profile = dm_profile_find (name);
  const dm_spec *specs;
  unsigned n;

  if (!profile)
    profile = dm_profile_find ("default");
  specs = dm_profile_specs (profile, g_settings_get_boolean (self->settings, "nvme"), &n);
  fill_rows (self, specs, n);
}

static void
on_use_custom_clicked (DmPreferences *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) names = NULL;
  guint n = 0;

  for (guint i = 0; i < DM_GRID_MAX_ROWS; i++)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->row_entries[i]));
      g_autofree char *trimmed = g_strstrip (g_strdup (text));
      dm_spec spec;
      char why[160];
      char name[64];

      if (trimmed[0] == '\0')
        continue;
      if (dm_spec_parse (trimmed, &spec, why, sizeof why) != 0)
        {
          g_autofree char *m = g_strdup_printf (_("Row %u: %s"), i + 1, why);
          gtk_label_set_text (GTK_LABEL (self->rows_error), m);
          gtk_widget_grab_focus (self->row_entries[i]);
          return;
        }
      dm_spec_name (&spec, name, sizeof name);
      g_strv_builder_add (builder, name);
      n++;
    }
  if (n == 0)
    {
      gtk_label_set_text (GTK_LABEL (self->rows_error), _("Give at least one test."));
      return;
    }
  names = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "custom-tests", (const char *const *) names);
  g_settings_set_string (self->settings, "profile", "custom");
  gtk_label_set_text (GTK_LABEL (self->rows_error), "");
}

static void
on_data_selected (DmPreferences *self)
{
  guint i = gtk_drop_down_get_selected (self->data_dropdown);

  g_settings_set_string (self->settings, "test-data", i == 1 ? "zeros" : "random");
}

static void
on_mix_changed (DmPreferences *self)
{
  int v = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->mix_spin));

  if (v != g_settings_get_int (self->settings, "mix-ratio"))
    g_settings_set_int (self->settings, "mix-ratio", v);
}

static void
dm_preferences_dispose (GObject *object)
{
  DmPreferences *self = DM_PREFERENCES (object);

  g_clear_handle_id (&self->warmup_idle, g_source_remove);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (dm_preferences_parent_class)->dispose (object);
}

static void
dm_preferences_class_init (DmPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_preferences_dispose;
  dm_ui_init ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, measure_spin);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, warmup_spin);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, warmup_steady_entry);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, warmup_error);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, data_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, mix_spin);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, rows_box);
  gtk_widget_class_bind_template_child (widget_class, DmPreferences, rows_error);
  gtk_widget_class_bind_template_callback (widget_class, on_fill_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_use_custom_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dm_preferences_init (DmPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < DM_GRID_MAX_ROWS; i++)
    {
      g_autofree char *placeholder = g_strdup_printf ("Row %u (empty: no row)", i + 1);

      self->row_entries[i] = gtk_entry_new ();
      gtk_entry_set_placeholder_text (GTK_ENTRY (self->row_entries[i]), placeholder);
      gtk_box_append (GTK_BOX (self->rows_box), self->row_entries[i]);
    }
}

DmPreferences *
dm_preferences_new (GSettings *settings)
{
  DmPreferences *self = g_object_new (DM_TYPE_PREFERENCES, NULL);
  g_autofree char *data = g_settings_get_string (settings, "test-data");
  g_autofree char *profile = g_settings_get_string (settings, "profile");

  self->settings = g_object_ref (settings);
  g_settings_bind (settings, "measure-time", self->measure_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "interval", self->interval_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "warmup", self->warmup_spin, "value", G_SETTINGS_BIND_DEFAULT);
  {
    g_autofree char *steady = g_settings_get_string (settings, "warmup-steady");

    gtk_editable_set_text (GTK_EDITABLE (self->warmup_steady_entry), steady);
    g_signal_connect_swapped (self->warmup_steady_entry, "changed",
                              G_CALLBACK (on_warmup_steady_changed), self);
    check_warmup_steady (self);
  }
  gtk_drop_down_set_selected (self->data_dropdown, g_strcmp0 (data, "zeros") == 0 ? 1 : 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->mix_spin),
                             g_settings_get_int (settings, "mix-ratio"));
  g_signal_connect_swapped (self->data_dropdown, "notify::selected",
                            G_CALLBACK (on_data_selected), self);
  g_signal_connect_swapped (self->mix_spin, "value-changed", G_CALLBACK (on_mix_changed), self);

  if (g_strcmp0 (profile, "custom") == 0)
    {
      g_auto (GStrv) names = g_settings_get_strv (settings, "custom-tests");
      dm_spec specs[DM_GRID_MAX_ROWS];
      guint n = 0;

      for (guint i = 0; names[i] && n < DM_GRID_MAX_ROWS; i++)
        if (dm_spec_parse (names[i], &specs[n], NULL, 0) == 0)
          n++;
      if (n > 0)
        fill_rows (self, specs, n);
      else
        on_fill_clicked (self);
    }
  else
    on_fill_clicked (self);
  return self;
}
