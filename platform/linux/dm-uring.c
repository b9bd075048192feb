/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The io_uring backend: one ring per worker thread, the test file and the
 * slot buffers registered once, so the kernel neither looks up the file nor
 * pins pages per I/O, and one io_uring_enter per reaped batch that both
 * submits the new I/Os and waits for the next completion.
 */
#include "dm-backend.h"
#include "dm-linux-private.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

struct dm_queue {
  struct io_uring ring;
  dm_io          *ios;
  unsigned        depth;
  unsigned        inflight;   /* prepped and not yet reaped */
  unsigned        staged;     /* prepped and not yet submitted */
  unsigned        held;       /* in the kernel when the last reap waited */
  int             fd;         /* index 0 when fixed_file */
  bool            fixed_file;
  bool            fixed_bufs;
  bool            dsync;      /* RWF_DSYNC on every write */
};

static int
uring_probe (void)
{
  struct io_uring ring;
  int err = io_uring_queue_init (2, &ring, 0);
  if (err < 0)
    return err;
  io_uring_queue_exit (&ring);
  return 0;
}

/* The newest flags first; an older kernel refuses them with EINVAL and we
 * try the next set. SINGLE_ISSUER and DEFER_TASKRUN (6.1) let completions
 * run in our own io_uring_enter, COOP_TASKRUN (5.19) avoids interrupting
 * the thread for them.
 *
 * A queue that writes starts at the second set. On a file in ext4 the
 * kernel finishes an O_DIRECT write in the submitter's task, and with
 * DEFER_TASKRUN that waits for our next io_uring_enter: on this project's
 * real disk a plain liburing writer at QD32 made 121k IOPS with it and
 * 132k without (4 alternating rounds, 8 % apart in each), and Diskmeter's
 * RND4K_Q32T1 write (below). Reads are as fast or faster with it. */
static int
init_ring (struct io_uring *ring, unsigned entries, bool writes)
{
  static const unsigned flag_sets[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
    IORING_SETUP_COOP_TASKRUN,
    0,
  };
  int err = -EINVAL;
  for (size_t i = writes ? 1 : 0; i < sizeof flag_sets / sizeof flag_sets[0]; i++)
    {
      struct io_uring_params p;
      memset (&p, 0, sizeof p);
      p.flags = flag_sets[i];
      err = io_uring_queue_init_params (entries, ring, &p);
      if (err != -EINVAL)
        break;
    }
  return err;
}

static int
uring_open (const dm_queue_params *params, dm_queue **out, dm_io **ios)
{
  dm_queue *q = calloc (1, sizeof *q);
  struct iovec *iov = NULL;
  int err;

  if (!q || !(q->ios = calloc (params->depth, sizeof *q->ios)))
    {
      free (q);
      return -ENOMEM;
    }
  q->depth = params->depth;
  q->fd = params->file->fd;
  q->dsync = params->dsync;
  err = init_ring (&q->ring, params->depth, params->writes);
  if (err < 0)
    {
      free (q->ios);
      free (q);
      return err;
    }

  /* Registration is an optimisation; without it (old kernels, memlock
   * limits) the same I/O runs through the plain opcodes. */
  if (io_uring_register_files (&q->ring, &q->fd, 1) == 0)
    {
      q->fixed_file = true;
      q->fd = 0;
    }
  iov = calloc (params->depth, sizeof *iov);
  for (unsigned i = 0; i < params->depth; i++)
    {
      dm_io *io = &q->ios[i];
      io->slot = (uint16_t) i;
      io->buf = (char *) params->buf_base + (size_t) i * params->buf_size;
      ios[i] = io;
      if (iov)
        {
          iov[i].iov_base = io->buf;
          iov[i].iov_len = params->buf_size;
        }
    }
  if (iov && io_uring_register_buffers (&q->ring, iov, params->depth) == 0)
    q->fixed_bufs = true;
  free (iov);
  /* One fewer fd lookup per io_uring_enter; harmless where unsupported. */
  io_uring_register_ring_fd (&q->ring);
  *out = q;
  return 0;
}

