/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli --headroom: the rows of a profile file (a capture's) at
 * their own rate, then unbounded, then at the rate curve's shares of that
 * maximum, and the sentence that says how far the disk is from the load.
 * The engine plans, runs and writes it (dm-headroom.h); this file is the
 * command's progress line and output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-headroom.h"
#include "dm-i18n.h"
#include "dm-sweep.h"

/* The workload, the point and the time left. */
static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  char left[32], what[48];
  dm_cli_format_time (p->seconds_left, left, sizeof left);
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    {
      snprintf (line, size, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
      return true;
    }
  const dm_result *res = p->result;
  unsigned j = (unsigned) p->result_index % DM_HEADROOM_ROWS;
  const char *phase = p->phase == DM_PHASE_WARMUP ? "warm-up"
                      : p->phase == DM_PHASE_INTERVAL ? "interval" : "measure";
  if (j == 0)
    snprintf (what, sizeof what, "%.16s %-8s", res->workload.name, "captured");
  else if (j == 1)
    snprintf (what, sizeof what, "%.16s %-8s", res->workload.name, "max");
  else
    snprintf (what, sizeof what, "%.16s %3u%% %3s", res->workload.name,
              dm_headroom_percent ((unsigned) p->result_index), "");
  snprintf (line, size, _ ("%s  %3d/%-3u %-8s %9.0f IOPS  %3.0f%%  %s left"), what,
            p->result_index + 1, c->report.n_results, phase, res->iops, p->fraction * 100, left);
  return true;
}

static int
write_headroom (const dm_cli_job *c, dm_buf *out)
{
  double bound = c->opt.headroom_p99_us;
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_headroom_write_text (&c->report, bound, true, out); break;
    case DM_FORMAT_JSON: dm_headroom_write_json (&c->report, bound, out); break;
    case DM_FORMAT_CSV:  dm_headroom_write_csv (&c->report, bound, out); break;
    }
  return 0;
}

int
dm_cli_headroom_main (struct dm_cli_job *c)
{
  char why[600];
  int status;

  /* The rows are read here, after the options: a file without rate= is
   * refused before the test file is made. */
  if (dm_cli_load_profile_files (&c->opt, why, sizeof why) < 0
      || dm_headroom_report_init (&c->report, c->opt.workloads, c->opt.n_workloads,
                                  &c->opt.settings, why, sizeof why) < 0)
    {
      for (char *p = why; *p; p++)
        if ((unsigned char) *p < 0x20 || *p == 0x7f)
          *p = '?';
      dm_report_clear (&c->report);
      fprintf (stderr, "diskmeter-cli: %s\n", why);
      return DM_CLI_EXIT_USAGE;
    }
  dm_report_set_comment (&c->report, c->opt.comment);
  dm_report_set_tags (&c->report, c->opt.tags, c->opt.n_tags);
  if (!c->opt.quiet)
    {
      char t[32];
      dm_cli_format_time (dm_sweep_estimate_seconds (&c->report), t, sizeof t);
      fprintf (stderr, _ ("diskmeter-cli: headroom of %u workload rows, %u runs, about %s plus "
                          "preparing the test file\n"),
               dm_headroom_count (&c->report), c->report.n_results, t);
    }
  c->line = progress_line;
  if (dm_cli_job_begin (c) < 0)
    return DM_CLI_EXIT_FAILED;
  int err = dm_headroom_run (c->runner, &c->report);
  status = dm_cli_job_end (c, err, _ ("diskmeter-cli: cancelled; kept the rates already "
                                      "measured, the test file was removed\n"));
  status = dm_cli_job_write (c, write_headroom, status);
  dm_cli_job_clear (c);
  return status;
}
