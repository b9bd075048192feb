/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pages are kept as render nodes while the report is put together
 * (windows come and go), and drawn onto the PDF surface only when it is
 * saved, into memory: the file is then written by the rules of every
 * other output (a temporary file beside it, renamed), never half.
 */
#include "dm-pdf.h"
#include "dm-i18n-ui.h"
#include "dm-platform.h"
#include "dm-report.h"
#include "dm-screenshot.h"

#include <errno.h>

#include <cairo-pdf.h>

/* How long a window made for the report may take to be drawn once. */
#define SHOWN_WAIT_S 10

typedef struct
{
  GskRenderNode *node;
  int            width;
  int            height;
} Page;

struct _DmPdf
{
  char   *title;
  GArray *pages;
};

static void
page_clear (gpointer data)
{
  Page *page = data;

  g_clear_pointer (&page->node, gsk_render_node_unref);
}

DmPdf *
dm_pdf_new (const char *title)
{
  DmPdf *pdf = g_new0 (DmPdf, 1);

  pdf->title = g_strdup (title);
  pdf->pages = g_array_new (FALSE, TRUE, sizeof (Page));
  g_array_set_clear_func (pdf->pages, page_clear);
  return pdf;
}

void
dm_pdf_free (DmPdf *pdf)
{
  if (!pdf)
    return;
  g_array_unref (pdf->pages);
  g_free (pdf->title);
  g_free (pdf);
}

guint
dm_pdf_get_n_pages (DmPdf *pdf)
{
  return pdf->pages->len;
}

static void
on_after_paint (GdkFrameClock *clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

static gboolean
on_wait_over (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until window is on screen and painted once, when
 * every widget in it has its render node; FALSE if that takes too long. */
static gboolean
wait_painted (GtkWindow *window)
{
  gboolean painted = FALSE, over = FALSE;
  GdkFrameClock *clock = NULL;
  gulong handler = 0;
  guint timeout;

  timeout = g_timeout_add_seconds (SHOWN_WAIT_S, on_wait_over, &over);
  gtk_window_present (window);
  while (!painted && !over)
    {
      if (!clock && gtk_widget_get_mapped (GTK_WIDGET (window)))
        {
          clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
          handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
          gtk_widget_queue_draw (GTK_WIDGET (window));
        }
      g_main_context_iteration (NULL, TRUE);
    }
  if (clock)
    g_signal_handler_disconnect (clock, handler);
  if (!over)
    g_source_remove (timeout);
  return painted;
}

gboolean
dm_pdf_add_window (DmPdf      *pdf,
                   GtkWidget  *window,
                   GtkWidget  *background_from,
                   GError    **error)
{
  Page page;

  /* At scale 1: the page in points is the window in pixels, so a viewer
   * at 100 % shows it at the size it has on screen. */
  page.node = dm_screenshot_node (window, background_from, 1, error);
  if (!page.node)
    return FALSE;
  page.width = gtk_widget_get_width (window);
  page.height = gtk_widget_get_height (window);
  g_array_append_val (pdf->pages, page);
  return TRUE;
}

gboolean
dm_pdf_add_presented (DmPdf      *pdf,
                      GtkWindow  *window,
                      GError    **error)
{
  /* Held while the main loop runs: its user may close it meanwhile. */
  g_autoptr (GtkWindow) held = g_object_ref (window);

  if (!wait_painted (window) || !gtk_widget_get_visible (GTK_WIDGET (window)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   _("The window “%s” was not drawn within %d seconds"),
                   gtk_window_get_title (window), SHOWN_WAIT_S);
      return FALSE;
    }
  return dm_pdf_add_window (pdf, GTK_WIDGET (window), GTK_WIDGET (window), error);
}

static cairo_status_t
write_to_buf (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  dm_buf *buf = closure;

  dm_buf_addn (buf, (const char *) data, length);
  return buf->error ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

gboolean
dm_pdf_save (DmPdf       *pdf,
             const char  *path,
             GError     **error)
{
  g_autofree char *creator = g_strdup_printf ("Diskmeter %s", DM_VERSION);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S%:z");
  cairo_surface_t *surface;
  cairo_status_t status;
  dm_buf buf;
  int rc;

  if (pdf->pages->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing was drawn"));
      return FALSE;
    }
  dm_buf_init (&buf);
  surface = cairo_pdf_surface_create_for_stream (write_to_buf, &buf, 1, 1);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, pdf->title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, creator);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
  for (guint i = 0; i < pdf->pages->len; i++)
    {
      const Page *page = &g_array_index (pdf->pages, Page, i);
      cairo_t *cr;

      cairo_pdf_surface_set_size (surface, page->width, page->height);
      cr = cairo_create (surface);
      gsk_render_node_draw (page->node, cr);
      cairo_show_page (cr);
      cairo_destroy (cr);
    }
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      dm_buf_free (&buf);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not save %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  rc = dm_write_file_atomic (path, &buf);
  dm_buf_free (&buf);
  if (rc != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (rc < 0 ? -rc : EIO),
                   _("Could not save %s: %s"), path, dm_strerror (rc));
      return FALSE;
    }
  return TRUE;
}
