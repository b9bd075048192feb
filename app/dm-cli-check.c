/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checks across a command's options that only the whole command line can
 * make, apart from the option table (dm-cli-options.c) so that each file
 * stays one topic: here, which sweep the options ask for, and what a
 * headroom run goes with.
 */
#include "dm-cli-options-private.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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


int
_dm_cli_parse_headroom_p99 (dm_cli_options *o, const char *text, char *why, size_t ws)
{
  char inner[200];
  if (dm_sweep_bound_parse (text, &o->headroom_p99_us, inner, sizeof inner) < 0)
    {
      /* The sweep's parser names its own option; this one is ours. */
      const char *colon = strchr (inner, ':');
      return dm_why (why, ws, _ ("--headroom-p99:%s"), colon ? colon + 1 : inner);
    }
  return 0;
}

int
_dm_cli_check_headroom (dm_cli_options *o, char *why, size_t ws)
{
  if (!o->headroom)
    return o->headroom_p99_us > 0 ? dm_why (why, ws, _ ("--headroom-p99 goes with --headroom"))
                                  : 0;
  if (o->n_profile_files != 1 || o->n_workloads)
    return dm_why (why, ws, _ ("--headroom runs the workload rows of one --profile-file (a "
                               "capture's, with rate=), and no --workload"));
  if (o->compare_with || o->n_concurrent || o->start_at)
    return dm_why (why, ws, _ ("--headroom measures one target on its own: --compare-with, "
                               "--concurrent and --start-at do not go with it"));
  if (o->samples || o->latency || o->n_thresholds)
    return dm_why (why, ws, _ ("--headroom prints its own rows: --samples, --latency and "
                               "--threshold do not go with it"));
  /* Eight runs per workload: the sweep's 1 x 3 s each, not the grid's
   * 5 x 5 s, unless the user gave them. */
  if (!o->count_given)
    o->settings.count = 1;
  if (!o->duration_given)
    o->settings.measure_s = 3;
  if (!o->warmup_given)
    o->settings.warmup_s = 2;
  if (!o->interval_given)
    o->settings.interval_s = 0;
  return 0;
}
