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

G_END_DECLS
