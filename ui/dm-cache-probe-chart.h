/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host-cache ladder drawn: one panel per test (RND4K above, SEQ1M
 * below), MB/s against the working set on a log2 axis, each step marked
 * where the cache ends with its size, and the rates of the levels before
 * and after as dashed lines.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-cache-probe.h"

G_BEGIN_DECLS

/* Draws r's ladders (any results not complete are left out) into a
 * width x height area of widget; nothing when r is NULL. */
void dm_cache_probe_chart_draw (GtkWidget       *widget,
                                cairo_t         *cr,
                                int              width,
                                int              height,
                                const dm_report *r);

G_END_DECLS
