/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline chart: MB/s over time with the p99 latency beside it, one
 * step per sample, and where a sustained run's write cache ran out (the
 * cliff) with the rates before and after it. The Sustained window shows it
 * large; the latency detail shows it compact under its histogram.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

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
/* Compact (the "compact" property): 180 pixels high, tighter margins and
 * no "No samples yet", for a chart under another one. */
void       dm_timeline_chart_set_compact (DmTimelineChart       *self,
                                          gboolean               compact);
gboolean   dm_timeline_chart_get_compact (DmTimelineChart       *self);

/* The time axis's ticks over 0 to t_end (1, 2 or 5 times a power of ten
 * apart, about five) and their labels ("0.05 s"); returns how many, at
 * most max. */
guint      dm_timeline_chart_time_ticks  (double                 t_end,
                                          double                *ticks,
                                          char                 (*labels)[16],
                                          guint                  max);

G_END_DECLS
