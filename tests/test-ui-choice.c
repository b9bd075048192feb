/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DmChoice, on a display (tests/gui-run.sh starts Xvfb): it costs the
 * window's first frame no list, since its popover is made on the first
 * open only; it shows and tells its selection as GtkDropDown does; a row
 * picked in the list selects and closes; the selection stays in the
 * model as items come and go; and a heading row cannot be chosen.
 */
#include <gtk/gtk.h>

#include "dm-choice.h"

static GtkWidget *window;

static void
spin (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* A shown choice of the given strings, in a window of its own. */
static DmChoice *
new_choice (const char *const *strings)
{
  g_autoptr (GtkStringList) model = gtk_string_list_new (strings);
  GtkWidget *choice = dm_choice_new (G_LIST_MODEL (model));

  gtk_window_set_child (GTK_WINDOW (window), choice);
  spin (100);
  return DM_CHOICE (choice);
}

static GtkMenuButton *
button_of (DmChoice *choice)
{
  return GTK_MENU_BUTTON (gtk_widget_get_first_child (GTK_WIDGET (choice)));
}

/* The text the closed button shows: its first label. */
static const char *
shown_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *text = GTK_IS_POPOVER (c) ? NULL : shown_text (c);

      if (text)
        return text;
    }
  return NULL;
}

static GtkWidget *
find_type (GtkWidget  *widget,
           const char *type_name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = g_str_equal (G_OBJECT_TYPE_NAME (c), type_name) ? c
                                                                         : find_type (c, type_name);
      if (found)
        return found;
    }
  return NULL;
}

/* The list's row widget (GtkListItemWidget) whose label says text. */
static GtkWidget *
find_row (GtkWidget  *widget,
          const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (g_str_equal (G_OBJECT_TYPE_NAME (c), "GtkListItemWidget")
          && g_strcmp0 (shown_text (c), text) == 0)
        return c;
      if ((found = find_row (c, text)))
        return found;
    }
  return NULL;
}

static GtkWidget *
open_popover (DmChoice *choice)
{
  GtkWidget *popover;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_signal_emit_by_name (choice, "activate");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (button_of (choice)));
  g_assert_nonnull (popover);
  while (!gtk_widget_get_mapped (popover) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  spin (100);
  g_assert_true (gtk_widget_get_mapped (popover));
  return popover;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* The list costs nothing until the user opens it. */
static void
test_lazy (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "1", "2", "3", NULL });
  GtkWidget *popover;

  g_assert_null (gtk_menu_button_get_popover (button_of (choice)));
  g_assert_null (find_type (GTK_WIDGET (choice), "GtkListView"));
  popover = open_popover (choice);
  g_assert_nonnull (find_type (popover, "GtkListView"));
  /* The keys move in the list: the focus is in it. */
  {
    GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (window));

    g_assert_nonnull (focus);
    g_assert_true (gtk_widget_is_ancestor (focus, find_type (popover, "GtkListView")));
  }
  gtk_popover_popdown (GTK_POPOVER (popover));
  spin (100);
  /* Made once: the next open shows the same list. */
  g_assert_true (open_popover (choice) == popover);
  gtk_popover_popdown (GTK_POPOVER (popover));
}

static void
test_selected (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "16MiB", "32MiB", "64MiB", NULL });
  guint notified = 0;
  g_autofree char *bound = NULL;

  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 0);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "16MiB");
  g_signal_connect (choice, "notify::selected", G_CALLBACK (count_notify), &notified);
  dm_choice_set_selected (choice, 2);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 2);
  g_assert_cmpstr (gtk_string_object_get_string (dm_choice_get_selected_item (choice)), ==,
                   "64MiB");
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "64MiB");
  /* The same again tells no one. */
  dm_choice_set_selected (choice, 2);
  g_assert_cmpuint (notified, ==, 1);
  /* As a property, for g_settings_bind and g_object_bind_property. */
  g_object_set (choice, "selected", 1, NULL);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "32MiB");
  dm_choice_set_selected (choice, 7);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, GTK_INVALID_LIST_POSITION);
  g_assert_null (dm_choice_get_selected_item (choice));
}

