/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fleet runs: many hosts measured over the same windows (dm-schedule.h)
 * and their reports merged into one. Throughput adds up over hosts;
 * latency percentiles come from the hosts' histograms added bucket by
 * bucket, never from averaged percentiles. Reports are added one at a
 * time and may be dropped once added, so a fleet of thousands of hosts
 * costs memory for its tests' histograms and a compact row per host.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dm-buf.h"
#include "dm-histogram.h"
#include "dm-report.h"

/* What a host measured in one test, kept for the per-host rows. */
typedef struct dm_merge_host {
  double     mb_per_s;   /* mean over its measured runs */
  double     iops;
  dm_latency latency;    /* its own I/Os */
  int64_t    started_ms; /* first measured run, 0 if not scheduled */
} dm_merge_host;

/* What the writers show of one report besides its results: its name,
 * comment, target and system. dm_merge_source_of points it into a report;
 * a merge keeps its own, each text stored once however many hosts share
 * it. */
typedef struct dm_merge_source {
  const char         *name;        /* file as given; not copied by a merge */
  const char         *comment;
  const char         *profile;
  const char         *backend;
  dm_status           status;
  int64_t             started;     /* seconds since the epoch */
  const dm_settings  *settings;    /* a merge's hosts all share the first one's */
  const char         *target_path, *mount_point, *filesystem, *device, *model, *driver;
  uint64_t            size_bytes;
  const char         *os, *kernel, *cpu_model;
  unsigned            logical_cpus;
  uint64_t            memory_bytes;
  const dm_threshold *thresholds;
  unsigned            n_thresholds;
  /* The user's tags (dm_report_user_tags) in a merge. dm_merge_source_of
   * points at the report's own list: a loaded report's holds its facts
   * too, which a writer of runs leaves to dm_report_user_tags. */
  const dm_tag       *tags;
  unsigned            n_tags;
} dm_merge_source;

void dm_merge_source_of (dm_merge_source *s, const dm_report *r, const char *name);

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

typedef struct dm_merge_state dm_merge_state;

typedef struct dm_merge {
  dm_merge_source *hosts;       /* n_hosts, in the order of the files */
  unsigned         n_hosts;
  dm_merge_row    *rows;
  unsigned         n_rows;
  bool             scheduled;   /* every host ran with --start-at */
  /* The user's tags every host has with the same value, in the first
   * host's order: the fleet's, shown once above the hosts' own. */
  dm_tag          *common_tags;
  unsigned         n_common_tags;
  dm_merge_state  *state;       /* sums, histograms and keys while adding */
} dm_merge;

enum {
  /* Sum a run given twice (the same file, or a copy) as two hosts. */
  DM_MERGE_ALLOW_DUPLICATES = 1 << 0,
  /* Sum hosts that ran different profiles of workloads (their profile
   * hashes differ): refused unless asked, as their rows are not alike. */
  DM_MERGE_ALLOW_PROFILES = 1 << 1,
};

/* A merge in three steps: begin, add each host's report in the order of
 * the files, end. dm_merge_add refuses, with -EINVAL and a reason naming
 * the file, a run that did not complete, different tests or settings, and
 * (unless DM_MERGE_ALLOW_DUPLICATES) the same run twice; dm_merge_end
 * refuses fewer than 2 files and runs that did not overlap in time.
 * Reports carry no run id or host name, so the same run is the same start
 * and end, test file, target and system, and the same figures in every
 * measured run. A report may be cleared as soon as it is added; its name
 * must outlive the merge. After a refusal only dm_merge_clear is left. */
int  dm_merge_begin (dm_merge *m, unsigned flags);
int  dm_merge_add (dm_merge *m, const dm_report *r, const char *name, char *why,
                   size_t why_size);
int  dm_merge_end (dm_merge *m, char *why, size_t why_size);

/* All of it at once for reports[0..n-1], n >= 2; cleared on a refusal. */
int  dm_merge_build (dm_merge *m, const dm_report *const *reports, const char *const *names,
                     unsigned n, unsigned flags, char *why, size_t why_size);
void dm_merge_clear (dm_merge *m);

/* Whether host h's tag is one every host has (common_tags). */
bool dm_merge_tag_common (const dm_merge *m, const dm_tag *tag);

void dm_merge_write_text (const dm_merge *m, dm_buf *out);
void dm_merge_write_json (const dm_merge *m, dm_buf *out);
void dm_merge_write_csv (const dm_merge *m, dm_buf *out);
