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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-cli-commands.h"
#include "dm-i18n.h"
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sweep.h"
#include "dm-units.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_CANCELLED = 130 };

typedef struct sweep_cli {
  dm_cli_options opt;
  dm_report      report;
  dm_runner     *runner;
  bool           tty;
  double         last_print;
  int            last_len;
} sweep_cli;

static int
usage_error (const char *why)
{
  fprintf (stderr, _ ("diskmeter-cli: %s\nUsage: diskmeter-cli sweep [OPTIONS] TARGET "
                   "(see diskmeter-cli sweep --help)\n"), dm_cli_shown (why));
  return EXIT_USAGE;
}

static void
on_interrupt (void *user)
{
  dm_runner_cancel (user);
}

static void
clear_line (sweep_cli *c)
{
  if (c->last_len)
    fprintf (stderr, "\r%*s\r", c->last_len, "");
  c->last_len = 0;
}

static void
format_time (double seconds, char *buf, size_t size)
{
  long s = (long) (seconds + 0.5);
  if (s >= 3600)
    snprintf (buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    snprintf (buf, size, "%ld:%02ld", s / 60, s % 60);
}

/* Runs on the runner's thread, which is this one. */
static void
on_progress (void *user, const dm_progress *p)
{
  sweep_cli *c = user;
  double now = (double) dm_clock_ns () / 1e9;
  char left[32], line[200];
  if (!c->tty || c->opt.quiet || (now - c->last_print < 0.2 && p->phase != DM_PHASE_DONE))
    return;
  c->last_print = now;
  format_time (p->seconds_left, left, sizeof left);
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    snprintf (line, sizeof line, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
  else
    {
      const dm_result *res = p->result;
      snprintf (line, sizeof line, _ ("Q%-3u T%-2u  %3d/%-3u %-8s %10.2f MB/s  %3.0f%%  %s left"),
                res->spec.queue_depth, res->spec.threads, p->result_index + 1,
                c->report.n_results,
                p->phase == DM_PHASE_WARMUP ? "warm-up" : p->phase == DM_PHASE_INTERVAL
                                                              ? "interval" : "measure",
                res->mb_per_s, p->fraction * 100, left);
    }
  clear_line (c);
  c->last_len = fprintf (stderr, "%s", line);
}

static int
write_output (sweep_cli *c)
{
  dm_buf out;
  int err = 0;
  dm_buf_init (&out);
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_sweep_write_text (&c->report, &c->opt.sweep, &out); break;
    case DM_FORMAT_JSON: dm_sweep_write_json (&c->report, &c->opt.sweep, &out); break;
    case DM_FORMAT_CSV:  dm_sweep_write_csv (&c->report, &out); break;
    }
  err = dm_cli_emit (&out, c->opt.output);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"),
             c->opt.output ? dm_cli_shown (c->opt.output) : "the report", dm_strerror (err));
  dm_buf_free (&out);
  return err;
}

static bool
any_result_ran (const dm_report *r)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].status != DM_STATUS_PENDING)
      return true;
  return false;
}

int
dm_cli_sweep_main (int argc, char **argv)
{
  static sweep_cli c;
  dm_system_info sys;
  char why[400], note[400];
  int status;

  memset (&c, 0, sizeof c);
  if ((status = dm_cli_start (DM_CLI_SWEEP, argc, argv, &c.opt)) >= 0)
    return status;

  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  if (dm_sweep_report_init (&c.report, &c.opt.sweep, &c.opt.settings, sys.logical_cpus,
                            note, sizeof note, why, sizeof why) < 0)
    return usage_error (why);
  dm_report_set_comment (&c.report, c.opt.comment);
  if (note[0])
    fprintf (stderr, _ ("diskmeter-cli: note: %s\n"), note);
  if (!c.opt.quiet)
    {
      char t[32];
      format_time (dm_sweep_estimate_seconds (&c.report), t, sizeof t);
      fprintf (stderr, _ ("diskmeter-cli: sweeping %u combinations, about %s "
                       "plus preparing the test file\n"), c.report.n_results, t);
    }

  c.runner = dm_runner_new (&c.report, c.opt.target);
  if (!c.runner)
    {
      fprintf (stderr, _ ("diskmeter-cli: out of memory\n"));
      dm_report_clear (&c.report);
      return EXIT_FAILED;
    }
  c.tty = isatty (STDERR_FILENO);
  dm_runner_set_progress (c.runner, on_progress, &c);
  dm_interrupt_install (on_interrupt, c.runner);

  int err = dm_runner_run (c.runner);
  clear_line (&c);
  if (c.report.warning[0])
    fprintf (stderr, _ ("diskmeter-cli: warning: %s\n"), dm_cli_shown (c.report.warning));

  status = err == -ECANCELED ? EXIT_CANCELLED : err < 0 ? EXIT_FAILED : EXIT_DONE;
  if (status == EXIT_FAILED)
    fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (c.report.error));
  else if (status == EXIT_CANCELLED)
    fprintf (stderr, _ ("diskmeter-cli: cancelled; kept the combinations already measured, "
                     "the test file was removed\n"));

  if (c.opt.output || any_result_ran (&c.report))
    if (write_output (&c) < 0 && status == EXIT_DONE)
      status = EXIT_FAILED;

  dm_runner_free (c.runner);
  dm_report_clear (&c.report);
  return status;
}
