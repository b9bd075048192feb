/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Faults at the platform boundary with real I/O: the test file cannot be
 * created, reserved, filled, flushed or unlinked; a completion fails, moves
 * no bytes or half of them, asks for a retry or arrives late. For each, the run stops
 * (or retries) as a user would want, the report says which test failed and
 * why, no failed test keeps a figure, and no test file is left behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-fault-backend.h"
#include "dm-runner.h"
#include "dm-test.h"

static const char *target = ".";

static void
count_file (const char *path, uint64_t size, void *user)
{
  (void) path;
  (void) size;
  ++*(int *) user;
}

static int
files_left (void)
{
  int n = 0;
  dm_stale_files (target, count_file, &n);
  return n;
}

/* Runs SEQ1M_Q8T1 and RND4K_Q32T2 reads on a 16 MiB file through the
 * tampering backend; returns the runner's answer. */
static int
run (dm_report *r, const dm_fault_config *tamper)
{
  static const char *const names[] = { "SEQ1M_Q8T1", "RND4K_Q32T2" };
  dm_settings s;
  dm_spec specs[2];
  dm_fault_config none = { DM_TAMPER_NONE, 0, 0, 0, 0 };
  dm_settings_init (&s);
  s.count = 2;
  s.test_size = 16ull << 20;
  s.measure_s = 0.2;
  s.warmup_s = 0;
  s.interval_s = 0;
  for (int i = 0; i < 2; i++)
    dm_spec_parse (names[i], &specs[i], NULL, 0);
  dm_report_init (r, &s, specs, 2, DM_MODE_BIT (DM_MODE_READ));
  dm_fault_backend_setup (tamper ? tamper : &none);
  dm_runner *runner = dm_runner_new (r, target);
  dm_runner_set_backend (runner, &dm_fault_backend);
  int err = dm_runner_run (runner);
  dm_runner_free (runner);
  for (int p = 0; p < DM_N_FAULTS; p++)
    dm_fault_inject ((dm_fault_point) p, 0, 0);
  return err;
}

static void
expect_refused (dm_fault_point point, int code, unsigned nth, const char *reason)
{
  dm_report r;
  dm_fault_inject (point, code, nth);
  int err = run (&r, NULL);
  printf ("# %s\n", r.error);
  DM_CHECK (err < 0);
  DM_CHECK_STR (dm_status_name (r.status), "failed");
  DM_CHECK (strstr (r.error, reason) != NULL);
  DM_CHECK_STR (dm_status_name (r.results[0].status), "pending");
  DM_CHECK_INT (r.measured_bytes, ==, 0);
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_create (void)
{
  expect_refused (DM_FAULT_CREATE, -EACCES, 1, "no permission to create a file");
  expect_refused (DM_FAULT_CREATE, -EIO, 1, "cannot create a test file");
  expect_refused (DM_FAULT_CREATE, -ENOSPC, 1, "No space left");
}

static void
test_reserve (void)
{
  expect_refused (DM_FAULT_RESERVE, -ENOSPC, 1, "not enough free space");
  expect_refused (DM_FAULT_RESERVE, -EIO, 1, "cannot reserve 16MiB");
}

static void
test_fill (void)
{
  expect_refused (DM_FAULT_WRITE, -EIO, 2, "writing the test file failed at 1MiB");
  expect_refused (DM_FAULT_WRITE, -ENOSPC, 1, "writing the test file failed at 0B: No space");
  expect_refused (DM_FAULT_SYNC, -EIO, 1, "flushing the test file failed");
  expect_refused (DM_FAULT_UNLINK, -EIO, 1, "cannot create a test file");
}

static void
test_fill_retries (void)
{
  /* EINTR and short writes are part of write(2)'s contract: the fill
   * carries on and the run is valid. */
  dm_report r;
  dm_fault_inject (DM_FAULT_WRITE, -EINTR, 1);
  dm_fault_inject (DM_FAULT_SHORT_WRITE, 0, 2);
  DM_CHECK_INT (run (&r, NULL), ==, 0);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK_INT (r.prepare_bytes, ==, 16ull << 20);
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
expect_failed_test (dm_tamper what, int32_t code, const char *reason)
{
  dm_report r;
  dm_fault_config c = { what, 40, code, 0, 0 };
  int err = run (&r, &c);
  printf ("# %s\n", r.error);
  DM_CHECK (err < 0);
  DM_CHECK_INT (dm_fault_backend_hits (), ==, 1);
  DM_CHECK_STR (dm_status_name (r.status), "failed");
  DM_CHECK (strstr (r.error, "SEQ1M_Q8T1 read failed") != NULL);
  DM_CHECK (strstr (r.error, reason) != NULL);
  DM_CHECK_STR (dm_status_name (r.results[0].status), "failed");
  DM_CHECK (r.results[0].mb_per_s == 0 && r.results[0].iops == 0 && r.results[0].latency_us == 0);
  DM_CHECK_STR (dm_status_name (r.results[1].status), "pending");
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_completion_errors (void)
{
  expect_failed_test (DM_TAMPER_ERROR, -EIO, "a read failed: Input/output error");
  expect_failed_test (DM_TAMPER_ERROR, -ENOSPC, "No space left");
  expect_failed_test (DM_TAMPER_ZERO, 0, "moved no bytes");
}

static void
test_short_completion (void)
{
  /* A completion that moved half its bytes: the rest is sent on and the
   * run stays valid. */
  dm_report r;
  dm_fault_config c = { DM_TAMPER_SHORT, 25, 0, 0, 0 };
  DM_CHECK_INT (run (&r, &c), ==, 0);
  DM_CHECK_INT (dm_fault_backend_hits (), ==, 1);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK (r.results[0].mb_per_s > 0);
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_completion_retry (void)
{
  dm_report r;
  dm_fault_config c = { DM_TAMPER_RETRY, 20, 0, 3, 0 };
  DM_CHECK_INT (run (&r, &c), ==, 0);
  DM_CHECK_INT (dm_fault_backend_hits (), ==, 3);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK (r.results[0].mb_per_s > 0);
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

static void
test_late_completion (void)
{
  /* One batch arrives 120 ms late: it still counts, and the latency
   * figures show it rather than hide it. */
  dm_report r;
  dm_fault_config c = { DM_TAMPER_LATE, 30, 0, 0, 120000000 };
  DM_CHECK_INT (run (&r, &c), ==, 0);
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK (r.results[0].latency.max >= 120000);
  DM_CHECK (r.results[0].latency.p50 < 120000);
  DM_CHECK_INT (files_left (), ==, 0);
  dm_report_clear (&r);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/platform/faults/create", test_create);
  DM_RUN ("/platform/faults/reserve", test_reserve);
  DM_RUN ("/platform/faults/fill", test_fill);
  DM_RUN ("/platform/faults/fill-retries", test_fill_retries);
  DM_RUN ("/platform/faults/completion-errors", test_completion_errors);
  DM_RUN ("/platform/faults/short-completion", test_short_completion);
  DM_RUN ("/platform/faults/completion-retry", test_completion_retry);
  DM_RUN ("/platform/faults/late-completion", test_late_completion);
  return dm_test_done ();
}
