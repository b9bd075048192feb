/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host-cache ladder's plan, its reports and the step analysis. The
 * measuring is the ordinary runner's, one small report per working set;
 * the steps come from the results alone, so a saved probe gives the same
 * steps as the live one. The writers are in dm-cache-probe-write.c.
 */
#include "dm-cache-probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-units.h"

const dm_spec dm_cache_probe_tests[DM_CACHE_PROBE_TESTS] = {
  { DM_RND, 4096, 32, 1 },
  { DM_SEQ, 1u << 20, 8, 1 },
};

void
dm_cache_probe_plan_init (dm_cache_probe_plan *p)
{
  memset (p, 0, sizeof *p);
  p->mode = DM_MODE_READ;
  p->min = DM_CACHE_PROBE_MIN_DEFAULT;
  p->max = 0;
  p->time_limit_s = 600;
  p->measure_s = 2;
  p->warmup_s = 0.5;
}

int
dm_cache_probe_sizes (const dm_cache_probe_plan *p, uint64_t memory, uint64_t room,
                      uint64_t *sizes, unsigned *n, char *why, size_t ws)
{
  char a[32], b[32];
  uint64_t max = p->max ? p->max : memory * DM_CACHE_PROBE_RAM_FACTOR;

  *n = 0;
  if (p->min < DM_TEST_SIZE_MIN || p->min > DM_TEST_SIZE_MAX || p->min % DM_BLOCK_MAX_ALIGN)
    return dm_why (why, ws, "--min: the smallest working set is 16MiB to 64GiB, whole MiB");
  if (!max)
    return dm_why (why, ws, "this system's memory is unknown: give the largest working set "
                            "with --max");
  if (max < p->min)
    {
      dm_size_human (max, a, sizeof a);
      dm_size_human (p->min, b, sizeof b);
      return dm_why (why, ws, "--max %s is under --min %s", a, b);
    }
  if (max > DM_TEST_SIZE_MAX)
    max = DM_TEST_SIZE_MAX;
  if (room && max > room)
    max = room;
  if (max < p->min)
    {
      dm_size_human (room, a, sizeof a);
      dm_size_human (p->min, b, sizeof b);
      dm_why (why, ws, "not enough free space: room for a working set of %s, under --min %s",
              a, b);
      return -ENOSPC;
    }
  for (uint64_t s = p->min; s <= max && *n < DM_CACHE_PROBE_SIZES; s *= 2)
    sizes[(*n)++] = s;
  return 0;
}

int
dm_cache_probe_report_init (dm_report *r, const dm_cache_probe_plan *p, const uint64_t *sizes,
                            unsigned n, const dm_settings *base, char *why, size_t ws)
{
  dm_settings s = *base;
  dm_spec specs[2 * DM_CACHE_PROBE_SIZES];

  if (p->mode != DM_MODE_READ && p->mode != DM_MODE_WRITE)
    return dm_why (why, ws, "the cache probe reads or writes, it does not mix");
  if (!n || n > DM_CACHE_PROBE_SIZES)
    return dm_why (why, ws, "no working set to measure");
  s.count = 1;
  s.measure_s = p->measure_s;
  s.warmup_s = p->warmup_s;
  s.warmup_steady = false;
  s.interval_s = 0;
  s.precondition = 0;
  s.test_size = sizes[n - 1];
  int err = dm_settings_check (&s, why, ws);
  if (err < 0)
    return err;
  for (unsigned k = 0; k < n; k++)
    for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
      specs[k * DM_CACHE_PROBE_TESTS + t] = dm_cache_probe_tests[t];
  err = dm_report_init (r, &s, specs, n * DM_CACHE_PROBE_TESTS, DM_MODE_BIT (p->mode));
  if (err < 0)
    return dm_why (why, ws, "out of memory");
  snprintf (r->profile, sizeof r->profile, "cache-probe");
  return 0;
}

unsigned
dm_cache_probe_n_sizes (const dm_report *r)
{
  return r->n_results / DM_CACHE_PROBE_TESTS;
}

