/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measurement loop. Each worker thread owns a backend queue and keeps Q
 * I/Os in flight; per reaped batch it reads the clock once, accounts every
 * completion into its own counters and latency histograms and resubmits.
 * Nothing on that path allocates, locks or prints; the runner merges the
 * workers' numbers after each run.
 */
#include "dm-runner.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-backend.h"
#include "dm-latency.h"
#include "dm-rng.h"
#include "dm-testfile.h"
#include "dm-units.h"

#define NS_PER_S       1000000000ull
#define REAP_TIMEOUT   (50ull * 1000 * 1000)  /* how often a waiting worker looks at cancel */
#define MAX_RETRIES    1000                   /* per worker and run */
#define DRAIN_TIMEOUT  (100ull * 1000 * 1000) /* in-flight I/O we wait for after a cancel */
/* A device that answers no I/O for this long, or still holds I/O this long
 * after the test's last window, does not answer: the test fails then
 * rather than wait for it. The README promises this bound. */
#define STALL_S        5
#define STALL_TIMEOUT  (STALL_S * NS_PER_S)
/* The timeline's latency buckets: the histogram's, two at a time (32 per
 * power of two, a p99 within 1.6%), up to 2^35 ns; slower I/O counts in
 * the last. Sample memory past this bound asks for a longer step. */
#define SAMPLE_SHIFT   1
#define SAMPLE_TOP     ((35 - DM_HIST_SUB_BITS) * DM_HIST_SUB + DM_HIST_SUB - 1)
#define SAMPLE_BUCKETS ((SAMPLE_TOP >> SAMPLE_SHIFT) + 1)
#define SAMPLE_MEMORY  (512ull << 20)

struct dm_runner {
  dm_report        *report;
  char              target[1024];
  size_t            target_len;   /* as given: longer than target holds is refused */
  bool             *selected;  /* per result; NULL = all */
  dm_progress_fn    progress;
  void             *user;
  atomic_int        cancel;
  const dm_backend *backend;
  const dm_backend *forced;    /* set by tests */
  dm_testfile       tf;
  uint64_t          job_start;  /* for the time-left estimate */
  double            job_total;  /* estimated seconds of the whole job */
  double            job_done;   /* seconds of finished phases */
  int               current;    /* result being run, for progress */
  bool              ran_any;    /* a test ran since prepare: pause before the next */
  struct worker    *workers;    /* per thread, sized for the largest selected test */
  dm_histogram     *hists;      /* 2 per thread: reads, writes */
  dm_device_watch  *watch;      /* the disk's own counters; NULL where there are none */
  char              device_name[64];
  struct sample_slot *slots;    /* the timeline: per thread n_samples x dirs */
  unsigned          n_samples;  /* of the longest test */
  unsigned          dirs;       /* 2 when a Mix test is selected: reads, writes */
  uint64_t          sample_ns;
  bool              pass;       /* dm_runner_set_pass */
  bool              pass_fill;
  dm_sample         live;       /* the last closed sample, for progress */
};

/* One sample of one worker (and one direction for Mix): counted like a
 * window, once per batch, plus a coarse latency histogram for its p99
 * that only the runner reads, after the worker has been joined. */
typedef struct sample_slot {
  atomic_ullong bytes;
  atomic_ullong ios;
  atomic_ullong latency_ns;
  uint32_t      buckets[SAMPLE_BUCKETS];
} sample_slot;

/* One measured window of one worker. Written only by its worker, once per
 * reaped batch; the runner reads it for live figures after the window has
 * closed and exactly after the worker has been joined. */
typedef struct window {
  atomic_ullong bytes;
  atomic_ullong ios;
  atomic_ullong latency_ns;  /* sum, for the run's mean latency */
} window;

