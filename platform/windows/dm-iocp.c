/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Windows I/O backend: overlapped ReadFile/WriteFile on a handle of the
 * worker's own, completions reaped in batches from the worker's own I/O
 * completion port with GetQueuedCompletionStatusEx, as DiskSpd does it.
 * Each request embeds its OVERLAPPED and is found again by address. It
 * also tells the runner which I/O the system really held: a call that
 * returns with its I/O already done (TRUE, or ERROR_IO_PENDING with the
 * OVERLAPPED already complete, as Wine does for regular files) held it in
 * the calling thread, not in a queue.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dm-backend.h"

#ifndef STATUS_END_OF_FILE
#define STATUS_END_OF_FILE ((NTSTATUS) 0xC0000011L)
#endif

/* How long close() waits for cancelled I/O before it gives up on the
 * memory: a request the device never answers must not be freed under it.
 * Cancelled I/O comes back within milliseconds; a device that does not
 * answer must not hold a cancel (250 ms) or a failed run (README). */
#define DM_IOCP_DRAIN_MS 100

typedef struct dm_iocp_req {
  dm_io      io;        /* first: the engine's view of the request */
  OVERLAPPED ov;        /* the kernel's; completion hands back its address */
  bool       in_flight; /* started, completion not reaped yet */
  bool       in_call;   /* done by the time the call that started it returned */
} dm_iocp_req;

struct dm_queue {
  HANDLE            port;      /* this worker's completion port */
  HANDLE            handle;    /* this worker's handle to the test file */
  unsigned          depth;
  unsigned          in_flight; /* requests the port still owes us */
  unsigned          in_call;   /* of those, done inside their call: never queued */
  unsigned          in_call_new; /* done inside their call since the last held() */
  unsigned          held;      /* in flight at the system when the last reap waited */
  unsigned          n_failed;  /* requests that failed to start */
  dm_iocp_req     **failed;    /* depth slots, handed out by the next reap */
  OVERLAPPED_ENTRY *entries;   /* depth slots for one batch */
  dm_iocp_req     **flushes;   /* depth slots: flushes done, for the next reap */
  unsigned          n_flushes;
  dm_iocp_req       reqs[];
};

static int
iocp_probe (void)
{
  return 0;
}

static void
queue_free (dm_queue *q)
{
  if (q->handle != NULL && q->handle != INVALID_HANDLE_VALUE)
    CloseHandle (q->handle);
  if (q->port != NULL)
    CloseHandle (q->port);
  free (q->failed);
  free (q->flushes);
  free (q->entries);
  free (q);
}

static int
iocp_open (const dm_queue_params *params, dm_queue **out, dm_io **ios)
{
  dm_queue *q;
  int ret = 0;

  *out = NULL;
  if (params->depth == 0 || params->depth > 512 || params->buf_size > UINT32_MAX)
    return -EINVAL;
  q = calloc (1, sizeof *q + params->depth * sizeof q->reqs[0]);
  if (q == NULL)
    return -ENOMEM;
  q->depth = params->depth;
  q->failed = calloc (params->depth, sizeof *q->failed);
  q->entries = calloc (params->depth, sizeof *q->entries);
  q->flushes = calloc (params->depth, sizeof *q->flushes);
  if (q->failed == NULL || q->entries == NULL || q->flushes == NULL)
    {
      ret = -ENOMEM;
      goto fail;
    }

  /* A file object can belong to one completion port only, so each worker
   * opens the test file again and ties that handle to its own port. */
  q->handle = _dm_file_reopen (params->file,
                               params->dsync ? FILE_FLAG_WRITE_THROUGH : 0, &ret);
  if (q->handle == INVALID_HANDLE_VALUE)
    goto fail;
  q->port = CreateIoCompletionPort (q->handle, NULL, 0, 1);
  if (q->port == NULL)
    {
      ret = _dm_win_error (GetLastError ());
      goto fail;
    }
  /* Nobody waits on the handle itself; skip signalling it per I/O. */
  SetFileCompletionNotificationModes (q->handle, FILE_SKIP_SET_EVENT_ON_HANDLE);

  for (unsigned i = 0; i < q->depth; i++)
    {
      dm_io *io = &q->reqs[i].io;

      io->slot = (uint16_t) i;
      io->buf = (char *) params->buf_base + (size_t) i * params->buf_size;
      ios[i] = io;
    }
  *out = q;
  return 0;

fail:
  queue_free (q);
  return ret;
}

