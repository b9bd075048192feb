/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The latency histogram against the truth: percentiles of synthetic samples
 * (uniform, log-normal, exponential, constant, bucket edges, values past
 * the last bucket) compared with the exact ones from the sorted samples,
 * exact min and max, moments, merging, and the bucket layout itself.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-histogram.h"
#include "dm-rng.h"
#include "dm-test.h"

#define DM_CHECK_NEAR(a, b, rel)                                                      \
  do                                                                                  \
    {                                                                                 \
      double dm_a_ = (a), dm_b_ = (b);                                                \
      if (!(fabs (dm_a_ - dm_b_) <= (rel) * fabs (dm_b_)))                            \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s ~ %s (%.17g vs %.17g)\n",         \
                   __FILE__, __LINE__, #a, #b, dm_a_, dm_b_);                         \
          dm_test_case_failed = 1;                                                    \
        }                                                                             \
    }                                                                                 \
  while (0)

/* The percentiles the reports show, as exact fractions so the reference
 * rank is computed in integers and cannot round the wrong way. */
static const struct {
  double   q;
  uint64_t num, den;
} quantiles[] = {
  { 0.5, 1, 2 }, { 0.9, 9, 10 }, { 0.99, 99, 100 }, { 0.999, 999, 1000 },
  { 0.9999, 9999, 10000 },
};

#define N_SAMPLES 200000

static uint64_t samples[2 * N_SAMPLES];
static uint64_t sorted[2 * N_SAMPLES];
static dm_histogram h, h2, all;

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* Uniform in (0, 1], never 0 so logarithms stay finite. */
static double
uniform01 (dm_rng *r)
{
  return ((double) (dm_rng_next (r) >> 11) + 1.0) / 9007199254740992.0;
}

static double
gaussian (dm_rng *r)
{
  double u = uniform01 (r), v = uniform01 (r);
  return sqrt (-2.0 * log (u)) * cos (2.0 * 3.14159265358979323846 * v);
}

/* Feeds samples[0..n) into a fresh histogram and checks everything a
 * report takes from it against the sorted samples. */
static void
check_against_exact (const char *what, size_t n, double tolerance)
{
  dm_histogram_reset (&h);
  for (size_t i = 0; i < n; i++)
    dm_histogram_add (&h, samples[i], 1);
  memcpy (sorted, samples, n * sizeof *sorted);
  qsort (sorted, n, sizeof *sorted, cmp_u64);

  DM_CHECK_INT (h.count, ==, n);
  DM_CHECK_INT (h.min, ==, sorted[0]);
  DM_CHECK_INT (h.max, ==, sorted[n - 1]);

  for (size_t k = 0; k < sizeof quantiles / sizeof quantiles[0]; k++)
    {
      /* The smallest value with at least q of the samples at or below it. */
      uint64_t rank = (quantiles[k].num * n + quantiles[k].den - 1) / quantiles[k].den;
      double exact = (double) sorted[rank - 1];
      double got = dm_histogram_quantile (&h, quantiles[k].q);
      if (!(fabs (got - exact) <= tolerance * exact))
        {
          fprintf (stderr, "%s: p%g is %.1f ns, exact %.1f ns\n", what,
                   quantiles[k].q * 100, got, exact);
          dm_test_case_failed = 1;
        }
    }

  /* Mean and standard deviation, exactly: two passes in long double. */
  long double sum = 0, sq = 0;
  for (size_t i = 0; i < n; i++)
    sum += (long double) sorted[i];
  long double mean = sum / (long double) n;
  for (size_t i = 0; i < n; i++)
    {
      long double d = (long double) sorted[i] - mean;
      sq += d * d;
    }
  double stdev = (double) sqrtl (sq / (long double) n);
  DM_CHECK_NEAR (dm_histogram_mean (&h), (double) mean, 1e-9);
  /* Within a millionth; n against n - 1 in the divisor would already be
   * more. Nearly constant data is the exception: a sum of squares in
   * doubles cannot resolve a spread below about 1e-5 of the mean, and
   * nobody reads a latency's stdev that finely. */
  if (stdev < 1e-3 * (double) mean)
    DM_CHECK (fabs (dm_histogram_stdev (&h) - stdev) <= 1e-5 * (double) mean);
  else
    DM_CHECK_NEAR (dm_histogram_stdev (&h), stdev, 1e-6);
}

static void
test_uniform (void)
{
  dm_rng r;
  dm_rng_seed (&r, 1);
  /* 1 us to 50 ms: the range a disk's latencies cover. */
  for (size_t i = 0; i < N_SAMPLES; i++)
    samples[i] = 1000 + dm_rng_below (&r, 50000000);
  check_against_exact ("uniform", N_SAMPLES, 0.01);

  /* Small values have a bucket each and must come out exact. */
  for (size_t i = 0; i < N_SAMPLES; i++)
    samples[i] = dm_rng_below (&r, 128);
  check_against_exact ("uniform below 128 ns", N_SAMPLES, 0);
}

static void
test_lognormal (void)
{
  dm_rng r;
  dm_rng_seed (&r, 2);
  /* Median 100 us with a long tail, like an SSD under load. */
  for (size_t i = 0; i < N_SAMPLES; i++)
    samples[i] = (uint64_t) llround (exp (log (100000.0) + 1.2 * gaussian (&r)));
  check_against_exact ("log-normal", N_SAMPLES, 0.01);
}

static void
test_exponential (void)
{
  dm_rng r;
  dm_rng_seed (&r, 3);
  for (size_t i = 0; i < N_SAMPLES; i++)
    samples[i] = (uint64_t) llround (-log (uniform01 (&r)) * 250000.0);
  check_against_exact ("exponential", N_SAMPLES, 0.01);
}

static void
test_constant (void)
{
  for (size_t i = 0; i < N_SAMPLES; i++)
    samples[i] = 1234567;
  check_against_exact ("constant", N_SAMPLES, 0);
  DM_CHECK (dm_histogram_quantile (&h, 0.5) == 1234567.0);
  DM_CHECK (dm_histogram_quantile (&h, 0.9999) == 1234567.0);

  /* One sample: every percentile is that sample. */
  samples[0] = 987654321;
  check_against_exact ("single", 1, 0);
}

static void
test_bucket_edges (void)
{
  size_t n = 0;
  /* Each value around the start of buckets all over the range, including
   * every power of two, where the bucket width doubles. */
  for (unsigned i = 100; i < DM_HIST_BUCKETS && n + 3 <= N_SAMPLES; i += 7)
    {
      uint64_t low = dm_histogram_bucket_low (i);
      samples[n++] = low - 1;
      samples[n++] = low;
      samples[n++] = low + dm_histogram_bucket_width (i) - 1;
    }
  for (unsigned e = 7; e <= DM_HIST_MAX_EXP; e++)
    {
      samples[n++] = (1ull << e) - 1;
      samples[n++] = 1ull << e;
    }
  check_against_exact ("bucket edges", n, 0.01);

  /* Two values in neighbouring buckets: p50 must pick the lower, p90 the
   * upper, not blur them into one bucket. */
  for (size_t i = 0; i < 1000; i++)
    samples[i] = i < 500 ? 65535 : 65536;
  check_against_exact ("neighbours", 1000, 0.01);
  DM_CHECK (dm_histogram_quantile (&h, 0.5) < 65536);
  DM_CHECK (dm_histogram_quantile (&h, 0.9) >= 65536);
}

static void
test_huge (void)
{
  /* Up to 2^41 ns the buckets still resolve to 1/64. */
  for (size_t i = 0; i < 1000; i++)
    samples[i] = (1ull << 40) + i * ((1ull << 40) / 1000);
  check_against_exact ("2^40 to 2^41 ns", 1000, 0.01);

  /* Beyond that values share the last bucket: recording them must not run
   * off the array, min, max and mean stay exact, and no percentile falls
   * below the last bucket or above the true maximum. */
  DM_CHECK_INT (dm_histogram_bucket (1ull << 41), ==, DM_HIST_BUCKETS - 1);
  DM_CHECK_INT (dm_histogram_bucket (UINT64_MAX), ==, DM_HIST_BUCKETS - 1);
  dm_histogram_reset (&h);
  dm_histogram_add (&h, 1000, 1);
  dm_histogram_add (&h, 1ull << 45, 1);
  dm_histogram_add (&h, 1ull << 50, 2);
  DM_CHECK_INT (h.count, ==, 4);
  DM_CHECK_INT (h.min, ==, 1000);
  DM_CHECK_INT (h.max, ==, 1ull << 50);
  DM_CHECK_INT (h.buckets[DM_HIST_BUCKETS - 1], ==, 3);
  DM_CHECK_NEAR (dm_histogram_mean (&h), (1000.0 + 0x1p45 + 2 * 0x1p50) / 4, 1e-12);
  double p99 = dm_histogram_quantile (&h, 0.99);
  DM_CHECK (p99 >= (double) dm_histogram_bucket_low (DM_HIST_BUCKETS - 1));
  DM_CHECK (p99 <= 0x1p50);
  DM_CHECK_NEAR (dm_histogram_quantile (&h, 0.25), 1000.0, 0.01);

  /* All samples past the range: min and max pin the answer to the truth. */
  for (size_t i = 0; i < 100; i++)
    samples[i] = 1ull << 50;
  check_against_exact ("all past the last bucket", 100, 0);
}

static void
test_empty (void)
{
  dm_histogram_reset (&h);
  DM_CHECK (dm_histogram_quantile (&h, 0.5) == 0);
  DM_CHECK (dm_histogram_mean (&h) == 0);
  DM_CHECK (dm_histogram_stdev (&h) == 0);
}

static void
test_merge (void)
{
  dm_rng r;
  dm_rng_seed (&r, 4);
  for (size_t i = 0; i < 2 * N_SAMPLES; i++)
    samples[i] = (uint64_t) llround (exp (log (50000.0) + 1.5 * gaussian (&r)));

  /* Two workers, each with its own half, against one histogram of all;
   * the halves have different ranges so min and max come from each. */
  dm_histogram_reset (&h);
  dm_histogram_reset (&h2);
  dm_histogram_reset (&all);
  for (size_t i = 0; i < 2 * N_SAMPLES; i++)
    {
      dm_histogram_add (i % 3 ? &h : &h2, samples[i], 1);
      dm_histogram_add (&all, samples[i], 1);
    }
  dm_histogram_add (&h2, 3, 1);
  dm_histogram_add (&all, 3, 1);
  dm_histogram_add (&h, 1ull << 38, 1);
  dm_histogram_add (&all, 1ull << 38, 1);

  dm_histogram merged;
  dm_histogram_reset (&merged);
  dm_histogram_merge (&merged, &h);
  dm_histogram_merge (&merged, &h2);
  dm_histogram_reset (&h); /* an idle worker adds nothing */
  dm_histogram_merge (&merged, &h);

  DM_CHECK_INT (merged.count, ==, all.count);
  DM_CHECK_INT (merged.min, ==, 3);
  DM_CHECK_INT (merged.max, ==, 1ull << 38);
  DM_CHECK (memcmp (merged.buckets, all.buckets, sizeof all.buckets) == 0);
  DM_CHECK_NEAR (dm_histogram_mean (&merged), dm_histogram_mean (&all), 1e-12);
  DM_CHECK_NEAR (dm_histogram_stdev (&merged), dm_histogram_stdev (&all), 1e-9);
  for (size_t k = 0; k < sizeof quantiles / sizeof quantiles[0]; k++)
    DM_CHECK (dm_histogram_quantile (&merged, quantiles[k].q)
              == dm_histogram_quantile (&all, quantiles[k].q));
}

static void
test_buckets (void)
{
  unsigned bad_index = 0, bad_next = 0, bad_width = 0, bad_top = 0;

  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    {
      uint64_t low = dm_histogram_bucket_low (i), width = dm_histogram_bucket_width (i);
      /* A bucket holds exactly the values from low to low + width - 1. */
      if (dm_histogram_bucket (low) != i || dm_histogram_bucket (low + width - 1) != i)
        bad_index++;
      if (i + 1 < DM_HIST_BUCKETS && dm_histogram_bucket_low (i + 1) != low + width)
        bad_next++;
      /* Resolution: exact below 64 ns, within 1/64 of the value above. */
      if (width == 0 || (low < 64 ? width != 1 : width * 64 > low))
        bad_width++;
    }
  /* The last bucket reaches 2^41 ns, past the documented 2^40. */
  uint64_t last = DM_HIST_BUCKETS - 1;
  if (dm_histogram_bucket_low (last) + dm_histogram_bucket_width (last) < (1ull << 40))
    bad_top++;

  DM_CHECK_INT (bad_index, ==, 0);
  DM_CHECK_INT (bad_next, ==, 0);
  DM_CHECK_INT (bad_width, ==, 0);
  DM_CHECK_INT (bad_top, ==, 0);
  DM_CHECK_INT (dm_histogram_bucket (0), ==, 0);
  DM_CHECK_INT (dm_histogram_bucket_low (0), ==, 0);
}

int
main (void)
{
  DM_RUN ("/engine/histogram/buckets", test_buckets);
  DM_RUN ("/engine/histogram/empty", test_empty);
  DM_RUN ("/engine/histogram/percentiles/uniform", test_uniform);
  DM_RUN ("/engine/histogram/percentiles/log-normal", test_lognormal);
  DM_RUN ("/engine/histogram/percentiles/exponential", test_exponential);
  DM_RUN ("/engine/histogram/percentiles/constant", test_constant);
  DM_RUN ("/engine/histogram/percentiles/bucket-edges", test_bucket_edges);
  DM_RUN ("/engine/histogram/percentiles/huge", test_huge);
  DM_RUN ("/engine/histogram/merge", test_merge);
  return dm_test_done ();
}
