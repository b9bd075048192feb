/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Study window's table without a display: a sheet written out by
 * hand (its rows, figures and colours known) put through the model the
 * window shows, sorted by each kind of column and filtered to the
 * all-green rows. The expected orders are worked out here from the
 * figures, not taken from the code.
 */
#include <locale.h>
#include <string.h>

#include <gtk/gtk.h>

#include "dm-study-model.h"

static dm_study_row rows[4];

static void
make_sheet (dm_study_sheet *sh)
{
  /* nr, target, controller, Q, read MB/s, colour, write us, colour, all green */
  static const struct {
    unsigned nr; const char *target, *controller; unsigned q;
    double mbps; dm_colour c0; double us; dm_colour c1; bool green;
  } r[4] = {
    { 1, "pvscsi E:", "pvscsi", 1, 812.5, DM_COLOUR_GREEN, 95.25, DM_COLOUR_GREEN, true },
    { 2, "LSI C:", "lsi", 1, 1500.125, DM_COLOUR_GREEN, -1, DM_COLOUR_NONE, true },
    { 3, "pvscsi E:", "pvscsi", 32, 90.0, DM_COLOUR_RED, 40.0, DM_COLOUR_GREEN, false },
    { 4, "LSI C:", "lsi", 32, 1500.125, DM_COLOUR_GREEN, 1200.0, DM_COLOUR_RED, false },
  };

  memset (sh, 0, sizeof *sh);
  strcpy (sh->name, "controllers");
  strcpy (sh->tag_keys[0], "hypervisor");   /* alike in every row */
  strcpy (sh->tag_keys[1], "controller");
  sh->n_tag_keys = 2;
  sh->columns[0] = (dm_study_column) { .kind = DM_STUDY_COL_FIGURE, .mode = DM_MODE_READ,
                                       .unit = DM_UNIT_MBPS, .title = "Read SEQ1M MB/s" };
  sh->columns[1] = (dm_study_column) { .kind = DM_STUDY_COL_FIGURE, .mode = DM_MODE_WRITE,
                                       .unit = DM_UNIT_US, .title = "Write RND4K us" };
  sh->n_columns = 2;
  for (unsigned i = 0; i < 4; i++)
    {
      memset (&rows[i], 0, sizeof rows[i]);
      rows[i].nr = r[i].nr;
      strcpy (rows[i].target, r[i].target);
      strcpy (rows[i].tag_values[0], "vmware");
      strcpy (rows[i].tag_values[1], r[i].controller);
      rows[i].qd = r[i].q;
      rows[i].threads = 1;
      rows[i].values[0] = r[i].mbps;
      rows[i].colours[0] = r[i].c0;
      rows[i].values[1] = r[i].us;
      rows[i].colours[1] = r[i].c1;
      rows[i].all_green = r[i].green;
    }
  sh->rows = rows;
  sh->n_rows = 4;
}

/* The rows' Nr in the model's order, "1 3 2 4". */
static char *
order_of (GListModel *model)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DmStudyItem) item = g_list_model_get_item (model, i);
      g_string_append_printf (s, "%s%u", i ? " " : "", dm_study_item_row (item)->nr);
    }
  return g_string_free (s, FALSE);
}

static void
test_columns (void)
{
  dm_study_sheet sh;
  const char *want[] = { "Nr", "Target", "controller", "Q", "T", "Read SEQ1M MB/s",
                         "Write RND4K us" };

  make_sheet (&sh);
  /* hypervisor is vmware everywhere: it tells no row apart. */
  g_assert_cmpuint (dm_study_model_n_columns (&sh), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autofree char *title = dm_study_model_title (&sh, i);
      g_assert_cmpstr (title, ==, want[i]);
    }
}

