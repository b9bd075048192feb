/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws the latency histogram with cairo. The axis always spans whole
 * decades so its labels are round numbers, and the bars are the share of
 * each series' own I/Os, so a Mix with few writes still shows their shape.
 * The timeline chart draws one step per sample, so a sample's rate covers
 * exactly the time it was measured over, and the cliff as a red line.
 */
#include "dm-latency-chart.h"
#include "dm-i18n-ui.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"
#include "dm-latency.h"
#include "dm-units.h"

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

/* ---- the timeline ------------------------------------------------------ */

#define TL_LEFT   64.0
#define TL_RIGHT  64.0
#define TL_TOP    30.0
#define TL_BOTTOM 28.0

struct _DmTimelineChart
{
  GtkWidget        parent_instance;

  dm_sample       *samples;
  guint            n_samples;
  double           axis_s;
  DmTimelineMarks  marks;
  gboolean         has_marks;
};

G_DEFINE_FINAL_TYPE (DmTimelineChart, dm_timeline_chart, GTK_TYPE_WIDGET)

static const GdkRGBA rate_colour = { 0.21, 0.52, 0.89, 1 };    /* MB/s: blue */
static const GdkRGBA p99_colour = { 0.90, 0.38, 0.00, 1 };     /* p99: orange */
/* The heat map's knee red: the one colour a screenshot test looks for. */
static const GdkRGBA cliff_colour = { 224 / 255.0, 28 / 255.0, 36 / 255.0, 1 };
static const GdkRGBA level_colour = { 0.15, 0.55, 0.25, 1 };   /* before/after: green */

/* A round number at least v, for an axis's top: quarters of it read well. */
static double
nice_top (double v)
{
  static const double steps[] = { 1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8 };
  double p = pow (10, floor (log10 (v > 0 ? v : 1)));

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * p >= v)
      return steps[i] * p;
  return 10 * p;
}

static char *
format_rate (double mb_per_s)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("%s MB/s", g_ascii_formatd (text, sizeof text,
                                                      mb_per_s >= 100 ? "%.0f" : "%.1f",
                                                      mb_per_s));
}

static char *
format_us (double us)
{
  if (us >= 1e6)
    return g_strdup_printf ("%.3g s", us / 1e6);
  if (us >= 1e3)
    return g_strdup_printf ("%.3g ms", us / 1e3);
  return g_strdup_printf ("%.3g µs", us);
}

static void
timeline_steps (cairo_t               *cr,
                const DmTimelineChart *self,
                gboolean               latency,
                double                 pw,
                double                 ph,
                double                 t_end,
                double                 top)
{
  for (guint k = 0; k < self->n_samples; k++)
    {
      const dm_sample *s = &self->samples[k];
      double v = latency ? s->all.latency_us_p99 : s->all.mb_per_s;
      double a = TL_LEFT + pw * (k ? self->samples[k - 1].t : 0) / t_end;
      double b = TL_LEFT + pw * s->t / t_end;
      double y = TL_TOP + ph - ph * MIN (v, top) / top;

      if (k == 0)
        cairo_move_to (cr, a, y);
      else
        cairo_line_to (cr, a, y);
      cairo_line_to (cr, b, y);
    }
  cairo_stroke (cr);
}

/* A mark's label on a backdrop of the background's tone, so it stays
 * readable where it crosses the lines; in the current source colour. */
