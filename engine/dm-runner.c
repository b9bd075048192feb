/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner's job: the backend chosen, the test file prepared, each
 * selected test run in turn with the pause between, progress and the time
 * left, and the end. One test's measuring and figures are
 * dm-runner-measure.c, the workers' hot loop dm-runner-worker.c.
 */
#include "dm-runner-private.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-units.h"

static int
set_error (dm_report *r, int code, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

static int
set_error (dm_report *r, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->error, sizeof r->error, fmt, ap);
  va_end (ap);
  return code;
}

dm_runner *
dm_runner_new (dm_report *report, const char *target)
{
  dm_runner *r = calloc (1, sizeof *r);
  if (!r)
    return NULL;
  r->report = report;
  r->target_len = strlen (target);
  snprintf (r->target, sizeof r->target, "%s", target);
  atomic_init (&r->cancel, 0);
  r->current = -1;
  return r;
}

void
dm_runner_select (dm_runner *r, const bool *run_result)
{
  free (r->selected);
  r->selected = NULL;
  if (!run_result)
    return;
  r->selected = calloc (r->report->n_results ? r->report->n_results : 1, sizeof (bool));
  if (r->selected)
    memcpy (r->selected, run_result, r->report->n_results * sizeof (bool));
}

void
dm_runner_set_progress (dm_runner *r, dm_progress_fn fn, void *user)
{
  r->progress = fn;
  r->user = user;
}

void
dm_runner_set_pass (dm_runner *r, bool fill_first)
{
  r->pass = true;
  r->pass_fill = fill_first;
}

void
dm_runner_set_pass_repeat (dm_runner *r)
{
  r->pass_repeat = true;
}

void
dm_runner_set_backend (dm_runner *r, const dm_backend *backend)
{
  r->forced = backend;
}

void
dm_runner_set_start_gate (dm_runner *r, dm_start_gate_fn fn, void *user)
{
  r->gate = fn;
  r->gate_user = user;
}

void
dm_runner_cancel (dm_runner *r)
{
  atomic_store (&r->cancel, 1);
}

void
dm_runner_free (dm_runner *r)
{
  if (!r)
    return;
  dm_device_watch_close (r->watch);
  free (r->slots);
  free (r->selected);
  free (r->pass_issued);
  free (r);
}

static bool
is_selected (const dm_runner *r, unsigned i)
{
  return !r->selected || r->selected[i];
}

void
_dm_runner_progress (dm_runner *r, dm_phase phase, unsigned run, double phase_fraction,
                 double phase_seconds)
{
  if (!r->progress)
    return;
  dm_progress p = { 0 };
  double done = r->job_done + phase_fraction * phase_seconds;
  p.phase = phase;
  p.result_index = r->current;
  p.run = run;
  p.count = r->report->settings.count;
  p.fraction = r->job_total > 0 ? fmin (1.0, done / r->job_total) : 0;
  p.seconds_left = fmax (0.0, r->job_total - done);
  p.result = r->current >= 0 ? &r->report->results[r->current] : NULL;
  if (phase == DM_PHASE_MEASURE)
    p.sample = r->live;
  r->progress (r->user, &p);
}

/* Sleeps in slices so a cancel ends the pause at once. */
static void
pause_for (dm_runner *r, double seconds)
{
  uint64_t end = dm_clock_ns () + (uint64_t) (seconds * NS_PER_S);
  for (;;)
    {
      uint64_t now = dm_clock_ns ();
      if (now >= end || _dm_runner_cancelled (r))
        return;
      uint64_t left = end - now;
      dm_sleep_ns (left < REAP_TIMEOUT ? left : REAP_TIMEOUT);
      _dm_runner_progress (r, DM_PHASE_INTERVAL, 0,
                           1.0 - (double) (end - dm_clock_ns ()) / (seconds * NS_PER_S),
                           seconds);
    }
}

