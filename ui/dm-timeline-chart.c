/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws the timeline with cairo: one step per sample, so a sample's rate
 * covers exactly the time it was measured over, the p99 latency on its own
 * scale, and the cliff as a red line with the levels before and after it.
 * The compact look keeps the pixels the latency detail has always drawn.
 */
#include "dm-timeline-chart.h"
#include "dm-i18n-ui.h"

#include <math.h>

#include "dm-draw.h"
#include "dm-latency-view.h"
#include "dm-units.h"

#define LABEL_SCALE 0.85  /* of the widget's font size, for every label */

#define TL_LEFT   64.0
#define TL_RIGHT  64.0

/* Fewer samples than this are drawn as dots too, and without the opening
 * and last-quarter levels, which need a run of samples to mean anything. */
#define FEW_SAMPLES 4

/* The two looks: the Sustained window's chart, and the compact one under
 * the latency detail's histogram (as it was drawn before it was this
 * widget, so its pixels stay the same). */
typedef struct look
{
  double   top, bottom;    /* margins; left and right are TL_LEFT, TL_RIGHT */
  double   min_plot;       /* a plot narrower or lower is not drawn */
  double   headroom;       /* the rate axis's top over the highest rate */
  double   title_y;        /* of the scales' names */
  double   rate_width;     /* of the MB/s line */
  gboolean snap_grid;      /* grid lines on whole pixels */
  gboolean any_latency;    /* the p99 scale and line even when all are 0 */
  int      width[2];       /* minimum and natural size */
  int      height[2];
} look;

static const look looks[2] = {
  { 30, 28, 41, 1.08, 4, 2.5, TRUE, FALSE, { 360, 760 }, { 200, 340 } },
  { 24, 26, 20, 1.05, 2, 2.0, FALSE, TRUE, { 0, 0 }, { 180, 180 } },
};

enum { PROP_0, PROP_COMPACT, N_PROPS };
static GParamSpec *props[N_PROPS];

struct _DmTimelineChart
{
  GtkWidget        parent_instance;

  dm_sample       *samples;
  guint            n_samples;
  double           axis_s;
  DmTimelineMarks  marks;
  gboolean         has_marks;
  gboolean         compact;
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

static void
timeline_steps (cairo_t               *cr,
                const DmTimelineChart *self,
                gboolean               latency,
                double                 y0,
                double                 pw,
                double                 ph,
                double                 t_end,
                double                 top)
{
  double radius = cairo_get_line_width (cr) * 1.5 + 1.5;

  for (guint k = 0; k < self->n_samples; k++)
    {
      const dm_sample *s = &self->samples[k];
      double v = latency ? s->all.latency_us_p99 : s->all.mb_per_s;
      double a = TL_LEFT + pw * (k ? self->samples[k - 1].t : 0) / t_end;
      double b = TL_LEFT + pw * s->t / t_end;
      double y = y0 + ph - ph * MIN (v, top) / top;

      /* One sample is one figure, not a level held across the axis. */
      if (self->n_samples == 1)
        break;
      if (k == 0)
        cairo_move_to (cr, a, y);
      else
        cairo_line_to (cr, a, y);
      cairo_line_to (cr, b, y);
    }
  cairo_stroke (cr);
  /* With few samples each is also a dot where it closed, so the chart
   * shows how little it rests on. */
  for (guint k = 0; k < self->n_samples && self->n_samples < FEW_SAMPLES; k++)
    {
      const dm_sample *s = &self->samples[k];
      double v = latency ? s->all.latency_us_p99 : s->all.mb_per_s;

      cairo_new_sub_path (cr);
      cairo_arc (cr, TL_LEFT + pw * s->t / t_end, y0 + ph - ph * MIN (v, top) / top, radius, 0,
                 2 * G_PI);
      cairo_fill (cr);
    }
}

/* How wide text is as the axes' labels draw it. */
static double
text_width (GtkWidget  *widget,
            const char *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (
      pango_context_get_font_description (pango_layout_get_context (layout)));
  int w, h;

  pango_font_description_set_size (font, pango_font_description_get_size (font) * LABEL_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_get_pixel_size (layout, &w, &h);
  pango_font_description_free (font);
  g_object_unref (layout);
  return w;
}

/* The time axis's step: 1, 2 or 5 times a power of ten, for about five
 * ticks over t_end; digits, the decimals its labels need. */
static double
time_step (double t_end,
           int   *digits)
{
  static const double steps[] = { 1, 2, 5, 10 };
  double raw = t_end / 5, p = pow (10, floor (log10 (raw)));
  double step = 10 * p;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * p >= raw)
      {
        step = steps[i] * p;
        break;
      }
  *digits = step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);
  return step;
}

