/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws the latency histogram with cairo. The axis always spans whole
 * decades so its labels are round numbers, and the bars are the share of
 * each series' own I/Os, so a Mix with few writes still shows their shape.
 */
#include "dm-latency-chart.h"
#include "dm-i18n-ui.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"
#include "dm-latency.h"

#define LEFT_W      58.0
#define BOTTOM_H    40.0
#define TOP_H       24.0
#define RIGHT_W     30.0
#define LABEL_SCALE 0.85  /* of the widget's font size, for every label */

struct _DmLatencyChart
{
  GtkWidget parent_instance;

  double    edges[DM_LATENCY_CHART_MAX_EDGES];
  guint     n_edges;
  double    percent[2][DM_LATENCY_CHART_MAX_EDGES]; /* read, write */
  gboolean  has[2];
};

G_DEFINE_FINAL_TYPE (DmLatencyChart, dm_latency_chart, GTK_TYPE_WIDGET)

static const GdkRGBA series_colour[2] = {
  { 0.21, 0.52, 0.89, 1 },  /* read: blue */
  { 0.90, 0.38, 0.00, 1 },  /* write: orange */
};
static const char *const series_name[2] = { "read", "write" };

char *
dm_latency_chart_format_ns (double ns)
{
  if (ns >= 1e9)
    return g_strdup_printf ("%g s", ns / 1e9);
  if (ns >= 1e6)
    return g_strdup_printf ("%g ms", ns / 1e6);
  if (ns >= 1e3)
    return g_strdup_printf ("%g µs", ns / 1e3);
  return g_strdup_printf ("%g ns", ns);
}

static void
dm_latency_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  DmLatencyChart *self = DM_LATENCY_CHART (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  double pw = width - LEFT_W - RIGHT_W, ph = height - TOP_H - BOTTOM_H;
  double top = 0, step, lx = LEFT_W;
  guint n_series = self->has[0] + self->has[1], bars;
  GdkRGBA fg;
  cairo_t *cr;

  if (pw <= 20 || ph <= 20)
    return;
  dm_draw_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  if (n_series == 0 || self->n_edges < 2)
    {
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, _ ("No I/O was measured"), width / 2, height / 2, 0.5, 0.5, FALSE,
                    LABEL_SCALE);
      cairo_destroy (cr);
      return;
    }

  /* The y axis: a top whose quarters are short round numbers. */
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i + 1 < self->n_edges; i++)
      top = MAX (top, self->percent[s][i]);
  {
    static const double tops[] = { 4, 8, 10, 20, 40, 60, 80, 100 };
    for (guint i = 0; i < G_N_ELEMENTS (tops); i++)
      if (top <= tops[i])
        {
          top = tops[i];
          break;
        }
  }

  /* Grid lines at quarters of the top, labelled in percent. */
  cairo_set_line_width (cr, 1);
  for (int q = 0; q <= 4; q++)
    {
      double y = TOP_H + ph - ph * q / 4.0;
      g_autofree char *label = g_strdup_printf ("%g %%", top * q / 4.0);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, q == 0 ? 0.7 : 0.15);
      cairo_move_to (cr, LEFT_W, floor (y) + 0.5);
      cairo_line_to (cr, LEFT_W + pw, floor (y) + 0.5);
      cairo_stroke (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, label, LEFT_W - 6, y, 1, 0.5, FALSE, LABEL_SCALE);
    }

  /* Bars: one slot per bucket, the series side by side within it. */
  bars = self->n_edges - 1;
  step = pw / bars;
  for (guint i = 0; i < bars; i++)
    {
      guint k = 0;
      for (guint s = 0; s < 2; s++)
        {
          double h, bw, x;

          if (!self->has[s])
            continue;
          h = ph * self->percent[s][i] / top;
          bw = (step - 2) / n_series;
          x = LEFT_W + i * step + 1 + k * bw;
          k++;
          if (h <= 0)
            continue;
          gdk_cairo_set_source_rgba (cr, &series_colour[s]);
          cairo_rectangle (cr, x, TOP_H + ph - h, MAX (bw, 1), h);
          cairo_fill (cr);
        }
    }

  /* Labels at each decade, the edges that are powers of ten. */
  gdk_cairo_set_source_rgba (cr, &fg);
  for (guint i = 0; i < self->n_edges; i++)
    {
      double l = log10 (self->edges[i]);
      double x = LEFT_W + i * step;

      if (fabs (l - round (l)) > 1e-6)
        continue;
      {
        g_autofree char *label = dm_latency_chart_format_ns (pow (10, round (l)));
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
        cairo_move_to (cr, floor (x) + 0.5, TOP_H + ph);
        cairo_line_to (cr, floor (x) + 0.5, TOP_H + ph + 4);
        cairo_stroke (cr);
        gdk_cairo_set_source_rgba (cr, &fg);
        dm_draw_text (widget, cr, label, x, TOP_H + ph + 5, 0.5, 0, FALSE, LABEL_SCALE);
      }
    }
  dm_draw_text (widget, cr, _ ("latency (log scale)"), LEFT_W + pw / 2, height - 2, 0.5, 1, FALSE,
                LABEL_SCALE);

  /* The key, top left, only the series shown. */
  for (guint s = 0; s < 2; s++)
    {
      PangoLayout *layout;
      int w, h;

      if (!self->has[s])
        continue;
      gdk_cairo_set_source_rgba (cr, &series_colour[s]);
      cairo_rectangle (cr, lx + 4, 6, 12, 12);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, series_name[s], lx + 20, 12, 0, 0.5, FALSE, LABEL_SCALE);
      layout = gtk_widget_create_pango_layout (widget, series_name[s]);
      pango_layout_get_pixel_size (layout, &w, &h);
      g_object_unref (layout);
      lx += 20 + w + 14;
    }
  /* xgettext:no-c-format */
  dm_draw_text (widget, cr, _ ("% of I/Os"), width - RIGHT_W, 12, 1, 0.5, FALSE, LABEL_SCALE);
  cairo_destroy (cr);
}