static int
choose_backend (dm_runner *r)
{
  dm_report *rep = r->report;
  unsigned n;
  const dm_backend *const *list = dm_backends (&n);
  int last = DM_E_NOBACKEND;

  if (r->forced)
    {
      r->backend = r->forced;
      snprintf (rep->backend, sizeof rep->backend, "%s", r->forced->name);
      return 0;
    }

  for (unsigned i = 0; i < n; i++)
    {
      if (rep->settings.backend[0] && strcmp (rep->settings.backend, list[i]->name))
        continue;
      int err = list[i]->probe ();
      if (err == 0)
        {
          r->backend = list[i];
          snprintf (rep->backend, sizeof rep->backend, "%s", list[i]->name);
          return 0;
        }
      last = err;
      if (rep->settings.backend[0])
        return set_error (rep, err, "the %s backend cannot run here: %s", list[i]->name,
                          dm_strerror (err));
    }
  if (rep->settings.backend[0])
    return set_error (rep, -EINVAL, "there is no backend called '%s' here", rep->settings.backend);
  return set_error (rep, last, "no I/O backend works here: %s", dm_strerror (last));
}

static void
fill_progress (void *user, double fraction)
{
  dm_runner *r = user;
  _dm_runner_progress (r, DM_PHASE_PREPARE, 0, fraction, 0);
}

/* The precondition's writes: whole MiB, sequential, this many in flight
 * from one thread, enough to keep an SSD's channels or a thin disk's
 * allocator busy (SNIA's PTS and HCIBench write so before they measure). */
#define PRECOND_BLOCK (1u << 20)
#define PRECOND_DEPTH 16u

static void
precondition_progress (dm_runner *r, unsigned pass, double fraction, double left)
{
  if (!r->progress)
    return;
  dm_progress p = { 0 };
  p.phase = DM_PHASE_PRECONDITION;
  p.result_index = -1;
  p.run = pass;
  p.count = r->report->settings.precondition;
  p.fraction = fraction;
  p.seconds_left = left + r->job_total;
  r->progress (r->user, &p);
}

/* Writes the whole test file settings.precondition times, front to back,
 * with the data the tests write (random, a new word in every sector of
 * every write; or zeros), then flushes it. A cancel stops it within a
 * reap's wait and the drain's. */
