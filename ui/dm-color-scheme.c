/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Follows the desktop's light or dark style through the settings portal
 * (org.freedesktop.portal.Settings, color-scheme): read once at startup,
 * then on every change, for as long as the application runs.
 */
#include "dm-color-scheme.h"

#include <string.h>

static void
apply_color_scheme (GVariant *value)
{
  guint32 scheme = 0;
  g_autoptr (GVariant) inner = NULL;

  /* Read() wraps the value in one or two variants depending on the portal
   * version; unwrap until the uint32. */
  inner = g_variant_ref (value);
  while (g_variant_is_of_type (inner, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (inner);
      g_variant_unref (inner);
      inner = next;
    }
  if (g_variant_is_of_type (inner, G_VARIANT_TYPE_UINT32))
    scheme = g_variant_get_uint32 (inner);
  /* 1 is "prefer dark"; 0 and 2 are light. */
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", scheme == 1,
                NULL);
}

static void
on_portal_setting_changed (GDBusConnection *bus,
                           const char      *sender,
                           const char      *path,
                           const char      *iface,
                           const char      *signal,
                           GVariant        *params,
                           gpointer         data)
{
  const char *ns, *key;
  g_autoptr (GVariant) value = NULL;

  g_variant_get (params, "(&s&sv)", &ns, &key, &value);
  if (!strcmp (ns, "org.freedesktop.appearance") && !strcmp (key, "color-scheme"))
    apply_color_scheme (value);
}

static void
on_portal_read (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                              NULL);
  g_autoptr (GVariant) value = NULL;

  if (!reply)
    return;  /* no portal: keep the theme's own choice */
  g_variant_get (reply, "(v)", &value);
  apply_color_scheme (value);
}

/* The session bus and the portal's signal, while the application runs. */
typedef struct
{
  GDBusConnection *bus;
  guint            signal;
} Follow;

static void
follow_free (gpointer data)
{
  Follow *f = data;

  g_dbus_connection_signal_unsubscribe (f->bus, f->signal);
  g_object_unref (f->bus);
  g_free (f);
}

static void
on_bus (GObject      *source,
        GAsyncResult *result,
        gpointer      data)
{
  GApplication *app = data;
  GDBusConnection *bus = g_bus_get_finish (result, NULL);
  Follow *f;

  if (!bus)
    {
      g_object_unref (app);
      return;
    }
  f = g_new0 (Follow, 1);
  f->bus = bus;
  f->signal =
    g_dbus_connection_signal_subscribe (bus, "org.freedesktop.portal.Desktop",
                                        "org.freedesktop.portal.Settings", "SettingChanged",
                                        "/org/freedesktop/portal/desktop", NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_portal_setting_changed,
                                        NULL, NULL);
  g_object_set_data_full (G_OBJECT (app), "dm-color-scheme", f, follow_free);
  g_dbus_connection_call (bus, "org.freedesktop.portal.Desktop",
                          "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                          "Read", g_variant_new ("(ss)", "org.freedesktop.appearance",
                                                 "color-scheme"),
                          G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, 2000, NULL,
                          on_portal_read, NULL);
  g_object_unref (app);
}

void
dm_color_scheme_follow (GApplication *app)
{
  g_bus_get (G_BUS_TYPE_SESSION, NULL, on_bus, g_object_ref (app));
}

void
dm_color_scheme_unfollow (GApplication *app)
{
  g_object_set_data (G_OBJECT (app), "dm-color-scheme", NULL);
}
