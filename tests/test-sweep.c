/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sweep: plans ordered by load and bounded by what the machine holds,
 * the time estimate, the knee and the best load under a latency bound on
 * curves whose answer is known (an IOPS cap over a latency floor, flat,
 * still growing, one point, all failed), the JSON and CSV, and a real sweep
 * through the runner that is cancelled and keeps what it measured.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-runner.h"
#include "dm-sweep.h"
#include "dm-test-backend.h"
#include "dm-test.h"

static dm_settings settings;

static void
small_settings (void)
{
  dm_settings_init (&settings);
  settings.count = 1;
  settings.test_size = 16ull << 20;
  settings.measure_s = 0.1;
  settings.warmup_s = 0;
  settings.interval_s = 0;
}

static void
plan_of (dm_sweep_plan *p, const unsigned *qd, unsigned n_qd, const unsigned *t, unsigned n_t)
{
  dm_sweep_plan_init (p);
  memcpy (p->queue_depths, qd, n_qd * sizeof *qd);
  p->n_queue_depths = n_qd;
  memcpy (p->threads, t, n_t * sizeof *t);
  p->n_threads = n_t;
}

static void
test_defaults (void)
{
  dm_sweep_plan p;
  dm_sweep_plan_init (&p);
  DM_CHECK_INT (p.n_queue_depths, ==, 9);
  DM_CHECK_INT (p.queue_depths[8], ==, 256);
  DM_CHECK_INT (p.n_threads, ==, 5);
  DM_CHECK_INT (p.threads[4], ==, 16);
  DM_CHECK (p.pattern == DM_RND && p.block_size == 4096 && p.mode == DM_MODE_READ);
}

static void
test_list_parse (void)
{
  unsigned v[DM_SWEEP_MAX_LIST], n = 0;
  char why[200];
  DM_CHECK_INT (dm_sweep_list_parse ("8,1,2,2", 1, 512, v, &n, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 3);
  DM_CHECK (v[0] == 1 && v[1] == 2 && v[2] == 8);
  DM_CHECK_INT (dm_sweep_list_parse ("0", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK_INT (dm_sweep_list_parse ("1,,2", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK_INT (dm_sweep_list_parse ("1,2,", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK_INT (dm_sweep_list_parse ("x", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK_INT (dm_sweep_list_parse ("", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK_INT (dm_sweep_list_parse ("513", 1, 512, v, &n, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "513") != NULL);
  DM_CHECK_INT (dm_sweep_list_parse ("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 1, 512, v,
                                     &n, why, sizeof why), ==, -EINVAL);
}

/* Lightest load first, fewer threads first at equal load. */
static void
test_order (void)
{
  static const unsigned qd[] = { 1, 2, 4 }, t[] = { 1, 2 };
  static const unsigned want[][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 4, 1 }, { 2, 2 }, { 4, 2 } };
  dm_sweep_plan p;
  dm_report r;
  char note[200], why[200];
  small_settings ();
  plan_of (&p, qd, 3, t, 2);
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 4, note, sizeof note, why, sizeof why), ==, 0);
  DM_CHECK_INT (r.n_results, ==, 6);
  DM_CHECK_STR (note, "");
  DM_CHECK_STR (r.profile, "sweep");
  for (unsigned i = 0; i < r.n_results && i < 6; i++)
    {
      DM_CHECK_INT (r.results[i].spec.queue_depth, ==, want[i][0]);
      DM_CHECK_INT (r.results[i].spec.threads, ==, want[i][1]);
      DM_CHECK (r.results[i].mode == DM_MODE_READ && r.results[i].read_percent == 100);
      DM_CHECK (r.results[i].spec.pattern == DM_RND && r.results[i].spec.block_size == 4096);
    }
  DM_CHECK_INT (dm_sweep_find (&r, 2, 2), ==, 4);
  DM_CHECK_INT (dm_sweep_find (&r, 3, 2), ==, -1);
  unsigned qa[DM_SWEEP_MAX_LIST], ta[DM_SWEEP_MAX_LIST], nq, nt;
  dm_sweep_axes (&r, qa, &nq, ta, &nt);
  DM_CHECK (nq == 3 && qa[0] == 1 && qa[2] == 4 && nt == 2 && ta[1] == 2);
  dm_report_clear (&r);

  /* The Mix share comes from the settings. */
  settings.mix_read_percent = 60;
  p.mode = DM_MODE_MIX;
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 4, NULL, 0, why, sizeof why), ==, 0);
  DM_CHECK (r.results[0].mode == DM_MODE_MIX && r.results[0].read_percent == 60);
  dm_report_clear (&r);
}

static void
test_bounds (void)
{
  dm_sweep_plan p;
  dm_report r;
  char note[400], why[400];
  small_settings ();
  settings.test_size = 64ull << 20;

  /* Two logical CPUs hold 8 threads; 512 x 16 is past 4096 in flight. */
  static const unsigned qd[] = { 1, 512 }, t[] = { 1, 8, 16 };
  plan_of (&p, qd, 2, t, 3);
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 2, note, sizeof note, why, sizeof why), ==, 0);
  DM_CHECK_INT (r.n_results, ==, 4);
  DM_CHECK (strstr (note, "left out 2 of 6") != NULL);
  DM_CHECK (strstr (note, "more than 8 threads (4 x 2 logical CPUs)") != NULL);
  for (unsigned i = 0; i < r.n_results; i++)
    DM_CHECK (r.results[i].spec.threads <= 8);
  dm_report_clear (&r);

  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 8, note, sizeof note, why, sizeof why), ==, 0);
  DM_CHECK_INT (r.n_results, ==, 5);
  DM_CHECK (strstr (note, "more than 4096 I/Os in flight") != NULL);
  dm_report_clear (&r);

  /* 8 MiB blocks: 1 GiB of buffers at most, and 8 threads need 64 MiB. */
  static const unsigned qd2[] = { 1, 16, 256 }, t2[] = { 1, 8, 16 };
  plan_of (&p, qd2, 3, t2, 3);
  p.block_size = 8u << 20;
  p.pattern = DM_SEQ;
  settings.test_size = 32ull << 20;
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 64, note, sizeof note, why, sizeof why), ==, 0);
  DM_CHECK_INT (r.n_results, ==, 2); /* Q1T1 and Q16T1 */
  DM_CHECK (strstr (note, "1 GiB of 8M buffers") != NULL);
  DM_CHECK (strstr (note, "fit in the test size") != NULL);
  dm_report_clear (&r);

  /* Nothing left: refused with the reason. */
  static const unsigned qd3[] = { 256 }, t3[] = { 16 };
  plan_of (&p, qd3, 1, t3, 1);
  p.block_size = 8u << 20;
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 64, note, sizeof note, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "no combination can run here") != NULL);
  DM_CHECK_INT (r.n_results, ==, 0);

  p.block_size = 3000;
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 64, NULL, 0, why, sizeof why), ==, -EINVAL);
  plan_of (&p, qd3, 0, t3, 1);
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 64, NULL, 0, why, sizeof why), ==, -EINVAL);
}

