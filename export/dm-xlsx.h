/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Excel workbooks (.xlsx) of saved runs and merged fleet reports, shared by
 * diskmeter-cli (compare, merge, history export) and the window's History,
 * so both write the same workbook. Written with libxlsxwriter where the
 * build has it; without it (dm-xlsx-none.c) every call is refused with a
 * reason, so the rest builds and runs the same everywhere.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-merge.h"
#include "dm-report.h"
#include "dm-study.h"
#include "dm-threshold.h"

/* Whether this build writes workbooks. */
extern const bool dm_xlsx_available;

/* Runs side by side: a sheet per mode (Read, Write, Mix) with a row per run
 * labelled by labels[i] (its comment or file name) and MB/s, IOPS and µs
 * columns per test, filled green or red by rules (or, with no rules, each
 * run's own saved thresholds); a Workloads sheet with a row per run and
 * workload row (name, shape, figures, reads and writes apart, percentiles,
 * flushes, rate); a Settings sheet with every run's settings, target and
 * system. The path is UTF-8; the file appears whole or not at
 * all. 0 or a negative errno with a reason in why. */
int dm_xlsx_write_runs (const dm_report *const *runs, const char *const *labels, unsigned n,
                        const dm_threshold *rules, unsigned n_rules, const char *path,
                        char *why, size_t why_size);

/* A merged fleet report: the sums and spread per test and mode, each
 * host's figures, the merged latency percentiles; a Hosts sheet. */
int dm_xlsx_write_merge (const dm_merge *m, const char *path, char *why, size_t why_size);

/* A study's sheet (dm-study.h): a Study sheet with a row per scenario (Nr,
 * Target, its tags, Q, T, the figures filled by the rules, All green)
 * under an autofilter, and a Ranking sheet of the rows green everywhere,
 * best first (dm-xlsx-study.c). */
int dm_xlsx_write_study (const dm_study_sheet *sheet, const char *path, char *why,
                         size_t why_size);
