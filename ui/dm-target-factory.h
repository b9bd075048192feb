/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How the target drop-down draws its DmTargetItems: the closed button as
 * the name beside the free and total size, the open list as headed
 * sections of two-line rows. The name and the secondary line give way
 * (shortened in the middle); the figures never do.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* button: the closed drop-down's one row; otherwise the popup's rows. */
GtkListItemFactory *dm_target_factory_new (gboolean button);

G_END_DECLS
