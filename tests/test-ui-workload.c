/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload profiles in the real window, on a display (tests/gui-run.sh
 * starts Xvfb): the Profile menu lists every file of resources/profiles
 * (read here from the source tree, not from the window), and choosing one
 * gives a row per [section] of the file, its button named by the header,
 * one tile spanning the Read and Write columns of a plain grid, to the
 * pixel; the tile shows the result's figures in the grid's unit, its meter
 * the same fraction as a plain tile of that figure, a rate not reached
 * and reads and writes apart; its latency detail opens. A bad file is
 * refused with its line number and leaves the grid as it was; the chosen
 * file is there again in a new window, and one gone since falls back to
 * Default with a reason.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "dm-format.h"
#include "dm-latency-view.h"
#include "dm-tile.h"
#include "dm-ui-test.h"
#include "dm-window-private.h"

#define RESOURCE "resource:///io/github/diskmeter/Diskmeter/profiles/"

static DmApplication *app;
static GSettings *settings;
static DmWindow *window;
static char *tmp;

/* The [section] headers of a profile file, as its text has them. */
static GPtrArray *
section_names (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      size_t n = strlen (line);

      if (n > 2 && line[0] == '[' && line[n - 1] == ']')
        g_ptr_array_add (names, g_strndup (line + 1, n - 2));
    }
  return names;
}

static void
collect_targets (GMenuModel *model,
                 GPtrArray  *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      g_autofree char *action = NULL;
      g_autofree char *target = NULL;
      GMenuModel *link;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action)
          && g_str_equal (action, "win.profile-file")
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_TARGET, "s", &target))
        g_ptr_array_add (out, g_steal_pointer (&target));
      while (g_menu_link_iter_get_next (links, NULL, &link))
        {
          collect_targets (link, out);
          g_object_unref (link);
        }
    }
}

static GtkWidget *
find_menu_button (GtkWidget *root)
{
  if (GTK_IS_MENU_BUTTON (root))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_menu_button (c);

      if (found)
        return found;
    }
  return NULL;
}

/* The grid's rows as the window shows them: labels of the row buttons. */
static char *
row_labels (void)
{
  GString *s = g_string_new (NULL);

  for (guint r = 0; r < _dm_window_get_n_rows (window); r++)
    g_string_append_printf (s, "%s|", gtk_button_get_label (GTK_BUTTON (
                                        _dm_window_get_row_button (window, r))));
  return g_string_free (s, FALSE);
}

static void
wait_layout (void)
{
  for (int i = 0; i < 20; i++)
    {
      dm_ui_test_spin ();
      g_usleep (5000);
    }
}

/* Every shipped profile is in the menu, and each gives its sections. */
static void
test_menu_lists_shipped (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("DM_SOURCE_ROOT"), "resources", "profiles",
                                           NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) targets = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *button = find_menu_button (gtk_window_get_titlebar (GTK_WINDOW (window)));
  const char *name;
  guint files = 0;

  g_assert_nonnull (d);
  g_assert_nonnull (button);
  /* Opened as a user opens it: the window makes the menu then. */
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  collect_targets (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), targets);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = NULL;
      g_autofree char *target = NULL;
      g_autoptr (GPtrArray) sections = NULL;
      g_autofree char *got = NULL;
      GString *want = g_string_new (NULL);

      if (!g_str_has_suffix (name, ".ini"))
        continue;
      files++;
      path = g_build_filename (dir, name, NULL);
      target = g_strconcat (RESOURCE, name, NULL);
      g_assert_true (g_ptr_array_find_with_equal_func (targets, target, g_str_equal, NULL));
      gtk_widget_activate_action (GTK_WIDGET (window), "win.profile-file", "s", target);
      wait_layout ();
      sections = section_names (path);
      for (guint i = 0; i < sections->len; i++)
        g_string_append_printf (want, "%s|", (char *) sections->pdata[i]);
      got = row_labels ();
      g_test_message ("%s: %s", name, got);
      g_assert_cmpstr (got, ==, want->str);
      g_string_free (want, TRUE);
      g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 1);
      {
        g_autofree char *state = NULL;

        g_object_get (window, "profile-file", &state, NULL);
        g_assert_cmpstr (state, ==, target);
      }
      g_assert_true (gtk_widget_get_visible (window->error_revealer) == FALSE
                     || !gtk_revealer_get_reveal_child (GTK_REVEALER (window->error_revealer)));
    }
  g_assert_cmpuint (files, ==, 8);
  g_assert_cmpuint (targets->len, ==, files);
}

/* Left and right of a widget in the grid's coordinates. */
static void
span_of (GtkWidget *w,
         double    *left,
         double    *right)
{
  graphene_rect_t b;

  g_assert_true (gtk_widget_compute_bounds (w, window->grid, &b));
  *left = b.origin.x;
  *right = b.origin.x + b.size.width;
}

