/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine's progress callback runs on the worker and only copies figures
 * into a mutex-protected snapshot; a 10 Hz timer on the main thread takes
 * the snapshot and emits "progress". The thread is joined before "finished"
 * so the report is the main thread's alone from then on. Each sample the
 * engine closes is kept as it arrives, so a window can draw the timeline
 * while it grows, and the result being measured shows the last one.
 */
#include "dm-job.h"
#include "dm-i18n-ui.h"

#include "dm-interleave.h"
#include "dm-headroom.h"
#include "dm-sweep.h"

#include <errno.h>
#include <string.h>

struct _DmJob
{
  GObject        parent_instance;

  dm_report      report;        /* written by the worker until it is joined */
  dm_runner     *runner;
  bool          *selection;     /* NULL: every result */
  GThread       *thread;
  guint          tick_id;
  int            code;          /* dm_runner_run's return */
  gboolean       sweep;         /* run through dm_sweep_run */
  gboolean       headroom;      /* run through dm_headroom_run */

  /* A comparison's second target, run interleaved with the first. */
  dm_report      report_b;
  dm_runner     *runner_b;
  dm_result     *shared_results_b;
  dm_result     *results_b;
  double         fraction_a;    /* each runner's own progress, averaged */
  double         fraction_b;
  double         left_a;
  double         left_b;

  GMutex         lock;          /* guards everything below */
  gboolean       dirty;
  gboolean       done;
  DmJobProgress  shared;        /* written by the worker */
  dm_result     *shared_results;
  dm_sample     *shared_samples; /* the current result's closed samples */
  guint          n_shared_samples;
  guint          shared_samples_size;
  int            samples_result; /* whose they are */

  DmJobProgress  progress;      /* main thread's copies */
  dm_result     *results;
  dm_sample     *samples;
  guint          n_samples;
};

