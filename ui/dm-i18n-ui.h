/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's translations, the gettext domain "diskmeter" (config.h names
 * it before GLib's macros read it): _() and N_() as in every GLib program,
 * g_dngettext (GETTEXT_PACKAGE, ...) for plurals. The .ui files take their
 * domain from textdomain(), set in main().
 */
#pragma once

#include "config.h"

#include <glib/gi18n-lib.h>
