/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The real window's grid on a display (tests/gui-run.sh starts Xvfb): for
 * each profile the grid has the rows and columns CrystalDiskMark shows,
 * each row has its own button, tiles print a result in the chosen unit on
 * one width and tell assistive technology what they hold, a figure the
 * disk's own counters flagged carries a mark and says why, "no figure yet"
 * has one look, a failed tile says why in the user's language, and All /
 * Read only / Write only (the modes setting and action) leave the other
 * columns' tiles empty and out of every export, a disk being only read;
 * rows a run did not reach are empty tiles too, left out of the exports
 * and of the history, and ticking Mix over an opened run keeps its
 * figures. The window around the grid is tests/test-ui-window.c's.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

#include "dm-ui-test.h"
#include "dm-format.h"
#include "dm-history.h"
#include "dm-screenshot.h"
#include "dm-tile.h"
#include "dm-window.h"
#include "dm-window-private.h"

static DmApplication *app;
static GSettings *settings;
static DmWindow *window;

static void
test_grid_per_profile (void)
{
  static const struct { const char *profile; gboolean nvme; guint rows; } cases[] = {
    { "default", FALSE, 4 }, { "default", TRUE, 4 }, { "peak", FALSE, 2 }, { "peak", TRUE, 2 },
    { "realworld", FALSE, 2 }, { "demo", FALSE, 1 }, { "flash", FALSE, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (int mix = 0; mix <= 1; mix++)
      {
        const dm_profile *profile = dm_profile_find (cases[i].profile);
        DmGridLayout want;

        g_settings_set_string (settings, "profile", cases[i].profile);
        g_settings_set_boolean (settings, "nvme", cases[i].nvme);
        g_settings_set_boolean (settings, "mix", mix);
        dm_ui_test_spin ();

        dm_grid_layout_init (&want, profile, cases[i].nvme, mix);
        g_assert_cmpuint (_dm_window_get_n_rows (window), ==, cases[i].rows);
        g_assert_cmpuint (_dm_window_get_n_columns (window), ==, mix ? 3 : 2);
        for (guint r = 0; r < cases[i].rows; r++)
          {
            GtkWidget *button = _dm_window_get_row_button (window, r);
            char label[64];

            dm_spec_label (&want.rows[r], label, sizeof label);
            g_assert_true (GTK_IS_BUTTON (button));
            g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, label);
            g_assert_true (gtk_widget_get_mapped (button));
            for (guint c = 0; c < (mix ? 3u : 2u); c++)
              {
                GtkWidget *tile = _dm_window_get_tile (window, r, c);
                g_assert_true (DM_IS_TILE (tile));
                g_assert_true (gtk_widget_get_mapped (tile));
                g_assert_cmpint (dm_tile_get_state (DM_TILE (tile)), ==, DM_TILE_IDLE);
              }
          }
        {
          g_autofree char *read = _dm_window_get_column_title (window, 0);
          g_autofree char *write = _dm_window_get_column_title (window, 1);
          g_assert_cmpstr (read, ==, "Read (MB/s)");
          g_assert_cmpstr (write, ==, "Write (MB/s)");
          if (mix)
            {
              g_autofree char *m = _dm_window_get_column_title (window, 2);
              g_assert_cmpstr (m, ==, "Mix R70%/W30% (MB/s)");
            }
        }
        /* Flash Memory times its tests itself: 1 s each, 30 s apart,
         * whatever the preferences say; every other profile keeps them. */
        {
          dm_settings s;
          _dm_window_engine_settings (window, &s);
          gboolean flash = !strcmp (cases[i].profile, "flash");
          g_assert_cmpfloat (s.measure_s, ==, flash ? 1.0 : g_settings_get_double (settings, "measure-time"));
          g_assert_cmpfloat (s.interval_s, ==, flash ? 30.0 : g_settings_get_double (settings, "interval"));
        }
      }
  dm_ui_test_reset_settings (settings);
}

static void
test_tile_units (void)
{
  dm_report *report;
  dm_result *res;
  DmTile *tile;
  dm_spec spec;
  static const struct { const char *units; dm_unit unit; const char *title; } units[] = {
    { "MB/s", DM_UNIT_MBPS, "Read (MB/s)" },
    { "GB/s", DM_UNIT_GBPS, "Read (GB/s)" },
    { "IOPS", DM_UNIT_IOPS, "Read (IOPS)" },
    { "us", DM_UNIT_US, "Read (μs)" },
  };

  g_settings_set_string (settings, "profile", "default");
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  res = dm_report_find (report, &spec, DM_MODE_READ);
  g_assert_nonnull (res);
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 1;
  res->mb_per_s = 1234.567;
  res->iops = 1234.567e6 / 1048576;
  res->latency_us = 6480.2;
  _dm_window_refresh (window);

  tile = DM_TILE (_dm_window_get_tile (window, 0, 0));
  g_assert_cmpint (dm_tile_get_state (tile), ==, DM_TILE_DONE);
  g_assert_cmpfloat_with_epsilon (dm_tile_get_fraction (tile), dm_meter_fraction (1234.567), 1e-9);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      g_autofree char *want = dm_format_value (dm_result_value (res, units[i].unit), units[i].unit);
      g_autofree char *title = NULL;
      g_autofree char *spoken = NULL;

      g_settings_set_string (settings, "units", units[i].units);
      dm_ui_test_spin ();
      g_assert_cmpstr (dm_tile_get_digits (tile), ==, want);
      title = _dm_window_get_column_title (window, 0);
      g_assert_cmpstr (title, ==, units[i].title);
      /* The tooltip carries the same sentence as the accessible label. */
      spoken = dm_tile_describe (&spec, DM_MODE_READ, dm_result_value (res, units[i].unit),
                                 units[i].unit, TRUE);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (tile)), ==, spoken);
    }
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 0))), !=, "0.00");

  g_settings_set_string (settings, "units", "MB/s");
  dm_ui_test_spin ();
  g_assert_cmpstr (dm_tile_get_digits (tile), ==, "1234.57");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (tile)), ==,
                   "SEQ1M Q8T1 Read: 1234.57 MB/s");
  /* Only the measured tile changed. */
  g_assert_cmpint (dm_tile_get_state (DM_TILE (_dm_window_get_tile (window, 0, 1))), ==,
                   DM_TILE_IDLE);
  dm_ui_test_reset_settings (settings);
}

