/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture's histograms drawn as vscsiStats prints them: one panel each
 * for request size, seek distance, outstanding requests at issue, device
 * latency and interarrival time, reads and writes side by side as shares
 * of their direction's requests, and a sixth panel of the IOPS over time.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-capture.h"

G_BEGIN_DECLS

/* Draws c into a width x height area of widget; nothing when c is NULL,
 * the IOPS alone (and a sentence) when it was read from the counters. */
void dm_capture_chart_draw (GtkWidget        *widget,
                            cairo_t          *cr,
                            int               width,
                            int               height,
                            const dm_capture *c);

/* The bins the panels draw (also what the text report's tables hold):
 * times in log2 bins of microseconds, <=1 us ... >2^20 us; outstanding
 * requests 1..8 one each, then 9-16, 17-32 ... 256+. */
#define DM_CAPTURE_CHART_TIME_BINS  DM_CAPTURE_TIME_BINS
#define DM_CAPTURE_CHART_DEPTH_BINS 14
void dm_capture_chart_depth_bins (const dm_capture_dir *d,
                                  uint64_t              bins[DM_CAPTURE_CHART_DEPTH_BINS]);

G_END_DECLS
