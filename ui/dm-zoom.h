/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window's zoom, 100 % to 300 % as CrystalDiskMark's Zoom menu: a
 * widget between a window and its content that lays the content out
 * smaller and draws it scaled, so everything grows together and stays sharp.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_ZOOM_MIN 100
#define DM_ZOOM_MAX 300

#define DM_TYPE_ZOOM (dm_zoom_get_type ())
G_DECLARE_FINAL_TYPE (DmZoom, dm_zoom, DM, ZOOM, GtkWidget)

GtkWidget  *dm_zoom_new           (GtkWidget *child);
/* Clamped to DM_ZOOM_MIN..DM_ZOOM_MAX; 100 until set. Also the "percent"
 * property, which another zoom can be bound to. */
void        dm_zoom_set_percent   (DmZoom    *self,
                                   int        percent);
int         dm_zoom_get_percent   (DmZoom    *self);
/* The next zoom step up (direction 1), down (-1), or 100 % (0). */
int         dm_zoom_step          (int        percent,
                                   int        direction);

G_END_DECLS
