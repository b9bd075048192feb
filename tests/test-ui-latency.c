/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The real window on a display (tests/gui-run.sh starts Xvfb): a finished
 * tile opens its latency detail from the menu entry and from Enter, a tile
 * with nothing measured opens nothing, and Sweep… opens the Sweep window.
 * The detail shows what the disk's own counters saw and why a figure was
 * flagged, or why there are no counters.
 * A result with a timeline shows it under the histogram.
 * With DM_LATENCY_PNG set, the detail of a Mix tile is saved there, with
 * DM_DEVICE_PNG that of a flagged tile, and with DM_TIMELINE_PNG that of
 * a tile with a timeline.
 * The detail's table reads in three significant digits throughout; Copy
 * and Save give it as tab-separated text with the same figures, and Escape
 * closes the detail.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "dm-application.h"
#include "dm-format.h"
#include "dm-ui-test.h"
#include "dm-latency-view.h"
#include "dm-screenshot.h"
#include "dm-sweep-window.h"
#include "dm-window.h"
#include "dm-window-private.h"

static DmApplication *app;
static DmWindow *window;
static GSettings *settings;

/* The latency views open now, closing them so the next case starts clean. */
static guint
count_views (const char *title_part,
             gboolean    close)
{
  g_autoptr (GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());
  guint n = 0;

  for (guint i = g_list_model_get_n_items (toplevels); i-- > 0;)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!DM_IS_LATENCY_VIEW (w))
        continue;
      if (!title_part || strstr (gtk_window_get_title (w), title_part))
        n++;
      if (close)
        gtk_window_destroy (w);
    }
  return n;
}

/* Fills a result as a run would: figures and a histogram of every I/O. */
static dm_result *
finish_result (const char *name,
               dm_mode     mode)
{
  dm_report *report = _dm_window_get_report (window);
  dm_result *res;
  dm_spec spec;

  g_assert_cmpint (dm_spec_parse (name, &spec, NULL, 0), ==, 0);
  res = dm_report_find (report, &spec, mode);
  g_assert_nonnull (res);
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 1;
  res->mb_per_s = 500;
  res->iops = 500e6 / spec.block_size;
  for (uint64_t i = 0; i < 1000; i++)
    {
      /* Reads near 100 µs with a tail to 5 ms; writes twice as slow. */
      uint64_t ns = 80000 + (i % 50) * 1000 + (i % 97 == 0 ? 5000000 : 0);
      if (res->hist_read && mode != DM_MODE_WRITE)
        dm_histogram_add (res->hist_read, ns, 1);
      if (res->hist_write && mode != DM_MODE_READ)
        dm_histogram_add (res->hist_write, 2 * ns, 1);
    }
  _dm_window_refresh (window);
  dm_ui_test_spin ();
  return res;
}

static void
test_menu_entry (void)
{
  GtkWidget *tile;

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", FALSE);
  dm_ui_test_spin ();
  count_views (NULL, TRUE);

  /* Nothing measured yet: no detail to show. */
  tile = _dm_window_get_tile (window, 0, 0);
  gtk_widget_grab_focus (tile);
  g_action_group_activate_action (G_ACTION_GROUP (app), "latency", NULL);
  dm_ui_test_spin ();
  g_assert_cmpuint (count_views (NULL, TRUE), ==, 0);

  finish_result ("SEQ1M_Q8T1", DM_MODE_READ);
  gtk_widget_grab_focus (tile);
  g_action_group_activate_action (G_ACTION_GROUP (app), "latency", NULL);
  dm_ui_test_spin ();
  g_assert_cmpuint (count_views ("Read", FALSE), ==, 1);
  g_assert_cmpuint (count_views ("SEQ1M", TRUE), ==, 1);
}

/* Runs the widget's shortcut for a key, as pressing it while focused does. */
static gboolean
press (GtkWidget  *widget,
       const char *key)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
        {
          g_autoptr (GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
          g_autofree char *label = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (s));

          if (strstr (label, key))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0, widget, NULL);
        }
    }
  return FALSE;
}

