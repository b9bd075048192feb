/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window tests share: the real application and main window on a
 * display (tests/gui-run.sh starts Xvfb), and a way to let the main loop
 * catch up after each step.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-application.h"
#include "dm-window.h"

/* Registers a non-unique DmApplication, opens its main window with the
 * schema's settings (profile set first unless NULL), and returns once it
 * is on screen. Without a display the test is skipped: exit 77. */
DmWindow *dm_ui_test_open_window (const char     *profile,
                                  DmApplication **app,
                                  GSettings     **settings);

/* Runs what is pending in the main loop ("changed" handlers, layout). */
void      dm_ui_test_spin        (void);