uint64_t
dm_cache_probe_size (const dm_report *r, unsigned k)
{
  unsigned n = dm_cache_probe_n_sizes (r);
  return k < n ? r->settings.test_size >> (n - 1 - k) : 0;
}

bool
dm_cache_probe_is (const dm_report *r)
{
  return !strcmp (r->profile, "cache-probe") && r->n_results
         && r->n_results % DM_CACHE_PROBE_TESTS == 0
         && dm_cache_probe_n_sizes (r) <= DM_CACHE_PROBE_SIZES;
}

int
dm_cache_probe_size_report (dm_report *sub, const dm_report *r, unsigned k)
{
  dm_settings s = r->settings;
  s.test_size = dm_cache_probe_size (r, k);
  int err = dm_report_init (sub, &s, dm_cache_probe_tests, DM_CACHE_PROBE_TESTS,
                            DM_MODE_BIT (r->results[0].mode));
  if (err < 0)
    return err;
  snprintf (sub->profile, sizeof sub->profile, "cache-probe");
  dm_report_set_comment (sub, r->comment);
  memcpy (sub->tags, r->tags, sizeof r->tags);
  sub->n_tags = r->n_tags;
  return 0;
}

void
dm_cache_probe_take (dm_report *r, unsigned k, const dm_report *sub)
{
  for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS && t < sub->n_results; t++)
    dm_result_copy (&r->results[k * DM_CACHE_PROBE_TESTS + t], &sub->results[t]);
  r->prepare_bytes += sub->prepare_bytes;
  r->warmup_bytes += sub->warmup_bytes;
  r->measured_bytes += sub->measured_bytes;
}

double
dm_cache_probe_size_seconds (const dm_report *r)
{
  return DM_CACHE_PROBE_TESTS * (r->settings.warmup_s + r->settings.count * r->settings.measure_s);
}

/* ---- steps ------------------------------------------------------------- */

/* Least squares of y = a + b x over points [from, to); through the origin
 * (a = 0) when asked. The slope, or 0 without a line. */
static double
slope_of (const double *x, const double *y, unsigned from, unsigned to, bool origin, double *a)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  unsigned m = to - from;
  *a = 0;
  for (unsigned i = from; i < to; i++)
    {
      sx += x[i];
      sy += y[i];
      sxx += x[i] * x[i];
      sxy += x[i] * y[i];
    }
  if (origin)
    return sxx > 0 ? sxy / sxx : 0;
  if (m < 2)
    return 0;
  double d = m * sxx - sx * sx;
  if (d <= 0)
    return 0;
  double b = (m * sxy - sx * sy) / d;
  *a = (sy - b * sx) / m;
  return b;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