static void
test_estimate (void)
{
  static const unsigned qd[] = { 1, 2, 4 }, t[] = { 1, 2 };
  dm_sweep_plan p;
  dm_report r;
  char why[200];
  small_settings ();
  settings.warmup_s = 1;
  settings.count = 2;
  settings.measure_s = 3;
  settings.interval_s = 0.5;
  plan_of (&p, qd, 3, t, 2);
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 4, NULL, 0, why, sizeof why), ==, 0);
  DM_CHECK (fabs (dm_sweep_estimate_seconds (&r) - (6 * 7 + 5 * 0.5)) < 1e-9);
  dm_report_clear (&r);
  dm_report empty;
  memset (&empty, 0, sizeof empty);
  DM_CHECK (dm_sweep_estimate_seconds (&empty) == 0);
}

/* A report over QD lists x T 1 with figures filled in by a model. */
static void
model_report (dm_report *r, const unsigned *qd, unsigned n, const unsigned *t, unsigned n_t)
{
  dm_sweep_plan p;
  char why[200];
  small_settings ();
  plan_of (&p, qd, n, t, n_t);
  DM_CHECK_INT (dm_sweep_report_init (r, &p, &settings, 64, NULL, 0, why, sizeof why), ==, 0);
}

static void
set_point (dm_result *res, double iops, double p99_us)
{
  res->status = DM_STATUS_COMPLETE;
  res->iops = iops;
  res->mb_per_s = iops * res->spec.block_size / 1e6;
  res->latency.p99 = p99_us;
  res->latency.mean = p99_us / 2;
}

/* A device with a 2 ms latency floor behind a 2000 IOPS cap: IOPS grow as
 * QD / 2 ms until QD 4 reaches the cap, then only latency grows. */