enum { PROGRESS, FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (DmJob, dm_job, G_TYPE_OBJECT)

/* The 10 Hz ceiling of the brief: a figure a person can read, and a main
 * loop that sleeps most of the time while the disk is busy. */
#define TICK_MS 100

/* Worker thread, under the lock: the sample the engine last closed, and
 * the timeline so far. The engine reports many times per sample, so only
 * a later one is added; the array grows by doubling, a few times a run. */
static void
keep_sample (DmJob             *self,
             const dm_progress *p)
{
  if (p->result_index != self->samples_result)
    {
      self->samples_result = p->result_index;
      self->n_shared_samples = 0;
    }
  if (p->phase != DM_PHASE_MEASURE || !(p->sample.t > 0))
    {
      memset (&self->shared.sample, 0, sizeof self->shared.sample);
      return;
    }
  self->shared.sample = p->sample;
  if (self->n_shared_samples
      && p->sample.t <= self->shared_samples[self->n_shared_samples - 1].t + 1e-9)
    return;
  if (self->n_shared_samples == self->shared_samples_size)
    {
      self->shared_samples_size = MAX (64, self->shared_samples_size * 2);
      self->shared_samples = g_renew (dm_sample, self->shared_samples, self->shared_samples_size);
    }
  self->shared_samples[self->n_shared_samples++] = p->sample;
}

/* Main thread: the result being measured shows its last closed sample,
 * the figure diskmeter-cli's progress line shows, rather than the summary
 * of the runs so far (which stands still for a whole run). */
static void
show_sample (DmJob *self)
{
  const DmJobProgress *p = &self->progress;
  dm_result *res;

  if (p->phase != DM_PHASE_MEASURE || !(p->sample.t > 0) || p->result_index < 0
      || (guint) p->result_index >= self->report.n_results)
    return;
  res = &self->results[p->result_index];
  if (res->status == DM_STATUS_COMPLETE || res->status == DM_STATUS_FAILED)
    return;
  res->mb_per_s = p->sample.all.mb_per_s;
  res->iops = p->sample.all.iops;
  res->latency_us = p->sample.all.latency_us_mean;
}

static void
on_engine_progress (void              *user,
                    const dm_progress *p)
{
  DmJob *self = user;

  /* Worker thread: copy and leave, the I/O threads are waiting on us. */
  g_mutex_lock (&self->lock);
  self->shared.phase = p->phase;
  self->shared.result_index = p->result_index;
  self->shared.run = p->run;
  self->shared.count = p->count;
  self->fraction_a = p->fraction;
  self->left_a = p->seconds_left;
  /* Two interleaved targets share one bar: each counts for half. */
  self->shared.fraction = self->runner_b ? (self->fraction_a + self->fraction_b) / 2 : p->fraction;
  self->shared.seconds_left = self->left_a + self->left_b;
  if (p->result && p->result_index >= 0 && (guint) p->result_index < self->report.n_results)
    self->shared_results[p->result_index] = *p->result;
  keep_sample (self, p);
  self->dirty = TRUE;
  g_mutex_unlock (&self->lock);
}

static void
on_engine_progress_b (void              *user,
                      const dm_progress *p)
{
  DmJob *self = user;

  g_mutex_lock (&self->lock);
  self->shared.phase = p->phase;
  self->shared.result_index = p->result_index;
  self->shared.run = p->run;
  self->shared.count = p->count;
  self->fraction_b = p->fraction;
  self->left_b = p->seconds_left;
  self->shared.fraction = (self->fraction_a + self->fraction_b) / 2;
  self->shared.seconds_left = self->left_a + self->left_b;
  if (p->result && p->result_index >= 0 && (guint) p->result_index < self->report_b.n_results)
    self->shared_results_b[p->result_index] = *p->result;
  /* The live sample and timeline are the first target's. */
  memset (&self->shared.sample, 0, sizeof self->shared.sample);
  self->dirty = TRUE;
  g_mutex_unlock (&self->lock);
}

static gpointer
worker (gpointer data)
{
  DmJob *self = data;
  int code = self->runner_b ? dm_interleave_run (self->runner, self->runner_b)
             : self->sweep  ? dm_sweep_run (self->runner, &self->report)
             : self->headroom ? dm_headroom_run (self->runner, &self->report)
                            : dm_runner_run (self->runner);

  g_mutex_lock (&self->lock);
  self->code = code;
  self->done = TRUE;
  g_mutex_unlock (&self->lock);
  return NULL;
}

static gboolean
on_tick (gpointer data)
{
  DmJob *self = data;
  gboolean dirty, done;

  g_mutex_lock (&self->lock);
  dirty = self->dirty;
  done = self->done;
  if (dirty)
    {
      self->progress = self->shared;
      memcpy (self->results, self->shared_results,
              self->report.n_results * sizeof (dm_result));
      if (self->runner_b)
        memcpy (self->results_b, self->shared_results_b,
                self->report_b.n_results * sizeof (dm_result));
      self->samples = g_renew (dm_sample, self->samples, MAX (self->n_shared_samples, 1));
      if (self->n_shared_samples)
        memcpy (self->samples, self->shared_samples,
                self->n_shared_samples * sizeof (dm_sample));
      self->n_samples = self->n_shared_samples;
      self->dirty = FALSE;
    }
  g_mutex_unlock (&self->lock);
  if (dirty && !done)
    show_sample (self);

  if (done)
    {
      g_thread_join (self->thread);
      self->thread = NULL;
      self->tick_id = 0;
      /* The worker is gone: the report's figures are final. */
      memcpy (self->results, self->report.results, self->report.n_results * sizeof (dm_result));
      if (self->runner_b)
        memcpy (self->results_b, self->report_b.results,
                self->report_b.n_results * sizeof (dm_result));
      g_object_ref (self);
      g_signal_emit (self, signals[PROGRESS], 0);
      g_signal_emit (self, signals[FINISHED], 0, self->code);
      g_object_unref (self);
      return G_SOURCE_REMOVE;
    }
  if (dirty)
    g_signal_emit (self, signals[PROGRESS], 0);
  return G_SOURCE_CONTINUE;
}

static void
dm_job_dispose (GObject *object)
{
  DmJob *self = DM_JOB (object);

  /* Never leave a worker behind writing into freed memory: a job dropped
   * mid-run is cancelled and waited for (at most the engine's 250 ms). */
  if (self->thread)
    {
      dm_runner_cancel (self->runner);
      if (self->runner_b)
        dm_runner_cancel (self->runner_b);
      g_thread_join (self->thread);
      self->thread = NULL;
    }
  g_clear_handle_id (&self->tick_id, g_source_remove);
  G_OBJECT_CLASS (dm_job_parent_class)->dispose (object);
}

static void
dm_job_finalize (GObject *object)
{
  DmJob *self = DM_JOB (object);

  if (self->runner)
    dm_runner_free (self->runner);
  dm_report_clear (&self->report);
  if (self->runner_b)
    dm_runner_free (self->runner_b);
  dm_report_clear (&self->report_b);
  g_free (self->shared_results_b);
  g_free (self->results_b);
  g_free (self->selection);
  g_free (self->shared_results);
  g_free (self->results);
  g_free (self->shared_samples);
  g_free (self->samples);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dm_job_parent_class)->finalize (object);
}

