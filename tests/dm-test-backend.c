/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The in-memory test backend. Queues belong to one worker thread each, as
 * with real backends; the shared record buffer is filled through an atomic
 * index so workers never wait for each other.
 */
#include "dm-test-backend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dm_queue {
  dm_io   *ios;
  dm_io  **staged;
  unsigned n_staged;
  unsigned depth;
  unsigned inflight;
  uint8_t  id;
  bool     started;  /* slice_ns: the first slice is known */
  uint64_t slice;    /* the first slice of the clock this queue saw */
  uint64_t served;   /* I/Os completed since */
  unsigned flushing; /* flushes in flight */
  uint64_t *prepped; /* per slot: dm_clock_ns() when it was last prepped */
  dm_histogram *truth; /* its served I/Os' times from prep to completion */
};

static dm_test_backend_config config;
static dm_test_record *records;
static uint64_t *completed_at;
static uint64_t cap;
static atomic_ullong n_records;
static atomic_ullong n_ios;
static atomic_uint n_queues;
static atomic_ullong closed_at;
static dm_test_record cut;  /* written by the one reap that cuts, read after the run */
static atomic_bool have_cut;
static atomic_ullong n_flushes;
static atomic_ullong n_beside_flush;
static atomic_ullong served_ios[2];
static atomic_ullong served_busy[2];
static atomic_ullong first_prep;
static atomic_ullong last_done;
static dm_histogram truth_all;  /* the closed queues' truth, merged */
static atomic_flag truth_busy = ATOMIC_FLAG_INIT;

void
dm_test_backend_reset (const dm_test_backend_config *c, uint64_t capacity)
{
  static const dm_test_backend_config none;
  config = c ? *c : none;
  free (records);
  free (completed_at);
  records = capacity ? calloc (capacity, sizeof *records) : NULL;
  completed_at = capacity ? calloc (capacity, sizeof *completed_at) : NULL;
  if (!records || !completed_at)
    {
      free (records);
      free (completed_at);
      records = NULL;
      completed_at = NULL;
    }
  cap = records ? capacity : 0;
  atomic_store (&n_records, 0);
  atomic_store (&n_ios, 0);
  atomic_store (&n_queues, 0);
  atomic_store (&closed_at, 0);
  atomic_store (&have_cut, false);
  atomic_store (&n_flushes, 0);
  atomic_store (&n_beside_flush, 0);
  for (unsigned i = 0; i < 2; i++)
    {
      atomic_store (&served_ios[i], 0);
      atomic_store (&served_busy[i], 0);
    }
  atomic_store (&first_prep, 0);
  atomic_store (&last_done, 0);
  dm_histogram_reset (&truth_all);
}

const dm_histogram *
dm_test_backend_truth (void)
{
  return &truth_all;
}

void
dm_test_backend_served (dm_test_served *out)
{
  for (unsigned i = 0; i < 2; i++)
    {
      out->ios[i] = atomic_load (&served_ios[i]);
      out->busy_ns[i] = atomic_load (&served_busy[i]);
    }
  out->first_prep = atomic_load (&first_prep);
  out->last_done = atomic_load (&last_done);
}

uint64_t
dm_test_backend_flushes (void)
{
  return atomic_load (&n_flushes);
}

uint64_t
dm_test_backend_beside_flush (void)
{
  return atomic_load (&n_beside_flush);
}

dm_test_record *
dm_test_backend_records (uint64_t *n)
{
  uint64_t got = atomic_load (&n_records);
  *n = got < cap ? got : cap;
  return records;
}

uint64_t
dm_test_backend_ios (void)
{
  return atomic_load (&n_ios);
}

const uint64_t *
dm_test_backend_completed_at (uint64_t *n)
{
  uint64_t got = atomic_load (&n_ios);
  *n = got < cap ? got : cap;
  return completed_at;
}

uint64_t
dm_test_backend_closed_at (void)
{
  return atomic_load (&closed_at);
}

bool
dm_test_backend_cut (dm_test_record *out)
{
  if (!atomic_load (&have_cut))
    return false;
  *out = cut;
  return true;
}

static int
test_probe (void)
{
  return 0;
}

static int
test_open (const dm_queue_params *p, dm_queue **out, dm_io **ios)
{
  if (config.open_error)
    return config.open_error;
  dm_queue *q = calloc (1, sizeof *q);
  if (!q)
    return -ENOMEM;
  q->ios = calloc (p->depth, sizeof *q->ios);
  q->staged = calloc (p->depth, sizeof *q->staged);
  q->prepped = calloc (p->depth, sizeof *q->prepped);
  q->truth = malloc (sizeof *q->truth);
  if (!q->ios || !q->staged || !q->prepped || !q->truth)
    {
      free (q->ios);
      free (q->staged);
      free (q->prepped);
      free (q->truth);
      free (q);
      return -ENOMEM;
    }
  dm_histogram_reset (q->truth);
  q->depth = p->depth;
  q->id = (uint8_t) atomic_fetch_add (&n_queues, 1);
  for (unsigned i = 0; i < p->depth; i++)
    {
      q->ios[i].slot = (uint16_t) i;
      q->ios[i].buf = (char *) p->buf_base + (size_t) i * p->buf_size;
      ios[i] = &q->ios[i];
    }
  *out = q;
  return 0;
}

