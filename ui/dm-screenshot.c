/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Renders a window's children into one texture with the window's own
 * renderer, so the PNG matches what is on screen pixel for pixel, fonts and
 * theme included, without asking the windowing system for a grab.
 */
#include "dm-screenshot.h"
#include "dm-i18n-ui.h"
#include "dm-platform.h"

#include <math.h>

gboolean
dm_screenshot_save (GtkWidget   *widget,
                    GtkWidget   *background_from,
                    const char  *path,
                    GError     **error)
{
  return dm_screenshot_save_scaled (widget, background_from, 1, path, error);
}

GskRenderNode *
dm_screenshot_node (GtkWidget  *widget,
                    GtkWidget  *background_from,
                    double      scale,
                    GError    **error)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = NULL;
  GskRenderNode *node;
  GtkSnapshot *snapshot;
  GdkRGBA background;

  if (width <= 0 || height <= 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not on screen yet, so there is nothing to save"));
      return NULL;
    }

  /* An opaque background under the window's rounded corners, so the image
   * looks the same pasted on a white page or a dark forum. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (background_from),
                                       "theme_bg_color", &background))
    background = (GdkRGBA) { 0.96, 0.96, 0.96, 1 };
G_GNUC_END_IGNORE_DEPRECATIONS
  background.alpha = 1;

  /* The window itself is a GtkNative whose own snapshot the paintable does
   * not replay, so its children (header bar and content) are drawn one by
   * one at their places. */
  snapshot = gtk_snapshot_new ();
  /* Vector drawing scaled, not pixels stretched: text and lines stay sharp. */
  gtk_snapshot_scale (snapshot, (float) scale, (float) scale);
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (!gtk_widget_get_visible (child) || !gtk_widget_compute_bounds (child, widget, &bounds))
        continue;
      paintable = gtk_widget_paintable_new (child);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &bounds.origin);
      gdk_paintable_snapshot (paintable, snapshot, bounds.size.width, bounds.size.height);
      gtk_snapshot_restore (snapshot);
      g_clear_object (&paintable);
    }
  node = gtk_snapshot_free_to_node (snapshot);
  if (!node)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing was drawn"));
  return node;
}

gboolean
dm_screenshot_save_scaled (GtkWidget   *widget,
                           GtkWidget   *background_from,
                           double       scale,
                           const char  *path,
                           GError     **error)
{
  int png_width = (int) ceil (gtk_widget_get_width (widget) * scale);
  int png_height = (int) ceil (gtk_widget_get_height (widget) * scale);
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GBytes) png = NULL;
  int err;
  GskRenderer *renderer;
  GtkNative *native;

  native = gtk_widget_get_native (widget);
  renderer = native ? gtk_native_get_renderer (native) : NULL;
  if (!renderer)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not on screen yet, so there is nothing to save"));
      return FALSE;
    }
  node = dm_screenshot_node (widget, background_from, scale, error);
  if (!node)
    return FALSE;
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, png_width, png_height));
  png = texture ? gdk_texture_save_to_png_bytes (texture) : NULL;
  if (!png)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write the screenshot to %s"),
                   path);
      return FALSE;
    }
  /* Written by the rules of every other output (a link stays a link, a
   * file keeps its mode), not gdk_texture_save_to_png's
   * g_file_set_contents, which replaces a link by a file. */
  err = dm_file_replace_contents (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  if (err < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-err), _("Could not save %s: %s"),
                   path, dm_strerror (err));
      return FALSE;
    }
  return TRUE;
}
