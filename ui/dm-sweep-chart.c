/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Line charts of a block sweep and of a rate curve, drawn with cairo from
 * the report alone, so a sweep opened from a file draws as one just run.
 */
#include "dm-sweep-chart.h"

#include <math.h>

#include "dm-i18n-ui.h"
#include "dm-latency-view.h"

#define MARGIN_LEFT   72.0
#define MARGIN_RIGHT  24.0
#define MARGIN_TOP    36.0
#define MARGIN_BOTTOM 48.0

typedef struct chart {
  cairo_t *cr;
  double   x0, y0, w, h;       /* the plot area */
  double   xmin, xmax, ymax;   /* x in its own units (log2 or linear) */
  GdkRGBA  ink;
} chart;

static void
rgb (cairo_t *cr, unsigned v)
{
  cairo_set_source_rgb (cr, (v >> 16 & 0xff) / 255.0, (v >> 8 & 0xff) / 255.0, (v & 0xff) / 255.0);
}

static double
px (const chart *c, double x)
{
  return c->x0 + (c->xmax > c->xmin ? (x - c->xmin) / (c->xmax - c->xmin) : 0.5) * c->w;
}

static double
py (const chart *c, double y)
{
  return c->y0 + c->h - (c->ymax > 0 ? y / c->ymax : 0) * c->h;
}

/* 1, 2 or 5 times a power of ten, at least v: axis ends people read. */
static double
nice_ceiling (double v)
{
  if (!(v > 0))
    return 1;
  double p = pow (10, floor (log10 (v)));
  static const double steps[] = { 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
  for (unsigned k = 0; k < G_N_ELEMENTS (steps); k++)
    {
      double m = steps[k];
      if (m * p >= v)
        return m * p;
    }
  return 10 * p;
}

static void
text (const chart *c, double x, double y, double align_x, double align_y, const char *s)
{
  cairo_text_extents_t e;
  cairo_text_extents (c->cr, s, &e);
  cairo_move_to (c->cr, x - align_x * e.width - e.x_bearing, y - align_y * e.height - e.y_bearing);
  gdk_cairo_set_source_rgba (c->cr, &c->ink);
  cairo_show_text (c->cr, s);
}

static void
frame (chart *c, const char *title, const char *y_label, const char *x_label)
{
  cairo_t *cr = c->cr;
  char buf[32];
  gdk_cairo_set_source_rgba (cr, &c->ink);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, c->x0 + 0.5, c->y0 + 0.5, c->w, c->h);
  cairo_stroke (cr);
  cairo_set_font_size (cr, 12);
  for (int i = 0; i <= 4; i++)
    {
      double v = c->ymax * i / 4, y = py (c, v);
      snprintf (buf, sizeof buf, "%g", v);
      text (c, c->x0 - 6, y, 1, 0.5, buf);
      cairo_set_source_rgba (cr, c->ink.red, c->ink.green, c->ink.blue, 0.15);
      cairo_move_to (cr, c->x0, floor (y) + 0.5);
      cairo_line_to (cr, c->x0 + c->w, floor (y) + 0.5);
      cairo_stroke (cr);
    }
  cairo_set_font_size (cr, 14);
  text (c, c->x0, c->y0 - 10, 0, 1, title);
  cairo_set_font_size (cr, 12);
  text (c, c->x0 + c->w / 2, c->y0 + c->h + 40, 0.5, 1, x_label);
  cairo_save (cr);
  cairo_translate (cr, 14, c->y0 + c->h / 2);
  cairo_rotate (cr, -G_PI / 2);
  chart rotated = *c;
  rotated.cr = cr;
  text (&rotated, 0, 0, 0.5, 0.5, y_label);
  cairo_restore (cr);
}

