/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The throttle fingerprint on sweeps whose answer is known: a cap seen by
 * the device's counters (its queue short), a cap without counters (flat
 * from the lightest load), a cap over a latency floor, a device's knee
 * (rising, then flat, its queue full or not counted), a device that scales
 * with flat latency, noise around a cap and around growth, a backend that
 * did not hold the queue, latency that breaks Little's law; and the JSON
 * and text, read back from the file (with and without the member).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dm-json.h"
#include "dm-sweep-cap.h"
#include "dm-sweep.h"
#include "dm-test.h"

static void
model (dm_report *r, const unsigned *qd, unsigned n_qd, const unsigned *t, unsigned n_t)
{
  dm_sweep_plan p;
  dm_settings s;
  char why[200];
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = 16ull << 20;
  dm_sweep_plan_init (&p);
  memcpy (p.queue_depths, qd, n_qd * sizeof *qd);
  p.n_queue_depths = n_qd;
  memcpy (p.threads, t, n_t * sizeof *t);
  p.n_threads = n_t;
  DM_CHECK_INT (dm_sweep_report_init (r, &p, &s, 64, NULL, 0, why, sizeof why), ==, 0);
}

static unsigned
load_of (const dm_result *res)
{
  return (unsigned) res->spec.queue_depth * res->spec.threads;
}

/* A closed-loop point: its rate, and the mean latency Little's law gives
 * for its load (times fit, 1 for a perfect fit). */
static void
point (dm_result *res, double iops, double fit)
{
  res->status = DM_STATUS_COMPLETE;
  res->iops = iops;
  res->mb_per_s = iops * res->spec.block_size / 1e6;
  res->latency.mean = load_of (res) / iops * 1e6 * fit;
  res->latency.p99 = res->latency.mean * 2;
}

/* The device's counters for a point: queue I/Os at the device on average,
 * every byte reaching it, its flags as the runner sets them. */
static void
device (dm_result *res, double queue)
{
  dm_device_seen *d = &res->device;
  memset (d, 0, sizeof *d);
  d->counted = true;
  snprintf (d->name, sizeof d->name, "loop0");
  d->seconds = 1;
  d->reads = (uint64_t) res->iops;
  d->read_bytes = d->counted_bytes = d->reads * res->spec.block_size;
  d->avg_queue = queue;
  d->flags = dm_device_seen_flags (d, &(dm_device_ask) { res->spec.block_size,
                                                          res->spec.queue_depth,
                                                          res->spec.threads, 100 });
}

static const unsigned qds[] = { 1, 2, 4, 8, 16, 32 }, one[] = { 1 };

/* A 5000 IOPS cgroup or hypervisor limit in front of a fast device: every
 * load at the cap, each I/O 20 us at the device. */
