/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner driven through the in-memory test backend: a run completes
 * with consistent figures, each window lasts the seconds it claims on the
 * backend's own clock, a cancel ends it within 250 ms and keeps what
 * finished, an I/O error fails the test with a reason and no figure, a
 * short transfer sends its remainder where it belongs, a device that stops
 * answering fails the test within 5 s (also through the fault backend, on
 * real I/O), and no test file is ever left in the target folder.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-fault-backend.h"
#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"

/* The engine's bound for a device that does not answer (STALL_S in
 * engine/dm-runner.c, promised in the README). */
#define STALL_S 5

static const char *target = ".";

static void
count_stale (const char *path, uint64_t size, void *user)
{
  (void) path;
  (void) size;
  ++*(int *) user;
}

static int
test_files_left (void)
{
  int n = 0;
  dm_stale_files (target, count_stale, &n);
  return n;
}

static void
small_settings (dm_settings *s)
{
  dm_settings_init (s);
  s->count = 2;
  s->test_size = 16ull << 20;
  s->measure_s = 0.2;
  s->warmup_s = 0;
  s->interval_s = 0;
}

static void
prepare (dm_report *r, const char *const *tests, unsigned n, unsigned modes, dm_settings *s)
{
  dm_spec specs[8];
  for (unsigned i = 0; i < n; i++)
    DM_CHECK (dm_spec_parse (tests[i], &specs[i], NULL, 0) == 0);
  DM_CHECK (dm_report_init (r, s, specs, n, modes) == 0);
}

static int
run (dm_report *r, const dm_test_backend_config *cfg)
{
  dm_test_backend_reset (cfg, 0);
  dm_runner *runner = dm_runner_new (r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  int err = dm_runner_run (runner);
  dm_runner_free (runner);
  return err;
}

static void
test_complete (void)
{
  static const char *const tests[] = { "SEQ1M_Q4T2", "RND4K_Q8T1" };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  prepare (&r, tests, 2, DM_MODES_ALL, &s);
  DM_CHECK_INT (run (&r, NULL), ==, 0);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK_STR (r.backend, "test");
  DM_CHECK_INT (r.prepare_bytes, ==, 16ull << 20);
  uint64_t sum = 0;
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];
      DM_CHECK_STR (dm_status_name (res->status), "complete");
      DM_CHECK_INT (res->n_runs, ==, 2);
      for (unsigned k = 0; k < res->n_runs; k++)
        {
          DM_CHECK (res->runs[k].ios > 0);
          DM_CHECK_INT (res->runs[k].bytes, ==, res->runs[k].ios * res->spec.block_size);
          DM_CHECK (res->mb_per_s >= res->runs[k].mb_per_s);
          sum += res->runs[k].bytes;
        }
      DM_CHECK (res->mb_per_s > 0 && res->iops > 0 && res->latency_us > 0);
      DM_CHECK (res->latency.min <= res->latency.p50 && res->latency.p50 <= res->latency.p99
                && res->latency.p99 <= res->latency.max);
      if (res->mode == DM_MODE_MIX)
        DM_CHECK (res->latency_read.mean > 0 && res->latency_write.mean > 0);
    }
  DM_CHECK_INT (r.measured_bytes, ==, sum);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

typedef struct cancel_job {
  dm_runner *runner;
  unsigned   at_run;   /* cancel when this measured run of the first test starts */
  uint64_t   asked;
  int        err;
  uint64_t   returned;
} cancel_job;

static void
cancel_on_progress (void *user, const dm_progress *p)
{
  cancel_job *job = user;
  if (!job->asked && p->phase == DM_PHASE_MEASURE && p->result_index == 0
      && p->run >= job->at_run)
    {
      job->asked = dm_clock_ns ();
      dm_runner_cancel (job->runner);
    }
}

static void *
cancel_thread (void *arg)
{
  cancel_job *job = arg;
  job->err = dm_runner_run (job->runner);
  job->returned = dm_clock_ns ();
  return NULL;
}

/* Cancels during measured run at_run of the first test, from another
 * thread as the window does, and checks the run is over 250 ms later. */