static int
test_prep (dm_queue *q, dm_io *io)
{
  uint64_t k = atomic_fetch_add (&n_records, 1);
  if (k < cap)
    records[k] = (dm_test_record) { io->offset, io->len, io->write, q->id,
                                    io->write ? *(uint64_t *) io->buf : 0, io->buf };
  if (io->write == DM_IO_FLUSH)
    {
      atomic_fetch_add (&n_flushes, 1);
      if (q->inflight)
        atomic_fetch_add (&n_beside_flush, 1);
      q->flushing++;
    }
  else if (q->flushing)
    atomic_fetch_add (&n_beside_flush, 1);
  uint64_t now = dm_clock_ns (), none = 0;
  q->prepped[io->slot] = now;
  atomic_compare_exchange_strong (&first_prep, &none, now);
  q->staged[q->n_staged++] = io;
  q->inflight++;
  return 0;
}

static inline uint64_t
due_at (const dm_queue *q, const dm_io *io)
{
  return q->prepped[io->slot] + config.service_ns[io->slot % 2];
}

static int
test_reap (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns)
{
  if (config.hang || !q->n_staged)
    {
      dm_sleep_ns (timeout_ns);
      return 0;
    }
  if (config.latency_ns || config.wobble_ns)
    {
      uint64_t wait = config.latency_ns;
      if (config.wobble_period_ns && (dm_clock_ns () / config.wobble_period_ns) % 2)
        wait += config.wobble_ns;
      dm_sleep_ns (wait);
    }
  unsigned n = q->n_staged < max ? q->n_staged : max;
  uint64_t now = dm_clock_ns ();
  bool own = config.service_ns[0] || config.service_ns[1];
  if (own)
    {
      /* Each I/O is done at its own due time: wait for the first, then
       * hand back every one due by the time the wait ended. */
      uint64_t first = UINT64_MAX;
      for (unsigned i = 0; i < q->n_staged; i++)
        if (due_at (q, q->staged[i]) < first)
          first = due_at (q, q->staged[i]);
      if (first > now)
        {
          dm_sleep_ns (first - now < timeout_ns ? first - now : timeout_ns);
          now = dm_clock_ns ();
        }
      unsigned kept = 0;
      n = 0;
      for (unsigned i = 0; i < q->n_staged; i++)
        if (n < max && due_at (q, q->staged[i]) <= now)
          done[n++] = q->staged[i];
        else
          q->staged[kept++] = q->staged[i];
      q->n_staged = kept;
    }
  else if (config.slice_ns)
    {
      /* A throttle: slice_ios of the queued I/Os are done at the start of
       * each slice of the clock, whether or not the caller reaps them
       * then (a late reap finds them all); a slice with the queue empty
       * is lost, not banked. */
      uint64_t slice = now / config.slice_ns;
      if (!q->started)
        {
          q->started = true;
          q->slice = slice;
        }
      uint64_t due = (slice - q->slice + 1) * config.slice_ios;
      if (due > q->served + q->n_staged)
        q->served = due - q->n_staged;
      if (due == q->served)
        {
          uint64_t next = (slice + 1) * config.slice_ns;
          dm_sleep_ns (next - now < timeout_ns ? next - now : timeout_ns);
          return 0;
        }
      if (n > due - q->served)
        n = (unsigned) (due - q->served);
      q->served += n;
    }
  for (unsigned i = 0; i < n; i++)
    {
      dm_io *io = own ? done[i] : q->staged[i];
      uint64_t k = atomic_fetch_add (&n_ios, 1) + 1;
      atomic_fetch_add (&served_ios[io->slot % 2], 1);
      atomic_fetch_add (&served_busy[io->slot % 2], now - q->prepped[io->slot]);
      dm_histogram_add (q->truth, now - q->prepped[io->slot], 1);
      if (k <= cap)
        completed_at[k - 1] = now;
      io->res = (int32_t) io->len;
      if (io->write == DM_IO_FLUSH)
        q->flushing--;
      if (config.fail_after && k == config.fail_after)
        {
          io->res = config.short_io ? (int32_t) (io->len / 2) : config.zero_io ? 0 : config.fail_code;
          if (config.short_io)
            {
              cut = (dm_test_record) { io->offset, io->len, io->write, q->id, 0, io->buf };
              atomic_store (&have_cut, true);
            }
        }
      done[i] = io;
    }
  if (!own)
    {
      memmove (q->staged, q->staged + n, (q->n_staged - n) * sizeof *q->staged);
      q->n_staged -= n;
    }
  q->inflight -= n;
  uint64_t last = atomic_load (&last_done);
  while (n && last < now && !atomic_compare_exchange_weak (&last_done, &last, now))
    ;
  return (int) n;
}

static int
test_close (dm_queue *q)
{
  atomic_store (&closed_at, dm_clock_ns ());
  free (q->ios);
  free (q->staged);
  while (atomic_flag_test_and_set (&truth_busy))
    ;
  dm_histogram_merge (&truth_all, q->truth);
  atomic_flag_clear (&truth_busy);
  free (q->prepped);
  free (q->truth);
  free (q);
  return 0;
}

const dm_backend dm_test_backend = {
  .name = "test",
  .description = "in-memory backend for tests",
  .probe = test_probe,
  .open = test_open,
  .prep = test_prep,
  .reap = test_reap,
  .close = test_close,
};
