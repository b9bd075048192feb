/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The footer every window that saves a picture carries under it: where and
 * on what was measured, then when and on which system, so a screenshot of
 * the grid, the Sweep or the Sustained window says what it shows.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-platform.h"
#include "dm-report.h"

G_BEGIN_DECLS

/* "where · filesystem · model\ndate · OS · notes": where is the folder or
 * disk to name, t and sys what is known of them (either may be NULL),
 * finished 0 before a run has ended, compared_with NULL unless two runs
 * are shown. Always valid UTF-8, for a label. */
char *dm_footer_text (const char           *where,
                      const dm_target_info *t,
                      const dm_system_info *sys,
                      int64_t               finished,
                      gboolean              cached,
                      const char           *compared_with);
/* The footer of a window showing one run: r's (NULL before any) in label,
 * named by its target, or by where (the folder typed) before a run. */
void  dm_footer_show (GtkWidget            *label,
                      const dm_report      *r,
                      const char           *where);

G_END_DECLS