static void
test_knee_cap (void)
{
  static const unsigned qd[] = { 1, 2, 4, 8, 16, 32 }, t[] = { 1 };
  dm_report r;
  int k = -1;
  model_report (&r, qd, 6, t, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      double q = r.results[i].spec.queue_depth;
      double iops = fmin (q / 0.002, 2000);
      set_point (&r.results[i], iops, fmax (2000, q / iops * 1e6) * 1.1);
    }
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, dm_sweep_find (&r, 4, 1));
  /* Past the cap a little more throughput still comes through (2 %). */
  set_point (&r.results[3], 2030, 4400);

  /* The cap just missed at QD 4 (3 % short) is still within 5 %. */
  r.results[2].iops = 1940;
  r.results[2].mb_per_s = 1940 * 4096 / 1e6;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (r.results[k].spec.queue_depth, ==, 4);

  /* Latency bound: the fastest load whose p99 fits, the lighter one when
   * they are equally fast (QD 1, 2, 4 have p99 2200 us, QD 8 4400 us). */
  DM_CHECK_INT (dm_sweep_best_under (&r, 5000, &k), ==, 0);
  DM_CHECK_INT (r.results[k].spec.queue_depth, ==, 8);
  DM_CHECK_INT (dm_sweep_best_under (&r, 4399, &k), ==, 0);
  DM_CHECK_INT (r.results[k].spec.queue_depth, ==, 4);
  DM_CHECK_INT (dm_sweep_best_under (&r, 2199, &k), ==, -ENOENT);
  r.results[3].iops = 2000;
  r.results[3].mb_per_s = r.results[2].mb_per_s;
  DM_CHECK_INT (dm_sweep_best_under (&r, 5000, &k), ==, 0);
  DM_CHECK_INT (r.results[k].spec.queue_depth, ==, 4);
  DM_CHECK_INT (dm_sweep_best_under (&r, 0, &k), ==, -ENOENT);
  dm_report_clear (&r);
}

/* A throttle makes every load equally fast, and figures timed between
 * completions then differ past the third decimal, which the JSON does not
 * keep: the sweep read back from its file names the same best load and
 * knee, and writes the same JSON again. */
static void
test_saved_choice (void)
{
  static const unsigned qd[] = { 1, 2, 4, 8 }, t[] = { 1 };
  dm_report r, again;
  dm_sweep_plan p;
  dm_buf a, b;
  char why[200];
  model_report (&r, qd, 4, t, 1);
  plan_of (&p, qd, 4, t, 1);
  p.latency_bound_us = 150000;
  for (unsigned i = 0; i < r.n_results; i++)
    {
      set_point (&r.results[i], 500, 100139.008);
      r.results[i].latency.mean = 2000.0 * (i + 1);
    }
  /* QD 4 is 0.0004 MB/s faster: nothing the file can tell. */
  r.results[2].mb_per_s += 0.0004;
  dm_buf_init (&a);
  dm_buf_init (&b);
  dm_sweep_write_json (&r, &p, &a);
  DM_CHECK_INT (dm_report_load_json (&again, a.data, a.len, why, sizeof why), ==, 0);
  dm_sweep_write_json (&again, &p, &b);
  DM_CHECK (a.len == b.len && memcmp (a.data, b.data, a.len) == 0);
  int k = -1;
  DM_CHECK_INT (dm_sweep_best_under (&r, 150000, &k), ==, 0);
  DM_CHECK_INT (r.results[k].spec.queue_depth, ==, 1);
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_report_clear (&again);
  dm_report_clear (&r);
}

static void
test_knee_edges (void)
{
  static const unsigned qd[] = { 1, 2, 4, 8 }, t[] = { 1 };
  dm_report r;
  int k = -1;

  /* Flat throughput, rising latency: the first load is the knee. */
  model_report (&r, qd, 4, t, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    set_point (&r.results[i], 1000, 100.0 * r.results[i].spec.queue_depth);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, 0);

  /* Flat throughput and flat latency: more load costs nothing, no knee. */
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].latency.p99 = r.results[i].latency.mean = 100;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);

  /* p99 held flat by periodic stalls, mean rising as Little's law says. */
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].latency.mean = 2000.0 * r.results[i].spec.queue_depth;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, 0);

  /* Gains of 5 % or more all the way: not saturated within the sweep. */
  for (unsigned i = 0; i < r.n_results; i++)
    set_point (&r.results[i], 1000.0 * (1 + 0.5 * i), 100 + 10.0 * i);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);

  /* A noisy dip is not the knee when the curve rises again after it. */
  set_point (&r.results[0], 1000, 100);
  set_point (&r.results[1], 2000, 110);
  set_point (&r.results[2], 1950, 130);
  set_point (&r.results[3], 4000, 150);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);
  set_point (&r.results[3], 2030, 400);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, 1);

  /* All failed, or all pending: nothing to judge. */
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].status = DM_STATUS_FAILED;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);
  DM_CHECK_INT (dm_sweep_best_under (&r, 1e9, &k), ==, -ENOENT);
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].status = DM_STATUS_PENDING;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);

  /* A cancelled sweep judges what it finished. */
  set_point (&r.results[0], 1000, 100);
  set_point (&r.results[1], 1010, 200);
  set_point (&r.results[2], 1020, 400);
  r.results[3].status = DM_STATUS_CANCELLED;
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, 0);
  dm_report_clear (&r);

  /* One point: there is no "past it". */
  static const unsigned one[] = { 1 };
  model_report (&r, one, 1, t, 1);
  set_point (&r.results[0], 1000, 100);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, -ENOENT);
  DM_CHECK_INT (dm_sweep_best_under (&r, 100, &k), ==, 0);
  DM_CHECK_INT (k, ==, 0);
  dm_report_clear (&r);
}

