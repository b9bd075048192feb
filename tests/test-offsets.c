/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where the runner puts its I/O, recorded by the in-memory backend: every
 * offset block-aligned and inside the file; SEQ threads each walking their
 * own region in block steps and together covering the file; RND offsets
 * spread evenly over every block; Mix honouring its read share; and no two
 * written blocks carrying the same data.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"

#define FILE_SIZE (16ull << 20)

static const char *target = ".";

/* Stops the run once the backend has seen enough I/Os. */
typedef struct {
  dm_runner *runner;
  uint64_t   want;
} until_ios;

static void
stop_at_ios (void *user, const dm_progress *p)
{
  until_ios *u = user;
  if (p->phase == DM_PHASE_MEASURE && dm_test_backend_ios () >= u->want)
    dm_runner_cancel (u->runner);
}

/* Runs a test until the backend has recorded at least min I/Os, then stops
 * it from the runner's own progress callback: a count, not a time, so a
 * build with a sanitizer or a busy machine (several times fewer I/Os a
 * second) records as many. 60 s is only a bound. */
static dm_test_record *
run_one_min (const char *test, dm_mode mode, uint64_t min, uint64_t *n)
{
  dm_settings s;
  dm_report r;
  dm_spec spec;
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = FILE_SIZE;
  s.measure_s = 60;
  s.warmup_s = 0;
  s.interval_s = 0;
  DM_CHECK (dm_spec_parse (test, &spec, NULL, 0) == 0);
  DM_CHECK (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (mode)) == 0);
  dm_test_backend_reset (NULL, 1u << 22);
  dm_runner *runner = dm_runner_new (&r, target);
  until_ios until = { runner, min };
  dm_runner_set_backend (runner, &dm_test_backend);
  dm_runner_set_progress (runner, stop_at_ios, &until);
  DM_CHECK_INT (dm_runner_run (runner), ==, -ECANCELED);
  dm_runner_free (runner);
  dm_report_clear (&r);
  return dm_test_backend_records (n);
}

static void
check_aligned_in_range (const dm_test_record *rec, uint64_t n, uint32_t block)
{
  for (uint64_t i = 0; i < n; i++)
    if (rec[i].offset % block || rec[i].offset + rec[i].len > FILE_SIZE || rec[i].len != block)
      {
        DM_CHECK (!"offset aligned and inside the file");
        return;
      }
}

static void
test_seq (void)
{
  const uint32_t block = 128 * 1024;
  const unsigned threads = 4;
  const uint64_t region = FILE_SIZE / threads;
  uint64_t n;
  dm_test_record *rec = run_one_min ("SEQ128K_Q8T4", DM_MODE_READ, 1000, &n);
  DM_CHECK (n >= 1000);
  check_aligned_in_range (rec, n, block);

  /* Per thread: one region, block steps, wrapping to the region start. */
  uint64_t last[256], region_of[256];
  bool seen[256] = { false };
  bool covered[FILE_SIZE / (128 * 1024)] = { false };
  for (uint64_t i = 0; i < n; i++)
    {
      unsigned q = rec[i].queue;
      uint64_t off = rec[i].offset;
      covered[off / block] = true;
      if (!seen[q])
        {
          seen[q] = true;
          region_of[q] = off / region;
          DM_CHECK_INT (off % region, ==, 0); /* starts at its region's start */
        }
      else
        {
          DM_CHECK_INT (off / region, ==, region_of[q]);
          uint64_t want = last[q] + block;
          if (want == (region_of[q] + 1) * region)
            want = region_of[q] * region;
          if (off != want)
            {
              DM_CHECK_INT (off, ==, want);
              break;
            }
        }
      last[q] = off;
    }
  bool regions[4] = { false };
  unsigned queues = 0;
  for (unsigned q = 0; q < 256; q++)
    if (seen[q])
      {
        queues++;
        regions[region_of[q]] = true;
      }
  DM_CHECK_INT (queues, ==, threads);
  for (unsigned i = 0; i < threads; i++)
    DM_CHECK (regions[i]);
  for (uint64_t b = 0; b < FILE_SIZE / block; b++)
    if (!covered[b])
      {
        DM_CHECK (!"every block of the file is read");
        break;
      }
}

static void
test_rnd (void)
{
  const uint32_t block = 4096;
  const uint64_t blocks = FILE_SIZE / block;
  uint64_t n;
  dm_test_record *rec = run_one_min ("RND4K_Q32T2", DM_MODE_READ, 20 * blocks, &n);
  DM_CHECK (n >= 20 * blocks);
  check_aligned_in_range (rec, n, block);

  uint32_t *hits = calloc (blocks, sizeof *hits);
  for (uint64_t i = 0; i < n; i++)
    hits[rec[i].offset / block]++;
  uint64_t untouched = 0;
  for (uint64_t b = 0; b < blocks; b++)
    untouched += hits[b] == 0;
  DM_CHECK_INT (untouched, ==, 0);

  /* Chi-square over 64 equal bins: uniform offsets give about 63 with a
   * standard deviation of 11; 150 would be a clearly skewed generator. */
  double bins[64] = { 0 }, expect = (double) n / 64, chi = 0;
  for (uint64_t b = 0; b < blocks; b++)
    bins[b * 64 / blocks] += hits[b];
  for (int i = 0; i < 64; i++)
    chi += (bins[i] - expect) * (bins[i] - expect) / expect;
  printf ("# %llu random offsets, chi-square over 64 bins %.1f\n", (unsigned long long) n, chi);
  DM_CHECK (chi < 150);
  free (hits);
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

static void
test_mix_and_write_data (void)
{
  uint64_t n, writes = 0;
  dm_test_record *rec = run_one_min ("RND4K_Q32T1", DM_MODE_MIX, 10000, &n);
  DM_CHECK (n >= 10000);
  uint64_t *heads = malloc (n * sizeof *heads);
  for (uint64_t i = 0; i < n; i++)
    if (rec[i].write)
      heads[writes++] = rec[i].head;
  double share = (double) writes / (double) n;
  printf ("# mix: %.2f%% writes of %llu I/Os\n", share * 100, (unsigned long long) n);
  DM_CHECK (share > 0.28 && share < 0.32);

  /* Every written block starts with different bytes: storage that
   * deduplicates or compresses cannot skip the work. */
  qsort (heads, writes, sizeof *heads, cmp_u64);
  uint64_t dups = 0;
  for (uint64_t i = 1; i < writes; i++)
    dups += heads[i] == heads[i - 1];
  DM_CHECK_INT (dups, ==, 0);
  free (heads);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    target = argv[1];
  DM_RUN ("/engine/offsets/seq", test_seq);
  DM_RUN ("/engine/offsets/rnd", test_rnd);
  DM_RUN ("/engine/offsets/mix-and-write-data", test_mix_and_write_data);
  dm_test_backend_reset (NULL, 0);
  return dm_test_done ();
}
