/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first-write probe: thin and lazy-zeroed virtual disks, snapshot
 * deltas and copy-on-write layers pay on the first write to a block, which
 * the grid's filled test file hides. Each test writes the blocks of a new,
 * never-written test file once (a shuffle for random tests), then the
 * same blocks again, with the ordinary runner in pass mode; the penalty is
 * how many times slower the first write was. A plan becomes a report of
 * two results per test, first and rewrite, with their JSON, text and CSV.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"
#include "dm-runner.h"

#define DM_FIRSTWRITE_MAX_TESTS 8
#define DM_FIRSTWRITE_SIZE_DEFAULT (1ull << 30)
#define DM_FIRSTWRITE_DURATION_DEFAULT 30.0

typedef struct dm_firstwrite_plan {
  dm_spec  tests[DM_FIRSTWRITE_MAX_TESTS];
  unsigned n_tests;
  uint64_t size;       /* bytes of each test's file (a device: from its start) */
  double   duration_s; /* each pass at most this long */
} dm_firstwrite_plan;

/* RND4K_Q32T1 and SEQ1M_Q8T1 (the grid's sequential test, random 4 KiB
 * at the depth a thin disk's allocator sees), 1 GiB, 30 s a pass. */
void dm_firstwrite_plan_init (dm_firstwrite_plan *p);

/* Sets up the report: results 2i (first write) and 2i+1 (rewrite) of the
 * plan's test i, the profile "first-write", no warm-up, no fill, one run
 * of up to the duration. 0, or -EINVAL with a reason. */
int dm_firstwrite_report_init (dm_report *r, const dm_firstwrite_plan *p,
                               const dm_settings *base, char *why, size_t why_size);

/* Runs every test of the report on runner's target: for each, a new test
 * file (or the device from its start), its first pass, its rewrite, the
 * file removed; then the next. The runner's report is the one
 * dm_firstwrite_report_init made. 0, -ECANCELED or a negative code with
 * the report's error set, as dm_runner_run. */
int dm_firstwrite_run (dm_runner *runner);

/* Whether a report is a first-write probe's. */
bool dm_firstwrite_is (const dm_report *r);

typedef struct dm_firstwrite_pair {
  const dm_result *first;
  const dm_result *rewrite;
  bool     measured;      /* both passes finished with figures */
  bool     whole;         /* the first pass wrote the whole file */
  double   penalty;       /* rewrite IOPS / first IOPS: times a first write costs */
  double   latency_ratio; /* first mean latency / rewrite's */
  double   p99_ratio;
} dm_firstwrite_pair;

/* Test i's pair of the report (i < n_results / 2). */
void dm_firstwrite_pair_of (const dm_report *r, unsigned i, dm_firstwrite_pair *out);

/* The report's JSON with a "first_write" member: size_bytes, duration_s,
 * device (the target is a device), and "tests", one object per test:
 * test, whole, first and rewrite ({mb_per_s, iops, latency_us_mean,
 * latency_us_p99, bytes, ios, seconds, device_write_bytes or null}),
 * penalty, latency_ratio, p99_ratio (null unless both passes finished). */
void dm_firstwrite_write_json (const dm_report *r, dm_buf *out);
/* A table of both passes per test, the penalties, what the device saw, and
 * what the figure includes on this kind of target. */
void dm_firstwrite_write_text (const dm_report *r, dm_buf *out);
/* One row per pass: test, pass, status, the figures, the penalty. */
void dm_firstwrite_write_csv (const dm_report *r, dm_buf *out);
