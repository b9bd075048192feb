/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The result of a run and everything needed to judge it later: the figures
 * per test and mode, the settings, the target, the machine, the backend and
 * whether the run completed. Writers turn it into CrystalDiskMark's text
 * layout, JSON (everything) and CSV (one row per test and mode).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dm-advice.h"
#include "dm-buf.h"
#include "dm-device.h"
#include "dm-histogram.h"
#include "dm-settings.h"
#include "dm-spec.h"
#include "dm-tags.h"
#include "dm-threshold.h"
#include "dm-workload.h"
#include "dm-platform.h"

/* DM_VERSION: the project's version in meson.build, through config.h. */
#include "config.h"

/* The JSON layout's version: readers refuse files with a larger one. */
#define DM_REPORT_FORMAT 1

typedef enum {
  DM_STATUS_PENDING,   /* not run yet (a row the user did not start) */
  DM_STATUS_RUNNING,
  DM_STATUS_COMPLETE,
  DM_STATUS_CANCELLED,
  DM_STATUS_FAILED,
} dm_status;

const char *dm_status_name (dm_status status);

/* The folder or device a target's links lead to, when that is not the
 * path as given (a trailing separator aside): what a report names as
 * really measured. NULL when they are the same or it is unknown. */
const char *dm_target_resolved (const dm_target_info *t);

typedef struct dm_run {
  uint64_t bytes;
  uint64_t ios;
  double   seconds;
  double   mb_per_s;
  double   iops;
  double   latency_us;  /* mean of this run */
} dm_run;

typedef struct dm_latency {
  double min, mean, max, stdev;
  double p50, p90, p99, p99_9, p99_99; /* microseconds */
} dm_latency;

/* The timeline: a result's measured time cut into steps of sample_s
 * (--sample, DM_SAMPLE_DEFAULT_S unless asked), one set of figures each. */
#define DM_SAMPLE_DEFAULT_S 0.5
#define DM_SAMPLE_MIN_S     0.1
#define DM_SAMPLE_MAX_S     10.0

typedef struct dm_sample_figures {
  double mb_per_s;
  double iops;
  double latency_us_mean;
  double latency_us_p99;  /* within 1.6% (16 buckets per power of two) */
} dm_sample_figures;

typedef struct dm_sample {
  double            t;     /* seconds from the start of the measured run to this sample's end */
  dm_sample_figures all;
  dm_sample_figures read;  /* Mix only: reads and writes apart */
  dm_sample_figures write;
} dm_sample;

typedef struct dm_result {
  dm_spec   spec;
  dm_mode   mode;
  unsigned  read_percent;  /* 100 read, 0 write, the Mix share otherwise */
  /* A workload row: the shape it ran, whose read share is part of it. Its
   * one result stands for the whole row (mode is Read, Write or Mix as its
   * read share says, and spec is dm_workload_spec's); plain tests have
   * shaped false and an unused workload. */
  bool        shaped;
  dm_workload workload;
  uint64_t    flushes;     /* flushes completed in the measured runs (sync=flush:N) */
  /* The warm-up as it ran: its length, and for a steady one whether its
   * last window settled within the margin (false: it ran to the limit)
   * and how far that window's samples lay from their mean, in percent. */
  double      warmup_took_s;
  bool        warmup_settled;
  double      warmup_spread;
  dm_status status;
  char      error[160];    /* why it failed, if it did */

  dm_run    runs[9];
  unsigned  n_runs;        /* measured runs finished */

  /* The figure in the grid: the best run, as CrystalDiskMark shows it. */
  double    mb_per_s;
  double    iops;
  double    latency_us;    /* lowest mean latency of any run (JSON: best_latency_us) */
  double    mean_mb_per_s; /* over runs */
  double    stdev_mb_per_s;

  dm_latency latency;       /* all measured I/Os */
  dm_latency latency_read;  /* Mix only: reads and writes apart */
  dm_latency latency_write;
  dm_histogram *hist_read;  /* every measured read's latency, owned by the report */
  dm_histogram *hist_write; /* and every write's */
  double    cpu_percent;    /* process CPU over all logical CPUs, as Task Manager shows */
  double    cpu_us_per_io;  /* process CPU time per I/O */
  dm_device_seen device;    /* what the disk's own counters saw during the measured runs */
  dm_advice advice;         /* what limits a queue that did not reach the disk (JSON: advice) */
  /* --start-at: when the first measured run was due and when it began, in
   * wall-clock milliseconds since the epoch (0: the run was not scheduled). */
  int64_t   planned_start_ms;
  int64_t   started_ms;
  /* The timeline, owned by the result (dm_result_copy copies it,
   * dm_result_reset and dm_report_clear free it). */
  double    sample_s;       /* its step */
  dm_sample *samples;
  unsigned  n_samples;
} dm_result;

