/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fallback backend for machines where io_uring cannot be set up (many
 * container runtimes block it): plain pread/pwrite. At queue depth 1 the
 * worker thread does the I/O itself; deeper queues get that many helper
 * threads, each doing one blocking I/O at a time, which is how a kernel
 * without asynchronous I/O sees Q I/Os in flight. The hand-off takes a
 * mutex per batch: slower than io_uring, and reports name the backend.
 *
 * A pread stuck in the kernel cannot be taken back. Deeper queues leave a
 * stuck helper behind (the last helper out frees the queue), so a device
 * that stops answering ends the run as with io_uring. At depth 1 the read
 * runs on the worker itself, which then waits as long as the kernel does.
 */
#include "dm-backend.h"
#include "dm-linux-private.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* How long close waits for helpers to finish the I/O they hold: well
 * within the 250 ms a cancel may take. */
#define CLOSE_WAIT_NS 100000000L

struct dm_queue {
  int             fd;
  bool            dsync;    /* pwritev2 with RWF_DSYNC */
  unsigned        depth;
  dm_io          *ios;
  dm_io         **todo;     /* ring of prepped I/Os for the helpers */
  unsigned        todo_head, todo_len;
  dm_io         **finished; /* ring of completed I/Os for reap */
  unsigned        fin_head, fin_len;
  unsigned        inflight;
  unsigned        held;     /* with the helpers when the last reap waited */
  bool            stop;
  pthread_mutex_t lock;
  pthread_cond_t  work;     /* todo not empty, or stop */
  pthread_cond_t  done;     /* finished not empty */
  pthread_cond_t  gone;     /* a helper returned */
  pthread_t      *helpers;
  unsigned        n_helpers;
  unsigned        running;  /* helpers that have not returned */
  bool            abandoned; /* close gave up on a stuck helper: the last one frees */
};

static void
queue_free (dm_queue *q)
{
  pthread_mutex_destroy (&q->lock);
  pthread_cond_destroy (&q->work);
  pthread_cond_destroy (&q->done);
  pthread_cond_destroy (&q->gone);
  free (q->helpers);
  free (q->ios);
  free (q->todo);
  free (q->finished);
  free (q);
}

static void
execute (int fd, bool dsync, dm_io *io)
{
  if (io->write == DM_IO_FLUSH)
    {
      io->res = fdatasync (fd) < 0 ? -errno : 0;
      return;
    }
  size_t left = io->len;
  char *p = io->buf;
  uint64_t off = io->offset;
  while (left)
    {
      struct iovec v = { p, left };
      ssize_t n = !io->write ? pread (fd, p, left, (off_t) off)
                  : dsync ? pwritev2 (fd, &v, 1, (off_t) off, RWF_DSYNC)
                  : pwrite (fd, p, left, (off_t) off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          io->res = -errno;
          return;
        }
      if (n == 0)
        break;
      p += n;
      off += (uint64_t) n;
      left -= (size_t) n;
    }
  io->res = (int32_t) (io->len - left);
}

static void *
helper_main (void *arg)
{
  dm_queue *q = arg;
  pthread_mutex_lock (&q->lock);
  for (;;)
    {
      while (!q->todo_len && !q->stop)
        pthread_cond_wait (&q->work, &q->lock);
      if (!q->todo_len)
        break;
      dm_io *io = q->todo[q->todo_head];
      q->todo_head = (q->todo_head + 1) % q->depth;
      q->todo_len--;
      pthread_mutex_unlock (&q->lock);
      execute (q->fd, q->dsync, io);
      pthread_mutex_lock (&q->lock);
      q->finished[(q->fin_head + q->fin_len) % q->depth] = io;
      q->fin_len++;
      pthread_cond_signal (&q->done);
    }
  q->running--;
  bool last = q->abandoned && q->running == 0;
  pthread_cond_signal (&q->gone);
  pthread_mutex_unlock (&q->lock);
  if (last)
    queue_free (q);
  return NULL;
}

static int
psync_probe (void)
{
  return 0;
}

static int psync_close (dm_queue *q);

