/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine's reasons in the user's language, for the screen and the
 * terminal only: a report stores them in English ("/mnt/x does not
 * exist"), so that a saved run reads the same everywhere, and what is
 * shown is the same sentence from the catalogue, its names put back.
 */
#pragma once

#include <stddef.h>

/* english, a reason or warning as the engine stored it, in the user's
 * language in buf (size bytes); english itself when it is none of the
 * engine's sentences or has no translation. */
const char *dm_reason_shown (const char *english, char *buf, size_t size);