static void
test_tile_flagged (void)
{
  dm_report *report;
  dm_result *read, *write;
  GtkWidget *flagged, *plain;
  dm_device_ask ask;
  dm_spec spec;
  char why[240];
  g_autofree char *sentence = NULL;
  g_autofree char *spoken = NULL;
  const char *tooltip;

  g_settings_set_string (settings, "profile", "default");
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  read = dm_report_find (report, &spec, DM_MODE_READ);
  write = dm_report_find (report, &spec, DM_MODE_WRITE);
  g_assert_nonnull (read);
  g_assert_nonnull (write);

  /* The read kept about one of its eight I/Os at the disk: host bound.
   * The write's queue reached the disk: no flag. */
  read->status = write->status = DM_STATUS_COMPLETE;
  read->n_runs = write->n_runs = 1;
  read->mb_per_s = 1532.4;
  write->mb_per_s = 1180.2;
  read->device = (dm_device_seen) { .counted = true, .name = "vda", .reads = 6000,
                                    .read_bytes = 6000ull << 19, .seconds = 2,
                                    .counted_bytes = 3000ull << 20, .avg_queue = 2.2,
                                    .busy_percent = 97, .flags = DM_FLAG_HOST_BOUND };
  write->device = (dm_device_seen) { .counted = true, .name = "vda", .writes = 4600,
                                     .write_bytes = 4600ull << 19, .seconds = 2,
                                     .counted_bytes = 2300ull << 20, .avg_queue = 15.8,
                                     .busy_percent = 99 };
  _dm_window_refresh (window);
  dm_ui_test_spin ();

  flagged = _dm_window_get_tile (window, 0, 0);
  plain = _dm_window_get_tile (window, 0, 1);
  g_assert_cmpint (dm_tile_get_state (DM_TILE (flagged)), ==, DM_TILE_DONE);
  g_assert_true (dm_tile_get_flagged (DM_TILE (flagged)));
  g_assert_true (gtk_widget_has_css_class (flagged, "flagged"));
  g_assert_false (dm_tile_get_flagged (DM_TILE (plain)));
  g_assert_false (gtk_widget_has_css_class (plain, "flagged"));

  /* Tooltip and spoken label carry the flag's sentence after the figure. */
  ask = dm_result_device_ask (read);
  dm_device_flag_explain (DM_FLAG_HOST_BOUND, &read->device, &ask, why, sizeof why);
  g_assert_true (g_str_has_prefix (why, "host bound: vda held "));
  sentence = g_strdup_printf ("H%s.", why + 1);
  tooltip = gtk_widget_get_tooltip_text (flagged);
  g_assert_true (g_str_has_prefix (tooltip, "SEQ1M Q8T1 Read: 1532.40 MB/s"));
  g_assert_nonnull (strstr (tooltip, sentence));
  spoken = g_strdup_printf ("SEQ1M Q8T1 Read: 1532.40 MB/s. %s", sentence);
  dm_ui_test_assert_label (flagged, spoken);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (plain), ==, "SEQ1M Q8T1 Write: 1180.20 MB/s");
  dm_ui_test_assert_label (plain, "SEQ1M Q8T1 Write: 1180.20 MB/s");

  /* The mark is drawn: a screenshot of the window keeps it. */
  if (g_getenv ("DM_TILE_PNG"))
    {
      g_autoptr (GError) error = NULL;

      g_assert_true (dm_screenshot_save (GTK_WIDGET (window), flagged, g_getenv ("DM_TILE_PNG"),
                                         &error));
    }

  /* Once the flag is gone, so is the mark, and the tile still fits. */
  read->device.flags = 0;
  _dm_window_refresh (window);
  dm_ui_test_spin ();
  g_assert_false (dm_tile_get_flagged (DM_TILE (flagged)));
  g_assert_false (gtk_widget_has_css_class (flagged, "flagged"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (flagged), ==, "SEQ1M Q8T1 Read: 1532.40 MB/s");
  dm_ui_test_assert_label (flagged, "SEQ1M Q8T1 Read: 1532.40 MB/s");
  dm_ui_test_reset_settings (settings);
}