static void
test_one_tile_spans (void)
{
  double plain_left, plain_right, left, right, dummy, button_right;
  int column, row, width, height;

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", FALSE);
  wait_layout ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 2);
  span_of (_dm_window_get_tile (window, 0, 0), &plain_left, &dummy);
  span_of (_dm_window_get_tile (window, 0, 1), &dummy, &plain_right);

  g_object_set (window, "profile-file", RESOURCE "four-corners.ini", NULL);
  wait_layout ();
  g_assert_cmpuint (_dm_window_get_n_rows (window), ==, 4);
  for (guint r = 0; r < 4; r++)
    {
      GtkWidget *tile = _dm_window_get_tile (window, r, 0);
      guint in_row = 0;

      gtk_grid_query_child (GTK_GRID (window->grid), tile, &column, &row, &width, &height);
      g_assert_cmpint (column, ==, 1);
      g_assert_cmpint (width, ==, 2);
      g_assert_cmpint (row, ==, (int) r + 1);
      /* The row holds its button and that one tile, nothing else. */
      for (GtkWidget *c = gtk_widget_get_first_child (window->grid); c;
           c = gtk_widget_get_next_sibling (c))
        {
          gtk_grid_query_child (GTK_GRID (window->grid), c, &column, &row, &width, &height);
          in_row += row == (int) r + 1;
        }
      g_assert_cmpuint (in_row, ==, 2);
      span_of (tile, &left, &right);
      span_of (_dm_window_get_row_button (window, r), &dummy, &button_right);
      g_test_message ("row %u: tile %.0f..%.0f, plain Read..Write %.0f..%.0f, button ends %.0f",
                      r, left, right, plain_left, plain_right, button_right);
      /* From the button column (wider for a long name) to where the plain
       * grid's Write column ends. */
      g_assert_cmpfloat_with_epsilon (left, button_right
                                      + gtk_grid_get_column_spacing (GTK_GRID (window->grid)),
                                      0.5);
      g_assert_cmpfloat_with_epsilon (right, plain_right, 0.5);
    }
  {
    g_autofree char *title = _dm_window_get_column_title (window, 0);

    g_assert_cmpstr (title, ==, "Workload (MB/s)");
    g_assert_null (gtk_grid_get_child_at (GTK_GRID (window->grid), 3, 0));
  }
}

/* A result with figures of its own, as a run would leave it. */
static void
fill (dm_result *res,
      double     mb,
      double     iops,
      double     p99,
      double     read_p99,
      double     write_p99)
{
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 1;
  res->runs[0].mb_per_s = mb;
  res->runs[0].iops = iops;
  res->mb_per_s = mb;
  res->iops = iops;
  res->latency_us = p99 / 2;
  res->latency.mean = p99 / 2;
  res->latency.p99 = p99;
  res->latency_read.p99 = read_p99;
  res->latency_write.p99 = write_p99;
}

static void
test_tile_figures (void)
{
  g_autofree char *path = g_build_filename (tmp, "mine.ini", NULL);
  dm_report *report;
  DmTile *mixed, *rated;
  g_autofree char *digits = NULL;
  g_autofree char *iops = NULL;

  g_assert_true (g_file_set_contents (path,
                                      "[Mixed]\nblock = 8K\nread = 70\n\n"
                                      "[Rated]\nblock = 4K\nread = 100\nrate = 5000iops\n",
                                      -1, NULL));
  g_object_set (window, "profile-file", path, NULL);
  wait_layout ();
  g_assert_cmpuint (_dm_window_get_n_rows (window), ==, 2);
  report = _dm_window_get_report (window);
  g_assert_cmpuint (report->n_results, ==, 2);
  g_assert_true (report->results[0].shaped);
  fill (&report->results[0], 123.456, 15070.4, 1234.5, 987.6, 2345.6);
  fill (&report->results[1], 12.0, 2930.0, 555.0, 0, 0);
  report->finished = report->started = 1;
  _dm_window_refresh (window);
  mixed = DM_TILE (_dm_window_get_tile (window, 0, 0));
  rated = DM_TILE (_dm_window_get_tile (window, 1, 0));
  g_test_message ("mixed: %s | %s", dm_tile_get_digits (mixed), dm_tile_get_detail (mixed));
  g_test_message ("rated: %s | %s", dm_tile_get_digits (rated), dm_tile_get_detail (rated));
  g_assert_cmpstr (dm_tile_get_digits (mixed), ==, "123.46");
  g_assert_cmpfloat_with_epsilon (dm_tile_get_fraction (mixed),
                                  dm_meter_fraction_in (123.456, DM_UNIT_MBPS), 1e-9);
  g_assert_cmpstr (dm_tile_get_detail (mixed), ==,
                   "15070 IOPS · p99 1.23 ms\nRead p99 988 µs · Write p99 2.35 ms");
  /* 2930 IOPS of the 5000 offered: the tile says so; a read-only row has
   * no reads and writes apart. */
  g_assert_cmpstr (dm_tile_get_detail (rated), ==,
                   "2930 IOPS · p99 555 µs\nRate not met: 2930 of 5000 IOPS");
  g_assert_nonnull (strstr (dm_tile_get_description (mixed), "Mixed: 123.46 MB/s; 15070 IOPS"));

  /* In IOPS the big figure is the IOPS and the meter follows it as a
   * plain tile's does. */
  g_settings_set_string (settings, "units", "IOPS");
  wait_layout ();
  digits = dm_format_value (15070.4, DM_UNIT_IOPS);
  g_assert_cmpstr (dm_tile_get_digits (mixed), ==, digits);
  g_assert_cmpfloat_with_epsilon (dm_tile_get_fraction (mixed),
                                  dm_meter_fraction_in (15070.4, DM_UNIT_IOPS), 1e-9);
  iops = _dm_window_get_column_title (window, 0);
  g_assert_cmpstr (iops, ==, "Workload (IOPS)");
  g_settings_set_string (settings, "units", "MB/s");
  wait_layout ();

  /* The latency detail of a workload tile, named by its row. */
  {
    GList *before = gtk_window_list_toplevels ();
    GList *after;
    gboolean opened = FALSE;

    gtk_widget_grab_focus (GTK_WIDGET (mixed));
    gtk_widget_activate_action (GTK_WIDGET (window), "win.latency", NULL);
    wait_layout ();
    after = gtk_window_list_toplevels ();
    for (GList *l = after; l; l = l->next)
      if (DM_IS_LATENCY_VIEW (l->data) && !g_list_find (before, l->data))
        {
          g_assert_true (g_str_has_suffix (gtk_window_get_title (l->data), " Mixed"));
          gtk_window_destroy (l->data);
          opened = TRUE;
        }
    g_assert_true (opened);
    g_list_free (before);
    g_list_free (after);
  }
}