static void
test_enter_on_tile (void)
{
  GtkWidget *tile;

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", TRUE);
  dm_ui_test_spin ();
  count_views (NULL, TRUE);
  finish_result ("RND4K_Q32T1", DM_MODE_MIX);

  tile = _dm_window_get_tile (window, 2, 2);
  g_assert_nonnull (tile);
  g_assert_true (press (tile, "Return"));
  dm_ui_test_spin ();
  g_assert_cmpuint (count_views ("Mix", FALSE), ==, 1);

  if (g_getenv ("DM_LATENCY_PNG"))
    {
      g_autoptr (GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());
      g_autoptr (GError) error = NULL;

      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
          gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

          if (!DM_IS_LATENCY_VIEW (w))
            continue;
          while (g_get_monotonic_time () < until)
            if (!g_main_context_iteration (NULL, FALSE))
              g_usleep (10000);
          g_assert_true (dm_screenshot_save (GTK_WIDGET (w), GTK_WIDGET (w),
                                             g_getenv ("DM_LATENCY_PNG"), &error));
        }
    }
  count_views (NULL, TRUE);
  g_settings_reset (settings, "mix");
}

/* Every label's text in a widget tree, one a line: what the view says. */
static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_get_visible (c))
      collect_labels (c, out);
}

/* Opens the detail of the tile at (row, column) and returns its text;
 * saves a PNG of it too when png is set. */
static char *
detail_text (guint       row,
             guint       column,
             const char *png)
{
  g_autoptr (GListModel) toplevels = NULL;
  GString *out = g_string_new (NULL);

  count_views (NULL, TRUE);
  g_assert_true (press (_dm_window_get_tile (window, row, column), "Return"));
  dm_ui_test_spin ();
  g_assert_cmpuint (count_views (NULL, FALSE), ==, 1);
  toplevels = g_object_ref (gtk_window_get_toplevels ());
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!DM_IS_LATENCY_VIEW (w))
        continue;
      collect_labels (GTK_WIDGET (w), out);
      if (png)
        {
          g_autoptr (GError) error = NULL;
          gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

          while (g_get_monotonic_time () < until)
            if (!g_main_context_iteration (NULL, FALSE))
              g_usleep (10000);
          g_assert_true (dm_screenshot_save (GTK_WIDGET (w), GTK_WIDGET (w), png, &error));
        }
    }
  count_views (NULL, TRUE);
  return g_string_free (out, FALSE);
}