static void
backdrop_text (GtkWidget  *widget,
               cairo_t    *cr,
               const char *text,
               double      x,
               double      y,
               double      xalign,
               double      yalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (
      pango_context_get_font_description (pango_layout_get_context (layout)));
  cairo_pattern_t *source = cairo_pattern_reference (cairo_get_source (cr));
  GdkRGBA fg;
  double tone;
  int w, h;

  pango_font_description_set_size (font, pango_font_description_get_size (font) * LABEL_SCALE);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_get_pixel_size (layout, &w, &h);
  dm_draw_get_foreground (widget, &fg);
  /* Dark text on a light theme gets a light backdrop, and the reverse. */
  tone = 0.3 * fg.red + 0.59 * fg.green + 0.11 * fg.blue < 0.5 ? 1.0 : 0.12;
  cairo_set_source_rgba (cr, tone, tone, tone, 0.85);
  cairo_rectangle (cr, x - w * xalign - 3, y - h * yalign - 1, w + 6, h + 2);
  cairo_fill (cr);
  cairo_set_source (cr, source);
  cairo_move_to (cr, x - w * xalign, y - h * yalign);
  pango_cairo_show_layout (cr, layout);
  cairo_pattern_destroy (source);
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* A level (the rate before or after the cliff): dashed, with its figure. */
static void
timeline_level (GtkWidget *widget,
                cairo_t   *cr,
                double     x0,
                double     x1,
                double     y,
                const char *label,
                gboolean    label_left)
{
  double dash[] = { 6, 4 };

  if (x1 - x0 < 2)
    return;
  gdk_cairo_set_source_rgba (cr, &level_colour);
  cairo_set_line_width (cr, 2);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, x0, y);
  cairo_line_to (cr, x1, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  backdrop_text (widget, cr, label, label_left ? x0 + 4 : x1 - 4, y - 4, label_left ? 0 : 1, 1);
}

static void
dm_timeline_chart_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  DmTimelineChart *self = DM_TIMELINE_CHART (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  double pw = width - TL_LEFT - TL_RIGHT, ph = height - TL_TOP - TL_BOTTOM;
  double rate_max = 0, lat_max = 0, rate_top, lat_top, t_end;
  char label[64];
  GdkRGBA fg;
  cairo_t *cr;

  if (pw <= 40 || ph <= 40)
    return;
  dm_draw_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  t_end = self->n_samples ? self->samples[self->n_samples - 1].t : 0;
  t_end = MAX (t_end, self->axis_s);
  for (guint k = 0; k < self->n_samples; k++)
    {
      rate_max = MAX (rate_max, self->samples[k].all.mb_per_s);
      lat_max = MAX (lat_max, self->samples[k].all.latency_us_p99);
    }
  rate_top = nice_top (rate_max * 1.08);
  lat_top = nice_top (lat_max * 1.05);

  /* Grid and the two scales: MB/s on the left, p99 latency on the right. */
  cairo_set_line_width (cr, 1);
  for (guint q = 0; q <= 4; q++)
    {
      double y = TL_TOP + ph - ph * q / 4.0;
      g_autofree char *lat = format_us (lat_top * q / 4.0);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, q == 0 ? 0.7 : 0.15);
      cairo_move_to (cr, TL_LEFT, floor (y) + 0.5);
      cairo_line_to (cr, TL_LEFT + pw, floor (y) + 0.5);
      cairo_stroke (cr);
      g_ascii_formatd (label, sizeof label, "%.0f", rate_top * q / 4.0);
      gdk_cairo_set_source_rgba (cr, &rate_colour);
      dm_draw_text (widget, cr, label, TL_LEFT - 6, y, 1, 0.5, FALSE, LABEL_SCALE);
      if (lat_max > 0)
        {
          gdk_cairo_set_source_rgba (cr, &p99_colour);
          dm_draw_text (widget, cr, q ? lat : "0", TL_LEFT + pw + 6, y, 0, 0.5, FALSE,
                        LABEL_SCALE);
        }
    }
  gdk_cairo_set_source_rgba (cr, &rate_colour);
  dm_draw_text (widget, cr, "MB/s", TL_LEFT, 4, 0, 0, TRUE, LABEL_SCALE);
  gdk_cairo_set_source_rgba (cr, &p99_colour);
  dm_draw_text (widget, cr, "p99 latency", TL_LEFT + pw, 4, 1, 0, TRUE, LABEL_SCALE);

  if (!(t_end > 0))
    {
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, _ ("No samples yet"), TL_LEFT + pw / 2, TL_TOP + ph / 2, 0.5, 0.5,
                    FALSE, LABEL_SCALE);
      cairo_destroy (cr);
      return;
    }

  /* The time axis: 0, the end, and "time" between. */
  gdk_cairo_set_source_rgba (cr, &fg);
  dm_draw_text (widget, cr, "0 s", TL_LEFT, TL_TOP + ph + 4, 0, 0, FALSE, LABEL_SCALE);
  g_ascii_formatd (label, sizeof label, "%.1f s", t_end);
  dm_draw_text (widget, cr, label, TL_LEFT + pw, TL_TOP + ph + 4, 1, 0, FALSE, LABEL_SCALE);
  dm_draw_text (widget, cr, "time", TL_LEFT + pw / 2, TL_TOP + ph + 4, 0.5, 0, FALSE,
                LABEL_SCALE);

  if (self->n_samples)
    {
      cairo_set_line_width (cr, 1.5);
      gdk_cairo_set_source_rgba (cr, &p99_colour);
      if (lat_max > 0)
        timeline_steps (cr, self, TRUE, pw, ph, t_end, lat_top);
      cairo_set_line_width (cr, 2.5);
      gdk_cairo_set_source_rgba (cr, &rate_colour);
      timeline_steps (cr, self, FALSE, pw, ph, t_end, rate_top);
    }

  if (self->has_marks)
    {
      const DmTimelineMarks *m = &self->marks;
      double xc = m->found ? TL_LEFT + pw * CLAMP (m->at_s / t_end, 0, 1) : TL_LEFT + pw;
      double yb = TL_TOP + ph - ph * MIN (m->before_mb_per_s, rate_top) / rate_top;
      double ya = TL_TOP + ph - ph * MIN (m->after_mb_per_s, rate_top) / rate_top;
      g_autofree char *rate_b = format_rate (m->before_mb_per_s);
      g_autofree char *rate_a = format_rate (m->after_mb_per_s);
      g_autofree char *before = g_strdup_printf ("%s %s", m->found ? _ ("before") : _ ("opening"),
                                                 rate_b);
      g_autofree char *after = g_strdup_printf ("%s %s", m->found ? _ ("after") : _ ("last quarter"),
                                                rate_a);
      if (m->found)
        {
          char size[32];
          g_autofree char *text = NULL;

          /* The cliff: a red line from top to bottom, named at the top. */
          gdk_cairo_set_source_rgba (cr, &cliff_colour);
          cairo_set_line_width (cr, 3);
          cairo_move_to (cr, floor (xc) + 0.5, TL_TOP - 4);
          cairo_line_to (cr, floor (xc) + 0.5, TL_TOP + ph);
          cairo_stroke (cr);
          dm_size_human (m->cache_bytes, size, sizeof size);
          text = g_strdup_printf (_ ("cliff after %s"), size);
          backdrop_text (widget, cr, text, xc > TL_LEFT + pw * 0.7 ? xc - 6 : xc + 6, TL_TOP + 2,
                         xc > TL_LEFT + pw * 0.7 ? 1 : 0, 0);
          timeline_level (widget, cr, TL_LEFT, xc, yb, before, TRUE);
          timeline_level (widget, cr, xc, TL_LEFT + pw, ya, after, FALSE);
        }
      else
        {
          timeline_level (widget, cr, TL_LEFT, TL_LEFT + pw, yb, before, TRUE);
          if (fabs (ya - yb) > 14)
            timeline_level (widget, cr, TL_LEFT + pw * 0.75, TL_LEFT + pw, ya, after, FALSE);
        }
    }
  cairo_destroy (cr);
}

