/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window tests share: the real application and main window on a
 * display (tests/gui-run.sh starts Xvfb), a way to let the main loop
 * catch up after each step, and what more than one of them reads back
 * (a tile's spoken label, a dropdown's pick, Copy as Text).
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-application.h"
#include "dm-choice.h"
#include "dm-window.h"

/* Registers a non-unique DmApplication, opens its main window with the
 * schema's settings (profile set first unless NULL), and returns once it
 * is on screen. Without a display the test is skipped: exit 77. */
DmWindow *dm_ui_test_open_window (const char     *profile,
                                  DmApplication **app,
                                  GSettings     **settings);

/* Runs what is pending in the main loop ("changed" handlers, layout). */
void      dm_ui_test_spin        (void);

/* Resets the grid's settings (profile, nvme, mix, mix-ratio, units, count,
 * size, modes) and lets the window follow. */
void      dm_ui_test_reset_settings (GSettings *settings);

/* Fails the test unless GTK holds want as widget's spoken label, checked
 * the way a screen reader would get it (GTK_A11Y=test). */
void      dm_ui_test_assert_label   (GtkWidget  *widget,
                                     const char *want);

/* The text of dropdown's selected item (a GtkStringList's), or NULL. */
const char *dm_ui_test_selected_label (DmChoice *dropdown);

/* Copy as Text through app's action, as the menu entry does, and what
 * window's clipboard then holds (free it); a clipboard that never answers
 * fails the test in 5 s instead of hanging it until meson's timeout. */
char     *dm_ui_test_copy_as_text   (DmApplication *app,
                                     DmWindow      *window);
