/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One test: its workers set up and started together, an unscored warm-up,
 * then `count` measured windows, while this thread only keeps time and
 * hands out each window's figures once it has closed. After the workers
 * are joined it assembles the exact figures: runs, timeline, latency and
 * what the disk's own counters saw.
 */
#include "dm-runner-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-latency.h"
#include "dm-units.h"

/* Every worker has stopped before the end: each failed, the test is over. */
static bool
all_stopped (worker *workers, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (!atomic_load (&workers[i].stopped))
      return false;
  return n > 0;
}

/* Whether each worker has closed its last window (or stopped). */
static bool
windows_closed (worker *workers, unsigned n, unsigned count)
{
  for (unsigned i = 0; i < n; i++)
    if (!atomic_load (&workers[i].stopped)
        && !atomic_load_explicit (&workers[i].edge_ns[count], memory_order_relaxed))
      return false;
  return true;
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

/* A steady warm-up's samples: the rate of each DM_STEADY_SAMPLE_S, kept
 * for the last DM_STEADY_WINDOW_S. Bytes per second is the figure: for
 * the plain tests' one block size it is IOPS times the block, and for a
 * workload row of many sizes it is the one that weighs them as the device
 * must. */
#define STEADY_N 10 /* DM_STEADY_WINDOW_S / DM_STEADY_SAMPLE_S, 5 s / 0.5 s */

typedef struct steady_state {
  double   rate[STEADY_N];
  unsigned n;          /* samples taken, all time */
  uint64_t last_bytes;
  uint64_t last_ns;
  uint64_t next_ns;    /* when the next sample closes */
  double   spread;     /* the last full window's largest distance from its mean, % of it */
} steady_state;

/* Takes the sample that closed at now; true when the last window's
 * samples all lie within margin percent of their mean, as fio's
 * steadystate deviation check asks ("iops:10%"): a trend or a wobble
 * larger than the margin both keep it warming up. A window of no I/O at
 * all is not steady, it is a stall. */
static bool
steady_sample (steady_state *st, const worker *workers, unsigned T, uint64_t now, double margin)
{
  uint64_t bytes = 0;
  for (unsigned i = 0; i < T; i++)
    bytes += atomic_load_explicit (&workers[i].warm_bytes, memory_order_relaxed);
  double dt = (double) (now - st->last_ns) / NS_PER_S;
  st->rate[st->n++ % STEADY_N] = dt > 0 ? (double) (bytes - st->last_bytes) / dt : 0;
  st->last_bytes = bytes;
  st->last_ns = now;
  /* The next sample closes a step after this one was meant to, so that
   * a late look does not stretch the window. */
  uint64_t step = (uint64_t) (DM_STEADY_SAMPLE_S * NS_PER_S);
  do
    st->next_ns += step;
  while (st->next_ns <= now);
  if (st->n < STEADY_N)
    return false;
  double mean = 0, far = 0;
  for (unsigned k = 0; k < STEADY_N; k++)
    mean += st->rate[k] / STEADY_N;
  if (!(mean > 0))
    {
      st->spread = 100;
      return false;
    }
  for (unsigned k = 0; k < STEADY_N; k++)
    far = fmax (far, fabs (st->rate[k] - mean));
  st->spread = far / mean * 100;
  return st->spread <= margin;
}

/* A first-write pass's share of thread i of T (dm_runner_set_pass_repeat):
 * a random test takes every T-th index of one shuffle of all the file's
 * blocks, so that the threads together write each block once; a pass
 * after the first takes as many I/Os as the first one issued. */
static void
repeat_plan (dm_runner *r, worker *w, unsigned i, unsigned T)
{
  if (w->n_blocks)
    {
      unsigned k = 0;
      while (k < 63 && (1ull << k) < w->n_blocks)
        k++;
      w->shuffled = true;
      w->shuffle_next = i;
      w->shuffle_step = T;
      w->shuffle_mask = (1ull << k) - 1;
      w->shuffle_shift = k / 2 + 1;
      w->shuffle_key = r->pass_key;
      w->pass_left = i < w->n_blocks ? (w->n_blocks - i + T - 1) / T : 0;
    }
  if (r->pass_recorded)
    w->pass_left = r->pass_issued[i];
}

int
_dm_runner_run_test (dm_runner *r, dm_result *res, worker *workers, dm_histogram *hists)
{
  dm_report *rep = r->report;
  dm_settings *s = &rep->settings;
  const dm_spec *spec = &res->spec;
  unsigned T = spec->threads, count = s->count, started = 0, windows_done = 0;
  uint64_t file_size = r->tf.size;
  uint64_t region = (file_size / T) / spec->block_size * spec->block_size;
  uint64_t window_ns = (uint64_t) (s->measure_s * NS_PER_S);
  /* A steady warm-up may last up to its limit: the estimates count that. */
  bool steady = s->warmup_steady;
  double warm_s = steady ? s->steady_limit_s : s->warmup_s;
  uint64_t warmup_ns = (uint64_t) (warm_s * NS_PER_S);
  atomic_int ready, go;
  int err = 0;

  res->n_runs = 0;
  res->status = DM_STATUS_RUNNING;
  res->error[0] = '\0';
  if (r->pass && r->pass_repeat && r->pass_recorded
      && (spec->pattern != r->pass_spec.pattern || spec->block_size != r->pass_spec.block_size
          || spec->threads != r->pass_spec.threads))
    {
      snprintf (res->error, sizeof res->error, "a repeated pass must be of the first one's test");
      return -EINVAL;
    }
  dm_histogram_reset (res->hist_read);
  dm_histogram_reset (res->hist_write);
  atomic_init (&ready, 0);
  atomic_init (&go, 0);

  /* A workload row's sizes and offsets come from tables made now, for
   * the whole file, before any worker starts. */
  const dm_workload *wl = res->shaped ? &res->workload : NULL;
  if (wl && dm_workload_sampler_init (&r->sampler, wl, file_size) < 0)
    {
      snprintf (res->error, sizeof res->error, "the test file is too small for %s's blocks",
                wl->name);
      return -EINVAL;
    }

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
      w->steady = steady;
      w->stamp = s->data == DM_DATA_RANDOM;
      dm_rng_seed (&w->rng, dm_clock_ns () * 31 + i);
      w->ready = &ready;
      w->go = &go;
      w->window_ns = window_ns;
      w->n_windows = count;
      w->watch = i == 0 ? r->watch : NULL;
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
      if (r->pass && r->pass_repeat)
        repeat_plan (r, w, i, T);
      w->pass_total = w->pass_left;
      w->passed = w->pass && w->pass_left == 0;
      if (wl)
        {
          w->shaped = true;
          w->pass = w->passed = false;
          w->sampler = &r->sampler;
          w->random_percent = wl->random_percent;
          w->file_size = file_size;
          /* Sequential streams start apart, one region per thread. */
          w->seq_next = region * i;
          w->flush_every = wl->sync == DM_SYNC_FLUSH ? wl->flush_every : 0;
          w->compress_percent = wl->compress_percent;
          w->dedupe_percent = wl->dedupe_percent;
          w->reducible = wl->compress_percent || wl->dedupe_percent;
          w->stamp = wl->data == DM_WDATA_RANDOM && !w->reducible;
          if (wl->rate_unit != DM_RATE_NONE)
            {
              /* Each thread offers its share of the rate. */
              w->rated = true;
              w->rate_bytes = wl->rate_unit == DM_RATE_MBPS;
              w->interval_ns = w->rate_bytes ? 1e3 * T / wl->rate : 1e9 * T / wl->rate;
            }
          unsigned cpus = rep->system.logical_cpus ? rep->system.logical_cpus : 1;
          if (wl->affinity == DM_AFFINITY_SPREAD)
            w->pin = true, w->affinity_cpu = i % cpus;
          else if (wl->affinity == DM_AFFINITY_LIST)
            w->pin = true, w->affinity_cpu = wl->cpus[i % wl->n_cpus];
        }
    }

  for (; started < T; started++)
    {
      err = dm_thread_start (&workers[started].thread, _dm_runner_worker_main,
                             &workers[started]);
      if (err < 0)
        break;
    }
  while ((unsigned) atomic_load (&ready) < started)
    dm_sleep_ns (200000);

  /* Several targets at once start each test together: one clock time for
   * all of them, so that every window covers the same span on each. */
  uint64_t t0 = r->gate ? r->gate (r->gate_user) : dm_clock_ns ();
  uint64_t measure = t0 + warmup_ns, end = measure + count * window_ns;
  steady_state st = { 0 };
  res->warmup_took_s = warm_s;
  res->warmup_settled = false;
  res->warmup_spread = 0;
  if (steady)
    {
      /* Until the warm-up settles nobody knows when measuring starts. */
      measure = end = STEADY_FAR;
      atomic_store (&r->steady_measure, measure);
      atomic_store (&r->steady_end, end);
      st.next_ns = t0 + (uint64_t) (DM_STEADY_SAMPLE_S * NS_PER_S);
      st.last_ns = t0;
    }
  for (unsigned i = 0; i < started; i++)
    {
      workers[i].measure_ns = measure;
      workers[i].end_ns = end;
    }
  uint64_t cpu0 = 0, cpu1 = 0, now, dev_t0 = 0, dev_t1 = 0;
  dm_device_counters dev0, dev1;
  bool measuring = false, dev_ok = false;
  /* Without a warm-up measuring starts with the first I/O: the disk's
   * counters are read before it is sent, or a first pass's first queue
   * would complete before them. */
  if (!steady && !warmup_ns && err >= 0)
    {
      cpu0 = dm_process_cpu_ns ();
      measuring = true;
      dev_ok = r->watch && dm_device_watch_read (r->watch, &dev0) == 0;
      dev_t0 = dm_clock_ns ();
    }
  atomic_store (&go, err < 0 ? -1 : 1);

  /* While the workers run, this thread only keeps time: it samples the
   * process's CPU time where measuring starts and ends, and hands out
   * each window's figures once the window has closed. */
  while (!err && (now = dm_clock_ns ()) < end && !_dm_runner_cancelled (r)
         && !all_stopped (workers, started))
    {
      if (steady && measure == STEADY_FAR && now >= st.next_ns)
        {
          bool settled = steady_sample (&st, workers, started, now, s->steady_margin);
          if (settled || now - t0 >= warmup_ns)
            {
              /* Measuring starts now, for every worker at once: the
               * start first, then the end they read first. */
              measure = now;
              end = measure + count * window_ns;
              atomic_store_explicit (&r->steady_measure, measure, memory_order_relaxed);
              atomic_store_explicit (&r->steady_end, end, memory_order_release);
              res->warmup_took_s = (double) (now - t0) / NS_PER_S;
              res->warmup_settled = settled;
              res->warmup_spread = st.spread;
              r->job_total -= warm_s - res->warmup_took_s;
              warm_s = res->warmup_took_s;
            }
        }
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
      uint64_t next = now < measure ? (steady && st.next_ns < measure ? st.next_ns : measure)
                                    : measure + (closed + 1) * window_ns + 6000000;
      uint64_t nap = next > now ? next - now : 1000000;
      dm_sleep_ns (nap < REAP_TIMEOUT ? nap : REAP_TIMEOUT);
      now = dm_clock_ns ();
      if (now < measure)
        _dm_runner_progress (r, DM_PHASE_WARMUP, 0,
                             warmup_ns ? fmin (1.0, (double) (now - t0) / (double) warmup_ns) : 1,
                             warm_s);
      else
        {
          /* The time left ticks through the test; the figure is the last
           * sample that closed (5 ms ago or more, as for windows). */
          double test_s = warm_s + count * s->measure_s;
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
          _dm_runner_progress (
            r, DM_PHASE_MEASURE,
            (unsigned) fmin (count, (double) (now - measure) / window_ns + 1),
            test_s > 0 ? fmin (1.0, (warm_s + (double) into / NS_PER_S) / test_s) : 1,
            test_s);
        }
    }
  memset (&r->live, 0, sizeof r->live);
  now = dm_clock_ns ();
  cpu1 = dm_process_cpu_ns ();
  if (dev_ok)
    {
      /* The last window closes on each worker's first completion past its
       * end, and counts it: a throttle that releases its next slice 100 ms
       * late holds 4 MiB there. The disk's counters wait for that
       * completion (a second at most), not for the drain after it. */
      uint64_t wait_until = dm_clock_ns () + NS_PER_S;
      while (!err && !_dm_runner_cancelled (r) && !windows_closed (workers, started, count)
             && dm_clock_ns () < wait_until)
        dm_sleep_ns (200000);
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
  /* The first worker's readings at its own edges, where it made both;
   * this thread's own (a cancel, a pass cut short) otherwise. */
  if (started && atomic_load (&workers[0].dev_read[0]) && atomic_load (&workers[0].dev_read[1]))
    {
      dev0 = workers[0].dev[0];
      dev1 = workers[0].dev[1];
      dev_t0 = workers[0].dev_ns[0];
      dev_t1 = workers[0].dev_ns[1];
      dev_ok = true;
    }

  uint64_t flushes = 0;
  if (err < 0)
    {
      snprintf (res->error, sizeof res->error, "cannot start a worker thread: %s",
                dm_strerror (err));
      return err;
    }

  /* The passes after it repeat what the first one issued. */
  if (r->pass && r->pass_repeat && !r->pass_recorded)
    {
      for (unsigned i = 0; i < T; i++)
        r->pass_issued[i] = workers[i].pass_total - workers[i].pass_left;
      r->pass_spec = *spec;
      r->pass_recorded = true;
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
      flushes += w->flushes;
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
  res->flushes = flushes;
  r->job_done += warm_s + count * s->measure_s;
  memset (&res->device, 0, sizeof res->device);
  if (dev_ok)
    {
      dm_device_ask ask = dm_result_device_ask (res);
      dm_device_seen_set (&res->device, r->device_name, &dev0, &dev1,
                          (double) (dev_t1 - dev_t0) / NS_PER_S, span_bytes, &ask);
      /* The same span's own means, to split each direction at the device. */
      double mean_us[2] = { dm_histogram_mean (res->hist_read) / 1e3,
                            dm_histogram_mean (res->hist_write) / 1e3 };
      uint64_t n[2] = { res->hist_read->count, res->hist_write->count };
      dm_device_seen_set_guest (&res->device, mean_us, n);
    }
  /* The queue the system itself kept, summed over the threads: each one's
   * mean over its measured time. Where the backend cannot tell, the
   * report says nothing rather than repeat Q x T. */
  if (r->backend->held && res->n_runs)
    {
      dm_device_ask ask = dm_result_device_ask (res);
      res->device.os_counted = true;
      for (unsigned i = 0; i < T; i++)
        if (workers[i].os_span_ns)
          res->device.os_queue += (double) workers[i].os_held_ns / (double) workers[i].os_span_ns;
      res->device.flags = dm_device_seen_flags (&res->device, &ask);
    }
  /* What the machine's facts say holds such a queue back, and what to
   * change, judged once here and kept with the result. */
  {
    dm_device_ask ask = dm_result_device_ask (res);
    dm_advice_for (&rep->target, &res->device, &ask, &res->advice);
  }

  if (err < 0)
    return err;
  if (_dm_runner_cancelled (r) && windows_done < count)
    return -ECANCELED;
  /* A device that completed nothing in a whole test of a second or more
   * does not answer. An empty window of a fraction of a second on a busy
   * machine is a figure (0), not a verdict. */
  uint64_t total_ios = 0;
  for (unsigned k = 0; k < res->n_runs; k++)
    total_ios += res->runs[k].ios;
  if (res->n_runs && total_ios == 0 && warm_s + res->n_runs * s->measure_s >= 1.0)
    {
      snprintf (res->error, sizeof res->error,
                "no I/O completed in %g s; the device does not answer",
                res->n_runs * s->measure_s);
      return -ETIMEDOUT;
    }
  res->status = DM_STATUS_COMPLETE;
  return 0;
}
