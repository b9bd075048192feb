/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window's Study… and study-* actions (dm-study-actions.c),
 * installed on its class by dm-window-actions.c so the application
 * forwards them to D-Bus as it does every win.* action.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void dm_study_actions_install (GtkWidgetClass *widget_class);

G_END_DECLS