/* The longest comment a report keeps, in bytes (255 characters of most
 * European scripts, 170 of CJK): the CLI and the history refuse a longer
 * one, the window cuts it at a character boundary. */
#define DM_REPORT_COMMENT_MAX 511

typedef struct dm_report {
  dm_status      status;
  char           error[320];     /* why the run failed, if it did */
  char           warning[512];   /* worth telling, not fatal (stale test files) */
  char           backend[16];
  char           profile[32];    /* "default", "custom", "workloads" */
  /* Workload rows: the hash of the profile they came from, over their
   * canonical forms one a line (dm_report_profile_hash); "" otherwise.
   * The profile itself is the rows' workloads, each in its result. */
  char           profile_hash[17];
  bool           nvme;
  bool           cached;         /* --buffered: the page cache was in the way */
  char           comment[DM_REPORT_COMMENT_MAX + 1];
  /* The user's tags (--tag), in their order; a loaded report's are every
   * tag its file kept, the facts offered as tags among them. What a
   * report shows and writes is dm_report_tags. */
  dm_tag         tags[DM_TAGS_ALL_MAX];
  unsigned       n_tags;
  char           test_file[1100];
  char           device_note[160]; /* why no device counters are in the results, if none are */
  bool           nocow;          /* the test file was made NOCOW (btrfs): no copy-on-write */
  int64_t        started;        /* wall time, seconds since the epoch */
  int64_t        finished;
  dm_settings    settings;
  dm_target_info target;
  dm_system_info system;
  uint64_t       prepare_bytes;  /* written to fill the test file */
  uint64_t       precondition_bytes; /* written by settings.precondition passes */
  double         precondition_s;     /* and the time they took */
  uint64_t       warmup_bytes;   /* moved by unscored warm-up runs */
  uint64_t       measured_bytes; /* moved by measured runs, = sum of runs[].bytes */
  /* The only memory a report owns. A pointer added here, or to dm_result,
   * must also be known to dm_report_clear, dm_result_copy and
   * dm_report_copy_run. */
  dm_result     *results;
  unsigned       n_results;
  dm_histogram  *histograms;     /* 2 per result, behind hist_read/hist_write */
  dm_threshold   thresholds[DM_THRESHOLDS_MAX]; /* the user's green/red limits, kept with the run */
  unsigned       n_thresholds;
  double         sample_s;       /* timeline step to measure with; 0 = DM_SAMPLE_DEFAULT_S */
} dm_report;

/* Sets the report's comment, cut at a character boundary if it is longer
 * than DM_REPORT_COMMENT_MAX bytes. 0, or -E2BIG if it was cut. */
int  dm_report_set_comment (dm_report *r, const char *comment);

/* Sets up an empty report for these tests, in the order they will run. */
int  dm_report_init (dm_report *r, const dm_settings *settings,
                     const dm_spec *specs, unsigned n_specs, unsigned modes);
void dm_report_clear (dm_report *r);
/* Sets up an empty report for workload rows, one result each, in order,
 * with the hash of the profile they make (report->profile_hash). */
int  dm_report_init_workloads (dm_report *r, const dm_settings *settings,
                               const dm_workload *workloads, unsigned n);
/* The hash of a report's workload rows, as dm_report_init_workloads set
 * it; "" for a report of plain tests. */
void dm_report_profile_hash (const dm_report *r, char out[17]);
/* Whether two reports ran the same profile of workloads (or both plain
 * tests); false with a one-line reason why not. For compare and merge,
 * which refuse different profiles unless asked. */
