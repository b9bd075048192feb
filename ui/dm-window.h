/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Diskmeter window: the control row, the grid of tests and the status
 * line. Its actions are on its class (win.run-all, win.save-json-to, ...);
 * Diskmeter has one such window, like CrystalDiskMark, and the application
 * forwards the same names to it, where `gapplication action` reaches them.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_WINDOW (dm_window_get_type ())
G_DECLARE_FINAL_TYPE (DmWindow, dm_window, DM, WINDOW, GtkApplicationWindow)

DmWindow *dm_window_new              (GtkApplication *application,
                                      GSettings      *settings);
void      dm_window_set_comment      (DmWindow       *self,
                                      const char     *comment);
/* Writes what the grid shows: format "json", "text", "csv" or "png" to
 * path (a script's, `gapplication action ... save-json-to`). */
gboolean  dm_window_save             (DmWindow       *self,
                                      const char     *format,
                                      const char     *path,
                                      GError        **error);
gboolean  dm_window_save_screenshot  (DmWindow       *self,
                                      const char     *path,
                                      GError        **error);
gboolean  dm_window_is_running       (DmWindow       *self);
/* A second folder for "All" to measure interleaved with the target and
 * compare side by side; NULL for plain runs. */
void      dm_window_set_compare_target (DmWindow     *self,
                                        const char   *path);
/* A message in the window's error bar (and on stderr). */
void      dm_window_show_error       (DmWindow       *self,
                                      const char     *message);
/* A saved run's figures in the grid, until the next run. */
gboolean  dm_window_open_saved       (DmWindow       *self,
                                      const char     *path,
                                      GError        **error);
/* Two or more saved runs side by side, one column each. */
gboolean  dm_window_compare_saved    (DmWindow       *self,
                                      const char * const *paths,
                                      guint           n,
                                      GError        **error);

G_END_DECLS