static void
test_device_detail (void)
{
  dm_report *report = NULL;
  dm_result *res;
  dm_device_ask ask;
  char why[240];
  g_autofree char *flagged = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *uncounted = NULL;
  g_autofree char *noted = NULL;

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", FALSE);
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  res = finish_result ("SEQ1M_Q8T1", DM_MODE_READ);
  res->device = (dm_device_seen) { .counted = true, .name = "vda", .reads = 800,
                                   .read_bytes = 800ull << 19, .seconds = 1,
                                   .counted_bytes = 400ull << 20, .avg_queue = 1.1,
                                   .busy_percent = 55, .flags = DM_FLAG_HOST_BOUND };
  _dm_window_refresh (window);
  dm_ui_test_spin ();

  /* The disk's figures beside the latency table, and the flag's sentence. */
  flagged = detail_text (0, 0, g_getenv ("DM_DEVICE_PNG"));
  g_test_message ("%s", flagged);
  g_assert_nonnull (strstr (flagged, "disk\nvda\n"));
  g_assert_nonnull (strstr (flagged, "reads\n800\n"));
  g_assert_nonnull (strstr (flagged, "writes\n0\n"));
  g_assert_nonnull (strstr (flagged, "MB read\n419.4\n"));
  g_assert_nonnull (strstr (flagged, "MB written\n0.0\n"));
  g_assert_nonnull (strstr (flagged, "KiB per request\n512.0\n"));
  g_assert_nonnull (strstr (flagged, "queue\n1.10\n"));
  g_assert_nonnull (strstr (flagged, "busy %\n55\n"));
  ask = dm_result_device_ask (res);
  dm_device_flag_explain (DM_FLAG_HOST_BOUND, &res->device, &ask, why, sizeof why);
  g_assert_true (g_str_has_prefix (why, "host bound: vda held "));
  g_assert_nonnull (strstr (flagged, why + 1));
  g_assert_nonnull (strstr (flagged, "Host bound: vda held "));
  g_assert_null (strstr (flagged, "No disk counters"));

  /* Counted without a flag: the figures, no warning. */
  res->device.flags = 0;
  plain = detail_text (0, 0, NULL);
  g_assert_nonnull (strstr (plain, "queue\n1.10\n"));
  g_assert_null (strstr (plain, "Host bound"));

  /* Nothing counted: the view says so, and why when the run knew. */
  memset (&res->device, 0, sizeof res->device);
  uncounted = detail_text (0, 0, NULL);
  g_assert_nonnull (strstr (uncounted, "No disk counters in this result."));
  g_assert_null (strstr (uncounted, "KiB per request"));
  g_strlcpy (report->device_note, "tmpfs lives in memory: no block device to count",
             sizeof report->device_note);
  noted = detail_text (0, 0, NULL);
  g_assert_nonnull (strstr (noted,
                            "No disk counters (tmpfs lives in memory: no block device to count)."));
  report->device_note[0] = '\0';
}

/* A result with a timeline shows it under the histogram, captioned with
 * its step; one without shows no timeline. With DM_TIMELINE_PNG set, the
 * detail with its timeline is saved there. */
static void
test_timeline_detail (void)
{
  dm_sample samples[40];
  dm_result *res;
  g_autofree char *with = NULL;
  g_autofree char *without = NULL;

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", FALSE);
  dm_ui_test_spin ();
  res = finish_result ("SEQ1M_Q8T1", DM_MODE_READ);
  without = detail_text (0, 0, NULL);
  g_assert_null (strstr (without, "Throughput over time"));

  /* 20 s at about 500 MB/s with a slow patch, the p99 rising in it. */
  memset (samples, 0, sizeof samples);
  for (guint k = 0; k < G_N_ELEMENTS (samples); k++)
    {
      samples[k].t = 0.5 * (k + 1);
      samples[k].all.mb_per_s = (k >= 22 && k < 28 ? 180 : 500) + (k % 7) * 9.5;
      samples[k].all.latency_us_p99 = (k >= 22 && k < 28 ? 9000 : 2100) + (k % 5) * 130;
    }
  g_assert_cmpint (dm_result_set_samples (res, samples, G_N_ELEMENTS (samples), 0.5), ==, 0);
  with = detail_text (0, 0, g_getenv ("DM_TIMELINE_PNG"));
  g_assert_nonnull (strstr (with, "Throughput over time, one sample every 0.5 s\n"));
  g_assert_cmpint (dm_result_set_samples (res, NULL, 0, 0), ==, 0);
}

/* The latency view open now (there is one). */
static GtkWidget *
open_view (void)
{
  g_autoptr (GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (DM_IS_LATENCY_VIEW (w))
        return GTK_WIDGET (w);
    }
  g_assert_not_reached ();
}

static void
on_text_read (GObject      *clipboard,
              GAsyncResult *result,
              gpointer      data)
{
  *(char **) data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (clipboard), result, NULL);
}

/* Three significant digits: "1.70 ms", "27.4 µs", "0.500 µs", "100 µs". */
static gboolean
three_digits (const char *figure)
{
  guint digits = 0;
  gboolean leading = TRUE;

  if (!g_regex_match_simple ("^[0-9]+(\\.[0-9]+)? (µs|ms|s)$", figure, 0, 0))
    return FALSE;
  for (const char *p = figure; *p && *p != ' '; p++)
    {
      if (*p == '.' || (leading && *p == '0'))
        continue;
      leading = FALSE;
      digits++;
    }
  return digits == 3;
}