static int
iocp_prep (dm_queue *q, dm_io *io)
{
  dm_iocp_req *req = CONTAINING_RECORD (io, dm_iocp_req, io);
  BOOL ok;

  memset (&req->ov, 0, sizeof req->ov);
  req->ov.Offset = (DWORD) io->offset;
  req->ov.OffsetHigh = (DWORD) (io->offset >> 32);
  io->res = 0;

  /* FlushFileBuffers has no overlapped form: it runs here, in the
   * worker's thread, as fio's windowsaio does its syncs, and the next reap
   * hands it back. The queue waits for it as an application's would. */
  if (io->write == DM_IO_FLUSH)
    {
      io->res = FlushFileBuffers (q->handle) ? 0 : _dm_win_error (GetLastError ());
      q->flushes[q->n_flushes++] = req;
      return 0;
    }

  /* The I/O starts here. Whether it finishes at once (TRUE) or later
   * (ERROR_IO_PENDING), the port gets exactly one packet for it. */
  if (io->write)
    ok = WriteFile (q->handle, io->buf, io->len, NULL, &req->ov);
  else
    ok = ReadFile (q->handle, io->buf, io->len, NULL, &req->ov);
  if (ok || GetLastError () == ERROR_IO_PENDING)
    {
      req->in_flight = true;
      q->in_flight++;
      /* A pending I/O's OVERLAPPED says STATUS_PENDING until it is done:
       * one already done when the call returned was done in the call (on
       * a very fast disk it may also have finished on another CPU in the
       * instant since; it then held the queue for that instant only). */
      req->in_call = ok || HasOverlappedIoCompleted (&req->ov);
      if (req->in_call)
        {
          q->in_call++;
          q->in_call_new++;
        }
      return 0;
    }

  /* Refused before it started: no packet will come, so the next reap hands
   * it back with its error, the way io_uring reports errors in CQEs. */
  io->res = GetLastError () == ERROR_HANDLE_EOF ? 0 : _dm_win_error (GetLastError ());
  q->failed[q->n_failed++] = req;
  return 0;
}

static DWORD
timeout_ms (uint64_t timeout_ns)
{
  uint64_t ms = (timeout_ns + 999999) / 1000000;

  return ms >= INFINITE ? INFINITE - 1 : (DWORD) ms;
}

/* Takes up to max completions off the port, waiting up to ms for the first.
 * Returns their number, 0 on timeout, or a negative code. */
static int
drain_port (dm_queue *q, dm_io **done, unsigned max, DWORD ms)
{
  ULONG got = 0;
  unsigned want = max < q->in_flight ? max : q->in_flight;

  if (want == 0)
    return 0;
  if (!GetQueuedCompletionStatusEx (q->port, q->entries, want, &got, ms, FALSE))
    {
      DWORD e = GetLastError ();
      return e == WAIT_TIMEOUT ? 0 : _dm_win_error (e);
    }
  for (ULONG i = 0; i < got; i++)
    {
      dm_iocp_req *req = CONTAINING_RECORD (q->entries[i].lpOverlapped, dm_iocp_req, ov);
      NTSTATUS status = (NTSTATUS) req->ov.Internal;

      /* The outcome lives in the request's own OVERLAPPED: Internal holds
       * its NTSTATUS, the entry the byte count. GetLastError knows nothing
       * about a request that finished on another CPU. */
      if (status >= 0)
        req->io.res = (int32_t) q->entries[i].dwNumberOfBytesTransferred;
      else if (status == STATUS_END_OF_FILE)
        req->io.res = 0;
      else
        req->io.res = _dm_nt_error (status);
      req->in_flight = false;
      q->in_flight--;
      if (req->in_call)
        {
          req->in_call = false;
          q->in_call--;
        }
      done[i] = &req->io;
    }
  return (int) got;
}

static int
iocp_reap (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns)
{
  unsigned n = 0;
  int got;

  while (q->n_failed > 0 && n < max)
    done[n++] = &q->failed[--q->n_failed]->io;
  while (q->n_flushes > 0 && n < max)
    done[n++] = &q->flushes[--q->n_flushes]->io;

  /* What the system holds while this reap waits: what it took in
   * flight, less what it had already done in the calls. */
  q->held = q->in_flight - q->in_call;
  /* With failures in hand, only take what is already there. */
  got = drain_port (q, done + n, max - n, n > 0 ? 0 : timeout_ms (timeout_ns));
  if (got < 0)
    return n > 0 ? (int) n : got;
  return (int) n + got;
}

static unsigned
iocp_held (dm_queue *q, unsigned *in_call)
{
  *in_call = q->in_call_new;
  q->in_call_new = 0;
  return q->held;
}

static int
iocp_close (dm_queue *q)
{
  DWORD start;
  dm_io *scratch[64];

  if (q == NULL)
    return 0;
  if (q->in_flight > 0)
    {
      /* The handle is this queue's alone, so this cancels nobody else's
       * I/O; cancelled requests still complete, through the port. */
      CancelIoEx (q->handle, NULL);
      start = GetTickCount ();
      while (q->in_flight > 0 && GetTickCount () - start < DM_IOCP_DRAIN_MS)
        {
          if (drain_port (q, scratch, q->depth < 64 ? q->depth : 64, 100) < 0)
            break;
        }
      if (q->in_flight > 0)
        {
          /* The kernel will still write into these OVERLAPPEDs and the
           * buffers: leaking both is the only safe thing left. */
          CloseHandle (q->handle);
          return 1;
        }
    }
  queue_free (q);
  return 0;
}

static const dm_backend iocp_backend = {
  .name = "iocp",
  .description = "overlapped I/O with one completion port per thread (Windows)",
  .probe = iocp_probe,
  .open = iocp_open,
  .prep = iocp_prep,
  .reap = iocp_reap,
  .held = iocp_held,
  .close = iocp_close,
};

static const dm_backend *const backends[] = { &iocp_backend };

const dm_backend *const *
dm_backends (unsigned *n)
{
  *n = sizeof backends / sizeof backends[0];
  return backends;
}
