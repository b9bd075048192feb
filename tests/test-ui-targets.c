/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the main window's target drop-down on a real (Xvfb) display for
 * tests/gui-targets.sh: "show TARGET REPORT PNG POPUP_PNG" opens the window
 * on TARGET, waits for the list of mounts and disks, and writes REPORT,
 * one fact a line: the window's width; the target field's width under each
 * unit; the closed drop-down's labels (their text, whether GTK shortened
 * them, their place) and its accessible label; the open popup's width and
 * each of its rows (the labels shown, whether a click picks it, and what a
 * screen reader is told). PNG is the window at twice its size, POPUP_PNG
 * the open popup, for the pixels to be read.
 */
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "dm-i18n-ui.h"

#include "dm-screenshot.h"
#include "dm-ui-test.h"
#include "dm-window-private.h"

#define WAIT_S 30

/* What GTK tells a screen reader: the label, read back through the test
 * accessibility backend (asked to match a string no label is). */
static char *
spoken (GtkWidget *widget)
{
  char *label = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                    GTK_ACCESSIBLE_PROPERTY_LABEL, "\x01");

  return label ? label : g_strdup ("");
}

static gboolean
is_cut (GtkWidget *label)
{
  return gtk_widget_get_visible (label)
         && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label)));
}

static void
spin_for (int ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (5000);
}

/* The labels of one row, in the order the factory made them. */
static void
describe_labels (GtkWidget *row,
                 GtkWidget *window,
                 const char *prefix,
                 GString   *out)
{
  static const char *const names[] = { "name", "figures", "mark", "detail" };
  guint i = 0;
  /* A row that is one label (a plain string list) holds the name only. */
  GtkWidget *first = GTK_IS_LABEL (row) ? row : gtk_widget_get_first_child (row);

  for (GtkWidget *c = first; c; c = c == row ? NULL : gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t b = GRAPHENE_RECT_INIT (-1, -1, -1, -1);

      if (!GTK_IS_LABEL (c) || i >= G_N_ELEMENTS (names))
        continue;
      if (window && !gtk_widget_compute_bounds (c, window, &b))
        b = GRAPHENE_RECT_INIT (-1, -1, -1, -1);
      g_string_append_printf (out, "%s %s visible=%d cut=%d box=%.0f,%.0f,%.0f,%.0f text=%s\n",
                              prefix, names[i++], gtk_widget_get_visible (c), is_cut (c),
                              b.origin.x, b.origin.y, b.size.width, b.size.height,
                              gtk_label_get_text (GTK_LABEL (c)));
    }
}

/* The rows the drop-down's factories made: each list item's child. */
static void
find_rows (GtkWidget *widget,
           GPtrArray *rows)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkListItemWidget"))
        g_ptr_array_add (rows, c);
      else
        find_rows (c, rows);
    }
}

static GtkWidget *
find_popover (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = GTK_IS_POPOVER (c) ? c : find_popover (c);

      if (found)
        return found;
    }
  return NULL;
}

/* The row's place in the list: rows are drawn in the model's order, but
 * the list view keeps its widgets in any order. */
static int
by_y (gconstpointer a,
      gconstpointer b)
{
  GtkWidget *wa = *(GtkWidget **) a, *wb = *(GtkWidget **) b;
  graphene_point_t pa, pb;

  if (!gtk_widget_compute_point (wa, gtk_widget_get_parent (gtk_widget_get_parent (wa)),
                                 &GRAPHENE_POINT_INIT (0, 0), &pa)
      || !gtk_widget_compute_point (wb, gtk_widget_get_parent (gtk_widget_get_parent (wb)),
                                    &GRAPHENE_POINT_INIT (0, 0), &pb))
    return 0;
  return pa.y < pb.y ? -1 : pa.y > pb.y;
}

