/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window: one pattern measured over lists of queue depths and
 * thread counts on the window's ordinary DmJob, shown as heat maps of
 * throughput and p99 latency with the knee and the best load under a
 * latency bound marked; or, as diskmeter-cli sweep --blocks and --rates
 * curve, over block sizes or offered rates, shown as a chart. A saved
 * sweep JSON can be shown the same way. A disk or partition as target is
 * only read.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

#define DM_TYPE_SWEEP_WINDOW (dm_sweep_window_get_type ())
G_DECLARE_FINAL_TYPE (DmSweepWindow, dm_sweep_window, DM, SWEEP_WINDOW, GtkWindow)

/* settings (may be NULL) supplies the run settings and the folder. */
GtkWidget *dm_sweep_window_new    (GtkApplication *app,
                                   GSettings      *settings);
/* Sets the lists and the folder, as a person would type them. */
void       dm_sweep_window_set_plan (DmSweepWindow *self,
                                     const char    *queue_depths,
                                     const char    *threads,
                                     const char    *folder);
/* Chooses what the sweep varies, as a person would: kind "qd", "blocks"
 * or "rates" (the names the JSON gives them), blocks a list as --blocks
 * takes it and bound as --latency-bound does (NULL keeps a field). FALSE
 * for an unknown kind. */
gboolean   dm_sweep_window_set_kind (DmSweepWindow *self,
                                     const char    *kind,
                                     const char    *blocks,
                                     const char    *bound);
/* The status line: the estimate, the progress, or why it cannot start. */
const char *dm_sweep_window_get_status (DmSweepWindow *self);
gboolean   dm_sweep_window_is_running (DmSweepWindow *self);
/* Whether it shows a sweep (finished, stopped or opened): what a report
 * takes a page of. */
gboolean   dm_sweep_window_has_results (DmSweepWindow *self);
/* The Mode control (Read, Write, Mix): on a disk fixed to Read. */
GtkWidget *dm_sweep_window_get_mode_control (DmSweepWindow *self);
/* Shows a sweep saved by diskmeter-cli sweep or by this window. */
gboolean   dm_sweep_window_load   (DmSweepWindow  *self,
                                   const char     *path,
                                   GError        **error);
/* format: "json", "csv", "png" or "pdf" (the window, one page). */
gboolean   dm_sweep_window_save   (DmSweepWindow  *self,
                                   const char     *format,
                                   const char     *path,
                                   GError        **error);
/* Opens the latency detail of the combination at QD x T; NULL if it was
 * not measured. */
GtkWidget *dm_sweep_window_open_latency (DmSweepWindow *self,
                                         unsigned       queue_depth,
                                         unsigned       threads);

G_END_DECLS
