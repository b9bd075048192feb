/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The History window on a display (tests/gui-run.sh starts Xvfb), over a
 * history folder of the test's own: it lists every saved run and the one
 * that does not load with its reason, two saved runs compare side by side
 * in the main window with the exports following, and opening one run puts
 * its figures back into the grid, tinted by the user's green and red
 * limits, which the limits dialog only saves once every line parses.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "dm-application.h"
#include "dm-ui-test.h"
#include "dm-history.h"
#include "dm-history-window.h"
#include "dm-thresholds-dialog.h"
#include "dm-window.h"
#include "dm-window-private.h"

static DmApplication *app;
static GSettings *settings;
static DmWindow *window;
static char *data_home;

/* A finished demo-profile run with the given sequential speed. */
static void
save_run (double      mb_per_s,
          int64_t     started,
          const char *comment,
          const char *tags,
          char       *path,
          size_t      path_size)
{
  dm_settings s;
  dm_spec spec;
  dm_report r;

  dm_settings_init (&s);
  dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0);
  memset (&r, 0, sizeof r);
  g_assert_cmpint (dm_report_init (&r, &s, &spec, 1,
                                   DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE)), ==, 0);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];

      res->status = DM_STATUS_COMPLETE;
      res->n_runs = 1;
      res->runs[0].mb_per_s = mb_per_s;
      res->runs[0].iops = mb_per_s;
      res->runs[0].seconds = 1;
      res->runs[0].bytes = (uint64_t) (mb_per_s * 1e6);
      res->runs[0].ios = (uint64_t) mb_per_s;
      res->runs[0].latency_us = 1000;
      res->mb_per_s = res->mean_mb_per_s = mb_per_s;
      res->iops = mb_per_s;
      res->latency_us = 1000;
    }
  r.status = DM_STATUS_COMPLETE;
  r.started = started;
  r.finished = started + 10;
  g_strlcpy (r.profile, "demo", sizeof r.profile);
  g_strlcpy (r.comment, comment, sizeof r.comment);
  g_strlcpy (r.target.path, "/mnt/test", sizeof r.target.path);
  {
    dm_tag t[DM_TAGS_MAX];
    unsigned n;

    g_assert_cmpint (dm_tags_parse_list (tags, t, &n, DM_TAGS_MAX, NULL, 0), ==, 0);
    dm_report_set_tags (&r, t, n);
  }
  g_assert_cmpint (dm_history_save (&r, path, path_size), ==, 0);
  dm_report_clear (&r);
}

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

static gboolean
on_settled (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets the frame clock lay out and paint, so a screenshot shows the state. */
static void
settle (void)
{
  gboolean done = FALSE;

  g_timeout_add (300, on_settled, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Whether a label under widget reads exactly text. */
static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && !g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text))
        || has_label (c, text))
      return TRUE;
  return FALSE;
}