bool dm_report_same_profile (const dm_report *a, const dm_report *b, char *why, size_t why_size);
/* Whether a workload row reached its offered rate (within 3 %); true for
 * rows without a rate. reached gets the IOPS or MB/s it reached. */
bool dm_result_rate_met (const dm_result *res, double *reached);
/* Points a result at a pair of histograms (read, write) and empties them. */
void dm_result_attach_histograms (dm_result *res, dm_histogram *pair);
/* Copies src's figures and latency histograms into dst, which keeps its own
 * histogram storage (its report's; none stays none): no pointer ends up
 * shared between two reports. */
void dm_result_copy (dm_result *dst, const dm_result *src);
/* Empties a result's figures and histograms, keeping which test it is. */
void dm_result_reset (dm_result *res);
/* Copies everything about src's run but its results (status, times,
 * settings, target, system, thresholds, comment) into dst, which keeps its
 * own results and histograms. */
void dm_report_copy_run (dm_report *dst, const dm_report *src);
/* The run as far as it got: src without the tests that stayed pending (a
 * row not started, tests a stop did not reach), as a report of just the
 * tests that ran would be. When none ran, every test is kept, which says
 * that nothing ran. A shallow view: it shares everything with src but its
 * results array, which dm_report_view_free frees. 0 or -ENOMEM. */
int  dm_report_view_ran (const dm_report *src, dm_report *view);
void dm_report_view_free (dm_report *view);
dm_result *dm_report_find (const dm_report *r, const dm_spec *spec, dm_mode mode);

/* Replaces a result's timeline with a copy of n samples. 0 or -ENOMEM. */
int dm_result_set_samples (dm_result *res, const dm_sample *samples, unsigned n, double step_s);

/* What a result's test asked of the device, to judge its device counters. */
dm_device_ask dm_result_device_ask (const dm_result *res);

/* The figure of a result in a unit (MB/s, GB/s, IOPS, us). */
double dm_result_value (const dm_result *res, int unit);
/* A figure as the JSON keeps it (3 decimals). Choices and comparisons are
 * made on these, so that a run compared in memory and the same run read
 * back from its file give the same rows: a figure of 20.0053 is shown as
 * 20.01 but saved as 20.005, which reads back as 20.00. */
double dm_figure_as_saved (double v);

/* The tags a report shows and writes: dm_tags_effective of its own tags,
 * its system and its target. out holds DM_TAGS_ALL_MAX. */
unsigned dm_report_tags (const dm_report *r, dm_tag *out);

void dm_report_write_text (const dm_report *r, dm_buf *out);
void dm_report_write_json (const dm_report *r, dm_buf *out);
/* The same with the top-level object left open, for a feature's writer
 * (sweep, sustained) to add its member and close with "\n}\n": readers of
 * plain reports read its file as one. false where out ran out of memory. */
bool dm_report_write_json_open (const dm_report *r, dm_buf *out);
void dm_report_write_csv (const dm_report *r, dm_buf *out);
/* CSV of the timelines: one row per sample of every result (--samples). */
void dm_report_write_samples_csv (const dm_report *r, dm_buf *out);

/* The largest result file a reader takes: a report with every histogram
 * is a few MiB, so anything past this is no result (a disk image, a log). */
#define DM_REPORT_FILE_MAX (64u << 20)

/* Reads a JSON report written by dm_report_write_json (any version up to
 * DM_REPORT_FORMAT). 0, or -EINVAL with a one-line reason: not JSON, not
 * Diskmeter's, from a newer version, truncated, or values out of range. */
int dm_report_load_json (dm_report *r, const char *text, size_t len, char *why, size_t why_size);
/* The same from a parsed JSON object (a report inside another file's, as
 * a concurrent run keeps each target's). */
struct dm_json;
int dm_report_load_node (dm_report *r, const struct dm_json *root, char *why, size_t why_size);

/* Writes a buffer to path atomically (temporary file, then rename). */
int dm_write_file_atomic (const char *path, const dm_buf *buf);
