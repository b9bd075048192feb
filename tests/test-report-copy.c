/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A report's results in memory, of the hand-built run the formats are
 * tested on (tests/dm-test-report.h): each figure in every unit, results
 * in CrystalDiskMark's order and found again, a run copied into another
 * report as the window does with its grid (every figure and latency
 * arrives, and no pointer is shared), and the view of what a run reached.
 * The formats are tests/test-report.c's.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "dm-report.h"
#include "dm-test.h"
#include "dm-test-report.h"
#include "dm-units.h"

/* --- values -------------------------------------------------------------- */

static void
test_values (void)
{
  dm_report r;
  build_report (&r, "");
  const dm_result *res = &r.results[0];
  DM_CHECK (dm_result_value (res, DM_UNIT_MBPS) == 1234.567);
  DM_CHECK (fabs (dm_result_value (res, DM_UNIT_GBPS) - 1.234567) < 1e-12);
  DM_CHECK (dm_result_value (res, DM_UNIT_IOPS) == 1177.4);
  DM_CHECK (dm_result_value (res, DM_UNIT_US) == 6789.01);

  /* Results come in CrystalDiskMark's order and can be found again. */
  dm_spec s;
  dm_spec_parse ("RND4K_Q32T1", &s, NULL, 0);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_WRITE) == &r.results[6]);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_MIX) == &r.results[10]);
  dm_spec_parse ("RND4K_Q32T16", &s, NULL, 0);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_READ) == NULL);
  dm_report_clear (&r);

  /* No modes, no report. */
  dm_settings set;
  dm_settings_init (&set);
  DM_CHECK_INT (dm_report_init (&r, &set, &s, 1, 0), <, 0);
}

/* --- copies between reports ---------------------------------------------- */

static bool
points_into (const void *p, const void *base, size_t size)
{
  const char *c = p, *b = base;
  return p && base && c >= b && c < b + size;
}

/* No pointer in dst may lead into memory that src owns: the window copies a
 * finished run into its grid and then lets the run go. */
static void
check_owns_nothing_of (const dm_report *dst, const dm_report *src)
{
  size_t results_size = src->n_results * sizeof *src->results;
  size_t hist_size = 2 * src->n_results * sizeof *src->histograms;

  DM_CHECK (dst->results != src->results);
  DM_CHECK (dst->histograms != src->histograms);
  for (unsigned i = 0; i < dst->n_results; i++)
    {
      const dm_result *res = &dst->results[i];
      DM_CHECK (!points_into (res, src->results, results_size));
      DM_CHECK (!points_into (res->hist_read, src->histograms, hist_size));
      DM_CHECK (!points_into (res->hist_write, src->histograms, hist_size));
      DM_CHECK (res->hist_read == &dst->histograms[2 * i]);
      DM_CHECK (res->hist_write == &dst->histograms[2 * i + 1]);
    }
}

