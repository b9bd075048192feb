/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Settings window: run timing, test data, the Mix share and the test
 * definition of each row. It only writes GSettings keys; the main window
 * follows them.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_PREFERENCES (dm_preferences_get_type ())
G_DECLARE_FINAL_TYPE (DmPreferences, dm_preferences, DM, PREFERENCES, GtkWindow)

DmPreferences *dm_preferences_new (GSettings *settings);

G_END_DECLS
