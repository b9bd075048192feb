/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each I/O's latency is its own: the runner's figures against what the
 * test backend itself timed for every I/O it served, from its prep to its
 * completion, on the backend's own clock. Even slots take one service,
 * odd slots another, and a reap hands back every I/O due by then, so the
 * batches are large and hold I/Os of one class. The runner's mean latency
 * must be the backend's (from at most a little above: its clock reads
 * bracket the backend's), its histogram must split the I/Os into the two
 * classes as the backend counted them, and IOPS x mean latency (Little's
 * law) must be the mean number of I/Os the backend held. A runner that
 * counted the time it spends between batches (accounting one batch,
 * making the data of the next) into the next I/Os' latency, as Diskmeter
 * did when it stamped them with the reap's clock, fails the mean and
 * Little's law by the cost of making the data.
 */
#include <math.h>
#include <stdio.h>

#include "dm-latency.h"
#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"
#include "dm-workload.h"

#ifdef __SANITIZE_THREAD__
static const bool sanitized_threads = true;
#else
static const bool sanitized_threads = false;
#endif

#define FAST_NS 1000000ull  /* even slots */
#define SLOW_NS 6000000ull  /* odd slots */
#define SLOWER_NS 30000000ull  /* odd slots of the writes, beyond a batch's making */

static const char *target = ".";

static void
settings (dm_settings *s)
{
  dm_settings_init (s);
  s->count = 1;
  s->test_size = 64ull << 20;
  s->measure_s = 0.6;
  s->warmup_s = 0;
  s->interval_s = 0;
}

static int
run (dm_report *r, uint64_t slow_ns)
{
  dm_test_backend_config cfg = { .service_ns = { FAST_NS, slow_ns } };
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  int err = dm_runner_run (runner);
  dm_runner_free (runner);
  return err;
}

/* The runner's figures of one result against the backend's own. split_ns
 * lies between the two classes' times: every I/O below it is a fast one. */
static void
check_against_backend (const dm_result *res, const dm_histogram *h, unsigned depth,
                       double split_ns)
{
  dm_test_served sv;
  dm_test_backend_served (&sv);
  const dm_histogram *truth = dm_test_backend_truth ();
  uint64_t served = sv.ios[0] + sv.ios[1];
  double truth_us = dm_histogram_mean (truth) / 1e3;
  double fast_share = (double) sv.ios[0] / (double) served;
  double below = dm_latency_count_below (h, split_ns) / (double) h->count;
  double truth_below = dm_latency_count_below (truth, split_ns) / (double) truth->count;
  double held = truth->sum / (double) (sv.last_done - sv.first_prep);
  double little = res->iops * res->latency.mean / 1e6;
  printf ("# backend: %llu fast I/Os (%.2f ms each), %llu slow (%.2f ms), mean %.1f us, "
          "%.2f held; runner: %llu I/Os, mean %.1f us (%+.2f %%), %.4f under %.1f ms "
          "(backend %.4f, fast %.4f), IOPS x mean %.2f\n",
          (unsigned long long) sv.ios[0], (double) sv.busy_ns[0] / (double) sv.ios[0] / 1e6,
          (unsigned long long) sv.ios[1], (double) sv.busy_ns[1] / (double) sv.ios[1] / 1e6,
          truth_us, held, (unsigned long long) h->count, res->latency.mean,
          (res->latency.mean / truth_us - 1) * 100, below, split_ns / 1e6, truth_below,
          fast_share, little);
  DM_CHECK (sv.ios[0] > 100 && sv.ios[1] > 10);
  DM_CHECK_INT (truth->count, ==, served);
  /* The runner sees all but the I/Os drained after the last window. */
  DM_CHECK (h->count + depth >= served && h->count <= served);
  /* Under ThreadSanitizer this test checks the threads, not the clock:
   * its instrumentation between the runner's clock reads (p30 1105.9 us
   * against the backend's 1073.2) is more than the tolerances below. */
  if (sanitized_threads)
    return;
  /* Its clock is read before the prep and after the reap: it may only
   * exceed the backend's, by the preps of a batch and a clock read. The
   * I/Os drained after the last window, at most depth and none longer
   * than the longest, are the backend's alone. */
  double drained_us = (double) depth * (double) truth->max / (double) truth->count / 1e3;
  DM_CHECK (res->latency.mean >= truth_us - drained_us);
  DM_CHECK (res->latency.mean <= truth_us * 1.02 + drained_us);
  /* Every decile the backend's, as far as the drained I/Os let it move
   * (each shifts a quantile of the runner's by 1 / count). */
  double eps = (double) depth / (double) truth->count + 0.001;
  for (double q = 0.1; q < 0.95; q += 0.2)
    {
      double mine = dm_histogram_quantile (h, q);
      double lo = dm_histogram_quantile (truth, q - eps), hi = dm_histogram_quantile (truth, q + eps);
      if (mine < lo * 0.98 || mine > hi * 1.03)
        {
          printf ("# p%.0f: %.1f us, the backend's %.1f..%.1f us\n", q * 100, mine / 1e3,
                  lo / 1e3, hi / 1e3);
          DM_CHECK (!"a decile is the backend's");
        }
    }
  /* Each I/O in its own class, as many in each as the backend served
   * (on a busy machine some fast ones oversleep past the split: they do
   * for both). */
  DM_CHECK (fabs (below - truth_below) < 0.01);
  /* Little's law: what the runner counts in flight is what the backend
   * held, at most the queue depth. */
  DM_CHECK (little <= depth * 1.001);
  DM_CHECK (fabs (little / held - 1) < 0.03);
}

/* Reads with a deep queue: up to 32 I/Os per batch. */
static void
test_reads (void)
{
  dm_settings s;
  dm_report r;
  dm_spec spec;
  settings (&s);
  DM_CHECK (dm_spec_parse ("RND4K_Q64T1", &spec, NULL, 0) == 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  DM_CHECK_INT (run (&r, SLOW_NS), ==, 0);
  DM_CHECK_STR (dm_status_name (r.results[0].status), "complete");
  check_against_backend (&r.results[0], r.results[0].hist_read, 64, 2.5e6);
  dm_report_clear (&r);
}

/* Writes whose data takes time to make (reducible 1 MiB blocks): the time
 * spent making a batch's data is no I/O's latency. */
static void
test_writes_made_data (void)
{
  dm_settings s;
  dm_report r;
  dm_workload w;
  settings (&s);
  DM_CHECK_INT (dm_workload_parse ("name=made;block=256K;read=0;random=100;qd=8;threads=1;"
                                   "data=random;compress=50", &w, NULL, 0), ==, 0);
  s.measure_s = 1.5;
  DM_CHECK_INT (dm_report_init_workloads (&r, &s, &w, 1), ==, 0);
  DM_CHECK_INT (run (&r, SLOWER_NS), ==, 0);
  DM_CHECK_STR (dm_status_name (r.results[0].status), "complete");
  check_against_backend (&r.results[0], r.results[0].hist_write, 8, 12e6);
  dm_report_clear (&r);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/engine/io-latency/reads", test_reads);
  DM_RUN ("/engine/io-latency/writes-made-data", test_writes_made_data);
  return dm_test_done ();
}
