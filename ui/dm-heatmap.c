/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws the sweep's heat map with cairo inside a GtkSnapshot. The colour
 * follows a log scale because a sweep's figures span decades (QD 1 to
 * QD 256 is often 50x in IOPS), and a linear scale would paint all but the
 * heaviest loads the same colour.
 */
#include "dm-heatmap.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"

#define TITLE_H    26.0
#define LEFT_W     64.0
#define BOTTOM_H   44.0
#define LEGEND_GAP 14.0
#define LEGEND_W   16.0
#define RIGHT_W    150.0  /* gap, colour bar, its labels and the marks' key */
#define PAD        6.0

struct _DmHeatmap
{
  GtkWidget parent_instance;

  char     *title;
  char     *unit;
  gboolean  lower_is_better;
  unsigned  qds[DM_HEATMAP_MAX_AXIS];
  guint     n_qds;
  unsigned  threads[DM_HEATMAP_MAX_AXIS];
  guint     n_threads;
  double    values[DM_HEATMAP_MAX_AXIS * DM_HEATMAP_MAX_AXIS];
  int       knee[2];    /* column, row; -1 for none */
  int       best[2];
};

G_DEFINE_FINAL_TYPE (DmHeatmap, dm_heatmap, GTK_TYPE_WIDGET)

/* --- scale and geometry ---------------------------------------------------- */

double
dm_heatmap_scale (double value,
                  double lo,
                  double hi)
{
  double t;

  if (!(value > 0) || !isfinite (value))
    return -1;
  if (!(lo > 0) || !(hi > lo))
    return 0.5;
  t = (log (value) - log (lo)) / (log (hi) - log (lo));
  return CLAMP (t, 0.0, 1.0);
}

void
dm_heatmap_colour (double   position,
                   GdkRGBA *colour)
{
  /* Viridis at five stops: it reads in grey print and to most colour-blind
   * eyes, and its ends (dark purple, yellow) are far apart. */
  static const float stops[][3] = {
    { 68 / 255.f, 1 / 255.f, 84 / 255.f },
    { 59 / 255.f, 82 / 255.f, 139 / 255.f },
    { 33 / 255.f, 145 / 255.f, 140 / 255.f },
    { 94 / 255.f, 201 / 255.f, 98 / 255.f },
    { 253 / 255.f, 231 / 255.f, 37 / 255.f },
  };
  double x = CLAMP (position, 0.0, 1.0) * 4;
  int i = MIN ((int) x, 3);
  double f = x - i;

  colour->red = stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f;
  colour->green = stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f;
  colour->blue = stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f;
  colour->alpha = 1;
}

gboolean
dm_heatmap_text_is_dark (const GdkRGBA *colour)
{
  double luma = 0.2126 * colour->red + 0.7152 * colour->green + 0.0722 * colour->blue;

  return luma > 0.45;
}

void
dm_heatmap_layout (DmHeatmapGeometry *g,
                   double             width,
                   double             height,
                   guint              n_columns,
                   guint              n_rows)
{
  double w = MAX (width - LEFT_W - RIGHT_W - PAD, 0);
  double h = MAX (height - TITLE_H - BOTTOM_H, 0);

  g->n_columns = MAX (n_columns, 1);
  g->n_rows = MAX (n_rows, 1);
  /* Whole pixels per cell, so neighbouring cells share crisp edges. */
  w = floor (w / g->n_columns) * g->n_columns;
  h = floor (h / g->n_rows) * g->n_rows;
  graphene_rect_init (&g->cells, LEFT_W, TITLE_H, w, h);
  graphene_rect_init (&g->legend, LEFT_W + w + LEGEND_GAP, TITLE_H, LEGEND_W, h);
}

void
dm_heatmap_cell_rect (const DmHeatmapGeometry *g,
                      guint                    column,
                      guint                    row,
                      graphene_rect_t         *rect)
{
  double cw = g->cells.size.width / g->n_columns;
  double ch = g->cells.size.height / g->n_rows;

  graphene_rect_init (rect, g->cells.origin.x + column * cw,
                      g->cells.origin.y + (g->n_rows - 1 - row) * ch, cw, ch);
}

/* --- drawing --------------------------------------------------------------- */

static char *
format_value (double v)
{
  if (v >= 100000)
    return g_strdup_printf ("%.0fk", v / 1000);
  if (v >= 100)
    return g_strdup_printf ("%.0f", v);
  if (v >= 10)
    return g_strdup_printf ("%.1f", v);
  return g_strdup_printf ("%.2f", v);
}