static void
test_copy (void)
{
  dm_report done, grid;
  build_report (&done, "the run's comment");
  build_report (&grid, "");
  for (unsigned i = 0; i < done.n_results; i++)
    {
      dm_histogram_add (done.results[i].hist_read, 1000 + i, 10);
      dm_histogram_add (done.results[i].hist_write, 50000 + i, 3);
    }
  done.status = DM_STATUS_COMPLETE;
  done.measured_bytes = 123456789;
  done.thresholds[0].green = 500;
  done.n_thresholds = 1;

  for (unsigned i = 0; i < done.n_results; i++)
    dm_result_copy (&grid.results[i], &done.results[i]);
  dm_report_copy_run (&grid, &done);
  check_owns_nothing_of (&grid, &done);
  DM_CHECK_INT (grid.n_results, ==, N_RESULTS);
  DM_CHECK_INT (grid.status, ==, DM_STATUS_COMPLETE);
  DM_CHECK_INT (grid.measured_bytes, ==, 123456789);
  DM_CHECK_INT (grid.n_thresholds, ==, 1);
  DM_CHECK_STR (grid.comment, "the run's comment");

  /* Once the run is gone, the grid still has every figure and latency. */
  dm_report_clear (&done);
  for (unsigned i = 0; i < grid.n_results; i++)
    {
      const dm_result *res = &grid.results[i];
      DM_CHECK (res->mb_per_s == figures[i].mb);
      DM_CHECK_INT (res->hist_read->count, ==, 10);
      DM_CHECK_INT (res->hist_read->min, ==, 1000 + i);
      DM_CHECK_INT (res->hist_write->count, ==, 3);
      DM_CHECK_INT (res->hist_write->max, ==, 50000 + i);
    }

  /* A result without histograms (a caller's own) empties the grid's
   * instead of leaving the last run's latency behind. */
  dm_result bare = grid.results[0];
  bare.hist_read = NULL;
  bare.hist_write = NULL;
  dm_result_copy (&grid.results[1], &bare);
  DM_CHECK (grid.results[1].hist_read == &grid.histograms[2]);
  DM_CHECK_INT (grid.results[1].hist_read->count, ==, 0);
  DM_CHECK_INT (grid.results[1].hist_write->count, ==, 0);
  DM_CHECK (grid.results[1].mb_per_s == figures[0].mb);

  /* And a result without histograms does not get another's. */
  dm_result_copy (&bare, &grid.results[2]);
  DM_CHECK (bare.hist_read == NULL && bare.hist_write == NULL);

  /* A reset row keeps which test it is and its storage, nothing else. */
  dm_result_reset (&grid.results[4]);
  DM_CHECK_INT (grid.results[4].mode, ==, DM_MODE_WRITE);
  DM_CHECK_INT (grid.results[4].read_percent, ==, 0);
  DM_CHECK_INT (grid.results[4].status, ==, DM_STATUS_PENDING);
  DM_CHECK_INT (grid.results[4].n_runs, ==, 0);
  DM_CHECK (grid.results[4].mb_per_s == 0);
  DM_CHECK (grid.results[4].hist_read == &grid.histograms[8]);
  DM_CHECK_INT (grid.results[4].hist_read->count, ==, 0);
  DM_CHECK_INT (grid.results[4].hist_write->count, ==, 0);
  DM_CHECK_INT (grid.results[5].hist_read->count, ==, 10);
  dm_report_clear (&grid);
}

/* The view of what a run reached leaves out the pending tests, keeps the
 * rest in order and shares their figures; with nothing run it keeps all. */
static void
test_view_ran (void)
{
  dm_report r, view;
  build_report (&r, "");
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].status = DM_STATUS_PENDING;
  DM_CHECK_INT (dm_report_view_ran (&r, &view), ==, 0);
  DM_CHECK_INT (view.n_results, ==, r.n_results);
  dm_report_view_free (&view);

  r.results[1].status = DM_STATUS_COMPLETE;
  r.results[4].status = DM_STATUS_FAILED;
  r.results[5].status = DM_STATUS_CANCELLED;
  DM_CHECK_INT (dm_report_view_ran (&r, &view), ==, 0);
  DM_CHECK_INT (view.n_results, ==, 3);
  DM_CHECK (view.results[0].mb_per_s == figures[1].mb);
  DM_CHECK_INT (view.results[1].status, ==, DM_STATUS_FAILED);
  DM_CHECK_INT (view.results[2].status, ==, DM_STATUS_CANCELLED);
  DM_CHECK (view.results[0].hist_read == r.results[1].hist_read);
  DM_CHECK (view.histograms == r.histograms);
  dm_report_view_free (&view);
  DM_CHECK (view.results == NULL && view.n_results == 0);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/report/values", test_values);
  DM_RUN ("/engine/report/copy", test_copy);
  DM_RUN ("/engine/report/view-ran", test_view_ran);
  return dm_test_done ();
}
