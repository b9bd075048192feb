/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Test-only fault injection for the file operations of the platform layer,
 * the same on every OS: the nth next call of an operation fails with the
 * armed code. The counters are atomics so a test may arm a fault while
 * another thread runs; production code pays one relaxed load per file
 * operation, none per measured I/O.
 */
#include "dm-faults-private.h"

#include <errno.h>
#include <stdatomic.h>

static atomic_uint countdown[DM_N_FAULTS];
static atomic_int codes[DM_N_FAULTS];

void
dm_fault_inject (dm_fault_point point, int code, unsigned nth)
{
  if ((unsigned) point >= DM_N_FAULTS)
    return;
  atomic_store (&codes[point], code);
  atomic_store (&countdown[point], nth);
}

int
_dm_fault_check (dm_fault_point point)
{
  unsigned n = atomic_load_explicit (&countdown[point], memory_order_relaxed);
  while (n)
    {
      if (!atomic_compare_exchange_weak (&countdown[point], &n, n - 1))
        continue;
      if (n > 1)
        return 0;
      int code = atomic_load (&codes[point]);
      return code ? code : -EIO;
    }
  return 0;
}
