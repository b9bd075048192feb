/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capture's drawing (dm-capture-chart.h): plain cairo over the
 * engine's summary, the same buckets the text report and the JSON hold,
 * so a bar stands where the saved figures put it. Each panel shows only
 * the bins from the first to the last with any request.
 */
#include "dm-capture-chart.h"
#include "dm-i18n-ui.h"

#include <math.h>
#include <string.h>

#include "dm-draw.h"

#define PAD_L 40
#define PAD_R 10
#define PAD_T 22
#define PAD_B 30
#define GAP   14

/* Reads blue, writes orange: the colours the grid's tiles use for them. */
static const double read_rgb[3] = { 0.15, 0.45, 0.85 };
static const double write_rgb[3] = { 0.90, 0.50, 0.10 };

typedef enum { SIZES, SEEKS, DEPTHS, LATENCY, INTERARRIVAL, N_PANELS } panel_kind;

/* The bin counts of one panel for one direction; the number of bins. */
static unsigned
bins_of (const dm_capture *c, panel_kind kind, unsigned dir, uint64_t *out)
{
  const dm_capture_dir *d = &c->dir[dir];

  switch (kind)
    {
    case SIZES:
      memcpy (out, d->sizes, sizeof d->sizes);
      return DM_CAPTURE_SIZES;
    case SEEKS:
      memcpy (out, d->seeks, sizeof d->seeks);
      return DM_CAPTURE_SEEKS;
    case DEPTHS:
      dm_capture_depth_bins (d, out);
      return DM_CAPTURE_DEPTH_BINS;
    case LATENCY:
      dm_capture_time_bins (&d->latency, out);
      return DM_CAPTURE_TIME_BINS;
    case INTERARRIVAL:
    default:
      dm_capture_time_bins (&d->interarrival, out);
      return DM_CAPTURE_TIME_BINS;
    }
}

static void
bin_label (panel_kind kind, unsigned b, unsigned n, char *buf, size_t size)
{
  if (kind == SIZES)
    dm_capture_size_label (b, buf, size);
  else if (kind == SEEKS)
    dm_capture_seek_label (b, buf, size);
  else if (kind == DEPTHS)
    dm_capture_depth_label (b, buf, size);
  else if (b + 1 == n)
    g_snprintf (buf, size, ">%llu", 1ull << (b - 1));
  else if (b >= 10)
    g_snprintf (buf, size, "%llum", 1ull << (b - 10));
  else
    g_snprintf (buf, size, "%llu", 1ull << b);
}

static const char *
panel_title (panel_kind kind)
{
  switch (kind)
    {
    case SIZES: return _("I/O size (share of requests, %)");
    case SEEKS: return _("Seek distance, % (0: sequential)");
    case DEPTHS: return _("Outstanding I/Os at issue, %");
    case LATENCY: return _("Device latency (µs; m: ms), %");
    case INTERARRIVAL: default: return _("Interarrival time (µs; m: ms), %");
    }
}

static void
histogram_panel (GtkWidget *widget, cairo_t *cr, const dm_capture *c, panel_kind kind,
                 double x0, double y0, double w, double h, const GdkRGBA *fg)
{
  uint64_t bins[2][DM_CAPTURE_SEEKS];
  unsigned n = 0, first = UINT_MAX, last = 0;
  double top = 0, share[2][DM_CAPTURE_SEEKS];
  char text[32];

  for (unsigned d = 0; d < 2; d++)
    {
      n = bins_of (c, kind, d, bins[d]);
      for (unsigned b = 0; b < n; b++)
        {
          share[d][b] = c->dir[d].requests ? 100.0 * bins[d][b] / c->dir[d].requests : 0;
          top = fmax (top, share[d][b]);
          if (bins[d][b])
            first = MIN (first, b), last = MAX (last, b);
        }
    }
  gdk_cairo_set_source_rgba (cr, fg);
  dm_draw_text (widget, cr, panel_title (kind), x0, y0 - 4, 0, 1, TRUE, 0.85);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x0, y0 + h);
  cairo_line_to (cr, x0 + w, y0 + h);
  cairo_stroke (cr);
  if (first == UINT_MAX)
    {
      dm_draw_text (widget, cr, _("no request"), x0 + w / 2, y0 + h / 2, 0.5, 0.5, FALSE, 0.85);
      return;
    }
  top = ceil (top / 10) * 10;
  for (int q = 0; q <= 2; q++)
    {
      g_snprintf (text, sizeof text, "%.0f", top * q / 2);
      dm_draw_text (widget, cr, text, x0 - 4, y0 + h - h * q / 2, 1, 0.5, FALSE, 0.75);
    }
  unsigned shown = last - first + 1;
  double slot = w / shown, bar = fmax (1, slot * 0.4);
  unsigned every = (unsigned) ceil (42.0 / slot);

  for (unsigned b = first; b <= last; b++)
    {
      double sx = x0 + (b - first) * slot;

      for (unsigned d = 0; d < 2; d++)
        {
          const double *rgb = d ? write_rgb : read_rgb;
          double bh = share[d][b] / top * h;

          if (bh <= 0)
            continue;
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_rectangle (cr, sx + slot * 0.1 + d * bar, y0 + h - bh, bar, bh);
          cairo_fill (cr);
        }
      if ((b - first) % MAX (every, 1) == 0)
        {
          bin_label (kind, b, n, text, sizeof text);
          gdk_cairo_set_source_rgba (cr, fg);
          dm_draw_text (widget, cr, text, sx + slot / 2, y0 + h + 3, 0.5, 0, FALSE, 0.7);
        }
    }
}

