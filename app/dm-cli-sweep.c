/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli sweep: one pattern at every queue depth x thread count
 * combination, run by the same engine as the grid, then the tables, the
 * knee and the best load under a latency bound. Its options are rows of the
 * one option table, those it shares with a plain run the same rows, so
 * they mean and refuse the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sweep.h"
#include "dm-units.h"

/* The combination, its phase and the time left. */
static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  char left[32];
  dm_cli_format_time (p->seconds_left, left, sizeof left);
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    snprintf (line, size, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
  else
    {
      const dm_result *res = p->result;
      const char *phase = p->phase == DM_PHASE_WARMUP ? "warm-up"
                          : p->phase == DM_PHASE_INTERVAL ? "interval" : "measure";
      char what[32];
      if (c->opt.sweep.kind == DM_SWEEP_BLOCKS)
        {
          char bs[16];
          dm_block_short (res->spec.block_size, bs, sizeof bs);
          snprintf (what, sizeof what, "%-5s %-5s", bs, dm_mode_title (res->mode));
        }
      else if (c->opt.sweep.kind == DM_SWEEP_RATES)
        {
          if (res->workload.rate_unit == DM_RATE_NONE)
            snprintf (what, sizeof what, "%-11s", "max");
          else
            snprintf (what, sizeof what, "%3u%% %6.0f", dm_sweep_curve_percent[p->result_index - 1],
                      res->workload.rate);
        }
      else
        snprintf (what, sizeof what, "Q%-3u T%-2u", res->spec.queue_depth, res->spec.threads);
      snprintf (line, size, _ ("%s  %3d/%-3u %-8s %10.2f MB/s %9.0f IOPS  %3.0f%%  %s left"),
                what, p->result_index + 1, c->report.n_results, phase, res->mb_per_s, res->iops,
                p->fraction * 100, left);
    }
  return true;
}

static int
write_sweep (const dm_cli_job *c, dm_buf *out)
{
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_sweep_write_text (&c->report, &c->opt.sweep, out); break;
    case DM_FORMAT_JSON: dm_sweep_write_json (&c->report, &c->opt.sweep, out); break;
    case DM_FORMAT_CSV:  dm_sweep_write_csv (&c->report, out); break;
    }
  return 0;
}

int
dm_cli_sweep_main (int argc, char **argv)
{
  static dm_cli_job c;
  dm_system_info sys;
  char why[400], note[400];
  int status;

  memset (&c, 0, sizeof c);
  if ((status = dm_cli_start (DM_CLI_SWEEP, argc, argv, &c.opt)) >= 0)
    return status;

  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  note[0] = '\0';
  dm_sweep_plan *plan = &c.opt.sweep;
  if (plan->kind == DM_SWEEP_RATES && c.opt.n_profile_files)
    {
      if (dm_cli_load_profile_files (&c.opt, why, sizeof why) < 0)
        return dm_cli_usage_error (DM_CLI_SWEEP, why);
      if (c.opt.n_workloads != 1)
        return dm_cli_usage_error (DM_CLI_SWEEP, _ ("--profile-file: a rate curve needs a file "
                                                    "with one workload row"));
      plan->workload = c.opt.workloads[0];
    }
  if (plan->kind == DM_SWEEP_BLOCKS
        ? dm_sweep_blocks_report_init (&c.report, plan, &c.opt.settings, why, sizeof why) < 0
      : plan->kind == DM_SWEEP_RATES
        ? dm_sweep_curve_report_init (&c.report, plan, &c.opt.settings, why, sizeof why) < 0
        : dm_sweep_report_init (&c.report, plan, &c.opt.settings, sys.logical_cpus,
                                note, sizeof note, why, sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_SWEEP, why);
  dm_report_set_comment (&c.report, c.opt.comment);
  dm_report_set_tags (&c.report, c.opt.tags, c.opt.n_tags);
  if (note[0])
    fprintf (stderr, _ ("diskmeter-cli: note: %s\n"), note);
  if (!c.opt.quiet)
    {
      char t[32];
      dm_cli_format_time (dm_sweep_estimate_seconds (&c.report), t, sizeof t);
      fprintf (stderr, _ ("diskmeter-cli: sweeping %u %s, about %s plus preparing the test "
                          "file\n"), c.report.n_results,
               plan->kind == DM_SWEEP_BLOCKS ? _ ("block sizes and modes")
               : plan->kind == DM_SWEEP_RATES ? _ ("points of the rate curve")
                                              : _ ("combinations"), t);
    }

  c.line = progress_line;
  if (dm_cli_job_begin (&c) < 0)
    return DM_CLI_EXIT_FAILED;

  int err = dm_sweep_run (c.runner, &c.report);
  status = dm_cli_job_end (&c, err, _ ("diskmeter-cli: cancelled; kept the combinations already "
                                       "measured, the test file was removed\n"));
  status = dm_cli_job_write (&c, write_sweep, status);
  dm_cli_job_clear (&c);
  return status;
}
