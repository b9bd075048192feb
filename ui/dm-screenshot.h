/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PNG of a whole window as it is on screen, header bar included, on an
 * opaque background: the main window's Save Screenshot and the sweep
 * window's Save PNG draw the same way, and Save as PDF draws the same
 * render node as vectors.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* background_from supplies the theme's background colour (any widget
 * inside the window). */
gboolean dm_screenshot_save (GtkWidget   *window,
                             GtkWidget   *background_from,
                             const char  *path,
                             GError     **error);
/* The same drawn at scale times the window's size (2: a crisp image for a
 * report, whatever the screen's own scale). */
gboolean dm_screenshot_save_scaled (GtkWidget   *window,
                                    GtkWidget   *background_from,
                                    double       scale,
                                    const char  *path,
                                    GError     **error);

/* What those draw, before it becomes pixels: the window's children at
 * their places over the background, scaled; NULL with error when the
 * window is not on screen. */
GskRenderNode *dm_screenshot_node (GtkWidget   *window,
                                   GtkWidget   *background_from,
                                   double       scale,
                                   GError     **error);

G_END_DECLS
