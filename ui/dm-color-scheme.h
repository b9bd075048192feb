/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The light or dark style the desktop asks for. GTK 4.8 without libadwaita
 * does not follow the desktop's switch by itself; the settings portal
 * tells it, on GNOME and KDE, and the application listens while it runs.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* From startup: the style as the portal says now, and whenever it changes. */
void dm_color_scheme_follow   (GApplication *app);
/* At shutdown: stops listening. */
void dm_color_scheme_unfollow (GApplication *app);

G_END_DECLS
