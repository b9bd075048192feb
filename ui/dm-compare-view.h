/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grid of a comparison: one row per test and mode, one column per run,
 * every run after the first with its difference to the first, coloured
 * better, worse or within the runs' own spread. Header buttons sort.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-compare.h"

G_BEGIN_DECLS

#define DM_TYPE_COMPARE_VIEW (dm_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (DmCompareView, dm_compare_view, DM, COMPARE_VIEW, GtkWidget)

GtkWidget *dm_compare_view_new            (void);
/* Shows c (borrowed: it must stay until the next call or NULL); sorting
 * from a header reorders c's rows in place. */
void       dm_compare_view_set_comparison (DmCompareView    *self,
                                           dm_compare       *c);
/* Rebuilds the cells after c's figures changed (live runs). */
void       dm_compare_view_refresh        (DmCompareView    *self);

G_END_DECLS
