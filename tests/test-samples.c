/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline through the in-memory test backend: samples cover the
 * measured runs byte for byte, Mix keeps reads and writes apart, a sample's
 * p99 agrees with the histogram's, progress carries the last sample and a
 * time left that ticks, JSON and CSV carry the samples and read back
 * unchanged, and one pass (the sustained test) moves the file exactly once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"

static const char *target = ".";

static void
prepare (dm_report *r, const char *test, unsigned modes, unsigned count, double measure_s,
         double sample_s)
{
  dm_settings s;
  dm_spec spec;
  dm_settings_init (&s);
  s.count = count;
  s.test_size = 16ull << 20;
  s.measure_s = measure_s;
  s.warmup_s = 0.1;
  s.interval_s = 0;
  DM_CHECK (dm_spec_parse (test, &spec, NULL, 0) == 0);
  DM_CHECK (dm_report_init (r, &s, &spec, 1, modes) == 0);
  r->sample_s = sample_s;
}

typedef struct watch {
  unsigned calls;       /* progress calls while measuring */
  unsigned with_sample; /* ... that carried a closed sample */
  unsigned ticks;       /* ... whose time left went down from the call before */
  double   last_left;
} watch;

static void
on_progress (void *user, const dm_progress *p)
{
  watch *w = user;
  if (p->phase != DM_PHASE_MEASURE)
    return;
  if (w->calls && p->seconds_left < w->last_left - 1e-9)
    w->ticks++;
  w->calls++;
  w->last_left = p->seconds_left;
  if (p->sample.t > 0 && p->sample.all.mb_per_s > 0)
    w->with_sample++;
}

static int
run (dm_report *r, watch *w, int pass)
{
  dm_test_backend_config cfg = { .latency_ns = 200000 };
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  if (w)
    dm_runner_set_progress (runner, on_progress, w);
  if (pass >= 0)
    dm_runner_set_pass (runner, pass);
  int err = dm_runner_run (runner);
  dm_runner_free (runner);
  return err;
}

/* Bytes of a sample, back from its rate and length. */
static double
sample_bytes (const dm_result *res, unsigned k, const dm_sample_figures *f)
{
  double start = k ? res->samples[k - 1].t : 0;
  return f->mb_per_s * 1e6 * (res->samples[k].t - start);
}

static void
test_timeline (void)
{
  dm_report r;
  watch w = { 0 };
  prepare (&r, "RND4K_Q8T2", DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_MIX), 2, 0.5, 0.1);
  DM_CHECK_INT (run (&r, &w, -1), ==, 0);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];
      DM_CHECK_INT (res->n_samples, ==, 10);
      DM_CHECK (fabs (res->sample_s - 0.1) < 1e-9);
      double bytes = 0, runs = 0, split = 0;
      for (unsigned k = 0; k < res->n_samples; k++)
        {
          const dm_sample *s = &res->samples[k];
          DM_CHECK (fabs (s->t - 0.1 * (k + 1)) < 1e-9);
          DM_CHECK (s->all.mb_per_s > 0 && s->all.iops > 0);
          DM_CHECK (s->all.latency_us_mean > 0 && s->all.latency_us_p99 >= s->all.latency_us_mean * 0.5);
          bytes += sample_bytes (res, k, &s->all);
          if (res->mode == DM_MODE_MIX)
            {
              DM_CHECK (s->read.iops > 0 && s->write.iops > 0);
              split += sample_bytes (res, k, &s->read) + sample_bytes (res, k, &s->write);
            }
          else
            DM_CHECK (s->read.iops == 0 && s->write.iops == 0);
        }
      for (unsigned k = 0; k < res->n_runs; k++)
        runs += (double) res->runs[k].bytes;
      /* The same batches counted twice: the samples add up to the runs. */
      DM_CHECK (runs > 0 && fabs (bytes - runs) < 1e-6 * runs);
      if (res->mode == DM_MODE_MIX)
        DM_CHECK (fabs (split - runs) < 1e-6 * runs);
    }
  /* Live figures: the last sample, and a time left that goes down. */
  DM_CHECK (w.with_sample > 0);
  DM_CHECK (w.ticks * 2 > w.calls);
  dm_report_clear (&r);
}

/* One sample over the whole run: its p99 is the histogram's within the
 * sample buckets' resolution (1.6%) plus the histogram's own (0.8%). */
static void
test_p99 (void)
{
  dm_report r;
  prepare (&r, "SEQ128K_Q4T1", DM_MODE_BIT (DM_MODE_WRITE), 1, 0.4, 0.4);
  DM_CHECK_INT (run (&r, NULL, -1), ==, 0);
  dm_result *res = &r.results[0];
  DM_CHECK_INT (res->n_samples, ==, 1);
  double p99 = res->samples[0].all.latency_us_p99, want = res->latency.p99;
  DM_CHECK (want > 0 && fabs (p99 - want) <= 0.025 * want);
  DM_CHECK (fabs (res->samples[0].all.latency_us_mean - res->latency.mean) < 0.001 * want);
  dm_report_clear (&r);
}

/* A run whose length is no multiple of the step ends in a shorter sample. */
static void
test_partial_last (void)
{
  dm_report r;
  prepare (&r, "SEQ1M_Q2T1", DM_MODE_BIT (DM_MODE_READ), 1, 0.5, 0.2);
  DM_CHECK_INT (run (&r, NULL, -1), ==, 0);
  dm_result *res = &r.results[0];
  DM_CHECK_INT (res->n_samples, ==, 3);
  DM_CHECK (fabs (res->samples[2].t - 0.5) < 1e-9);
  double bytes = 0;
  for (unsigned k = 0; k < res->n_samples; k++)
    bytes += sample_bytes (res, k, &res->samples[k].all);
  DM_CHECK (fabs (bytes - (double) res->runs[0].bytes) < 1e-6 * (double) res->runs[0].bytes);
  dm_report_clear (&r);
}

