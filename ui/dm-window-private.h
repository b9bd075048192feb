/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Views into the window for the widget tests: which rows, columns and tiles
 * the grid holds, and its report, so a test can put figures in and read
 * what a person would see.
 */
#pragma once

#include "dm-report.h"
#include "dm-window.h"

G_BEGIN_DECLS

guint       _dm_window_get_n_rows        (DmWindow *self);
guint       _dm_window_get_n_columns     (DmWindow *self);
GtkWidget  *_dm_window_get_row_button    (DmWindow *self,
                                          guint     row);
GtkWidget  *_dm_window_get_tile          (DmWindow *self,
                                          guint     row,
                                          guint     column);
char       *_dm_window_get_column_title  (DmWindow *self,
                                          guint     column);
dm_report  *_dm_window_get_report        (DmWindow *self);
void        _dm_window_refresh           (DmWindow *self);

G_END_DECLS