static void
test_cells (void)
{
  dm_study_sheet sh;
  DmStudyKey key;
  guint index;
  dm_colour c;

  make_sheet (&sh);
  dm_study_model_column (&sh, 2, &key, &index);
  g_assert_cmpint (key, ==, DM_STUDY_KEY_TAG);
  g_assert_cmpuint (index, ==, 1);
  {
    g_autofree char *t = dm_study_model_cell (&sh, &rows[0], key, index, &c);
    g_assert_cmpstr (t, ==, "pvscsi");
    g_assert_cmpint (c, ==, DM_COLOUR_NONE);
  }
  dm_study_model_column (&sh, 5, &key, &index);
  g_assert_cmpint (key, ==, DM_STUDY_KEY_VALUE);
  g_assert_cmpuint (index, ==, 0);
  {
    /* MB/s with two decimals, as the sheet's CSV: 1500.125 -> 1500.12 or
     * .13 by the C library's rounding of the binary value; 90 -> 90.00. */
    g_autofree char *a = dm_study_model_cell (&sh, &rows[2], key, index, &c);
    g_assert_cmpstr (a, ==, "90.00");
    g_assert_cmpint (c, ==, DM_COLOUR_RED);
  }
  dm_study_model_column (&sh, 6, &key, &index);
  {
    g_autofree char *a = dm_study_model_cell (&sh, &rows[0], key, index, &c);
    g_autofree char *b = dm_study_model_cell (&sh, &rows[1], key, index, &c);
    g_assert_cmpstr (a, ==, "95.2");   /* 95.25 is 95.2499... in binary */
    g_assert_cmpstr (b, ==, "");       /* not measured */
    g_assert_cmpint (c, ==, DM_COLOUR_NONE);
  }
}

static void
check_sort (DmStudyKey key, guint index, const char *want)
{
  dm_study_sheet sh;
  GListStore *store = g_list_store_new (DM_TYPE_STUDY_ITEM);
  GtkSortListModel *sorted;
  g_autofree char *got = NULL;

  make_sheet (&sh);
  dm_study_model_fill (store, &sh);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (store), dm_study_model_sorter (key, index));
  got = order_of (G_LIST_MODEL (sorted));
  g_test_message ("key %d/%u: %s", key, index, got);
  g_assert_cmpstr (got, ==, want);
  g_object_unref (sorted);
}

static void
test_sort (void)
{
  check_sort (DM_STUDY_KEY_NR, 0, "1 2 3 4");
  /* "LSI C:" before "pvscsi E:"; ties by Nr. */
  check_sort (DM_STUDY_KEY_TARGET, 0, "2 4 1 3");
  check_sort (DM_STUDY_KEY_TAG, 1, "2 4 1 3");
  /* Q: 1, 1, 32, 32, ties by Nr. */
  check_sort (DM_STUDY_KEY_Q, 0, "1 2 3 4");
  /* 90 < 812.5 < 1500.125 = 1500.125 (by Nr). */
  check_sort (DM_STUDY_KEY_VALUE, 0, "3 1 2 4");
  /* 40 < 95.25 < 1200, the row not measured last. */
  check_sort (DM_STUDY_KEY_VALUE, 1, "3 1 4 2");
}

static void
test_green_filter (void)
{
  dm_study_sheet sh;
  GListStore *store = g_list_store_new (DM_TYPE_STUDY_ITEM);
  GtkFilterListModel *filtered;
  g_autofree char *got = NULL;

  make_sheet (&sh);
  dm_study_model_fill (store, &sh);
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (store), dm_study_model_green_filter ());
  got = order_of (G_LIST_MODEL (filtered));
  g_assert_cmpstr (got, ==, "1 2");
  /* Filled again (the next scenario saved): the filter holds. */
  rows[3].all_green = true;
  sh.rows[3].all_green = true;
  dm_study_model_fill (store, &sh);
  g_free (got);
  got = order_of (G_LIST_MODEL (filtered));
  g_assert_cmpstr (got, ==, "1 2 4");
  g_object_unref (filtered);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/study/columns", test_columns);
  g_test_add_func ("/ui/study/cells", test_cells);
  g_test_add_func ("/ui/study/sort", test_sort);
  g_test_add_func ("/ui/study/green-filter", test_green_filter);
  return g_test_run ();
}