static void
count_checks (GtkWidget *widget,
              guint     *all,
              guint     *usable,
              gboolean  *said_why)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_CHECK_BUTTON (c))
        {
          (*all)++;
          *usable += gtk_widget_get_sensitive (c);
        }
      if (GTK_IS_LABEL (c) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (c)), "Cannot be read"))
        *said_why = TRUE;
      count_checks (c, all, usable, said_why);
    }
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_history (void)
{
  char before[1200], after[1200], dir[1100];
  const char *paths[2] = { before, after };
  g_autofree char *broken = NULL;
  g_autofree char *csv = g_build_filename (data_home, "compare.csv", NULL);
  g_autofree char *json = g_build_filename (data_home, "open.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  DmHistoryWindow *history;
  guint all = 0, usable = 0;
  gboolean said_why = FALSE;

  save_run (100, 1700000000, "before", "", before, sizeof before);
  save_run (50, 1700086400, "after", "site=lab, controller=pvscsi", after, sizeof after);
  g_assert_cmpint (dm_history_dir (dir, sizeof dir), ==, 0);
  broken = g_build_filename (dir, "broken.json", NULL);
  g_assert_true (g_file_set_contents (broken, "{ not a report", -1, NULL));

  g_action_group_activate_action (G_ACTION_GROUP (app), "history", NULL);
  dm_ui_test_spin ();
  history = find_history_window ();
  g_assert_nonnull (history);
  count_checks (GTK_WIDGET (history), &all, &usable, &said_why);
  g_assert_cmpuint (all, ==, 3);
  g_assert_cmpuint (usable, ==, 2);
  g_assert_true (said_why);
  /* A run's tags in its line, after its comment; none for the other. */
  g_assert_true (has_label (GTK_WIDGET (history),
                            "SEQ 50 / 50 MB/s (read / write) · after · site=lab, controller=pvscsi"));
  g_assert_true (has_label (GTK_WIDGET (history), "SEQ 100 / 100 MB/s (read / write) · before"));
  /* Listing an unreadable file leaves it as it was. */
  g_assert_true (g_file_test (broken, G_FILE_TEST_EXISTS));

  if (g_getenv ("DM_GUI_KEEP_HISTORY"))
    {
      GtkWidget *w = GTK_WIDGET (history);
      g_autoptr (GdkPaintable) p = gtk_widget_paintable_new (w);
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr (GskRenderNode) node = NULL;
      g_autoptr (GdkTexture) texture = NULL;

      gdk_paintable_snapshot (p, snapshot, gtk_widget_get_width (w), gtk_widget_get_height (w));
      node = gtk_snapshot_free_to_node (snapshot);
      texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (w)), node, NULL);
      gdk_texture_save_to_png (texture, g_getenv ("DM_GUI_KEEP_HISTORY"));
    }

  /* Two saved runs side by side: the exports are the comparison. */
  g_assert_true (dm_window_compare_saved (window, paths, 2, &error));
  g_assert_no_error (error);
  dm_ui_test_spin ();
  g_action_group_activate_action (G_ACTION_GROUP (app), "save-csv-to", g_variant_new_string (csv));
  dm_ui_test_spin ();
  text = read_file (csv);
  g_assert_nonnull (strstr (text, "-50.00"));
  /* One run each: no spread to call it worse by. */
  g_assert_nonnull (strstr (text, "-50.00,one-run"));
  /* Each run's tags and the ones that differ, on every row: site, which
   * the first run has not; not controller, a fact the first run does not
   * know. */
  g_assert_nonnull (strstr (text, ",A_tags,B_tags,different_tags\r\n"));
  g_assert_nonnull (strstr (text, ",,site=lab; controller=pvscsi,site\r\n"));
  /* The comparison follows the unit the grid is switched to. */
  g_settings_set_string (settings, "units", "GB/s");
  dm_ui_test_spin ();
  g_clear_pointer (&text, g_free);
  g_action_group_activate_action (G_ACTION_GROUP (app), "save-csv-to", g_variant_new_string (csv));
  dm_ui_test_spin ();
  text = read_file (csv);
  g_assert_nonnull (strstr (text, "GB/s"));
  g_settings_reset (settings, "units");
  dm_ui_test_spin ();
  if (g_getenv ("DM_GUI_KEEP"))
    settle ();
  if (g_getenv ("DM_GUI_KEEP"))
    dm_window_save_screenshot (window, g_getenv ("DM_GUI_KEEP"), NULL);

  /* One saved run back in the grid: its figures, its comment, and the
   * user's limits colouring its tiles. */
  {
    const char *rules[] = { "read MB/s green>80 red<60", NULL };

    g_settings_set_strv (settings, "thresholds", rules);
    dm_ui_test_spin ();
  }
  g_assert_true (dm_window_open_saved (window, before, &error));
  g_assert_no_error (error);
  dm_ui_test_spin ();
  g_assert_true (gtk_widget_has_css_class (_dm_window_get_tile (window, 0, 0), "threshold-green"));
  /* The rule names the read column only. */
  g_assert_false (gtk_widget_has_css_class (_dm_window_get_tile (window, 0, 1), "threshold-green"));
  g_assert_true (dm_window_open_saved (window, after, &error));
  g_assert_no_error (error);
  dm_ui_test_spin ();
  g_assert_true (gtk_widget_has_css_class (_dm_window_get_tile (window, 0, 0), "threshold-red"));
  if (g_getenv ("DM_GUI_KEEP_OPEN"))
    settle ();
  if (g_getenv ("DM_GUI_KEEP_OPEN"))
    dm_window_save_screenshot (window, g_getenv ("DM_GUI_KEEP_OPEN"), NULL);
  g_clear_pointer (&text, g_free);
  g_action_group_activate_action (G_ACTION_GROUP (app), "save-json-to", g_variant_new_string (json));
  dm_ui_test_spin ();
  text = read_file (json);
  g_assert_nonnull (strstr (text, "\"after\""));
  g_assert_nonnull (strstr (text, "\"results\""));

  /* An unreadable file is refused with its reason, and the grid stays. */
  g_assert_false (dm_window_open_saved (window, broken, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_settings_reset (settings, "thresholds");
  gtk_window_destroy (GTK_WINDOW (history));
  dm_ui_test_spin ();
}

static GtkWidget *
find_child (GtkWidget *widget,
            GType      type,
            const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type)
          && (!label || (GTK_IS_BUTTON (c) && !g_strcmp0 (gtk_button_get_label (GTK_BUTTON (c)), label))))
        return c;
      if ((found = find_child (c, type, label)))
        return found;
    }
  return NULL;
}