/* The selector beside the unit (found as a user finds it, not through the
 * window's struct). */
static DmChoice *
modes_selector (void)
{
  GtkWidget *units = GTK_WIDGET (window->units_dropdown);
  GtkWidget *next = gtk_widget_get_next_sibling (units);

  if (!DM_IS_CHOICE (next))
    g_error ("no selector beside the unit");
  return DM_CHOICE (next);
}

/* Saves the grid as JSON through the action and returns the modes of its
 * results, in order ("read,read"). */
static char *
exported_modes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("diskmeter-ui-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "r.json", NULL);
  g_autofree char *contents = NULL;
  GString *modes = g_string_new (NULL);
  const char *p;

  g_action_group_activate_action (G_ACTION_GROUP (app), "save-json-to",
                                  g_variant_new_string (json));
  g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
  p = strstr (contents, "\"results\"");
  g_assert_nonnull (p);
  while ((p = strstr (p, "\"mode\": \"")))
    {
      const char *end;

      p += strlen ("\"mode\": \"");
      end = strchr (p, '"');
      g_string_append_printf (modes, "%s%.*s", modes->len ? "," : "", (int) (end - p), p);
    }
  g_unlink (json);
  g_rmdir (dir);
  return g_string_free (modes, FALSE);
}

static void
test_modes (void)
{
  DmChoice *selector;
  GListModel *items;
  dm_report *report;
  dm_spec spec;
  g_autofree char *state = NULL;

  dm_ui_test_reset_settings (settings);
  g_settings_set_string (settings, "profile", "peak");
  dm_ui_test_spin ();
  selector = modes_selector ();
  items = dm_choice_get_model (selector);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  g_assert_cmpstr (dm_ui_test_selected_label (selector), ==, "All");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (selector)));
  {
    g_autofree char *all = exported_modes ();
    g_assert_cmpstr (all, ==, "read,read,write,write");
  }

  /* Read only from the selector: the setting keeps it. */
  dm_choice_set_selected (selector, 1);
  dm_ui_test_spin ();
  {
    g_autofree char *kept = g_settings_get_string (settings, "modes");
    g_assert_cmpstr (kept, ==, "read");
  }
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 2);
  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  g_assert_nonnull (dm_report_find (report, &spec, DM_MODE_READ));
  g_assert_null (dm_report_find (report, &spec, DM_MODE_WRITE));
  for (guint r = 0; r < _dm_window_get_n_rows (window); r++)
    {
      DmTile *read = DM_TILE (_dm_window_get_tile (window, r, 0));
      DmTile *write = DM_TILE (_dm_window_get_tile (window, r, 1));

      g_assert_cmpstr (dm_tile_get_digits (read), ==, "0.00");
      /* Empty, not a zero: nothing for a screenshot to pass off as a figure. */
      g_assert_cmpstr (dm_tile_get_digits (write), ==, "");
      g_assert_cmpfloat (dm_tile_get_fraction (write), ==, 0);
    }
  dm_ui_test_assert_label (_dm_window_get_tile (window, 0, 1), "SEQ1M / Q8T1 Write: not run");
  {
    g_autofree char *read = exported_modes ();
    g_assert_cmpstr (read, ==, "read,read");
  }

  /* The action is stateful, its state the setting. */
  {
    GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (window);
    const GVariantType *type;
    const char *name, *property = NULL;
    gboolean found = FALSE;
    GType owner;

    for (guint k = 0; !found && gtk_widget_class_query_action (klass, k, &owner, &name, &type,
                                                               &property); k++)
      found = owner == DM_TYPE_WINDOW && !strcmp (name, "win.modes");
    g_assert_true (found);
    g_assert_cmpstr (property, ==, "modes");
  }
  g_action_group_activate_action (G_ACTION_GROUP (app), "modes", g_variant_new_string ("write"));
  dm_ui_test_spin ();
  g_object_get (window, "modes", &state, NULL);
  g_assert_cmpstr (state, ==, "write");
  g_assert_cmpstr (dm_ui_test_selected_label (selector), ==, "Write only");
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 0))), ==, "");
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 1))), ==, "0.00");
  {
    g_autofree char *write = exported_modes ();
    g_assert_cmpstr (write, ==, "write,write");
  }

  /* A list naming Mix shows the Mix column, as diskmeter-cli runs it. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "modes", g_variant_new_string ("mix,read"));
  dm_ui_test_spin ();
  g_assert_true (g_settings_get_boolean (settings, "mix"));
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 3);
  g_assert_cmpstr (dm_ui_test_selected_label (selector), ==, "Read + Mix");
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 1))), ==, "");
  {
    g_autofree char *kept = g_settings_get_string (settings, "modes");
    g_autofree char *mix = exported_modes ();
    g_assert_cmpstr (kept, ==, "read,mix");
    g_assert_cmpstr (mix, ==, "read,read,mix,mix");
  }

  /* Nonsense is refused with a sentence and changes nothing. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "modes", g_variant_new_string ("sideways"));
  dm_ui_test_spin ();
  {
    g_autofree char *kept = g_settings_get_string (settings, "modes");
    g_assert_cmpstr (kept, ==, "read,mix");
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (window->error_label)), "sideways"));
  }

  /* All again: every column, every export. */
  dm_choice_set_selected (selector, 0);
  dm_ui_test_spin ();
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  {
    g_autofree char *all = exported_modes ();
    g_assert_cmpstr (all, ==, "read,read,write,write,mix,mix");
  }
  dm_ui_test_reset_settings (settings);
}