static void
test_bad_file (void)
{
  g_autofree char *path = g_build_filename (tmp, "bad.ini", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *file_before = g_settings_get_string (settings, "profile-file");
  g_autofree char *file_after = NULL;
  const char *shown;

  g_object_set (window, "profile-file", RESOURCE "backup-restore.ini", NULL);
  wait_layout ();
  before = row_labels ();
  g_assert_true (g_file_set_contents (path, "# a comment\n[ok]\nblock = 4K\nqd = 400000\n", -1,
                                      NULL));
  g_object_set (window, "profile-file", path, NULL);
  wait_layout ();
  shown = gtk_label_get_text (GTK_LABEL (window->error_label));
  g_test_message ("error bar: %s", shown);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (window->error_revealer)));
  g_assert_nonnull (strstr (shown, "line 4"));
  g_assert_null (strchr (shown, '\n'));
  after = row_labels ();
  g_assert_cmpstr (after, ==, before);
  file_after = g_settings_get_string (settings, "profile-file");
  g_assert_cmpstr (file_after, ==, RESOURCE "backup-restore.ini");
  (void) file_before;
}

/* A new window (as after a restart) shows the chosen file; one deleted
 * since falls back to Default and says why. */
static void
test_restart (void)
{
  g_autofree char *path = g_build_filename (tmp, "kept.ini", NULL);
  g_autofree char *profile = NULL;
  DmWindow *second;

  g_assert_true (g_file_set_contents (path, "[Kept row]\nblock = 64K\nread = 50\n", -1, NULL));
  g_object_set (window, "profile-file", path, NULL);
  wait_layout ();
  second = dm_window_new (GTK_APPLICATION (app), settings);
  wait_layout ();
  g_assert_cmpuint (_dm_window_get_n_rows (second), ==, 1);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (_dm_window_get_row_button (second, 0))), ==,
                   "Kept row");
  gtk_window_destroy (GTK_WINDOW (second));
  wait_layout ();

  g_assert_cmpint (g_remove (path), ==, 0);
  second = dm_window_new (GTK_APPLICATION (app), settings);
  wait_layout ();
  profile = g_settings_get_string (settings, "profile");
  g_test_message ("gone: %s", gtk_label_get_text (GTK_LABEL (second->error_label)));
  g_assert_cmpstr (profile, ==, "default");
  g_assert_cmpuint (_dm_window_get_n_rows (second), ==, 4);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (second->error_label)), "kept.ini"));
  gtk_window_destroy (GTK_WINDOW (second));
  wait_layout ();
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  window = dm_ui_test_open_window ("default", &app, &settings);
  tmp = g_dir_make_tmp ("diskmeter-workload-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  g_test_add_func ("/ui/workload/menu-lists-shipped", test_menu_lists_shipped);
  g_test_add_func ("/ui/workload/one-tile-spans", test_one_tile_spans);
  g_test_add_func ("/ui/workload/tile-figures", test_tile_figures);
  g_test_add_func ("/ui/workload/bad-file", test_bad_file);
  g_test_add_func ("/ui/workload/restart", test_restart);
  rc = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  {
    g_autoptr (GDir) d = g_dir_open (tmp, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (tmp, name, NULL);
        g_remove (p);
      }
    g_rmdir (tmp);
  }
  return rc;
}
