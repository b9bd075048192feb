/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue-depth x threads sweep: one pattern measured at every
 * combination of a list of queue depths and a list of thread counts, to find
 * where a disk stops gaining throughput and only gains latency. A plan
 * becomes an ordinary dm_report (one result per combination, lightest load
 * first) that the ordinary dm_runner fills, so a cancelled sweep keeps every
 * combination it finished. The analysis reads any such report, saved ones too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"
#include "dm-runner.h"

#define DM_SWEEP_MAX_LIST     16    /* values in the QD or threads list */
#define DM_SWEEP_MAX_INFLIGHT 4096  /* QD x T: I/Os in flight at once */
#define DM_SWEEP_MAX_BUFFERS  (1ull << 30) /* QD x T x block: I/O buffer memory */
#define DM_SWEEP_CPU_FACTOR   4u    /* threads <= 4 x logical CPUs */
/* Past the knee each step gains less than this share of throughput. */
#define DM_SWEEP_KNEE_GAIN    0.05

/* What a sweep varies: the load (QD x T), the block size at one load (as
 * ATTO Disk Benchmark does), or the offered rate (vdbench's iorate=curve:
 * the load's maximum first, then fixed rates at shares of it). */
typedef enum { DM_SWEEP_QD, DM_SWEEP_BLOCKS, DM_SWEEP_RATES } dm_sweep_kind;

/* The rate curve's offered rates, in percent of the measured maximum. */
#define DM_SWEEP_CURVE_POINTS 6
extern const unsigned dm_sweep_curve_percent[DM_SWEEP_CURVE_POINTS];

typedef struct dm_sweep_plan {
  dm_sweep_kind kind;
  dm_pattern pattern;
  uint32_t   block_size;
  dm_mode    mode;                     /* its read share is the settings' mix_read_percent */
  unsigned   queue_depths[DM_SWEEP_MAX_LIST];
  unsigned   n_queue_depths;
  unsigned   threads[DM_SWEEP_MAX_LIST];
  unsigned   n_threads;
  double     latency_bound_us;         /* for dm_sweep_best_under; 0 = none */
  /* DM_SWEEP_BLOCKS: the sizes, ascending, each at queue_depths[0] x
   * threads[0], in each mode of modes (DM_MODE_BIT; 0 = mode's). */
  uint32_t   blocks[DM_SWEEP_MAX_LIST];
  unsigned   n_blocks;
  unsigned   modes;
  /* DM_SWEEP_RATES: the load whose curve it is (a plain test as a
   * workload row, or the user's row); it must have no rate of its own. */
  dm_workload workload;
} dm_sweep_plan;

/* RND4K read over QD 1,2,4,...,256 and T 1,2,4,8,16. */
void dm_sweep_plan_init (dm_sweep_plan *p);

/* The plan a saved sweep was made with, from its report r and the file's
 * "sweep" member: pattern, block and mode of its results, the queue depth
 * and thread lists as planned (a stopped sweep measured fewer), the bound.
 * 0, or -ENOENT when text is no sweep (no "sweep" member, no results). */
int dm_sweep_plan_from_json (const dm_report *r, const char *text, size_t len,
                             dm_sweep_plan *p);

/* "1,2,4,8" into a sorted list without repeats, each in [min, max]. 0, or
 * -EINVAL with a one-line reason. */
int dm_sweep_list_parse (const char *text, unsigned min, unsigned max, unsigned *out,
                         unsigned *n, char *why, size_t why_size);

/* "4K,8K,...,8M" into a sorted list of block sizes without repeats, each a
 * power of two from 4KiB to 8MiB; "..." between two sizes stands for the
 * doublings between them. 0, or -EINVAL with a one-line reason. */
int dm_sweep_blocks_parse (const char *text, uint32_t *out, unsigned *n, char *why,
                           size_t why_size);

/* Sets up a report with one result per combination the machine can hold,
 * ordered by load (QD x T), fewer threads first at equal load. Combinations
 * beyond the bounds (threads > 4 x logical CPUs, QD x T > 4096 in flight,
 * QD x T x block > 1 GiB of buffers, block x T > test size) are dropped and
 * named in `note` (may be NULL); if none is left, -EINVAL with the reason in
 * why. The report's profile is "sweep". */
int dm_sweep_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                          unsigned logical_cpus, char *note, size_t note_size,
                          char *why, size_t why_size);

/* A block sweep's report: one result per size and mode (all reads, then
 * all writes), at the plan's first QD and thread count. A size larger than
 * the test size, or whose buffers pass the bounds, is refused in why. */
int dm_sweep_blocks_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                                 char *why, size_t why_size);

/* A rate curve's report: the plan's workload as fast as it goes (result
 * 0), then one row per share of dm_sweep_curve_percent, whose rates
 * dm_sweep_curve_set_rates sets once the maximum is known. Refuses a
 * workload that has a rate of its own. */
