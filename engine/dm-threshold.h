/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Green and red limits, as administrators keep them in their spreadsheets:
 * "Read RND4K IOPS green above 90000", "latency red above 10000 us". A rule
 * names a unit and optionally a column (read, write, mix) and a test; the
 * most specific rule that matches a figure colours it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-spec.h"
#include "dm-units.h"

typedef enum { DM_COLOUR_NONE, DM_COLOUR_GREEN, DM_COLOUR_RED } dm_colour;

/* The most rules a run keeps (a report's, the CLI's, the window's). */
#define DM_THRESHOLDS_MAX 16

typedef struct dm_threshold {
  bool    has_mode;
  dm_mode mode;
  bool    has_spec;
  dm_spec spec;
  dm_unit unit;
  bool    has_green, green_above; /* green when value > green (above) or < green */
  bool    green_inclusive;        /* >= or <= : the limit itself counts */
  double  green;
  bool    has_red, red_above;     /* red when value > red (above) or < red */
  bool    red_inclusive;
  double  red;
} dm_threshold;

/* "read RND4K_Q32T1 IOPS green>90000 red<50000", "us red>10000",
 * "write MB/s green>=500". Words in any order, separated by spaces. */
int dm_threshold_parse (const char *text, dm_threshold *out, char *why, size_t why_size);
/* Back to that text, for settings files and reports. */
void dm_threshold_format (const dm_threshold *t, char *buf, size_t size);

/* The colour of a figure under a list of rules (red wins over green when
 * both limits are crossed; a rule naming a test beats one naming only a
 * column, which beats one naming neither). */
dm_colour dm_threshold_colour (const dm_threshold *rules, unsigned n, const dm_spec *spec,
                               dm_mode mode, dm_unit unit, double value);
const char *dm_colour_name (dm_colour c); /* "", "green", "red" */
