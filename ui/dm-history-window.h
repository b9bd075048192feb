/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The History window: every run the window or diskmeter-cli kept, newest
 * first, to open in the grid, compare side by side, comment, export or
 * delete. A file that does not load is listed with its reason, untouched.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_HISTORY_WINDOW (dm_history_window_get_type ())
G_DECLARE_FINAL_TYPE (DmHistoryWindow, dm_history_window, DM, HISTORY_WINDOW, GtkWindow)

/* The window that answers its open-run and compare-runs signals. */
DmHistoryWindow *dm_history_window_new    (GtkWindow       *parent);
/* Lists the history folder again (after a run, or a change elsewhere). */
void             dm_history_window_reload (DmHistoryWindow *self);

G_END_DECLS
