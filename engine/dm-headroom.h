/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Headroom: how far a disk is from the user's own load. Each workload row
 * with an offered rate (a capture's profile file) runs at that rate, then
 * as fast as it goes (the disk's maximum at the same shape), then at the
 * rate curve's shares of that maximum (dm_sweep_curve_percent), to name
 * the highest rate whose p99 stays under a bound. It is an ordinary report
 * the ordinary runner fills, DM_HEADROOM_ROWS results per workload.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"
#include "dm-runner.h"
#include "dm-sweep.h"

/* Per workload: its captured rate, its maximum, then the curve's points. */
#define DM_HEADROOM_ROWS      (2 + DM_SWEEP_CURVE_POINTS)
#define DM_HEADROOM_WORKLOADS 16
/* Without a bound given, p99 may grow to this many times its figure at
 * the captured rate: "twice as slow as today" is where users notice. */
#define DM_HEADROOM_BOUND_FACTOR 2.0

/* What one workload's rows say. */
typedef struct dm_headroom {
  unsigned first;          /* index of its captured-rate result */
  double   rate;           /* the captured rate offered, IOPS */
  double   reached;        /* IOPS reached at it */
  bool     met;            /* reached within 3 % (dm_result_rate_met) */
  double   p99_us;         /* p99 at it; 0 unmeasured */
  double   max_iops;       /* unbounded; 0 unmeasured */
  double   ratio;          /* max_iops / rate; 0 unknown */
  double   bound_us;       /* the p99 bound used; 0 unknown */
  bool     bound_given;    /* --headroom-p99, not twice p99 */
  int      best;           /* the highest rate met with p99 <= bound, or -1 */
} dm_headroom;

/* The report: DM_HEADROOM_ROWS rows per workload, each of which must have
 * a rate in IOPS. 0, or -EINVAL with a one-line reason naming the row. */
int dm_headroom_report_init (dm_report *r, const dm_workload *rows, unsigned n,
                             const dm_settings *s, char *why, size_t why_size);
/* Runs it, prepared and finished: per workload its captured rate, its
 * maximum, then the points at shares of that maximum. The runner's
 * return (-EIO with r->error when a maximum was not measured). */
int dm_headroom_run (dm_runner *runner, dm_report *r);
/* How many workloads the report holds. */
unsigned dm_headroom_count (const dm_report *r);
/* Workload k's figures, with bound_us as the bound (0: twice its p99 at the
 * captured rate). */
void dm_headroom_of (const dm_report *r, unsigned k, double bound_us, dm_headroom *h);
/* Whether a saved report (its JSON text) is a headroom run: a "headroom"
 * member and whole ladders of results. bound_us: the bound it was given,
 * 0 when it was twice each captured p99. */
bool dm_headroom_from_json (const dm_report *r, const char *text, size_t len, double *bound_us);
/* The share of the maximum result i was offered (0 for the captured and
 * unbounded rows). */
unsigned dm_headroom_percent (unsigned i);

/* Text: per workload its rows, then one sentence ("at your 400 IOPS, p99
 * 2.1 ms; this disk reaches ..."), in the user's language when translate. */
void dm_headroom_write_text (const dm_report *r, double bound_us, bool translate, dm_buf *out);
/* The report's JSON with a "headroom" member: the bound given and one
 * object per workload (rate, p99, max_iops, ratio, bound, best, ladder). */
void dm_headroom_write_json (const dm_report *r, double bound_us, dm_buf *out);
/* One row per result: workload, point, offered and reached IOPS, p50, p99,
 * under the bound, status. */
void dm_headroom_write_csv (const dm_report *r, double bound_us, dm_buf *out);