static void
dm_timeline_chart_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 360 : 200;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 760 : 340;
}

static void
dm_timeline_chart_finalize (GObject *object)
{
  g_free (DM_TIMELINE_CHART (object)->samples);
  G_OBJECT_CLASS (dm_timeline_chart_parent_class)->finalize (object);
}

static void
dm_timeline_chart_class_init (DmTimelineChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = dm_timeline_chart_finalize;
  widget_class->snapshot = dm_timeline_chart_snapshot;
  widget_class->measure = dm_timeline_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "timelinechart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
dm_timeline_chart_init (DmTimelineChart *self)
{
}

GtkWidget *
dm_timeline_chart_new (void)
{
  return g_object_new (DM_TYPE_TIMELINE_CHART, NULL);
}

void
dm_timeline_chart_set_samples (DmTimelineChart *self,
                               const dm_sample *samples,
                               guint            n_samples,
                               double           axis_s)
{
  g_return_if_fail (DM_IS_TIMELINE_CHART (self));

  g_free (self->samples);
  self->samples = n_samples ? g_memdup2 (samples, (gsize) n_samples * sizeof *samples) : NULL;
  self->n_samples = self->samples ? n_samples : 0;
  self->axis_s = axis_s;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
dm_timeline_chart_set_marks (DmTimelineChart       *self,
                             const DmTimelineMarks *marks)
{
  g_return_if_fail (DM_IS_TIMELINE_CHART (self));

  self->has_marks = marks != NULL;
  if (marks)
    self->marks = *marks;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