static void
test_cap_counted (void)
{
  dm_report r;
  dm_sweep_cap cap;
  model (&r, qds, 6, one, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      point (&r.results[i], 5000, 1.01);
      device (&r.results[i], 0.1);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK (fabs (cap.iops - 5000) < 0.01);
  DM_CHECK (fabs (cap.mb_per_s - 20.48) < 0.01);
  DM_CHECK_INT (cap.first, ==, 0);
  DM_CHECK_INT (cap.last, ==, 5);
  DM_CHECK_INT (cap.n_points, ==, 6);
  DM_CHECK (cap.spread < 1e-9);
  DM_CHECK (fabs (cap.little_error - 0.01) < 1e-6);
  DM_CHECK (fabs (cap.latency_growth - 32) < 1e-6);
  DM_CHECK (cap.device_counted && fabs (cap.device_queue - 0.1) < 1e-9);
  DM_CHECK (!cap.by_bytes);

  /* The same curve with the device's queue full: the disk's own limit. */
  for (unsigned i = 0; i < r.n_results; i++)
    device (&r.results[i], load_of (&r.results[i]) * 0.95);
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "device_queue");
  DM_CHECK (cap.first == 0 && cap.n_points == 6);

  /* A cache served the bytes: the device's queue says nothing, the shape
   * decides (flat from the lightest load). */
  for (unsigned i = 0; i < r.n_results; i++)
    {
      device (&r.results[i], 0.1);
      r.results[i].device.read_bytes /= 4;
      r.results[i].device.flags = DM_FLAG_CACHE_SUSPECTED;
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK (!cap.device_counted);

  /* A backend that kept one I/O per thread whatever Q: flat by its doing. */
  for (unsigned i = 0; i < r.n_results; i++)
    {
      device (&r.results[i], 0.1);
      r.results[i].device.os_counted = true;
      r.results[i].device.os_queue = 1;
      r.results[i].device.flags |= DM_FLAG_QUEUE_NOT_HELD;
      r.results[i].latency.mean = 200;
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "queue_not_held");
  dm_report_clear (&r);
}

/* Without device counters a cap is flat from the lightest load; slow-fs
 * with 4 reads in service (10 ms each) rises to QD 4 first: its knee. */
static void
test_cap_or_knee_uncounted (void)
{
  dm_report r;
  dm_sweep_cap cap;
  int knee = -1;
  model (&r, qds, 6, one, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    point (&r.results[i], 5000, 1.02);
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK (!cap.device_counted);

  for (unsigned i = 0; i < r.n_results; i++)
    {
      double q = r.results[i].spec.queue_depth;
      point (&r.results[i], fmin (q, 4) / 0.010, 1.02);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "grows_first");
  DM_CHECK_INT (r.results[cap.first].spec.queue_depth, ==, 4);
  DM_CHECK_INT (cap.n_points, ==, 4);
  DM_CHECK (fabs (cap.iops - 400) < 0.01);
  DM_CHECK_INT (dm_sweep_knee (&r, &knee), ==, 0);
  DM_CHECK_INT (r.results[knee].spec.queue_depth, ==, 4);

  /* The same knee with its queue at the device: the device's own limit. */
  for (unsigned i = 0; i < r.n_results; i++)
    device (&r.results[i], load_of (&r.results[i]));
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "device_queue");

  /* A cap over a 2 ms latency floor, the device counted with its queue
   * short: the cap is found though the curve rose to it. */
  for (unsigned i = 0; i < r.n_results; i++)
    {
      double q = r.results[i].spec.queue_depth;
      point (&r.results[i], fmin (q / 0.002, 2000), 1);
      device (&r.results[i], 0.5);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK_INT (r.results[cap.first].spec.queue_depth, ==, 4);
  DM_CHECK (fabs (cap.iops - 2000) < 0.01);
  dm_report_clear (&r);
}

/* A device that scales: throughput doubles with the load and latency is
 * flat. Noise of a few per cent on either curve changes nothing. */
static void
test_scales_and_noise (void)
{
  static const double noise[] = { 1.03, 0.97, 1.04, 0.96, 1.02, 0.98 };
  dm_report r;
  dm_sweep_cap cap;
  model (&r, qds, 6, one, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      point (&r.results[i], 10000.0 * r.results[i].spec.queue_depth * noise[i], 1);
      device (&r.results[i], r.results[i].spec.queue_depth);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "not_flat");
  DM_CHECK_INT (cap.first, ==, -1);
  /* Latency flat at 100 us whatever the load: not a fixed rate either. */
  for (unsigned i = 0; i < r.n_results; i++)
    DM_CHECK (fabs (r.results[i].latency.mean - 100 / noise[i]) < 1e-6);

  /* Noise of +-4 % around a 3000 IOPS cap: still the cap, its median. */
  for (unsigned i = 0; i < r.n_results; i++)
    {
      point (&r.results[i], 3000 * noise[i], 1.05);
      device (&r.results[i], 0.3);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK (fabs (cap.iops - 3000) < 0.01);
  DM_CHECK (fabs (cap.spread - 0.04) < 1e-6);

  /* Swings of 15 % among the heaviest loads are no level: not flat. */
  r.results[4].iops = 3500;
  r.results[5].iops = 2900;
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "not_flat");

  /* Flat throughput with latency far from QD x T / rate (a clock that
   * lies, a file edited by hand): no cap is called on it. */
  for (unsigned i = 0; i < r.n_results; i++)
    {
      point (&r.results[i], 3000, 1);
      device (&r.results[i], 0.3);
    }
  r.results[5].latency.mean *= 1.5;
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "not_littles_law");
  DM_CHECK (fabs (cap.little_error - 0.5) < 1e-6);
  dm_report_clear (&r);
}

/* Too little to judge: two loads, a span under 4 x, pending points. */
static void
test_too_few (void)
{
  static const unsigned two[] = { 1, 2 }, close[] = { 4, 8, 12 };
  dm_report r;
  dm_sweep_cap cap;
  model (&r, two, 2, one, 1);
  point (&r.results[0], 1000, 1);
  point (&r.results[1], 1000, 1);
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "too_few_loads");
  dm_report_clear (&r);
  model (&r, close, 3, one, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    point (&r.results[i], 1000, 1);
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "too_few_loads");
  dm_report_clear (&r);
  model (&r, qds, 6, one, 1);
  point (&r.results[0], 1000, 1);
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "too_few_loads");
  DM_CHECK (strlen (dm_sweep_cap_verdict_text (cap.verdict)) > 10);
  DM_CHECK_STR (dm_sweep_cap_verdict_name ((dm_sweep_cap_verdict) 99), "?");
  dm_report_clear (&r);
}

