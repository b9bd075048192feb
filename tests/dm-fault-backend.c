/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tampering backend: a thin wrapper over the best real backend. The
 * completion counter is shared by all worker queues through an atomic. A
 * withheld completion is dropped after the real I/O finished, so its
 * buffer is free again even though the runner never hears of it.
 */
#include "dm-fault-backend.h"

#include <errno.h>
#include <stdatomic.h>

static dm_fault_config config;
static const dm_backend *real;
static atomic_ullong completions;
static atomic_uint hits;

void
dm_fault_backend_setup (const dm_fault_config *c)
{
  unsigned n;
  const dm_backend *const *list = dm_backends (&n);
  real = NULL;
  for (unsigned i = 0; i < n && !real; i++)
    if (list[i]->probe () == 0)
      real = list[i];
  config = *c;
  atomic_store (&completions, 0);
  atomic_store (&hits, 0);
}

unsigned
dm_fault_backend_hits (void)
{
  return atomic_load (&hits);
}

static int
fault_probe (void)
{
  return real ? 0 : DM_E_NOBACKEND;
}

static int
fault_open (const dm_queue_params *p, dm_queue **q, dm_io **ios)
{
  return real->open (p, q, ios);
}

static int
fault_prep (dm_queue *q, dm_io *io)
{
  return real->prep (q, io);
}

static bool
withheld (uint64_t k)
{
  return config.what == DM_TAMPER_NEVER && config.nth && k >= config.nth
         && (config.count == 0 || k < config.nth + config.count);
}

static int
fault_reap (dm_queue *q, dm_io **done, unsigned max, uint64_t timeout_ns)
{
  uint64_t t0 = dm_clock_ns ();
  int n = real->reap (q, done, max, timeout_ns);
  int kept = 0;
  for (int i = 0; i < n; i++)
    {
      dm_io *io = done[i];
      uint64_t k = atomic_fetch_add (&completions, 1) + 1;
      if (withheld (k))
        {
          atomic_fetch_add (&hits, 1);
          continue;
        }
      done[kept++] = io;
      bool hit = k == config.nth
                 || (config.what == DM_TAMPER_RETRY && k >= config.nth
                     && k < config.nth + config.count);
      if (!hit || io->res != (int32_t) io->len)
        continue;
      atomic_fetch_add (&hits, 1);
      switch (config.what)
        {
        case DM_TAMPER_ERROR: io->res = config.code; break;
        case DM_TAMPER_SHORT:
          /* Half, but the rest really is read: the tampered request is
           * only told it ended early, like a split transfer. */
          io->res = (int32_t) (io->len / 2);
          break;
        case DM_TAMPER_ZERO: io->res = 0; break;
        case DM_TAMPER_RETRY: io->res = -EAGAIN; break;
        case DM_TAMPER_LATE: dm_sleep_ns (config.delay_ns); break;
        case DM_TAMPER_NEVER:
        case DM_TAMPER_NONE: break;
        }
    }
  /* A device with nothing to hand back makes its caller wait; the real
   * queue, which owes nothing any more, would return at once. */
  uint64_t waited = dm_clock_ns () - t0;
  if (n >= 0 && kept == 0 && waited < timeout_ns)
    dm_sleep_ns (timeout_ns - waited);
  return n < 0 ? n : kept;
}

static int
fault_close (dm_queue *q)
{
  return real->close (q);
}

const dm_backend dm_fault_backend = {
  .name = "fault",
  .description = "the real backend with one completion tampered with",
  .probe = fault_probe,
  .open = fault_open,
  .prep = fault_prep,
  .reap = fault_reap,
  .close = fault_close,
};