typedef struct worker {
  dm_runner       *runner;
  const dm_result *result;

  /* What this thread does. */
  uint32_t         block;
  uint64_t         region_start; /* SEQ: this thread's part of the file */
  uint64_t         region_len;
  uint64_t         seq_pos;
  uint64_t         n_blocks;     /* RND: block-aligned offsets over the whole file */
  unsigned         read_percent;
  bool             stamp;        /* vary write buffers per I/O */
  uint64_t         stamp_seq;
  dm_rng           rng;

  /* Start line: all threads set up first, then run together. The I/O
   * flows without a break from the warm-up through every measured window,
   * as with fio's ramp time, so no window pays for a start-up. */
  atomic_int      *ready;
  atomic_int      *go;
  uint64_t         measure_ns;   /* start of the first window (end of warm-up) */
  uint64_t         window_ns;
  unsigned         n_windows;
  uint64_t         end_ns;       /* end of the last window */

  /* One pass: I/Os still to issue; 0 and passed once the share is done. */
  bool             pass;
  bool             passed;
  uint64_t         pass_left;

  /* What it measured. */
  window           win[DM_COUNT_MAX];
  sample_slot     *slots;        /* n_samples x dirs, from the runner */
  uint64_t         sample_ns;
  unsigned         dirs;         /* 2: Mix, reads and writes apart */
  uint64_t         last_ns;      /* last completion counted in a window */
  /* The first completion at or after each window boundary (0: none yet).
   * A window is timed between the completions that open and close it, so
   * that its I/Os and its time cover the same whole stretch of the
   * device's rhythm. */
  atomic_ullong    edge_ns[DM_COUNT_MAX + 1];
  unsigned         next_edge;    /* the boundary the next completion may pass */
  uint64_t         n_slots;      /* samples of this test's measured time */
  uint64_t         sample;       /* the sample the next batch counts in */
  uint64_t         unscored;     /* bytes moved outside the windows */
  unsigned         retries;      /* EAGAIN/EINTR completions sent again */
  dm_histogram    *hist[2];      /* [0] reads, [1] writes: measured windows only */
  int              error;
  char             why[160];

  dm_thread       *thread;
  atomic_bool      stopped;      /* worker_main is about to return */
} worker;

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
dm_runner_set_backend (dm_runner *r, const dm_backend *backend)
{
  r->forced = backend;
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
  free (r);
}

static bool
cancelled (dm_runner *r)
{
  return atomic_load_explicit (&r->cancel, memory_order_relaxed) != 0;
}

static bool
is_selected (const dm_runner *r, unsigned i)
{
  return !r->selected || r->selected[i];
}

static void
report_progress (dm_runner *r, dm_phase phase, unsigned run, double phase_fraction,
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
      if (now >= end || cancelled (r))
        return;
      uint64_t left = end - now;
      dm_sleep_ns (left < REAP_TIMEOUT ? left : REAP_TIMEOUT);
      report_progress (r, DM_PHASE_INTERVAL, 0,
                       1.0 - (double) (end - dm_clock_ns ()) / (seconds * NS_PER_S), seconds);
    }
}

/* ---- the hot path ------------------------------------------------------ */

/* Chooses the next I/O of a worker into a slot. */
static inline void
next_io (worker *w, dm_io *io)
{
  if (w->n_blocks)
    io->offset = dm_rng_below (&w->rng, w->n_blocks) * w->block;
  else
    {
      io->offset = w->region_start + w->seq_pos;
      w->seq_pos += w->block;
      if (w->seq_pos >= w->region_len)
        w->seq_pos = 0;
    }
  io->len = w->block;
  if (w->pass && --w->pass_left == 0)
    w->passed = true;
  if (w->read_percent == 100)
    io->write = 0;
  else if (w->read_percent == 0)
    io->write = 1;
  else
    io->write = dm_rng_below (&w->rng, 100) >= w->read_percent;

  /* A distinct word at the head of every 512-byte sector of a write: a
   * buffer is written again and again, and storage that deduplicates by
   * sector (some arrays do, not only by 4 KiB block) would otherwise find
   * all but the changed word already stored. fio's scramble_buffers marks
   * the same sectors. */
  if (io->write && w->stamp)
    {
      uint64_t tag = ++w->stamp_seq * 0x9e3779b97f4a7c15ull ^ w->rng.s[0];
      for (uint32_t o = 0; o < io->len; o += 512)
        *(uint64_t *) ((char *) io->buf + o) = tag + o;
    }
}

static void
worker_fail (worker *w, int code, const char *what)
{
  if (w->error)
    return;
  w->error = code;
  snprintf (w->why, sizeof w->why, "%s: %s", what, dm_strerror (code));
}

/* Sends an I/O (again); a queue that refuses it stops the worker. Returns
 * 1 when the I/O is in flight. */
static inline int
send (worker *w, const dm_backend *be, dm_queue *q, dm_io *io, uint64_t t, bool *stopping,
      uint64_t *stop_at)
{
  int err = be->prep (q, io);
  if (err < 0)
    {
      worker_fail (w, err, "submitting I/O");
      *stopping = true;
      *stop_at = t;
      return 0;
    }
  return 1;
}

/* A stuck device: nothing completed for STALL_TIMEOUT, counted from the
 * last completion or from the end of the test, whichever came first. The
 * I/O still in flight is left to the kernel and the backend's close. */
static bool
stalled (worker *w, uint64_t t, uint64_t last_answer, unsigned inflight)
{
  uint64_t since = last_answer < w->end_ns ? last_answer : w->end_ns;
  if (t < since || t - since < STALL_TIMEOUT)
    return false;
  if (!w->error)
    {
      w->error = -ETIMEDOUT;
      if (last_answer < w->end_ns)
        snprintf (w->why, sizeof w->why,
                  "no I/O completed in %d s; the device does not answer", STALL_S);
      else
        snprintf (w->why, sizeof w->why,
                  "%u I/O%s still unanswered %d s after the test ended; the device does not answer",
                  inflight, inflight == 1 ? "" : "s", STALL_S);
    }
  return true;
}