static int
precondition (dm_runner *r)
{
  dm_report *rep = r->report;
  unsigned passes = rep->settings.precondition;
  uint64_t size = r->tf.size / PRECOND_BLOCK * PRECOND_BLOCK;
  uint64_t total = size * passes, issued = 0, done_bytes = 0;
  unsigned depth = PRECOND_DEPTH, inflight = 0;
  bool random = rep->settings.data == DM_DATA_RANDOM;
  void *bufs = dm_alloc_io ((size_t) depth * PRECOND_BLOCK);
  dm_io *ios[PRECOND_DEPTH], *done[PRECOND_DEPTH];
  dm_queue *q = NULL;
  dm_rng rng;
  uint64_t stamp = 0, t0 = dm_clock_ns (), stop_at = 0, last_progress = 0;
  int err = 0;

  if (!bufs)
    return set_error (rep, -ENOMEM, "out of memory for the precondition's buffers");
  dm_rng_seed (&rng, t0 * 0x9e3779b97f4a7c15ull);
  if (random)
    dm_rng_fill (&rng, bufs, (size_t) depth * PRECOND_BLOCK);
  else
    memset (bufs, 0, (size_t) depth * PRECOND_BLOCK);
  dm_queue_params params = { r->tf.file, depth, bufs, PRECOND_BLOCK, false, true };
  err = r->backend->open (&params, &q, ios);
  if (err < 0)
    {
      dm_free_io (bufs, (size_t) depth * PRECOND_BLOCK);
      return set_error (rep, err, "preconditioning: cannot set up the I/O queue: %s",
                        dm_strerror (err));
    }
  precondition_progress (r, 1, 0, 0);
  unsigned idle = depth;
  for (;;)
    {
      bool stop = err < 0 || _dm_runner_cancelled (r);
      if (stop && !stop_at)
        stop_at = dm_clock_ns ();
      /* Every free slot takes the next MiB of the file, pass after pass. */
      while (!stop && idle && issued < total)
        {
          dm_io *io = ios[--idle];
          io->offset = issued % size;
          io->len = PRECOND_BLOCK;
          io->write = 1;
          io->buf = (char *) bufs + (size_t) io->slot * PRECOND_BLOCK;
          if (random)
            {
              uint64_t tag = ++stamp * 0x9e3779b97f4a7c15ull ^ rng.s[0];
              for (uint32_t o = 0; o < PRECOND_BLOCK; o += 512)
                *(uint64_t *) ((char *) io->buf + o) = tag + o;
            }
          io->t_submit = dm_clock_ns ();
          int e = r->backend->prep (q, io);
          if (e < 0)
            {
              err = set_error (rep, e, "preconditioning: submitting a write failed: %s",
                               dm_strerror (e));
              ios[idle++] = io;
              break;
            }
          issued += PRECOND_BLOCK;
          inflight++;
        }
      if (!inflight)
        break;
      if (stop && dm_clock_ns () - stop_at > DRAIN_TIMEOUT)
        break;
      int n = r->backend->reap (q, done, depth, REAP_TIMEOUT);
      if (n < 0)
        {
          err = set_error (rep, n, "preconditioning: waiting for writes failed: %s",
                           dm_strerror (n));
          break;
        }
      for (int i = 0; i < n; i++)
        {
          dm_io *io = done[i];
          inflight--;
          if (io->res == -EAGAIN || io->res == -EINTR || (io->res > 0 && (uint32_t) io->res < io->len))
            {
              /* Sent again, the rest of it or the whole. */
              if (io->res > 0)
                {
                  done_bytes += (uint32_t) io->res;
                  io->offset += (uint32_t) io->res;
                  io->buf = (char *) io->buf + io->res;
                  io->len -= (uint32_t) io->res;
                }
              if (!stop && r->backend->prep (q, io) == 0)
                {
                  inflight++;
                  continue;
                }
            }
          else if (io->res != (int32_t) io->len && err >= 0)
            {
              char where[32];
              dm_size_format (io->offset, where, sizeof where);
              err = set_error (rep, io->res < 0 ? io->res : DM_E_SHORT,
                               "preconditioning: a write failed at %s: %s", where,
                               dm_strerror (io->res < 0 ? io->res : DM_E_SHORT));
            }
          else
            done_bytes += io->len;
          ios[idle++] = io;
        }
      uint64_t now = dm_clock_ns ();
      if (now - last_progress > 100000000ull)
        {
          last_progress = now;
          double el = (double) (now - t0) / NS_PER_S;
          double left = done_bytes ? el * (double) (total - done_bytes) / (double) done_bytes : 0;
          precondition_progress (r, (unsigned) (done_bytes / size) + (done_bytes < total),
                                 (double) done_bytes / (double) total, left);
        }
    }
  if (r->backend->close (q) == 0)
    dm_free_io (bufs, (size_t) depth * PRECOND_BLOCK);
  rep->precondition_bytes = done_bytes;
  if (err >= 0 && _dm_runner_cancelled (r))
    err = -ECANCELED;
  /* The writes on the device, not in its cache, before the first test. */
  if (err >= 0)
    {
      int e = dm_file_sync (r->tf.file);
      if (e < 0)
        err = set_error (rep, e, "preconditioning: flushing the test file failed: %s",
                         dm_strerror (e));
    }
  rep->precondition_s = (double) (dm_clock_ns () - t0) / NS_PER_S;
  return err;
}

static int
check_fits (dm_runner *r, const dm_result *res)
{
  const dm_spec *sp = &res->spec;
  char name[32];
  if ((uint64_t) sp->block_size * sp->threads > r->tf.size)
    {
      dm_spec_name (sp, name, sizeof name);
      return set_error (r->report, -EINVAL, "%s needs a test size of at least %u MiB",
                        name, (unsigned) ((uint64_t) sp->block_size * sp->threads >> 20));
    }
  if (sp->block_size % r->tf.alignment)
    {
      dm_spec_name (sp, name, sizeof name);
      return set_error (r->report, -EINVAL, "%s: the block size is not a multiple of the "
                        "target's %u-byte sectors", name, r->tf.alignment);
    }
  return 0;
}