/* IOPS of each second, reads and writes stacked. */
static void
iops_panel (GtkWidget *widget, cairo_t *cr, const dm_capture *c, double x0, double y0, double w,
            double h, const GdkRGBA *fg)
{
  unsigned per_s = (unsigned) (1e9 / DM_CAPTURE_TICK_NS), n = (c->n_ticks + per_s - 1) / per_s;
  double top = 0;
  char text[32];

  for (unsigned s = 0; s < n; s++)
    {
      double v = 0;

      for (unsigned k = s * per_s; k < MIN ((s + 1) * per_s, c->n_ticks); k++)
        v += c->ticks[k][0] + c->ticks[k][1];
      top = fmax (top, v);
    }
  gdk_cairo_set_source_rgba (cr, fg);
  dm_draw_text (widget, cr, _("IOPS per second"), x0, y0 - 4, 0, 1, TRUE, 0.85);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x0, y0 + h);
  cairo_line_to (cr, x0 + w, y0 + h);
  cairo_stroke (cr);
  if (!n || top <= 0)
    return;
  g_snprintf (text, sizeof text, "%.0f", top);
  dm_draw_text (widget, cr, text, x0 - 4, y0, 1, 0.5, FALSE, 0.75);
  g_snprintf (text, sizeof text, "%u s", n);
  dm_draw_text (widget, cr, text, x0 + w, y0 + h + 3, 1, 0, FALSE, 0.75);
  for (unsigned s = 0; s < n; s++)
    {
      double r = 0, wr = 0, sx = x0 + w * s / n, sw = fmax (1, w / n * 0.8);

      for (unsigned k = s * per_s; k < MIN ((s + 1) * per_s, c->n_ticks); k++)
        r += c->ticks[k][0], wr += c->ticks[k][1];
      cairo_set_source_rgb (cr, read_rgb[0], read_rgb[1], read_rgb[2]);
      cairo_rectangle (cr, sx, y0 + h - r / top * h, sw, r / top * h);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, write_rgb[0], write_rgb[1], write_rgb[2]);
      cairo_rectangle (cr, sx, y0 + h - (r + wr) / top * h, sw, wr / top * h);
      cairo_fill (cr);
    }
}

void
dm_capture_chart_draw (GtkWidget        *widget,
                       cairo_t          *cr,
                       int               width,
                       int               height,
                       const dm_capture *c)
{
  GdkRGBA fg;

  if (!c)
    return;
  dm_draw_get_foreground (widget, &fg);
  /* The legend, top right. */
  for (unsigned d = 0; d < 2; d++)
    {
      const double *rgb = d ? write_rgb : read_rgb;
      double lx = width - 150 + d * 75;

      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lx, 4, 12, 12);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      dm_draw_text (widget, cr, d ? _("Writes") : _("Reads"), lx + 16, 10, 0, 0.5, FALSE, 0.85);
    }
  if (c->from != DM_CAPTURE_FROM_EVENTS)
    {
      /* Counters have no per-request figures: only the timeline. */
      dm_draw_text (widget, cr, _("The disk's counters give means only: no histograms."),
                    PAD_L, height - 12, 0, 1, FALSE, 0.9);
      iops_panel (widget, cr, c, PAD_L, PAD_T + 20, width - PAD_L - PAD_R,
                  height - PAD_T - PAD_B - 50, &fg);
      return;
    }
  double pw = (width - 3 * (PAD_L + PAD_R) - 2 * GAP) / 3.0;
  double ph = (height - 2 * (PAD_T + PAD_B) - 20) / 2.0;
  if (pw < 40 || ph < 30)
    return;
  for (unsigned p = 0; p <= N_PANELS; p++)
    {
      double x0 = PAD_L + (p % 3) * (pw + PAD_L + PAD_R + GAP);
      double y0 = 20 + PAD_T + (p / 3) * (ph + PAD_T + PAD_B);

      if (p == N_PANELS)
        iops_panel (widget, cr, c, x0, y0, pw, ph, &fg);
      else
        histogram_panel (widget, cr, c, p, x0, y0, pw, ph, &fg);
    }
}
