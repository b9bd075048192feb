/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verdict of a comparison, table by table: a difference is "same" while
 * it stays within twice the combined (root-sum-square) spread of the two
 * runs, and "better" or "worse" beyond it, where lower is better for
 * latency (µs) and higher for MB/s, GB/s and IOPS.
 */
#include <math.h>

#include "dm-compare.h"
#include "dm-test.h"

typedef struct {
  double     first, first_spread, value, spread;
  dm_unit    unit;
  dm_verdict want;
  const char *why;
} judge_case;

static const judge_case judge_cases[] = {
  /* No spread: any difference counts. */
  { 100, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_SAME, "equal figures" },
  { 100, 0, 101, 0, DM_UNIT_MBPS, DM_VERDICT_BETTER, "more MB/s" },
  { 100, 0, 99, 0, DM_UNIT_MBPS, DM_VERDICT_WORSE, "fewer MB/s" },
  { 2.0, 0, 2.1, 0, DM_UNIT_GBPS, DM_VERDICT_BETTER, "more GB/s" },
  { 2.0, 0, 1.9, 0, DM_UNIT_GBPS, DM_VERDICT_WORSE, "fewer GB/s" },
  { 5000, 0, 5100, 0, DM_UNIT_IOPS, DM_VERDICT_BETTER, "more IOPS" },
  { 5000, 0, 4900, 0, DM_UNIT_IOPS, DM_VERDICT_WORSE, "fewer IOPS" },
  /* Latency: lower is better. */
  { 100, 0, 101, 0, DM_UNIT_US, DM_VERDICT_WORSE, "more us" },
  { 100, 0, 99, 0, DM_UNIT_US, DM_VERDICT_BETTER, "fewer us" },
  { 100, 0, 100, 0, DM_UNIT_US, DM_VERDICT_SAME, "equal us" },
  /* Spreads 3 and 4 combine to 5; the band is twice that, 10. */
  { 100, 3, 106, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "over one combined spread, under two" },
  { 100, 3, 110, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "exactly twice the combined spread" },
  { 100, 3, 90, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "exactly twice, below" },
  { 100, 3, 110.5, 4, DM_UNIT_MBPS, DM_VERDICT_BETTER, "just past the band, above" },
  { 100, 3, 89.5, 4, DM_UNIT_MBPS, DM_VERDICT_WORSE, "just past the band, below" },
  /* Combined as root-sum-square, not added: 2 x (3 + 4) = 14 would call
   * a difference of 12 "same". */
  { 100, 3, 112, 4, DM_UNIT_MBPS, DM_VERDICT_BETTER, "spreads are not added" },
  { 100, 4, 88, 3, DM_UNIT_IOPS, DM_VERDICT_WORSE, "either side's spread, IOPS" },
  /* The band is symmetric in who has the spread. */
  { 100, 0, 109, 5, DM_UNIT_MBPS, DM_VERDICT_SAME, "only the second run spreads" },
  { 100, 5, 109, 0, DM_UNIT_MBPS, DM_VERDICT_SAME, "only the first run spreads" },
  /* Latency with spread: same band, opposite direction. */
  { 100, 3, 110, 4, DM_UNIT_US, DM_VERDICT_SAME, "us within the band" },
  { 100, 3, 110.5, 4, DM_UNIT_US, DM_VERDICT_WORSE, "us past the band, slower" },
  { 100, 3, 89.5, 4, DM_UNIT_US, DM_VERDICT_BETTER, "us past the band, faster" },
  /* Nothing to compare with. */
  { 0, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "first run has no figure" },
  { 100, 0, 0, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "second run has no figure" },
  { -1, 0, 100, 0, DM_UNIT_US, DM_VERDICT_NONE, "a negative figure" },
  { NAN, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "not a number" },
};

static void
test_judge_table (void)
{
  for (size_t i = 0; i < sizeof judge_cases / sizeof judge_cases[0]; i++)
    {
      const judge_case *t = &judge_cases[i];
      dm_verdict got = dm_compare_judge (t->first, t->first_spread, t->value, t->spread, t->unit);
      if (got != t->want)
        {
          fprintf (stderr, "case %zu (%s): %g±%g vs %g±%g in unit %d: got \"%s\", want \"%s\"\n",
                   i, t->why, t->first, t->first_spread, t->value, t->spread, (int) t->unit,
                   dm_verdict_name (got), dm_verdict_name (t->want));
          dm_test_case_failed = 1;
        }
    }
}

/* Two reports of one test whose repetitions spread as given; the result's
 * figure is the best run as the grid shows it (set here directly). */
