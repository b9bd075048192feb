/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measurement loop, the runner's hot path. Each worker thread owns a
 * backend queue and keeps Q I/Os in flight; per reaped batch it reads the
 * clock once, accounts every completion into its own windows, samples and
 * latency histograms, then reads it again and resubmits the batch with that
 * stamp. Nothing on that path allocates, locks or prints.
 */
#include "dm-runner-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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

void *
_dm_runner_worker_main (void *arg)
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
  uint64_t last_reap = t;    /* for what the system held between batches */

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
      else if (stalled (w, t, last_answer, inflight))
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
          /* Its next I/O goes out with the batch, below. done[] is read
           * in order, so slot n_next < i is free to hold it. */
          if (!stopping)
            {
              io->buf = (char *) bufs + (size_t) io->slot * buf_size;
              next_io (w, io);
              done[n_next++] = io;
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
  atomic_store (&w->stopped, true);
  return NULL;
}
