/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measurement loop, the runner's hot path. Each worker thread owns a
 * backend queue and keeps Q I/Os in flight; per reaped batch (at most
 * REAP_BATCH completions) it reads the clock once, accounts every
 * completion into its own windows, samples and latency histograms, then
 * reads it again and resubmits the batch with that stamp. Nothing on that
 * path allocates, locks or prints.
 */
#include "dm-runner-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bijection of [0, 2^k): rounds of a key xored in, an odd multiplier
 * and a shift xored back, each one-to-one on k bits. */
static inline uint64_t
shuffle_step (const worker *w, uint64_t x)
{
  for (unsigned round = 0; round < 3; round++)
    {
      x = (x ^ (w->shuffle_key >> (round * 8))) & w->shuffle_mask;
      x = (x * 0x9e3779b97f4a7c15ull) & w->shuffle_mask;
      x ^= x >> w->shuffle_shift;
    }
  return x;
}

/* Chooses the next I/O of a worker into a slot. */
static inline void
next_io (worker *w, dm_io *io)
{
  if (w->shuffled)
    {
      /* Walking the cycle out of [n_blocks, 2^k) keeps it a bijection of
       * the blocks; fewer than two steps on average, as 2^k < 2n. */
      uint64_t x = w->shuffle_next;
      w->shuffle_next += w->shuffle_step;
      do
        x = shuffle_step (w, x);
      while (x >= w->n_blocks);
      io->offset = x * w->block;
    }
  else if (w->n_blocks)
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

/* 4 KiB blocks a deduplicating workload repeats: few, so that repeats
 * are many, and a block's first write among thousands barely counts. */
#define DUP_BLOCK 4096u
#define DUP_POOL  16u

/* One 4 KiB block of reducible data: random words for the share zlib
 * cannot shrink, zeros for the rest, as fio's buffer_compress_percentage
 * lays out a segment. The random part is new for every block, so no two
 * blocks match unless a repeat is meant. */
static inline void
reducible_block (dm_rng *rng, char *p, unsigned compress_percent)
{
  uint32_t random = (DUP_BLOCK * (100 - compress_percent) / 100) & ~7u;
  if (random < 8)
    random = 8;
  dm_rng_fill (rng, p, random);
  if (random < DUP_BLOCK)
    memset (p + random, 0, DUP_BLOCK - random);
}

/* The next I/O of a workload row: a size from the alias table, an offset
 * that is random (from the distribution) or continues the last I/O, and
 * data made as the row asks. After every N writes of sync=flush:N it
 * makes none and returns false: the slot waits at the barrier, as fio's
 * fsync=N waits for its queue to drain, until the flush that follows the
 * N writes' completions is done. */
static inline bool
next_io_shaped (worker *w, dm_io *io)
{
  const dm_workload_sampler *s = w->sampler;
  if (w->flush_every && w->writes_since_flush >= w->flush_every)
    return false;
  uint32_t len = s->n_sizes > 1 ? dm_workload_draw_size (s, &w->rng) : s->size_value[0];
  uint64_t off;
  if (w->random_percent == 100
      || (w->random_percent && dm_rng_below (&w->rng, 100) < w->random_percent))
    off = dm_workload_draw_unit (s, &w->rng) * s->unit & ~(uint64_t) (len - 1);
  else
    {
      off = w->seq_next;
      if (off + len > w->file_size)
        off = 0;
    }
  w->seq_next = off + len;
  io->offset = off;
  io->len = len;
  if (w->read_percent == 100)
    io->write = 0;
  else if (w->read_percent == 0)
    io->write = 1;
  else
    io->write = dm_rng_below (&w->rng, 100) >= w->read_percent;
  if (!io->write)
    return true;
  w->writes_since_flush++;
  if (w->reducible)
    {
      for (uint32_t o = 0; o < len; o += DUP_BLOCK)
        if (w->dedupe_percent && dm_rng_below (&w->rng, 100) < w->dedupe_percent)
          memcpy ((char *) io->buf + o, w->dup_pool + dm_rng_below (&w->rng, DUP_POOL) * DUP_BLOCK,
                  DUP_BLOCK);
        else
          reducible_block (&w->rng, (char *) io->buf + o, w->compress_percent);
    }
  else if (w->stamp)
    {
      uint64_t tag = ++w->stamp_seq * 0x9e3779b97f4a7c15ull ^ w->rng.s[0];
      for (uint32_t o = 0; o < len; o += 512)
        *(uint64_t *) ((char *) io->buf + o) = tag + o;
    }
  return true;
}

/* The barrier's flush: once the N writes before it have all completed
 * (nothing in flight), one parked slot carries it, alone. */
static inline bool
at_barrier (const worker *w)
{
  return w->flush_every && w->writes_since_flush >= w->flush_every;
}

static inline void
make_flush (dm_io *io, uint64_t t)
{
  io->write = DM_IO_FLUSH;
  io->offset = 0;
  io->len = 0;
  io->t_submit = t;
}

/* Edge 0 opens the measured span, 1 closes it: twice a run, not per I/O. */
static void
read_device (worker *w, unsigned edge)
{
  if (!w->watch || atomic_load_explicit (&w->dev_read[edge], memory_order_relaxed))
    return;
  if (dm_device_watch_read (w->watch, &w->dev[edge]) == 0)
    {
      w->dev_ns[edge] = dm_clock_ns ();
      atomic_store_explicit (&w->dev_read[edge], true, memory_order_release);
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

/* An offered rate: the idle slots whose I/O has come due go out, each
 * stamped with the time it was due, not the time it left. */
static inline void
send_due (worker *w, const dm_backend *be, dm_queue *q, dm_io **idle, unsigned *n_idle,
          unsigned *inflight, uint64_t now, bool *stopping, uint64_t *stop_at)
{
  while (*n_idle && !*stopping && w->next_due <= (double) now)
    {
      dm_io *io = idle[--*n_idle];
      if (!next_io_shaped (w, io))
        {
          ++*n_idle;
          break;
        }
      io->t_submit = (uint64_t) w->next_due;
      w->next_due += w->rate_bytes ? w->interval_ns * io->len : w->interval_ns;
      if (!send (w, be, q, io, now, stopping, stop_at))
        break;
      ++*inflight;
    }
}

/* The loop, made twice by the compiler: once for the plain tests, whose
 * path is as it always was, and once for workload rows. */
static inline __attribute__ ((always_inline)) void
worker_loop (worker *w, bool shaped)
{
  dm_runner *r = w->runner;
  const dm_backend *be = r->backend;
  unsigned depth = w->result->spec.queue_depth;
  size_t buf_size = w->block;
  void *bufs = dm_alloc_io ((size_t) depth * buf_size);
  dm_io **ios = calloc (depth, sizeof *ios);
  dm_io **done = calloc (depth, sizeof *done);
  dm_io **idle = shaped && w->rated ? calloc (depth, sizeof *idle) : NULL;
  w->parked = shaped && w->flush_every ? calloc (depth, sizeof *w->parked) : NULL;
  w->n_parked = 0;
  unsigned n_idle = 0;
  dm_queue *q = NULL;
  int err;

  if (shaped && w->reducible && w->dedupe_percent)
    {
      w->dup_pool = malloc ((size_t) DUP_POOL * DUP_BLOCK);
      for (unsigned i = 0; w->dup_pool && i < DUP_POOL; i++)
        reducible_block (&w->rng, w->dup_pool + (size_t) i * DUP_BLOCK, w->compress_percent);
    }
  if (shaped && w->pin)
    {
      err = dm_thread_pin_self (w->affinity_cpu);
      if (err < 0)
        {
          worker_fail (w, err, "pinning a worker to its CPU");
          snprintf (w->why, sizeof w->why, "cannot pin a worker to CPU %u: %s", w->affinity_cpu,
                    dm_strerror (err));
        }
    }
  if (!bufs || !ios || !done || (shaped && w->rated && !idle)
      || (shaped && w->flush_every && !w->parked)
      || (shaped && w->reducible && w->dedupe_percent && !w->dup_pool))
    worker_fail (w, -ENOMEM, "allocating I/O buffers");
  else if (!w->error)
    {
      bool zeros = shaped ? !w->stamp && !w->reducible
                          : r->report->settings.data != DM_DATA_RANDOM;
      if (!zeros)
        dm_rng_fill (&w->rng, bufs, (size_t) depth * buf_size);
      else if (shaped)
        memset (bufs, 0, (size_t) depth * buf_size);
      dm_queue_params params = { r->tf.file, depth, bufs, buf_size,
                                 shaped && w->result->workload.sync == DM_SYNC_DSYNC,
                                 w->read_percent < 100 };
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
  const unsigned batch = depth < REAP_BATCH ? depth : REAP_BATCH;
  uint64_t last_answer = t;  /* the last reap that brought a completion */
  uint64_t last_reap = t;    /* for what the system held between batches */

  /* Without a warm-up the first window opens with the first submission:
   * nothing completed before it. */
  if (t >= w->measure_ns)
    {
      atomic_store_explicit (&w->edge_ns[w->next_edge++], t, memory_order_relaxed);
      read_device (w, 0);
    }
  if (shaped && w->rated)
    {
      for (unsigned i = 0; i < depth; i++)
        idle[n_idle++] = ios[depth - 1 - i];
      w->next_due = (double) t;
      send_due (w, be, q, idle, &n_idle, &inflight, t, &stopping, &stop_at);
    }
  else
    {
      /* The first batch as every later one: all its I/Os made, then one
       * clock read, then all sent. Stamped before they were made, the
       * first I/Os would carry the time spent making the data of those
       * after them. */
      unsigned n_first = 0;
      for (unsigned i = 0; i < depth && !w->passed; i++)
        {
          if (!shaped)
            next_io (w, ios[i]);
          else if (!next_io_shaped (w, ios[i]))
            {
              w->parked[w->n_parked++] = ios[i];
              continue;
            }
          done[n_first++] = ios[i];
        }
      uint64_t t_send = dm_clock_ns ();
      for (unsigned i = 0; i < n_first && !stopping; i++)
        {
          done[i]->t_submit = t_send;
          inflight += send (w, be, q, done[i], t_send, &stopping, &stop_at);
        }
    }

  while (inflight || (shaped && w->rated && n_idle && !stopping))
    {
      int n;
      if (shaped && w->rated && n_idle && !stopping)
        {
          /* Wait for a completion or the next I/O's due time, whichever
           * comes first; with nothing in flight, only for the time. */
          uint64_t now = dm_clock_ns ();
          uint64_t wait = w->next_due > (double) now ? (uint64_t) (w->next_due - (double) now) : 0;
          if (wait > REAP_TIMEOUT)
            wait = REAP_TIMEOUT;
          if (!inflight)
            {
              if (wait)
                dm_sleep_ns (wait);
              n = 0;
              last_answer = dm_clock_ns ();
            }
          else
            n = be->reap (q, done, batch, wait);
        }
      else
        n = be->reap (q, done, batch, REAP_TIMEOUT);
      t = dm_clock_ns ();
      /* A steady warm-up ends when the runner says: the end is read
       * first, so a new end always comes with its new start. */
      if (w->steady)
        {
          w->end_ns = deadline = atomic_load_explicit (&r->steady_end, memory_order_acquire);
          w->measure_ns = atomic_load_explicit (&r->steady_measure, memory_order_relaxed);
        }
      if (n < 0)
        {
          worker_fail (w, n, "waiting for I/O");
          break;
        }
      /* The queue the system kept since the last batch: what it held while
       * this reap waited, and one I/O more if it did I/O inside the calls
       * that started them (in the caller's thread, one at a time). */
      if (be->held && w->next_edge >= 1 && w->next_edge <= w->n_windows)
        {
          unsigned in_call, held = be->held (q, &in_call);
          w->os_held_ns += (uint64_t) (held + (in_call > 0)) * (t - last_reap);
          w->os_span_ns += t - last_reap;
        }
      last_reap = t;
      if (n > 0)
        last_answer = t;
      /* Only a reap that waited and got nothing counts: a thread that was
       * not scheduled for a while finds its completions waiting. */
      else if (inflight && stalled (w, t, last_answer, inflight))
        break;
      if (!stopping && (t >= deadline || _dm_runner_cancelled (r)))
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
      unsigned n_next = 0;
      for (int i = 0; i < n; i++)
        {
          dm_io *io = done[i];
          inflight--;
          /* The kernel may ask for a retry; the I/O goes out again as it
           * was, with the batch below, and its latency counts from then.
           * A device that keeps refusing fails the test instead of
           * spinning. */
          if ((io->res == -EAGAIN || io->res == -EINTR) && !stopping
              && ++w->retries <= MAX_RETRIES)
            {
              done[n_next++] = io;
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
          /* A flush moves no data of its own: it is counted, not timed
           * into the data's latency, and the slot goes back to work. */
          if (shaped && io->write == DM_IO_FLUSH)
            {
              if (win)
                w->flushes++;
              w->writes_since_flush = 0;
              w->flush_out = false;
            }
          else if (win)
            {
              uint64_t latency = t - io->t_submit;
              uint32_t moved = shaped ? (uint32_t) ((char *) io->buf - (char *) bufs
                                                    - (size_t) io->slot * buf_size) + io->len
                                      : w->block;
              batch_bytes += moved;
              batch_ios++;
              batch_latency += latency;
              dm_histogram_add (w->hist[io->write], latency, 1);
              unsigned d = w->dirs > 1 ? io->write : 0;
              dir_bytes[d] += moved;
              dir_ios[d]++;
              dir_latency[d] += latency;
              unsigned b = dm_histogram_bucket (latency);
              slot[d].buckets[(b < SAMPLE_TOP ? b : SAMPLE_TOP) >> SAMPLE_SHIFT]++;
            }
          else
            {
              uint64_t moved = shaped ? (uint64_t) ((char *) io->buf - (char *) bufs
                                                    - (size_t) io->slot * buf_size) + io->len
                                      : w->block;
              w->unscored += moved;
              batch_bytes += moved;
              batch_ios++;
            }
          /* One pass: a share moved is the end of this thread's test. */
          if (!stopping && w->passed)
            {
              stopping = true;
              stop_at = t;
            }
          /* Its next I/O goes out with the batch, below. done[] is read
           * in order, so slot n_next < i is free to hold it. */
          if (!stopping)
            {
              io->buf = (char *) bufs + (size_t) io->slot * buf_size;
              if (shaped && w->rated)
                idle[n_idle++] = io;
              else
                {
                  if (!shaped)
                    next_io (w, io);
                  else if (!next_io_shaped (w, io))
                    {
                      w->parked[w->n_parked++] = io;
                      continue;
                    }
                  done[n_next++] = io;
                }
            }
        }
      /* The barrier's flush is done: the parked slots go out again, up
       * to the next barrier. */
      if (shaped && w->n_parked && !at_barrier (w) && !stopping)
        while (w->n_parked)
          {
            dm_io *io = w->parked[w->n_parked - 1];
            if (!next_io_shaped (w, io))
              break;
            w->n_parked--;
            done[n_next++] = io;
          }
      /* A steady warm-up's rate, for the runner to judge. */
      if (w->steady && !win && batch_ios)
        {
          window_add (&w->warm_bytes, batch_bytes);
          window_add (&w->warm_ios, batch_ios);
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
      unsigned edge_before = w->next_edge;
      while (completed && w->next_edge <= w->n_windows
             && t >= w->measure_ns + w->next_edge * w->window_ns)
        atomic_store_explicit (&w->edge_ns[w->next_edge++], t, memory_order_relaxed);
      if (w->next_edge != edge_before)
        {
          if (edge_before == 0)
            read_device (w, 0);
          if (w->next_edge == w->n_windows + 1)
            read_device (w, 1);
        }
      if (completed && t >= w->measure_ns)
        {
          uint64_t k = (t - w->measure_ns) / w->sample_ns;
          w->sample = k < w->n_slots ? k : w->n_slots - 1;
        }
      /* The batch's next I/Os leave together, stamped with one clock read
       * taken after all of this batch's accounting: each I/O's latency runs
       * from its own submission to the reap that brought it back, as fio's
       * and DiskSpd's do, and the time spent here between batches is in
       * none of them. */
      if (n_next)
        {
          uint64_t t_send = dm_clock_ns ();
          for (unsigned i = 0; i < n_next; i++)
            {
              done[i]->t_submit = t_send;
              if (!send (w, be, q, done[i], t_send, &stopping, &stop_at))
                break;
              inflight++;
            }
        }
      if (shaped && w->rated && n_idle && !stopping)
        send_due (w, be, q, idle, &n_idle, &inflight, dm_clock_ns (), &stopping, &stop_at);
      /* The N writes before the barrier are all done: the flush goes out
       * alone, and nothing else until it is done. */
      if (shaped && at_barrier (w) && !w->flush_out && !inflight && !stopping)
        {
          dm_io *io = w->rated && n_idle ? idle[--n_idle]
                      : w->n_parked ? w->parked[--w->n_parked] : NULL;
          if (io)
            {
              make_flush (io, dm_clock_ns ());
              w->flush_out = true;
              inflight += send (w, be, q, io, io->t_submit, &stopping, &stop_at);
            }
        }
      /* After a cancel, I/O still queued on a slow device may take seconds;
       * the run is over, so do not wait for it past the drain budget. */
      if (stopping && _dm_runner_cancelled (r) && t - stop_at > DRAIN_TIMEOUT)
        break;
    }

out:
  /* A device that never finished its I/O may still write into the
   * buffers; then they stay allocated for the life of the process. */
  if (!q || be->close (q) == 0)
    dm_free_io (bufs, (size_t) depth * buf_size);
  free (ios);
  free (done);
  free (idle);
  free (w->parked);
  w->parked = NULL;
  free (w->dup_pool);
  w->dup_pool = NULL;
  atomic_store (&w->stopped, true);
}

void *
_dm_runner_worker_main (void *arg)
{
  worker *w = arg;
  if (w->shaped)
    worker_loop (w, true);
  else
    worker_loop (w, false);
  return NULL;
}
