/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checks across a command's options that only the whole command line can
 * make, apart from the option table (dm-cli-options.c) so that each file
 * stays one topic: here, which sweep the options ask for.
 */
#include "dm-cli-options-private.h"

#include <errno.h>

#include "dm-i18n.h"

/* Which kind of sweep the options ask for, and that they fit it. */
int
_dm_cli_check_sweep (dm_cli_options *o, char *why, size_t ws)
{
  dm_sweep_plan *p = &o->sweep;
  bool load = o->n_tests || o->n_workloads || o->n_profile_files;
  if (p->kind == DM_SWEEP_BLOCKS && o->rates_given)
    return dm_why (why, ws, _ ("--blocks and --rates are two sweeps: give one"));
  if (load && !o->rates_given)
    return dm_why (why, ws, _ ("--tests, --workload and --profile-file give --rates curve its "
                               "load"));
  if (p->kind == DM_SWEEP_BLOCKS)
    {
      /* One load for every size, as ATTO runs them: its default is QD 4. */
      if ((o->qd_given && p->n_queue_depths != 1) || (o->threads_given && p->n_threads != 1))
        return dm_why (why, ws, _ ("--blocks measures at one load: give --qd and --threads one "
                                   "value each"));
      if (!o->qd_given)
        p->queue_depths[0] = 4;
      if (!o->threads_given)
        p->threads[0] = 1;
      /* ATTO moves sequential transfers of each size; --pattern RND asks
       * for random ones. */
      if (!o->pattern_given)
        p->pattern = DM_SEQ;
      p->n_queue_depths = p->n_threads = 1;
      p->modes = o->mode_given || o->mix ? DM_MODE_BIT (p->mode)
                                         : DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE);
      return 0;
    }
  if (!o->rates_given)
    return 0;
  p->kind = DM_SWEEP_RATES;
  if ((o->n_tests > 0) + (o->n_workloads > 0) + (o->n_profile_files > 0) != 1
      || o->n_workloads > 1 || o->n_profile_files > 1)
    return dm_why (why, ws, _ ("--rates curve needs one load: --tests NAME, one --workload or "
                               "one --profile-file"));
  if (o->qd_given || o->threads_given)
    return dm_why (why, ws, _ ("--rates curve takes its queue depth and threads from its load"));
  if (o->n_tests)
    {
      /* A plain test is a workload row of one size, as the grid runs it. */
      if (dm_sweep_curve_workload_of (&o->tests[0], p->mode, o->settings.mix_read_percent,
                                      &p->workload, why, ws) < 0)
        return -EINVAL;
    }
  else if (o->n_workloads)
    p->workload = o->workloads[0];
  if (o->n_workloads && p->workload.rate_unit != DM_RATE_NONE)
    return dm_why (why, ws, _ ("--rates curve sets the rates itself: the workload has one "
                               "(rate=) already"));
  return 0;
}

