/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scripted window (--run, --sustained, --save-*) acts on frames, not on
 * times: it starts once its first frame is on screen and has settled, and
 * it saves right after a paint, when every widget's render node shows the
 * final figures. DmScript waits this way for every window.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef void (*DmFrameDone) (GtkWidget *widget);

/* Calls begin (widget) once the widget's first frame is painted and
 * delay_ms more have passed (first layouts, fonts, a target scan), holding
 * a reference on the widget for that wait. */
void dm_frame_wait_first (GtkWidget   *widget,
                          guint        delay_ms,
                          GSourceFunc  begin);
/* Draws the widget again and calls done (widget) right after that paint;
 * at once when it has no frame clock (not on screen). */
void dm_frame_wait_paint (GtkWidget   *widget,
                          DmFrameDone  done);

G_END_DECLS
