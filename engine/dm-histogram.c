/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Log-linear latency histogram: merging, moments and quantiles. A quantile
 * is reported at its bucket's midpoint, clamped to the exact min and max, so
 * it is within 0.8% of the true sample value.
 */
#include "dm-histogram.h"

#include <math.h>
#include <string.h>

void
dm_histogram_reset (dm_histogram *h)
{
  memset (h, 0, sizeof *h);
  h->min = UINT64_MAX;
}

void
dm_histogram_merge (dm_histogram *into, const dm_histogram *from)
{
  if (from->count == 0)
    return;
  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    into->buckets[i] += from->buckets[i];
  into->count += from->count;
  into->sum += from->sum;
  into->sum_sq += from->sum_sq;
  if (from->min < into->min)
    into->min = from->min;
  if (from->max > into->max)
    into->max = from->max;
}

double
dm_histogram_mean (const dm_histogram *h)
{
  return h->count ? h->sum / (double) h->count : 0.0;
}

double
dm_histogram_stdev (const dm_histogram *h)
{
  if (h->count < 2)
    return 0.0;
  double mean = dm_histogram_mean (h);
  double var = h->sum_sq / (double) h->count - mean * mean;
  return var > 0 ? sqrt (var) : 0.0;
}

uint64_t
dm_histogram_bucket_low (unsigned index)
{
  if (index < 2 * DM_HIST_SUB)
    return index;
  unsigned shift = index / DM_HIST_SUB - 1;
  uint64_t top = index - shift * DM_HIST_SUB;
  return top << shift;
}

uint64_t
dm_histogram_bucket_width (unsigned index)
{
  if (index < 2 * DM_HIST_SUB)
    return 1;
  return 1ull << (index / DM_HIST_SUB - 1);
}

double
dm_histogram_quantile (const dm_histogram *h, double q)
{
  if (h->count == 0)
    return 0.0;
  if (q <= 0)
    return (double) h->min;
  if (q >= 1)
    return (double) h->max;
  /* The rank of the sample we want, 1-based: the smallest value with at
   * least q of the samples at or below it. */
  uint64_t rank = (uint64_t) ceil (q * (double) h->count);
  if (rank < 1)
    rank = 1;
  uint64_t seen = 0;
  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    {
      seen += h->buckets[i];
      if (seen >= rank)
        {
          double low = (double) dm_histogram_bucket_low (i);
          double width = (double) dm_histogram_bucket_width (i);
          double v = width > 1 ? low + (width - 1) / 2.0 : low;
          if (v < (double) h->min)
            v = (double) h->min;
          if (v > (double) h->max)
            v = (double) h->max;
          return v;
        }
    }
  return (double) h->max;
}
