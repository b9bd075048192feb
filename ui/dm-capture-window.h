/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Capture window: diskmeter-cli capture in a window. It records what
 * the disk under the target (the main window's, to begin with) is asked
 * to do for a while, as the user's own application runs, then shows the
 * summary and draws the histograms; "Use as Grid Row" makes the captured
 * workload the main grid's row, so other disks can be measured on it.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-capture.h"

G_BEGIN_DECLS

#define DM_TYPE_CAPTURE_WINDOW (dm_capture_window_get_type ())
G_DECLARE_FINAL_TYPE (DmCaptureWindow, dm_capture_window, DM, CAPTURE_WINDOW, GtkWindow)

/* settings (may be NULL) supplies the target. The window emits
 * "use-profile" (a profile file's path, the captured workload's) when the
 * user asks for the capture as a row of the grid; a handler returns TRUE
 * when the grid took it. */
GtkWidget *dm_capture_window_new         (GtkApplication  *app,
                                          GSettings       *settings);
/* The duration, the target and the folder Headroom measures, as a person
 * types them; NULL leaves one. */
void       dm_capture_window_set_plan    (DmCaptureWindow *self,
                                          const char      *duration,
                                          const char      *target,
                                          const char      *headroom_folder);
gboolean   dm_capture_window_start       (DmCaptureWindow *self,
                                          GError         **error);
/* Runs the captured workload on the headroom folder as diskmeter-cli
 * --headroom does: at its rate, as fast as it goes, and at shares of
 * that; the ladder and its sentence are shown when it ends. */
gboolean   dm_capture_window_headroom    (DmCaptureWindow *self,
                                          GError         **error);
/* The headroom's text as shown ("" before any). */
char      *dm_capture_window_get_headroom (DmCaptureWindow *self);
/* Ends the capture (or the headroom) early; what it saw is kept and shown. */
void       dm_capture_window_stop        (DmCaptureWindow *self);
gboolean   dm_capture_window_is_running  (DmCaptureWindow *self);
/* The capture shown (NULL before any has ended) and its summary as the
 * window shows it in words. */
const dm_capture *dm_capture_window_get_capture (DmCaptureWindow *self);
char      *dm_capture_window_get_summary (DmCaptureWindow *self);
/* Writes the profile of the captured workload under the user's data
 * folder and emits "use-profile" with its path. */
gboolean   dm_capture_window_use_as_row  (DmCaptureWindow *self,
                                          GError         **error);
/* format "json" (diskmeter-cli capture --format json), "profile" (its
 * --profile-file), "headroom-json" (--headroom --format json) or "png"
 * (the window) to path. */
gboolean   dm_capture_window_save        (DmCaptureWindow *self,
                                          const char      *format,
                                          const char      *path,
                                          GError         **error);

G_END_DECLS
