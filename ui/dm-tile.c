/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grid's cell widget. It has no children: the rounded background comes
 * from CSS (the "tile" class), the meter and the digits are appended to the
 * snapshot here, so a live update costs one small redraw and no relayout.
 */
#include "dm-tile.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"

struct _DmTile
{
  GtkWidget    parent_instance;

  char        *digits;       /* "1234.56", already in the grid's unit */
  double       fraction;     /* meter, 0..1 */
  DmTileState  state;
  PangoLayout *layout;       /* cached; rebuilt when the digits change */
  char        *description;  /* what assistive technology hears */
};

G_DEFINE_FINAL_TYPE (DmTile, dm_tile, GTK_TYPE_WIDGET)

#define TILE_PAD_X   12
#define TILE_MIN_W   168
#define TILE_MIN_H   58
#define METER_STRIP  4

static void
dm_tile_ensure_layout (DmTile *self)
{
  PangoAttrList *attrs;
  PangoFontDescription *font;

  if (self->layout)
    return;

  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->digits);
  font = pango_font_description_new ();
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_font_description_set_absolute_size (font, 28 * PANGO_SCALE);
  pango_layout_set_font_description (self->layout, font);
  pango_font_description_free (font);

  /* Tabular figures keep the digits still while a live value changes. */
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (self->layout, attrs);
  pango_attr_list_unref (attrs);
}

static void
dm_tile_measure (GtkWidget      *widget,
                 GtkOrientation  orientation,
                 int             for_size,
                 int            *minimum,
                 int            *natural,
                 int            *minimum_baseline,
                 int            *natural_baseline)
{
  DmTile *self = DM_TILE (widget);
  int w, h;

  dm_tile_ensure_layout (self);
  pango_layout_get_pixel_size (self->layout, &w, &h);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = MAX (TILE_MIN_W, w + 2 * TILE_PAD_X);
  else
    *minimum = *natural = MAX (TILE_MIN_H, h + 12);
}

static void
dm_tile_snapshot (GtkWidget   *widget,
                  GtkSnapshot *snapshot)
{
  DmTile *self = DM_TILE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  GdkRGBA meter = { 0.21, 0.52, 0.89, 1.0 };  /* the blue of the meter strip */
  GdkRGBA fill = meter;
  GskRoundedRect clip;
  int tw, th;

  dm_draw_get_foreground (widget, &fg);

  if (self->state == DM_TILE_FAILED)
    meter = (GdkRGBA) { 0.88, 0.11, 0.14, 1.0 };
  fill = meter;
  fill.alpha = 0.16;

  /* The meter stays inside the tile's rounded corners. */
  gsk_rounded_rect_init_from_rect (&clip, &GRAPHENE_RECT_INIT (0, 0, width, height), 6);
  gtk_snapshot_push_rounded_clip (snapshot, &clip);
  if (self->fraction > 0)
    {
      float w = (float) round (self->fraction * width);

      gtk_snapshot_append_color (snapshot, &fill, &GRAPHENE_RECT_INIT (0, 0, w, height));
      gtk_snapshot_append_color (snapshot, &meter,
                                 &GRAPHENE_RECT_INIT (0, height - METER_STRIP, w, METER_STRIP));
    }
  gtk_snapshot_pop (snapshot);

  dm_tile_ensure_layout (self);
  pango_layout_get_pixel_size (self->layout, &tw, &th);
  if (self->state == DM_TILE_IDLE)
    fg.alpha *= 0.35;
  else if (self->state == DM_TILE_FAILED)
    fg = meter;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (width - TILE_PAD_X - tw,
                                                (height - METER_STRIP - th) / 2.0f + 1));
  gtk_snapshot_append_layout (snapshot, self->layout, &fg);
  gtk_snapshot_restore (snapshot);
}

static void
dm_tile_css_changed (GtkWidget         *widget,
                     GtkCssStyleChange *change)
{
  DmTile *self = DM_TILE (widget);

  GTK_WIDGET_CLASS (dm_tile_parent_class)->css_changed (widget, change);
  /* A new font or scale from the theme needs a new layout. */
  g_clear_object (&self->layout);
  gtk_widget_queue_resize (widget);
}

static void
dm_tile_finalize (GObject *object)
{
  DmTile *self = DM_TILE (object);

  g_clear_object (&self->layout);
  g_free (self->digits);
  g_free (self->description);
  G_OBJECT_CLASS (dm_tile_parent_class)->finalize (object);
}

static void
dm_tile_class_init (DmTileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = dm_tile_finalize;
  widget_class->measure = dm_tile_measure;
  widget_class->snapshot = dm_tile_snapshot;
  widget_class->css_changed = dm_tile_css_changed;

  gtk_widget_class_set_css_name (widget_class, "tile");
  /* A tile is a gauge: a value within a range, which is what the meter bar
   * shows; its label says which test, column and unit it belongs to. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_METER);
}

static void
dm_tile_init (DmTile *self)
{
  self->digits = g_strdup ("0.00");
  gtk_widget_add_css_class (GTK_WIDGET (self), "idle");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, 100.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, 0.0,
                                  -1);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
}

GtkWidget *
dm_tile_new (void)
{
  return g_object_new (DM_TYPE_TILE, NULL);
}

void
dm_tile_set_figure (DmTile     *self,
                    const char *digits,
                    double      fraction)
{
  g_return_if_fail (DM_IS_TILE (self));

  fraction = isfinite (fraction) ? CLAMP (fraction, 0.0, 1.0) : 0.0;
  if (g_strcmp0 (digits, self->digits) == 0 && fabs (fraction - self->fraction) < 1e-4)
    return;

  if (g_strcmp0 (digits, self->digits) != 0)
    {
      size_t old_len = strlen (self->digits);

      g_free (self->digits);
      self->digits = g_strdup (digits);
      if (self->layout)
        pango_layout_set_text (self->layout, self->digits, -1);
      /* Only a longer or shorter figure can change the tile's size. */
      if (strlen (self->digits) != old_len)
        gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  self->fraction = fraction;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, fraction * 100,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, self->digits,
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
dm_tile_set_state (DmTile      *self,
                   DmTileState  state)
{
  static const char *classes[] = { "idle", "running", "done", "failed" };

  g_return_if_fail (DM_IS_TILE (self));

  if (self->state == state)
    return;
  gtk_widget_remove_css_class (GTK_WIDGET (self), classes[self->state]);
  self->state = state;
  gtk_widget_add_css_class (GTK_WIDGET (self), classes[self->state]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

DmTileState
dm_tile_get_state (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), DM_TILE_IDLE);
  return self->state;
}

const char *
dm_tile_get_digits (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), NULL);
  return self->digits;
}

double
dm_tile_get_fraction (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), 0);
  return self->fraction;
}

void
dm_tile_set_description (DmTile     *self,
                         const char *description)
{
  g_return_if_fail (DM_IS_TILE (self));

  /* Called at every progress tick; assistive technology only hears about
   * a change. */
  if (g_strcmp0 (description, self->description) == 0)
    return;
  g_free (self->description);
  self->description = g_strdup (description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, description,
                                  -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), description);
}