static void
series (chart *c, const double *x, const double *y, unsigned n, unsigned colour)
{
  cairo_t *cr = c->cr;
  rgb (cr, colour);
  cairo_set_line_width (cr, 3);
  for (unsigned i = 0; i < n; i++)
    {
      if (!isfinite (y[i]))
        continue;
      if (i == 0 || !isfinite (y[i - 1]))
        cairo_move_to (cr, px (c, x[i]), py (c, y[i]));
      else
        cairo_line_to (cr, px (c, x[i]), py (c, y[i]));
    }
  cairo_stroke (cr);
  for (unsigned i = 0; i < n; i++)
    if (isfinite (y[i]))
      {
        cairo_arc (cr, px (c, x[i]), py (c, y[i]), 5, 0, 2 * G_PI);
        cairo_fill (cr);
      }
}

static void
legend (chart *c, unsigned i, unsigned colour, const char *label)
{
  double x = c->x0 + c->w - 150, y = c->y0 + 16 + 20 * i;
  rgb (c->cr, colour);
  cairo_rectangle (c->cr, x, y - 5, 24, 10);
  cairo_fill (c->cr);
  text (c, x + 32, y, 0, 0.5, label);
}

static gboolean
measured (const dm_result *res)
{
  return res->status == DM_STATUS_COMPLETE || res->n_runs > 0;
}

static void
draw_blocks (chart *c, const dm_report *r)
{
  uint32_t blocks[DM_SWEEP_MAX_LIST];
  unsigned modes, n = dm_sweep_blocks_of (r, blocks, &modes);
  double x[DM_SWEEP_MAX_LIST], y[2][DM_SWEEP_MAX_LIST], top = 0;
  static const dm_mode shown[2] = { DM_MODE_READ, DM_MODE_WRITE };
  char buf[64];

  for (unsigned i = 0; i < n; i++)
    {
      x[i] = log2 (blocks[i]);
      y[0][i] = y[1][i] = NAN;
    }
  for (unsigned k = 0; k < r->n_results; k++)
    {
      const dm_result *res = &r->results[k];
      for (unsigned i = 0; i < n; i++)
        for (unsigned m = 0; m < 2; m++)
          if (res->spec.block_size == blocks[i] && res->mode == shown[m] && measured (res))
            {
              y[m][i] = res->mb_per_s;
              top = fmax (top, res->mb_per_s);
            }
    }
  c->xmin = n ? x[0] - 0.5 : 0;
  c->xmax = n ? x[n - 1] + 0.5 : 1;
  c->ymax = nice_ceiling (top);
  const dm_spec *sp = &r->results[0].spec;
  snprintf (buf, sizeof buf, _ ("%s Q%uT%u: MB/s by block size"), sp->pattern == DM_SEQ ? "SEQ" : "RND",
            sp->queue_depth, sp->threads);
  frame (c, buf, "MB/s", _ ("block size (log2 scale)"));
  for (unsigned i = 0; i < n; i++)
    {
      dm_block_short (blocks[i], buf, sizeof buf);
      text (c, px (c, x[i]), c->y0 + c->h + 6, 0.5, 0, buf);
    }
  unsigned row = 0;
  if (modes & DM_MODE_BIT (DM_MODE_READ))
    {
      series (c, x, y[0], n, DM_SWEEP_CHART_READ_RGB);
      legend (c, row++, DM_SWEEP_CHART_READ_RGB, _ ("Read"));
    }
  if (modes & DM_MODE_BIT (DM_MODE_WRITE))
    {
      series (c, x, y[1], n, DM_SWEEP_CHART_WRITE_RGB);
      legend (c, row++, DM_SWEEP_CHART_WRITE_RGB, _ ("Write"));
    }
}

