/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Cache Probe window: the host-cache ladder of diskmeter-cli
 * cache-probe, run on the folder chosen (the main window's target to
 * begin with), one working set after the other on ordinary DmJobs, with
 * MB/s against the working set drawn as each set is done and the steps
 * where a cache below this VM ends marked and said in words.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

#define DM_TYPE_CACHE_PROBE_WINDOW (dm_cache_probe_window_get_type ())
G_DECLARE_FINAL_TYPE (DmCacheProbeWindow, dm_cache_probe_window, DM, CACHE_PROBE_WINDOW,
                      GtkWindow)

/* settings (may be NULL) supplies the folder and the test data. */
GtkWidget *dm_cache_probe_window_new        (GtkApplication     *app,
                                             GSettings          *settings);
/* The smallest and largest set, the time limit, each test's seconds and
 * the folder as a person types them; NULL leaves one as it is. */
void       dm_cache_probe_window_set_plan   (DmCacheProbeWindow *self,
                                             const char         *min,
                                             const char         *max,
                                             const char         *time_limit,
                                             const char         *duration,
                                             const char         *folder);
gboolean   dm_cache_probe_window_start      (DmCacheProbeWindow *self,
                                             GError            **error);
void       dm_cache_probe_window_stop       (DmCacheProbeWindow *self);
gboolean   dm_cache_probe_window_is_running (DmCacheProbeWindow *self);
/* The probe shown (NULL before any); its results fill in as sets finish. */
const dm_report *dm_cache_probe_window_get_report (DmCacheProbeWindow *self);
/* Shows a probe saved by diskmeter-cli cache-probe or this window. */
gboolean   dm_cache_probe_window_load       (DmCacheProbeWindow *self,
                                             const char         *path,
                                             GError            **error);
/* The JSON of diskmeter-cli cache-probe --format json, or a PNG of the
 * window, to path. */
gboolean   dm_cache_probe_window_save       (DmCacheProbeWindow *self,
                                             const char         *format,
                                             const char         *path,
                                             GError            **error);

G_END_DECLS
