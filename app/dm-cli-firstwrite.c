/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli first-write: for each test, the blocks of a new test file
 * that nothing has written, then the same blocks again, and the penalty of
 * the first write. The engine runs it (dm-firstwrite.h); the test file is
 * unlinked from creation on, so no exit path, Ctrl-C included, leaves it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-firstwrite.h"
#include "dm-i18n.h"
#include "dm-reason.h"
#include "dm-text.h"
#include "dm-units.h"

/* Which pass of which test, the time into it and its last sample. */
static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  char name[32];
  (void) c;
  if (p->phase != DM_PHASE_MEASURE || !p->result || p->result_index < 0)
    return false;
  dm_spec_name (&p->result->spec, name, sizeof name);
  snprintf (line, size, p->result_index % 2 ? _ ("%s rewrite %7.1f s %10.2f MB/s")
                                            : _ ("%s first write %7.1f s %10.2f MB/s"),
            name, p->sample.t, p->sample.all.mb_per_s);
  return true;
}

static int
write_firstwrite (const dm_cli_job *c, dm_buf *out)
{
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_firstwrite_write_text (&c->report, out); break;
    case DM_FORMAT_JSON: dm_firstwrite_write_json (&c->report, out); break;
    case DM_FORMAT_CSV:  dm_firstwrite_write_csv (&c->report, out); break;
    }
  return 0;
}

/* A device is written from its start by every test: a second test's
 * first pass would meet the blocks the first test wrote. So a device
 * gets one test, the first of the default ones unless --tests gave one. */
static int
fit_target (dm_cli_job *c, bool tests_given, char *why, size_t ws)
{
  dm_target_info t;
  if (dm_target_probe (c->opt.target, &t) < 0 || !t.is_block_device)
    return 0; /* a folder; or the engine says why not, as for every run */
  if (c->opt.firstwrite.n_tests > 1 && tests_given)
    return dm_text_say (why, ws, c->opt.target,
                        "on a device every test writes the same blocks from its start: give "
                        "one test with --tests for %s", c->opt.target), -EINVAL;
  c->opt.firstwrite.n_tests = 1;
  return 0;
}

int
dm_cli_firstwrite_main (int argc, char **argv)
{
  static dm_cli_job c;
  char why[400];
  int status, err;

  memset (&c, 0, sizeof c);
  if ((status = dm_cli_start (DM_CLI_FIRSTWRITE, argc, argv, &c.opt)) >= 0)
    return status;
  if (fit_target (&c, c.opt.n_tests > 0, why, sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_FIRSTWRITE, why);
  if (dm_firstwrite_report_init (&c.report, &c.opt.firstwrite, &c.opt.settings, why,
                                 sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_FIRSTWRITE, why);
  dm_report_set_comment (&c.report, c.opt.comment);
  dm_report_set_tags (&c.report, c.opt.tags, c.opt.n_tags);

  c.line = progress_line;
  if (dm_cli_job_begin (&c) < 0)
    return DM_CLI_EXIT_FAILED;
  if (!c.opt.quiet)
    {
      char s[32];
      dm_size_human (c.opt.firstwrite.size, s, sizeof s);
      fprintf (stderr, _ ("diskmeter-cli: first write against rewrite, %u test(s) over %s, "
                          "each pass up to %g s\n"),
               c.opt.firstwrite.n_tests, s, c.opt.firstwrite.duration_s);
    }

  err = dm_firstwrite_run (c.runner);
  status = dm_cli_job_end (&c, err, _ ("diskmeter-cli: cancelled; kept the passes finished, "
                                       "the test file was removed\n"));
  status = dm_cli_job_write (&c, write_firstwrite, status);
  dm_cli_job_clear (&c);
  return status;
}
