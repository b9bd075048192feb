/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sweep heat map's scale and geometry and the latency chart's labels,
 * without a display: a colour that says which load is best, cells that
 * tile the map with the fewest threads at the bottom, and round labels.
 */
#include <math.h>
#include <locale.h>

#include "dm-heatmap.h"
#include "dm-latency-chart.h"
#include "dm-latency-view.h"

static void
test_scale (void)
{
  /* Log scale: the geometric mean of the ends is the middle. */
  g_assert_cmpfloat_with_epsilon (dm_heatmap_scale (100, 100, 10000), 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_heatmap_scale (10000, 100, 10000), 1, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_heatmap_scale (1000, 100, 10000), 0.5, 1e-9);
  /* Outside the range clamps; one value alone sits in the middle. */
  g_assert_cmpfloat (dm_heatmap_scale (50, 100, 10000), ==, 0);
  g_assert_cmpfloat (dm_heatmap_scale (1e6, 100, 10000), ==, 1);
  g_assert_cmpfloat (dm_heatmap_scale (7, 7, 7), ==, 0.5);
  /* Not measured is not the worst colour. */
  g_assert_cmpfloat (dm_heatmap_scale (NAN, 1, 10), <, 0);
  g_assert_cmpfloat (dm_heatmap_scale (0, 1, 10), <, 0);
  g_assert_cmpfloat (dm_heatmap_scale (-4, 1, 10), <, 0);
}

static void
test_colour (void)
{
  GdkRGBA lo, mid, hi, prev;

  dm_heatmap_colour (0, &lo);
  dm_heatmap_colour (0.5, &mid);
  dm_heatmap_colour (1, &hi);
  /* Viridis ends: dark purple and yellow, the test PNG looks for them. */
  g_assert_cmpint ((int) round (lo.red * 255), ==, 68);
  g_assert_cmpint ((int) round (lo.blue * 255), ==, 84);
  g_assert_cmpint ((int) round (hi.red * 255), ==, 253);
  g_assert_cmpint ((int) round (hi.green * 255), ==, 231);
  g_assert_cmpfloat (lo.alpha, ==, 1);
  /* Figures stay readable: white on the dark end, black on the bright. */
  g_assert_false (dm_heatmap_text_is_dark (&lo));
  g_assert_true (dm_heatmap_text_is_dark (&hi));
  /* Brightness only grows along the scale, so better always looks brighter. */
  dm_heatmap_colour (0, &prev);
  for (int i = 1; i <= 20; i++)
    {
      GdkRGBA c;
      dm_heatmap_colour (i / 20.0, &c);
      g_assert_cmpfloat (0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue, >,
                         0.2126 * prev.red + 0.7152 * prev.green + 0.0722 * prev.blue);
      prev = c;
    }
  /* Out of range clamps rather than inventing colours. */
  dm_heatmap_colour (-1, &mid);
  g_assert_cmpfloat (mid.red, ==, lo.red);
}

static void
test_geometry (void)
{
  DmHeatmapGeometry g;
  graphene_rect_t a, b, bottom_left, top_left;

  dm_heatmap_layout (&g, 700, 400, 9, 5);
  g_assert_cmpuint (g.n_columns, ==, 9);
  g_assert_cmpuint (g.n_rows, ==, 5);
  /* Whole-pixel cells, inside the widget, with the legend to the right. */
  g_assert_cmpfloat (fmod (g.cells.size.width, 9), ==, 0);
  g_assert_cmpfloat (fmod (g.cells.size.height, 5), ==, 0);
  g_assert_cmpfloat (g.cells.origin.x, >, 0);
  g_assert_cmpfloat (g.legend.origin.x, >=, g.cells.origin.x + g.cells.size.width);
  g_assert_cmpfloat (g.legend.origin.x + g.legend.size.width, <=, 700);
  g_assert_cmpfloat (g.cells.origin.y + g.cells.size.height, <, 400);

  /* Neighbours share an edge and do not overlap. */
  dm_heatmap_cell_rect (&g, 3, 2, &a);
  dm_heatmap_cell_rect (&g, 4, 2, &b);
  g_assert_cmpfloat (a.origin.x + a.size.width, ==, b.origin.x);
  g_assert_cmpfloat (a.origin.y, ==, b.origin.y);
  dm_heatmap_cell_rect (&g, 3, 3, &b);
  g_assert_cmpfloat (b.origin.y + b.size.height, ==, a.origin.y);

  /* Row 0 (one thread) at the bottom, as on a chart; the grid is covered. */
  dm_heatmap_cell_rect (&g, 0, 0, &bottom_left);
  dm_heatmap_cell_rect (&g, 0, 4, &top_left);
  g_assert_cmpfloat (bottom_left.origin.y + bottom_left.size.height, ==,
                     g.cells.origin.y + g.cells.size.height);
  g_assert_cmpfloat (top_left.origin.y, ==, g.cells.origin.y);
  g_assert_cmpfloat (bottom_left.origin.x, ==, g.cells.origin.x);

  /* Too small a widget gives empty cells, not negative ones. */
  dm_heatmap_layout (&g, 10, 10, 3, 3);
  g_assert_cmpfloat (g.cells.size.width, >=, 0);
  g_assert_cmpfloat (g.cells.size.height, >=, 0);
}

static void
test_labels (void)
{
  static const struct { double ns; const char *want; } ns[] = {
    { 100, "100 ns" }, { 1e3, "1 µs" }, { 2e4, "20 µs" }, { 1e6, "1 ms" }, { 1e7, "10 ms" },
    { 1e9, "1 s" },
  };
  static const struct { double us; const char *want; } us[] = {
    { 87.34, "87.3 µs" }, { 1250, "1.25 ms" }, { 2.5e6, "2.5 s" }, { 0, "–" }, { NAN, "–" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ns); i++)
    {
      g_autofree char *got = dm_latency_chart_format_ns (ns[i].ns);
      g_assert_cmpstr (got, ==, ns[i].want);
    }
  for (guint i = 0; i < G_N_ELEMENTS (us); i++)
    {
      g_autofree char *got = dm_latency_view_format_us (us[i].us);
      g_assert_cmpstr (got, ==, us[i].want);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/heatmap/scale", test_scale);
  g_test_add_func ("/ui/heatmap/colour", test_colour);
  g_test_add_func ("/ui/heatmap/geometry", test_geometry);
  g_test_add_func ("/ui/latency/labels", test_labels);
  return g_test_run ();
}
