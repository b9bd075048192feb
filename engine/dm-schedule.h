/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schedule of a fleet run: --start-at puts every test of every host on
 * a schedule from one TIME, so that their reports can be merged (dm-merge.h).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "dm-settings.h"

/* Wall-clock milliseconds since the epoch (UTC). */
int64_t dm_wall_ms (void);

/* "2026-11-30T21:00:00Z", "...T21:00:00.250Z", "...T22:00:00+01:00" (any
 * RFC 3339 offset) or "+SEC" from now_ms. A TIME must fall after now_ms and
 * at most a day later, as +SEC (0 to 86400) does; a day the month does not
 * have and a leap second are refused, not normalised. 0 or -EINVAL with a
 * reason. */
int dm_start_at_parse (const char *text, int64_t now_ms, int64_t *out_ms, char *why,
                       size_t why_size);
/* RFC 3339 in UTC with milliseconds: "2026-11-30T21:00:00.250Z". */
void dm_time_format_ms (int64_t ms, char *buf, size_t size);
/* The same back (any offset); 0 if malformed. */
int64_t dm_time_parse_ms (const char *text);

/* The k-th test of a scheduled run (0-based, in run order) has its first
 * measured run at start + k × (warm-up + count × measure + interval). */
int64_t dm_schedule_measure_ms (int64_t start_ms, const dm_settings *s, unsigned k);

/* How late a test may begin on its schedule before the host is out of step
 * with the others and gives up. */
#define DM_SCHEDULE_TOLERANCE_MS 1000
