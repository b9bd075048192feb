/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs a report's tests against a target: prepares the test file, then for
 * each test an unscored warm-up and `count` measured runs with T worker
 * threads keeping Q I/Os in flight each. dm_runner_run blocks; front ends
 * call it from a worker thread and get progress through a callback that
 * runs on that thread and must only copy what it needs.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dm-report.h"

typedef enum {
  DM_PHASE_PREPARE,  /* creating and filling the test file */
  DM_PHASE_WARMUP,   /* unscored run before the test */
  DM_PHASE_MEASURE,  /* measured run `run` of `count` */
  DM_PHASE_INTERVAL, /* pause between tests */
  DM_PHASE_DONE,     /* a result was finished */
  DM_PHASE_PRECONDITION, /* whole-file writes before the first test: pass `run` of `count` */
} dm_phase;

typedef struct dm_progress {
  dm_phase         phase;
  int              result_index;  /* into report->results, -1 while preparing */
  unsigned         run;           /* 1-based, during DM_PHASE_MEASURE */
  unsigned         count;
  double           fraction;      /* of the whole job, 0..1 */
  double           seconds_left;  /* estimate for the whole job */
  const dm_result *result;        /* live figures of the current result; copy them */
  /* The last closed sample of the timeline during DM_PHASE_MEASURE
   * (sample.t == 0: none closed yet), summed over reads and writes. */
  dm_sample        sample;
} dm_progress;

typedef void (*dm_progress_fn) (void *user, const dm_progress *progress);

typedef struct dm_runner dm_runner;

/* Which results of the report to run: all (NULL) or a selection (the grid's
 * per-row button). */
dm_runner *dm_runner_new (dm_report *report, const char *target);
void dm_runner_select (dm_runner *runner, const bool *run_result);
void dm_runner_set_progress (dm_runner *runner, dm_progress_fn fn, void *user);
/* One pass instead of timed runs (the sustained test): each thread moves
 * its share of the test file once, then stops, and the result's single run
 * ends when all have or when count x measure_s has passed. fill_first
 * says whether the file is written before (a read pass needs data; a write
 * pass must meet the storage as it is). */
void dm_runner_set_pass (dm_runner *runner, bool fill_first);
/* With dm_runner_set_pass, the first-write probe's passes: a random test
 * writes each block of the test file once, in a shuffled order the job
 * keeps (offsets drawn anew would hit some blocks twice and miss others),
 * and every pass after the first since dm_runner_prepare repeats the
 * first one's I/Os, offsets and order, as many as it issued: a rewrite
 * covers exactly the blocks the first write did, even when that pass ran
 * out of time. All passes of a prepare are of one pattern, block and T. */
void dm_runner_set_pass_repeat (dm_runner *runner);
/* Uses this backend instead of choosing one (tests drive the runner through
 * an in-memory backend that records and can fail I/O). */
struct dm_backend;
void dm_runner_set_backend (dm_runner *runner, const struct dm_backend *backend);
/* Fills report and returns 0, or a negative code with report->error set.
 * A cancelled run returns -ECANCELED and keeps the finished results. */
int  dm_runner_run (dm_runner *runner);

/* dm_runner_run in steps, for running two targets interleaved (A's test 1,
 * B's test 1, A's test 2...): prepare checks and fills the target; run a
 * result (pausing the interval first if asked); finish closes the target,
 * sets the report's status and returns the final code for err. */
int  dm_runner_prepare (dm_runner *runner);
int  dm_runner_run_result (dm_runner *runner, unsigned index, bool pause_first);
int  dm_runner_finish (dm_runner *runner, int err);
bool dm_runner_selected (const dm_runner *runner, unsigned index);
dm_report *dm_runner_get_report (const dm_runner *runner);

/* Several targets at once (dm-concurrent.h): a start line each test
 * shares with other runners. gate is called on the runner's thread once
 * its workers are up, before the warm-up, and returns the clock's time
 * (dm_clock_ns) the test's warm-up and windows count from: the same for
 * every runner that shares it, so their windows are the same. */
typedef uint64_t (*dm_start_gate_fn) (void *user);
void dm_runner_set_start_gate (dm_runner *runner, dm_start_gate_fn fn, void *user);

/* From any thread or a signal handler: stop within 250 ms. */
void dm_runner_cancel (dm_runner *runner);
void dm_runner_free (dm_runner *runner);
