/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sustained window: one pattern written (or read) once through a test
 * file as large as the span, on an ordinary DmJob, with the rate over time
 * drawn as it is measured and the cliff where a write cache runs out
 * marked, with the rates before and after; a saved sustained JSON (from
 * diskmeter-cli sustained or this window) is shown the same way. A disk
 * or partition as target is only read.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

#define DM_TYPE_SUSTAINED_WINDOW (dm_sustained_window_get_type ())
G_DECLARE_FINAL_TYPE (DmSustainedWindow, dm_sustained_window, DM, SUSTAINED_WINDOW, GtkWindow)

/* settings (may be NULL) supplies the folder and the test data. */
GtkWidget *dm_sustained_window_new        (GtkApplication *app,
                                           GSettings      *settings);
/* Sets the span ("free" or a size), the duration in seconds and the
 * folder, as a person would type them; NULL leaves one as it is. */
void       dm_sustained_window_set_plan   (DmSustainedWindow *self,
                                           const char        *span,
                                           const char        *duration,
                                           const char        *folder);
/* The pass: DM_MODE_WRITE (the default) or DM_MODE_READ, which fills the
 * span first, then reads it; a disk is only read, whatever is set. */
void       dm_sustained_window_set_mode   (DmSustainedWindow *self,
                                           dm_mode            mode);
gboolean   dm_sustained_window_is_running (DmSustainedWindow *self);
/* The Mode control (Write, Read): on a disk fixed to Read. */
GtkWidget *dm_sustained_window_get_mode_control (DmSustainedWindow *self);
/* Starts a run with the plan shown; FALSE with error when it cannot. */
gboolean   dm_sustained_window_start      (DmSustainedWindow *self,
                                           GError           **error);
/* Shows a sustained run saved by diskmeter-cli sustained or this window. */
gboolean   dm_sustained_window_load       (DmSustainedWindow *self,
                                           const char        *path,
                                           GError           **error);
/* format: "json", "csv", "png" or "pdf" (the window, one page). */
gboolean   dm_sustained_window_save       (DmSustainedWindow *self,
                                           const char        *format,
                                           const char        *path,
                                           GError           **error);
/* The cliff as shown (found FALSE before any figures). */
void       dm_sustained_window_get_cliff  (DmSustainedWindow *self,
                                           gboolean          *found,
                                           guint64           *cache_bytes,
                                           double            *before_mb_per_s,
                                           double            *after_mb_per_s);

/* How many samples the timeline shows (a run's grow as they close). */
guint      dm_sustained_window_count_samples (DmSustainedWindow *self);

G_END_DECLS
