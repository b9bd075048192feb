/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine's sentences in the user's language: dm_gettext() looks a
 * sentence up in the "diskmeter" catalogue, or returns it as it is where
 * the build has no gettext. dm_why() translates its format through it, so
 * the engine's reasons need no marking of their own; xgettext finds them
 * by the dm_why and dm_gettext keywords (po/meson.build).
 */
#pragma once

const char *dm_gettext (const char *msgid) __attribute__ ((format_arg (1)));
