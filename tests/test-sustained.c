/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sustained test's analysis on timelines whose truth is arithmetic: a
 * rate that halves for good at a known byte (also inside a sample), one
 * that only dips, noise around the cliff, a cache shorter than the
 * opening window; the live cliff the same as its saved file's; the
 * free-space margin and the span a target gives; and a run through the
 * test backend whose JSON carries the cliff and reads back unchanged.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-runner.h"
#include "dm-sustained.h"
#include "dm-test-backend.h"
#include "dm-test.h"

/* A device writing `fast` MB/s until `cache` MB, then `slow` MB/s, seen in
 * samples of `step` s over `secs` s (each sample's mean rate). */
static unsigned
two_rates (dm_sample *s, double fast, double slow, double cache, double step, double secs)
{
  unsigned n = (unsigned) llround (secs / step);
  double t_cliff = cache / fast;
  for (unsigned k = 0; k < n; k++)
    {
      double a = k * step, b = a + step, mb;
      if (b <= t_cliff)
        mb = fast * step;
      else if (a >= t_cliff)
        mb = slow * step;
      else
        mb = fast * (t_cliff - a) + slow * (b - t_cliff);
      memset (&s[k], 0, sizeof s[k]);
      s[k].t = b;
      s[k].all.mb_per_s = mb / step;
    }
  return n;
}

static void
test_cliff (void)
{
  static dm_sample s[4000];
  dm_sustained_cliff c;

  /* On a sample's edge, and inside one. */
  double caches[] = { 1000, 1234.5, 640 };
  for (unsigned i = 0; i < 3; i++)
    {
      unsigned n = two_rates (s, 500, 100, caches[i], 0.5, 30);
      dm_sustained_find_cliff (s, n, &c);
      DM_CHECK (c.found);
      DM_CHECK (fabs ((double) c.cache_bytes / 1e6 - caches[i]) < 0.01 * caches[i]);
      DM_CHECK (fabs (c.before_mb_per_s - 500) < 5 && fabs (c.after_mb_per_s - 100) < 1);
      DM_CHECK (fabs (c.at_s - caches[i] / 500) < 0.05);
    }

  /* A cache of 0.3 s seen in 0.1 s samples: shorter than the opening
   * window, still found. */
  unsigned n = two_rates (s, 1000, 200, 300, 0.1, 5);
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (c.found && fabs ((double) c.cache_bytes / 1e6 - 300) < 6);

  /* Noise: +-10% on every sample, one burst back up after the cliff. */
  n = two_rates (s, 400, 120, 2000, 0.5, 40);
  for (unsigned k = 0; k < n; k++)
    s[k].all.mb_per_s *= 1 + 0.1 * sin (k * 1.7);
  s[n - 10].all.mb_per_s = 390;
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (c.found);
  DM_CHECK (fabs ((double) c.cache_bytes / 1e6 - 2000) < 0.05 * 2000);

  /* A dip that recovers is no cliff; nor is a steady rate. */
  n = two_rates (s, 300, 300, 0, 0.5, 20);
  for (unsigned k = 10; k < 16; k++)
    s[k].all.mb_per_s = 100;
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (!c.found);
  DM_CHECK (fabs (c.before_mb_per_s - 300) < 1 && fabs (c.after_mb_per_s - 300) < 1);

  /* A fall to 60% is no cliff either: the rate must fall below half. */
  n = two_rates (s, 300, 180, 1500, 0.5, 20);
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (!c.found);

  dm_sustained_find_cliff (s, 0, &c);
  DM_CHECK (!c.found);

  /* A run that ends with a short last sample: 0.02 s at 232.5 MB/s after
   * a cache that ran out at 50 MB/s (slow-fs's, under AddressSanitizer).
   * A sliver of time moved next to nothing: it is one sample by count,
   * but must not outvote the seconds before it. */
  static const double sliver[] = { 50.3, 50.3, 52.4, 50.3, 50.3, 27.3, 16.8, 16.8, 16.8,
                                   18.9, 16.8, 16.8, 16.8, 232.5 };
  n = sizeof sliver / sizeof sliver[0];
  memset (s, 0, n * sizeof s[0]);
  for (unsigned k = 0; k < n; k++)
    {
      s[k].t = k + 1 < n ? 0.5 * (k + 1) : 0.5 * k + 0.02;
      s[k].all.mb_per_s = sliver[k];
    }
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (c.found);
  DM_CHECK (c.at_s > 2.5 && c.at_s < 3.0);
  DM_CHECK (fabs (c.before_mb_per_s - 50.3) < 0.5 && fabs (c.after_mb_per_s - 16.8) < 0.5);
  /* The same run seen as the window and a saved file see it. */
  dm_sustained_find_cliff_as_saved (s, n, &c);
  DM_CHECK (c.found && c.at_s > 2.5 && c.at_s < 3.0);

  /* But a slow sample just before the end, followed by a short one, is
   * one dip, not a cliff: the verdict needs more than one sample's time. */
  n = two_rates (s, 300, 300, 0, 0.5, 20);
  s[n - 2].all.mb_per_s = 100;
  s[n - 1].t = s[n - 2].t + 0.02;
  s[n - 1].all.mb_per_s = 100;
  dm_sustained_find_cliff (s, n, &c);
  DM_CHECK (!c.found);
}