int
dm_runner_prepare (dm_runner *r)
{
  dm_report *rep = r->report;
  dm_settings *s = &rep->settings;
  bool need_write = false, mix = false;
  unsigned max_threads = 1, n_tests = 0;
  int err;

  rep->status = DM_STATUS_RUNNING;
  rep->error[0] = '\0';
  rep->started = dm_wall_time ();
  rep->cached = s->buffered;
  rep->prepare_bytes = rep->warmup_bytes = rep->measured_bytes = 0;
  rep->precondition_bytes = 0;
  rep->precondition_s = 0;
  r->ran_any = false;
  dm_system_info_get (&rep->system);

  err = dm_settings_check (s, rep->error, sizeof rep->error);
  if (err < 0)
    return err;
  /* Cut to fit, the path could name another, existing folder, and the
   * test file would be made there. */
  if (r->target_len >= sizeof r->target)
    return set_error (rep, -ENAMETOOLONG,
                      "the target's path is %u bytes long; Diskmeter takes paths of at most "
                      "%u bytes", (unsigned) r->target_len, (unsigned) (sizeof r->target - 1));

  for (unsigned i = 0; i < rep->n_results; i++)
    if (is_selected (r, i))
      {
        dm_result *res = &rep->results[i];
        n_tests++;
        if (res->mode != DM_MODE_READ || s->precondition)
          need_write = true;
        if (res->spec.threads > max_threads)
          max_threads = res->spec.threads;
        mix |= res->mode == DM_MODE_MIX;
      }
  if (!n_tests)
    return set_error (rep, -EINVAL, "no test selected");
  r->job_total = n_tests * ((s->warmup_steady ? s->steady_limit_s : s->warmup_s)
                            + s->count * s->measure_s)
                 + (n_tests - 1) * s->interval_s;
  r->job_done = 0;

  err = choose_backend (r);
  if (err < 0)
    return err;

  /* The timeline's slots, for the longest test, before any I/O: the
   * workers only index into them. */
  double step = rep->sample_s > 0 ? rep->sample_s : DM_SAMPLE_DEFAULT_S;
  if (!(step >= DM_SAMPLE_MIN_S - 1e-9 && step <= DM_SAMPLE_MAX_S + 1e-9))
    return set_error (rep, -EINVAL, "the sample step must be %g to %g s, not %g",
                      DM_SAMPLE_MIN_S, DM_SAMPLE_MAX_S, step);
  r->sample_ns = (uint64_t) llround (step * NS_PER_S);
  r->n_samples = (unsigned) ceil (s->count * s->measure_s / step - 1e-9) + 1;
  r->dirs = mix ? 2 : 1;
  uint64_t sample_memory = (uint64_t) r->n_samples * r->dirs * max_threads * sizeof (sample_slot);
  if (sample_memory > SAMPLE_MEMORY)
    return set_error (rep, -EINVAL, "a timeline of %u samples per thread needs %llu MiB; "
                      "a longer sample step needs less", r->n_samples,
                      (unsigned long long) (sample_memory >> 20));

  r->workers = calloc (max_threads, sizeof *r->workers);
  r->hists = malloc (sizeof *r->hists * 2 * max_threads);
  /* Each prepare makes a new test file: its first pass is a new shuffle. */
  free (r->pass_issued);
  r->pass_issued = calloc (max_threads, sizeof *r->pass_issued);
  r->pass_recorded = false;
  r->pass_key = dm_clock_ns () * 0x9e3779b97f4a7c15ull;
  free (r->slots);
  r->slots = calloc ((size_t) r->n_samples * r->dirs * max_threads, sizeof *r->slots);
  if (!r->workers || !r->hists || !r->slots || !r->pass_issued)
    return set_error (rep, -ENOMEM, "out of memory");

  err = dm_testfile_open (&r->tf, rep, r->target, need_write);
  if (err < 0)
    return err;
  rep->nocow = dm_file_is_nocow (r->tf.file);
  rep->device_note[0] = '\0';
  if (dm_device_watch_open (&rep->target, &r->watch, r->device_name, sizeof r->device_name,
                            rep->device_note, sizeof rep->device_note) < 0)
    r->watch = NULL;
  for (unsigned i = 0; i < rep->n_results; i++)
    if (is_selected (r, i) && (err = check_fits (r, &rep->results[i])) < 0)
      return err;
  if (!rep->target.is_block_device && (!r->pass || r->pass_fill))
    {
      err = dm_testfile_fill (&r->tf, rep, &r->cancel, fill_progress, r);
      if (err < 0)
        return err;
    }
  if (s->precondition)
    return precondition (r);
  return 0;
}