/* Over QD x T, equal loads are represented by their best combination. */
static void
test_knee_grid (void)
{
  static const unsigned qd[] = { 1, 2, 4 }, t[] = { 1, 2 };
  dm_report r;
  int k = -1;
  model_report (&r, qd, 3, t, 2);
  /* Q1T1 1000; Q2T1 1500 but Q1T2 1900; load 4 and 8 flat near 2000. */
  set_point (&r.results[dm_sweep_find (&r, 1, 1)], 1000, 100);
  set_point (&r.results[dm_sweep_find (&r, 2, 1)], 1500, 150);
  set_point (&r.results[dm_sweep_find (&r, 1, 2)], 1950, 120);
  set_point (&r.results[dm_sweep_find (&r, 4, 1)], 1800, 300);
  set_point (&r.results[dm_sweep_find (&r, 2, 2)], 2000, 250);
  set_point (&r.results[dm_sweep_find (&r, 4, 2)], 2010, 500);
  DM_CHECK_INT (dm_sweep_knee (&r, &k), ==, 0);
  DM_CHECK_INT (k, ==, dm_sweep_find (&r, 1, 2));
  DM_CHECK_INT (dm_sweep_best_under (&r, 260, &k), ==, 0);
  DM_CHECK_INT (k, ==, dm_sweep_find (&r, 2, 2));
  dm_report_clear (&r);
}

