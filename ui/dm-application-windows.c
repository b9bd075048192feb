/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application's windows beside the grid: Preferences, About, and the
 * tool windows its menu opens (Sweep, Sustained, Cache Probe, Capture),
 * each with the application's settings, and a saved cache probe opened in
 * its window. Apart from dm-application.c, whose command line is long enough.
 */
#include "dm-application-private.h"
#include "dm-i18n-ui.h"

#include "dm-cache-probe-window.h"
#include "dm-capture-window.h"
#include "dm-preferences.h"
#include "dm-report.h"
#include "dm-sustained-window.h"
#include "dm-sweep-window.h"
#include "dm-window.h"

void
_dm_application_action_preferences (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  DmApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWindow *prefs = GTK_WINDOW (dm_preferences_new (_dm_application_settings (self)));

  gtk_window_set_transient_for (prefs, parent);
  gtk_window_present (prefs);
}

void
_dm_application_action_about (GSimpleAction *action,
              GVariant      *param,
              gpointer       data)
{
  DmApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *authors[] = { "The Diskmeter developers", NULL };

  gtk_show_about_dialog (parent,
                         "program-name", "Diskmeter",
                         "logo-icon-name", DM_APPLICATION_ID,
                         "version", DM_VERSION,
                         "comments", _("Measure disk speed the way CrystalDiskMark does, "
                                       "on Linux and Windows."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         NULL);
}

/* A window of its own, beside the grid: a sweep takes minutes, and its
 * settings (size, timings, folder) are the grid's. */
void
_dm_application_action_sweep (GSimpleAction *action,
              GVariant      *param,
              gpointer       data)
{
  DmApplication *self = data;

  gtk_window_present (GTK_WINDOW (dm_sweep_window_new (GTK_APPLICATION (self), _dm_application_settings (self))));
}

/* The sustained test, in a window of its own as the sweep. */
void
_dm_application_action_sustained (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       data)
{
  DmApplication *self = data;

  gtk_window_present (GTK_WINDOW (dm_sustained_window_new (GTK_APPLICATION (self),
                                                           _dm_application_settings (self))));
}

/* The host-cache ladder, in a window of its own as the sweep. */
void
_dm_application_action_cache_probe (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  DmApplication *self = data;

  gtk_window_present (GTK_WINDOW (dm_cache_probe_window_new (GTK_APPLICATION (self),
                                                             _dm_application_settings (self))));
}

/* A captured workload as the grid's row: the main window loads its
 * profile file as it loads any (Open Profile…), and comes to the front. */
static gboolean
on_use_profile (DmCaptureWindow *capture,
                const char      *path,
                DmApplication   *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (DM_IS_WINDOW (l->data))
      {
        g_autofree char *now = NULL;

        /* A window that is running refuses it, saying so in its error bar. */
        g_object_set (l->data, "profile-file", path, NULL);
        g_object_get (l->data, "profile-file", &now, NULL);
        gtk_window_present (GTK_WINDOW (l->data));
        return g_strcmp0 (now, path) == 0;
      }
  return FALSE;
}

/* The capture, in a window of its own as the sweep. */
void
_dm_application_action_capture (GSimpleAction *action,
                                GVariant      *param,
                                gpointer       data)
{
  DmApplication *self = data;
  GtkWidget *window = dm_capture_window_new (GTK_APPLICATION (self),
                                             _dm_application_settings (self));

  g_signal_connect_object (window, "use-profile", G_CALLBACK (on_use_profile), self, 0);
  gtk_window_present (GTK_WINDOW (window));
}

int
_dm_application_open_probe (DmApplication *self,
                            const char    *path,
                            DmScript      *script,
                            GError       **error)
{
  GtkWidget *window;

  /* The Cache Probe window shows it; it has no scripted saves. */
  if (!dm_script_is_empty (script))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "a cache probe opens in the Cache Probe window, which takes no "
                           "--save-* or --quit-when-done");
      return 2;
    }
  window = dm_cache_probe_window_new (GTK_APPLICATION (self), _dm_application_settings (self));
  if (!dm_cache_probe_window_load (DM_CACHE_PROBE_WINDOW (window), path, error))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      return 1;
    }
  gtk_window_present (GTK_WINDOW (window));
  return 0;
}