/* A disk is only read: whatever the setting, the grid's report has no
 * Write figure, the selector shows Read only and cannot be changed, and
 * the window says why. (The path alone tells until a probe has; the real
 * device is read in gui-e2e.) */
static void
test_modes_device (void)
{
  DmChoice *selector = modes_selector ();
  const char *why;
  g_autofree char *modes = NULL;

  dm_ui_test_reset_settings (settings);
  g_settings_set_string (settings, "target", "/dev/diskmeter-no-such-disk");
  dm_ui_test_spin ();
  g_assert_cmpstr (dm_ui_test_selected_label (selector), ==, "Read only");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (selector)));
  why = gtk_widget_get_tooltip_text (GTK_WIDGET (selector));
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "only read"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (window->status_label)), ==, why);
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 1))), ==, "");
  modes = exported_modes ();
  g_assert_cmpstr (modes, ==, "read,read,read,read");
  {
    g_autofree char *kept = g_settings_get_string (settings, "modes");
    g_assert_cmpstr (kept, ==, "all");
  }

  /* Back on a folder, the setting applies again. */
  g_settings_reset (settings, "target");
  dm_ui_test_spin ();
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (selector)));
  g_assert_cmpstr (dm_ui_test_selected_label (selector), ==, "All");
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 1))), ==, "0.00");
  dm_ui_test_reset_settings (settings);
}