dm_cache_probe_find_steps (dm_cache_probe_ladder *l)
{
  unsigned n = l->n;
  double w[DM_CACHE_PROBE_SIZES], t[DM_CACHE_PROBE_SIZES], m[DM_CACHE_PROBE_SIZES];
  double lv[DM_CACHE_PROBE_SIZES];

  l->n_steps = 0;
  if (n < 2)
    return;
  /* MB and seconds: T is how long one pass at random over the set takes. */
  for (unsigned i = 0; i < n; i++)
    {
      if (!(l->mb_per_s[i] > 0))
        return;
      w[i] = (double) l->bytes[i] / 1e6;
      t[i] = w[i] / l->mb_per_s[i];
    }
  /* m[i]: the rate of the bytes from size i-1 to size i (size 0: from
   * nothing). A set read faster than the smaller one before it (noise)
   * adds its bytes at no cost: an endless rate, no fall. */
  m[0] = l->mb_per_s[0];
  for (unsigned i = 1; i < n; i++)
    m[i] = t[i] > t[i - 1] ? (w[i] - w[i - 1]) / (t[i] - t[i - 1]) : INFINITY;

  unsigned start = 0;    /* the level's first size */
  unsigned n_lv = 0;     /* its intervals' rates, for their median */
  lv[n_lv++] = m[0];
  for (unsigned i = 1; i < n && l->n_steps < DM_CACHE_PROBE_STEPS; i++)
    {
      double sorted[DM_CACHE_PROBE_SIZES];
      memcpy (sorted, lv, n_lv * sizeof *lv);
      qsort (sorted, n_lv, sizeof *sorted, cmp_double);
      double level = n_lv % 2 ? sorted[n_lv / 2] : (sorted[n_lv / 2 - 1] + sorted[n_lv / 2]) / 2;
      bool fall = m[i] < (1 - DM_CACHE_PROBE_FALL) * level
                  && l->mb_per_s[i] < (1 - DM_CACHE_PROBE_RATE_FALL) * l->mb_per_s[i - 1];
      if (!fall)
        {
          if (isfinite (m[i]))
            lv[n_lv++] = m[i];
          continue;
        }
      /* The cache ends in (size i-1, size i]: sizes from i on are past it.
       * The level after runs up to the next fall, found the same way
       * against the rate of its first whole interval. */
      unsigned end = i + 1;
      if (end < n)
        {
          double after = m[i + 1];
          for (end = i + 2; end < n; end++)
            if (m[end] < (1 - DM_CACHE_PROBE_FALL) * after
                && l->mb_per_s[end] < (1 - DM_CACHE_PROBE_RATE_FALL) * l->mb_per_s[end - 1])
              break;
        }
      /* A fall the sizes after it climb back from is a stall, not a
       * cache that ended: every size after it stays under the size
       * before it. */
      bool stays = true;
      for (unsigned k = i; k < n; k++)
        stays = stays && l->mb_per_s[k] < (1 - DM_CACHE_PROBE_RATE_FALL) * l->mb_per_s[i - 1];
      /* Past a cache a larger set is never faster than a smaller one: a
       * rise by more than the noise between two sizes after the fall says
       * the fall was the machine, not a cache. */
      for (unsigned k = i + 1; k < n; k++)
        stays = stays && l->mb_per_s[k] < (1 + DM_CACHE_PROBE_RATE_FALL) * l->mb_per_s[k - 1];
      if (!stays)
        continue;
      dm_cache_probe_step *s = &l->steps[l->n_steps++];
      double a0, a1;
      double b0 = slope_of (w, t, start, i, start == 0, &a0);
      double b1 = slope_of (w, t, i, end, false, &a1);
      memset (s, 0, sizeof *s);
      s->below = l->bytes[i - 1];
      s->above = l->bytes[i];
      s->cache_mb_per_s = b0 > 0 ? 1 / b0 : level;
      if (end - i >= 2 && b1 > b0 && b1 > 0)
        {
          /* a0 + b0 W = a1 + b1 W */
          double c = (a1 - a0) / (b0 - b1);
          c = fmin (fmax (c, w[i - 1]), w[i]);
          s->estimated = true;
          s->cache_bytes = (uint64_t) llround (c * 1e6);
          s->beyond_mb_per_s = 1 / b1;
        }
      else
        {
          s->cache_bytes = l->bytes[i - 1];
          s->beyond_mb_per_s = l->mb_per_s[i];
        }
      /* The next level starts past the fall, at size i. */
      start = i;
      n_lv = 0;
      if (i + 1 < n && isfinite (m[i + 1]))
        lv[n_lv++] = m[i + 1];
      else
        lv[n_lv++] = l->mb_per_s[i];
      i++;
    }
}

void
dm_cache_probe_ladder_of (const dm_report *r, unsigned t, dm_cache_probe_ladder *l)
{
  memset (l, 0, sizeof *l);
  unsigned n = dm_cache_probe_n_sizes (r);
  for (unsigned k = 0; k < n && k < DM_CACHE_PROBE_SIZES; k++)
    {
      const dm_result *res = &r->results[k * DM_CACHE_PROBE_TESTS + t];
      /* A ladder ends at the first size that did not finish. */
      if (res->status != DM_STATUS_COMPLETE || !(res->mb_per_s > 0))
        break;
      l->bytes[l->n] = dm_cache_probe_size (r, k);
      l->mb_per_s[l->n] = dm_figure_as_saved (res->mb_per_s);
      l->n++;
    }
  dm_cache_probe_find_steps (l);
}
