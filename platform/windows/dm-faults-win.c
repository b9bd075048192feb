/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Test-only fault injection for the test file's operations on Windows, the
 * same contract as on Linux: the nth next call of an operation fails with
 * the armed code. Production code pays one relaxed load per file operation
 * and none per measured I/O.
 */
#include "dm-win-private.h"

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

  while (n > 0)
    {
      int code;

      if (!atomic_compare_exchange_weak (&countdown[point], &n, n - 1))
        continue;
      if (n > 1)
        return 0;
      code = atomic_load (&codes[point]);
      return code != 0 ? code : -EIO;
    }
  return 0;
}