/* The live window finds the cliff on the samples as a saved file keeps
 * them: a timeline whose figures do not round evenly names, live, the very
 * cliff its JSON names once written and read back. */
static void
test_cliff_as_saved (void)
{
  static dm_sample s[400];
  dm_sustained_plan p;
  dm_settings base;
  dm_sustained_cliff live, loaded;
  dm_report r, back;
  dm_buf json;
  char why[200];
  unsigned n = two_rates (s, 1000.0 / 3, 100.0 / 7, 1234.5678, 0.1, 30);

  for (unsigned k = 0; k < n; k++)
    {
      s[k].t += 1.23456789e-7 * (k % 7);
      s[k].all.mb_per_s *= 1 + 1e-5 * (k % 5);
    }
  dm_sustained_plan_init (&p);
  p.duration_s = 30;
  p.sample_s = 0.1;
  dm_settings_init (&base);
  DM_CHECK_INT (dm_sustained_report_init (&r, &p, 2ull << 30, &base, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_result_set_samples (&r.results[0], s, n, 0.1), ==, 0);
  dm_sustained_find_cliff_as_saved (s, n, &live);
  DM_CHECK (live.found);

  dm_buf_init (&json);
  dm_sustained_write_json (&r, &json);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (back.results[0].n_samples, ==, n);
  dm_sustained_find_cliff (back.results[0].samples, n, &loaded);
  DM_CHECK (loaded.found);
  DM_CHECK_INT (live.cache_bytes, ==, loaded.cache_bytes);
  DM_CHECK (live.at_s == loaded.at_s && live.before_mb_per_s == loaded.before_mb_per_s
            && live.after_mb_per_s == loaded.after_mb_per_s);
  dm_buf_free (&json);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

/* The span each front end runs over: the same rules for the command line
 * and the window, on a folder and on a disk. */
static void
test_span (void)
{
  dm_target_info folder = { 0 }, disk = { 0 };
  uint64_t span = 0;

  /* 100 GiB with 50 GiB free: "free" leaves 5 GiB, a read by default
   * reads 4 GiB of it, a size given is taken as it is (the test file's
   * creation checks it). */
  folder.size_bytes = 100ull << 30;
  folder.free_bytes = 50ull << 30;
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_WRITE, DM_SUSTAINED_SPAN_FREE, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, 45ull << 30);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_WRITE, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, 45ull << 30);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_READ, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, DM_SUSTAINED_READ_SPAN_DEFAULT);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_READ, DM_SUSTAINED_SPAN_FREE, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, 45ull << 30);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_READ, DM_SUSTAINED_SPAN_SIZE,
                                           200ull << 30, &span), ==, 0);
  DM_CHECK_INT (span, ==, 200ull << 30);

  /* Past the margin less than the smallest test file is left: refused. */
  folder.size_bytes = 4ull << 30;
  folder.free_bytes = (1ull << 30) + (8ull << 20);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_WRITE, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, -ENOSPC);
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_READ, DM_SUSTAINED_SPAN_FREE, 0,
                                           &span), ==, -ENOSPC);
  folder.free_bytes = (1ull << 30) + DM_TEST_SIZE_MIN;
  DM_CHECK_INT (dm_sustained_resolve_span (&folder, DM_MODE_WRITE, DM_SUSTAINED_SPAN_FREE, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, DM_TEST_SIZE_MIN);

  /* A disk is never written; read, it is read from its start in whole
   * MiB, by default 4 GiB of it, at most DM_TEST_SIZE_MAX. */
  disk.is_block_device = true;
  disk.size_bytes = (2ull << 30) + 12345;
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_WRITE, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, -EPERM);
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_WRITE, DM_SUSTAINED_SPAN_SIZE,
                                           16ull << 20, &span), ==, -EPERM);
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_READ, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, 2ull << 30);
  disk.size_bytes = 1ull << 40;
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_READ, DM_SUSTAINED_SPAN_DEFAULT, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, DM_SUSTAINED_READ_SPAN_DEFAULT);
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_READ, DM_SUSTAINED_SPAN_FREE, 0,
                                           &span), ==, 0);
  DM_CHECK_INT (span, ==, DM_TEST_SIZE_MAX);
  DM_CHECK_INT (dm_sustained_resolve_span (&disk, DM_MODE_READ, DM_SUSTAINED_SPAN_SIZE,
                                           16ull << 20, &span), ==, 0);
  DM_CHECK_INT (span, ==, 16ull << 20);
}