/* A row picked in the open list is chosen, and the list closes. */
static void
test_row_activation (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "MB/s", "GB/s", "IOPS", NULL });
  GtkWidget *popover = open_popover (choice);
  GtkWidget *row = find_row (popover, "IOPS");
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_nonnull (row);
  /* As Enter on it does (GtkListItemWidget's "activate-keybinding"). */
  g_signal_emit_by_name (row, "activate-keybinding");
  while (gtk_widget_get_mapped (popover) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 2);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "IOPS");
  g_assert_false (gtk_widget_get_mapped (popover));
}

static void
test_model_change (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "a", "b", "c", "d", NULL });
  GtkStringList *model = GTK_STRING_LIST (dm_choice_get_model (choice));
  guint notified = 0;

  g_signal_connect (choice, "notify::selected", G_CALLBACK (count_notify), &notified);
  dm_choice_set_selected (choice, 3);
  /* An item put before it: the selection moves with its item. */
  gtk_string_list_splice (model, 0, 0, (const char *const[]) { "z", NULL });
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 4);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "d");
  /* Its item removed: the selection stays in the list. */
  gtk_string_list_splice (model, 3, 2, NULL);
  g_assert_cmpuint (dm_choice_get_selected (choice), <, 3);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 2);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "b");
  g_assert_cmpuint (notified, ==, 3);
  /* An empty list has no selection, and the first item of a new one is. */
  gtk_string_list_splice (model, 0, 3, NULL);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, GTK_INVALID_LIST_POSITION);
  g_assert_null (dm_choice_get_selected_item (choice));
  gtk_string_list_append (model, "x");
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 0);
  g_assert_cmpstr (shown_text (GTK_WIDGET (choice)), ==, "x");
}

/* Rows named "Disks" are headings, as the target list's. */
static void
heading_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static void
heading_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));
  gboolean heading = g_str_equal (text, "Disks");

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  gtk_list_item_set_selectable (item, !heading);
  gtk_list_item_set_activatable (item, !heading);
}

static void
test_heading (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "/home", "Disks", "/dev/sda", NULL });
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkWidget *popover, *row;

  g_signal_connect (factory, "setup", G_CALLBACK (heading_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (heading_bind), NULL);
  dm_choice_set_list_factory (choice, factory);
  popover = open_popover (choice);
  row = find_row (popover, "Disks");
  g_assert_nonnull (row);
  g_signal_emit_by_name (row, "activate-keybinding");
  spin (200);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 0);
  g_assert_true (gtk_widget_get_mapped (popover));
  /* The row below it can be. */
  g_signal_emit_by_name (find_row (popover, "/dev/sda"), "activate-keybinding");
  spin (200);
  g_assert_cmpuint (dm_choice_get_selected (choice), ==, 2);
}

/* A screen reader on the focused button hears the choice's label. */
static void
test_accessible (void)
{
  DmChoice *choice = new_choice ((const char *const[]) { "All", "Read only", NULL });
  GtkWidget *toggle = gtk_widget_get_first_child (GTK_WIDGET (button_of (choice)));

  gtk_widget_grab_focus (GTK_WIDGET (choice));
  spin (100);
  g_assert_true (gtk_widget_has_focus (toggle));
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (choice),
                                               GTK_ACCESSIBLE_ROLE_COMBO_BOX));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (toggle),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 200);
  gtk_window_present (GTK_WINDOW (window));
  g_test_add_func ("/ui/choice/lazy", test_lazy);
  g_test_add_func ("/ui/choice/selected", test_selected);
  g_test_add_func ("/ui/choice/row-activation", test_row_activation);
  g_test_add_func ("/ui/choice/model-change", test_model_change);
  g_test_add_func ("/ui/choice/heading", test_heading);
  g_test_add_func ("/ui/choice/accessible", test_accessible);
  rc = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return rc;
}
