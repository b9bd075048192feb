/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture's summary in the window's words: where it came from, the
 * read share, sizes, random share, IOPS, queue, latency and interarrival,
 * and, for a capture from the counters, what they cannot tell.
 */
#pragma once

#include <glib.h>

#include "dm-capture.h"

G_BEGIN_DECLS

/* The summary, a line a figure (free it). */
char *dm_capture_text_summary (const dm_capture *c);

G_END_DECLS