static int
psync_open (const dm_queue_params *params, dm_queue **out, dm_io **ios)
{
  dm_queue *q = calloc (1, sizeof *q);
  if (!q)
    return -ENOMEM;
  q->fd = params->file->fd;
  q->dsync = params->dsync;
  q->depth = params->depth;
  q->ios = calloc (q->depth, sizeof *q->ios);
  q->todo = calloc (q->depth, sizeof *q->todo);
  q->finished = calloc (q->depth, sizeof *q->finished);
  pthread_mutex_init (&q->lock, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init (&ca);
  pthread_condattr_setclock (&ca, CLOCK_MONOTONIC);
  pthread_cond_init (&q->work, NULL);
  pthread_cond_init (&q->done, &ca);
  pthread_cond_init (&q->gone, &ca);
  pthread_condattr_destroy (&ca);
  if (!q->ios || !q->todo || !q->finished)
    {
      psync_close (q);
      return -ENOMEM;
    }
  for (unsigned i = 0; i < q->depth; i++)
    {
      q->ios[i].slot = (uint16_t) i;
      q->ios[i].buf = (char *) params->buf_base + (size_t) i * params->buf_size;
      ios[i] = &q->ios[i];
    }
  if (q->depth > 1)
    {
      q->helpers = calloc (q->depth, sizeof *q->helpers);
      if (!q->helpers)
        {
          psync_close (q);
          return -ENOMEM;
        }
      for (; q->n_helpers < q->depth; q->n_helpers++)
        {
          q->running++;
          int err = pthread_create (&q->helpers[q->n_helpers], NULL, helper_main, q);
          if (err)
            {
              q->running--;
              psync_close (q);
              return -err;
            }
        }
    }
  *out = q;
  return 0;
}

static int
psync_prep (dm_queue *q, dm_io *io)
{
  if (q->depth == 1)
    {
      /* Nothing to hand off: reap runs it on the worker's own thread. */
      q->todo[0] = io;
      q->todo_len = 1;
      q->inflight = 1;
      return 0;
    }
  pthread_mutex_lock (&q->lock);
  q->todo[(q->todo_head + q->todo_len) % q->depth] = io;
  q->todo_len++;
  q->inflight++;
  pthread_cond_signal (&q->work);
  pthread_mutex_unlock (&q->lock);
  return 0;
}

static int
psync_reap (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns)
{
  unsigned n = 0;
  if (!q->inflight)
    return 0;
  if (q->depth == 1)
    {
      q->held = 1;
      execute (q->fd, q->dsync, q->todo[0]);
      done[0] = q->todo[0];
      q->todo_len = 0;
      q->inflight = 0;
      return 1;
    }
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  ts.tv_sec += (time_t) (timeout_ns / 1000000000ull);
  ts.tv_nsec += (long) (timeout_ns % 1000000000ull);
  if (ts.tv_nsec >= 1000000000L)
    {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
  pthread_mutex_lock (&q->lock);
  q->held = q->inflight - q->fin_len;
  while (!q->fin_len)
    if (pthread_cond_timedwait (&q->done, &q->lock, &ts) == ETIMEDOUT)
      break;
  while (q->fin_len && n < max)
    {
      done[n++] = q->finished[q->fin_head];
      q->fin_head = (q->fin_head + 1) % q->depth;
      q->fin_len--;
    }
  q->inflight -= n;
  pthread_mutex_unlock (&q->lock);
  return (int) n;
}

static unsigned
psync_held (dm_queue *q, unsigned *in_call)
{
  *in_call = 0;
  return q->held;
}

static int
psync_close (dm_queue *q)
{
  /* Helpers finish the I/O they hold (a blocking pread cannot be taken
   * back) and drop what is still queued. One stuck on a device that does
   * not answer is not waited for: it is detached, and frees the queue when
   * the kernel lets it go. Until then it may write into its buffer. */
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  ts.tv_nsec += CLOSE_WAIT_NS;
  if (ts.tv_nsec >= 1000000000L)
    {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
  pthread_mutex_lock (&q->lock);
  q->stop = true;
  q->todo_len = 0;
  pthread_cond_broadcast (&q->work);
  while (q->running)
    if (pthread_cond_timedwait (&q->gone, &q->lock, &ts) == ETIMEDOUT)
      break;
  if (q->running)
    {
      q->abandoned = true;
      for (unsigned i = 0; i < q->n_helpers; i++)
        pthread_detach (q->helpers[i]);
      pthread_mutex_unlock (&q->lock);
      return 1;
    }
  pthread_mutex_unlock (&q->lock);
  for (unsigned i = 0; i < q->n_helpers; i++)
    pthread_join (q->helpers[i], NULL);
  queue_free (q);
  /* The helpers have returned from their pread/pwrite: nothing is left. */
  return 0;
}

const dm_backend dm_backend_psync = {
  .name = "psync",
  .description = "pread/pwrite, one helper thread per queued I/O (where io_uring is blocked)",
  .probe = psync_probe,
  .open = psync_open,
  .prep = psync_prep,
  .reap = psync_reap,
  .held = psync_held,
  .close = psync_close,
};