static void
test_margin (void)
{
  /* 5% of a large filesystem, 1 GiB of a small one. */
  DM_CHECK_INT (dm_sustained_margin (100ull << 30), ==, 5ull << 30);
  DM_CHECK_INT (dm_sustained_margin (4ull << 30), ==, 1ull << 30);
  DM_CHECK_INT (dm_sustained_free_span ((3ull << 30) + 12345, 4ull << 30), ==, 2ull << 30);
  DM_CHECK_INT (dm_sustained_free_span (1ull << 30, 4ull << 30), ==, 0);
  DM_CHECK_INT (dm_sustained_free_span (900ull << 30, 1000ull << 30), ==, DM_TEST_SIZE_MAX);
}

static void
test_run (void)
{
  dm_sustained_plan p;
  dm_settings s;
  dm_report r, back;
  char why[200];

  dm_sustained_plan_init (&p);
  DM_CHECK (p.mode == DM_MODE_WRITE && p.pattern == DM_SEQ && p.block_size == 1u << 20
            && p.queue_depth == 8 && p.threads == 1 && p.duration_s == 60);
  dm_settings_init (&s);
  p.duration_s = 20;
  p.sample_s = 0.1;
  DM_CHECK_INT (dm_sustained_report_init (&r, &p, 15ull << 20, &s, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "span"));
  DM_CHECK_INT (dm_sustained_report_init (&r, &p, 32ull << 20, &s, why, sizeof why), ==, 0);
  DM_CHECK_STR (r.profile, "sustained");

  dm_test_backend_config cfg = { .latency_ns = 2000000 };
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (&r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  dm_runner_set_pass (runner, false);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  DM_CHECK_INT (r.results[0].runs[0].bytes, ==, 32ull << 20);
  DM_CHECK (r.results[0].n_samples >= 1);

  dm_buf a, b, t;
  dm_buf_init (&a);
  dm_sustained_write_json (&r, &a);
  DM_CHECK (strstr (a.data, "\"sustained\": {") && strstr (a.data, "\"cache_bytes\": null")
            && strstr (a.data, "\"before_mb_per_s\""));
  DM_CHECK_INT (dm_report_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK (dm_sustained_is (&back, a.data, a.len));
  dm_buf_init (&b);
  dm_sustained_write_json (&back, &b);
  DM_CHECK_STR (b.data, a.data);
  dm_buf_init (&t);
  dm_sustained_write_text (&back, &t);
  DM_CHECK (strstr (t.data, "Sustained SEQ1M_Q8T1 write") && strstr (t.data, "No cliff")
            && strstr (t.data, "MB/s\n"));
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&t);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/sustained/cliff", test_cliff);
  DM_RUN ("/engine/sustained/cliff-as-saved", test_cliff_as_saved);
  DM_RUN ("/engine/sustained/margin", test_margin);
  DM_RUN ("/engine/sustained/span", test_span);
  DM_RUN ("/engine/sustained/run", test_run);
  return dm_test_done ();
}
