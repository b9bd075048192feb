/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window as a DmScriptable (see dm-script.h), beside it as the
 * main window's is in dm-window-script.c.
 */
#pragma once

#include "dm-script.h"

G_BEGIN_DECLS

void _dm_sweep_window_scriptable_init (DmScriptableInterface *iface);

G_END_DECLS
