/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The comparison as the window draws it, on a display (tests/gui-run.sh
 * starts Xvfb): two saved runs, A on a disk and B on a RAM disk, made with
 * another test size and count. B's legend line names B's own filesystem,
 * the settings that differ stand above the table in the words
 * diskmeter-cli prints, and a difference resting on one run is grey, not
 * red, and says so to a screen reader.
 */
#include <locale.h>
#include <string.h>

#include <gtk/gtk.h>

#include "dm-comparison.h"
#include "dm-compare-view.h"
#include "dm-ui.h"

static void
make_report (dm_report  *r,
             const char *path,
             const char *filesystem,
             const char *device,
             const char *model,
             unsigned    count,
             uint64_t    test_size,
             double      mb_per_s)
{
  dm_settings s;
  dm_spec spec;

  dm_settings_init (&s);
  s.count = count;
  s.test_size = test_size;
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  g_assert_cmpint (dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  r->status = DM_STATUS_COMPLETE;
  r->started = 1764640000;
  g_strlcpy (r->profile, "default", sizeof r->profile);
  g_strlcpy (r->target.path, path, sizeof r->target.path);
  g_strlcpy (r->target.filesystem, filesystem, sizeof r->target.filesystem);
  g_strlcpy (r->target.device, device, sizeof r->target.device);
  g_strlcpy (r->target.model, model, sizeof r->target.model);
  r->results[0].status = DM_STATUS_COMPLETE;
  r->results[0].n_runs = count;
  for (unsigned i = 0; i < count; i++)
    {
      r->results[0].runs[i].mb_per_s = mb_per_s;
      r->results[0].runs[i].iops = mb_per_s * 1000;
      r->results[0].runs[i].latency_us = 1000 / mb_per_s;
    }
  r->results[0].mb_per_s = mb_per_s;
  r->results[0].iops = mb_per_s * 1000;
  r->results[0].latency_us = 1000 / mb_per_s;
}

/* Every widget under root with a CSS class, in the order drawn. */
static void
collect (GtkWidget  *root,
         const char *css_class,
         GPtrArray  *found)
{
  if (gtk_widget_has_css_class (root, css_class))
    g_ptr_array_add (found, root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    collect (c, css_class, found);
}

static GtkWidget *
only (GtkWidget  *root,
      const char *css_class)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();

  collect (root, css_class, found);
  g_assert_cmpuint (found->len, ==, 1);
  return g_ptr_array_index (found, 0);
}

static void
spin (void)
{
  for (int i = 0; i < 50 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

/* count_a and count_b runs, B 3.2 % slower than A. */
static DmComparison *
show_tagged (unsigned    count_a,
             unsigned    count_b,
             const char *tags_a,
             const char *tags_b,
             GtkWindow **window);

static DmComparison *
show_pair (unsigned count_a,
           unsigned count_b,
           GtkWindow **window)
{
  return show_tagged (count_a, count_b, "", "", window);
}

static DmComparison *
show_tagged (unsigned    count_a,
             unsigned    count_b,
             const char *tags_a,
             const char *tags_b,
             GtkWindow **window)
{
  DmComparison *comparison = dm_comparison_new ();
  dm_report *reports = g_new0 (dm_report, 2);
  char **names = g_new0 (char *, 3);
  g_autoptr (GError) error = NULL;

  make_report (&reports[0], "/mnt/a", "ext4", "/dev/sdb1", "Samsung SSD 980", count_a,
               1ull << 30, 100.0);
  make_report (&reports[1], "/mnt/b", "tmpfs", "tmpfs", "", count_b, 64ull << 20, 96.8);
  for (unsigned i = 0; i < 2; i++)
    {
      dm_tag t[DM_TAGS_MAX];
      unsigned n;

      g_assert_cmpint (dm_tags_parse_list (i ? tags_b : tags_a, t, &n, DM_TAGS_MAX, NULL, 0), ==,
                       0);
      dm_report_set_tags (&reports[i], t, n);
    }
  names[0] = g_strdup ("before.json");
  names[1] = g_strdup ("after.json");
  g_assert_true (dm_comparison_show_saved (comparison, reports, names, 2, &error));
  *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_child (*window, dm_comparison_get_view (comparison));
  gtk_window_present (*window);
  spin ();
  return comparison;
}

/* The cell of B's figure (the grid's second compare-cell). */
static GtkWidget *
cell_b (GtkWidget *view)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new ();

  collect (view, "compare-cell", cells);
  g_assert_cmpuint (cells->len, ==, 2);
  return g_ptr_array_index (cells, 1);
}

static void
test_one_run (void)
{
  GtkWindow *window, *window_2;
  g_autoptr (DmComparison) comparison = show_pair (1, 1, &window);
  g_autoptr (DmComparison) comparison_2 = NULL;
  GtkWidget *cell = cell_b (dm_comparison_get_view (comparison));
  g_autofree char *wrong = NULL;

  /* Grey, not red: with one run there is no spread to call it worse by. */
  g_assert_true (gtk_widget_has_css_class (cell, "same"));
  g_assert_false (gtk_widget_has_css_class (cell, "worse"));
  wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (cell),
                                              GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              "B, SEQ1M / Q8T1 Read: 96.80 MB/s, -3.2% against A, "
                                              "no spread: one run");
  if (wrong)
    g_error ("B's cell is spoken as \"%s\"", wrong);
  gtk_window_destroy (window);

  /* Two runs each that agree: a spread to judge by, and the 3.2 % is worse. */
  comparison_2 = show_pair (2, 2, &window_2);
  cell = cell_b (dm_comparison_get_view (comparison_2));
  g_assert_true (gtk_widget_has_css_class (cell, "worse"));
  g_clear_pointer (&wrong, g_free);
  wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (cell),
                                              GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              "B, SEQ1M / Q8T1 Read: 96.80 MB/s, -3.2% against A, "
                                              "worse");
  if (wrong)
    g_error ("B's cell is spoken as \"%s\"", wrong);
  gtk_window_destroy (window_2);
}

