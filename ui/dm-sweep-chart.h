/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window's line charts for the sweeps that are no QD x T grid:
 * a block-size sweep as ATTO Disk Benchmark draws it (MB/s against the
 * block size on a log2 axis, a read and a write series) and a rate curve
 * as vdbench's iorate=curve reads (p99 latency against the offered IOPS,
 * with the latency bound as a line).
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-sweep.h"

G_BEGIN_DECLS

/* The series colours, which tests find in a screenshot. */
#define DM_SWEEP_CHART_READ_RGB  0x0072b2  /* blue: reads, and the curve's p99 */
#define DM_SWEEP_CHART_WRITE_RGB 0x009e73  /* bluish green: writes */
#define DM_SWEEP_CHART_BOUND_RGB 0xcc79a7  /* reddish purple: the latency bound */

/* Draws r (a block sweep or a rate curve; plan for the bound) into a
 * width x height area; results not measured yet are left out. */
void dm_sweep_chart_draw (cairo_t             *cr,
                          int                  width,
                          int                  height,
                          const dm_report     *r,
                          const dm_sweep_plan *plan);

/* The sentence under the chart: the sizes and load, or the maximum and
 * the highest rate under the bound. */
void dm_sweep_chart_summary (const dm_report     *r,
                             const dm_sweep_plan *plan,
                             GString             *summary);

G_END_DECLS
