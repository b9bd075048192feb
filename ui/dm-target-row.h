/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The holder of one row of the target popup: it asks for the width its
 * labels want, but never for more than its window has, so a long path or
 * model widens the popup up to the window's width and is shortened there.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_TARGET_ROW (dm_target_row_get_type ())
G_DECLARE_FINAL_TYPE (DmTargetRow, dm_target_row, DM, TARGET_ROW, GtkWidget)

/* A row holding child (floating references are sunk). */
GtkWidget *dm_target_row_new (GtkWidget *child);

G_END_DECLS