static void
outline_cell (cairo_t               *cr,
              const graphene_rect_t *r,
              double                 inset,
              const GdkRGBA         *colour,
              gboolean               dashed)
{
  static const double dash[] = { 6, 3 };

  cairo_save (cr);
  gdk_cairo_set_source_rgba (cr, colour);
  cairo_set_line_width (cr, 3);
  if (dashed)
    cairo_set_dash (cr, dash, 2, 0);
  cairo_rectangle (cr, r->origin.x + inset, r->origin.y + inset, r->size.width - 2 * inset,
                   r->size.height - 2 * inset);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static const GdkRGBA knee_colour = { 0.88, 0.11, 0.14, 1 };
static const GdkRGBA best_colour = { 1.0, 0.47, 0.0, 1 };

static void
draw (DmHeatmap *self,
      cairo_t   *cr,
      double     width,
      double     height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  DmHeatmapGeometry g;
  GdkRGBA fg, colour;
  double lo = INFINITY, hi = 0;
  g_autofree char *lo_text = NULL;
  g_autofree char *hi_text = NULL;

  dm_draw_get_foreground (widget, &fg);

  dm_heatmap_layout (&g, width, height, self->n_qds, self->n_threads);
  for (guint i = 0; i < self->n_qds * self->n_threads; i++)
    if (self->values[i] > 0 && isfinite (self->values[i]))
      {
        lo = MIN (lo, self->values[i]);
        hi = MAX (hi, self->values[i]);
      }

  gdk_cairo_set_source_rgba (cr, &fg);
  if (self->title)
    dm_draw_text (widget, cr, self->title, g.cells.origin.x + g.cells.size.width / 2, 2, 0.5, 0,
                  TRUE, 1.0);

  for (guint row = 0; row < self->n_threads; row++)
    for (guint col = 0; col < self->n_qds; col++)
      {
        double v = self->values[row * self->n_qds + col];
        double t = dm_heatmap_scale (v, lo, hi);
        graphene_rect_t r;
        g_autofree char *text = NULL;

        dm_heatmap_cell_rect (&g, col, row, &r);
        if (t < 0)
          {
            colour = (GdkRGBA) { 0.85, 0.85, 0.85, 1 };
            text = g_strdup ("–");
          }
        else
          {
            dm_heatmap_colour (self->lower_is_better ? 1 - t : t, &colour);
            text = format_value (v);
          }
        gdk_cairo_set_source_rgba (cr, &colour);
        cairo_rectangle (cr, r.origin.x, r.origin.y, r.size.width, r.size.height);
        cairo_fill (cr);
        if (dm_heatmap_text_is_dark (&colour))
          cairo_set_source_rgb (cr, 0, 0, 0);
        else
          cairo_set_source_rgb (cr, 1, 1, 1);
        dm_draw_text (widget, cr, text, r.origin.x + r.size.width / 2,
                      r.origin.y + r.size.height / 2, 0.5, 0.5, FALSE, 0.85);
      }

  /* Thin lines between cells keep neighbours of a similar colour apart. */
  cairo_set_source_rgba (cr, 1, 1, 1, 0.6);
  cairo_set_line_width (cr, 1);
  for (guint col = 1; col < g.n_columns; col++)
    {
      double x = g.cells.origin.x + col * g.cells.size.width / g.n_columns;
      cairo_move_to (cr, x, g.cells.origin.y);
      cairo_line_to (cr, x, g.cells.origin.y + g.cells.size.height);
    }
  for (guint row = 1; row < g.n_rows; row++)
    {
      double y = g.cells.origin.y + row * g.cells.size.height / g.n_rows;
      cairo_move_to (cr, g.cells.origin.x, y);
      cairo_line_to (cr, g.cells.origin.x + g.cells.size.width, y);
    }
  cairo_stroke (cr);

  if (self->knee[0] >= 0 && self->knee[1] >= 0)
    {
      graphene_rect_t r;
      dm_heatmap_cell_rect (&g, self->knee[0], self->knee[1], &r);
      outline_cell (cr, &r, 1.5, &knee_colour, FALSE);
    }
  if (self->best[0] >= 0 && self->best[1] >= 0)
    {
      graphene_rect_t r;
      dm_heatmap_cell_rect (&g, self->best[0], self->best[1], &r);
      outline_cell (cr, &r, 5, &best_colour, TRUE);
    }

  /* Axes: queue depths under the columns, thread counts beside the rows. */
  gdk_cairo_set_source_rgba (cr, &fg);
  for (guint col = 0; col < self->n_qds; col++)
    {
      g_autofree char *label = g_strdup_printf ("%u", self->qds[col]);
      graphene_rect_t r;
      dm_heatmap_cell_rect (&g, col, 0, &r);
      dm_draw_text (widget, cr, label, r.origin.x + r.size.width / 2,
                    g.cells.origin.y + g.cells.size.height + 3, 0.5, 0, FALSE, 0.9);
    }
  dm_draw_text (widget, cr, "QD (queue depth per thread)",
                g.cells.origin.x + g.cells.size.width / 2, height - 2, 0.5, 1, TRUE, 0.9);
  for (guint row = 0; row < self->n_threads; row++)
    {
      g_autofree char *label = g_strdup_printf ("%u", self->threads[row]);
      graphene_rect_t r;
      dm_heatmap_cell_rect (&g, 0, row, &r);
      dm_draw_text (widget, cr, label, g.cells.origin.x - 6, r.origin.y + r.size.height / 2, 1,
                    0.5, FALSE, 0.9);
    }
  cairo_save (cr);
  cairo_translate (cr, 4, g.cells.origin.y + g.cells.size.height / 2);
  cairo_rotate (cr, -G_PI / 2);
  dm_draw_text (widget, cr, "threads", 0, 0, 0.5, 0, TRUE, 0.9);
  cairo_restore (cr);

  /* The legend: the colour bar from worst (bottom) to best (top), its
   * ends labelled, then the key for the two outlines. */
  if (g.legend.size.height > 0)
    {
      cairo_pattern_t *p = cairo_pattern_create_linear (0, g.legend.origin.y + g.legend.size.height,
                                                        0, g.legend.origin.y);
      for (int i = 0; i <= 8; i++)
        {
          dm_heatmap_colour (i / 8.0, &colour);
          cairo_pattern_add_color_stop_rgb (p, i / 8.0, colour.red, colour.green, colour.blue);
        }
      cairo_set_source (cr, p);
      cairo_rectangle (cr, g.legend.origin.x, g.legend.origin.y, g.legend.size.width,
                       g.legend.size.height);
      cairo_fill (cr);
      cairo_pattern_destroy (p);

      gdk_cairo_set_source_rgba (cr, &fg);
      if (hi > 0)
        {
          double top = self->lower_is_better ? lo : hi;
          double bottom = self->lower_is_better ? hi : lo;
          g_autofree char *a = format_value (top);
          g_autofree char *b = format_value (bottom);
          lo_text = g_strdup_printf ("%s %s", b, self->unit ? self->unit : "");
          hi_text = g_strdup_printf ("%s %s", a, self->unit ? self->unit : "");
          dm_draw_text (widget, cr, hi_text, g.legend.origin.x + LEGEND_W + 4, g.legend.origin.y,
                        0, 0, FALSE, 0.8);
          dm_draw_text (widget, cr, lo_text, g.legend.origin.x + LEGEND_W + 4,
                        g.legend.origin.y + g.legend.size.height, 0, 1, FALSE, 0.8);
          /* The bright end is always the better one, whichever way the
           * figure runs, so the legend says so once. */
          dm_draw_text (widget, cr, "(best)", g.legend.origin.x + LEGEND_W + 4,
                        g.legend.origin.y + 16, 0, 0, FALSE, 0.7);
        }
      /* A key only for an outline that is drawn: a sweep with no knee
       * or no bound has nothing for it to explain. */
      if (g.legend.size.height > 90)
        {
          double y = g.legend.origin.y + g.legend.size.height / 2 - 14;
          graphene_rect_t key = GRAPHENE_RECT_INIT (g.legend.origin.x + LEGEND_W + 4, y, 14, 14);

          if (self->knee[0] >= 0 && self->knee[1] >= 0)
            {
              outline_cell (cr, &key, 1.5, &knee_colour, FALSE);
              gdk_cairo_set_source_rgba (cr, &fg);
              dm_draw_text (widget, cr, "knee", key.origin.x + 18, key.origin.y + 7, 0, 0.5,
                            FALSE, 0.8);
              key.origin.y += 20;
            }
          if (self->best[0] >= 0 && self->best[1] >= 0)
            {
              outline_cell (cr, &key, 1.5, &best_colour, TRUE);
              gdk_cairo_set_source_rgba (cr, &fg);
              dm_draw_text (widget, cr, "best ≤ bound", key.origin.x + 18, key.origin.y + 7, 0,
                            0.5, FALSE, 0.8);
            }
        }
    }
}

static void
dm_heatmap_snapshot (GtkWidget   *widget,
                     GtkSnapshot *snapshot)
{
  DmHeatmap *self = DM_HEATMAP (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->n_qds == 0 || self->n_threads == 0 || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (self, cr, width, height);
  cairo_destroy (cr);
}

static void
dm_heatmap_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  DmHeatmap *self = DM_HEATMAP (widget);

  /* Room for a five-digit figure per column and a line of text per row. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = LEFT_W + RIGHT_W + PAD + 52 * MAX (self->n_qds, 1);
      *natural = LEFT_W + RIGHT_W + PAD + 64 * MAX (self->n_qds, 1);
    }
  else
    {
      *minimum = TITLE_H + BOTTOM_H + MAX (28 * MAX (self->n_threads, 1), 120);
      *natural = TITLE_H + BOTTOM_H + MAX (40 * MAX (self->n_threads, 1), 160);
    }
}

static void
dm_heatmap_finalize (GObject *object)
{
  DmHeatmap *self = DM_HEATMAP (object);

  g_free (self->title);
  g_free (self->unit);
  G_OBJECT_CLASS (dm_heatmap_parent_class)->finalize (object);
}

static void
dm_heatmap_class_init (DmHeatmapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = dm_heatmap_finalize;
  widget_class->snapshot = dm_heatmap_snapshot;
  widget_class->measure = dm_heatmap_measure;
  gtk_widget_class_set_css_name (widget_class, "heatmap");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
dm_heatmap_init (DmHeatmap *self)
{
  self->knee[0] = self->knee[1] = -1;
  self->best[0] = self->best[1] = -1;
}

GtkWidget *
dm_heatmap_new (void)
{
  return g_object_new (DM_TYPE_HEATMAP, NULL);
}

void
dm_heatmap_set_data (DmHeatmap      *self,
                     const char     *title,
                     const char     *unit,
                     gboolean        lower_is_better,
                     const unsigned *qds,
                     guint           n_qds,
                     const unsigned *threads,
                     guint           n_threads,
                     const double   *values)
{
  g_return_if_fail (DM_IS_HEATMAP (self));

  n_qds = MIN (n_qds, DM_HEATMAP_MAX_AXIS);
  n_threads = MIN (n_threads, DM_HEATMAP_MAX_AXIS);
  g_free (self->title);
  g_free (self->unit);
  self->title = g_strdup (title);
  self->unit = g_strdup (unit);
  self->lower_is_better = lower_is_better;
  memcpy (self->qds, qds, n_qds * sizeof *qds);
  memcpy (self->threads, threads, n_threads * sizeof *threads);
  if (n_qds != self->n_qds || n_threads != self->n_threads)
    {
      self->n_qds = n_qds;
      self->n_threads = n_threads;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  for (guint i = 0; i < n_qds * n_threads; i++)
    self->values[i] = values[i];
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title ? title : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
dm_heatmap_set_marks (DmHeatmap *self,
                      int        knee_column,
                      int        knee_row,
                      int        best_column,
                      int        best_row)
{
  g_return_if_fail (DM_IS_HEATMAP (self));

  self->knee[0] = knee_column;
  self->knee[1] = knee_row;
  self->best[0] = best_column;
  self->best[1] = best_row;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
dm_heatmap_cell_at (DmHeatmap *self,
                    double     x,
                    double     y,
                    guint     *column,
                    guint     *row)
{
  DmHeatmapGeometry g;
  double cx, cy;

  g_return_val_if_fail (DM_IS_HEATMAP (self), FALSE);

  if (self->n_qds == 0 || self->n_threads == 0)
    return FALSE;
  dm_heatmap_layout (&g, gtk_widget_get_width (GTK_WIDGET (self)),
                     gtk_widget_get_height (GTK_WIDGET (self)), self->n_qds, self->n_threads);
  if (!graphene_rect_contains_point (&g.cells, &GRAPHENE_POINT_INIT (x, y))
      || g.cells.size.width <= 0 || g.cells.size.height <= 0)
    return FALSE;
  cx = (x - g.cells.origin.x) / (g.cells.size.width / g.n_columns);
  cy = (y - g.cells.origin.y) / (g.cells.size.height / g.n_rows);
  *column = MIN ((guint) cx, g.n_columns - 1);
  *row = g.n_rows - 1 - MIN ((guint) cy, g.n_rows - 1);
  return TRUE;
}
