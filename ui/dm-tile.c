/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grid's cell widget. It has no children: the rounded background comes
 * from CSS (the "tile" class), the meter and the digits are appended to the
 * snapshot here, so a live update costs one small redraw and no relayout.
 * A result the disk's own counters flagged gets a warning sign in the top
 * left corner, away from the right-aligned digits.
 */
#include "dm-tile.h"
#include "dm-i18n-ui.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"
#include "dm-format.h"
#include "dm-tooltip.h"

struct _DmTile
{
  GtkWidget    parent_instance;

  char        *digits;       /* "1234.56", already in the grid's unit */
  double       fraction;     /* meter, 0..1 */
  gboolean     has_figure;   /* digits are a figure, not the placeholder */
  DmTileState  state;
  PangoLayout *layout;       /* cached; rebuilt when the digits change */
  int          reserved_w;   /* the widest figure's width, 0 until measured */
  char        *description;  /* what assistive technology hears */
  gboolean     flagged;      /* the disk's counters flagged the result */
  char        *flags_spoken; /* the flags' sentences, for the label */
  char        *flags_tooltip; /* the same, one a line */
  char        *detail;       /* a workload row's other figures, or NULL */
  PangoLayout *detail_layout;
};

G_DEFINE_FINAL_TYPE (DmTile, dm_tile, GTK_TYPE_WIDGET)

#define TILE_PAD_X   12
#define TILE_MIN_W   168
#define TILE_MIN_H   58
#define METER_STRIP  4
#define BADGE_SIZE   16  /* the warning sign of a flagged tile */
#define BADGE_X      8
#define BADGE_Y      7
#define DETAIL_SIZE  11  /* px: the detail's lines, under the digits' 28 */

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
dm_tile_ensure_detail_layout (DmTile *self)
{
  PangoFontDescription *font;

  if (self->detail_layout || !self->detail)
    return;
  self->detail_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->detail);
  font = pango_font_description_new ();
  pango_font_description_set_absolute_size (font, DETAIL_SIZE * PANGO_SCALE);
  pango_layout_set_font_description (self->detail_layout, font);
  pango_font_description_free (font);
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
  /* Room for the widest figure of any unit, whatever the tile shows now:
   * switching MB/s to IOPS, or a live figure gaining a digit, must not
   * change the tiles' widths or the window's. */
  if (!self->reserved_w)
    {
      g_autofree char *widest = dm_format_value (999999.99, DM_UNIT_MBPS);

      pango_layout_set_text (self->layout, widest, -1);
      pango_layout_get_pixel_size (self->layout, &self->reserved_w, NULL);
      pango_layout_set_text (self->layout, self->digits, -1);
    }
  w = MAX (w, self->reserved_w);
  /* A flagged tile keeps room for its sign left of the widest figure. */
  if (self->flagged)
    w += BADGE_X + BADGE_SIZE;
  /* A wide tile's detail sits left of the figure, never under it. */
  if (self->detail)
    {
      int dw, dh;

      dm_tile_ensure_detail_layout (self);
      pango_layout_get_pixel_size (self->detail_layout, &dw, &dh);
      w += dw + 2 * TILE_PAD_X;
      h = MAX (h, dh);
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = MAX (TILE_MIN_W, w + 2 * TILE_PAD_X);
  else
    *minimum = *natural = MAX (TILE_MIN_H, h + 12);
}

/* An amber triangle with a dark "!", as a warning sign reads in any theme:
 * drawn into the snapshot, so screenshots keep it. */