int
dm_runner_run_result (dm_runner *r, unsigned i, bool pause_first)
{
  dm_report *rep = r->report;
  dm_settings *s = &rep->settings;
  dm_result *res = &rep->results[i];
  int err;

  r->current = (int) i;
  if (pause_first && s->interval_s > 0)
    {
      pause_for (r, s->interval_s);
      r->job_done += s->interval_s;
    }
  r->ran_any = true;
  if (_dm_runner_cancelled (r))
    return -ECANCELED;
  err = _dm_runner_run_test (r, res, r->workers, r->hists);
  if (err == -ECANCELED || (err == 0 && _dm_runner_cancelled (r)))
    {
      /* Keep the runs that finished; the test is marked, not hidden. */
      res->status = DM_STATUS_CANCELLED;
      return -ECANCELED;
    }
  if (err < 0)
    {
      char name[32];
      /* Runs before the failure were fine, but the figure of a test that
       * failed is not shown as if it were valid. */
      res->status = DM_STATUS_FAILED;
      res->mb_per_s = res->iops = res->latency_us = 0;
      /* Nor its mean and spread, nor latency percentiles, which reports
       * and CSV columns show beside the figure. The runs stay, as data. */
      res->mean_mb_per_s = res->stdev_mb_per_s = 0;
      memset (&res->latency, 0, sizeof res->latency);
      memset (&res->latency_read, 0, sizeof res->latency_read);
      memset (&res->latency_write, 0, sizeof res->latency_write);
      dm_spec_name (&res->spec, name, sizeof name);
      return set_error (rep, err, "%s %s failed: %s", name, dm_mode_name (res->mode), res->error);
    }
  _dm_runner_progress (r, DM_PHASE_DONE, res->n_runs, 0, 0);
  return 0;
}

int
dm_runner_finish (dm_runner *r, int err)
{
  dm_report *rep = r->report;
  dm_testfile_close (&r->tf);
  dm_device_watch_close (r->watch);
  r->watch = NULL;
  if (err == -ECANCELED || (err == 0 && _dm_runner_cancelled (r)))
    {
      err = -ECANCELED;
      rep->status = DM_STATUS_CANCELLED;
      if (!rep->error[0] || !strcmp (rep->error, "cancelled"))
        snprintf (rep->error, sizeof rep->error, "cancelled");
    }
  else
    rep->status = err < 0 ? DM_STATUS_FAILED : DM_STATUS_COMPLETE;
  rep->finished = dm_wall_time ();
  free (r->workers);
  free (r->hists);
  free (r->slots);
  r->workers = NULL;
  r->hists = NULL;
  r->slots = NULL;
  return err;
}

bool
dm_runner_selected (const dm_runner *r, unsigned i)
{
  return i < r->report->n_results && is_selected (r, i);
}

dm_report *
dm_runner_get_report (const dm_runner *r)
{
  return r->report;
}

int
dm_runner_run (dm_runner *r)
{
  int err = dm_runner_prepare (r);
  for (unsigned i = 0; !err && i < r->report->n_results; i++)
    if (is_selected (r, i))
      err = dm_runner_run_result (r, i, r->ran_any);
  return dm_runner_finish (r, err);
}
