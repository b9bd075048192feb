/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a comparison cell reads, apart from widgets so a test can check it
 * without a display: the figure as the grid prints it, and for every run
 * after the first its difference to the first in percent with a sign.
 */
#pragma once

#include <glib.h>

#include "dm-compare.h"

G_BEGIN_DECLS

/* "20.01" for the first run, "20.01  -50.0%" after it; "–" when the run
 * lacks the test. */
char       *dm_compare_cell_format (const dm_compare_cell *cell,
                                    dm_unit                unit,
                                    gboolean               first);
/* The CSS class for a cell's difference: "better", "worse", "same" or NULL. */
const char *dm_compare_cell_class  (const dm_compare_cell *cell,
                                    gboolean               first);
/* The length of a cell's meter bar, 0..1: its figure against the largest
 * in its row, so bar lengths stand in the figures' own ratio (a run at half
 * the speed draws half the bar). 0 for a missing cell. */
double      dm_compare_cell_meter  (const dm_compare_row  *row,
                                    unsigned               n_runs,
                                    unsigned               i);

G_END_DECLS
