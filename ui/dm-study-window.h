/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Study window: a study plan (engine/dm-study.h) opened, its
 * scenarios not yet in the history run one after the other off the main
 * thread, and the study's sheet shown as a table that fills in as each
 * scenario is saved: figures in green and red cells by the study's rules,
 * every column sortable, a switch to keep only the all-green rows. Saves
 * the sheet as diskmeter-cli study show does (CSV, Excel) or a PNG of the
 * window.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_STUDY_WINDOW (dm_study_window_get_type ())
G_DECLARE_FINAL_TYPE (DmStudyWindow, dm_study_window, DM, STUDY_WINDOW, GtkWindow)

GtkWidget *dm_study_window_new        (GtkApplication *app);
/* Reads a plan and shows the sheet its history holds so far. FALSE with
 * the plan's reason ("FILE: line N: ...") when it cannot. */
gboolean   dm_study_window_open       (DmStudyWindow  *self,
                                       const char     *path,
                                       GError        **error);
/* Runs the scenarios the history does not hold yet; FALSE (the reason on
 * the status line) when there is no plan, a run is going or all are done. */
gboolean   dm_study_window_start      (DmStudyWindow  *self);
/* Stops within a quarter second; the scenario running is not saved and
 * its test file is removed. */
void       dm_study_window_stop       (DmStudyWindow  *self);
gboolean   dm_study_window_is_running (DmStudyWindow  *self);
/* Only the rows green in every ruled cell. */
void       dm_study_window_set_green_only (DmStudyWindow *self,
                                           gboolean       green_only);
/* Sorts by the column titled so ("Q", "Read SEQ1M MB/s"), descending
 * when descending; FALSE when no column has that title. */
gboolean   dm_study_window_sort_by    (DmStudyWindow  *self,
                                       const char     *title,
                                       gboolean        descending);
/* Rows shown (after the filter). */
guint      dm_study_window_n_shown    (DmStudyWindow  *self);
/* format: "csv" or "xlsx" (the sheet, as diskmeter-cli study show
 * writes it), or "png" (the window). */
gboolean   dm_study_window_save       (DmStudyWindow  *self,
                                       const char     *format,
                                       const char     *path,
                                       GError        **error);

G_END_DECLS
