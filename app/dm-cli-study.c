/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli study: run a study plan's scenarios (those the history
 * does not hold yet), or show a study's sheet. The engine (dm-study.h)
 * does both; this file reads the command line, draws the progress and
 * tells the end, as the other measuring commands do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-cli-xlsx.h"
#include "dm-i18n.h"
#include "dm-platform.h"
#include "dm-reason.h"
#include "dm-study.h"
#include "dm-units.h"

typedef struct study_cli {
  const dm_study_plan     *plan;
  const dm_study_scenario *s;
  bool                     tty, quiet;
  int                      last_len;
  double                   last_print;
} study_cli;

static void
clear_line (study_cli *c)
{
  if (c->last_len)
    fprintf (stderr, "\r%*s\r", c->last_len, "");
  c->last_len = 0;
}

/* On the running thread, which is this one. A line per finished scenario
 * always (a log, and what scripts wait for); a live line on a terminal. */
static void
on_progress (void *user, const dm_study_progress *p)
{
  study_cli *c = user;
  const dm_study_scenario *s = &c->s[p->scenario];
  const char *label = c->plan->targets[s->target].label;
  char left[32];
  if (c->quiet)
    return;
  dm_cli_format_time (p->seconds_left, left, sizeof left);
  if (p->finished)
    {
      clear_line (c);
      if (p->saved_path)
        fprintf (stderr, _ ("diskmeter-cli: study %s: %u/%u done: %s Q%u T%u, about %s left\n"),
                 dm_cli_shown (c->plan->name), p->done, p->total, dm_cli_shown (label), s->qd,
                 s->threads, left);
      else if (p->status != DM_STATUS_CANCELLED)
        fprintf (stderr, _ ("diskmeter-cli: study %s: %s Q%u T%u failed: %s\n"),
                 dm_cli_shown (c->plan->name), dm_cli_shown (label), s->qd, s->threads,
                 p->report && p->report->error[0] ? dm_cli_shown (p->report->error) : "");
      fflush (stderr);
      return;
    }
  double now = (double) dm_clock_ns () / 1e9;
  if (!c->tty || (now - c->last_print < 0.2))
    return;
  c->last_print = now;
  char line[300], what[48] = "preparing";
  if (p->step && p->step->result && p->step->phase != DM_PHASE_PREPARE)
    {
      char name[32];
      dm_spec_name (&p->step->result->spec, name, sizeof name);
      snprintf (what, sizeof what, "%s %s", name, dm_mode_name (p->step->result->mode));
    }
  snprintf (line, sizeof line, _ ("%u/%u  %.40s Q%u T%u  %s  %s left"), p->done + 1, p->total,
            dm_cli_shown (label), s->qd, s->threads, what, left);
  clear_line (c);
  c->last_len = fprintf (stderr, "%s", line);
}

static void
on_interrupt (void *user)
{
  dm_study_run_cancel (user);
}

static void
ignore_interrupt (void *user)
{
  (void) user;
}