static int
uring_prep (dm_queue *q, dm_io *io)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (&q->ring);
  if (!sqe)
    {
      /* The SQ ring holds depth entries, so this only happens if the
       * kernel rounded it down; flush and retry once. */
      int err = io_uring_submit (&q->ring);
      if (err < 0)
        return err;
      q->staged = 0;
      if (!(sqe = io_uring_get_sqe (&q->ring)))
        return -EBUSY;
    }
  if (io->write == DM_IO_FLUSH)
    io_uring_prep_fsync (sqe, q->fd, IORING_FSYNC_DATASYNC);
  else if (q->fixed_bufs)
    {
      if (io->write)
        io_uring_prep_write_fixed (sqe, q->fd, io->buf, io->len, io->offset, io->slot);
      else
        io_uring_prep_read_fixed (sqe, q->fd, io->buf, io->len, io->offset, io->slot);
    }
  else if (io->write)
    io_uring_prep_write (sqe, q->fd, io->buf, io->len, io->offset);
  else
    io_uring_prep_read (sqe, q->fd, io->buf, io->len, io->offset);
  /* Per write, as pwritev2 takes it: the same as opening with O_DSYNC,
   * without a second handle on the test file. */
  if (q->dsync && io->write == 1)
    sqe->rw_flags = RWF_DSYNC;
  if (q->fixed_file)
    sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data (sqe, io);
  q->staged++;
  q->inflight++;
  return 0;
}

static int
uring_reap (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns)
{
  struct io_uring_cqe *cqes[64];
  unsigned n = 0;

  if (!q->inflight)
    return 0;
  /* The kernel holds every I/O it is given until it completes it. */
  q->held = q->inflight;
  /* Submit what is staged and wait for one completion in a single
   * system call; everything else that finished comes with it. */
  struct __kernel_timespec ts = { (long long) (timeout_ns / 1000000000ull),
                                  (long long) (timeout_ns % 1000000000ull) };
  struct io_uring_cqe *first;
  int err = io_uring_submit_and_wait_timeout (&q->ring, &first, 1, &ts, NULL);
  q->staged = 0;
  if (err < 0 && err != -ETIME && err != -EINTR && err != -EAGAIN && err != -EBUSY)
    return err;

  while (n < max)
    {
      unsigned want = max - n < 64 ? max - n : 64;
      unsigned got = io_uring_peek_batch_cqe (&q->ring, cqes, want);
      for (unsigned i = 0; i < got; i++)
        {
          dm_io *io = io_uring_cqe_get_data (cqes[i]);
          io->res = cqes[i]->res;
          done[n++] = io;
        }
      io_uring_cq_advance (&q->ring, got);
      if (got < want)
        break;
    }
  q->inflight -= n;
  return (int) n;
}

static unsigned
uring_held (dm_queue *q, unsigned *in_call)
{
  *in_call = 0;
  return q->held;
}

static int
uring_close (dm_queue *q)
{
  dm_io *done[64];
  uint64_t waited = 0;
  /* The runner has drained what it wanted; anything still in flight on a
   * stuck device is left to the kernel, which finishes it after the ring is
   * gone. Its pages stay pinned until then, so freeing the buffers is safe,
   * and a cancel does not wait for a slow disk. */
  while (q->inflight && waited < 20000000ull)
    {
      int n = uring_reap (q, done, 64, 5000000ull);
      if (n < 0)
        break;
      waited += 5000000ull;
    }
  /* Tearing the ring down does not wait for the device either: the
   * kernel cancels or finishes its requests in the background. Registered
   * buffers stay pinned by the kernel until then; plain ones may still be
   * written through our mapping, so they must stay allocated. */
  bool keep_bufs = q->inflight && !q->fixed_bufs;
  /* The ring's own reference to a registered file outlives the ring's fd
   * until the kernel's background teardown drops it: a block device would
   * stay held (O_EXCL) after the process ends, and a run straight after
   * this one on the same disk would find it busy. With nothing in flight,
   * unregistering drops it now. */
  if (q->fixed_file && !q->inflight)
    io_uring_unregister_files (&q->ring);
  io_uring_queue_exit (&q->ring);
  free (q->ios);
  free (q);
  return keep_bufs ? 1 : 0;
}

const dm_backend dm_backend_uring = {
  .name = "io_uring",
  .description = "Linux io_uring: registered file and buffers, batched submit and reap",
  .probe = uring_probe,
  .open = uring_open,
  .prep = uring_prep,
  .reap = uring_reap,
  .held = uring_held,
  .close = uring_close,
};