typedef struct {
  dm_unit     unit;
  double      a_runs[3], a_best;
  double      b_runs[3], b_best;
  dm_verdict  want;
  const char *why;
} build_case;

static const build_case build_cases[] = {
  /* Runs 98, 100, 102 and 104, 106, 108: sample spreads 2 and 2, band
   * 2 x sqrt (8) = 5.66. */
  { DM_UNIT_US, { 98, 100, 102 }, 100, { 104, 106, 108 }, 106, DM_VERDICT_WORSE, "latency up 6 us" },
  { DM_UNIT_US, { 104, 106, 108 }, 106, { 98, 100, 102 }, 100, DM_VERDICT_BETTER, "latency down 6 us" },
  { DM_UNIT_US, { 98, 100, 102 }, 100, { 101, 103, 105 }, 103, DM_VERDICT_SAME, "latency up 3 us" },
  { DM_UNIT_IOPS, { 98, 100, 102 }, 100, { 104, 106, 108 }, 106, DM_VERDICT_BETTER, "IOPS up 6" },
  { DM_UNIT_IOPS, { 104, 106, 108 }, 106, { 98, 100, 102 }, 100, DM_VERDICT_WORSE, "IOPS down 6" },
  { DM_UNIT_MBPS, { 98, 100, 102 }, 100, { 101, 103, 105 }, 103, DM_VERDICT_SAME, "MB/s up 3" },
  /* Spreads 10 and 10 (runs 90, 100, 110): band 28.3, so 20 more is same. */
  { DM_UNIT_MBPS, { 90, 100, 110 }, 110, { 110, 120, 130 }, 130, DM_VERDICT_SAME, "wide spread" },
  { DM_UNIT_US, { 90, 100, 110 }, 90, { 110, 120, 130 }, 110, DM_VERDICT_SAME, "wide spread, us" },
};

static void
fill (dm_result *res, dm_unit unit, const double runs[3], double best)
{
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 3;
  for (unsigned k = 0; k < 3; k++)
    {
      dm_run *run = &res->runs[k];
      run->mb_per_s = unit == DM_UNIT_MBPS ? runs[k] : 1;
      run->iops = unit == DM_UNIT_IOPS ? runs[k] : 1;
      run->latency_us = unit == DM_UNIT_US ? runs[k] : 1;
    }
  res->mb_per_s = unit == DM_UNIT_MBPS ? best : 1;
  res->iops = unit == DM_UNIT_IOPS ? best : 1;
  res->latency_us = unit == DM_UNIT_US ? best : 1;
}

static void
test_build_table (void)
{
  dm_spec spec;
  dm_settings s;
  dm_spec_parse ("RND4K_Q1T1", &spec, NULL, 0);
  dm_settings_init (&s);
  for (size_t i = 0; i < sizeof build_cases / sizeof build_cases[0]; i++)
    {
      const build_case *t = &build_cases[i];
      dm_report a, b;
      dm_compare c;
      DM_CHECK_INT (dm_report_init (&a, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      DM_CHECK_INT (dm_report_init (&b, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      a.status = b.status = DM_STATUS_COMPLETE;
      fill (&a.results[0], t->unit, t->a_runs, t->a_best);
      fill (&b.results[0], t->unit, t->b_runs, t->b_best);
      const dm_report *pair[2] = { &a, &b };
      const char *names[2] = { "A", "B" };
      DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, t->unit), ==, 0);
      DM_CHECK_INT (c.n_rows, ==, 1);
      if (c.n_rows == 1)
        {
          const dm_compare_cell *cell = &c.rows[0].cells[1];
          if (cell->verdict != t->want)
            {
              fprintf (stderr, "case %zu (%s): got \"%s\", want \"%s\" (spreads %g and %g)\n", i,
                       t->why, dm_verdict_name (cell->verdict), dm_verdict_name (t->want),
                       c.rows[0].cells[0].spread, cell->spread);
              dm_test_case_failed = 1;
            }
          /* The first column is the reference, never judged. */
          DM_CHECK_INT (c.rows[0].cells[0].verdict, ==, DM_VERDICT_NONE);
        }
      dm_compare_clear (&c);
      dm_report_clear (&a);
      dm_report_clear (&b);
    }
}

static void
test_verdict_names (void)
{
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_NONE), "");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_SAME), "same");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_BETTER), "better");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_WORSE), "worse");
}

int
main (void)
{
  DM_RUN ("/engine/compare/judge-table", test_judge_table);
  DM_RUN ("/engine/compare/build-table", test_build_table);
  DM_RUN ("/engine/compare/verdict-names", test_verdict_names);
  return dm_test_done ();
}