static void
dm_latency_chart_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 180;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 520 : 240;
}

static void
dm_latency_chart_class_init (DmLatencyChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = dm_latency_chart_snapshot;
  widget_class->measure = dm_latency_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "latencychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
dm_latency_chart_init (DmLatencyChart *self)
{
}

GtkWidget *
dm_latency_chart_new (void)
{
  return g_object_new (DM_TYPE_LATENCY_CHART, NULL);
}

void
dm_latency_chart_set_histograms (DmLatencyChart     *self,
                                 const dm_histogram *read,
                                 const dm_histogram *write)
{
  const dm_histogram *h[2] = { read, write };
  uint64_t lo = UINT64_MAX, hi = 0;
  double counts[DM_LATENCY_CHART_MAX_EDGES];

  g_return_if_fail (DM_IS_LATENCY_CHART (self));

  memset (self->percent, 0, sizeof self->percent);
  self->n_edges = 0;
  for (guint s = 0; s < 2; s++)
    {
      self->has[s] = h[s] && h[s]->count > 0;
      if (self->has[s])
        {
          lo = MIN (lo, h[s]->min);
          hi = MAX (hi, h[s]->max);
        }
    }
  if (hi > 0)
    {
      /* Whole decades on both ends: the axis reads 10 µs .. 10 ms, not
       * 13 µs .. 7.9 ms. The same edges for both series, so they line up. */
      uint64_t from = (uint64_t) pow (10, floor (log10 ((double) MAX (lo, 1)) + 1e-9));
      uint64_t to = (uint64_t) pow (10, ceil (log10 ((double) MAX (hi, 1)) - 1e-9));

      self->n_edges = dm_latency_log_edges (from, MAX (to, from * 10) - 1,
                                            DM_LATENCY_CHART_PER_DECADE, self->edges,
                                            DM_LATENCY_CHART_MAX_EDGES);
      for (guint s = 0; s < 2; s++)
        {
          if (!self->has[s])
            continue;
          dm_latency_chart (h[s], self->edges, self->n_edges, counts);
          for (guint i = 0; i + 1 < self->n_edges; i++)
            self->percent[s][i] = 100.0 * counts[i] / h[s]->count;
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
