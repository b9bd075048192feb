/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the History window for tests/gui-history-xlsx.sh, on the display
 * and over the history folder the script set up: checks the saved runs
 * named on the command line with their check boxes, as a user does, and
 * exports them with the window's history.export-xlsx-to action.
 *   test-ui-history-xlsx OUT.xlsx RUN.json...
 * Prints the status line; exits 0 once the window said it saved OUT.xlsx.
 */
#include <gtk/gtk.h>
#include <string.h>

#include "dm-application.h"
#include "dm-history-window.h"
#include "dm-ui-test.h"
#include "dm-window.h"

static DmHistoryWindow *
find_history_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* not ours to free */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DM_IS_HISTORY_WINDOW (w))
        return DM_HISTORY_WINDOW (w);
    }
  return NULL;
}

/* Checks the box of every row whose file (the row's tooltip) is named in
 * runs; returns how many it checked. */
static guint
check_runs (GtkWidget  *widget,
            char      **runs)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_CHECK_BUTTON (c))
        {
          const char *file = gtk_widget_get_tooltip_text (gtk_widget_get_parent (c));
          g_autofree char *name = file ? g_path_get_basename (file) : NULL;

          for (char **r = runs; name && *r; r++)
            {
              g_autofree char *want = g_path_get_basename (*r);

              if (!strcmp (name, want))
                {
                  gtk_check_button_set_active (GTK_CHECK_BUTTON (c), TRUE);
                  n++;
                }
            }
        }
      n += check_runs (c, runs);
    }
  return n;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (c) && !g_strcmp0 (gtk_button_get_label (GTK_BUTTON (c)), label))
        return c;
      if ((found = find_button (c, label)))
        return found;
    }
  return NULL;
}

/* The status line: the label that says what the last action did. */
static const char *
find_status (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *found;

      if (GTK_IS_LABEL (c) && gtk_widget_get_hexpand (c)
          && gtk_label_get_ellipsize (GTK_LABEL (c)) == PANGO_ELLIPSIZE_END
          && !gtk_widget_has_css_class (c, "dim-label"))
        return gtk_label_get_text (GTK_LABEL (c));
      if ((found = find_status (c)))
        return found;
    }
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  DmApplication *app;
  GSettings *settings;
  DmHistoryWindow *history;
  GtkWidget *excel;
  const char *status;
  g_autofree char *saved = NULL;
  guint checked;
  int bad = 0;

  if (argc < 3)
    {
      g_printerr ("usage: %s OUT.xlsx RUN.json...\n", argv[0]);
      return 2;
    }
  dm_ui_test_open_window ("demo", &app, &settings);
  g_action_group_activate_action (G_ACTION_GROUP (app), "history", NULL);
  dm_ui_test_spin ();
  history = find_history_window ();
  if (!history)
    {
      g_print ("FAIL: the History window did not open\n");
      return 1;
    }

  excel = find_button (GTK_WIDGET (history), "Excel…");
  if (!excel)
    g_print ("FAIL: the History window has no Excel… button\n");
  else
    g_print ("%s: with nothing checked the Excel… button is greyed out\n",
             gtk_widget_get_sensitive (excel) ? "FAIL" : "ok");
  bad += !excel || gtk_widget_get_sensitive (excel);

  checked = check_runs (GTK_WIDGET (history), argv + 2);
  dm_ui_test_spin ();
  if (checked != (guint) argc - 2)
    {
      g_print ("FAIL: checked %u of the %d runs named (are they in the history?)\n", checked,
               argc - 2);
      return 1;
    }
  if (excel)
    g_print ("%s: with runs checked the Excel… button can be pressed\n",
             gtk_widget_get_sensitive (excel) ? "ok" : "FAIL");
  bad += excel && !gtk_widget_get_sensitive (excel);

  if (!gtk_widget_activate_action (GTK_WIDGET (history), "history.export-xlsx-to", "s", argv[1]))
    {
      g_print ("FAIL: the History window has no history.export-xlsx-to action\n");
      return 1;
    }
  dm_ui_test_spin ();
  status = find_status (GTK_WIDGET (history));
  g_print ("status line: %s\n", status ? status : "(none)");
  saved = g_strdup_printf ("Saved %u runs to %s", checked, argv[1]);
  if (!status || strcmp (status, saved) || !g_file_test (argv[1], G_FILE_TEST_IS_REGULAR))
    {
      g_print ("FAIL: the window did not save the workbook\n");
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (history));
  dm_ui_test_spin ();
  return bad ? 1 : 0;
}
