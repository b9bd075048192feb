/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The latency detail of one result, opened from its tile: the percentile
 * table (min to max) and the histogram chart, reads and writes apart for
 * Mix, and what the disk's own counters saw meanwhile. It keeps its own
 * copy of the figures, so a new run may start behind it.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

#define DM_TYPE_LATENCY_VIEW (dm_latency_view_get_type ())
G_DECLARE_FINAL_TYPE (DmLatencyView, dm_latency_view, DM, LATENCY_VIEW, GtkWindow)

/* title names the result, e.g. "RND4K Q32T1 Read"; res may be live. */
GtkWidget *dm_latency_view_new      (GtkWindow       *parent,
                                     const char      *title,
                                     const dm_result *res);
/* The report's reason for holding no disk counters ("a network
 * filesystem"), shown when the result has none. */
void       dm_latency_view_set_device_note (DmLatencyView *self,
                                            const char    *note);
/* Calls activate (widget, data) when widget is clicked, or gets Enter
 * while focused: how a tile opens its detail, for mouse and keyboard. */
void       dm_latency_view_connect_activate (GtkWidget  *widget,
                                             GCallback   activate,
                                             gpointer    data);
/* µs with a unit that keeps three significant digits: "87.3 µs", "1.25 ms". */
char      *dm_latency_view_format_us (double          us);

G_END_DECLS
