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
  GtkWidget *first = row;

  /* Else the labels are the children of the row, or of what it holds. */
  while (first && !GTK_IS_LABEL (first))
    first = gtk_widget_get_first_child (first);
  if (first != row && first)
    row = gtk_widget_get_parent (first);

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

/* The closed drop-down's row: the target grid outside the popup. */
static GtkWidget *
find_button_row (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_POPOVER (c))
        continue;
      if (gtk_widget_has_css_class (c, "dm-target-row"))
        return c;
      if ((found = find_button_row (c)))
        return found;
    }
  return NULL;
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

static int
by_place (gconstpointer a,
          gconstpointer b,
          gpointer      unused)
{
  return strcmp (a, b);
}

/* Each row of the popup once, top to bottom: the list view makes widgets
 * for the rows in sight only, so the list is scrolled through, a page at a
 * time, and each row's text is kept by its place in the whole list. */
static void
describe_popup (GtkWidget *popover,
                GString   *out)
{
  GtkWidget *scrolled = gtk_widget_get_first_child (popover);
  g_autoptr (GTree) lines = g_tree_new_full (by_place, NULL, g_free, g_free);
  GtkAdjustment *adj;
  guint n = 0;

  while (scrolled && !GTK_IS_SCROLLED_WINDOW (scrolled))
    {
      GtkWidget *next = gtk_widget_get_first_child (scrolled);

      for (GtkWidget *c = next; c; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_SCROLLED_WINDOW (c))
          next = c;
      scrolled = next;
    }
  if (!scrolled)
    return;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  for (double top = 0;; top += gtk_adjustment_get_page_size (adj))
    {
      g_autoptr (GPtrArray) rows = g_ptr_array_new ();

      gtk_adjustment_set_value (adj, top);
      spin_for (200);
      find_rows (popover, rows);
      for (guint i = 0; i < rows->len; i++)
        {
          GtkWidget *row = rows->pdata[i];
          GtkWidget *item = gtk_widget_get_parent (row);
          graphene_point_t p;
          g_autoptr (GString) text = g_string_new (NULL);
          g_autofree char *said = NULL;

          if (!gtk_widget_get_mapped (row)
              || !gtk_widget_compute_point (item, scrolled, &GRAPHENE_POINT_INIT (0, 0), &p))
            continue;
          /* A list item a click picks carries "activatable" (GtkListItemWidget). */
          g_string_append_printf (text, "pickable=%d\n", gtk_widget_has_css_class (item, "activatable"));
          describe_labels (row, NULL, "", text);
          said = spoken (row);
          g_string_append_printf (text, "spoken=%s\n", said);
          g_tree_replace (lines, g_strdup_printf ("%012.0f", p.y + gtk_adjustment_get_value (adj)),
                          g_string_free (g_steal_pointer (&text), FALSE));
        }
      if (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj)
          >= gtk_adjustment_get_upper (adj) - 1)
        break;
    }
  gtk_adjustment_set_value (adj, 0);
  spin_for (100);
  for (GTreeNode *node = g_tree_node_first (lines); node; node = g_tree_node_next (node))
    {
      g_auto (GStrv) parts = g_strsplit (g_tree_node_value (node), "\n", -1);

      for (guint i = 0; parts[i] && parts[i][0]; i++)
        g_string_append_printf (out, "row %u%s%s\n", n, parts[i][0] == ' ' ? "" : " ", parts[i]);
      n++;
    }
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
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  g_settings_set_string (settings, "target", target);
  window = dm_ui_test_open_window (NULL, &app, &settings);
  dropdown = GTK_WIDGET (window->target_dropdown);
  /* The background scan has listed the mounts when Folders has more than
   * its heading and "Choose folder…". */
  while (g_list_model_get_n_items (dm_choice_get_model (window->target_dropdown)) <= 3
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  spin_for (300);

  g_string_append_printf (out, "window width=%d\n", gtk_widget_get_width (GTK_WIDGET (window)));
  for (guint u = 0; u < 4; u++)
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (
        dm_choice_get_model (window->units_dropdown), u);

      dm_choice_set_selected (window->units_dropdown, u);
      spin_for (200);
      g_string_append_printf (out, "field unit=%s width=%d\n", gtk_string_object_get_string (name),
                              gtk_widget_get_width (dropdown));
    }
  dm_choice_set_selected (window->units_dropdown, 0);
  spin_for (200);

  button_row = find_button_row (dropdown);
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
  describe_popup (popover, out);
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
