/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A heat map of one figure over the sweep's queue depths (columns) and
 * thread counts (rows), with its value in each cell, a colour legend and
 * the knee and the best load under the latency bound outlined. The scale
 * and the geometry are plain functions so they are tested without a display.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_HEATMAP_MAX_AXIS 16

/* Where the parts of a heat map go inside a width x height area. */
typedef struct
{
  graphene_rect_t cells;   /* the grid of cells */
  graphene_rect_t legend;  /* the colour bar */
  guint           n_columns;
  guint           n_rows;
} DmHeatmapGeometry;

/* Position of value on a log scale from lo (0) to hi (1), clamped; 0.5
 * when lo == hi, -1 for a missing (NaN or non-positive) value. */
double   dm_heatmap_scale         (double             value,
                                   double             lo,
                                   double             hi);
/* The colour at a position of the scale (viridis: dark purple to yellow). */
void     dm_heatmap_colour        (double             position,
                                   GdkRGBA           *colour);
/* Black or white, whichever reads better on colour. */
gboolean dm_heatmap_text_is_dark  (const GdkRGBA     *colour);
void     dm_heatmap_layout        (DmHeatmapGeometry *geometry,
                                   double             width,
                                   double             height,
                                   guint              n_columns,
                                   guint              n_rows);
/* Cell of column (queue depth index) and row (threads index); row 0, the
 * fewest threads, is at the bottom as on a chart. */
void     dm_heatmap_cell_rect     (const DmHeatmapGeometry *geometry,
                                   guint              column,
                                   guint              row,
                                   graphene_rect_t   *rect);

#define DM_TYPE_HEATMAP (dm_heatmap_get_type ())
G_DECLARE_FINAL_TYPE (DmHeatmap, dm_heatmap, DM, HEATMAP, GtkWidget)

GtkWidget *dm_heatmap_new        (void);
/* values[row * n_qds + column]; NaN for a combination not measured. When
 * lower_is_better, the best (lowest) value gets the bright end. */
void       dm_heatmap_set_data   (DmHeatmap      *self,
                                  const char     *title,
                                  const char     *unit,
                                  gboolean        lower_is_better,
                                  const unsigned *qds,
                                  guint           n_qds,
                                  const unsigned *threads,
                                  guint           n_threads,
                                  const double   *values);
/* The (column, row) under a point in widget coordinates, if any. */
gboolean   dm_heatmap_cell_at    (DmHeatmap      *self,
                                  double          x,
                                  double          y,
                                  guint          *column,
                                  guint          *row);
/* Cells to outline, as (column, row); -1 for none. */
void       dm_heatmap_set_marks  (DmHeatmap      *self,
                                  int             knee_column,
                                  int             knee_row,
                                  int             best_column,
                                  int             best_row);

G_END_DECLS
