/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures for build-aux/measure-gui, printed only when DISKMETER_MEASURE is
 * set: time to the first frame and to a settled window, CPU used by the UI
 * thread during a run, the longest the main loop was kept from answering,
 * and peak resident memory.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void dm_measure_watch_first_frame (GtkWidget *window);
void dm_measure_settled           (void);
void dm_measure_run_started       (void);
void dm_measure_run_finished      (void);
void dm_measure_exit              (void);

G_END_DECLS