static void
test_legend_and_settings (void)
{
  GtkWindow *window;
  g_autoptr (DmComparison) comparison = show_pair (5, 1, &window);
  GtkWidget *view = dm_comparison_get_view (comparison);
  GtkWidget *settings = only (view, "compare-settings");
  GtkWidget *legend = only (view, "compare-legend");
  g_auto (GStrv) lines = g_strsplit (gtk_label_get_text (GTK_LABEL (legend)), "\n", -1);
  g_autofree char *want_a = NULL, *want_b = NULL;
  char date[64];

  /* Above the table, as diskmeter-cli compare says it. */
  g_assert_true (gtk_widget_get_visible (settings));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (settings)), ==,
                   "Different settings: test size 1 GiB vs 64 MiB; count 5 vs 1; "
                   "filesystem ext4 vs tmpfs");
  /* Each run's own target: a RAM disk reads as one, its name once. */
  dm_format_local_time (1764640000, date, sizeof date);
  want_a = g_strdup_printf ("A: /mnt/a · ext4 · /dev/sdb1 · Samsung SSD 980 · %s", date);
  want_b = g_strdup_printf ("B: /mnt/b · tmpfs · %s", date);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  g_assert_cmpstr (lines[0], ==, want_a);
  g_assert_cmpstr (lines[1], ==, want_b);
  gtk_window_destroy (window);
}

/* The tags that differ, on a line under the settings', as compare's
 * text has it. */
static void
test_tags (void)
{
  GtkWindow *window;
  g_autoptr (DmComparison) comparison = show_tagged (5, 1, "controller=pvscsi, site=lab",
                                                     "controller=nvme, site=lab", &window);
  GtkWidget *settings = only (dm_comparison_get_view (comparison), "compare-settings");

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (settings)), ==,
                   "Different settings: test size 1 GiB vs 64 MiB; count 5 vs 1; "
                   "filesystem ext4 vs tmpfs\nDifferent tags: controller pvscsi vs nvme");
  gtk_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* GTK's in-process accessibility backend: labels are read back without
   * an accessibility bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display (tests/gui-run.sh starts Xvfb)\n");
      return 77;
    }
  setlocale (LC_NUMERIC, "C");
  dm_ui_init ();
  g_test_add_func ("/ui/compare-view/one-run", test_one_run);
  g_test_add_func ("/ui/compare-view/legend-and-settings", test_legend_and_settings);
  g_test_add_func ("/ui/compare-view/tags", test_tags);
  return g_test_run ();
}
