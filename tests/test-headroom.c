/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The headroom's plan and its reading, on reports whose figures are set by
 * hand: which rows a profile row becomes, which rows are refused, the ratio,
 * the bound (twice the captured p99 or the one given), the highest rate
 * under it, and the sentence and JSON that say so. tests/truth-headroom.sh
 * runs it against a device of known speed.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "dm-headroom.h"
#include "dm-json.h"
#include "dm-test.h"

static dm_settings settings;

static void
set_point (dm_result *res, double iops, double p99_us)
{
  res->status = DM_STATUS_COMPLETE;
  res->iops = iops;
  res->mb_per_s = iops * 4096 / 1e6;
  res->latency.p50 = p99_us / 2;
  res->latency.p99 = p99_us;
}

static void
report_of (dm_report *r, const char *row)
{
  dm_workload w;
  char why[200];
  dm_settings_init (&settings);
  settings.test_size = 16ull << 20;
  DM_CHECK_INT (dm_workload_parse (row, &w, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_headroom_report_init (r, &w, 1, &settings, why, sizeof why), ==, 0);
}

/* A row becomes its captured rate, an unbounded row, and the curve's
 * points without rates until the maximum is known. */
static void
test_plan (void)
{
  dm_report r;
  report_of (&r, "name=app;block=4K;read=70;qd=8;rate=400");
  DM_CHECK_INT (r.n_results, ==, DM_HEADROOM_ROWS);
  DM_CHECK_INT (dm_headroom_count (&r), ==, 1);
  DM_CHECK (!strcmp (r.profile, "headroom"));
  DM_CHECK (r.results[0].workload.rate_unit == DM_RATE_IOPS && r.results[0].workload.rate == 400);
  for (unsigned i = 1; i < DM_HEADROOM_ROWS; i++)
    DM_CHECK (r.results[i].workload.rate_unit == DM_RATE_NONE);
  DM_CHECK_INT (dm_headroom_percent (0), ==, 0);
  DM_CHECK_INT (dm_headroom_percent (1), ==, 0);
  DM_CHECK_INT (dm_headroom_percent (2), ==, 10);
  DM_CHECK_INT (dm_headroom_percent (7), ==, 100);
  dm_report_clear (&r);
}

/* Rows without a rate in IOPS, or none at all, are refused with reasons. */
static void
test_refuse (void)
{
  dm_report r;
  dm_workload w[2];
  char why[200];
  dm_settings_init (&settings);
  DM_CHECK_INT (dm_workload_parse ("name=a;block=4K;rate=100", &w[0], why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_workload_parse ("name=b;block=4K", &w[1], why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_headroom_report_init (&r, w, 2, &settings, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "'b' has no rate") != NULL);
  DM_CHECK_INT (dm_workload_parse ("name=c;block=4K;rate=5MB/s", &w[1], why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_headroom_report_init (&r, w, 2, &settings, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "MB/s") != NULL);
  DM_CHECK_INT (dm_headroom_report_init (&r, w, 0, &settings, why, sizeof why), ==, -EINVAL);
}

/* 400 IOPS at p99 1 ms; a maximum of 4000; points at 400..4000 whose p99
 * grows past twice 1 ms at 90 %: 10x, and 70 % (2800) is the highest under
 * the default bound; p99 at the bound counts as under it. */
static void
test_reading (void)
{
  static const double p99[] = { 900, 1500, 2000, 1900, 2100, 9000 };
  dm_report r;
  dm_headroom h;
  report_of (&r, "name=app;block=4K;read=100;qd=8;rate=400");
  set_point (&r.results[0], 399, 1000);
  set_point (&r.results[1], 4000, 8000);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      dm_result *res = &r.results[2 + i];
      res->workload.rate_unit = DM_RATE_IOPS;
      res->workload.rate = 4000.0 * dm_sweep_curve_percent[i] / 100;
      set_point (res, res->workload.rate, p99[i]);
    }
  dm_headroom_of (&r, 0, 0, &h);
  DM_CHECK (h.met && h.rate == 400 && h.p99_us == 1000 && h.max_iops == 4000);
  DM_CHECK (fabs (h.ratio - 10) < 1e-9);
  DM_CHECK (h.bound_us == 2000 && !h.bound_given);
  DM_CHECK_INT (h.best, ==, 5); /* 80 %, 3200: p99 1900, after 70 % at 2000 */
  /* A point that did not reach its rate is no headroom. */
  r.results[5].iops = 3000;
  dm_headroom_of (&r, 0, 0, &h);
  DM_CHECK_INT (h.best, ==, 4);
  r.results[5].iops = 3200;
  /* A bound given replaces twice the p99. */
  dm_headroom_of (&r, 0, 1000, &h);
  DM_CHECK (h.bound_given && h.bound_us == 1000);
  /* 10 % is 400 IOPS too (p99 900): on a tie of rates the captured row,
   * at the bound, is named. */
  DM_CHECK_INT (h.best, ==, 0);
  dm_headroom_of (&r, 0, 100, &h);
  DM_CHECK_INT (h.best, ==, -1);

  dm_buf b;
  dm_buf_init (&b);
  dm_headroom_write_text (&r, 0, false, &b);
  DM_CHECK (strstr (b.data, "at your 400 IOPS, p99 1.0 ms; this disk reaches 4,000 IOPS at the "
                            "same shape (10x), p99 under 2.0 ms up to 3,200\n") != NULL);
  dm_buf_clear (&b);
  dm_headroom_write_text (&r, 100, false, &b);
  DM_CHECK (strstr (b.data, "p99 over 100 us at every rate it reached") != NULL);
  /* The JSON is a report any reader takes, with the headroom beside it. */
  dm_buf_clear (&b);
  r.status = DM_STATUS_COMPLETE;
  dm_headroom_write_json (&r, 0, &b);
  dm_json_doc doc;
  char why[200];
  DM_CHECK_INT (dm_json_parse (b.data, b.len, &doc, why, sizeof why), ==, 0);
  const dm_json *w = dm_json_get (dm_json_get (doc.root, "headroom"), "workloads");
  DM_CHECK (w != NULL);
  dm_json_free (&doc);
  DM_CHECK (strstr (b.data, "\"best_rate_iops\": 3200.000") != NULL);
  DM_CHECK (strstr (b.data, "\"ratio\": 10.000") != NULL);
  DM_CHECK (strstr (b.data, "\"p99_bound_us\": 2000.000") != NULL);
  dm_buf_clear (&b);
  dm_headroom_write_csv (&r, 0, &b);
  DM_CHECK (strstr (b.data, "\napp,80%,3200.000,3200.000,yes,950.000,1900.000,2000.000,yes,"
                            "complete") != NULL);
  dm_buf_free (&b);

  /* A disk whose maximum is under the captured rate says so. */
  set_point (&r.results[0], 300, 5000);
  set_point (&r.results[1], 310, 8000);
  dm_buf_init (&b);
  dm_headroom_write_text (&r, 0, false, &b);
  DM_CHECK (strstr (b.data, "your 400 IOPS is more than this disk gave at that shape: 300 IOPS") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/headroom/plan", test_plan);
  DM_RUN ("/engine/headroom/refuse", test_refuse);
  DM_RUN ("/engine/headroom/reading", test_reading);
  return dm_test_done ();
}