int dm_sweep_curve_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                                char *why, size_t why_size);
/* The offered rates for a maximum of max_iops: rates[i] is
 * dm_sweep_curve_percent[i] % of it (never under 1 IOPS). */
void dm_sweep_curve_rates (double max_iops, double rates[DM_SWEEP_CURVE_POINTS]);
/* Gives the curve's rows their rates from result 0's IOPS. 0, or -ENOENT
 * when the maximum was not measured. */
int dm_sweep_curve_set_rates (dm_report *r);
/* A plain test as the curve's load, a workload row of its one size as
 * the grid runs it: read share 100 for Read, 0 for Write, read_percent for
 * Mix. 0, or -EINVAL with the reason. */
int dm_sweep_curve_workload_of (const dm_spec *test, dm_mode mode, unsigned read_percent,
                                dm_workload *w, char *why, size_t why_size);
/* Runs a sweep's report of any kind to the end, prepared and finished: a
 * rate curve measures its maximum first and gives the other rows their
 * rates from it before they run; the others are an ordinary run. The
 * runner's return (-EIO with r->error when the maximum was not measured).
 * diskmeter-cli and the Sweep window both run a sweep through this. */
int dm_sweep_run (dm_runner *runner, dm_report *r);
/* The row with the highest offered rate whose p99 is at or under
 * bound_us. 0 and its index, or -ENOENT (no bound, none under it). */
int dm_sweep_curve_best (const dm_report *r, double bound_us, int *index);
/* The kind of sweep a report holds, from its results. */
dm_sweep_kind dm_sweep_kind_of (const dm_report *r);
/* A latency bound as "2ms", "500us", "0.5s" or microseconds alone
 * ("150000", as before units were taken). 0, or -EINVAL with a reason. */
int dm_sweep_bound_parse (const char *text, double *us, char *why, size_t why_size);

/* Seconds the runner will take for the report's results, test file
 * preparation not included: warm-up, count measured runs and the interval
 * between tests, as the runner's own progress estimate counts them. */
double dm_sweep_estimate_seconds (const dm_report *r);

/* The axes of a sweep report, from its results (so a saved report works):
 * the distinct queue depths and thread counts, ascending. */
void dm_sweep_axes (const dm_report *r, unsigned *qds, unsigned *n_qds, unsigned *threads,
                    unsigned *n_threads);
/* Index of the result at QD x T, or -1. */
int dm_sweep_find (const dm_report *r, unsigned queue_depth, unsigned threads);

/* The knee: over complete results ordered by load (the best throughput at
 * each load stands for it), the lightest load past which no heavier load
 * gains DM_SWEEP_KNEE_GAIN or more throughput while latency rises (the next
 * and the heaviest load both have a higher p99 or a higher mean: the mean
 * is what Little's law says must grow, where p99 sits on periodic stalls).
 * 0 and the result's index, or -ENOENT: fewer than two loads, throughput
 * still growing at the end, or latency not rising. */
int dm_sweep_knee (const dm_report *r, int *index);

/* The complete result with the highest throughput whose p99 latency is at
 * or under bound_us (the lighter load on a tie). 0 and its index, or -ENOENT. */
int dm_sweep_best_under (const dm_report *r, double bound_us, int *index);

/* The report's JSON with a "sweep" member added: queue_depths, threads,
 * latency_bound_us, knee and best_under_bound ({queue_depth, threads} or null),
 * rate_cap (dm-sweep-cap.h: capped or not, why, the evidence). */
void dm_sweep_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *out);
/* One row per combination: qd, threads, mb_per_s, iops, mean_latency_us,
 * p99_latency_us, cpu_percent, status. */
void dm_sweep_write_csv (const dm_report *r, dm_buf *out);
/* QD x T tables of MB/s (IOPS for blocks under 64 KiB) and of p99 latency,
 * then the knee, best-under-bound and rate cap lines. */
void dm_sweep_write_text (const dm_report *r, const dm_sweep_plan *p, dm_buf *out);

/* The block sweep's sizes (ascending) and modes (DM_MODE_BIT), from its
 * results; returns the number of sizes. */
unsigned dm_sweep_blocks_of (const dm_report *r, uint32_t *blocks, unsigned *modes);
/* The writers of the other kinds, which dm_sweep_write_* call for them:
 * the JSON ones add the "sweep" member after the report's own (its object
 * open), with "kind" "blocks" or "rates". */
void dm_sweep_blocks_write_text (const dm_report *r, dm_buf *out);
void dm_sweep_blocks_write_csv (const dm_report *r, dm_buf *out);
void dm_sweep_blocks_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *out);
void dm_sweep_curve_write_text (const dm_report *r, const dm_sweep_plan *p, dm_buf *out);
void dm_sweep_curve_write_csv (const dm_report *r, dm_buf *out);
void dm_sweep_curve_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *out);

/* A sweep's "Target: PATH (FS), backend B, status S" line, the same in
 * every kind of sweep's text. */
void dm_sweep_write_target (const dm_report *r, dm_buf *b);
