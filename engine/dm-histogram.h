/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A log-linear latency histogram in the manner of HdrHistogram: 64 linear
 * sub-buckets per power of two, so any value is known to within 1/128 of
 * itself (0.8%) once reported at its bucket's midpoint. Fixed size, no
 * allocation on record, and mergeable, so each worker keeps its own and the
 * runner adds them up after the run.
 */
#pragma once

#include <stdint.h>

#define DM_HIST_SUB_BITS 6
#define DM_HIST_SUB      (1u << DM_HIST_SUB_BITS)           /* 64 */
#define DM_HIST_MAX_EXP  40                                 /* 2^40 ns, about 18 minutes */
#define DM_HIST_BUCKETS  ((DM_HIST_MAX_EXP - DM_HIST_SUB_BITS + 1) * DM_HIST_SUB + DM_HIST_SUB)

typedef struct dm_histogram {
  uint64_t count;
  uint64_t min;       /* ns, exact */
  uint64_t max;       /* ns, exact */
  double   sum;       /* ns */
  double   sum_sq;    /* ns^2, for the standard deviation */
  uint64_t buckets[DM_HIST_BUCKETS];
} dm_histogram;

void dm_histogram_reset (dm_histogram *h);
void dm_histogram_merge (dm_histogram *into, const dm_histogram *from);
double dm_histogram_mean (const dm_histogram *h);
double dm_histogram_stdev (const dm_histogram *h);
/* The value below which a fraction q (0..1) of the samples lie, in ns. */
double dm_histogram_quantile (const dm_histogram *h, double q);

/* Values below 128 ns get a bucket each; from there on each power of two
 * 2^msb is cut into 64 buckets of width 2^(msb-6). */
static inline unsigned
dm_histogram_bucket (uint64_t ns)
{
  if (ns < 2 * DM_HIST_SUB)
    return (unsigned) ns;
  unsigned msb = 63u - (unsigned) __builtin_clzll (ns);
  if (msb > DM_HIST_MAX_EXP)
    return DM_HIST_BUCKETS - 1;
  unsigned shift = msb - DM_HIST_SUB_BITS;
  return shift * DM_HIST_SUB + (unsigned) (ns >> shift);
}

/* Lowest value and width of a bucket, in ns. */
uint64_t dm_histogram_bucket_low (unsigned index);
uint64_t dm_histogram_bucket_width (unsigned index);

static inline void
dm_histogram_add (dm_histogram *h, uint64_t ns, uint64_t n)
{
  h->buckets[dm_histogram_bucket (ns)] += n;
  h->count += n;
  if (ns < h->min)
    h->min = ns;
  if (ns > h->max)
    h->max = ns;
  h->sum += (double) ns * (double) n;
  h->sum_sq += (double) ns * (double) ns * (double) n;
}
