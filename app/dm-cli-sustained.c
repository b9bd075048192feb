/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli sustained: one pattern written (or read) once through a
 * test file as large as the span, for up to the duration, with the rate
 * over time and the cliff where a write cache runs out. The span "free"
 * takes all free space but a margin, so the filesystem never fills; the
 * test file is unlinked from creation on, so no exit path leaves it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sustained.h"
#include "dm-reason.h"
#include "dm-text.h"
#include "dm-units.h"

/* The span to run, by the engine's rule (the window's too). */
static int
resolve_span (dm_cli_job *c, uint64_t *span, char *why, size_t ws)
{
  dm_target_info t;
  char a[32], m[32];
  int err = dm_target_probe (c->opt.target, &t);
  if (err == -ENOENT)
    return dm_text_say (why, ws, c->opt.target, "%s does not exist", c->opt.target), err;
  if (err < 0)
    return dm_text_say (why, ws, c->opt.target, "cannot use %s: %s", c->opt.target,
                        dm_strerror (err)), err;

  err = dm_sustained_resolve_span (&t, c->opt.sustained.mode,
                                   !c->opt.span_given ? DM_SUSTAINED_SPAN_DEFAULT
                                   : c->opt.span_free ? DM_SUSTAINED_SPAN_FREE
                                                      : DM_SUSTAINED_SPAN_SIZE,
                                   c->opt.sustained.span, span);
  /* A device holds someone's data: the sustained test only reads it. */
  if (err == -EPERM)
    return dm_text_say (why, ws, c->opt.target,
                        "the sustained test writes only into a test file in a "
                        "folder; --mode read measures the device %s",
                        c->opt.target), err;
  dm_size_human (t.free_bytes, a, sizeof a);
  dm_size_human (dm_sustained_margin (t.size_bytes), m, sizeof m);
  if (err == -ENOSPC)
    return dm_text_say (why, ws, c->opt.target,
                        "not enough free space in %s: %s free, and %s of it stays free",
                        c->opt.target, a, m), err;
  return 0;
}

/* Reading or writing, the time into the pass, the last sample's rate. */
static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  int left = (int) (p->seconds_left + 0.5);
  (void) c;
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    snprintf (line, size, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
  else if (p->phase == DM_PHASE_MEASURE)
    {
      const dm_result *res = p->result;
      snprintf (line, size, _ ("%s %7.1f s %10.2f MB/s  %d:%02d left"),
                res->mode == DM_MODE_READ ? "Reading" : "Writing", p->sample.t,
                p->sample.all.mb_per_s, left / 60, left % 60);
    }
  else
    return false;
  return true;
}

static int
write_sustained (const dm_cli_job *c, dm_buf *out)
{
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_sustained_write_text (&c->report, out); break;
    case DM_FORMAT_JSON: dm_sustained_write_json (&c->report, out); break;
    case DM_FORMAT_CSV:  dm_report_write_samples_csv (&c->report, out); break;
    }
  return 0;
}

int
dm_cli_sustained_main (int argc, char **argv)
{
  static dm_cli_job c;
  char why[400];
  uint64_t span;
  int status;

  memset (&c, 0, sizeof c);
  if ((status = dm_cli_start (DM_CLI_SUSTAINED, argc, argv, &c.opt)) >= 0)
    return status;
  int err = resolve_span (&c, &span, why, sizeof why);
  if (err < 0)
    {
      char shown[sizeof why + 512];
      fprintf (stderr, "diskmeter-cli: %s\n",
               dm_cli_shown (dm_reason_shown (why, shown, sizeof shown)));
      return DM_CLI_EXIT_FAILED;
    }
  if (dm_sustained_report_init (&c.report, &c.opt.sustained, span, &c.opt.settings, why,
                                sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_SUSTAINED, why);
  dm_report_set_comment (&c.report, c.opt.comment);
  dm_report_set_tags (&c.report, c.opt.tags, c.opt.n_tags);

  c.line = progress_line;
  if (dm_cli_job_begin (&c) < 0)
    return DM_CLI_EXIT_FAILED;
  dm_runner_set_pass (c.runner, c.opt.sustained.mode == DM_MODE_READ);
  if (!c.opt.quiet)
    {
      char s[32];
      dm_size_human (span, s, sizeof s);
      fprintf (stderr, _ ("diskmeter-cli: sustained %s over %s, up to %g s\n"),
               dm_mode_name (c.opt.sustained.mode), s, c.opt.sustained.duration_s);
    }

  err = dm_runner_run (c.runner);
  status = dm_cli_job_end (&c, err, _ ("diskmeter-cli: cancelled; kept the samples so far, the "
                                       "test file was removed\n"));
  status = dm_cli_job_write (&c, write_sustained, status);
  dm_cli_job_clear (&c);
  return status;
}
