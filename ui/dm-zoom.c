/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's zoom, like CrystalDiskMark's Zoom menu (100 % to 300 %): one
 * widget between the window and its content lays the content out at its
 * own size divided by the zoom and draws it scaled, so every control, tile
 * and label grows together and stays sharp (text is drawn at the size it
 * appears, not stretched from pixels). The window has two, one around its
 * content and one around its header bar, the second following the first's
 * "percent", so the title and its buttons grow too.
 */
#include "dm-zoom.h"

#include <math.h>

struct _DmZoom
{
  GtkWidget  parent_instance;

  GtkWidget *child;
  double     scale;
};

G_DEFINE_FINAL_TYPE (DmZoom, dm_zoom, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_PERCENT, N_PROPS };
static GParamSpec *properties[N_PROPS];

static GtkSizeRequestMode
dm_zoom_get_request_mode (GtkWidget *widget)
{
  DmZoom *self = DM_ZOOM (widget);

  return self->child ? gtk_widget_get_request_mode (self->child)
                     : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
dm_zoom_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  DmZoom *self = DM_ZOOM (widget);
  int min = 0, nat = 0;

  if (self->child)
    gtk_widget_measure (self->child, orientation,
                        for_size < 0 ? -1 : (int) floor (for_size / self->scale),
                        &min, &nat, NULL, NULL);
  *minimum = (int) ceil (min * self->scale);
  *natural = (int) ceil (nat * self->scale);
}

static void
dm_zoom_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  DmZoom *self = DM_ZOOM (widget);

  if (!self->child)
    return;
  gtk_widget_allocate (self->child, (int) floor (width / self->scale),
                       (int) floor (height / self->scale), -1,
                       gsk_transform_scale (NULL, (float) self->scale, (float) self->scale));
}

static void
dm_zoom_dispose (GObject *object)
{
  DmZoom *self = DM_ZOOM (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS (dm_zoom_parent_class)->dispose (object);
}

static void
dm_zoom_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  if (prop_id == PROP_PERCENT)
    g_value_set_int (value, dm_zoom_get_percent (DM_ZOOM (object)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
dm_zoom_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  if (prop_id == PROP_PERCENT)
    dm_zoom_set_percent (DM_ZOOM (object), g_value_get_int (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
dm_zoom_class_init (DmZoomClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_zoom_dispose;
  object_class->get_property = dm_zoom_get_property;
  object_class->set_property = dm_zoom_set_property;
  /* A property, so a second zoom (the header bar's) can follow the
   * content's with g_object_bind_property. */
  properties[PROP_PERCENT] =
    g_param_spec_int ("percent", NULL, NULL, DM_ZOOM_MIN, DM_ZOOM_MAX, DM_ZOOM_MIN,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->get_request_mode = dm_zoom_get_request_mode;
  widget_class->measure = dm_zoom_measure;
  widget_class->size_allocate = dm_zoom_size_allocate;
}

static void
dm_zoom_init (DmZoom *self)
{
  self->scale = 1;
}

GtkWidget *
dm_zoom_new (GtkWidget *child)
{
  DmZoom *self = g_object_new (DM_TYPE_ZOOM, NULL);

  self->child = child;
  gtk_widget_set_parent (child, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

void
dm_zoom_set_percent (DmZoom *self,
                            int           percent)
{
  double scale = CLAMP (percent, DM_ZOOM_MIN, DM_ZOOM_MAX) / 100.0;

  if (scale == self->scale)
    return;
  self->scale = scale;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERCENT]);
}

int
dm_zoom_get_percent (DmZoom *self)
{
  return (int) lround (self->scale * 100);
}

/* CrystalDiskMark's steps; a percentage set by hand (GSettings, 175)
 * steps to the next one up or down. */
static const int zoom_steps[] = { 100, 125, 150, 200, 250, 300 };

int
dm_zoom_step (int percent,
                     int direction)
{
  if (direction == 0)
    return 100;
  if (direction > 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (zoom_steps); i++)
        if (zoom_steps[i] > percent)
          return zoom_steps[i];
      return DM_ZOOM_MAX;
    }
  for (guint i = G_N_ELEMENTS (zoom_steps); i-- > 0;)
    if (zoom_steps[i] < percent)
      return zoom_steps[i];
  return DM_ZOOM_MIN;
}
