/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Save as PDF: a report of pages, each a window drawn by the same render
 * nodes as the screen (and as the screenshot), replayed on cairo's PDF
 * surface, so the text is text and the lines are vectors, sharp at any
 * size. A page is as large as its window, one point a pixel. The file is
 * written whole or not at all.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _DmPdf DmPdf;

/* An empty report; title is the PDF's title (its metadata). */
DmPdf    *dm_pdf_new         (const char  *title);
void      dm_pdf_free        (DmPdf       *pdf);
/* One page: window as it is on screen now, just painted (background_from:
 * as for dm_screenshot_save). */
gboolean  dm_pdf_add_window  (DmPdf       *pdf,
                              GtkWidget   *window,
                              GtkWidget   *background_from,
                              GError     **error);
/* One page of window once presented and painted (the main loop runs
 * meanwhile): a window made for the report, or one opened a moment ago,
 * is what the user sees of it, laid out and drawn. */
gboolean  dm_pdf_add_presented (DmPdf     *pdf,
                                GtkWindow *window,
                                GError   **error);
guint     dm_pdf_get_n_pages (DmPdf       *pdf);
/* Writes the pages to path (a temporary file beside it, then renamed):
 * FALSE with a one-line reason, and nothing left, when it cannot. */
gboolean  dm_pdf_save        (DmPdf       *pdf,
                              const char  *path,
                              GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DmPdf, dm_pdf_free)

G_END_DECLS
