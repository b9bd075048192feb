/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Diskmeter's GtkApplication: what the command line (dm-app-options.h)
 * asks of the windows, the application-wide actions (settings, about,
 * quit), and the light or dark style the desktop asks for
 * (dm-color-scheme.h).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_APPLICATION_ID "io.github.diskmeter.Diskmeter"

#define DM_TYPE_APPLICATION (dm_application_get_type ())
G_DECLARE_FINAL_TYPE (DmApplication, dm_application, DM, APPLICATION, GtkApplication)

DmApplication *dm_application_new             (void);
/* The process's exit status once the main loop ends (scripted runs). */
int            dm_application_get_exit_status (DmApplication *self);

G_END_DECLS