static void
check_cancel (const dm_test_backend_config *cfg, unsigned at_run, unsigned *runs_kept)
{
  static const char *const tests[] = { "SEQ1M_Q8T2", "RND4K_Q32T4" };
  dm_settings s;
  dm_report r;
  cancel_job job = { 0 };
  dm_thread *t;

  small_settings (&s);
  s.count = 9;
  s.measure_s = 0.1;
  s.interval_s = 1;
  prepare (&r, tests, 2, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (cfg, 0);
  job.runner = dm_runner_new (&r, target);
  job.at_run = at_run;
  dm_runner_set_backend (job.runner, &dm_test_backend);
  dm_runner_set_progress (job.runner, cancel_on_progress, &job);
  DM_CHECK (dm_thread_start (&t, cancel_thread, &job) == 0);
  dm_thread_join (t);
  DM_CHECK (job.asked != 0);
  double took_ms = (double) (job.returned - job.asked) / 1e6;
  printf ("# cancel answered in %.1f ms\n", took_ms);
  DM_CHECK (took_ms < 250);
  DM_CHECK_INT (job.err, ==, -ECANCELED);
  DM_CHECK_STR (dm_status_name (r.status), "cancelled");
  DM_CHECK_STR (dm_status_name (r.results[0].status), "cancelled");
  DM_CHECK_STR (dm_status_name (r.results[1].status), "pending");
  DM_CHECK_INT (test_files_left (), ==, 0);
  *runs_kept = r.results[0].n_runs;
  dm_runner_free (job.runner);
  dm_report_clear (&r);
}

static void
test_cancel (void)
{
  dm_test_backend_config slow = { .latency_ns = 1000000 };
  unsigned kept;
  /* During the third run of the first test: the two finished runs stay,
   * the cut-short one is not counted. */
  check_cancel (&slow, 3, &kept);
  DM_CHECK_INT (kept, ==, 2);
}

static void
test_cancel_stuck_device (void)
{
  /* I/O that never completes must not hold the cancel hostage. */
  dm_test_backend_config hang = { .hang = true };
  unsigned kept;
  check_cancel (&hang, 1, &kept);
  DM_CHECK_INT (kept, ==, 0);
}

static void
check_failure (const dm_test_backend_config *cfg, int want, const char *why)
{
  static const char *const tests[] = { "SEQ1M_Q8T1", "RND4K_Q32T1" };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  prepare (&r, tests, 2, DM_MODE_BIT (DM_MODE_READ), &s);
  DM_CHECK_INT (run (&r, cfg), ==, want);
  DM_CHECK_STR (dm_status_name (r.status), "failed");
  DM_CHECK_STR (dm_status_name (r.results[0].status), "failed");
  DM_CHECK (strstr (r.error, "SEQ1M_Q8T1 read failed") != NULL);
  DM_CHECK (strstr (r.results[0].error, why) != NULL);
  /* No figure from a failed test, and nothing after it ran. */
  DM_CHECK (r.results[0].mb_per_s == 0 && r.results[0].iops == 0);
  DM_CHECK_STR (dm_status_name (r.results[1].status), "pending");
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_buf b;
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (strstr (b.data, "FAILED") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

static void
test_io_error (void)
{
  dm_test_backend_config eio = { .fail_after = 100, .fail_code = -EIO };
  check_failure (&eio, -EIO, "a read failed");
}

static void
test_short_transfer (void)
{
  /* Half an I/O done: the rest is sent on, from where the first half
   * ended into the second half of the same buffer, and the I/O counts
   * once. */
  static const char *const tests[] = { "SEQ1M_Q8T1" };
  dm_test_backend_config shrt = { .fail_after = 50, .short_io = true };
  dm_settings s;
  dm_report r;
  dm_test_record cut;
  small_settings (&s);
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (&shrt, 4096);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  for (unsigned k = 0; k < r.results[0].n_runs; k++)
    DM_CHECK_INT (r.results[0].runs[k].bytes, ==, r.results[0].runs[k].ios << 20);

  DM_CHECK (dm_test_backend_cut (&cut));
  uint64_t n, rest_at = 0;
  unsigned rests = 0, half = cut.len / 2;
  dm_test_record *rec = dm_test_backend_records (&n);
  DM_CHECK (n > 60);
  for (uint64_t k = 0; k < n; k++)
    if (rec[k].len != cut.len)
      {
        /* The only I/O that is not a whole block: the remainder. */
        rests++;
        rest_at = k;
        DM_CHECK_INT (rec[k].offset, ==, cut.offset + half);
        DM_CHECK_INT (rec[k].len, ==, cut.len - half);
        DM_CHECK ((const char *) rec[k].buf == (const char *) cut.buf + half);
        DM_CHECK_INT (rec[k].write, ==, cut.write);
        DM_CHECK_INT (rec[k].queue, ==, cut.queue);
      }
  DM_CHECK_INT (rests, ==, 1);
  /* It was sent after the I/O it completes. */
  bool first_half = false;
  for (uint64_t k = 0; k < rest_at; k++)
    if (rec[k].offset == cut.offset && rec[k].len == cut.len && rec[k].buf == cut.buf)
      first_half = true;
  DM_CHECK (first_half);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_zero_transfer (void)
{
  dm_test_backend_config zero = { .fail_after = 50, .zero_io = true };
  check_failure (&zero, DM_E_SHORT, "moved no bytes");
}

static void
test_queue_setup_error (void)
{
  dm_test_backend_config bad = { .open_error = -ENOMEM };
  check_failure (&bad, -ENOMEM, "setting up the I/O queue");
}

static void
test_missing_target (void)
{
  static const char *const tests[] = { "SEQ1M_Q1T1" };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_WRITE), &s);
  dm_runner *runner = dm_runner_new (&r, "no-such-folder-for-diskmeter");
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, -ENOENT);
  DM_CHECK (strstr (r.error, "does not exist") != NULL);
  DM_CHECK_STR (dm_status_name (r.status), "failed");
  dm_runner_free (runner);
  dm_report_clear (&r);
}

static void
test_too_small_for_spec (void)
{
  /* 8 MiB blocks on 4 threads need 32 MiB; refused before any I/O. */
  static const char *const tests[] = { "SEQ8M_Q1T4" };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  DM_CHECK_INT (run (&r, NULL), ==, -EINVAL);
  DM_CHECK (strstr (r.error, "at least 32 MiB") != NULL);
  DM_CHECK_INT (dm_test_backend_ios (), ==, 0);
  DM_CHECK_INT (r.prepare_bytes, ==, 0);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_selection (void)
{
  /* The grid's per-row button: only the chosen results run. */
  static const char *const tests[] = { "SEQ1M_Q1T1", "RND4K_Q1T1" };
  dm_settings s;
  dm_report r;
  bool pick[4] = { false, true, false, false };
  small_settings (&s);
  s.count = 1;
  prepare (&r, tests, 2, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE), &s);
  dm_test_backend_reset (NULL, 0);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  dm_runner_select (runner, pick);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  for (unsigned i = 0; i < 4; i++)
    DM_CHECK_STR (dm_status_name (r.results[i].status), i == 1 ? "complete" : "pending");
  dm_runner_free (runner);
  dm_report_clear (&r);
}

/* Each measured window lasts the seconds the report divides by, on the
 * backend's own clock. At Q1T1 the completions come one at a time, 1 ms
 * apart: c[j] is the backend's time of completion j, and the runner reads
 * its clock after c[j] and before c[j + 1]. A window is timed from the
 * reap of the completion before its first to the reap of its last: if
 * window k holds completions f..l, c[l] - c[f] < seconds < c[l + 1] -
 * c[f - 1] (the queue's close for the last one), whatever the machine's
 * load. */
static void
test_window_time (void)
{
  static const char *const tests[] = { "RND4K_Q1T1" };
  dm_test_backend_config slow = { .latency_ns = 1000000 };
  enum { CAP = 1 << 16 };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  s.count = 3;
  s.measure_s = 0.2;
  s.warmup_s = 0.1;
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (&slow, CAP);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);

  const dm_result *res = &r.results[0];
  uint64_t n, sum = 0;
  const uint64_t *c = dm_test_backend_completed_at (&n);
  DM_CHECK_INT (res->n_runs, ==, 3);
  DM_CHECK (n < CAP);
  for (unsigned k = 0; k < res->n_runs; k++)
    sum += res->runs[k].ios;
  /* Before the windows: the warm-up; after them nothing, since the
   * completion that closed the last window counts in it. */
  DM_CHECK (n >= sum + 1);
  if (n < sum + 1 || res->n_runs != 3)
    goto out;
  uint64_t f = n - sum;
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      uint64_t ios = res->runs[k].ios, l = f + ios - 1;
      double want = res->runs[k].seconds * 1e9;
      DM_CHECK (ios >= 2 && f >= 1);
      if (ios < 2 || f < 1)
        break;
      uint64_t after = l + 1 < n ? c[l + 1] : dm_test_backend_closed_at ();
      double inner = (double) (c[l] - c[f]), outer = (double) (after - c[f - 1]);
      printf ("# window %u: %llu I/Os, %.2f ms < %.2f ms (reported) < %.2f ms\n", k,
              (unsigned long long) ios, inner / 1e6, want / 1e6, outer / 1e6);
      DM_CHECK (inner < want);
      DM_CHECK (want < outer);
      f = l + 1;
    }
