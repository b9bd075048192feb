/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Latency detail against samples whose answer is known: SQLIO's percent of
 * I/Os per millisecond (including I/Os exactly on a millisecond and past
 * 24 ms), the percentile table, log-spaced chart buckets that add up to
 * every I/O, and the text --latency prints, reads and writes apart for Mix.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dm-latency.h"
#include "dm-test.h"

#define DM_CHECK_NEAR(a, b, tol)                                                      \
  do                                                                                  \
    {                                                                                 \
      double dm_a_ = (a), dm_b_ = (b);                                                \
      if (!(fabs (dm_a_ - dm_b_) <= (tol)))                                           \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s ~ %s (%.9g vs %.9g)\n",           \
                   __FILE__, __LINE__, #a, #b, dm_a_, dm_b_);                         \
          dm_test_case_failed = 1;                                                    \
        }                                                                             \
    }                                                                                 \
  while (0)

static dm_histogram h;

static void
test_per_ms (void)
{
  double pct[DM_LATENCY_MS_BUCKETS];
  dm_histogram_reset (&h);
  dm_histogram_add (&h, 500000, 200);    /* 0.5 ms */
  dm_histogram_add (&h, 1500000, 600);   /* 1.5 ms */
  dm_histogram_add (&h, 30000000, 150);  /* 30 ms: the 24+ column */
  dm_histogram_add (&h, 23500000, 50);   /* 23.5 ms: still the 23 column */
  dm_latency_per_ms (&h, pct);
  DM_CHECK_NEAR (pct[0], 20, 0.5);
  DM_CHECK_NEAR (pct[1], 60, 0.5);
  DM_CHECK_NEAR (pct[23], 5, 0.5);
  DM_CHECK_NEAR (pct[24], 15, 0.5);
  double sum = 0;
  for (unsigned k = 0; k < DM_LATENCY_MS_BUCKETS; k++)
    sum += pct[k];
  DM_CHECK_NEAR (sum, 100, 1e-9);
}

/* An I/O of exactly 1 ms belongs to the 1 ms column, one of 999,999 ns to
 * the 0 ms one, whatever the histogram bucket around them looks like. */
static void
test_ms_edges (void)
{
  double pct[DM_LATENCY_MS_BUCKETS];
  dm_histogram_reset (&h);
  dm_histogram_add (&h, 1000000, 10);
  dm_latency_per_ms (&h, pct);
  DM_CHECK_NEAR (pct[1], 100, 1e-9);
  DM_CHECK_NEAR (pct[0], 0, 1e-9);

  dm_histogram_reset (&h);
  dm_histogram_add (&h, 999999, 10);
  dm_latency_per_ms (&h, pct);
  DM_CHECK_NEAR (pct[0], 100, 1e-9);

  dm_histogram_reset (&h);
  dm_histogram_add (&h, 24000000, 3);
  dm_histogram_add (&h, 1ull << 45, 1); /* past the histogram's last bucket */
  dm_latency_per_ms (&h, pct);
  DM_CHECK_NEAR (pct[24], 100, 1e-9);
}

/* Evenly spread I/Os: each millisecond column gets its share within what
 * the histogram's 0.8 % resolution allows. */
static void
test_uniform (void)
{
  double pct[DM_LATENCY_MS_BUCKETS];
  dm_histogram_reset (&h);
  for (uint64_t ns = 500; ns < 10000000; ns += 1000)
    dm_histogram_add (&h, ns, 1);
  dm_latency_per_ms (&h, pct);
  for (unsigned k = 0; k < 10; k++)
    DM_CHECK_NEAR (pct[k], 10, 0.1);
  for (unsigned k = 10; k < DM_LATENCY_MS_BUCKETS; k++)
    DM_CHECK_NEAR (pct[k], 0, 1e-9);

  dm_latency l;
  dm_latency_from_histogram (&l, &h);
  DM_CHECK_NEAR (l.min, 0.5, 1e-9);
  DM_CHECK_NEAR (l.max, 9999.5, 1e-9);
  DM_CHECK_NEAR (l.p50, 5000, 5000 * 0.008);
  DM_CHECK_NEAR (l.p99, 9900, 9900 * 0.008);
  DM_CHECK_NEAR (l.mean, 5000, 1);
  DM_CHECK_NEAR (dm_latency_count_below (&h, 5000000), 5000, 5000 * 0.008);
}

static void
test_empty (void)
{
  double pct[DM_LATENCY_MS_BUCKETS], counts[3], edges[4];
  dm_latency l;
  dm_histogram_reset (&h);
  dm_latency_per_ms (&h, pct);
  for (unsigned k = 0; k < DM_LATENCY_MS_BUCKETS; k++)
    DM_CHECK (pct[k] == 0);
  dm_latency_from_histogram (&l, &h);
  DM_CHECK (l.min == 0 && l.max == 0 && l.p99 == 0);
  unsigned n = dm_latency_log_edges (h.min, h.max, 1, edges, 4);
  DM_CHECK_INT (n, >=, 2);
  dm_latency_chart (&h, edges, n, counts);
  for (unsigned k = 0; k + 1 < n; k++)
    DM_CHECK (counts[k] == 0);
}

static void
test_log_edges (void)
{
  double e[64];
  unsigned n = dm_latency_log_edges (1500, 2500000, 1, e, 64);
  DM_CHECK_INT (n, ==, 5);
  DM_CHECK_NEAR (e[0], 1000, 1e-6);
  DM_CHECK_NEAR (e[4], 10000000, 1e-3);

  /* An exact power of ten starts the axis, not the step below it. */
  n = dm_latency_log_edges (1000, 1000, 10, e, 64);
  DM_CHECK_NEAR (e[0], 1000, 1e-6);
  DM_CHECK_INT (n, ==, 2);

  n = dm_latency_log_edges (20000, 80000, 10, e, 64);
  DM_CHECK (e[0] <= 20000 && e[n - 1] > 80000 && e[n - 2] <= 80000);
  for (unsigned i = 1; i < n; i++)
    DM_CHECK_NEAR (e[i] / e[i - 1], pow (10, 0.1), 1e-9);

  /* Too little room: as many as fit. */
  DM_CHECK_INT (dm_latency_log_edges (1, 1000000000, 1, e, 3), ==, 3);
  DM_CHECK_INT (dm_latency_log_edges (1, 10, 1, e, 1), ==, 0);
}

/* The chart's buckets hold every I/O once, read and write on one axis. */
static void
test_chart (void)
{
  static dm_histogram w;
  double edges[64], counts[63];
  dm_histogram_reset (&h);
  dm_histogram_reset (&w);
  for (uint64_t ns = 20000; ns < 5000000; ns = ns * 11 / 10 + 7)
    dm_histogram_add (&h, ns, 3);
  dm_histogram_add (&w, 80000, 40);
  dm_histogram_add (&w, 9000000, 2);
  uint64_t lo = h.min < w.min ? h.min : w.min, hi = h.max > w.max ? h.max : w.max;
  unsigned n = dm_latency_log_edges (lo, hi, 5, edges, 64);
  dm_latency_chart (&h, edges, n, counts);
  double sum = 0;
  for (unsigned i = 0; i + 1 < n; i++)
    sum += counts[i];
  DM_CHECK_NEAR (sum, (double) h.count, 1e-6);
  dm_latency_chart (&w, edges, n, counts);
  sum = 0;
  unsigned nonzero = 0;
  for (unsigned i = 0; i + 1 < n; i++)
    {
      sum += counts[i];
      nonzero += counts[i] > 0;
    }
  DM_CHECK_NEAR (sum, 42, 1e-6);
  DM_CHECK_INT (nonzero, ==, 2);
}

static void
test_text (void)
{
  dm_settings s;
  dm_report r;
  dm_spec specs[2] = { { DM_RND, 4096, 32, 1 }, { DM_SEQ, 1 << 20, 8, 1 } };
  dm_buf b;
  dm_settings_init (&s);
  DM_CHECK_INT (dm_report_init (&r, &s, specs, 2, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_MIX)), ==, 0);
  /* Results: RND read, SEQ read, RND mix, SEQ mix; the SEQ ones never ran. */
  r.results[0].status = DM_STATUS_COMPLETE;
  dm_histogram_add (r.results[0].hist_read, 120000, 990);
  dm_histogram_add (r.results[0].hist_read, 30000000, 10);
  r.results[2].status = DM_STATUS_COMPLETE;
  dm_histogram_add (r.results[2].hist_read, 300000, 70);
  dm_histogram_add (r.results[2].hist_write, 2500000, 30);
  r.results[3].status = DM_STATUS_FAILED;

  dm_buf_init (&b);
  dm_report_write_latency (&r, &b);
  DM_CHECK (b.error == 0 && b.data);
  const char *t = b.data ? b.data : "";
  DM_CHECK (strstr (t, "RND4K_Q32T1 Read: latency in microseconds") != NULL);
  DM_CHECK (strstr (t, "RND4K_Q32T1 Mix (70% reads)") != NULL);
  DM_CHECK (strstr (t, "SEQ1M_Q8T1 Read") == NULL); /* pending: not shown */
  DM_CHECK (strstr (t, "SEQ1M_Q8T1 Mix") != NULL);
  DM_CHECK (strstr (t, "no I/O was measured (failed)") != NULL);
  DM_CHECK (strstr (t, " 23 24+\n") != NULL);
  /* The read test: 99 % in the 0 ms column, 1 % in 24+. */
  DM_CHECK (strstr (t, "  Read     99   0") != NULL);
  DM_CHECK (strstr (t, "   0   1\n") != NULL);
  /* The Mix: reads and writes apart, writes all in the 2 ms column. */
  DM_CHECK (strstr (t, "  Write     0   0 100   0") != NULL);
  if (dm_test_case_failed)
    fputs (t, stderr);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

/* A tail too small to round to 1 % must still show. */
static void
test_text_small_tail (void)
{
  dm_settings s;
  dm_report r;
  dm_spec spec = { DM_RND, 4096, 1, 1 };
  dm_buf b;
  dm_settings_init (&s);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_WRITE)), ==, 0);
  r.results[0].status = DM_STATUS_CANCELLED;
  dm_histogram_add (r.results[0].hist_write, 50000, 9999);
  dm_histogram_add (r.results[0].hist_write, 40000000, 1);
  dm_buf_init (&b);
  dm_report_write_latency (&r, &b);
  DM_CHECK (b.data && strstr (b.data, "  <1\n") != NULL);
  DM_CHECK (b.data && strstr (b.data, "  Write   100") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/latency/per-ms", test_per_ms);
  DM_RUN ("/engine/latency/ms-edges", test_ms_edges);
  DM_RUN ("/engine/latency/uniform", test_uniform);
  DM_RUN ("/engine/latency/empty", test_empty);
  DM_RUN ("/engine/latency/log-edges", test_log_edges);
  DM_RUN ("/engine/latency/chart", test_chart);
  DM_RUN ("/engine/latency/text", test_text);
  DM_RUN ("/engine/latency/text-small-tail", test_text_small_tail);
  return dm_test_done ();
}
