/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A concurrent run's total (dm-concurrent.h), against arithmetic: its runs
 * are the targets' runs of the same window added up, its figure the best
 * of those sums (not the sum of each target's best), its latency that of
 * every target's I/Os; and it reads back from the file as it was written.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "dm-concurrent.h"
#include "dm-latency.h"
#include "dm-test.h"

/* A target's report of SEQ1M_Q8T1 read: runs of the given MB/s, each of
 * 100 I/Os, all of them taking lat_ns. */
static void
make_target (dm_report *r, const char *path, const double mb[3], uint64_t lat_ns)
{
  dm_settings s;
  dm_spec spec;
  dm_settings_init (&s);
  s.count = 3;
  s.measure_s = 1;
  s.warmup_s = 0;
  s.interval_s = 0;
  dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0);
  DM_CHECK_INT (dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  snprintf (r->target.path, sizeof r->target.path, "%s", path);
  snprintf (r->backend, sizeof r->backend, "psync");
  r->status = DM_STATUS_COMPLETE;
  r->started = 1796072400;
  r->finished = 1796072410;
  dm_result *res = &r->results[0];
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 3;
  for (unsigned k = 0; k < 3; k++)
    {
      res->runs[k].mb_per_s = mb[k];
      res->runs[k].iops = mb[k] / 1.048576;
      res->runs[k].bytes = 100u << 20;
      res->runs[k].ios = 100;
      res->runs[k].seconds = 1;
      res->runs[k].latency_us = (double) lat_ns / 1000;
      if (mb[k] > res->mb_per_s)
        {
          res->mb_per_s = mb[k];
          res->iops = res->runs[k].iops;
        }
    }
  dm_histogram_add (res->hist_read, lat_ns, 300);
  dm_latency_from_histogram (&res->latency, res->hist_read);
}

static bool
near (double a, double b, double pct)
{
  return fabs (a - b) <= fabs (b) * pct / 100;
}

/* The one check of the figures, for the total built from memory and the
 * one built again from the file. */
static void
check_total (const dm_report *t)
{
  DM_CHECK_INT (t->n_results, ==, 1);
  if (t->n_results != 1)
    return;
  const dm_result *res = &t->results[0];
  DM_CHECK_STR (t->target.path, "total");
  DM_CHECK_INT (res->status, ==, DM_STATUS_COMPLETE);
  DM_CHECK_INT (res->n_runs, ==, 3);
  /* Window by window: 100+50, 80+90, 60+70. */
  DM_CHECK (near (res->runs[0].mb_per_s, 150, 1e-9));
  DM_CHECK (near (res->runs[1].mb_per_s, 170, 1e-9));
  DM_CHECK (near (res->runs[2].mb_per_s, 130, 1e-9));
  DM_CHECK_INT (res->runs[1].ios, ==, 200);
  DM_CHECK_INT (res->runs[1].bytes, ==, 200u << 20);
  /* The best window's sum, 170; the sum of each target's best, 190, is
   * no moment the two disks had together. */
  DM_CHECK (near (res->mb_per_s, 170, 1e-9));
  DM_CHECK (near (res->iops, 170 / 1.048576, 1e-3));
  DM_CHECK (near (res->mean_mb_per_s, 150, 1e-9));
  DM_CHECK (near (res->stdev_mb_per_s, 20, 1e-6));
  /* 300 I/Os of 100 us and 300 of 1000 us: mean 550 us; the p99 is a
   * slow one, the p50 the fast one (the histogram's 1.6 %). */
  DM_CHECK (near (res->latency.mean, 550, 1.6));
  DM_CHECK (near (res->latency.p99, 1000, 1.6));
  DM_CHECK (near (res->latency.p50, 100, 1.6));
  DM_CHECK (near (res->runs[0].latency_us, 550, 1e-6));
}

static void
test_total (void)
{
  static dm_report a, b, total;
  const double mb_a[3] = { 100, 80, 60 }, mb_b[3] = { 50, 90, 70 };
  char why[200] = "";
  make_target (&a, "/mnt/e", mb_a, 100000);
  make_target (&b, "/mnt/f", mb_b, 1000000);
  const dm_report *list[2] = { &a, &b };
  DM_CHECK_INT (dm_concurrent_total (&total, list, 2, why, sizeof why), ==, 0);
  check_total (&total);

  /* Written and read back: the same targets, the same total. */
  dm_buf out;
  dm_buf_init (&out);
  dm_concurrent_write_json (list, 2, &total, &out);
  DM_CHECK (!out.error);
  static dm_report loaded[DM_CONCURRENT_MAX], again;
  unsigned n = 0;
  DM_CHECK_INT (dm_concurrent_load (out.data, out.len, loaded, DM_CONCURRENT_MAX, &n, why,
                                    sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 2);
  if (n == 2)
    {
      DM_CHECK_STR (loaded[1].target.path, "/mnt/f");
      const dm_report *back[2] = { &loaded[0], &loaded[1] };
      DM_CHECK_INT (dm_concurrent_total (&again, back, 2, why, sizeof why), ==, 0);
      check_total (&again);
      dm_report_clear (&again);
    }
  /* The file is also the first target's plain report. */
  static dm_report plain;
  DM_CHECK_INT (dm_report_load_json (&plain, out.data, out.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (plain.target.path, "/mnt/e");
  dm_report_clear (&plain);
  for (unsigned k = 0; k < n; k++)
    dm_report_clear (&loaded[k]);

  /* A plain report is no concurrent run. */
  dm_buf one;
  dm_buf_init (&one);
  dm_report_write_json (&a, &one);
  DM_CHECK_INT (dm_concurrent_load (one.data, one.len, loaded, DM_CONCURRENT_MAX, &n, why,
                                    sizeof why), ==, -ENOENT);
  dm_buf_free (&one);

  /* The text names each target's figure and the total's. */
  dm_buf text;
  dm_buf_init (&text);
  dm_concurrent_write_text (list, 2, &total, &text);
  DM_CHECK (text.data && strstr (text.data, "/mnt/f"));
  DM_CHECK (text.data && strstr (text.data, "100.000"));
  DM_CHECK (text.data && strstr (text.data, "90.000"));
  DM_CHECK (text.data && strstr (text.data, "170.000"));
  DM_CHECK (text.data && !strstr (text.data, "one disk"));
  dm_buf_free (&text);

  /* Each disk's own counters; two targets on one disk are named so. */
  a.results[0].device.counted = b.results[0].device.counted = true;
  a.results[0].device.seconds = b.results[0].device.seconds = 3;
  snprintf (a.results[0].device.name, sizeof a.results[0].device.name, "sda");
  snprintf (b.results[0].device.name, sizeof b.results[0].device.name, "sdb");
  dm_buf_init (&text);
  dm_concurrent_write_text (list, 2, &total, &text);
  DM_CHECK (text.data && strstr (text.data, "1: sda") && strstr (text.data, "2: sdb"));
  DM_CHECK (text.data && !strstr (text.data, "one disk"));
  dm_buf_free (&text);
  snprintf (b.results[0].device.name, sizeof b.results[0].device.name, "sda");
  dm_buf_init (&text);
  dm_concurrent_write_text (list, 2, &total, &text);
  DM_CHECK (text.data && strstr (text.data, "Targets 1 2 are on one disk, sda"));
  dm_buf_free (&text);

  /* CSV: a row per target, then the total's. */
  dm_buf csv;
  dm_buf_init (&csv);
  dm_concurrent_write_csv (list, 2, &total, &csv);
  unsigned lines = 0;
  for (const char *p = csv.data; p && *p; p++)
    lines += *p == '\n';
  DM_CHECK_INT (lines, ==, 4);
  DM_CHECK (csv.data && strstr (csv.data, ",total,"));
  dm_buf_free (&csv);

  dm_buf_free (&out);
  dm_report_clear (&total);

  /* Different tests are no concurrent run. */
  b.results[0].mode = DM_MODE_WRITE;
  DM_CHECK_INT (dm_concurrent_total (&total, list, 2, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "target 2") != NULL);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

/* A target whose test was cancelled leaves the total cancelled, summed over
 * the windows every target finished. */
static void
test_cancelled (void)
{
  static dm_report a, b, total;
  const double mb_a[3] = { 100, 80, 60 }, mb_b[3] = { 50, 90, 70 };
  char why[200];
  make_target (&a, "/mnt/e", mb_a, 100000);
  make_target (&b, "/mnt/f", mb_b, 100000);
  b.results[0].status = DM_STATUS_CANCELLED;
  b.results[0].n_runs = 1;
  b.status = DM_STATUS_CANCELLED;
  const dm_report *list[2] = { &a, &b };
  DM_CHECK_INT (dm_concurrent_total (&total, list, 2, why, sizeof why), ==, 0);
  DM_CHECK_INT (total.status, ==, DM_STATUS_CANCELLED);
  DM_CHECK_INT (total.results[0].status, ==, DM_STATUS_CANCELLED);
  DM_CHECK_INT (total.results[0].n_runs, ==, 1);
  DM_CHECK (near (total.results[0].mb_per_s, 150, 1e-9));
  dm_report_clear (&total);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

int
main (void)
{
  DM_RUN ("/concurrent/total", test_total);
  DM_RUN ("/concurrent/cancelled", test_cancelled);
  return dm_test_done ();
}
