/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One benchmark run of the window: the engine's blocking dm_runner_run on a
 * worker thread, and its progress brought back to the main thread by a
 * 10 Hz timer, so GTK is only ever touched where it may be.
 */
#pragma once

#include <gio/gio.h>

#include "dm-report.h"
#include "dm-runner.h"

G_BEGIN_DECLS

/* What the main thread learns at each tick: a copy, never the engine's own. */
typedef struct
{
  dm_phase  phase;
  int       result_index;  /* -1 while preparing */
  guint     run;
  guint     count;
  double    fraction;
  double    seconds_left;
  /* The last closed sample of the result being measured (t == 0: none
   * yet), the figure diskmeter-cli's progress line shows too. */
  dm_sample sample;
} DmJobProgress;

#define DM_TYPE_JOB (dm_job_get_type ())
G_DECLARE_FINAL_TYPE (DmJob, dm_job, DM, JOB, GObject)

/* Takes ownership of report's contents (it is left cleared). selection may
 * be NULL for every result. */
DmJob           *dm_job_new            (dm_report   *report,
                                        const char  *target,
                                        const bool  *selection);
/* Before start: a second target (comparison), run interleaved with the
 * first on the same worker. Takes ownership of report's contents. */
gboolean         dm_job_add_second     (DmJob       *self,
                                        dm_report   *report,
                                        const char  *target);
/* Before start: one pass through the test file instead of timed runs
 * (the sustained test; dm_runner_set_pass), filled first or not. */
void             dm_job_set_pass       (DmJob       *self,
                                        gboolean     fill_first);
/* Before start: the report is a sweep of any kind, run as diskmeter-cli
 * sweep runs it (dm_sweep_run: a rate curve's maximum first, whose IOPS
 * set the other rows' rates). */
void             dm_job_set_sweep      (DmJob       *self);
/* Before start: the report is a headroom (dm_headroom_report_init), run
 * as diskmeter-cli --headroom runs it (dm_headroom_run: each maximum sets
 * the rates of the points after it). */
void             dm_job_set_headroom   (DmJob       *self);
gboolean         dm_job_start          (DmJob       *self,
                                        GError     **error);
void             dm_job_cancel         (DmJob       *self);
gboolean         dm_job_is_running     (DmJob       *self);
gboolean         dm_job_is_selected    (DmJob       *self,
                                        guint        index);
/* Main thread: the latest live copy of result i (valid until the next tick).
 * While result i is measured its mb_per_s, iops and latency_us are those
 * of the last closed sample, so a live figure moves with the timeline;
 * the summary over the runs comes back when the result is done. */
const dm_result *dm_job_peek_result    (DmJob       *self,
                                        guint        index);
/* Main thread: the second target's live copies (NULL without one). */
const dm_result *dm_job_peek_results_b (DmJob       *self,
                                        guint       *n_results);
const DmJobProgress *dm_job_get_progress (DmJob     *self);
/* The status line for p: "SEQ1M Q8T1 Read: run 2 of 5". g_free() it. */
char *dm_job_describe_progress (const DmJobProgress *p,
                                const dm_result     *current);
/* Main thread: the samples closed so far of the result being measured
 * (valid until the next tick), as they arrived; the report's own
 * timeline replaces them once the result is done. */
const dm_sample *dm_job_peek_samples   (DmJob       *self,
                                        guint       *n_samples);
/* After "finished": the engine's report and return code. */
const dm_report *dm_job_get_report     (DmJob       *self);
/* After "finished": moves the second target's report out of the job. */
gboolean         dm_job_steal_report_b (DmJob       *self,
                                        dm_report   *out);
int              dm_job_get_code       (DmJob       *self);

G_END_DECLS