out:
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

/* A device that completes in bursts, as the block cgroup's throttle does
 * in its slices: 16 I/Os at the start of every 100 ms, 160 IOPS, with 32
 * in the queue, so that a worker the machine keeps waiting a while finds
 * the burst it missed in a late batch. A window of 1.25 s holds 12 or 13
 * bursts, by where its boundaries fall; timed by the clock alone it would
 * show 153.6 or 166.4 IOPS, 4% off. Timed between the completions that
 * open and close it, every run shows 160, within 2.5%: the time of an
 * edge is when it was reaped, which a busy machine may delay by a few
 * tens of ms. */
static void
test_bursts (void)
{
  static const char *const tests[] = { "RND4K_Q32T1" };
  dm_test_backend_config bursts = { .slice_ns = 100000000, .slice_ios = 16 };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  s.count = 3;
  s.measure_s = 1.25;
  s.warmup_s = 0.07;
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (&bursts, 0);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);

  const dm_result *res = &r.results[0];
  DM_CHECK_INT (res->n_runs, ==, 3);
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      const dm_run *run = &res->runs[k];
      printf ("# run %u: %llu I/Os, %.1f IOPS over %.4f s\n", k, (unsigned long long) run->ios,
              run->iops, run->seconds);
      DM_CHECK (fabs (run->iops - 160) < 160 * 0.025);
      /* The figures agree with each other as before. */
      DM_CHECK (fabs (run->iops * run->seconds - (double) run->ios) < 0.5);
      DM_CHECK (fabs (run->mb_per_s - run->iops * 4096 / 1e6) < 1e-6 * run->mb_per_s);
    }
  DM_CHECK (fabs (res->iops - 160) < 160 * 0.025);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