static void
dm_job_class_init (DmJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dm_job_dispose;
  object_class->finalize = dm_job_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
dm_job_init (DmJob *self)
{
  g_mutex_init (&self->lock);
  self->progress.result_index = -1;
  self->shared.result_index = -1;
  self->samples_result = -1;
}

DmJob *
dm_job_new (dm_report  *report,
            const char *target,
            const bool *selection)
{
  DmJob *self = g_object_new (DM_TYPE_JOB, NULL);

  self->report = *report;
  memset (report, 0, sizeof *report);
  self->shared_results = g_new0 (dm_result, MAX (self->report.n_results, 1));
  self->results = g_new0 (dm_result, MAX (self->report.n_results, 1));
  memcpy (self->shared_results, self->report.results, self->report.n_results * sizeof (dm_result));
  memcpy (self->results, self->report.results, self->report.n_results * sizeof (dm_result));
  if (selection)
    self->selection = g_memdup2 (selection, MAX (self->report.n_results, 1) * sizeof (bool));

  self->runner = dm_runner_new (&self->report, target);
  if (self->runner)
    {
      if (self->selection)
        dm_runner_select (self->runner, self->selection);
      dm_runner_set_progress (self->runner, on_engine_progress, self);
    }
  return self;
}

gboolean
dm_job_add_second (DmJob      *self,
                   dm_report  *report,
                   const char *target)
{
  g_return_val_if_fail (DM_IS_JOB (self), FALSE);
  g_return_val_if_fail (self->thread == NULL && self->runner_b == NULL, FALSE);

  self->report_b = *report;
  memset (report, 0, sizeof *report);
  self->shared_results_b = g_new0 (dm_result, MAX (self->report_b.n_results, 1));
  self->results_b = g_new0 (dm_result, MAX (self->report_b.n_results, 1));
  memcpy (self->shared_results_b, self->report_b.results,
          self->report_b.n_results * sizeof (dm_result));
  memcpy (self->results_b, self->report_b.results, self->report_b.n_results * sizeof (dm_result));
  self->runner_b = dm_runner_new (&self->report_b, target);
  if (!self->runner_b)
    return FALSE;
  if (self->selection)
    dm_runner_select (self->runner_b, self->selection);
  dm_runner_set_progress (self->runner_b, on_engine_progress_b, self);
  return TRUE;
}

void
dm_job_set_pass (DmJob    *self,
                 gboolean  fill_first)
{
  g_return_if_fail (DM_IS_JOB (self));
  g_return_if_fail (self->thread == NULL);

  if (self->runner)
    dm_runner_set_pass (self->runner, fill_first);
}

void
dm_job_set_sweep (DmJob *self)
{
  g_return_if_fail (DM_IS_JOB (self));
  g_return_if_fail (self->thread == NULL && self->runner_b == NULL);

  self->sweep = TRUE;
}

void
dm_job_set_headroom (DmJob *self)
{
  g_return_if_fail (DM_IS_JOB (self));
  g_return_if_fail (self->thread == NULL && self->runner_b == NULL);

  self->headroom = TRUE;
}

gboolean
dm_job_start (DmJob   *self,
              GError **error)
{
  g_return_val_if_fail (DM_IS_JOB (self), FALSE);
  g_return_val_if_fail (self->thread == NULL, FALSE);

  if (!self->runner)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("Diskmeter could not set up the run (out of memory)"));
      return FALSE;
    }
  self->thread = g_thread_try_new ("dm-job", worker, self, error);
  if (!self->thread)
    return FALSE;
  self->tick_id = g_timeout_add (TICK_MS, on_tick, self);
  return TRUE;
}

