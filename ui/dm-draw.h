/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small cairo helpers shared by the widgets that draw themselves (the heat
 * map, the latency chart, the tiles), so their labels are set the same way
 * and follow the theme's text colour.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The theme's text colour for widget. */
void dm_draw_get_foreground (GtkWidget *widget,
                             GdkRGBA   *fg);

/* Draws text in the widget's font, scaled and optionally bold, in the
 * current source colour; (xalign, yalign) is the point of the text's box
 * put at (x, y): 0, 0 its top left, 0.5, 0.5 its middle. */
void dm_draw_text           (GtkWidget  *widget,
                             cairo_t    *cr,
                             const char *text,
                             double      x,
                             double      y,
                             double      xalign,
                             double      yalign,
                             gboolean    bold,
                             double      scale);

G_END_DECLS
