/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first-write probe's engine: its report, and its passes through the
 * in-memory backend, which records every offset. A random first pass must
 * write each block of the file exactly once, split among the threads,
 * and the rewrite the very same I/Os in the same order per thread, also
 * when the first pass ran out of time; a saved probe reads back the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dm-firstwrite.h"
#include "dm-test-backend.h"
#include "dm-test.h"

static void
test_report (void)
{
  dm_firstwrite_plan p;
  dm_settings s;
  dm_report r;
  char why[200];

  dm_firstwrite_plan_init (&p);
  DM_CHECK_INT (p.n_tests, ==, 2);
  DM_CHECK (p.tests[0].pattern == DM_RND && p.tests[0].block_size == 4096
            && p.tests[0].queue_depth == 32 && p.tests[1].pattern == DM_SEQ);
  dm_settings_init (&s);
  s.warmup_s = 5;
  s.precondition = 2;
  s.count = 5;
  DM_CHECK_INT (dm_firstwrite_report_init (&r, &p, &s, why, sizeof why), ==, 0);
  DM_CHECK_STR (r.profile, "first-write");
  DM_CHECK (dm_firstwrite_is (&r));
  DM_CHECK_INT (r.n_results, ==, 4);
  /* Nothing may write the blocks before the first pass. */
  DM_CHECK (r.settings.warmup_s == 0 && r.settings.precondition == 0 && r.settings.count == 1);
  DM_CHECK (r.settings.measure_s == 30 && r.settings.test_size == 1ull << 30);
  DM_CHECK (r.results[0].spec.block_size == r.results[1].spec.block_size
            && r.results[2].spec.block_size == (1u << 20)
            && r.results[3].mode == DM_MODE_WRITE);
  dm_report_clear (&r);

  p.n_tests = 0;
  DM_CHECK_INT (dm_firstwrite_report_init (&r, &p, &s, why, sizeof why), ==, -EINVAL);
  p.n_tests = 1;
  p.tests[0] = (dm_spec) { DM_RND, 8u << 20, 1, 4 };
  p.size = 16ull << 20;
  DM_CHECK_INT (dm_firstwrite_report_init (&r, &p, &s, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "one block per thread") != NULL);
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* The records [from, from + n) of thread q, their offsets in order. */
static uint64_t
thread_offsets (const dm_test_record *rec, uint64_t from, uint64_t n, unsigned q, uint64_t *out)
{
  uint64_t k = 0;
  for (uint64_t i = from; i < from + n; i++)
    if (rec[i].queue == q)
      out[k++] = rec[i].offset;
  return k;
}

/* RND4K with 3 threads over 17 MiB: 4352 blocks, not a power of two (the
 * shuffle walks out of 8192) and not a multiple of 3. */
static void
run_and_check (double duration_s, uint64_t latency_ns, bool whole)
{
  dm_firstwrite_plan p;
  dm_settings s;
  dm_report r;
  char why[200];
  const uint64_t blocks = (17ull << 20) / 4096;

  dm_firstwrite_plan_init (&p);
  p.n_tests = 1;
  p.tests[0] = (dm_spec) { DM_RND, 4096, 8, 3 };
  p.size = 17ull << 20;
  p.duration_s = duration_s;
  dm_settings_init (&s);
  DM_CHECK_INT (dm_firstwrite_report_init (&r, &p, &s, why, sizeof why), ==, 0);
  dm_test_backend_config cfg = { .latency_ns = latency_ns };
  dm_test_backend_reset (&cfg, 3 * blocks);
  dm_runner *runner = dm_runner_new (&r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_firstwrite_run (runner), ==, 0);
  dm_runner_free (runner);

  uint64_t n;
  dm_test_record *rec = dm_test_backend_records (&n);
  uint64_t first = r.results[0].n_runs ? r.results[0].runs[0].ios : 0;
  dm_firstwrite_pair pair;
  dm_firstwrite_pair_of (&r, 0, &pair);
  DM_CHECK (pair.measured);
  DM_CHECK (pair.whole == whole);
  if (whole)
    {
      DM_CHECK_INT (n, ==, 2 * blocks);
      DM_CHECK_INT (first, ==, blocks);
    }
  /* The backend numbers the queues as they open: 0 to 2 are the first
   * pass's threads, 3 to 5 the rewrite's, in any order. */
  uint64_t half = 0;
  for (uint64_t i = 0; i < n; i++)
    half += rec[i].queue < 3;
  DM_CHECK (half >= first && n - half <= half);
  if (whole)
    DM_CHECK_INT (n - half, ==, half);
  uint64_t *sorted = malloc (n * sizeof *sorted), k = 0;
  for (uint64_t i = 0; i < n; i++)
    if (rec[i].queue < 3)
      sorted[k++] = rec[i].offset;
  qsort (sorted, half, sizeof *sorted, cmp_u64);
  bool once = true;
  for (uint64_t i = 0; i < half; i++)
    once = once && sorted[i] % 4096 == 0 && sorted[i] < blocks * 4096
           && (i == 0 || sorted[i] != sorted[i - 1]);
  DM_CHECK (once); /* no block twice in the first pass */
  if (whole)
    DM_CHECK (sorted[0] == 0 && sorted[half - 1] == (blocks - 1) * 4096);
  /* Each thread's rewrite repeats its first pass, offset by offset, as far
   * as it got (all of it unless the rewrite ran out of time too). */
  uint64_t *a[3], *b = malloc (n * sizeof *b), na[3], shares = 0;
  bool same = true;
  for (unsigned q = 0; q < 3; q++)
    {
      a[q] = malloc (n * sizeof *a[q]);
      na[q] = thread_offsets (rec, 0, n, q, a[q]);
      shares += na[q] == (blocks + 2) / 3 || na[q] == blocks / 3;
    }
  for (unsigned q = 0; q < 3; q++)
    {
      uint64_t nb = thread_offsets (rec, 0, n, q + 3, b);
      bool found = false;
      for (unsigned j = 0; j < 3; j++)
        found = found || (nb <= na[j] && (!whole || nb == na[j]) && nb
                          && !memcmp (a[j], b, nb * sizeof *b));
      same = same && found;
    }
  DM_CHECK (same);
  if (whole)
    DM_CHECK_INT (shares, ==, 3); /* 1451, 1451 and 1450 of the 4352 */
  for (unsigned q = 0; q < 3; q++)
    free (a[q]);
  free (b);
  free (sorted);
  dm_report_clear (&r);
}

static void
test_passes (void)
{
  run_and_check (30, 0, true);
}

/* A first pass cut by its duration: the rewrite is still of its blocks. */
static void
test_passes_cut (void)
{
  run_and_check (0.2, 2000000, false);
}

static void
test_saved (void)
{
  dm_firstwrite_plan p;
  dm_settings s;
  dm_report r, back;
  char why[200];

  dm_firstwrite_plan_init (&p);
  p.size = 16ull << 20;
  dm_settings_init (&s);
  DM_CHECK_INT (dm_firstwrite_report_init (&r, &p, &s, why, sizeof why), ==, 0);
  dm_test_backend_config cfg = { 0 };
  dm_test_backend_reset (&cfg, 0);
  dm_runner *runner = dm_runner_new (&r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_firstwrite_run (runner), ==, 0);
  dm_runner_free (runner);
  DM_CHECK_INT (r.status, ==, DM_STATUS_COMPLETE);

  dm_buf a, b, t, c;
  dm_buf_init (&a);
  dm_firstwrite_write_json (&r, &a);
  DM_CHECK (strstr (a.data, "\"first_write\": {") && strstr (a.data, "\"penalty\": ")
            && strstr (a.data, "\"test\": \"SEQ1M_Q8T1\""));
  DM_CHECK_INT (dm_report_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK (dm_firstwrite_is (&back));
  dm_buf_init (&b);
  dm_firstwrite_write_json (&back, &b);
  DM_CHECK_STR (b.data, a.data);
  dm_buf_init (&t);
  dm_firstwrite_write_text (&back, &t);
  DM_CHECK (strstr (t.data, "First write against rewrite on ") && strstr (t.data, "RND4K_Q32T1")
            && strstr (t.data, "rewrite") && strstr (t.data, "penalty  x"));
  dm_buf_init (&c);
  dm_firstwrite_write_csv (&back, &c);
  unsigned lines = 0;
  for (const char *q = c.data; (q = strstr (q, "\r\n")); q += 2)
    lines++;
  DM_CHECK_INT (lines, ==, 5);
  DM_CHECK (strstr (c.data, "RND4K_Q32T1,first,complete,") && strstr (c.data, "SEQ1M_Q8T1,rewrite,"));
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&t);
  dm_buf_free (&c);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/first-write/report", test_report);
  DM_RUN ("/engine/first-write/passes", test_passes);
  DM_RUN ("/engine/first-write/passes-cut", test_passes_cut);
  DM_RUN ("/engine/first-write/saved", test_saved);
  return dm_test_done ();
}