static void
dm_tile_draw_badge (GtkSnapshot *snapshot)
{
  const double s = BADGE_SIZE;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot,
                                           &GRAPHENE_RECT_INIT (BADGE_X, BADGE_Y, s, s));

  cairo_translate (cr, BADGE_X, BADGE_Y);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_move_to (cr, s / 2, 1);
  cairo_line_to (cr, s - 0.5, s - 1);
  cairo_line_to (cr, 0.5, s - 1);
  cairo_close_path (cr);
  cairo_set_source_rgb (cr, 0.90, 0.65, 0.04);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.62, 0.42, 0.0);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);

  cairo_set_source_rgb (cr, 0.14, 0.12, 0.19);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, s / 2, s * 0.38);
  cairo_line_to (cr, s / 2, s * 0.64);
  cairo_stroke (cr);
  cairo_arc (cr, s / 2, s * 0.80, 1.1, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_destroy (cr);
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

  /* A failed tile's word is drawn in its meter's red: darker than the
   * usual red on a light theme, lighter on a dark one (light text), so it
   * reads at 4.5:1 or better over the tile's red tint either way. */
  if (self->state == DM_TILE_FAILED)
    meter = 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5
              ? (GdkRGBA) { 1.0, 0.6, 0.58, 1.0 }
              : (GdkRGBA) { 0.70, 0.08, 0.12, 1.0 };
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

  /* Left out of the run: no digits, so nobody takes it for a 0. */
  if (self->state == DM_TILE_NOT_RUN)
    return;

  dm_tile_ensure_layout (self);
  pango_layout_get_pixel_size (self->layout, &tw, &th);
  /* No figure yet (before a run, queued, or running before its first
   * sample): the unit's 0 in grey, one look everywhere and in every
   * screenshot; a figure is drawn in full. */
  if (self->state != DM_TILE_FAILED && !self->has_figure)
    fg.alpha *= 0.35;
  else if (self->state == DM_TILE_FAILED)
    fg = meter;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (width - TILE_PAD_X - tw,
                                                (height - METER_STRIP - th) / 2.0f + 1));
  gtk_snapshot_append_layout (snapshot, self->layout, &fg);
  gtk_snapshot_restore (snapshot);

  if (self->detail)
    {
      int dw, dh;

      dm_tile_ensure_detail_layout (self);
      pango_layout_get_pixel_size (self->detail_layout, &dw, &dh);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (TILE_PAD_X + (self->flagged ? BADGE_X + BADGE_SIZE : 0),
                                                    (height - METER_STRIP - dh) / 2.0f + 1));
      gtk_snapshot_append_layout (snapshot, self->detail_layout, &fg);
      gtk_snapshot_restore (snapshot);
    }

  if (self->flagged)
    dm_tile_draw_badge (snapshot);
}

static void
dm_tile_css_changed (GtkWidget         *widget,
                     GtkCssStyleChange *change)
{
  DmTile *self = DM_TILE (widget);

  GTK_WIDGET_CLASS (dm_tile_parent_class)->css_changed (widget, change);
  /* A new font or scale from the theme needs a new layout. */
  g_clear_object (&self->layout);
  g_clear_object (&self->detail_layout);
  self->reserved_w = 0;
  gtk_widget_queue_resize (widget);
}

static void
dm_tile_finalize (GObject *object)
{
  DmTile *self = DM_TILE (object);

  g_clear_object (&self->layout);
  g_clear_object (&self->detail_layout);
  g_free (self->detail);
  g_free (self->digits);
  g_free (self->description);
  g_free (self->flags_spoken);
  g_free (self->flags_tooltip);
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

/* digits is a figure (has_figure) or what stands for none yet. */
static void
dm_tile_show (DmTile     *self,
              const char *digits,
              double      fraction,
              gboolean    has_figure)
{
  fraction = isfinite (fraction) ? CLAMP (fraction, 0.0, 1.0) : 0.0;
  if (has_figure != self->has_figure)
    {
      self->has_figure = has_figure;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
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
dm_tile_set_figure (DmTile     *self,
                    const char *digits,
                    double      fraction)
{
  g_return_if_fail (DM_IS_TILE (self));
  dm_tile_show (self, digits, fraction, TRUE);
}

void
dm_tile_set_no_figure (DmTile     *self,
                       const char *placeholder)
{
  g_return_if_fail (DM_IS_TILE (self));
  dm_tile_show (self, placeholder, 0, FALSE);
}

gboolean
dm_tile_get_has_figure (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), FALSE);
  return self->has_figure;
}

void
dm_tile_set_state (DmTile      *self,
                   DmTileState  state)
{
  static const char *classes[] = { "idle", "running", "done", "failed", "not-run" };

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

/* The label and tooltip: the figure's sentence, then the flags' if any. */
static void
dm_tile_update_spoken (DmTile *self)
{
  g_autofree char *label = NULL;
  g_autofree char *tooltip = NULL;

  if (!self->description)
    return;
  if (self->flagged)
    {
      label = g_strdup_printf ("%s. %s", self->description, self->flags_spoken);
      tooltip = g_strdup_printf ("%s\n%s", self->description, self->flags_tooltip);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label ? label : self->description,
                                  -1);
  dm_tooltip_set (GTK_WIDGET (self), tooltip ? tooltip : self->description);
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
  dm_tile_update_spoken (self);
}

const char *
dm_tile_get_description (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), NULL);
  return self->description;
}