guint
dm_timeline_chart_time_ticks (double  t_end,
                              double *ticks,
                              char  (*labels)[16],
                              guint   max)
{
  int digits;
  double step;
  guint n = 0;

  if (!(t_end > 0) || !isfinite (t_end))
    return 0;
  step = time_step (t_end, &digits);
  for (guint k = 0; n < max && k * step <= t_end * (1 + 1e-9); k++, n++)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      ticks[n] = k * step;
      if (k == 0)
        {
          g_strlcpy (labels[n], "0 s", sizeof labels[n]);
          continue;
        }
      g_snprintf (labels[n], sizeof labels[n], "%s s",
                  g_ascii_formatd (number, sizeof number, digits == 0 ? "%.0f"
                                   : digits == 1 ? "%.1f" : digits == 2 ? "%.2f" : "%.3f",
                                   ticks[n]));
    }
  return n;
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

/* A level (the rate before or after the cliff): dashed, with its figure
 * over it. */
typedef struct level
{
  double      x0, x1, y;
  char       *label;
  gboolean    label_left;
} level;

/* The dashed line goes under the samples' lines (a rate that holds its
 * level stays in sight), its figure above them. */
static void
timeline_level (GtkWidget   *widget,
                cairo_t     *cr,
                const level *l,
                gboolean     label)
{
  double dash[] = { 6, 4 };

  if (!l->label || l->x1 - l->x0 < 2)
    return;
  gdk_cairo_set_source_rgba (cr, &level_colour);
  if (label)
    {
      backdrop_text (widget, cr, l->label, l->label_left ? l->x0 + 4 : l->x1 - 4, l->y - 4,
                     l->label_left ? 0 : 1, 1);
      return;
    }
  cairo_set_line_width (cr, 2);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, l->x0, l->y);
  cairo_line_to (cr, l->x1, l->y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
dm_timeline_chart_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  DmTimelineChart *self = DM_TIMELINE_CHART (widget);
  const look *lk = &looks[self->compact];
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  double top = lk->top;
  double pw = width - TL_LEFT - TL_RIGHT, ph = height - top - lk->bottom;
  double rate_max = 0, lat_max = 0, rate_top, lat_top, t_end;
  g_autofree char *before = NULL, *after = NULL;
  level levels[2] = { { 0 }, { 0 } };
  gboolean latency;
  char label[64];
  GdkRGBA fg;
  cairo_t *cr;

  t_end = self->n_samples ? self->samples[self->n_samples - 1].t : 0;
  t_end = MAX (t_end, self->axis_s);
  /* The compact chart stands under another one: with no time to show it
   * draws nothing at all. */
  if (pw < lk->min_plot || ph < lk->min_plot || (self->compact && !(t_end > 0)))
    return;
  dm_draw_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  for (guint k = 0; k < self->n_samples; k++)
    {
      rate_max = MAX (rate_max, self->samples[k].all.mb_per_s);
      lat_max = MAX (lat_max, self->samples[k].all.latency_us_p99);
    }
  rate_top = nice_top (rate_max * lk->headroom);
  lat_top = nice_top (lat_max * 1.05);
  latency = lat_max > 0 || lk->any_latency;

  /* Grid and the two scales: MB/s on the left, p99 latency on the right. */
  cairo_set_line_width (cr, 1);
  for (guint q = 0; q <= 4; q++)
    {
      double y = top + ph - ph * q / 4.0;
      double gy = (lk->snap_grid ? floor (y) : y) + 0.5;
      g_autofree char *lat = dm_latency_view_format_us (lat_top * q / 4.0);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, q == 0 ? 0.7 : 0.15);
      cairo_move_to (cr, TL_LEFT, gy);
      cairo_line_to (cr, TL_LEFT + pw, gy);
      cairo_stroke (cr);
      g_ascii_formatd (label, sizeof label, "%.0f", rate_top * q / 4.0);
      gdk_cairo_set_source_rgba (cr, &rate_colour);
      dm_draw_text (widget, cr, label, TL_LEFT - 6, y, 1, 0.5, FALSE, LABEL_SCALE);
      if (latency)
        {
          gdk_cairo_set_source_rgba (cr, &p99_colour);
          dm_draw_text (widget, cr, q ? lat : "0", TL_LEFT + pw + 6, y, 0, 0.5, FALSE,
                        LABEL_SCALE);
        }
    }
  gdk_cairo_set_source_rgba (cr, &rate_colour);
  dm_draw_text (widget, cr, "MB/s", TL_LEFT, lk->title_y, 0, 0, TRUE, LABEL_SCALE);
  gdk_cairo_set_source_rgba (cr, &p99_colour);
  dm_draw_text (widget, cr, "p99 latency", TL_LEFT + pw, lk->title_y, 1, 0, TRUE, LABEL_SCALE);

  if (!(t_end > 0))
    {
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, _ ("No samples yet"), TL_LEFT + pw / 2, top + ph / 2, 0.5, 0.5,
                    FALSE, LABEL_SCALE);
      cairo_destroy (cr);
      return;
    }

  /* The time axis: round ticks, each named in seconds; the first label
   * starts at the axis, the others are centred on their tick. */
  {
    double ticks[16];
    char names[16][16];
    guint n = dm_timeline_chart_time_ticks (t_end, ticks, names, G_N_ELEMENTS (ticks));

    double shown_to = -G_MAXDOUBLE;

    gdk_cairo_set_source_rgba (cr, &fg);
    for (guint k = 0; k < n; k++)
      {
        double x = floor (TL_LEFT + pw * ticks[k] / t_end) + 0.5;
        double w = text_width (widget, names[k]);
        double left = k == 0 ? x : x - w / 2;

        cairo_move_to (cr, x, top + ph);
        cairo_line_to (cr, x, top + ph + 4);
        cairo_stroke (cr);
        /* A narrow chart names every other tick rather than overprint. */
        if (left < shown_to + 8)
          continue;
        dm_draw_text (widget, cr, names[k], left, top + ph + 5, 0, 0, FALSE, LABEL_SCALE);
        shown_to = left + w;
      }
  }

  if (self->has_marks)
    {
      const DmTimelineMarks *m = &self->marks;
      double xc = m->found ? TL_LEFT + pw * CLAMP (m->at_s / t_end, 0, 1) : TL_LEFT + pw;
      double yb = top + ph - ph * MIN (m->before_mb_per_s, rate_top) / rate_top;
      double ya = top + ph - ph * MIN (m->after_mb_per_s, rate_top) / rate_top;
      g_autofree char *rate_b = format_rate (m->before_mb_per_s);
      g_autofree char *rate_a = format_rate (m->after_mb_per_s);

      before = g_strdup_printf ("%s %s", m->found ? _ ("before") : _ ("opening"), rate_b);
      after = g_strdup_printf ("%s %s", m->found ? _ ("after") : _ ("last quarter"), rate_a);
      if (m->found)
        {
          levels[0] = (level) { TL_LEFT, xc, yb, before, TRUE };
          levels[1] = (level) { xc, TL_LEFT + pw, ya, after, FALSE };
        }
      else if (self->n_samples >= FEW_SAMPLES)
        {
          levels[0] = (level) { TL_LEFT, TL_LEFT + pw, yb, before, TRUE };
          if (fabs (ya - yb) > 14)
            levels[1] = (level) { TL_LEFT + pw * 0.75, TL_LEFT + pw, ya, after, FALSE };
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    timeline_level (widget, cr, &levels[i], FALSE);

  if (self->n_samples)
    {
      cairo_set_line_width (cr, 1.5);
      gdk_cairo_set_source_rgba (cr, &p99_colour);
      if (latency)
        timeline_steps (cr, self, TRUE, top, pw, ph, t_end, lat_top);
      cairo_set_line_width (cr, lk->rate_width);
      gdk_cairo_set_source_rgba (cr, &rate_colour);
      timeline_steps (cr, self, FALSE, top, pw, ph, t_end, rate_top);
    }

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    timeline_level (widget, cr, &levels[i], TRUE);
  if (self->has_marks && self->marks.found)
    {
      const DmTimelineMarks *m = &self->marks;
      double xc = TL_LEFT + pw * CLAMP (m->at_s / t_end, 0, 1);
      char size[32];
      g_autofree char *text = NULL;

      /* The cliff: a red line from top to bottom, named at the top. */
      gdk_cairo_set_source_rgba (cr, &cliff_colour);
      cairo_set_line_width (cr, 3);
      cairo_move_to (cr, floor (xc) + 0.5, top - 4);
      cairo_line_to (cr, floor (xc) + 0.5, top + ph);
      cairo_stroke (cr);
      dm_size_human (m->cache_bytes, size, sizeof size);
      text = g_strdup_printf (_ ("cliff after %s"), size);
      backdrop_text (widget, cr, text, xc > TL_LEFT + pw * 0.7 ? xc - 6 : xc + 6, top + 2,
                     xc > TL_LEFT + pw * 0.7 ? 1 : 0, 0);
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
  const look *lk = &looks[DM_TIMELINE_CHART (widget)->compact];
  const int *size = orientation == GTK_ORIENTATION_HORIZONTAL ? lk->width : lk->height;

  *minimum = size[0];
  *natural = size[1];
}

static void
dm_timeline_chart_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DmTimelineChart *self = DM_TIMELINE_CHART (object);

  switch (prop_id)
    {
    case PROP_COMPACT:
      g_value_set_boolean (value, self->compact);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dm_timeline_chart_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DmTimelineChart *self = DM_TIMELINE_CHART (object);

  switch (prop_id)
    {
    case PROP_COMPACT:
      dm_timeline_chart_set_compact (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
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
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = dm_timeline_chart_finalize;
  object_class->get_property = dm_timeline_chart_get_property;
  object_class->set_property = dm_timeline_chart_set_property;
  props[PROP_COMPACT] = g_param_spec_boolean ("compact", NULL, NULL, FALSE,
                                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
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

void
dm_timeline_chart_set_compact (DmTimelineChart *self,
                               gboolean         compact)
{
  g_return_if_fail (DM_IS_TIMELINE_CHART (self));

  compact = !!compact;
  if (self->compact == compact)
    return;
  self->compact = compact;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_COMPACT]);
}

gboolean
dm_timeline_chart_get_compact (DmTimelineChart *self)
{
  g_return_val_if_fail (DM_IS_TIMELINE_CHART (self), FALSE);

  return self->compact;
}
