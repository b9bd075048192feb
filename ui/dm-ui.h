/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One-time set-up of the window's resources. The gresource lives in a
 * static library, where an automatic constructor could be dropped by the
 * linker, so it is registered by hand, once.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void dm_ui_init (void);

G_END_DECLS