/* Lines of a detail, 0 for none. */
static guint
detail_lines (const char *detail)
{
  guint n = detail ? 1 : 0;

  for (const char *p = detail; p && *p; p++)
    n += *p == '\n';
  return n;
}

void
dm_tile_set_detail (DmTile     *self,
                    const char *detail)
{
  guint old_lines;

  g_return_if_fail (DM_IS_TILE (self));
  if (g_strcmp0 (detail, self->detail) == 0)
    return;
  /* Another line, or a longer one, can change the size; new figures of
   * the same length (most ticks of a live run) only redraw. */
  old_lines = detail_lines (self->detail);
  if (old_lines != detail_lines (detail) || !self->detail || !detail
      || strlen (self->detail) != strlen (detail))
    gtk_widget_queue_resize (GTK_WIDGET (self));
  g_free (self->detail);
  self->detail = g_strdup (detail);
  if (self->detail_layout && detail)
    pango_layout_set_text (self->detail_layout, detail, -1);
  else
    g_clear_object (&self->detail_layout);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
dm_tile_get_detail (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), NULL);
  return self->detail;
}

char *
dm_tile_describe_flags (const dm_result *res,
                        const char      *separator)
{
  dm_device_ask ask;
  GString *s;

  g_return_val_if_fail (separator, NULL);
  /* Not only the disk's counters flag a figure: the backend's own count
   * of the queue the system held needs none. */
  if (!res || (!res->device.flags && !res->advice.sentence[0]))
    return NULL;
  ask = dm_result_device_ask (res);
  s = g_string_new (NULL);
  for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
    {
      char why[240];

      if (!(res->device.flags & (1u << f)))
        continue;
      /* A flag judged on the disk's counters says nothing without them. */
      if (!res->device.counted && (1u << f) != DM_FLAG_QUEUE_NOT_HELD)
        continue;
      dm_device_flag_explain ((dm_device_flag) (1u << f), &res->device, &ask, why, sizeof why);
      /* The report's line reads "host bound: …"; alone, it is a sentence. */
      why[0] = g_ascii_toupper (why[0]);
      if (s->len)
        g_string_append (s, separator);
      g_string_append_printf (s, "%s.", why);
    }
  /* Where a flagged figure's time went: at the device or above it. */
  if (s->len)
    {
      char split[240];

      dm_device_split_explain (&res->device, split, sizeof split);
      if (split[0])
        g_string_append_printf (s, "%s%s.", separator, split);
    }
  /* What the machine's facts say limits the queue, and what to change:
   * the engine's sentence, as the report writes it. */
  if (res->advice.sentence[0])
    {
      if (s->len)
        g_string_append (s, separator);
      g_string_append_printf (s, _ ("Advice: %s."), res->advice.sentence);
      g_string_append (s, separator);
      g_string_append_printf (s, _ ("Change: %s."), res->advice.setting);
      g_string_append (s, separator);
      g_string_append_printf (s, _ ("Source: %s."), res->advice.source);
    }
  return g_string_free (s, s->len == 0);
}

void
dm_tile_set_device (DmTile          *self,
                    const dm_result *res)
{
  g_autofree char *spoken = NULL;
  gboolean flagged;

  g_return_if_fail (DM_IS_TILE (self));

  spoken = dm_tile_describe_flags (res, " ");
  flagged = spoken != NULL;
  if (flagged == self->flagged && g_strcmp0 (spoken, self->flags_spoken) == 0)
    return;
  g_free (self->flags_spoken);
  g_free (self->flags_tooltip);
  self->flags_spoken = g_steal_pointer (&spoken);
  self->flags_tooltip = dm_tile_describe_flags (res, "\n");
  if (flagged != self->flagged)
    {
      self->flagged = flagged;
      if (flagged)
        gtk_widget_add_css_class (GTK_WIDGET (self), "flagged");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self), "flagged");
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  dm_tile_update_spoken (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
dm_tile_get_flagged (DmTile *self)
{
  g_return_val_if_fail (DM_IS_TILE (self), FALSE);
  return self->flagged;
}
