/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tooltips set without asking the display server where the pointer is
 * when the answer cannot matter (dm-tooltip.c).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void dm_tooltip_set (GtkWidget  *widget,
                     const char *text);

G_END_DECLS