/* After a run that reached only some rows (one row's button, a stop, a
 * saved run of other tests) the others are empty tiles, not 0.00, and no
 * export lists them; before any run every tile reads 0.00 as in
 * CrystalDiskMark. */
static void
test_rows_not_run (void)
{
  dm_report *report;
  dm_spec spec;
  g_autofree char *modes = NULL;
  dm_buf text;

  g_settings_set_string (settings, "profile", "peak");
  dm_ui_test_spin ();
  dm_ui_test_reset_settings (settings);
  g_assert_cmpuint (_dm_window_get_n_rows (window), ==, 4);
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 3, 1))), ==, "0.00");

  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  for (dm_mode m = DM_MODE_READ; m <= DM_MODE_WRITE; m++)
    {
      dm_result *res = dm_report_find (report, &spec, m);

      res->status = DM_STATUS_COMPLETE;
      res->n_runs = 1;
      res->mb_per_s = 500;
      res->iops = 500e6 / 1048576;
    }
  report->status = DM_STATUS_COMPLETE;
  report->finished = g_get_real_time () / G_USEC_PER_SEC;
  _dm_window_refresh (window);

  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 0, 0))), ==, "500.00");
  for (guint r = 1; r < 4; r++)
    for (guint c = 0; c < 2; c++)
      {
        DmTile *tile = DM_TILE (_dm_window_get_tile (window, r, c));

        g_assert_cmpint (dm_tile_get_state (tile), ==, DM_TILE_NOT_RUN);
        g_assert_cmpstr (dm_tile_get_digits (tile), ==, "");
      }
  modes = exported_modes ();
  g_assert_cmpstr (modes, ==, "read,write");

  /* Copy as text: the CLI's layout of just the test that ran. */
  {
    g_autofree char *copied = dm_ui_test_copy_as_text (app, window);

    dm_buf_init (&text);
    dm_report_write_text (report, &text);
    g_assert_nonnull (strstr (copied, "SEQ"));
    g_assert_null (strstr (copied, "RND"));
    g_assert_nonnull (strstr (text.data, "RND"));
    dm_buf_free (&text);
  }

  /* The history keeps the same: the test that ran, not the rows left out. */
  {
    dm_history_entry *entries = NULL;
    const dm_history_entry *mine = NULL;
    unsigned n = 0;
    dm_report saved;
    char why[200];

    report->started = 1234567890; /* a time no other run of the tests has */
    _dm_window_history_save (window, report);
    g_assert_cmpint (dm_history_list (&entries, &n), ==, 0);
    for (unsigned i = 0; i < n; i++)
      if (entries[i].ok && entries[i].started == report->started)
        mine = &entries[i];
    g_assert_nonnull (mine);
    memset (&saved, 0, sizeof saved);
    g_assert_cmpint (dm_history_load (mine->path, &saved, why, sizeof why), ==, 0);
    g_assert_cmpuint (saved.n_results, ==, 2);
    for (unsigned i = 0; i < saved.n_results; i++)
      {
        g_assert_true (dm_spec_equal (&saved.results[i].spec, &spec));
        g_assert_cmpint (saved.results[i].status, ==, DM_STATUS_COMPLETE);
      }
    dm_report_clear (&saved);
    g_assert_cmpint (g_remove (mine->path), ==, 0);
    dm_history_free (entries);
  }

  g_settings_set_string (settings, "profile", "peak");
  dm_ui_test_spin ();
  dm_ui_test_reset_settings (settings);
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (_dm_window_get_tile (window, 3, 1))), ==, "0.00");
}

/* A fixture of tests/pixels, the saved runs the pictures are made of. */
static char *
pixels_fixture (const char *name)
{
  const char *root = g_getenv ("DM_SOURCE_ROOT");

  if (!root)
    g_error ("DM_SOURCE_ROOT is not set (run through meson test)");
  return g_build_filename (root, "tests", "pixels", name, NULL);
}

