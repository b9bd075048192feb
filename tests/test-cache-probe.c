/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cache probe's step analysis on ladders whose truth is arithmetic:
 * random reads over a set of W served C / W from a cache of C at one rate
 * and the rest at another (the harmonic mix every cache gives uniform
 * random reads), at caches between sizes and on one; two caches; a flat
 * ladder with noise and a dip it climbs back from (no step); a step at the
 * ladder's end (bracketed only); and the sizes a plan gives.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dm-cache-probe.h"
#include "dm-test.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* The rate over a set of w bytes with caches caps[] at rates[] (the last
 * rate: the device past them all). */
static double
rate_of (uint64_t w, const uint64_t *caps, const double *rates, unsigned n_caps)
{
  double time = 0, left = (double) w, done = 0;
  for (unsigned k = 0; k < n_caps && left > 0; k++)
    {
      double part = fmin (left, (double) caps[k] - done);
      if (part > 0)
        {
          time += part / rates[k];
          left -= part;
          done += part;
        }
    }
  time += left / rates[n_caps];
  return (double) w / time;
}

static void
ladder (dm_cache_probe_ladder *l, uint64_t min, unsigned n, const uint64_t *caps,
        const double *rates, unsigned n_caps)
{
  memset (l, 0, sizeof *l);
  l->n = n;
  for (unsigned i = 0; i < n; i++)
    {
      l->bytes[i] = min << i;
      l->mb_per_s[i] = rate_of (l->bytes[i], caps, rates, n_caps);
    }
  dm_cache_probe_find_steps (l);
}

static bool
near (double a, double b, double pct)
{
  return fabs (a - b) <= fabs (b) * pct / 100;
}

static void
test_one_cache (void)
{
  /* 24 GiB of host cache at 3100 MB/s, 480 MB/s past it. */
  uint64_t caps[] = { 24 * GiB };
  double rates[] = { 3100, 480 };
  dm_cache_probe_ladder l;
  ladder (&l, 64 * MiB, 11, caps, rates, 1);
  DM_CHECK_INT (l.n_steps, ==, 1);
  DM_CHECK (l.steps[0].estimated);
  DM_CHECK (l.steps[0].below == 16 * GiB && l.steps[0].above == 32 * GiB);
  DM_CHECK (near ((double) l.steps[0].cache_bytes, 24.0 * GiB, 0.1));
  DM_CHECK (near (l.steps[0].cache_mb_per_s, 3100, 0.1));
  DM_CHECK (near (l.steps[0].beyond_mb_per_s, 480, 0.1));
  char text[256];
  dm_cache_probe_step_text (&l.steps[0], text, sizeof text);
  DM_CHECK_STR (text, "about 24.0GiB served by a cache below this VM at 3100.0 MB/s; "
                      "beyond it 480.0 MB/s");

  /* A cache of exactly one size: no interval holds a mix. */
  caps[0] = 1 * GiB;
  ladder (&l, 64 * MiB, 8, caps, rates, 1);
  DM_CHECK_INT (l.n_steps, ==, 1);
  DM_CHECK (near ((double) l.steps[0].cache_bytes, 1.0 * GiB, 0.1));
  DM_CHECK (near (l.steps[0].beyond_mb_per_s, 480, 0.1));
}

static void
test_two_caches (void)
{
  /* A controller's 512 MiB at 6000 MB/s, then a host's 8 GiB at 2000,
   * then the disk at 300. */
  uint64_t caps[] = { 512 * MiB, 8 * GiB };
  double rates[] = { 6000, 2000, 300 };
  dm_cache_probe_ladder l;
  ladder (&l, 64 * MiB, 11, caps, rates, 2);
  DM_CHECK_INT (l.n_steps, ==, 2);
  DM_CHECK (near ((double) l.steps[0].cache_bytes, 512.0 * MiB, 1));
  DM_CHECK (near (l.steps[0].cache_mb_per_s, 6000, 1));
  DM_CHECK (near (l.steps[0].beyond_mb_per_s, 2000, 1));
  DM_CHECK (near ((double) l.steps[1].cache_bytes, 8.0 * GiB, 1));
  DM_CHECK (near (l.steps[1].cache_mb_per_s, 2000, 1));
  DM_CHECK (near (l.steps[1].beyond_mb_per_s, 300, 1));
}

