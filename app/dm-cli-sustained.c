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
#include <unistd.h>

#include "dm-cli-commands.h"
#include "dm-i18n.h"
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sustained.h"
#include "dm-text.h"
#include "dm-units.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_CANCELLED = 130 };

typedef struct sustained_cli {
  dm_cli_options opt;
  dm_report      report;
  dm_runner     *runner;
  bool           tty;
  double         last_print;
  double         last_sample_t;
  int            last_len;
} sustained_cli;

static int
usage_error (const char *why)
{
  fprintf (stderr, _ ("diskmeter-cli: %s\nUsage: diskmeter-cli sustained [OPTIONS] TARGET "
                   "(see diskmeter-cli sustained --help)\n"), dm_cli_shown (why));
  return EXIT_USAGE;
}

/* The span to run, by the engine's rule (the window's too). */
static int
resolve_span (sustained_cli *c, uint64_t *span, char *why, size_t ws)
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

static void
on_interrupt (void *user)
{
  dm_runner_cancel (user);
}

static void
clear_line (sustained_cli *c)
{
  if (c->last_len)
    fprintf (stderr, "\r%*s\r", c->last_len, "");
  c->last_len = 0;
}

/* Runs on the runner's thread, which is this one. */
static void
on_progress (void *user, const dm_progress *p)
{
  sustained_cli *c = user;
  double now = (double) dm_clock_ns () / 1e9;
  char line[200];
  int left = (int) (p->seconds_left + 0.5);

  /* --progress: one line per sample, as it closes, for scripts. */
  if (c->opt.progress && p->phase == DM_PHASE_MEASURE && p->sample.t > c->last_sample_t)
    {
      c->last_sample_t = p->sample.t;
      clear_line (c);
      fprintf (stderr, "sample t=%.2f s %.2f MB/s %.0f IOPS\n", p->sample.t,
               p->sample.all.mb_per_s, p->sample.all.iops);
      fflush (stderr);
    }
  if (!c->tty || c->opt.quiet || (now - c->last_print < 0.2 && p->phase != DM_PHASE_DONE))
    return;
  c->last_print = now;
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    snprintf (line, sizeof line, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
  else if (p->phase == DM_PHASE_MEASURE)
    {
      const dm_result *res = p->result;
      snprintf (line, sizeof line, _ ("%s %7.1f s %10.2f MB/s  %d:%02d left"),
                res->mode == DM_MODE_READ ? "Reading" : "Writing", p->sample.t,
                p->sample.all.mb_per_s, left / 60, left % 60);
    }
  else
    return;
  clear_line (c);
  c->last_len = fprintf (stderr, "%s", line);
}

static int
write_output (sustained_cli *c)
{
  dm_buf out;
  int err = 0;
  dm_buf_init (&out);
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_sustained_write_text (&c->report, &out); break;
    case DM_FORMAT_JSON: dm_sustained_write_json (&c->report, &out); break;
    case DM_FORMAT_CSV:  dm_report_write_samples_csv (&c->report, &out); break;
    }
  err = dm_cli_emit (&out, c->opt.output);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"),
             c->opt.output ? dm_cli_shown (c->opt.output) : "the report", dm_strerror (err));
  dm_buf_free (&out);
  return err;
}

int
dm_cli_sustained_main (int argc, char **argv)
{
  static sustained_cli c;
  char why[400];
  uint64_t span;
  int status;

  memset (&c, 0, sizeof c);
  if ((status = dm_cli_start (DM_CLI_SUSTAINED, argc, argv, &c.opt)) >= 0)
    return status;
  int err = resolve_span (&c, &span, why, sizeof why);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (why));
      return EXIT_FAILED;
    }
  if (dm_sustained_report_init (&c.report, &c.opt.sustained, span, &c.opt.settings, why,
                                sizeof why) < 0)
    return usage_error (why);
  dm_report_set_comment (&c.report, c.opt.comment);

  c.runner = dm_runner_new (&c.report, c.opt.target);
  if (!c.runner)
    {
      fprintf (stderr, _ ("diskmeter-cli: out of memory\n"));
      dm_report_clear (&c.report);
      return EXIT_FAILED;
    }
  dm_runner_set_pass (c.runner, c.opt.sustained.mode == DM_MODE_READ);
  c.tty = isatty (STDERR_FILENO);
  dm_runner_set_progress (c.runner, on_progress, &c);
  dm_interrupt_install (on_interrupt, c.runner);
  if (!c.opt.quiet)
    {
      char s[32];
      dm_size_human (span, s, sizeof s);
      fprintf (stderr, _ ("diskmeter-cli: sustained %s over %s, up to %.0f s\n"),
               dm_mode_name (c.opt.sustained.mode), s, c.opt.sustained.duration_s);
    }

  err = dm_runner_run (c.runner);
  clear_line (&c);
  if (c.report.warning[0])
    fprintf (stderr, _ ("diskmeter-cli: warning: %s\n"), dm_cli_shown (c.report.warning));
  status = err == -ECANCELED ? EXIT_CANCELLED : err < 0 ? EXIT_FAILED : EXIT_DONE;
  if (status == EXIT_FAILED)
    fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (c.report.error));
  else if (status == EXIT_CANCELLED)
    fprintf (stderr, _ ("diskmeter-cli: cancelled; kept the samples so far, the test file was "
                     "removed\n"));

  if (c.opt.output || c.report.results[0].status != DM_STATUS_PENDING)
    if (write_output (&c) < 0 && status == EXIT_DONE)
      status = EXIT_FAILED;

  dm_runner_free (c.runner);
  dm_report_clear (&c.report);
  return status;
}
