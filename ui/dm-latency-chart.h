/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A histogram of I/O latency on log-spaced buckets (ten per decade), as the
 * percent of I/Os in each; for Mix the reads and the writes side by side on
 * one axis, so their shapes compare at a glance. Beside it the timeline
 * chart: MB/s over time with the p99 latency, and where a sustained run's
 * write cache ran out (the cliff) with the rates before and after it.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-histogram.h"
#include "dm-report.h"

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

#define DM_TYPE_TIMELINE_CHART (dm_timeline_chart_get_type ())
G_DECLARE_FINAL_TYPE (DmTimelineChart, dm_timeline_chart, DM, TIMELINE_CHART, GtkWidget)

/* What the chart marks on the timeline: the cliff (found), when it came
 * and the bytes moved before it, and the rates before and after it (with
 * no cliff: the opening rate and that of the last quarter). */
typedef struct
{
  gboolean found;
  double   at_s;
  guint64  cache_bytes;
  double   before_mb_per_s;
  double   after_mb_per_s;
} DmTimelineMarks;

GtkWidget *dm_timeline_chart_new         (void);
/* Copies the samples. axis_s: the time axis runs to at least this (a run
 * under way draws into its whole duration); 0 for the last sample's. */
void       dm_timeline_chart_set_samples (DmTimelineChart       *self,
                                          const dm_sample       *samples,
                                          guint                  n_samples,
                                          double                 axis_s);
/* NULL: no marks (too early to tell). */
void       dm_timeline_chart_set_marks   (DmTimelineChart       *self,
                                          const DmTimelineMarks *marks);

G_END_DECLS
