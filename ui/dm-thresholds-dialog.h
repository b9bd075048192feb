/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The green and red limits, edited as text: one rule per line in the form
 * diskmeter-cli's --threshold takes, checked by the engine's own parser
 * before anything is saved to the "thresholds" key.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-threshold.h"

G_BEGIN_DECLS

#define DM_TYPE_THRESHOLDS_DIALOG (dm_thresholds_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DmThresholdsDialog, dm_thresholds_dialog, DM, THRESHOLDS_DIALOG, GtkWindow)

DmThresholdsDialog *dm_thresholds_dialog_new (GtkWindow *parent,
                                              GSettings *settings);

/* Checks rules given as lines of text: 0 and the rules, or -EINVAL with
 * "Line N: why" in why. Blank lines and lines starting with # are skipped. */
int  dm_thresholds_parse_lines (const char   *text,
                                dm_threshold *rules,
                                unsigned     *n_rules,
                                char         *why,
                                size_t        why_size);
/* The saved rules; ones that no longer parse are left out. */
unsigned dm_thresholds_from_settings (GSettings    *settings,
                                      dm_threshold *rules);

G_END_DECLS