static void
test_table_text (void)
{
  g_autofree char *copied = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *dir = g_dir_make_tmp ("diskmeter-latency-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "table.txt", NULL);
  g_auto (GStrv) lines = NULL;
  GtkWidget *view;
  GString *labels = g_string_new (NULL);

  /* The rule, at the edges of a unit and of a digit. */
  for (guint i = 0; i < 6; i++)
    {
      static const struct { double us; const char *text; } cases[] = {
        { 1700, "1.70 ms" }, { 2740, "2.74 ms" }, { 999.96, "1.00 ms" }, { 9.996, "10.0 µs" },
        { 0.5, "0.500 µs" }, { 1234567, "1.23 s" },
      };
      g_autofree char *text = dm_format_latency_us (cases[i].us);
      g_assert_cmpstr (text, ==, cases[i].text);
    }

  g_settings_set_string (settings, "profile", "default");
  g_settings_set_boolean (settings, "mix", TRUE);
  dm_ui_test_spin ();
  finish_result ("SEQ1M_Q8T1", DM_MODE_MIX);
  count_views (NULL, TRUE);
  g_assert_true (press (_dm_window_get_tile (window, 0, 2), "Return"));
  dm_ui_test_spin ();
  view = open_view ();
  collect_labels (view, labels);
  shown = g_string_free (labels, FALSE);

  /* Copy: the heading, the columns, then a row per figure. */
  gtk_widget_activate_action (view, "latency.copy", NULL);
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (view), NULL, on_text_read, &copied);
  while (!copied)
    g_main_context_iteration (NULL, TRUE);
  g_test_message ("copied:\n%s", copied);
  lines = g_strsplit (copied, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 11);
  g_assert_nonnull (strstr (lines[0], "I/Os measured"));
  g_assert_cmpstr (lines[1], ==, "\tread\twrite");
  g_assert_cmpstr (lines[10], ==, "");
  for (guint i = 2; i < 10; i++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (cells), ==, 3);
      for (guint c = 1; c < 3; c++)
        {
          g_autofree char *label = g_strdup_printf ("\n%s\n", cells[c]);

          g_assert_true (three_digits (cells[c]));
          /* The window shows the figure copied. */
          g_assert_nonnull (strstr (shown, label));
        }
    }

  /* Save: the same text in a file. */
  gtk_widget_activate_action (view, "latency.save-to", "s", path);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, copied);
  g_remove (path);
  g_rmdir (dir);

  /* Escape closes the detail; Ctrl+C copies, Ctrl+S saves. */
  g_assert_true (press (view, "<Control>c"));
  g_assert_true (press (view, "Escape"));
  dm_ui_test_spin ();
  g_assert_cmpuint (count_views (NULL, FALSE), ==, 0);
  g_settings_set_boolean (settings, "mix", FALSE);
  dm_ui_test_spin ();
}

static void
test_sweep_action (void)
{
  guint before = 0, after = 0;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    before += DM_IS_SWEEP_WINDOW (l->data);
  g_action_group_activate_action (G_ACTION_GROUP (app), "sweep", NULL);
  dm_ui_test_spin ();
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (DM_IS_SWEEP_WINDOW (l->data))
      {
        after++;
        gtk_window_destroy (l->data);
        break;
      }
  g_assert_cmpuint (after, ==, before + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  window = dm_ui_test_open_window (NULL, &app, &settings);

  g_test_add_func ("/ui/latency/menu-entry", test_menu_entry);
  g_test_add_func ("/ui/latency/enter-on-tile", test_enter_on_tile);
  g_test_add_func ("/ui/latency/device-detail", test_device_detail);
  g_test_add_func ("/ui/latency/timeline-detail", test_timeline_detail);
  g_test_add_func ("/ui/latency/sweep-action", test_sweep_action);
  g_test_add_func ("/ui/latency/table-text", test_table_text);
  return g_test_run ();
}