/* Ticking Mix over an opened run keeps every figure: the tiles' spoken
 * labels, the footer's date and the JSON a save writes; the Mix column
 * beside them is empty ("not run"). Unticked and ticked again, a run's
 * own Mix figures come back. */
static void
test_mix_keeps_opened (void)
{
  g_autofree char *run = pixels_fixture ("run.json");
  g_autofree char *mix = pixels_fixture ("mix.json");
  g_autofree char *dir = g_dir_make_tmp ("diskmeter-ui-mix-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "saved.json", NULL);
  g_autofree char *footer = NULL;
  g_autofree char *mix_label = NULL;
  g_autoptr (GError) error = NULL;
  dm_report saved;
  char why[200];
  dm_spec spec;

  g_assert_true (dm_window_open_saved (window, run, &error));
  g_assert_no_error (error);
  dm_ui_test_spin ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 2);
  dm_ui_test_assert_label (_dm_window_get_tile (window, 0, 0), "SEQ1M Q8T1 Read: 6262.54 MB/s");
  footer = g_strdup (gtk_label_get_text (GTK_LABEL (window->footer_label)));

  g_settings_set_boolean (settings, "mix", TRUE);
  dm_ui_test_spin ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 3);
  dm_ui_test_assert_label (_dm_window_get_tile (window, 0, 0), "SEQ1M Q8T1 Read: 6262.54 MB/s");
  dm_ui_test_assert_label (_dm_window_get_tile (window, 3, 1), "RND4K Q1T1 Write: 271.92 MB/s");
  for (guint r = 0; r < 4; r++)
    {
      GtkWidget *tile = _dm_window_get_tile (window, r, 2);

      g_assert_cmpint (dm_tile_get_state (DM_TILE (tile)), ==, DM_TILE_NOT_RUN);
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), "Mix: not run"));
    }
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (window->footer_label)), ==, footer);
  g_assert_true (_dm_window_export_to (window, DM_EXPORT_JSON, json, &error));
  g_assert_no_error (error);
  memset (&saved, 0, sizeof saved);
  g_assert_cmpint (dm_history_load (json, &saved, why, sizeof why), ==, 0);
  g_assert_cmpuint (saved.n_results, ==, 8);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  g_assert_cmpfloat_with_epsilon (dm_report_find (&saved, &spec, DM_MODE_READ)->mb_per_s,
                                  6262.538, 1e-6);
  g_assert_cmpfloat_with_epsilon (dm_report_find (&saved, &spec, DM_MODE_WRITE)->mb_per_s,
                                  2449.18, 1e-6);
  dm_report_clear (&saved);
  g_assert_cmpint (g_remove (json), ==, 0);

  /* A run with Mix: its Mix figures leave with the column and come back. */
  g_assert_true (dm_window_open_saved (window, mix, &error));
  g_assert_no_error (error);
  dm_ui_test_spin ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 3);
  g_assert_cmpint (dm_tile_get_state (DM_TILE (_dm_window_get_tile (window, 0, 2))), ==,
                   DM_TILE_DONE);
  mix_label = g_strdup (gtk_widget_get_tooltip_text (_dm_window_get_tile (window, 0, 2)));
  g_settings_set_boolean (settings, "mix", FALSE);
  dm_ui_test_spin ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 2);
  {
    /* Off the screen, out of the exports. */
    g_autofree char *modes = exported_modes ();
    g_assert_null (strstr (modes, "mix"));
    g_assert_nonnull (strstr (modes, "write"));
  }
  g_settings_set_boolean (settings, "mix", TRUE);
  dm_ui_test_spin ();
  g_assert_cmpuint (_dm_window_get_n_columns (window), ==, 3);
  dm_ui_test_assert_label (_dm_window_get_tile (window, 0, 2), mix_label);

  g_rmdir (dir);
  g_settings_reset (settings, "custom-tests");
  dm_ui_test_reset_settings (settings);
}

/* The tiles keep their width whatever the unit, and the window its size:
 * a figure of nine digits in µs and one of four in MB/s ask for the same
 * room, so the grid's smallest width stays. IOPS are whole I/Os. */
