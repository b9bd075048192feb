/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What dm-application.c shares with dm-application-windows.c: the
 * settings, and the actions that open the windows beside the grid (their
 * rows stay in dm-application.c's table).
 */
#pragma once

#include "dm-application.h"
#include "dm-script.h"

G_BEGIN_DECLS

GSettings *_dm_application_settings (DmApplication *self);

void _dm_application_action_preferences (GSimpleAction *action, GVariant *param, gpointer data);
void _dm_application_action_about       (GSimpleAction *action, GVariant *param, gpointer data);
void _dm_application_action_sweep       (GSimpleAction *action, GVariant *param, gpointer data);
void _dm_application_action_sustained   (GSimpleAction *action, GVariant *param, gpointer data);
void _dm_application_action_cache_probe (GSimpleAction *action, GVariant *param, gpointer data);
void _dm_application_action_capture     (GSimpleAction *action, GVariant *param, gpointer data);

/* --open of a saved cache probe: shown in a Cache Probe window. 0, or the
 * exit status with error (2: a script it cannot follow, 1: the file). */
int  _dm_application_open_probe (DmApplication *self,
                                 const char    *path,
                                 DmScript      *script,
                                 GError       **error);

G_END_DECLS
