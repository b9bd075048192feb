/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The warm-up as the window keeps it: seconds in the "warmup" key, or,
 * when "warmup-steady" holds steady[:MARGIN[:LIMIT]] (as --warmup takes
 * it), until throughput is steady. Every window that runs tests reads it
 * here, so a steady warm-up chosen once is every run's.
 */
#pragma once

#include <gio/gio.h>

#include "dm-settings.h"

G_BEGIN_DECLS

/* The keys into s (warmup_s, or warmup_steady with its margin and limit).
 * A "warmup-steady" that does not parse (edited by hand) is left out. */
void     dm_warmup_setting_get   (GSettings         *settings,
                                  dm_settings       *s);
/* s's warm-up into the keys, as a saved run had it. */
void     dm_warmup_setting_set   (GSettings         *settings,
                                  const dm_settings *s);
/* Checks text as "warmup-steady" takes it ("" is off): FALSE with a
 * one-line reason. */
gboolean dm_warmup_setting_check (const char        *text,
                                  char              *why,
                                  gsize              why_size);

G_END_DECLS