/* Adds a batch to a window. Only this thread writes its windows: a plain
 * read-modify-write through relaxed atomics, once per batch. */
static inline void
window_add (atomic_ullong *field, uint64_t n)
{
  atomic_store_explicit (field, atomic_load_explicit (field, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

static void *
worker_main (void *arg)
{
  worker *w = arg;
  dm_runner *r = w->runner;
  const dm_backend *be = r->backend;
  unsigned depth = w->result->spec.queue_depth;
  size_t buf_size = w->block;
  void *bufs = dm_alloc_io ((size_t) depth * buf_size);
  dm_io **ios = calloc (depth, sizeof *ios);
  dm_io **done = calloc (depth, sizeof *done);
  dm_queue *q = NULL;
  int err;

  if (!bufs || !ios || !done)
    worker_fail (w, -ENOMEM, "allocating I/O buffers");
  else
    {
      if (r->report->settings.data == DM_DATA_RANDOM)
        dm_rng_fill (&w->rng, bufs, (size_t) depth * buf_size);
      dm_queue_params params = { r->tf.file, depth, bufs, buf_size };
      err = be->open (&params, &q, ios);
      if (err < 0)
        {
          q = NULL;
          worker_fail (w, err, "setting up the I/O queue");
        }
    }

  atomic_fetch_add (w->ready, 1);
  while (!atomic_load (w->go))
    dm_sleep_ns (100000);
  if (w->error || atomic_load (w->go) < 0)
    goto out;

  uint64_t deadline = w->end_ns;
  uint64_t t = dm_clock_ns ();
  unsigned inflight = 0;
  bool stopping = false;
  uint64_t stop_at = 0;
  uint64_t last_answer = t;  /* the last reap that brought a completion */

  /* Without a warm-up the first window opens with the first submission:
   * nothing completed before it. */
  if (t >= w->measure_ns)
    atomic_store_explicit (&w->edge_ns[w->next_edge++], t, memory_order_relaxed);
  for (unsigned i = 0; i < depth && !stopping && !w->passed; i++)
    {
      next_io (w, ios[i]);
      ios[i]->t_submit = t;
      inflight += send (w, be, q, ios[i], t, &stopping, &stop_at);
    }

  while (inflight)
    {
      int n = be->reap (q, done, depth, REAP_TIMEOUT);
      t = dm_clock_ns ();
      if (n < 0)
        {
          worker_fail (w, n, "waiting for I/O");
          break;
        }
      if (n > 0)
        last_answer = t;
      /* Only a reap that waited and got nothing counts: a thread that was
       * not scheduled for a while finds its completions waiting. */
      else if (stalled (w, t, last_answer, inflight))
        break;
      if (!stopping && (t >= deadline || cancelled (r)))
        {
          stopping = true;
          stop_at = t;
        }
      /* The whole batch was reaped at t, so it belongs to one window and
       * one sample: the window the last boundary passed opened, which this
       * batch closes if it is the first past the next boundary. Its I/Os
       * were done by t, in the time before it, which that window covers. */
      window *win = w->next_edge >= 1 && w->next_edge <= w->n_windows
                      ? &w->win[w->next_edge - 1] : NULL;
      sample_slot *slot = win ? &w->slots[w->sample * w->dirs] : NULL;
      uint64_t batch_bytes = 0, batch_ios = 0, batch_latency = 0, completed = 0;
      uint64_t dir_bytes[2] = { 0, 0 }, dir_ios[2] = { 0, 0 }, dir_latency[2] = { 0, 0 };
      for (int i = 0; i < n; i++)
        {
          dm_io *io = done[i];
          inflight--;
          /* The kernel may ask for a retry; the I/O is sent again as it
           * was and its latency counts from the retry. A device that
           * keeps refusing fails the test instead of spinning. */
          if ((io->res == -EAGAIN || io->res == -EINTR) && !stopping
              && ++w->retries <= MAX_RETRIES)
            {
              io->t_submit = t;
              inflight += send (w, be, q, io, t, &stopping, &stop_at);
              continue;
            }
          /* A transfer may legally end short: io_uring hands back what the
           * device did, as read(2) would. The rest is sent on, and the I/O
           * counts once, whole, with its latency from the first submission. */
          if (io->res > 0 && (uint32_t) io->res < io->len)
            {
              if (stopping)
                continue;
              io->offset += (uint32_t) io->res;
              io->buf = (char *) io->buf + io->res;
              io->len -= (uint32_t) io->res;
              inflight += send (w, be, q, io, t, &stopping, &stop_at);
              continue;
            }
          if (io->res != (int32_t) io->len)
            {
              worker_fail (w, io->res < 0 ? io->res : DM_E_SHORT,
                           io->write ? "a write failed" : "a read failed");
              stopping = true;
              stop_at = stop_at ? stop_at : t;
              continue;
            }
          completed++;
          if (win)
            {
              uint64_t latency = t - io->t_submit;
              batch_bytes += w->block;
              batch_ios++;
              batch_latency += latency;
              dm_histogram_add (w->hist[io->write], latency, 1);
              unsigned d = w->dirs > 1 ? io->write : 0;
              dir_bytes[d] += w->block;
              dir_ios[d]++;
              dir_latency[d] += latency;
              unsigned b = dm_histogram_bucket (latency);
              slot[d].buckets[(b < SAMPLE_TOP ? b : SAMPLE_TOP) >> SAMPLE_SHIFT]++;
            }
          else
            w->unscored += w->block;
          /* One pass: a share moved is the end of this thread's test. */
          if (!stopping && w->passed)
            {
              stopping = true;
              stop_at = t;
            }
          if (!stopping)
            {
              io->buf = (char *) bufs + (size_t) io->slot * buf_size;
              next_io (w, io);
              io->t_submit = t;
              inflight += send (w, be, q, io, t, &stopping, &stop_at);
            }
        }
      if (win && batch_ios)
        {
          window_add (&win->bytes, batch_bytes);
          window_add (&win->ios, batch_ios);
          window_add (&win->latency_ns, batch_latency);
          for (unsigned d = 0; d < w->dirs; d++)
            if (dir_ios[d])
              {
                window_add (&slot[d].bytes, dir_bytes[d]);
                window_add (&slot[d].ios, dir_ios[d]);
                window_add (&slot[d].latency_ns, dir_latency[d]);
              }
          w->last_ns = t;
        }
      /* A device that completes in bursts (a throttle's slices, a disk's
       * flushes) would otherwise hand a window one burst more or less,
       * depending on which side of the boundary it fell: the first
       * completion past a boundary closes the window before it (and counts
       * there) and opens the next. A batch that a busy machine reaped late
       * holds I/O done during the delay, so its delay and its I/O stay in
       * one window. One batch may pass several boundaries after a stall:
       * the windows between are empty. Samples close the same way, so
       * that they add up to the runs and none gains a batch the one
       * before it did not lose. */
      while (completed && w->next_edge <= w->n_windows
             && t >= w->measure_ns + w->next_edge * w->window_ns)
        atomic_store_explicit (&w->edge_ns[w->next_edge++], t, memory_order_relaxed);
      if (completed && t >= w->measure_ns)
        {
          uint64_t k = (t - w->measure_ns) / w->sample_ns;
          w->sample = k < w->n_slots ? k : w->n_slots - 1;
        }
      /* After a cancel, I/O still queued on a slow device may take seconds;
       * the run is over, so do not wait for it past the drain budget. */
      if (stopping && cancelled (r) && t - stop_at > DRAIN_TIMEOUT)
        break;
    }

out:
  /* A device that never finished its I/O may still write into the
   * buffers; then they stay allocated for the life of the process. */
  if (!q || be->close (q) == 0)
    dm_free_io (bufs, (size_t) depth * buf_size);
  free (ios);
  free (done);
  atomic_store (&w->stopped, true);
  return NULL;
}

/* ---- one test: warm-up, then count windows ------------------------------ */

/* Every worker has stopped before the end: each failed, the test is over. */
static bool
all_stopped (worker *workers, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (!atomic_load (&workers[i].stopped))
      return false;
  return n > 0;
}

/* Sums window k over the workers; exact once they are joined. */
static void
window_totals (const worker *workers, unsigned T, unsigned k, uint64_t *bytes, uint64_t *ios,
               uint64_t *latency_ns)
{
  *bytes = *ios = *latency_ns = 0;
  for (unsigned i = 0; i < T; i++)
    {
      *bytes += atomic_load_explicit (&workers[i].win[k].bytes, memory_order_relaxed);
      *ios += atomic_load_explicit (&workers[i].win[k].ios, memory_order_relaxed);
      *latency_ns += atomic_load_explicit (&workers[i].win[k].latency_ns, memory_order_relaxed);
    }
}

/* The figures of sample k, direction d (-1: both), over the workers. The
 * p99 needs the workers joined; live figures pass want_p99 false. */
static void
sample_figures (dm_sample_figures *f, const worker *workers, unsigned T, unsigned k, int d,
                double seconds, bool want_p99)
{
  uint64_t bytes = 0, ios = 0, latency_ns = 0;
  uint32_t counts[SAMPLE_BUCKETS];
  if (want_p99)
    memset (counts, 0, sizeof counts);
  for (unsigned i = 0; i < T; i++)
    for (unsigned e = 0; e < workers[i].dirs; e++)
      {
        if (d >= 0 && (int) e != d)
          continue;
        const sample_slot *sl = &workers[i].slots[k * workers[i].dirs + e];
        bytes += atomic_load_explicit (&sl->bytes, memory_order_relaxed);
        ios += atomic_load_explicit (&sl->ios, memory_order_relaxed);
        latency_ns += atomic_load_explicit (&sl->latency_ns, memory_order_relaxed);
        if (want_p99)
          for (unsigned b = 0; b < SAMPLE_BUCKETS; b++)
            counts[b] += sl->buckets[b];
      }
  memset (f, 0, sizeof *f);
  if (seconds <= 0)
    return;
  f->mb_per_s = (double) bytes / seconds / 1e6;
  f->iops = (double) ios / seconds;
  f->latency_us_mean = ios ? (double) latency_ns / (double) ios / 1000 : 0;
  if (!want_p99 || !ios)
    return;
  /* As dm_histogram_quantile: the smallest value with at least 99% of
   * the I/Os at or below it, at its bucket's midpoint. */
  uint64_t rank = (uint64_t) ceil (0.99 * (double) ios), seen = 0;
  if (rank < 1)
    rank = 1;
  for (unsigned b = 0; b < SAMPLE_BUCKETS; b++)
    {
      seen += counts[b];
      if (seen >= rank)
        {
          unsigned first = b << SAMPLE_SHIFT, last = first + (1u << SAMPLE_SHIFT) - 1;
          double low = (double) dm_histogram_bucket_low (first);
          double high = (double) (dm_histogram_bucket_low (last) + dm_histogram_bucket_width (last));
          f->latency_us_p99 = (low + high) / 2 / 1000;
          break;
        }
    }
}

/* The result's timeline over its first `seconds` of measuring: whole
 * samples, and a last shorter one when asked (a finished run whose length
 * is no multiple of the step). */
static void
fill_samples (dm_runner *r, dm_result *res, const worker *workers, unsigned T, double seconds,
              bool partial_last)
{
  double step = (double) r->sample_ns / NS_PER_S;
  unsigned n = (unsigned) floor (seconds / step + 1e-9);
  if (partial_last && seconds - n * step > 1e-6)
    n++;
  if (n > r->n_samples)
    n = r->n_samples;
  dm_sample *samples = n ? calloc (n, sizeof *samples) : NULL;
  if (n && !samples)
    {
      dm_result_set_samples (res, NULL, 0, step);
      return;
    }
  for (unsigned k = 0; k < n; k++)
    {
      double len = fmin (step, seconds - k * step);
      samples[k].t = k * step + len;
      sample_figures (&samples[k].all, workers, T, k, -1, len, true);
      if (workers[0].dirs > 1)
        {
          sample_figures (&samples[k].read, workers, T, k, 0, len, true);
          sample_figures (&samples[k].write, workers, T, k, 1, len, true);
        }
    }
  dm_result_set_samples (res, samples, n, step);
  free (samples);
}

/* Window k's figures: each worker's bytes over its own time between the
 * completion that opened the window (the first past its start, which
 * counts in the window before) and the one that closed it (the first past
 * its end, which counts in it), summed over the workers.
 * A window not closed so (live figures just after the boundary, the end
 * of a pass, a cancel) lasts window_s. run->seconds is the time the bytes
 * took at the run's rate. */
static void
fill_run (dm_run *run, const worker *workers, unsigned T, unsigned k, double window_s)
{
  uint64_t bytes, ios, latency_ns;
  double mb_per_s = 0, iops = 0;
  window_totals (workers, T, k, &bytes, &ios, &latency_ns);
  for (unsigned i = 0; i < T; i++)
    {
      const worker *w = &workers[i];
      uint64_t b = atomic_load_explicit (&w->win[k].bytes, memory_order_relaxed);
      uint64_t n = atomic_load_explicit (&w->win[k].ios, memory_order_relaxed);
      uint64_t open = atomic_load_explicit (&w->edge_ns[k], memory_order_relaxed);
      uint64_t close = atomic_load_explicit (&w->edge_ns[k + 1], memory_order_relaxed);
      double secs = open && close > open ? (double) (close - open) / NS_PER_S : window_s;
      if (!n || secs <= 0)
        continue;
      mb_per_s += (double) b / secs / 1e6;
      iops += (double) n / secs;
    }
  run->bytes = bytes;
  run->ios = ios;
  run->mb_per_s = mb_per_s;
  run->iops = iops;
  run->seconds = mb_per_s > 0 ? (double) bytes / 1e6 / mb_per_s : window_s;
  run->latency_us = ios ? (double) latency_ns / (double) ios / 1000 : 0;
}

/* Recomputes a result's figures from its runs: the best run is the figure,
 * as in CrystalDiskMark; mean and spread show how far to trust it. */
static void
summarize (dm_result *res, const dm_histogram *rd, const dm_histogram *wr,
           uint64_t cpu_ns, double wall_s, unsigned cpus)
{
  double sum = 0, sum_sq = 0;
  res->mb_per_s = res->iops = 0;
  res->latency_us = 0;
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      const dm_run *run = &res->runs[k];
      if (run->mb_per_s > res->mb_per_s)
        {
          res->mb_per_s = run->mb_per_s;
          res->iops = run->iops;
        }
      if (run->latency_us > 0 && (res->latency_us == 0 || run->latency_us < res->latency_us))
        res->latency_us = run->latency_us;
      sum += run->mb_per_s;
      sum_sq += run->mb_per_s * run->mb_per_s;
    }
  if (res->n_runs)
    {
      res->mean_mb_per_s = sum / res->n_runs;
      double var = res->n_runs > 1
                       ? (sum_sq - sum * sum / res->n_runs) / (res->n_runs - 1) : 0;
      res->stdev_mb_per_s = var > 0 ? sqrt (var) : 0;
    }
  dm_histogram all = *rd;
  dm_histogram_merge (&all, wr);
  dm_latency_from_histogram (&res->latency, &all);
  if (res->mode == DM_MODE_MIX)
    {
      dm_latency_from_histogram (&res->latency_read, rd);
      dm_latency_from_histogram (&res->latency_write, wr);
    }
  uint64_t ios = all.count;
  res->cpu_percent = wall_s > 0 && cpus ? (double) cpu_ns / 1e9 / wall_s / cpus * 100 : 0;
  res->cpu_us_per_io = ios ? (double) cpu_ns / 1000 / (double) ios : 0;
}

static int
run_test (dm_runner *r, dm_result *res, worker *workers, dm_histogram *hists)
{
  dm_report *rep = r->report;
  dm_settings *s = &rep->settings;
  const dm_spec *spec = &res->spec;
  unsigned T = spec->threads, count = s->count, started = 0, windows_done = 0;
  uint64_t file_size = r->tf.size;
  uint64_t region = (file_size / T) / spec->block_size * spec->block_size;
  uint64_t window_ns = (uint64_t) (s->measure_s * NS_PER_S);
  uint64_t warmup_ns = (uint64_t) (s->warmup_s * NS_PER_S);
  atomic_int ready, go;
  int err = 0;

  res->n_runs = 0;
  res->status = DM_STATUS_RUNNING;
  res->error[0] = '\0';
  dm_histogram_reset (res->hist_read);
  dm_histogram_reset (res->hist_write);
  atomic_init (&ready, 0);
  atomic_init (&go, 0);

  for (unsigned i = 0; i < T; i++)
    {
      worker *w = &workers[i];
      memset (w, 0, sizeof *w);
      w->runner = r;
      w->result = res;
      w->block = spec->block_size;
      if (spec->pattern == DM_SEQ)
        {
          w->region_start = region * i;
          w->region_len = region;
        }
      else
        w->n_blocks = file_size / spec->block_size;
      w->read_percent = res->read_percent;
      w->stamp = s->data == DM_DATA_RANDOM;
      dm_rng_seed (&w->rng, dm_clock_ns () * 31 + i);
      w->ready = &ready;
      w->go = &go;
      w->window_ns = window_ns;
      w->n_windows = count;
      w->hist[0] = &hists[2 * i];
      w->hist[1] = &hists[2 * i + 1];
      dm_histogram_reset (w->hist[0]);
      dm_histogram_reset (w->hist[1]);
      w->dirs = res->mode == DM_MODE_MIX ? 2 : 1;
      w->sample_ns = r->sample_ns;
      w->n_slots = ((uint64_t) count * window_ns + r->sample_ns - 1) / r->sample_ns;
      if (w->n_slots < 1)
        w->n_slots = 1;
      if (w->n_slots > r->n_samples)
        w->n_slots = r->n_samples;
      w->slots = r->slots + (size_t) i * r->n_samples * r->dirs;
      memset (w->slots, 0, (size_t) r->n_samples * w->dirs * sizeof *w->slots);
      w->pass = r->pass;
      w->pass_left = (spec->pattern == DM_SEQ ? region : file_size / T) / spec->block_size;
      w->passed = w->pass && w->pass_left == 0;
    }

  for (; started < T; started++)
    {
      err = dm_thread_start (&workers[started].thread, worker_main, &workers[started]);
      if (err < 0)
        break;
    }
  while ((unsigned) atomic_load (&ready) < started)
    dm_sleep_ns (200000);

  uint64_t t0 = dm_clock_ns ();
  uint64_t measure = t0 + warmup_ns, end = measure + count * window_ns;
  for (unsigned i = 0; i < started; i++)
    {
      workers[i].measure_ns = measure;
      workers[i].end_ns = end;
    }
  atomic_store (&go, err < 0 ? -1 : 1);

  /* While the workers run, this thread only keeps time: it samples the
   * process's CPU time where measuring starts and ends, and hands out
   * each window's figures once the window has closed. */
  uint64_t cpu0 = 0, cpu1 = 0, now, dev_t0 = 0, dev_t1 = 0;
  dm_device_counters dev0, dev1;
  bool measuring = false, dev_ok = false;
  while (!err && (now = dm_clock_ns ()) < end && !cancelled (r) && !all_stopped (workers, started))
    {
      if (!measuring && now >= measure)
        {
          cpu0 = dm_process_cpu_ns ();
          measuring = true;
          /* The disk's counters from here on: the warm-up stays out. */
          dev_ok = r->watch && dm_device_watch_read (r->watch, &dev0) == 0;
          dev_t0 = dm_clock_ns ();
        }
      unsigned closed = now > measure ? (unsigned) ((now - measure) / window_ns) : 0;
      /* A batch reaped just before a window closed may be added a moment
       * later: live figures wait 5 ms past the boundary; the final ones
       * are taken after the workers are joined. */
      if (closed > res->n_runs && now - (measure + closed * window_ns) > 5000000)
        {
          while (res->n_runs < closed && res->n_runs < count)
            {
              fill_run (&res->runs[res->n_runs], workers, T, res->n_runs, s->measure_s);
              res->n_runs++;
            }
          summarize (res, res->hist_read, res->hist_write, 0, 0, rep->system.logical_cpus);
        }
      uint64_t next = now < measure ? measure : measure + (closed + 1) * window_ns + 6000000;
      uint64_t nap = next > now ? next - now : 1000000;
      dm_sleep_ns (nap < REAP_TIMEOUT ? nap : REAP_TIMEOUT);
      now = dm_clock_ns ();
      if (now < measure)
        report_progress (r, DM_PHASE_WARMUP, 0,
                         warmup_ns ? (double) (now - t0) / (double) warmup_ns : 1,
                         s->warmup_s);
      else
        {
          /* The time left ticks through the test; the figure is the last
           * sample that closed (5 ms ago or more, as for windows). */
          double test_s = s->warmup_s + count * s->measure_s;
          uint64_t into = now - measure;
          unsigned samples_closed = (unsigned) (into > 5000000 ? (into - 5000000) / r->sample_ns : 0);
          if (samples_closed > r->n_samples)
            samples_closed = r->n_samples;
          r->live.t = 0;
          if (samples_closed)
            {
              double step = (double) r->sample_ns / NS_PER_S;
              r->live.t = samples_closed * step;
              sample_figures (&r->live.all, workers, started, samples_closed - 1, -1, step, false);
            }
          report_progress (r, DM_PHASE_MEASURE,
                           (unsigned) fmin (count, (double) (now - measure) / window_ns + 1),
                           test_s > 0 ? fmin (1.0, (s->warmup_s + (double) into / NS_PER_S) / test_s) : 1,
                           test_s);
        }
    }
  memset (&r->live, 0, sizeof r->live);
  now = dm_clock_ns ();
  cpu1 = dm_process_cpu_ns ();
  if (dev_ok)
    {
      dev_ok = dm_device_watch_read (r->watch, &dev1) == 0;
      dev_t1 = dm_clock_ns ();
    }
  if (!measuring)
    cpu0 = cpu1;
  windows_done = now >= end ? count : now > measure ? (unsigned) ((now - measure) / window_ns) : 0;
  if (windows_done > count)
    windows_done = count;
  for (unsigned i = 0; i < started; i++)
    dm_thread_join (workers[i].thread);

  if (err < 0)
    {
      snprintf (res->error, sizeof res->error, "cannot start a worker thread: %s",
                dm_strerror (err));
      return err;
    }

  for (unsigned i = 0; i < T; i++)
    {
      worker *w = &workers[i];
      if (w->error && !err)
        {
          err = w->error;
          snprintf (res->error, sizeof res->error, "%s", w->why);
        }
      rep->warmup_bytes += w->unscored;
      dm_histogram_merge (res->hist_read, w->hist[0]);
      dm_histogram_merge (res->hist_write, w->hist[1]);
    }

  /* One pass that every thread finished ends the run where its last I/O
   * completed: the run lasted that long. */
  double last_window_s = s->measure_s;
  bool passed = r->pass && !err;
  for (unsigned i = 0; i < T; i++)
    passed = passed && workers[i].passed && !workers[i].error;
  if (passed && windows_done < count)
    {
      uint64_t last = measure;
      for (unsigned i = 0; i < T; i++)
        if (workers[i].last_ns > last)
          last = workers[i].last_ns;
      double elapsed = (double) (last - measure) / NS_PER_S;
      windows_done = (unsigned) fmin (count, floor (elapsed / s->measure_s) + 1);
      last_window_s = fmax (1e-6, elapsed - (windows_done - 1) * s->measure_s);
    }

  /* The exact figures, now that no worker writes any more. A window cut
   * short by a cancel is not a measurement; its I/O counts as unscored. */
  res->n_runs = 0;
  uint64_t span_bytes = 0;
  for (unsigned k = 0; k < count; k++)
    {
      dm_run run;
      fill_run (&run, workers, T, k, k + 1 == windows_done ? last_window_s : s->measure_s);
      span_bytes += run.bytes;
      if (k < windows_done && !err)
        {
          res->runs[res->n_runs++] = run;
          rep->measured_bytes += run.bytes;
        }
      else
        rep->warmup_bytes += run.bytes;
    }
  double measured_s = res->n_runs ? (res->n_runs - 1) * s->measure_s + last_window_s : 0;
  /* The timeline covers what was measured; a cancelled or failed pass
   * keeps the samples up to where it stopped. */
  if (r->pass && !res->n_runs && now > measure)
    fill_samples (r, res, workers, T, fmin ((double) (now - measure) / NS_PER_S,
                                            count * s->measure_s), false);
  else
    fill_samples (r, res, workers, T, measured_s, true);
  summarize (res, res->hist_read, res->hist_write, cpu1 - cpu0,
             now >= end ? count * s->measure_s : fmax (measured_s, (double) (now - measure) / NS_PER_S),
             rep->system.logical_cpus);
  r->job_done += s->warmup_s + count * s->measure_s;
  memset (&res->device, 0, sizeof res->device);
  if (dev_ok)
    {
      dm_device_ask ask = dm_result_device_ask (res);
      dm_device_seen_set (&res->device, r->device_name, &dev0, &dev1,
                          (double) (dev_t1 - dev_t0) / NS_PER_S, span_bytes, &ask);
    }

  if (err < 0)
    return err;
  if (cancelled (r) && windows_done < count)
    return -ECANCELED;
  /* A device that completed nothing in a whole test of a second or more
   * does not answer. An empty window of a fraction of a second on a busy
   * machine is a figure (0), not a verdict. */
  uint64_t total_ios = 0;
  for (unsigned k = 0; k < res->n_runs; k++)
    total_ios += res->runs[k].ios;
  if (res->n_runs && total_ios == 0 && s->warmup_s + res->n_runs * s->measure_s >= 1.0)
    {
      snprintf (res->error, sizeof res->error,
                "no I/O completed in %g s; the device does not answer",
                res->n_runs * s->measure_s);
      return -ETIMEDOUT;
    }
  res->status = DM_STATUS_COMPLETE;
  return 0;
}

/* ---- the whole job ---------------------------------------------------- */

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
  report_progress (r, DM_PHASE_PREPARE, 0, fraction, 0);
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
  r->ran_any = false;
  dm_system_info_get (&rep->system);

  err = dm_settings_check (s, rep->error, sizeof rep->error);
  if (err < 0)
    return err;
  /* Cut to fit, the path could name another, existing folder, and the
   * test file would be made there. */
  if (r->target_len >= sizeof r->target)
    return set_error (rep, -ENAMETOOLONG,
                      "the target's path is %zu bytes long; Diskmeter takes paths of at most "
                      "%zu bytes", r->target_len, sizeof r->target - 1);

  for (unsigned i = 0; i < rep->n_results; i++)
    if (is_selected (r, i))
      {
        dm_result *res = &rep->results[i];
        n_tests++;
        if (res->mode != DM_MODE_READ)
          need_write = true;
        if (res->spec.threads > max_threads)
          max_threads = res->spec.threads;
        mix |= res->mode == DM_MODE_MIX;
      }
  if (!n_tests)
    return set_error (rep, -EINVAL, "no test selected");
  r->job_total = n_tests * (s->warmup_s + s->count * s->measure_s)
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
  free (r->slots);
  r->slots = calloc ((size_t) r->n_samples * r->dirs * max_threads, sizeof *r->slots);
  if (!r->workers || !r->hists || !r->slots)
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
  if (cancelled (r))
    return -ECANCELED;
  err = run_test (r, res, r->workers, r->hists);
  if (err == -ECANCELED || (err == 0 && cancelled (r)))
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
  report_progress (r, DM_PHASE_DONE, res->n_runs, 0, 0);
  return 0;
}

int
dm_runner_finish (dm_runner *r, int err)
{
  dm_report *rep = r->report;
  dm_testfile_close (&r->tf);
  dm_device_watch_close (r->watch);
  r->watch = NULL;
  if (err == -ECANCELED || (err == 0 && cancelled (r)))
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