static void
test_thresholds_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* not ours to free */
  GtkWidget *dialog = NULL, *view, *save, *error_label;
  g_auto (GStrv) saved = NULL;

  g_settings_reset (settings, "thresholds");
  g_action_group_activate_action (G_ACTION_GROUP (app), "thresholds", NULL);
  dm_ui_test_spin ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && !dialog; i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DM_IS_THRESHOLDS_DIALOG (w))
        dialog = GTK_WIDGET (w);
    }
  g_assert_nonnull (dialog);
  view = find_child (dialog, GTK_TYPE_TEXT_VIEW, NULL);
  save = find_child (gtk_window_get_titlebar (GTK_WINDOW (dialog)), GTK_TYPE_BUTTON, "_Save");
  g_assert_nonnull (view);
  g_assert_nonnull (save);

  /* A wrong line keeps the dialog open, says where, and saves nothing. */
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)),
                            "read MB/s green>80\nwrite MB/s red<fast", -1);
  g_signal_emit_by_name (save, "clicked");
  dm_ui_test_spin ();
  error_label = find_child (dialog, GTK_TYPE_LABEL, NULL);
  for (; error_label; error_label = gtk_widget_get_next_sibling (error_label))
    if (GTK_IS_LABEL (error_label) && gtk_widget_has_css_class (error_label, "error"))
      break;
  g_assert_nonnull (error_label);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), "Line 2: "));
  saved = g_settings_get_strv (settings, "thresholds");
  g_assert_cmpuint (g_strv_length (saved), ==, 0);
  g_clear_pointer (&saved, g_strfreev);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)),
                            "read MB/s green>80\n\nwrite MB/s red<60", -1);
  g_signal_emit_by_name (save, "clicked");
  dm_ui_test_spin ();
  saved = g_settings_get_strv (settings, "thresholds");
  g_assert_cmpuint (g_strv_length (saved), ==, 2);
  g_settings_reset (settings, "thresholds");
  dm_ui_test_spin ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* The history is the test's own, never the user's. */
  data_home = g_dir_make_tmp ("diskmeter-history-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  window = dm_ui_test_open_window ("demo", &app, &settings);

  g_test_add_func ("/ui/history/list-compare-open", test_history);
  g_test_add_func ("/ui/history/thresholds-dialog", test_thresholds_dialog);
  {
    int rc = g_test_run ();
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", data_home);

    /* Only the folder this test made. */
    if (g_str_has_prefix (data_home, g_get_tmp_dir ()) && strstr (data_home, "diskmeter-history-"))
      (void) !system (cmd);
    return rc;
  }
}
