/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fleet runs: many hosts measured over the same windows (dm-schedule.h)
 * and their reports merged into one. Throughput adds up over hosts;
 * latency percentiles come from the hosts' histograms added bucket by
 * bucket, never from averaged percentiles.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dm-buf.h"
#include "dm-histogram.h"
#include "dm-report.h"

#define DM_MERGE_MAX 256

typedef struct dm_merge_host {
  double     mb_per_s;   /* mean over its measured runs */
  double     iops;
  dm_latency latency;    /* its own I/Os */
  int64_t    started_ms; /* first measured run, 0 if not scheduled */
} dm_merge_host;

typedef struct dm_merge_row {
  dm_spec        spec;
  dm_mode        mode;
  unsigned       read_percent;
  double         sum_mb_per_s;  /* over all hosts */
  double         sum_iops;
  double         min_mb_per_s, max_mb_per_s, cv_mb_per_s; /* spread between hosts, cv in % */
  double         min_iops, max_iops, cv_iops;
  dm_latency     latency;       /* all I/Os of all hosts */
  dm_latency     latency_read;  /* Mix only */
  dm_latency     latency_write;
  dm_histogram  *hist;          /* all hosts' reads and writes together */
  int64_t        window_start_ms, window_end_ms; /* measured by every host, 0 if unknown */
  dm_merge_host *hosts;         /* n_hosts, in the order of the files */
} dm_merge_row;

typedef struct dm_merge {
  const dm_report *reports[DM_MERGE_MAX];
  const char      *names[DM_MERGE_MAX];
  unsigned         n_hosts;
  dm_merge_row    *rows;
  unsigned         n_rows;
  bool             scheduled;   /* every host ran with --start-at */
  dm_histogram    *hists;       /* behind rows[].hist */
  dm_merge_host   *host_cells;  /* behind rows[].hosts */
} dm_merge;

enum {
  /* Sum a run given twice (the same file, or a copy) as two hosts. */
  DM_MERGE_ALLOW_DUPLICATES = 1 << 0,
};

/* Merges reports[0..n-1] (2..DM_MERGE_MAX), named by names in messages;
 * flags are DM_MERGE_*. -EINVAL with a reason naming the offending file: a
 * run that did not complete, different tests or settings, runs that did
 * not overlap in time, and (unless DM_MERGE_ALLOW_DUPLICATES) the same run
 * twice. Reports carry no run id or host name, so the same run is the same
 * start and end, test file, target and system, and the same figures in
 * every measured run. The reports must outlive the merge. */
int  dm_merge_build (dm_merge *m, const dm_report *const *reports, const char *const *names,
                     unsigned n, unsigned flags, char *why, size_t why_size);
void dm_merge_clear (dm_merge *m);

void dm_merge_write_text (const dm_merge *m, dm_buf *out);
void dm_merge_write_json (const dm_merge *m, dm_buf *out);
void dm_merge_write_csv (const dm_merge *m, dm_buf *out);
