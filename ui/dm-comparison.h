/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the main window compares side by side, in place of its grid: a second
 * folder measured in turns with the target (live, then finished), or saved
 * runs from the history. It owns the runs it compares and the view that
 * shows them; its "shown" property tells the window when to hide the grid.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-compare.h"
#include "dm-format.h"
#include "dm-job.h"

G_BEGIN_DECLS

#define DM_TYPE_COMPARISON (dm_comparison_get_type ())
G_DECLARE_FINAL_TYPE (DmComparison, dm_comparison, DM, COMPARISON, GObject)

DmComparison *dm_comparison_new            (void);
/* The DmCompareView it fills, for the window to place beside its grid. */
GtkWidget    *dm_comparison_get_view       (DmComparison       *self);
/* The "shown" property: two or more runs are on screen (and exported). */
gboolean      dm_comparison_get_shown      (DmComparison       *self);
/* What the window exports while shown, else NULL. */
const dm_compare *dm_comparison_get_compare (DmComparison      *self);
void          dm_comparison_hide           (DmComparison       *self);

/* The second folder "All" measures in turns with the target; NULL for
 * plain runs. */
void          dm_comparison_set_target     (DmComparison       *self,
                                            const char         *path);
const char   *dm_comparison_get_target     (DmComparison       *self);
/* The grid's unit and green/red limits, which the comparison follows. */
void          dm_comparison_set_unit       (DmComparison       *self,
                                            dm_unit             unit);
void          dm_comparison_set_thresholds (DmComparison       *self,
                                            const dm_threshold *rules,
                                            unsigned            n_rules);

/* Before job starts: the second target measured with the grid's tests
 * (layout's rows, the modes columns, settings s) and grid's profile,
 * comment and limits. grid is the first run's report from then on. */
gboolean      dm_comparison_prepare        (DmComparison       *self,
                                            DmJob              *job,
                                            const dm_report    *grid,
                                            const dm_settings  *s,
                                            const DmGridLayout *layout,
                                            guint               modes,
                                            GError            **error);
/* At each tick of job: rebuilt when another test completed on either side. */
void          dm_comparison_live           (DmComparison       *self,
                                            DmJob              *job);
/* After job finished: the second target's report (owned by the
 * comparison), compared with grid; NULL when the job had none. */
const dm_report *dm_comparison_finish      (DmComparison       *self,
                                            DmJob              *job,
                                            const dm_report    *grid);
/* Saved runs side by side: takes reports[0..n-1] and names (a GStrv).
 * Refused, with the reason in error, when they ran different profiles. */
gboolean      dm_comparison_show_saved     (DmComparison       *self,
                                            dm_report          *reports,
                                            char              **names,
                                            guint               n,
                                            GError            **error);

G_END_DECLS