/* QD x T: equal loads stand for one point, the best of them; a large
 * block says its rate in MB/s first. */
static void
test_grid_and_bytes (void)
{
  static const unsigned q[] = { 1, 2, 4, 8 }, t[] = { 1, 2, 4 };
  dm_report r;
  dm_sweep_cap cap;
  dm_buf b;
  model (&r, q, 4, t, 3);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      r.results[i].spec.block_size = 1 << 20;
      point (&r.results[i], 400 * (r.results[i].spec.threads == 2 ? 0.99 : 1), 1);
      device (&r.results[i], 0.8);
    }
  dm_sweep_cap_find (&r, &cap);
  DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
  DM_CHECK_INT (cap.n_points, ==, 6); /* loads 1, 2, 4, 8, 16, 32 */
  DM_CHECK_INT (cap.load, ==, 32);
  DM_CHECK (cap.by_bytes);
  DM_CHECK (fabs (cap.mb_per_s - 419.4304) < 0.001);
  dm_buf_init (&b);
  dm_sweep_cap_write_text (&cap, &r, &b);
  DM_CHECK (strstr (b.data, "Rate cap: capped near 419.4 MB/s (400 IOPS) by something outside "
                            "this disk") != NULL);
  DM_CHECK (strstr (b.data, "6 loads from Q1T1 to Q8T4 within 0.0 %") != NULL);
  DM_CHECK (strstr (b.data, "the device's own queue 0.8 of 32 in flight at Q8T4") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

static const dm_json *
rate_cap_of (const dm_json_doc *doc)
{
  return dm_json_get (dm_json_get (doc->root, "sweep"), "rate_cap");
}

/* The JSON carries the verdict and its evidence; the file read back gives
 * the same bytes, and one written before the member existed the same
 * verdict. The text names the rate, the points and the fit. */
static void
test_writers (void)
{
  dm_report r, again;
  dm_sweep_plan p;
  dm_sweep_cap cap;
  dm_buf a, b;
  dm_json_doc doc = { 0 };
  char why[200];
  model (&r, qds, 5, one, 1);
  dm_sweep_plan_init (&p);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      point (&r.results[i], 5000.0004 + i * 0.0001, 1.0133333);
      device (&r.results[i], 0.1234567);
    }
  dm_buf_init (&a);
  dm_buf_init (&b);
  dm_sweep_write_json (&r, NULL, &a);
  DM_CHECK_INT (dm_json_parse (a.data, a.len, &doc, why, sizeof why), ==, 0);
  const dm_json *c = rate_cap_of (&doc);
  DM_CHECK (c && dm_json_get_bool (c, "capped", false));
  DM_CHECK_STR (dm_json_get_string (c, "verdict", ""), "capped");
  DM_CHECK (fabs (dm_json_get_number (c, "iops", 0) - 5000) < 0.01);
  DM_CHECK (dm_json_get_number (dm_json_get (c, "to"), "queue_depth", 0) == 16);
  DM_CHECK (dm_json_get_number (c, "loads", 0) == 5);
  DM_CHECK (fabs (dm_json_get_number (c, "littles_law_error_percent", 0) - 1.333) < 0.01);
  DM_CHECK (fabs (dm_json_get_number (c, "device_avg_queue", 0) - 0.123) < 1e-9);
  dm_json_free (&doc);

  DM_CHECK_INT (dm_report_load_json (&again, a.data, a.len, why, sizeof why), ==, 0);
  dm_sweep_write_json (&again, NULL, &b);
  DM_CHECK (a.len == b.len && memcmp (a.data, b.data, a.len) == 0);
  dm_report_clear (&again);

  /* An older file: no rate_cap member. It loads, and gets the verdict. */
  char *at = strstr (a.data, ",\n    \"rate_cap\"");
  DM_CHECK (at != NULL);
  if (at)
    {
      char *end = strchr (at + 2, '}');
      end = end ? strchr (end + 1, '}') : NULL; /* "from", "to" are objects too */
      end = end ? strchr (end + 1, '}') : NULL;
      DM_CHECK (end != NULL);
      if (end)
        memmove (at, end + 1, strlen (end + 1) + 1);
      DM_CHECK (strstr (a.data, "rate_cap") == NULL);
      DM_CHECK_INT (dm_report_load_json (&again, a.data, strlen (a.data), why, sizeof why), ==, 0);
      DM_CHECK_INT (dm_sweep_plan_from_json (&again, a.data, strlen (a.data), &p), ==, 0);
      dm_sweep_cap_find (&again, &cap);
      DM_CHECK_STR (dm_sweep_cap_verdict_name (cap.verdict), "capped");
      dm_report_clear (&again);
    }

  dm_buf_free (&b);
  dm_buf_init (&b);
  dm_sweep_write_text (&r, NULL, &b);
  DM_CHECK (strstr (b.data, "Rate cap: capped near 5000 IOPS (20.5 MB/s) by something outside "
                            "this disk (a VM or datastore limit, a cloud tier)\n") != NULL);
  DM_CHECK (strstr (b.data, "Evidence: 5 loads from Q1T1 to Q16T1 within 0.0 % of 5000 IOPS") != NULL);
  DM_CHECK (strstr (b.data, "mean latency within 1.3 % of QD x T / rate (Little's law), 16.0 x")
            != NULL);

  /* Not capped: the reason, and the flat run's evidence where one was. */
  for (unsigned i = 0; i < r.n_results; i++)
    device (&r.results[i], load_of (&r.results[i]));
  dm_buf_free (&b);
  dm_buf_init (&b);
  dm_sweep_write_text (&r, NULL, &b);
  DM_CHECK (strstr (b.data, "Rate cap: none: the device's own queue held the load") != NULL);
  DM_CHECK (strstr (b.data, "the device's own queue 16.0 of 16 in flight at Q16T1") != NULL);
  dm_buf_free (&a);
  dm_buf_init (&a);
  dm_sweep_write_json (&r, NULL, &a);
  DM_CHECK_INT (dm_json_parse (a.data, a.len, &doc, why, sizeof why), ==, 0);
  c = rate_cap_of (&doc);
  DM_CHECK (c && !dm_json_get_bool (c, "capped", true));
  DM_CHECK_STR (dm_json_get_string (c, "verdict", ""), "device_queue");
  dm_json_free (&doc);
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/sweep-cap/cap-counted", test_cap_counted);
  DM_RUN ("/engine/sweep-cap/cap-or-knee-uncounted", test_cap_or_knee_uncounted);
  DM_RUN ("/engine/sweep-cap/scales-and-noise", test_scales_and_noise);
  DM_RUN ("/engine/sweep-cap/too-few", test_too_few);
  DM_RUN ("/engine/sweep-cap/grid-and-bytes", test_grid_and_bytes);
  DM_RUN ("/engine/sweep-cap/writers", test_writers);
  return dm_test_done ();
}
