/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ladder's drawing (dm-cache-probe-chart.h): plain cairo over the
 * engine's ladders, the same dm_cache_probe_ladder_of the text report
 * and the JSON use, so the marks stand where the saved figures put them.
 */
#include "dm-cache-probe-chart.h"

#include <math.h>

#include "dm-draw.h"
#include "dm-units.h"

#define PAD_L 70
#define PAD_R 44
#define PAD_T 22
#define PAD_B 34

static void
panel (GtkWidget *widget, cairo_t *cr, const dm_report *r, unsigned t, double x0, double y0,
       double w, double h, const GdkRGBA *fg)
{
  dm_cache_probe_ladder l;
  char name[32], text[64];
  unsigned n = dm_cache_probe_n_sizes (r);
  double lo = log2 ((double) dm_cache_probe_size (r, 0));
  double hi = log2 ((double) dm_cache_probe_size (r, n - 1));
  double top = 0;

  dm_cache_probe_ladder_of (r, t, &l);
  for (unsigned k = 0; k < l.n; k++)
    top = fmax (top, l.mb_per_s[k]);
  top = top > 0 ? top * 1.15 : 1;
  if (hi <= lo)
    hi = lo + 1;
#define X(bytes) (x0 + (log2 ((double) (bytes)) - lo) / (hi - lo) * w)
#define Y(mb) (y0 + h - (mb) / top * h)

  /* Axes, the sizes under them and the scale beside them. */
  gdk_cairo_set_source_rgba (cr, fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x0, y0 + h);
  cairo_line_to (cr, x0 + w, y0 + h);
  cairo_stroke (cr);
  unsigned every = n > 8 ? 2 : 1;
  for (unsigned k = 0; k < n; k += every)
    {
      dm_size_human (dm_cache_probe_size (r, k), text, sizeof text);
      dm_draw_text (widget, cr, text, X (dm_cache_probe_size (r, k)), y0 + h + 4, 0.5, 0, FALSE,
                    0.8);
    }
  for (int q = 0; q <= 2; q++)
    {
      snprintf (text, sizeof text, "%.0f", top * q / 2);
      dm_draw_text (widget, cr, text, x0 - 6, Y (top * q / 2), 1, 0.5, FALSE, 0.8);
    }
  dm_spec_name (&dm_cache_probe_tests[t], name, sizeof name);
  snprintf (text, sizeof text, "%s %s, MB/s", name, n ? dm_mode_title (r->results[0].mode) : "");
  dm_draw_text (widget, cr, text, x0 + 4, y0 - 2, 0, 1, TRUE, 0.9);

  /* Each step: where the cache ends, the levels before and after. */
  for (unsigned s = 0; s < l.n_steps; s++)
    {
      const dm_cache_probe_step *st = &l.steps[s];
      double cx = X (st->cache_bytes);
      double dash[] = { 4, 3 };
      cairo_set_source_rgba (cr, 0.85, 0.2, 0.15, 1);
      cairo_move_to (cr, cx, y0);
      cairo_line_to (cr, cx, y0 + h);
      cairo_stroke (cr);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, x0, Y (st->cache_mb_per_s));
      cairo_line_to (cr, cx, Y (st->cache_mb_per_s));
      cairo_move_to (cr, cx, Y (st->beyond_mb_per_s));
      cairo_line_to (cr, x0 + w, Y (st->beyond_mb_per_s));
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      char size[32];
      dm_size_human (st->cache_bytes, size, sizeof size);
      snprintf (text, sizeof text, "%s%s", st->estimated ? "≈ " : "≤ ", size);
      dm_draw_text (widget, cr, text, cx + 4, y0 + 4, 0, 0, TRUE, 0.85);
    }

  /* The ladder itself. */
  cairo_set_source_rgba (cr, 0.15, 0.45, 0.85, 1);
  cairo_set_line_width (cr, 2);
  for (unsigned k = 0; k < l.n; k++)
    if (k == 0)
      cairo_move_to (cr, X (l.bytes[k]), Y (l.mb_per_s[k]));
    else
      cairo_line_to (cr, X (l.bytes[k]), Y (l.mb_per_s[k]));
  cairo_stroke (cr);
  for (unsigned k = 0; k < l.n; k++)
    {
      cairo_arc (cr, X (l.bytes[k]), Y (l.mb_per_s[k]), 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
    }
#undef X
#undef Y
}

void
dm_cache_probe_chart_draw (GtkWidget *widget, cairo_t *cr, int width, int height,
                           const dm_report *r)
{
  GdkRGBA fg;
  if (!r || !dm_cache_probe_n_sizes (r))
    return;
  dm_draw_get_foreground (widget, &fg);
  double w = width - PAD_L - PAD_R, ph = (height - 2 * (PAD_T + PAD_B)) / 2.0;
  if (w < 20 || ph < 20)
    return;
  for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
    panel (widget, cr, r, t, PAD_L, PAD_T + t * (ph + PAD_T + PAD_B), w, ph, &fg);
}