static int
study_run (dm_cli_options *o)
{
  static dm_study_plan plan;
  char why[600];
  dm_system_info sys;
  if (dm_study_plan_load (o->args[1], &plan, why, sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_STUDY, why);
  if (dm_study_plan_add_tags (&plan, o->tags, o->n_tags) < 0)
    return dm_cli_usage_error (DM_CLI_STUDY, _ ("--tag: too many tags with the plan's"));

  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  dm_target_info *targets = calloc (plan.n_targets, sizeof *targets);
  if (!targets)
    return DM_CLI_EXIT_FAILED;
  /* A target that cannot be probed now fails when its scenario runs, with
   * the runner's reason; its facts are then unknown. */
  for (unsigned i = 0; i < plan.n_targets; i++)
    if (dm_target_probe (plan.targets[i].path, &targets[i]) < 0)
      memset (&targets[i], 0, sizeof targets[i]);
  dm_study_scenario *s = NULL;
  unsigned n = 0;
  int err = dm_study_scenarios (&plan, &sys, targets, &s, &n);
  free (targets);
  if (err < 0)
    return dm_cli_usage_error (DM_CLI_STUDY, err == -E2BIG ? _ ("too many tags for a run")
                                                            : _ ("out of memory"));
  int done = dm_study_mark_done_in_history (&plan, s, n);
  if (done < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli: study: cannot read the history: %s\n"),
               dm_strerror (done));
      free (s);
      return DM_CLI_EXIT_FAILED;
    }
  unsigned todo = o->redo ? n : n - (unsigned) done;
  if (!todo)
    {
      if (!o->quiet)
        fprintf (stderr, _ ("diskmeter-cli: study %s: all %u scenarios are done (--redo runs "
                            "them again; diskmeter-cli study show %s)\n"),
                 dm_cli_shown (plan.name), n, dm_cli_shown (plan.name));
      free (s);
      return DM_CLI_EXIT_DONE;
    }
  if (!o->quiet)
    {
      char t[32];
      dm_cli_format_time (todo * dm_study_scenario_seconds (&plan), t, sizeof t);
      fprintf (stderr, _ ("diskmeter-cli: study %s: %u scenarios, %u done, %u to run, about %s "
                          "plus preparing the test files\n"),
               dm_cli_shown (plan.name), n, o->redo ? 0 : (unsigned) done, todo, t);
    }

  dm_study_run *run = dm_study_run_new (&plan, s, n, o->redo);
  if (!run)
    {
      free (s);
      return DM_CLI_EXIT_FAILED;
    }
  study_cli c = { &plan, s, isatty (STDERR_FILENO), o->quiet, 0, 0 };
  dm_study_run_set_progress (run, on_progress, &c);
  dm_interrupt_install (on_interrupt, run);
  err = dm_study_run_go (run);
  clear_line (&c);
  unsigned now_done = 0;
  for (unsigned i = 0; i < n; i++)
    now_done += s[i].done;
  int status = DM_CLI_EXIT_DONE;
  if (err == -ECANCELED)
    {
      fprintf (stderr, _ ("diskmeter-cli: study %s: cancelled; %u of %u scenarios are saved, "
                          "the same command goes on from there\n"),
               dm_cli_shown (plan.name), now_done, n);
      status = DM_CLI_EXIT_CANCELLED;
    }
  else if (err < 0)
    {
      char shown[800];
      fprintf (stderr, _ ("diskmeter-cli: study %s: %s; %u of %u scenarios are saved\n"),
               dm_cli_shown (plan.name),
               dm_cli_shown (dm_reason_shown (dm_study_run_error (run), shown, sizeof shown)),
               now_done, n);
      status = DM_CLI_EXIT_FAILED;
    }
  else if (!o->quiet)
    fprintf (stderr, _ ("diskmeter-cli: study %s: all %u scenarios done; diskmeter-cli study "
                        "show %s\n"), dm_cli_shown (plan.name), n, dm_cli_shown (plan.name));
  /* The handler holds run: no signal may reach it once freed. */
  dm_interrupt_install (ignore_interrupt, NULL);
  dm_study_run_free (run);
  free (s);
  return status;
}

static int
study_show (dm_cli_options *o)
{
  static dm_study_sheet sheet;
  static dm_study_rule rules[DM_THRESHOLDS_MAX];
  unsigned n_rules = o->n_study_rules;
  char why[600];
  memcpy (rules, o->study_rules, n_rules * sizeof *rules);
  if (o->thresholds_file
      && dm_study_rules_load (o->thresholds_file, rules, DM_THRESHOLDS_MAX, &n_rules, why,
                              sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_STUDY, why);
  if (o->format == DM_FORMAT_XLSX && !dm_cli_xlsx_available)
    return dm_cli_usage_error (DM_CLI_STUDY, _ ("--format xlsx: this diskmeter-cli was built "
                                                "without Excel support (libxlsxwriter)"));
  int err = dm_study_sheet_load (o->args[1], rules, n_rules, &sheet, why, sizeof why);
  if (err == -ENOENT)
    return dm_cli_usage_error (DM_CLI_STUDY, why);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli study: %s\n", dm_cli_shown (why));
      return DM_CLI_EXIT_FAILED;
    }
  int status = DM_CLI_EXIT_DONE;
  if (o->format == DM_FORMAT_XLSX)
    {
      if (dm_xlsx_write_study (&sheet, o->output, why, sizeof why) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli study: cannot write %s: %s\n"),
                   dm_cli_shown (o->output), dm_cli_shown (why));
          status = DM_CLI_EXIT_FAILED;
        }
    }
  else
    {
      dm_buf out;
      dm_buf_init (&out);
      if (o->format == DM_FORMAT_JSON)
        dm_study_sheet_write_json (&sheet, &out);
      else if (o->format == DM_FORMAT_CSV)
        dm_study_sheet_write_csv (&sheet, &out);
      else
        dm_study_sheet_write_text (&sheet, &out);
      err = out.error ? out.error : dm_cli_emit (&out, o->output);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli study: cannot write %s: %s\n"),
                   o->output ? dm_cli_shown (o->output) : "the sheet", dm_strerror (err));
          status = DM_CLI_EXIT_FAILED;
        }
      dm_buf_free (&out);
    }
  dm_study_sheet_free (&sheet);
  return status;
}

int
dm_cli_study_main (int argc, char **argv)
{
  static dm_cli_options o;
  int status;
  if ((status = dm_cli_start (DM_CLI_STUDY, argc, argv, &o)) >= 0)
    return status;
  return !strcmp (o.verb, "run") ? study_run (&o) : study_show (&o);
}
