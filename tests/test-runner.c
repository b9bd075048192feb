/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner driven through the in-memory test backend: a run completes
 * with consistent figures, a cancel ends it within 250 ms and keeps what
 * finished, an I/O error or a short transfer fails the test with a reason
 * and no figure, and no test file is ever left in the target folder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"

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
          DM_CHECK (res->runs[k].seconds > 0.1 && res->runs[k].seconds <= 0.2 + 1e-9);
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
  /* Half an I/O done: the rest is sent on and the I/O counts once. */
  static const char *const tests[] = { "SEQ1M_Q8T1" };
  dm_test_backend_config shrt = { .fail_after = 50, .short_io = true };
  dm_settings s;
  dm_report r;
  small_settings (&s);
  prepare (&r, tests, 1, DM_MODE_BIT (DM_MODE_READ), &s);
  DM_CHECK_INT (run (&r, &shrt), ==, 0);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  for (unsigned k = 0; k < r.results[0].n_runs; k++)
    DM_CHECK_INT (r.results[0].runs[k].bytes, ==, r.results[0].runs[k].ios << 20);
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

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/engine/runner/complete", test_complete);
  DM_RUN ("/engine/runner/cancel", test_cancel);
  DM_RUN ("/engine/runner/cancel-stuck-device", test_cancel_stuck_device);
  DM_RUN ("/engine/runner/io-error", test_io_error);
  DM_RUN ("/engine/runner/short-transfer", test_short_transfer);
  DM_RUN ("/engine/runner/zero-transfer", test_zero_transfer);
  DM_RUN ("/engine/runner/queue-setup-error", test_queue_setup_error);
  DM_RUN ("/engine/runner/missing-target", test_missing_target);
  DM_RUN ("/engine/runner/too-small-for-spec", test_too_small_for_spec);
  DM_RUN ("/engine/runner/selection", test_selection);
  return dm_test_done ();
}