void
dm_job_cancel (DmJob *self)
{
  g_return_if_fail (DM_IS_JOB (self));
  if (self->runner && self->thread)
    dm_runner_cancel (self->runner);
  if (self->runner_b && self->thread)
    dm_runner_cancel (self->runner_b);
}

gboolean
dm_job_is_running (DmJob *self)
{
  return self->thread != NULL;
}

gboolean
dm_job_is_selected (DmJob *self,
                    guint  index)
{
  if (index >= self->report.n_results)
    return FALSE;
  return self->selection == NULL || self->selection[index];
}

const dm_result *
dm_job_peek_result (DmJob *self,
                    guint  index)
{
  g_return_val_if_fail (index < self->report.n_results, NULL);
  return &self->results[index];
}

const dm_result *
dm_job_peek_results_b (DmJob *self,
                       guint *n_results)
{
  *n_results = self->runner_b ? self->report_b.n_results : 0;
  return self->runner_b ? self->results_b : NULL;
}

const DmJobProgress *
dm_job_get_progress (DmJob *self)
{
  return &self->progress;
}

const dm_sample *
dm_job_peek_samples (DmJob *self,
                     guint *n_samples)
{
  *n_samples = self->n_samples;
  return self->samples;
}

const dm_report *
dm_job_get_report (DmJob *self)
{
  g_return_val_if_fail (self->thread == NULL, NULL);
  return &self->report;
}

gboolean
dm_job_steal_report_b (DmJob     *self,
                       dm_report *out)
{
  g_return_val_if_fail (self->thread == NULL, FALSE);
  if (!self->runner_b)
    return FALSE;
  /* The runner points into the report: it goes first. */
  dm_runner_free (self->runner_b);
  self->runner_b = NULL;
  *out = self->report_b;
  memset (&self->report_b, 0, sizeof self->report_b);
  return TRUE;
}

int
dm_job_get_code (DmJob *self)
{
  return self->code;
}

static const char *
phase_text (dm_phase phase)
{
  switch (phase)
    {
    case DM_PHASE_PREPARE:
      return _("Preparing the test file");
    case DM_PHASE_WARMUP:
      return _("warming up");
    case DM_PHASE_INTERVAL:
      return _("pausing between tests");
    case DM_PHASE_MEASURE:
    case DM_PHASE_DONE:
    default:
      return "";
    }
}

/* "SEQ1M / Q8T1 Read", or a workload row's name: its mix is its own. */
static void
result_name (const dm_result *res,
             char            *name,
             gsize            size)
{
  char label[64];

  dm_spec_label (&res->spec, label, sizeof label);
  if (res->shaped && res->workload.name[0])
    g_strlcpy (name, res->workload.name, size);
  else
    g_snprintf (name, size, "%s %s", label, dm_mode_title (res->mode));
}

/* The status line of a run in progress: "Preparing the test file", "SEQ1M
 * Q8T1 Read: run 2 of 5", "... : warming up"; current is the result the
 * progress is about, or NULL. g_free() it. */
char *
dm_job_describe_progress (const DmJobProgress *p,
                          const dm_result     *current)
{
  char name[96];

  if (p->phase == DM_PHASE_PREPARE || !current)
    return g_strdup (phase_text (DM_PHASE_PREPARE));
  result_name (current, name, sizeof name);
  if (p->phase == DM_PHASE_DONE)
    /* TRANSLATORS: a test's name, then that it is done: "SEQ1M Q8T1 Read: done" */
    return g_strdup_printf (_("%s: done"), name);
  if (p->phase == DM_PHASE_MEASURE)
    /* TRANSLATORS: a test's name, then which measured run it is in */
    return g_strdup_printf (_("%s: run %u of %u"), name, p->run, p->count);
  return g_strdup_printf ("%s: %s", name, phase_text (p->phase));
}
