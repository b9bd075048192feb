/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a comparison cell reads, apart from widgets so a test can check it
 * without a display: the figure as the grid prints it, and for every run
 * after the first its difference to the first in percent with a sign,
 * what a screen reader says of it, and the words around the table (the
 * legend, the settings that differ), which the engine's comparison gives.
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
/* The CSS class for a cell's difference: "better", "worse", "same" or NULL.
 * A difference from one run is "same" too: grey, as nothing judged it. */
const char *dm_compare_cell_class  (const dm_compare_cell *cell,
                                    gboolean               first);
/* The length of a cell's meter bar, 0..1: its figure against the largest
 * in its row, so bar lengths stand in the figures' own ratio (a run at half
 * the speed draws half the bar). 0 for a missing cell. */
double      dm_compare_cell_meter  (const dm_compare_row  *row,
                                    unsigned               n_runs,
                                    unsigned               i);

/* The words under a cell's figure: "no spread: one run" where a side has
 * one run, so its difference is no verdict; NULL otherwise. */
const char *dm_compare_cell_note   (const dm_compare_cell *cell,
                                    gboolean               first);
/* A cell as a screen reader says it: "B, SEQ1M / Q8T1 Read: 96.80 MB/s,
 * -3.2% against A, no spread: one run". */
char       *dm_compare_cell_describe (const dm_compare *c,
                                      unsigned          row,
                                      unsigned          i);
/* What a row is called in the table: "SEQ1M / Q8T1 Read", or a workload
 * row's own name (valid UTF-8). */
char       *dm_compare_row_title   (const dm_compare_row  *row);
/* A workload row's shape as its mode line says it, for a tooltip; NULL
 * for a plain test. */
char       *dm_compare_row_shape   (const dm_compare_row  *row);
/* "A", "B", ... "Z", then "27", as the columns are headed. */
char       *dm_compare_run_letter  (unsigned               i);
/* The legend under the table: one line per run that says where (path,
 * filesystem, device, model, each once), when and its comment, then what
 * the colours mean. */
char       *dm_compare_legend      (const dm_compare      *c);
/* The line above the table naming the settings that differ between the
 * runs ("Different settings: test size 1 GiB vs 64 MiB; count 5 vs 1"),
 * or NULL when they agree. */
char       *dm_compare_settings_line (const dm_compare    *c);

G_END_DECLS
