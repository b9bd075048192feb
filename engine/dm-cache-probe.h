/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host-cache ladder: random 4K and sequential 1M measured over working
 * sets that double from a small size up to several times the guest's
 * memory, each working set written whole first (the runner's fill), so a
 * cache below the guest can hold it. The test file is O_DIRECT, so the
 * guest's own page cache serves none of it: where the rate falls, a cache
 * below this VM (the host's page cache, a controller's or an array's)
 * stopped holding the set. A plan becomes one report with a pair of
 * results per size; each size runs as its own small report on its own
 * test file, and its results are copied in.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"

#define DM_CACHE_PROBE_MIN_DEFAULT (64ull << 20)
#define DM_CACHE_PROBE_RAM_FACTOR  4       /* the default largest set: 4 x memory */
#define DM_CACHE_PROBE_SIZES       13      /* 16 MiB x 2^12 = 64 GiB */
#define DM_CACHE_PROBE_TESTS       2       /* RND4K_Q32T1, SEQ1M_Q8T1 per size */
#define DM_CACHE_PROBE_STEPS       4
/* A step: the rate of the bytes added by a doubling (the marginal rate)
 * falls by more than this share of the level before it. */
#define DM_CACHE_PROBE_FALL        0.25
/* ...and the working set's own rate falls by more than this share. */
#define DM_CACHE_PROBE_RATE_FALL   0.10

typedef struct dm_cache_probe_plan {
  dm_mode  mode;          /* DM_MODE_READ or DM_MODE_WRITE */
  uint64_t min;           /* the smallest working set, a power of two of MiB x ... */
  uint64_t max;           /* the largest one asked for; 0 = 4 x memory */
  double   time_limit_s;
  double   measure_s;     /* each test's measured run */
  double   warmup_s;
} dm_cache_probe_plan;

/* Read, 64 MiB up to 4 x memory, 10 min at most, 0.5 s + 2 s per test. */
void dm_cache_probe_plan_init (dm_cache_probe_plan *p);

/* The two tests every working set runs. */
extern const dm_spec dm_cache_probe_tests[DM_CACHE_PROBE_TESTS];

/* The sizes: min, 2 min, 4 min... up to the largest that is at most max,
 * memory x DM_CACHE_PROBE_RAM_FACTOR when max is 0, and never more than
 * room (what the free space allows; 0 = no bound) or DM_TEST_SIZE_MAX.
 * 0, or -EINVAL (min out of range, max under min) or -ENOSPC (room under
 * min) with a one-line reason. */
int dm_cache_probe_sizes (const dm_cache_probe_plan *p, uint64_t memory, uint64_t room,
                          uint64_t *sizes, unsigned *n, char *why, size_t why_size);

/* The whole probe's report: results k*2 and k*2+1 are size k's tests; the
 * profile is "cache-probe" and settings.test_size the largest size (the
 * sizes are it halved down, so a saved report knows them). */
int dm_cache_probe_report_init (dm_report *r, const dm_cache_probe_plan *p,
                                const uint64_t *sizes, unsigned n, const dm_settings *base,
                                char *why, size_t why_size);
/* Size k's own report: the two tests on a test file of that size. */
int dm_cache_probe_size_report (dm_report *sub, const dm_report *r, unsigned k);
/* Copies size k's finished results from sub into r. */
void dm_cache_probe_take (dm_report *r, unsigned k, const dm_report *sub);

unsigned dm_cache_probe_n_sizes (const dm_report *r);
uint64_t dm_cache_probe_size (const dm_report *r, unsigned k);
bool dm_cache_probe_is (const dm_report *r);

/* Seconds of measuring per size (warm-ups and runs), filling not counted. */
double dm_cache_probe_size_seconds (const dm_report *r);

typedef struct dm_cache_probe_step {
  uint64_t below;            /* the last size the level before held */
  uint64_t above;            /* the first size past it */
  bool     estimated;        /* cache_bytes solved from the lines (else: between the two) */
  uint64_t cache_bytes;
  double   cache_mb_per_s;   /* the rate of the level before */
  double   beyond_mb_per_s;  /* the rate of the bytes past the cache */
} dm_cache_probe_step;

typedef struct dm_cache_probe_ladder {
  unsigned n;                          /* sizes measured (complete), in order */
  uint64_t bytes[DM_CACHE_PROBE_SIZES];
  double   mb_per_s[DM_CACHE_PROBE_SIZES];
  dm_cache_probe_step steps[DM_CACHE_PROBE_STEPS];
  unsigned n_steps;
} dm_cache_probe_ladder;

/* The steps of a ladder of n sizes and their rates (ascending sizes).
 * Reading a working set of W bytes once at random takes T(W) = W / R(W);
 * with caches of C1 < C2 < ... at rates R1 > R2 > ... T is continuous and
 * piecewise linear in W, its slope 1/R1 up to C1, 1/R2 up to C2 and so on
 * (uniform random I/O hits a cache of C over a set of W > C a share C/W
 * of the time, whatever the cache evicts). The rate of the bytes a
 * doubling adds, (W_i - W_i-1) / (T_i - T_i-1), is that level's rate: a
 * step is where it falls by more than DM_CACHE_PROBE_FALL of the level's
 * (and the set's own rate by more than DM_CACHE_PROBE_RATE_FALL). The
 * level before is the line through its sizes (and the origin, for the
 * first), the level after the line through the sizes past the fall; the
 * cache is where they cross, kept between the two sizes. With one size
 * past the fall the cache is only bracketed, and the rate beyond is that
 * size's own (part of it still from the cache). A fall that a later
 * size climbs back from (within DM_CACHE_PROBE_RATE_FALL of the rate
 * before the fall), or after which a set is more than
 * DM_CACHE_PROBE_RATE_FALL faster than the one before it (past a cache
 * no larger set is faster), is the machine, not a step. */
void dm_cache_probe_find_steps (dm_cache_probe_ladder *l);
/* The ladder of test t (0: RND4K, 1: SEQ1M) of a report. */
void dm_cache_probe_ladder_of (const dm_report *r, unsigned t, dm_cache_probe_ladder *l);

/* What the report alone does not say. */
typedef struct dm_cache_probe_info {
  uint64_t max_asked;      /* the largest size asked (--max or 4 x memory) */
  double   time_limit_s;
  char     stopped[32];    /* "", "time-limit", "cancelled", "failed", "no-space" */
} dm_cache_probe_info;

/* From a saved file's "cache_probe" member; false when it has none. */
bool dm_cache_probe_info_from_json (const char *text, size_t len, dm_cache_probe_info *info);

/* The report's JSON with a "cache_probe" member: mode, working_sets, the
 * ladders (bytes, mb_per_s per test) and their steps. */
void dm_cache_probe_write_json (const dm_report *r, const dm_cache_probe_info *info, dm_buf *out);
/* working_set_bytes,test,mode,mb_per_s,iops,mean_latency_us,status per row. */
void dm_cache_probe_write_csv (const dm_report *r, dm_buf *out);
/* The table of rates per size, then the steps in words. */
void dm_cache_probe_write_text (const dm_report *r, const dm_cache_probe_info *info, dm_buf *out);
/* One step in words: "about 24.0GiB served by a cache below this VM at
 * 3100.0 MB/s; beyond it 480.0 MB/s". */
void dm_cache_probe_step_text (const dm_cache_probe_step *s, char *buf, size_t size);