static void
test_tile_width_units (void)
{
  static const char *const units[] = { "MB/s", "GB/s", "IOPS", "us" };
  dm_report *report;
  dm_result *res;
  dm_spec spec;
  int tile_w = -1, grid_w = -1, window_w = -1;

  g_settings_set_string (settings, "profile", "default");
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("RND4K_Q32T1", &spec, NULL, 0), ==, 0);
  res = dm_report_find (report, &spec, DM_MODE_READ);
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 1;
  res->mb_per_s = 298.56;
  res->iops = 72890.004;
  res->latency_us = 987654.32;
  _dm_window_refresh (window);
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      GtkWidget *tile = _dm_window_get_tile (window, 2, 0);
      int tile_min, grid_min, nat;

      g_settings_set_string (settings, "units", units[i]);
      dm_ui_test_spin ();
      /* The smallest the tile and the window can be: what the window
       * grows to, or what a narrow window holds. */
      gtk_widget_measure (tile, GTK_ORIENTATION_HORIZONTAL, -1, &tile_min, &nat, NULL, NULL);
      gtk_widget_measure (window->grid, GTK_ORIENTATION_HORIZONTAL, -1, &grid_min, &nat, NULL,
                          NULL);
      g_test_message ("%s: \"%s\", tile at least %d px, grid at least %d px, window %d px",
                      units[i], dm_tile_get_digits (DM_TILE (tile)), tile_min, grid_min,
                      gtk_widget_get_width (GTK_WIDGET (window)));
      if (tile_w < 0)
        {
          tile_w = tile_min;
          grid_w = grid_min;
          window_w = gtk_widget_get_width (GTK_WIDGET (window));
        }
      g_assert_cmpint (tile_min, ==, tile_w);
      g_assert_cmpint (grid_min, ==, grid_w);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, window_w);
      if (!strcmp (units[i], "IOPS"))
        {
          g_assert_cmpstr (dm_tile_get_digits (DM_TILE (tile)), ==, "72890");
          dm_ui_test_assert_label (tile, "RND4K Q32T1 Read: 72890 IOPS");
        }
    }
  dm_ui_test_reset_settings (settings);
}

/* The largest alpha the tile's own drawing puts down: its digits in full
 * (255) for a figure, in grey for none. */
static guint
tile_ink (GtkWidget *tile)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderer *renderer = gsk_cairo_renderer_new ();
  int w = gtk_widget_get_width (tile), h = gtk_widget_get_height (tile);
  g_autofree guchar *data = g_malloc ((gsize) w * h * 4);
  g_autoptr (GError) error = NULL;
  GskRenderNode *node;
  GdkTexture *texture;
  guint ink = 0;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  /* A grid just built is laid out on the next frame. */
  while ((w <= 0 || h <= 0) && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      w = gtk_widget_get_width (tile);
      h = gtk_widget_get_height (tile);
    }
  g_assert_cmpint (w, >, 0);
  g_free (data);
  data = g_malloc ((gsize) w * h * 4);
  GTK_WIDGET_GET_CLASS (tile)->snapshot (tile, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_download (texture, data, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    ink = MAX (ink, data[i * 4 + 3]);
  g_object_unref (texture);
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);
  g_object_unref (renderer);
  return ink;
}

/* One look for "no figure yet": before a run and while a test runs before
 * its first sample, the same grey 0.00; a figure is drawn in full. */
static void
test_no_figure_look (void)
{
  dm_report *report;
  dm_result *res;
  dm_spec spec;
  GtkWidget *idle, *running;
  guint idle_ink, running_ink, done_ink;

  g_settings_set_string (settings, "profile", "default");
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  idle = _dm_window_get_tile (window, 0, 1);
  running = _dm_window_get_tile (window, 0, 0);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  res = dm_report_find (report, &spec, DM_MODE_READ);
  res->status = DM_STATUS_RUNNING;
  _dm_window_grid_show (window, 0, 0, res, TRUE);
  dm_ui_test_spin ();
  g_assert_cmpint (dm_tile_get_state (DM_TILE (running)), ==, DM_TILE_RUNNING);
  g_assert_false (dm_tile_get_has_figure (DM_TILE (running)));
  g_assert_false (dm_tile_get_has_figure (DM_TILE (idle)));
  g_assert_cmpstr (dm_tile_get_digits (DM_TILE (running)), ==, dm_tile_get_digits (DM_TILE (idle)));
  idle_ink = tile_ink (idle);
  running_ink = tile_ink (running);

  res->mb_per_s = 1234.5;
  res->iops = 1177;
  res->latency_us = 6795;
  _dm_window_grid_show (window, 0, 0, res, TRUE);
  dm_ui_test_spin ();
  g_assert_true (dm_tile_get_has_figure (DM_TILE (running)));
  done_ink = tile_ink (running);
  g_test_message ("ink: no figure %u before a run, %u running, %u with a figure", idle_ink,
                  running_ink, done_ink);
  g_assert_cmpuint (running_ink, ==, idle_ink);
  g_assert_cmpuint (idle_ink, <, 128);
  g_assert_cmpuint (done_ink, ==, 255);
  dm_result_reset (res);
  dm_ui_test_reset_settings (settings);
}