static void
draw_curve (chart *c, const dm_report *r, double bound_us)
{
  double x[DM_SWEEP_CURVE_POINTS], y[DM_SWEEP_CURVE_POINTS], top = bound_us, right = 0;
  unsigned n = 0;
  char buf[96];

  for (unsigned i = 1; i < r->n_results && n < DM_SWEEP_CURVE_POINTS; i++)
    {
      const dm_result *res = &r->results[i];
      if (res->workload.rate_unit != DM_RATE_IOPS)
        continue;
      x[n] = res->workload.rate;
      y[n] = measured (res) && res->latency.p99 > 0 ? res->latency.p99 : NAN;
      right = fmax (right, x[n]);
      if (isfinite (y[n]))
        top = fmax (top, y[n]);
      n++;
    }
  if (!right && r->n_results && measured (&r->results[0]))
    right = r->results[0].iops;
  c->xmin = 0;
  c->xmax = nice_ceiling (right * 1.05);
  c->ymax = nice_ceiling (top * 1.1);
  frame (c, _ ("Rate curve: p99 latency by offered rate"), _ ("p99 latency (µs)"),
         _ ("offered IOPS"));
  for (int i = 0; i <= 4; i++)
    {
      snprintf (buf, sizeof buf, "%g", c->xmax * i / 4);
      text (c, px (c, c->xmax * i / 4), c->y0 + c->h + 6, 0.5, 0, buf);
    }
  series (c, x, y, n, DM_SWEEP_CHART_READ_RGB);
  legend (c, 0, DM_SWEEP_CHART_READ_RGB, _ ("p99 latency"));
  if (bound_us > 0)
    {
      rgb (c->cr, DM_SWEEP_CHART_BOUND_RGB);
      cairo_set_line_width (c->cr, 3);
      double dash[] = { 10, 6 };
      cairo_set_dash (c->cr, dash, 2, 0);
      cairo_move_to (c->cr, c->x0, py (c, bound_us));
      cairo_line_to (c->cr, c->x0 + c->w, py (c, bound_us));
      cairo_stroke (c->cr);
      cairo_set_dash (c->cr, NULL, 0, 0);
      legend (c, 1, DM_SWEEP_CHART_BOUND_RGB, _ ("latency bound"));
    }
}

void
dm_sweep_chart_draw (cairo_t             *cr,
                     int                  width,
                     int                  height,
                     const dm_report     *r,
                     const dm_sweep_plan *plan)
{
  chart c = { cr, MARGIN_LEFT, MARGIN_TOP, width - MARGIN_LEFT - MARGIN_RIGHT,
              height - MARGIN_TOP - MARGIN_BOTTOM, 0, 1, 1, { 0.2, 0.2, 0.2, 1 } };
  if (!r || !r->n_results || c.w < 50 || c.h < 50)
    return;
  if (dm_sweep_kind_of (r) == DM_SWEEP_RATES)
    draw_curve (&c, r, plan ? plan->latency_bound_us : 0);
  else
    draw_blocks (&c, r);
}

void
dm_sweep_chart_summary (const dm_report     *r,
                        const dm_sweep_plan *plan,
                        GString             *summary)
{
  int best = -1;
  if (plan->kind == DM_SWEEP_BLOCKS)
    {
      uint32_t blocks[DM_SWEEP_MAX_LIST];
      unsigned modes, n = dm_sweep_blocks_of (r, blocks, &modes);
      char lo[16], hi[16];
      dm_block_short (blocks[0], lo, sizeof lo);
      dm_block_short (blocks[n - 1], hi, sizeof hi);
      g_string_append_printf (summary, _ ("%u block sizes from %s to %s at QD %u × %u threads, "
                                          "as ATTO Disk Benchmark measures them."),
                              n, lo, hi, r->results[0].spec.queue_depth,
                              r->results[0].spec.threads);
    }
  else
    {
      if (r->results[0].status == DM_STATUS_COMPLETE)
        g_string_append_printf (summary, _ ("Maximum %.0f IOPS; the points offer 10 to 100 %% of "
                                            "it."), r->results[0].iops);
      if (plan->latency_bound_us > 0)
        {
          g_autofree char *bound = dm_latency_view_format_us (plan->latency_bound_us);
          if (dm_sweep_curve_best (r, plan->latency_bound_us, &best) == 0)
            g_string_append_printf (summary, _ ("  Highest rate with p99 ≤ %s: %.0f IOPS offered, "
                                                "%.0f reached."),
                                    bound, r->results[best].workload.rate, r->results[best].iops);
          else
            g_string_append_printf (summary, _ ("  No rate keeps p99 under %s."), bound);
        }
    }
}
