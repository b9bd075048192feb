/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's Tags field: KEY=VALUE labels, comma or newline separated,
 * that go into each run's report as --tag puts them there
 * ("host=esx07, controller=pvscsi"), kept in the settings' "tags" key so
 * the next start labels its runs the same. A field that does not parse is
 * marked while typed; a run started with it is refused with the reason in
 * the error bar.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

/* Puts a Tags field beside comment, in a row of the two in comment's
 * place, its text bound to settings' "tags". Returns the field, which
 * the window owns. */
GtkWidget *dm_tags_field_attach (GtkWidget *comment,
                                 GSettings *settings);
/* The field's tags (at most DM_TAGS_MAX) in tags and *n; FALSE with a
 * one-line reason in *why (g_free it) when they do not parse. */
gboolean   dm_tags_field_get    (GtkWidget *field,
                                 dm_tag    *tags,
                                 unsigned  *n,
                                 char     **why);
/* Gives r the tags of settings' "tags" key (the Tags field's text), for
 * the Sweep and Sustained windows' runs; FALSE with "Tags: reason" in why
 * when they do not parse. settings may be NULL: no tags. */
gboolean   dm_tags_apply_setting (GSettings *settings,
                                  dm_report *r,
                                  char      *why,
                                  size_t     why_size);
/* text with " · key=value, ..." added to its last line for the user's
 * tags of r, or of the field when r is NULL (before a run); text itself
 * (consumed) without any. Always valid UTF-8 when text is. */
char      *dm_tags_footer       (char            *text,
                                 const dm_report *r,
                                 GtkWidget       *field);

G_END_DECLS