/* A failed tile says why in the user's language, as diskmeter-cli does:
 * the report keeps the engine's English, the tooltip and spoken label
 * give the catalogue's sentence with the names put back. */
static void
test_tile_reason_translated (void)
{
  const char *root = g_getenv ("DM_BUILD_ROOT");
  g_autofree char *po = g_build_filename (root ? root : ".", "po", NULL);
  g_autofree char *mo = g_build_filename (po, "de", "LC_MESSAGES", "diskmeter.mo", NULL);
  g_autofree char *old_language = g_strdup (g_getenv ("LANGUAGE"));
  g_autofree char *old_locale = g_strdup (setlocale (LC_MESSAGES, NULL));
  dm_report *report;
  dm_result *res;
  dm_spec spec;
  GtkWidget *tile;

  if (!g_file_test (mo, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("built without translations: no German catalogue");
      return;
    }
  bindtextdomain ("diskmeter", po);
  bind_textdomain_codeset ("diskmeter", "UTF-8");
  /* gettext reads LANGUAGE in any locale but C. */
  setlocale (LC_MESSAGES, "C.UTF-8");
  g_setenv ("LANGUAGE", "de", TRUE);

  g_settings_set_string (settings, "profile", "default");
  dm_ui_test_spin ();
  report = _dm_window_get_report (window);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  res = dm_report_find (report, &spec, DM_MODE_WRITE);
  res->status = DM_STATUS_FAILED;
  g_strlcpy (res->error, "no permission to create a file in /mnt/x", sizeof res->error);
  _dm_window_refresh (window);
  tile = _dm_window_get_tile (window, 0, 1);
  g_test_message ("failed tile: %s", gtk_widget_get_tooltip_text (tile));
  g_assert_cmpint (dm_tile_get_state (DM_TILE (tile)), ==, DM_TILE_FAILED);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), "/mnt/x"));
  g_assert_null (strstr (gtk_widget_get_tooltip_text (tile), "no permission"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), "fehlgeschlagen"));
  /* The report keeps the engine's English. */
  g_assert_cmpstr (res->error, ==, "no permission to create a file in /mnt/x");

  if (old_language)
    g_setenv ("LANGUAGE", old_language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_MESSAGES, old_locale);
  dm_result_reset (res);
  dm_ui_test_reset_settings (settings);
}
int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* GTK's in-process accessibility backend: the tiles' labels can be read
   * back without an accessibility bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  window = dm_ui_test_open_window (NULL, &app, &settings);

  g_test_add_func ("/ui/window/grid-per-profile", test_grid_per_profile);
  g_test_add_func ("/ui/window/tile-units", test_tile_units);
  g_test_add_func ("/ui/window/tile-flagged", test_tile_flagged);
  g_test_add_func ("/ui/window/modes", test_modes);
  g_test_add_func ("/ui/window/modes-device", test_modes_device);
  g_test_add_func ("/ui/window/rows-not-run", test_rows_not_run);
  g_test_add_func ("/ui/window/mix-keeps-opened", test_mix_keeps_opened);
  g_test_add_func ("/ui/window/tile-width-units", test_tile_width_units);
  g_test_add_func ("/ui/window/no-figure-look", test_no_figure_look);
  g_test_add_func ("/ui/window/tile-reason-translated", test_tile_reason_translated);
  return g_test_run ();
}