static void
test_no_step (void)
{
  /* A flat disk with 3 % noise and one slow size it climbs back from. */
  static const double noise[] = { 1.00, 0.97, 1.03, 0.99, 0.70, 1.02, 0.98, 1.01 };
  dm_cache_probe_ladder l;
  memset (&l, 0, sizeof l);
  l.n = 8;
  for (unsigned i = 0; i < l.n; i++)
    {
      l.bytes[i] = (64 * MiB) << i;
      l.mb_per_s[i] = 500 * noise[i];
    }
  dm_cache_probe_find_steps (&l);
  DM_CHECK_INT (l.n_steps, ==, 0);

  /* A slide over three sizes that the largest climbs back from (a busy
   * host): no cache is slower for a smaller set than for a larger one. */
  static const double busy[] = { 220, 258, 230, 215, 227, 176, 146, 97, 199 };
  memset (&l, 0, sizeof l);
  l.n = 9;
  for (unsigned i = 0; i < l.n; i++)
    {
      l.bytes[i] = (64 * MiB) << i;
      l.mb_per_s[i] = busy[i];
    }
  dm_cache_probe_find_steps (&l);
  DM_CHECK_INT (l.n_steps, ==, 0);
}

static void
test_step_at_end (void)
{
  /* Only the last size is past the cache: bracketed, not solved. */
  uint64_t caps[] = { 3 * GiB };
  double rates[] = { 3000, 300 };
  dm_cache_probe_ladder l;
  ladder (&l, 256 * MiB, 5, caps, rates, 1);
  DM_CHECK_INT (l.n_steps, ==, 1);
  DM_CHECK (!l.steps[0].estimated);
  DM_CHECK (l.steps[0].below == 2 * GiB && l.steps[0].above == 4 * GiB);
  DM_CHECK (near (l.steps[0].beyond_mb_per_s, rate_of (4 * GiB, caps, rates, 1), 0.01));
}

static void
test_sizes (void)
{
  dm_cache_probe_plan p;
  uint64_t sizes[DM_CACHE_PROBE_SIZES];
  unsigned n;
  char why[200];
  dm_cache_probe_plan_init (&p);
  /* 8 GiB of memory: 64 MiB up to 32 GiB. */
  DM_CHECK_INT (dm_cache_probe_sizes (&p, 8 * GiB, 0, sizes, &n, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 10);
  DM_CHECK (sizes[0] == 64 * MiB && sizes[9] == 32 * GiB);
  /* The free space bounds it. */
  DM_CHECK_INT (dm_cache_probe_sizes (&p, 8 * GiB, 5 * GiB, sizes, &n, why, sizeof why), ==, 0);
  DM_CHECK (n == 7 && sizes[6] == 4 * GiB);
  DM_CHECK_INT (dm_cache_probe_sizes (&p, 8 * GiB, 32 * MiB, sizes, &n, why, sizeof why), ==,
                -ENOSPC);
  DM_CHECK (strstr (why, "not enough free space"));
  p.max = 32 * MiB;
  DM_CHECK_INT (dm_cache_probe_sizes (&p, 8 * GiB, 0, sizes, &n, why, sizeof why), ==, -EINVAL);
  p.min = 16 * MiB;
  p.max = 100 * MiB;
  DM_CHECK_INT (dm_cache_probe_sizes (&p, 8 * GiB, 0, sizes, &n, why, sizeof why), ==, 0);
  DM_CHECK (n == 3 && sizes[2] == 64 * MiB);
}

int
main (void)
{
  DM_RUN ("/engine/cache-probe/one-cache", test_one_cache);
  DM_RUN ("/engine/cache-probe/two-caches", test_two_caches);
  DM_RUN ("/engine/cache-probe/no-step", test_no_step);
  DM_RUN ("/engine/cache-probe/step-at-end", test_step_at_end);
  DM_RUN ("/engine/cache-probe/sizes", test_sizes);
  return dm_test_done ();
}
