/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's comparison of saved runs with workload rows (on a display,
 * tests/gui-run.sh starts Xvfb): runs of one profile side by side, their
 * rows named by workload with the shape as the tooltip says it; runs of
 * another profile (another shape under the same names, or CrystalDiskMark's
 * tests) refused with the reason, which the History window's error bar
 * shows, and nothing compared.
 */
#include <locale.h>
#include <string.h>

#include <gtk/gtk.h>

#include "dm-comparison.h"
#include "dm-compare-format.h"
#include "dm-ui.h"
#include "dm-test-workloads.h"

/* Two saved runs as the window hands them over: reports and names owned
 * by the comparison from then on. */
static gboolean
show_two (DmComparison *cmp,
          unsigned      qd_b,
          gboolean      plain_b,
          GError      **error)
{
  dm_report *reports = g_new0 (dm_report, 2);
  char **names = g_new0 (char *, 3);

  dm_tw_make (&reports[0], 4, 1, 1764640000);
  if (plain_b)
    {
      dm_settings s;
      dm_spec spec;

      dm_settings_init (&s);
      g_assert_cmpint (dm_spec_parse ("RND8K_Q4T1", &spec, NULL, 0), ==, 0);
      g_assert_cmpint (dm_report_init (&reports[1], &s, &spec, 1, DM_MODE_BIT (DM_MODE_MIX)), ==, 0);
    }
  else
    dm_tw_make (&reports[1], qd_b, 0.5, 1764640100);
  g_assert_false (dm_test_case_failed);
  names[0] = g_strdup ("a.json");
  names[1] = g_strdup ("b.json");
  return dm_comparison_show_saved (cmp, reports, names, 2, error);
}

static void
test_same_profile (void)
{
  g_autoptr (DmComparison) cmp = dm_comparison_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (show_two (cmp, 4, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (dm_comparison_get_shown (cmp));
  const dm_compare *c = dm_comparison_get_compare (cmp);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->n_rows, ==, 2);
  g_autofree char *title = dm_compare_row_title (&c->rows[0]);
  g_autofree char *shape = dm_compare_row_shape (&c->rows[0]);
  g_autofree char *spoken = dm_compare_cell_describe (c, 0, 1);
  g_assert_cmpstr (title, ==, "Mixed 8K 70/30");
  g_assert_nonnull (strstr (shape, "70% read"));
  /* B's figures are half of A's, as a screen reader says it. */
  g_assert_nonnull (strstr (spoken, "B, Mixed 8K 70/30: "));
  g_assert_nonnull (strstr (spoken, "-50.0%"));
}

static void
test_other_profile_refused (void)
{
  for (int plain = 0; plain < 2; plain++)
    {
      g_autoptr (DmComparison) cmp = dm_comparison_new ();
      g_autoptr (GError) error = NULL;

      g_assert_false (show_two (cmp, 8, plain, &error));
      g_assert_nonnull (error);
      g_test_message ("refused: %s", error->message);
      g_assert_nonnull (strstr (error->message, "b.json cannot be compared with a.json: "));
      g_assert_nonnull (strstr (error->message, plain ? "CrystalDiskMark's tests"
                                                      : "different profiles"));
      g_assert_false (dm_comparison_get_shown (cmp));
      g_assert_null (dm_comparison_get_compare (cmp));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display (tests/gui-run.sh starts Xvfb)\n");
      return 77;
    }
  setlocale (LC_NUMERIC, "C");
  dm_ui_init ();
  g_test_add_func ("/ui/comparison/workloads-same-profile", test_same_profile);
  g_test_add_func ("/ui/comparison/workloads-other-profile-refused", test_other_profile_refused);
  return g_test_run ();
}
