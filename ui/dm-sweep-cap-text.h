/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window's sentence for the throttle fingerprint
 * (engine/dm-sweep-cap.h): capped near a rate by something outside the
 * disk, with its evidence, or why no cap is called, in the user's language.
 */
#pragma once

#include <glib.h>

#include "dm-report.h"

G_BEGIN_DECLS

/* The sentence for a QD x T sweep's report, newly allocated. */
char *dm_sweep_cap_text        (const dm_report *r);
/* The same after two spaces at the end of a summary; nothing for NULL. */
void  dm_sweep_cap_text_append (GString         *summary,
                                const dm_report *r);

G_END_DECLS
