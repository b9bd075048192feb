/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The I/O backend interface: a const table of functions per backend, state
 * behind an opaque queue, one request struct per in-flight I/O, in the
 * manner of fio's ioengine ops. A worker thread owns one queue; queues are
 * never shared between threads, so backends need no locks on the hot path.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-platform.h"

/* One I/O. The backend owns the memory (it may embed an OVERLAPPED or
 * similar after these fields); the engine fills offset, len, write and
 * t_submit, and reads res after reap. */
typedef struct dm_io {
  uint64_t offset;   /* byte offset in the file, aligned */
  uint64_t t_submit; /* dm_clock_ns() read just before its batch was prepped */
  void    *buf;      /* this slot's buffer: params.buf_base + slot * buf_size */
  uint32_t len;      /* bytes to move */
  uint16_t slot;     /* index in 0..depth-1, fixed for the queue's life */
  uint8_t  write;    /* 1 = write, 0 = read, DM_IO_FLUSH = flush the file (len 0) */
  int32_t  res;      /* after reap: bytes moved, or a negative code */
} dm_io;

/* The file's written data to stable storage (fdatasync, FlushFileBuffers):
 * what a workload's sync=flush:N asks every N writes. res is 0 when done. */
#define DM_IO_FLUSH 2

typedef struct dm_queue dm_queue;

typedef struct dm_queue_params {
  dm_file *file;
  unsigned depth;    /* I/Os in flight at most, 1..512 */
  void    *buf_base; /* depth buffers of buf_size bytes, page aligned */
  size_t   buf_size;
  bool     dsync;    /* every write reaches stable storage before it completes
                      * (RWF_DSYNC per write, as O_DSYNC; FILE_FLAG_WRITE_THROUGH) */
  bool     writes;   /* some of its I/Os will be writes: a backend may set up
                      * its queue differently for them (io_uring does) */
} dm_queue_params;

typedef struct dm_backend {
  const char *name;        /* "io_uring", "psync", "iocp": goes into reports */
  const char *description; /* one line for --help */

  /* 0 when this backend can run on this machine now (io_uring may be
   * compiled in but blocked by a container's seccomp policy). */
  int (*probe) (void);

  /* Creates a queue and hands out its depth request structs in ios[]. */
  int (*open) (const dm_queue_params *params, dm_queue **out, dm_io **ios);

  /* Queues one I/O; may start it (IOCP) or only stage it (io_uring). */
  int (*prep) (dm_queue *q, dm_io *io);

  /* Starts everything staged and waits up to timeout_ns for at least one
   * completion; stores up to max finished requests in done[]. Returns
   * their number (0 on timeout) or a negative code if the queue broke.
   * The engine reads the clock once as this returns: that read is the
   * completion time of every request handed back (as fio's one read per
   * completion batch is), so nothing slow belongs after the wait. */
  int (*reap) (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns);

  /* Optional (NULL: not known). What the system itself held of the
   * queue's I/O during the last reap: returns how many I/Os it had in
   * flight when that reap began to wait, and sets *in_call to how many
   * I/Os since the last call were done inside the call that started them
   * (a system that reads a regular file in the caller's thread, as Wine
   * does, holds one I/O at a time however many were asked). Counted, not
   * timed: the runner weighs it with the clock it reads per batch. */
  unsigned (*held) (dm_queue *q, unsigned *in_call);

  /* Waits (bounded) for in-flight I/O, then frees the queue. Returns 0
   * when the slot buffers may be freed, or 1 when I/O the device never
   * finished may still write into them: the caller must then leave them
   * allocated (a small leak beats memory corruption). */
  int (*close) (dm_queue *q);
} dm_backend;

/* The backends compiled for this OS, best first. */
const dm_backend *const *dm_backends (unsigned *n);
