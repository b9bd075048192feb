/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several targets measured at the same moment (diskmeter-cli TARGET
 * --concurrent OTHER...), as DiskSpd runs one test on several targets:
 * one runner per target, each with its own test file and its own disk
 * counters, every test started on all of them at one instant so that
 * their windows are the same span of time. Two disks behind one path (an
 * HBA, a datastore, a throttle) then show it: each gets its share and the
 * total is what the path gives.
 *
 * The total is a report of its own: per window, the targets' bytes, I/Os,
 * MB/s and IOPS added up (their windows are the same span), the best
 * window the figure as for one target; latency from the targets'
 * histograms added bucket by bucket, as dm-merge does for fleets.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"
#include "dm-runner.h"

#define DM_CONCURRENT_MAX 16

/* Prepares every runner (each its own test file, at once), runs each
 * selected test on all of them together, and finishes them all, which
 * removes every test file. A cancel of any runner, or a target's test
 * failing, stops all: figures of the others alone would not be figures
 * of the same moment. Returns the first error (-ECANCELED when
 * cancelled). The runners must share their tests and settings. */
int dm_concurrent_run (dm_runner *const *runners, unsigned n);

/* The total of n reports of the same tests run at the same moment into
 * total (cleared by dm_report_clear), named "total". 0, or -EINVAL with a
 * reason when the reports do not hold the same tests, -ENOMEM. */
int dm_concurrent_total (dm_report *total, const dm_report *const *reports, unsigned n,
                         char *why, size_t why_size);

/* The run's report: each target's figures and the total, with each
 * target's disk counters (text); every target's whole report and the
 * total (JSON: the first target's report, which every reader of one run
 * reads, plus a "concurrent" member with all of them); every target's
 * rows then the total's, whose target is "total" (CSV). */
void dm_concurrent_write_text (const dm_report *const *reports, unsigned n,
                               const dm_report *total, dm_buf *out);
void dm_concurrent_write_json (const dm_report *const *reports, unsigned n,
                               const dm_report *total, dm_buf *out);
void dm_concurrent_write_csv (const dm_report *const *reports, unsigned n,
                              const dm_report *total, dm_buf *out);

/* Reads back the targets of a file dm_concurrent_write_json wrote into
 * reports[0..*n) (each then cleared by dm_report_clear). 0; -ENOENT when
 * the file is no concurrent run (a plain report); -EINVAL with a reason. */
int dm_concurrent_load (const char *text, size_t len, dm_report *reports, unsigned max,
                        unsigned *n, char *why, size_t why_size);
