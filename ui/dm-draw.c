/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Label drawing for the self-drawn widgets. The text is laid out with the
 * widget's own Pango context, so it takes the user's font and scaling, and
 * only its size and weight are changed here.
 */
#include "dm-draw.h"

void
dm_draw_get_foreground (GtkWidget *widget,
                        GdkRGBA   *fg)
{
  /* gtk_widget_get_color() arrived in GTK 4.10; Diskmeter builds on 4.8,
   * where the style context is the only way to the theme's colour. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
G_GNUC_END_IGNORE_DEPRECATIONS
}

void
dm_draw_text (GtkWidget  *widget,
              cairo_t    *cr,
              const char *text,
              double      x,
              double      y,
              double      xalign,
              double      yalign,
              gboolean    bold,
              double      scale)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (
      pango_context_get_font_description (pango_layout_get_context (layout)));
  int w, h;

  pango_font_description_set_size (font, pango_font_description_get_size (font) * scale);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * xalign, y - h * yalign);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}