typedef struct bounded_job {
  dm_runner   *runner;
  int          err;
  atomic_int   done;
  atomic_ullong started; /* the test's first progress after preparing */
} bounded_job;

static void
note_start (void *user, const dm_progress *p)
{
  bounded_job *job = user;
  if (p->phase != DM_PHASE_PREPARE && !atomic_load (&job->started))
    atomic_store (&job->started, dm_clock_ns ());
}

static void *
bounded_thread (void *arg)
{
  bounded_job *job = arg;
  job->err = dm_runner_run (job->runner);
  atomic_store (&job->done, 1);
  return NULL;
}

/* Runs the job under a watchdog: a run still going after limit_s seconds
 * hangs, and a hung thread cannot be joined, so the program fails then.
 * took_s counts from the start of the test, after the test file is filled. */
static int
run_bounded (dm_report *r, const dm_backend *backend, double limit_s, double *took_s)
{
  static bounded_job job;
  dm_thread *t;
  job.runner = dm_runner_new (r, target);
  job.err = 0;
  atomic_store (&job.done, 0);
  atomic_store (&job.started, 0);
  dm_runner_set_backend (job.runner, backend);
  dm_runner_set_progress (job.runner, note_start, &job);
  uint64_t t0 = dm_clock_ns ();
  DM_CHECK (dm_thread_start (&t, bounded_thread, &job) == 0);
  while (!atomic_load (&job.done))
    {
      if ((double) (dm_clock_ns () - t0) / 1e9 > limit_s)
        {
          fprintf (stderr, "%s:%d: check failed: the run still goes after %g s: it hangs\n",
                   __FILE__, __LINE__, limit_s);
          printf ("FAIL (hung)\n");
          fflush (stdout);
          exit (1);
        }
      dm_sleep_ns (10000000);
    }
  dm_thread_join (t);
  uint64_t started = atomic_load (&job.started);
  DM_CHECK (started != 0);
  *took_s = (double) (dm_clock_ns () - (started ? started : t0)) / 1e9;
  dm_runner_free (job.runner);
  return job.err;
}