static int
show (const char *target,
      const char *report,
      const char *png,
      const char *popup_png)
{
  DmApplication *app;
  GSettings *settings = g_settings_new (DM_APPLICATION_ID);
  DmWindow *window;
  GtkWidget *dropdown, *popover, *button_row = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  g_settings_set_string (settings, "target", target);
  window = dm_ui_test_open_window (NULL, &app, &settings);
  dropdown = GTK_WIDGET (window->target_dropdown);
  /* The background scan has listed the mounts when Folders has more than
   * its heading and "Choose folder…". */
  while (g_list_model_get_n_items (gtk_drop_down_get_model (window->target_dropdown)) <= 3
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  spin_for (300);

  g_string_append_printf (out, "window width=%d\n", gtk_widget_get_width (GTK_WIDGET (window)));
  for (guint u = 0; u < 4; u++)
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (
        gtk_drop_down_get_model (window->units_dropdown), u);

      gtk_drop_down_set_selected (window->units_dropdown, u);
      spin_for (200);
      g_string_append_printf (out, "field unit=%s width=%d\n", gtk_string_object_get_string (name),
                              gtk_widget_get_width (dropdown));
    }
  gtk_drop_down_set_selected (window->units_dropdown, 0);
  spin_for (200);

  g_ptr_array_set_size (rows, 0);
  find_rows (dropdown, rows);
  for (guint i = 0; i < rows->len; i++)
    if (!gtk_widget_get_ancestor (rows->pdata[i], GTK_TYPE_POPOVER))
      button_row = rows->pdata[i];
  if (!button_row)
    {
      g_printerr ("test-ui-targets: the drop-down shows no row\n");
      return 1;
    }
  {
    graphene_rect_t b = GRAPHENE_RECT_INIT (-1, -1, -1, -1);

    if (!gtk_widget_compute_bounds (dropdown, GTK_WIDGET (window), &b))
      b = GRAPHENE_RECT_INIT (-1, -1, -1, -1);
    g_string_append_printf (out, "dropdown box=%.0f,%.0f,%.0f,%.0f\n", b.origin.x, b.origin.y,
                            b.size.width, b.size.height);
  }
  describe_labels (button_row, GTK_WIDGET (window), "button", out);
  label = spoken (dropdown);
  g_string_append_printf (out, "button spoken=%s\n", label);
  if (!dm_screenshot_save_scaled (GTK_WIDGET (window), GTK_WIDGET (window), 2, png, &error))
    {
      g_printerr ("test-ui-targets: %s\n", error->message);
      return 1;
    }

  g_signal_emit_by_name (dropdown, "activate");
  popover = find_popover (dropdown);
  deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  while (popover && !gtk_widget_get_mapped (popover) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  spin_for (500);
  if (!popover || !gtk_widget_get_mapped (popover))
    {
      g_printerr ("test-ui-targets: the popup did not open\n");
      return 1;
    }
  g_string_append_printf (out, "popup width=%d\n", gtk_widget_get_width (popover));
  g_ptr_array_set_size (rows, 0);
  find_rows (popover, rows);
  g_ptr_array_sort (rows, by_y);
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = rows->pdata[i];
      GtkWidget *item = gtk_widget_get_parent (row);
      g_autofree char *prefix = g_strdup_printf ("row %u", i);
      g_autofree char *said = spoken (row);

      if (!gtk_widget_get_mapped (row))
        continue;
      /* A list item a click picks carries "activatable" (GtkListItemWidget). */
      g_string_append_printf (out, "%s pickable=%d\n", prefix,
                              gtk_widget_has_css_class (item, "activatable"));
      describe_labels (row, NULL, prefix, out);
      g_string_append_printf (out, "%s spoken=%s\n", prefix, said);
    }
  if (!dm_screenshot_save (popover, GTK_WIDGET (window), popup_png, &error))
    {
      g_printerr ("test-ui-targets: %s\n", error->message);
      return 1;
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  if (!g_file_set_contents (report, out->str, out->len, &error))
    {
      g_printerr ("test-ui-targets: %s\n", error->message);
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  spin_for (100);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  /* GTK's in-process accessibility backend: the labels can be read back
   * without an accessibility bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* LANGUAGE picks the build's catalogues ($DISKMETER_LOCALEDIR), as the
   * diskmeter binary's main() does. */
  setlocale (LC_ALL, "");
  if (g_getenv ("DISKMETER_LOCALEDIR"))
    bindtextdomain (GETTEXT_PACKAGE, g_getenv ("DISKMETER_LOCALEDIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  if (argc == 6 && g_str_equal (argv[1], "show"))
    return show (argv[2], argv[3], argv[4], argv[5]);
  g_printerr ("usage: %s show TARGET REPORT PNG POPUP_PNG\n", argv[0]);
  return 2;
}