static void
test_writers (void)
{
  static const unsigned qd[] = { 1, 2, 4, 8, 16 }, t[] = { 1 };
  dm_sweep_plan p;
  dm_report r, back;
  dm_buf b;
  char why[300];
  model_report (&r, qd, 5, t, 1);
  plan_of (&p, qd, 5, t, 1);
  p.latency_bound_us = 5000;
  for (unsigned i = 0; i < 4; i++)
    {
      double q = r.results[i].spec.queue_depth;
      double iops = fmin (q / 0.002, 2000);
      set_point (&r.results[i], iops, fmax (2000, q / iops * 1e6) * 1.1);
    }
  r.results[4].status = DM_STATUS_CANCELLED;
  r.status = DM_STATUS_CANCELLED;

  dm_buf_init (&b);
  dm_sweep_write_json (&r, &p, &b);
  DM_CHECK (b.error == 0 && b.data != NULL);
  dm_json_doc doc;
  if (getenv ("DM_TEST_DUMP"))
    fputs (b.data, stderr);
  DM_CHECK_INT (dm_json_parse (b.data, b.len, &doc, why, sizeof why), ==, 0);
  const dm_json *sw = dm_json_get (doc.root, "sweep");
  DM_CHECK (sw != NULL);
  const dm_json *knee = sw ? dm_json_get (sw, "knee") : NULL;
  DM_CHECK (knee && knee->type == DM_JSON_OBJECT);
  DM_CHECK (knee && dm_json_get_number (knee, "queue_depth", 0) == 4);
  DM_CHECK (knee && dm_json_get_number (knee, "threads", 0) == 1);
  const dm_json *best = sw ? dm_json_get (sw, "best_under_bound") : NULL;
  DM_CHECK (best && dm_json_get_number (best, "queue_depth", 0) == 4);
  DM_CHECK (sw && dm_json_get_number (sw, "latency_bound_us", 0) == 5000);
  const dm_json *qds = sw ? dm_json_get (sw, "queue_depths") : NULL;
  DM_CHECK (qds && qds->n == 5);
  DM_CHECK_STR (dm_json_get_string (doc.root, "profile", ""), "sweep");
  dm_json_free (&doc);
  /* Readers of plain reports read it back. */
  DM_CHECK_INT (dm_report_load_json (&back, b.data, b.len, why, sizeof why), ==, 0);
  if (back.n_results)
    {
      DM_CHECK_INT (back.n_results, ==, 5);
      int k = -1;
      DM_CHECK_INT (dm_sweep_knee (&back, &k), ==, 0);
      DM_CHECK_INT (k, ==, 2);
      dm_report_clear (&back);
    }

  /* Without a bound, best_under_bound is null. */
  dm_buf_clear (&b);
  p.latency_bound_us = 0;
  dm_sweep_write_json (&r, &p, &b);
  DM_CHECK (b.data && strstr (b.data, "\"best_under_bound\": null") != NULL);
  DM_CHECK (b.data && strstr (b.data, "\"latency_bound_us\": null") != NULL);

  dm_buf_clear (&b);
  dm_sweep_write_csv (&r, &b);
  static const char header[] = "qd,threads,mb_per_s,iops,mean_latency_us,p99_latency_us,"
                               "cpu_percent,status\n";
  DM_CHECK (b.data && strncmp (b.data, header, strlen (header)) == 0);
  DM_CHECK (b.data && strstr (b.data, "\n4,1,8.192,2000.000,1100.000,2200.000,0.000,complete\n"));
  DM_CHECK (b.data && strstr (b.data, "\n16,1,,,,,,cancelled\n"));

  dm_buf_clear (&b);
  p.latency_bound_us = 3000;
  set_point (&r.results[3], 1990, 4400);
  dm_sweep_write_text (&r, &p, &b);
  DM_CHECK (b.data && strstr (b.data, "Knee: Q4T1 (RND4K_Q4T1)") != NULL);
  DM_CHECK (b.data && strstr (b.data, "Best with p99 <= 3000 us: Q4T1") != NULL);
  DM_CHECK (b.data && strstr (b.data, "2000*") != NULL);
  if (dm_test_case_failed && b.data)
    fputs (b.data, stderr);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

/* ---- through the runner ------------------------------------------------- */

typedef struct {
  dm_runner *runner;
  int        done;
} cancel_after;

static void
on_progress (void *user, const dm_progress *p)
{
  cancel_after *c = user;
  if (p->phase == DM_PHASE_DONE && ++c->done == 2)
    dm_runner_cancel (c->runner);
}

/* A saved sweep gives back the plan it was made with, lists as planned
 * (QD 32 was planned but a stop left it unmeasured), so writing it again
 * makes the same file; a plain report is no sweep; lists lost to an edit
 * come back from what was measured. */
static void
test_plan_from_json (void)
{
  static const unsigned qd[] = { 1, 2, 4, 8, 16 }, planned[] = { 1, 2, 4, 8, 16, 32 },
                        t[] = { 1, 2 };
  dm_sweep_plan p, back_plan;
  dm_report r, back;
  dm_buf b, again;
  char why[300];

  model_report (&r, qd, 5, t, 2);
  for (unsigned i = 0; i < r.n_results; i++)
    set_point (&r.results[i], 1000 * (i + 1), 2000);
  plan_of (&p, planned, 6, t, 2);
  p.latency_bound_us = 2500;
  dm_buf_init (&b);
  dm_buf_init (&again);
  dm_sweep_write_json (&r, &p, &b);
  DM_CHECK_INT (dm_report_load_json (&back, b.data, b.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_sweep_plan_from_json (&back, b.data, b.len, &back_plan), ==, 0);
  DM_CHECK_INT (back_plan.n_queue_depths, ==, 6);
  DM_CHECK_INT (back_plan.queue_depths[5], ==, 32);
  DM_CHECK_INT (back_plan.n_threads, ==, 2);
  DM_CHECK_INT (back_plan.threads[1], ==, 2);
  DM_CHECK (back_plan.latency_bound_us == 2500);
  DM_CHECK_INT (back_plan.pattern, ==, r.results[0].spec.pattern);
  DM_CHECK_INT (back_plan.block_size, ==, r.results[0].spec.block_size);
  DM_CHECK_INT (back_plan.mode, ==, r.results[0].mode);
  dm_sweep_write_json (&back, &back_plan, &again);
  DM_CHECK (again.len == b.len && memcmp (again.data, b.data, b.len) == 0);

  /* A plain report of the same results. */
  dm_buf_clear (&again);
  dm_report_write_json (&r, &again);
  DM_CHECK_INT (dm_sweep_plan_from_json (&back, again.data, again.len, &back_plan), ==, -ENOENT);

  /* The list edited away: the measured axes instead. */
  char *edited = strstr (b.data, "\"queue_depths\": [");
  DM_CHECK (edited != NULL);
  if (edited)
    {
      memcpy (edited, "\"queue_depthz\"", strlen ("\"queue_depthz\""));
      DM_CHECK_INT (dm_sweep_plan_from_json (&back, b.data, b.len, &back_plan), ==, 0);
      DM_CHECK_INT (back_plan.n_queue_depths, ==, 5);
      DM_CHECK_INT (back_plan.queue_depths[4], ==, 16);
    }
  DM_CHECK_INT (dm_sweep_plan_from_json (&back, "{", 1, &back_plan), ==, -ENOENT);

  dm_report_clear (&back);
  dm_report_clear (&r);
  dm_buf_free (&b);
  dm_buf_free (&again);
}

static void
test_run_cancel (void)
{
  static const unsigned qd[] = { 1, 2, 4 }, t[] = { 1, 2 };
  dm_sweep_plan p;
  dm_report r;
  char why[200];
  dm_test_backend_config cfg = { 0 };
  cfg.latency_ns = 200000;
  small_settings ();
  plan_of (&p, qd, 3, t, 2);
  DM_CHECK_INT (dm_sweep_report_init (&r, &p, &settings, 4, NULL, 0, why, sizeof why), ==, 0);
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (&r, ".");
  cancel_after c = { runner, 0 };
  dm_runner_set_backend (runner, &dm_test_backend);
  dm_runner_set_progress (runner, on_progress, &c);
  DM_CHECK_INT (dm_runner_run (runner), ==, -ECANCELED);
  dm_runner_free (runner);
  DM_CHECK_STR (dm_status_name (r.status), "cancelled");
  /* The two lightest loads were measured and stay; the rest did not run. */
  DM_CHECK_STR (dm_status_name (r.results[0].status), "complete");
  DM_CHECK_STR (dm_status_name (r.results[1].status), "complete");
  DM_CHECK (r.results[0].iops > 0 && r.results[0].latency.p99 > 0);
  for (unsigned i = 2; i < r.n_results; i++)
    DM_CHECK (r.results[i].status == DM_STATUS_PENDING || r.results[i].status == DM_STATUS_CANCELLED);
  dm_report_clear (&r);
}

/* "4K,8K,...,8M" is every doubling, as ATTO lists its sizes; what is no
 * power of two from 4 KiB to 8 MiB, or no list, is refused. */
static void
test_blocks_parse (void)
{
  uint32_t v[DM_SWEEP_MAX_LIST];
  unsigned n = 0;
  char why[200];
  DM_CHECK_INT (dm_sweep_blocks_parse ("4K,8K,...,8M", v, &n, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 12);
  DM_CHECK (v[0] == 4096 && v[1] == 8192 && v[11] == 8u << 20);
  for (unsigned i = 1; i < n; i++)
    DM_CHECK (v[i] == 2 * v[i - 1]);
  DM_CHECK_INT (dm_sweep_blocks_parse ("64K,...,4K", v, &n, why, sizeof why), ==, 0);
  DM_CHECK (n == 5 && v[0] == 4096 && v[4] == 65536);
  DM_CHECK_INT (dm_sweep_blocks_parse ("1M,4KiB,1M", v, &n, why, sizeof why), ==, 0);
  DM_CHECK (n == 2 && v[0] == 4096 && v[1] == 1u << 20);
  static const char *const bad[] = { "3K", "", "16M", "64M", "128M", "4K,,8K", "...,8K", "4K,...",
                                     "4K,...,...,8K", "foo", "6K", "2K" };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      why[0] = '\0';
      DM_CHECK_INT (dm_sweep_blocks_parse (bad[i], v, &n, why, sizeof why), ==, -EINVAL);
      DM_CHECK (why[0] != '\0' && !strchr (why, '\n'));
    }
}

/* A bound as a duration, or microseconds alone as the option took before. */
static void
test_bound_parse (void)
{
  double us = 0;
  char why[200];
  DM_CHECK_INT (dm_sweep_bound_parse ("2ms", &us, why, sizeof why), ==, 0);
  DM_CHECK (us == 2000);
  DM_CHECK_INT (dm_sweep_bound_parse ("150000", &us, why, sizeof why), ==, 0);
  DM_CHECK (us == 150000);
  DM_CHECK_INT (dm_sweep_bound_parse ("500us", &us, why, sizeof why), ==, 0);
  DM_CHECK (us == 500);
  DM_CHECK_INT (dm_sweep_bound_parse ("0.5s", &us, why, sizeof why), ==, 0);
  DM_CHECK (us == 500000);
  static const char *const bad[] = { "-1", "0", "", "2h", "ms", "nan", "inf", "61s", "0.1us" };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
    DM_CHECK_INT (dm_sweep_bound_parse (bad[i], &us, why, sizeof why), ==, -EINVAL);
}

/* vdbench's curve: 10, 50, 70, 80, 90 and 100 % of the maximum, in whole
 * I/Os a second, never none. */
static void
test_curve_rates (void)
{
  double r[DM_SWEEP_CURVE_POINTS];
  static const double want[] = { 1235, 6173, 8642, 9876, 11111, 12345 };
  dm_sweep_curve_rates (12345.4, r);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    DM_CHECK (r[i] == want[i]);
  dm_sweep_curve_rates (3, r);
  DM_CHECK (r[0] == 1 && r[1] == 2 && r[5] == 3);
}

static void
curve_report (dm_report *r, const char *load)
{
  dm_sweep_plan p;
  char why[200];
  small_settings ();
  dm_sweep_plan_init (&p);
  p.kind = DM_SWEEP_RATES;
  DM_CHECK_INT (dm_workload_parse (load, &p.workload, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_sweep_curve_report_init (r, &p, &settings, why, sizeof why), ==, 0);
}

/* The bound picks the highest offered rate whose p99 is at or under it,
 * whether or not p99 grows in order; a failed point is no candidate; the
 * maximum's own row (no offered rate) is none either. */
static void
test_curve_best (void)
{
  static const double p99[] = { 100, 200, 400, 1000, 3000, 5000 };
  dm_report r;
  int k = -1;
  char why[200];
  dm_sweep_plan p;

  curve_report (&r, "block=4K;qd=4");
  DM_CHECK_INT (r.n_results, ==, 1 + DM_SWEEP_CURVE_POINTS);
  DM_CHECK_INT (dm_sweep_curve_set_rates (&r), ==, -ENOENT); /* the maximum did not run */
  set_point (&r.results[0], 10000, 50);
  DM_CHECK_INT (dm_sweep_curve_set_rates (&r), ==, 0);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      DM_CHECK (r.results[1 + i].workload.rate_unit == DM_RATE_IOPS);
      DM_CHECK (r.results[1 + i].workload.rate == 100.0 * dm_sweep_curve_percent[i]);
      set_point (&r.results[1 + i], r.results[1 + i].workload.rate, p99[i]);
    }
  DM_CHECK_INT (dm_sweep_curve_best (&r, 1000, &k), ==, 0);
  DM_CHECK_INT (k, ==, 4);      /* 80 %: p99 at the bound counts as under it */
  DM_CHECK_INT (dm_sweep_curve_best (&r, 999, &k), ==, 0);
  DM_CHECK_INT (k, ==, 3);      /* 70 % */
  DM_CHECK_INT (dm_sweep_curve_best (&r, 50, &k), ==, -ENOENT); /* only the maximum is */
  DM_CHECK_INT (dm_sweep_curve_best (&r, 0, &k), ==, -ENOENT);
  DM_CHECK_INT (dm_sweep_curve_best (&r, 1e9, &k), ==, 0);
  DM_CHECK_INT (k, ==, 6);
  /* 90 % came out under the bound though 80 % did not: the highest wins. */
  r.results[5].latency.p99 = 900;
  DM_CHECK_INT (dm_sweep_curve_best (&r, 1000, &k), ==, 0);
  DM_CHECK_INT (k, ==, 5);
  r.results[5].status = DM_STATUS_FAILED;
  DM_CHECK_INT (dm_sweep_curve_best (&r, 1000, &k), ==, 0);
  DM_CHECK_INT (k, ==, 4);

  /* Saved and read back: the same kind, bound, choice and bytes. */
  dm_buf b, again;
  dm_report back;
  dm_sweep_plan back_plan;
  dm_buf_init (&b);
  dm_buf_init (&again);
  dm_sweep_plan_init (&p);
  p.kind = DM_SWEEP_RATES;
  p.latency_bound_us = 1000;
  r.status = DM_STATUS_COMPLETE;
  dm_sweep_write_json (&r, &p, &b);
  DM_CHECK_INT (dm_report_load_json (&back, b.data, b.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_sweep_plan_from_json (&back, b.data, b.len, &back_plan), ==, 0);
  DM_CHECK_INT (back_plan.kind, ==, DM_SWEEP_RATES);
  DM_CHECK (back_plan.latency_bound_us == 1000);
  DM_CHECK_INT (dm_sweep_curve_best (&back, 1000, &k), ==, 0);
  DM_CHECK_INT (k, ==, 4);
  dm_sweep_write_json (&back, &back_plan, &again);
  DM_CHECK (again.len == b.len && memcmp (again.data, b.data, b.len) == 0);
  DM_CHECK (strstr (b.data, "\"best_under_bound\": {\"percent\": 80,") != NULL);
  dm_report_clear (&back);
  dm_buf_free (&b);
  dm_buf_free (&again);
  dm_report_clear (&r);

  /* A workload with a rate of its own has no curve to make. */
  dm_sweep_plan_init (&p);
  DM_CHECK_INT (dm_workload_parse ("block=4K;rate=100", &p.workload, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_sweep_curve_report_init (&r, &p, &settings, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "rate") != NULL);
}

/* The block sweep's report: each size in each mode at one load, reads
 * first; a size whose blocks for every thread pass the test size is refused. */
static void
test_blocks_report (void)
{
  dm_sweep_plan p;
  dm_report r;
  char why[200];
  small_settings ();
  dm_sweep_plan_init (&p);
  p.kind = DM_SWEEP_BLOCKS;
  DM_CHECK_INT (dm_sweep_blocks_parse ("4K,...,1M", p.blocks, &p.n_blocks, why, sizeof why), ==, 0);
  p.queue_depths[0] = 4;
  p.threads[0] = 2;
  p.n_queue_depths = p.n_threads = 1;
  p.modes = DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE);
  DM_CHECK_INT (dm_sweep_blocks_report_init (&r, &p, &settings, why, sizeof why), ==, 0);
  DM_CHECK_INT (r.n_results, ==, 18);
  DM_CHECK (r.results[0].spec.block_size == 4096 && r.results[0].mode == DM_MODE_READ);
  DM_CHECK (r.results[8].spec.block_size == 1u << 20 && r.results[9].mode == DM_MODE_WRITE);
  DM_CHECK (r.results[3].spec.queue_depth == 4 && r.results[3].spec.threads == 2);
  DM_CHECK_INT (dm_sweep_kind_of (&r), ==, DM_SWEEP_BLOCKS);
  dm_report_clear (&r);
  p.blocks[p.n_blocks - 1] = 8u << 20;
  p.threads[0] = 4; /* 4 x 8 MiB in a 16 MiB file */
  DM_CHECK_INT (dm_sweep_blocks_report_init (&r, &p, &settings, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "test size") != NULL);
}

/* The curve through dm_sweep_run on the test backend (200 us a read, Q1):
 * the maximum first, then each point offered its share of what the
 * maximum reached, and reaching it, as the device is fast enough. */
static void
test_curve_run (void)
{
  dm_report r;
  dm_test_backend_config cfg = { 0 };
  cfg.latency_ns = 200000;
  curve_report (&r, "block=4K;qd=1");
  settings.measure_s = 0.3;
  r.settings.measure_s = 0.3;
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (&r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  /* As diskmeter-cli sweep and the Sweep window run it. */
  DM_CHECK_INT (dm_sweep_run (runner, &r), ==, 0);
  dm_runner_free (runner);
  double max = r.results[0].iops;
  DM_CHECK (max > 1000 && max < 5100);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      const dm_result *res = &r.results[1 + i];
      DM_CHECK_STR (dm_status_name (res->status), "complete");
      DM_CHECK (fabs (res->workload.rate - max * dm_sweep_curve_percent[i] / 100) <= 0.5);
      if (dm_sweep_curve_percent[i] <= 80)
        DM_CHECK (fabs (res->iops - res->workload.rate) <= 0.05 * res->workload.rate);
    }
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/sweep/defaults", test_defaults);
  DM_RUN ("/engine/sweep/list-parse", test_list_parse);
  DM_RUN ("/engine/sweep/order", test_order);
  DM_RUN ("/engine/sweep/bounds", test_bounds);
  DM_RUN ("/engine/sweep/estimate", test_estimate);
  DM_RUN ("/engine/sweep/knee-cap", test_knee_cap);
  DM_RUN ("/engine/sweep/knee-edges", test_knee_edges);
  DM_RUN ("/engine/sweep/knee-grid", test_knee_grid);
  DM_RUN ("/engine/sweep/saved-choice", test_saved_choice);
  DM_RUN ("/engine/sweep/writers", test_writers);
  DM_RUN ("/engine/sweep/plan-from-json", test_plan_from_json);
  DM_RUN ("/engine/sweep/run-cancel", test_run_cancel);
  DM_RUN ("/engine/sweep/blocks-parse", test_blocks_parse);
  DM_RUN ("/engine/sweep/bound-parse", test_bound_parse);
  DM_RUN ("/engine/sweep/blocks-report", test_blocks_report);
  DM_RUN ("/engine/sweep/curve-rates", test_curve_rates);
  DM_RUN ("/engine/sweep/curve-best", test_curve_best);
  DM_RUN ("/engine/sweep/curve-run", test_curve_run);
  return dm_test_done ();
}