/* A run on a device that stops answering fails within its bound, with one
 * sentence naming the test and the reason, and leaves nothing behind. The
 * bound is at_s (the last answer or the end of the windows) plus STALL_S,
 * from the start of the test; 2 s more are for a busy machine. */
static void
check_hang (const char *test, const dm_backend *backend, double measure_s, double at_s,
            const char *why)
{
  const char *const tests[] = { test };
  dm_settings s;
  dm_report r;
  double took;
  char want[256];
  small_settings (&s);
  s.count = 1;
  s.measure_s = measure_s;
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  DM_CHECK_INT (run_bounded (&r, backend, at_s + STALL_S + 30, &took), ==, -ETIMEDOUT);
  printf ("# %s: failed %.2f s after it started (bound %.1f s)\n", test, took, at_s + STALL_S);
  DM_CHECK (took >= at_s + STALL_S - 1);
  DM_CHECK (took <= at_s + STALL_S + 2);
  snprintf (want, sizeof want, "%s read failed: %s", test, why);
  DM_CHECK_STR (r.error, want);
  DM_CHECK_STR (r.results[0].error, why);
  DM_CHECK_STR (dm_status_name (r.status), "failed");
  DM_CHECK_STR (dm_status_name (r.results[0].status), "failed");
  DM_CHECK (r.results[0].mb_per_s == 0 && r.results[0].iops == 0);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_stuck_device (void)
{
  /* Nothing ever completes, and nobody cancels: the test fails 5 s after
   * it started, not at the end of its 20 s window, nor never. */
  dm_test_backend_config hang = { .hang = true };
  dm_test_backend_reset (&hang, 0);
  check_hang ("RND4K_Q4T2", &dm_test_backend, 20, 0,
              "no I/O completed in 5 s; the device does not answer");
}

static void
test_device_stops (void)
{
  /* Real I/O, and from the 20th completion on the device answers no more. */
  dm_fault_config never = { .what = DM_TAMPER_NEVER, .nth = 20 };
  dm_fault_backend_setup (&never);
  check_hang ("RND4K_Q4T1", &dm_fault_backend, 20, 0,
              "no I/O completed in 5 s; the device does not answer");
  DM_CHECK (dm_fault_backend_hits () >= 1);
}

static void
test_unanswered_io (void)
{
  /* Real I/O; one read of eight is never answered, the others are. */
  dm_fault_config one = { .what = DM_TAMPER_NEVER, .nth = 5, .count = 1 };
  dm_fault_backend_setup (&one);
  check_hang ("SEQ1M_Q8T1", &dm_fault_backend, 0.5, 0.5,
              "1 I/O still unanswered 5 s after the test ended; the device does not answer");
  DM_CHECK_INT (dm_fault_backend_hits (), ==, 1);
}

/* --precondition 2: before the first measured I/O, the backend saw the
 * whole file written twice, front to back in 1 MiB writes, each write's
 * data new; the report counts the bytes and the time. */
static void
test_precondition (void)
{
  static const char *const tests[] = { "RND4K_Q8T1" };
  dm_settings s;
  dm_report r;
  uint64_t n;

  small_settings (&s);
  s.count = 1;
  s.precondition = 2;
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (NULL, 1u << 20);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  const dm_test_record *rec = dm_test_backend_records (&n);
  uint64_t mib = s.test_size >> 20, k = 0;
  DM_CHECK (n > 2 * mib);
  for (; k < 2 * mib && k < n; k++)
    {
      DM_CHECK_INT (rec[k].write, ==, 1);
      DM_CHECK_INT (rec[k].len, ==, 1u << 20);
      DM_CHECK_INT (rec[k].offset, ==, (k % mib) << 20);
      if (k)
        DM_CHECK (rec[k].head != rec[k - 1].head);
    }
  /* Then the test's reads, and no more whole-MiB writes. */
  for (; k < n; k++)
    DM_CHECK (!rec[k].write && rec[k].len == 4096);
  DM_CHECK_INT (r.precondition_bytes, ==, 2 * s.test_size);
  DM_CHECK (r.precondition_s > 0);
  DM_CHECK_STR (dm_status_name (r.results[0].status), "complete");
  dm_report_clear (&r);
}

typedef struct { dm_runner *runner; uint64_t asked; } precondition_cancel;

static void
cancel_in_precondition (void *user, const dm_progress *p)
{
  precondition_cancel *c = user;
  DM_CHECK (p->phase != DM_PHASE_WARMUP && p->phase != DM_PHASE_MEASURE);
  if (!c->asked && p->phase == DM_PHASE_PRECONDITION && p->fraction > 0)
    {
      c->asked = dm_clock_ns ();
      dm_runner_cancel (c->runner);
    }
}

/* A cancel while preconditioning a slow device ends the run in 250 ms,
 * before any test. */
static void
test_precondition_cancel (void)
{
  static const char *const tests[] = { "RND4K_Q8T1" };
  dm_test_backend_config slow = { .latency_ns = 20000000 };
  dm_settings s;
  dm_report r;
  precondition_cancel c = { 0 };

  small_settings (&s);
  s.precondition = 16;
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  dm_test_backend_reset (&slow, 0);
  c.runner = dm_runner_new (&r, target);
  dm_runner_set_backend (c.runner, &dm_test_backend);
  dm_runner_set_progress (c.runner, cancel_in_precondition, &c);
  DM_CHECK_INT (dm_runner_run (c.runner), ==, -ECANCELED);
  double took_ms = (double) (dm_clock_ns () - c.asked) / 1e6;
  printf ("# cancel while preconditioning answered in %.1f ms\n", took_ms);
  DM_CHECK (c.asked && took_ms < 250);
  DM_CHECK (r.precondition_bytes < 16 * s.test_size);
  DM_CHECK_INT (test_files_left (), ==, 0);
  dm_runner_free (c.runner);
  dm_report_clear (&r);
}

/* A steady warm-up on a device of one speed settles once its first
 * window is full (5 s), long before the limit; on one whose speed
 * changes eightfold every second it never does, and runs to the limit.
 * The device of one speed is the test backend's sleeps, which a busy host
 * (Wine beside another suite) can stall for a quarter of a sample; the
 * warm-up then rightly waits a window past the stall. So it may run up to
 * three times, and one run must settle on time: an engine that settles
 * early or late does so every time. */
static void
check_steady (const dm_test_backend_config *cfg, double limit_s, bool want_settled)
{
  static const char *const tests[] = { "RND4K_Q8T1" };
  dm_settings s;
  dm_report r;
  double took = 0;

  small_settings (&s);
  s.count = 1;
  s.warmup_steady = true;
  s.steady_margin = 50;
  s.steady_limit_s = limit_s;
  for (int attempt = 1; attempt <= (want_settled ? 3 : 1); attempt++)
    {
      if (attempt > 1)
        dm_report_clear (&r);
      prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
      uint64_t t0 = dm_clock_ns ();
      DM_CHECK_INT (run (&r, cfg), ==, 0);
      took = (double) (dm_clock_ns () - t0) / 1e9;
      const dm_result *res = &r.results[0];
      printf ("# warm-up %s after %.2f s (spread %.1f%%), run took %.2f s\n",
              res->warmup_settled ? "settled" : "not settled", res->warmup_took_s,
              res->warmup_spread, took);
      if (res->warmup_settled && res->warmup_took_s < 6.5 && took < res->warmup_took_s + 1.5)
        break;
    }
  const dm_result *res = &r.results[0];
  DM_CHECK (res->warmup_settled == want_settled);
  if (want_settled)
    DM_CHECK (res->warmup_took_s >= 5.0 - 1e-3 && res->warmup_took_s < 6.5);
  else
    DM_CHECK (res->warmup_took_s >= limit_s - 1e-3 && res->warmup_took_s < limit_s + 0.3);
  DM_CHECK (took >= res->warmup_took_s + s.measure_s - 0.05 && took < res->warmup_took_s + 1.5);
  DM_CHECK_INT (res->n_runs, ==, 1);
  DM_CHECK (res->runs[0].ios > 0);
  dm_report_clear (&r);
}

static void
test_steady (void)
{
  dm_test_backend_config even = { .latency_ns = 1000000 };
  dm_test_backend_config wobbly = { .latency_ns = 1000000, .wobble_ns = 7000000,
                                    .wobble_period_ns = 1000000000 };
  check_steady (&even, 20, true);
  check_steady (&wobbly, 7, false);
}

/* sync=flush:8 at Q=32: every flush waits for the 8 writes before it to
 * complete and goes out alone; nothing is sent beside it; between two
 * flushes of a queue there are exactly 8 writes. */
static void
test_flush_barrier (void)
{
  dm_workload w;
  dm_settings s;
  dm_report r;
  char why[200];
  uint64_t n;

  DM_CHECK (dm_workload_parse ("name=f;block=4K;read=0;random=100;sync=flush:8;qd=32;threads=2",
                               &w, why, sizeof why) == 0);
  small_settings (&s);
  s.count = 1;
  DM_CHECK (dm_report_init_workloads (&r, &s, &w, 1) == 0);
  dm_test_backend_reset (NULL, 1u << 22);
  dm_runner *runner = dm_runner_new (&r, target);
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  const dm_test_record *rec = dm_test_backend_records (&n);
  unsigned since[2] = { 0, 0 }, bad = 0;
  uint64_t flushes = 0;
  for (uint64_t k = 0; k < n; k++)
    {
      unsigned qi = rec[k].queue % 2;
      if (rec[k].write == DM_IO_FLUSH)
        {
          bad += since[qi] != 8;
          since[qi] = 0;
          flushes++;
        }
      else if (rec[k].write)
        since[qi]++;
    }
  printf ("# %llu flushes, %llu I/Os beside a flush, %u with other than 8 writes before\n",
          (unsigned long long) flushes, (unsigned long long) dm_test_backend_beside_flush (),
          bad);
  DM_CHECK (flushes > 100);
  DM_CHECK_INT (bad, ==, 0);
  DM_CHECK_INT (dm_test_backend_beside_flush (), ==, 0);
  DM_CHECK (r.results[0].flushes > 0 && r.results[0].flushes <= flushes);
  dm_report_clear (&r);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/engine/runner/complete", test_complete);
  DM_RUN ("/engine/runner/window-time", test_window_time);
  DM_RUN ("/engine/runner/bursts", test_bursts);
  DM_RUN ("/engine/runner/cancel", test_cancel);
  DM_RUN ("/engine/runner/cancel-stuck-device", test_cancel_stuck_device);
  DM_RUN ("/engine/runner/io-error", test_io_error);
  DM_RUN ("/engine/runner/short-transfer", test_short_transfer);
  DM_RUN ("/engine/runner/stuck-device", test_stuck_device);
  DM_RUN ("/engine/runner/device-stops", test_device_stops);
  DM_RUN ("/engine/runner/unanswered-io", test_unanswered_io);
  DM_RUN ("/engine/runner/zero-transfer", test_zero_transfer);
  DM_RUN ("/engine/runner/queue-setup-error", test_queue_setup_error);
  DM_RUN ("/engine/runner/missing-target", test_missing_target);
  DM_RUN ("/engine/runner/too-small-for-spec", test_too_small_for_spec);
  DM_RUN ("/engine/runner/selection", test_selection);
  DM_RUN ("/engine/runner/precondition", test_precondition);
  DM_RUN ("/engine/runner/precondition-cancel", test_precondition_cancel);
  DM_RUN ("/engine/runner/steady", test_steady);
  DM_RUN ("/engine/runner/flush-barrier", test_flush_barrier);
  return dm_test_done ();
}
