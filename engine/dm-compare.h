/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Comparing runs: drive E: against F:, one controller against another,
 * before and after a change. Rows are the tests the runs share (by test and
 * mode, a workload row by its name and shape); each later run is compared with the first, and a difference only
 * counts as better or worse when it is larger than the runs' own spread.
 */
#pragma once

#include <stdbool.h>

#include "dm-report.h"
#include "dm-threshold.h"
#include "dm-units.h"

typedef enum {
  DM_VERDICT_NONE,    /* nothing to compare (missing on one side) */
  DM_VERDICT_SAME,    /* within the runs' own spread */
  DM_VERDICT_BETTER,
  DM_VERDICT_WORSE,
  DM_VERDICT_ONE_RUN, /* a side has one run: no spread to judge the difference by */
} dm_verdict;

/* "", "same", "better", "worse", "one-run": the names CSV and JSON carry. */
const char *dm_verdict_name (dm_verdict v);
/* What a person reads: "same", "better", "worse", "no spread: one run";
 * in the user's language when translate (the window), else in English as
 * every export and diskmeter-cli's text have it. */
const char *dm_verdict_words (dm_verdict v, bool translate);

#define DM_COMPARE_MAX 64

typedef struct dm_compare_cell {
  bool       present;       /* this run has the test, and it completed */
  double     value;         /* the figure in the chosen unit */
  double     spread;        /* stdev over its runs, same unit (0 with one run) */
  unsigned   n_runs;        /* the measured runs behind the figure */
  double     diff_percent;  /* vs the first run: (value - first) / first * 100 */
  dm_verdict verdict;       /* vs the first run, from the unit's better direction */
  dm_colour  colour;        /* under the comparison's green/red limits */
} dm_compare_cell;

typedef struct dm_compare_row {
  dm_spec         spec;
  dm_mode         mode;
  /* A workload row: matched by its name and shape (its canonical form),
   * never by the test it stands in, which two shapes may share. */
  bool            shaped;
  dm_workload     workload;
  unsigned        order;    /* position when built */
  dm_compare_cell cells[DM_COMPARE_MAX];
} dm_compare_row;

typedef struct dm_compare {
  const dm_report *runs[DM_COMPARE_MAX];
  const char      *names[DM_COMPARE_MAX]; /* file names or "A", "B" */
  unsigned         n_runs;
  dm_unit          unit;
  dm_compare_row  *rows;
  unsigned         n_rows;
} dm_compare;

/* Builds the rows for reports[0..n-1] (2..DM_COMPARE_MAX) in a unit. The
 * reports must outlive the comparison. */
int  dm_compare_build (dm_compare *c, const dm_report *const *reports, const char *const *names,
                       unsigned n, dm_unit unit);
void dm_compare_clear (dm_compare *c);

/* Colours every cell by green/red limits (in the comparison's unit). */
void dm_compare_set_thresholds (dm_compare *c, const dm_threshold *rules, unsigned n);

/* The verdict for one pair of figures with their spreads: a difference
 * counts when it exceeds twice the combined standard deviation. */
dm_verdict dm_compare_judge (double first, double first_spread, double value, double spread,
                             dm_unit unit);

/* The parts that say where run i was measured, each once: the target's
 * path (or the run's name when it has none), filesystem, device and model,
 * leaving out any that is empty, repeats an earlier part or equals shown
 * (a name the line already carries; may be NULL). tmpfs's device is
 * "tmpfs": the line names it once. Returns how many it put in parts. */
#define DM_COMPARE_WHERE_MAX 4
unsigned dm_compare_where (const dm_compare *c, unsigned i, const char *shown,
                           const char *parts[DM_COMPARE_WHERE_MAX]);

/* The settings and facts of the machine that differ between the runs and
 * change what their figures mean (test size, count, timings, test data,
 * Mix share, buffering, backend, filesystem, OS, CPU, memory, the
 * device's queue), as one line: "Different settings: test size 1 GiB vs
 * 64 MiB; count 5 vs 1", every run's value in order. Nothing is written
 * when they agree (a fact unknown to a run is not a difference). In the
 * user's language when translate, else English. Returns how many differ. */
unsigned dm_compare_write_differences (const dm_compare *c, bool translate, dm_buf *out);

/* Whether a tag (dm_report_tags: the user's and the facts offered as
 * tags) differs between the runs: a value another run has not, or a tag
 * one run has and another has not; a fact a run does not know is no
 * difference, and vcpus only when a user gave it (logical CPUs are among
 * the settings). */
bool     dm_compare_tag_differs (const dm_compare *c, const char *key);
/* "Different tags: controller pvscsi vs nvme; site lab vs -", every
 * run's value in order ("-" for none); nothing when they agree. Returns
 * how many differ. */
unsigned dm_compare_write_tag_differences (const dm_compare *c, bool translate, dm_buf *out);

/* Sorts rows by the value of one run's column (descending), or back into
 * the order they were built in (the first run's) with column = -1. */
void dm_compare_sort (dm_compare *c, int column);

/* What a row is called: a workload row's name, else "Read SEQ1M Q8T1". */
void dm_compare_row_name (const dm_compare_row *row, char *buf, size_t size);

void dm_compare_write_text (const dm_compare *c, dm_buf *out);
void dm_compare_write_csv (const dm_compare *c, dm_buf *out);
void dm_compare_write_json (const dm_compare *c, dm_buf *out);
