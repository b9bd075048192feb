/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Interleaved runs of two targets on top of the runner's steps.
 */
#include "dm-interleave.h"

#include <errno.h>

unsigned
dm_interleave_order (dm_runner *a, dm_runner *b, unsigned *which, unsigned *index, unsigned max)
{
  dm_runner *both[2] = { a, b };
  unsigned n = 0, results = dm_runner_get_report (a)->n_results;
  if (dm_runner_get_report (b)->n_results > results)
    results = dm_runner_get_report (b)->n_results;
  for (unsigned i = 0; i < results; i++)
    for (unsigned k = 0; k < 2 && n < max; k++)
      if (dm_runner_selected (both[k], i))
        {
          which[n] = k;
          index[n] = i;
          n++;
        }
  return n;
}

int
dm_interleave_run (dm_runner *a, dm_runner *b)
{
  dm_runner *both[2] = { a, b };
  unsigned which[2 * 256], index[2 * 256];
  unsigned n = dm_interleave_order (a, b, which, index, 2 * 256);
  int err = dm_runner_prepare (a);
  int err_b = err ? 0 : dm_runner_prepare (b);
  if (!err)
    err = err_b;

  /* Each test rests the interval after the previous one, whichever
   * target that was on: the disks under A and B may be the same array. */
  for (unsigned k = 0; !err && k < n; k++)
    err = dm_runner_run_result (both[which[k]], index[k], k > 0);

  int ea = dm_runner_finish (a, err);
  int eb = dm_runner_finish (b, err_b ? err_b : err);
  return ea ? ea : eb;
}
