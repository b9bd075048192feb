/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How the target drop-down draws its DmTargetItems: the closed button as
 * the name beside the free and total size, the open list as headed
 * sections of two-line rows. The name and the secondary line give way
 * (shortened in the middle); the figures never do.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-choice.h"

G_BEGIN_DECLS

/* The popup's rows. */
GtkListItemFactory *dm_target_factory_new    (void);
/* The closed drop-down's one row (a DmChoiceButtonFunc). */
GtkWidget          *dm_target_factory_button (DmChoice  *choice,
                                              gpointer   item,
                                              GtkWidget *old_child,
                                              gpointer   unused);

G_END_DECLS