static void
test_json_csv (void)
{
  dm_report r, back;
  dm_buf a, b, csv;
  char why[200];
  prepare (&r, "RND4K_Q8T1", DM_MODE_BIT (DM_MODE_WRITE) | DM_MODE_BIT (DM_MODE_MIX), 1, 0.3, 0.1);
  DM_CHECK_INT (run (&r, NULL, -1), ==, 0);
  dm_buf_init (&a);
  dm_report_write_json (&r, &a);
  DM_CHECK (strstr (a.data, "\"samples\": [") && strstr (a.data, "\"latency_us_p99\"")
            && strstr (a.data, "\"read\": {"));
  DM_CHECK_INT (dm_report_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (back.results[1].n_samples, ==, r.results[1].n_samples);
  dm_buf_init (&b);
  dm_report_write_json (&back, &b);
  DM_CHECK_STR (b.data, a.data);

  /* One row per sample, and the header. */
  dm_buf_init (&csv);
  dm_report_write_samples_csv (&back, &csv);
  unsigned rows = 0;
  for (const char *p = csv.data; (p = strstr (p, "\r\n")); p += 2)
    rows++;
  DM_CHECK_INT (rows, ==, 1 + r.results[0].n_samples + r.results[1].n_samples);
  DM_CHECK (strstr (csv.data, "RND4K_Q8T1,mix,0.1,"));

  /* A copy owns its own timeline. */
  dm_result_copy (&back.results[0], &r.results[1]);
  DM_CHECK (back.results[0].samples != r.results[1].samples);
  DM_CHECK_INT (back.results[0].n_samples, ==, r.results[1].n_samples);

  /* A file from before the timeline reads back without one, unchanged. */
  for (unsigned i = 0; i < r.n_results; i++)
    dm_result_set_samples (&r.results[i], NULL, 0, 0);
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_init (&a);
  dm_report_write_json (&r, &a);
  DM_CHECK (!strstr (a.data, "samples"));
  dm_report_clear (&back);
  DM_CHECK_INT (dm_report_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (back.results[0].n_samples, ==, 0);
  dm_buf_init (&b);
  dm_report_write_json (&back, &b);
  DM_CHECK_STR (b.data, a.data);

  /* A broken timeline is refused with a reason. */
  const char *bad = strstr (a.data, "\"cpu_percent\"");
  DM_CHECK (bad);
  dm_buf c;
  dm_buf_init (&c);
  dm_buf_addn (&c, a.data, (size_t) (bad - a.data));
  dm_buf_add (&c, "\"samples\": [ 3 ], ");
  dm_buf_add (&c, bad);
  dm_report bad_r;
  DM_CHECK_INT (dm_report_load_json (&bad_r, c.data, c.len, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "sample"));

  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&c);
  dm_buf_free (&csv);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

/* One pass writes the file exactly once, without filling it first, and
 * ends long before its time runs out. */
static void
test_pass (void)
{
  dm_report r;
  prepare (&r, "SEQ1M_Q4T2", DM_MODE_BIT (DM_MODE_WRITE), 1, 30, 0.1);
  r.settings.warmup_s = 0;
  uint64_t t0 = dm_clock_ns ();
  DM_CHECK_INT (run (&r, NULL, 0), ==, 0);
  dm_result *res = &r.results[0];
  DM_CHECK_STR (dm_status_name (res->status), "complete");
  DM_CHECK_INT (r.prepare_bytes, ==, 0);
  DM_CHECK_INT (res->n_runs, ==, 1);
  DM_CHECK_INT (res->runs[0].bytes, ==, 16ull << 20);
  DM_CHECK (res->runs[0].seconds < 10);
  DM_CHECK (dm_clock_ns () - t0 < 10ull * 1000000000);
  DM_CHECK (res->n_samples >= 1 && res->samples[res->n_samples - 1].t <= res->runs[0].seconds + 1e-9);
  dm_report_clear (&r);

  /* A read pass fills the file first. */
  prepare (&r, "SEQ1M_Q4T1", DM_MODE_BIT (DM_MODE_READ), 1, 30, 0.1);
  r.settings.warmup_s = 0;
  DM_CHECK_INT (run (&r, NULL, 1), ==, 0);
  DM_CHECK_INT (r.prepare_bytes, ==, 16ull << 20);
  DM_CHECK_INT (r.results[0].runs[0].bytes, ==, 16ull << 20);
  dm_report_clear (&r);
}

static void
test_bad_step (void)
{
  dm_report r;
  prepare (&r, "SEQ1M_Q1T1", DM_MODE_BIT (DM_MODE_READ), 1, 0.2, 0.05);
  DM_CHECK_INT (run (&r, NULL, -1), ==, -EINVAL);
  DM_CHECK (strstr (r.error, "sample step"));
  dm_report_clear (&r);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/engine/samples/timeline", test_timeline);
  DM_RUN ("/engine/samples/p99", test_p99);
  DM_RUN ("/engine/samples/partial-last", test_partial_last);
  DM_RUN ("/engine/samples/json-csv", test_json_csv);
  DM_RUN ("/engine/samples/pass", test_pass);
  DM_RUN ("/engine/samples/bad-step", test_bad_step);
  return dm_test_done ();
}
