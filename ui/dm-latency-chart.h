/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A histogram of I/O latency on log-spaced buckets (ten per decade), as the
 * percent of I/Os in each; for Mix the reads and the writes side by side on
 * one axis, so their shapes compare at a glance.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-histogram.h"

G_BEGIN_DECLS

#define DM_LATENCY_CHART_PER_DECADE 10
#define DM_LATENCY_CHART_MAX_EDGES  128

/* A round latency for an axis label: "1 µs", "20 µs", "1 ms", "10 s". */
char *dm_latency_chart_format_ns (double ns);

#define DM_TYPE_LATENCY_CHART (dm_latency_chart_get_type ())
G_DECLARE_FINAL_TYPE (DmLatencyChart, dm_latency_chart, DM, LATENCY_CHART, GtkWidget)

GtkWidget *dm_latency_chart_new            (void);
/* Either may be NULL or empty; the bars are computed now, the histograms
 * are not kept. */
void       dm_latency_chart_set_histograms (DmLatencyChart     *self,
                                            const dm_histogram *read,
                                            const dm_histogram *write);

G_END_DECLS
