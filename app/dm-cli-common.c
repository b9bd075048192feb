/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The start-up every diskmeter-cli command shares, and the job the
 * measuring ones (the plain run, sweep, sustained) run: the engine on this
 * thread, a progress line on a terminal, Ctrl-C and SIGTERM cancelling it
 * cleanly (finished results kept, the test file removed, status 130), and
 * its end told on stderr the same way whichever command ran it.
 */
#include "dm-cli-common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dm-i18n.h"
#include "dm-platform.h"
#include "dm-reason.h"

/* The measuring commands' messages begin "diskmeter-cli: " as their
 * run-time errors do; the commands that read saved runs name themselves. */
int
dm_cli_usage_error (dm_cli_command command, const char *why)
{
  const char *who = dm_cli_command_who (command);
  fprintf (stderr, _ ("%s: %s\nUsage: %s %s (see %s --help)\n"),
           command & (DM_CLI_RUN | DM_CLI_SWEEP | DM_CLI_SUSTAINED | DM_CLI_FIRSTWRITE) ? "diskmeter-cli" : who,
           dm_cli_shown (why), who, dm_cli_command_usage (command), who);
  return DM_CLI_EXIT_USAGE;
}

int
dm_cli_start (dm_cli_command command, int argc, char **argv, dm_cli_options *o)
{
  char why[400];

  if (dm_cli_parse_command (command, argc, argv, o, why, sizeof why) < 0)
    return dm_cli_usage_error (command, why);
  if (o->help || o->version)
    {
      dm_buf out;
      int err;
      dm_buf_init (&out);
      if (o->help)
        dm_cli_write_help (command, &out);
      else
        dm_buf_printf (&out, "diskmeter-cli %s\n", DM_VERSION);
      err = dm_cli_emit (&out, NULL);
      dm_buf_free (&out);
      if (err < 0)
        fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"), "stdout", dm_strerror (err));
      return err < 0 ? DM_CLI_EXIT_FAILED : DM_CLI_EXIT_DONE;
    }
  return -1;
}

/* From a signal or console handler: only a flag and the runners' own
 * async-signal-safe cancel. */
static void
on_interrupt (void *user)
{
  dm_cli_job *job = user;
  job->interrupted = 1;
  if (job->runner)
    dm_runner_cancel (job->runner);
  if (job->runner_b)
    dm_runner_cancel (job->runner_b);
}

void
dm_cli_job_clear_line (dm_cli_job *job)
{
  if (job->last_len)
    fprintf (stderr, "\r%*s\r", job->last_len, "");
  job->last_len = 0;
}

void
dm_cli_job_show (dm_cli_job *job, const char *line)
{
  dm_cli_job_clear_line (job);
  job->last_len = fprintf (stderr, "%s", line);
}

/* Runs on the runner's thread, which is this one: printing here is fine. */
static void
on_progress (void *user, const dm_progress *p)
{
  dm_cli_job *job = user;
  double now = (double) dm_clock_ns () / 1e9;
  char line[200];

  /* A time limit (the cache probe's) ends the runner's work where it is. */
  if (job->deadline_s > 0 && now >= job->deadline_s && !job->timed_out)
    {
      job->timed_out = true;
      dm_runner_cancel (job->runner);
    }
  /* --progress: one line per sample, as it closes, for scripts. */
  if (job->opt.progress && p->phase == DM_PHASE_MEASURE && p->sample.t > job->last_sample_t)
    {
      job->last_sample_t = p->sample.t;
      dm_cli_job_clear_line (job);
      fprintf (stderr, "sample t=%.2f s %.2f MB/s %.0f IOPS\n", p->sample.t,
               p->sample.all.mb_per_s, p->sample.all.iops);
      fflush (stderr);
    }
  /* A few redraws a second are enough for the eye, and cheap for a log. */
  if (!job->tty || job->opt.quiet
      || (now - job->last_print < 0.2 && p->phase != DM_PHASE_DONE))
    return;
  job->last_print = now;
  if (job->line (job, p, line, sizeof line))
    dm_cli_job_show (job, line);
}

/* A relative TARGET as the absolute folder it named when typed: "t1" in a
 * saved run means nothing once the shell has moved on, and a comparison
 * would name it twice. Only "." and ".." are taken out, by the name, so a
 * link the user went through is still the name the report shows (its
 * real path says where it leads). Windows' rules for relative names
 * (C:foo, \\foo) are its own: there the engine gets the name as typed. */
static const char *
absolute_target (const char *target, char *buf, size_t size)
{
#ifdef _WIN32
  (void) buf;
  (void) size;
  return target;
#else
  char cwd[4096];
  size_t n;
  if (!target[0] || target[0] == '/' || !getcwd (cwd, sizeof cwd))
    return target;
  n = snprintf (buf, size, "%s", cwd);
  for (const char *p = target; *p && n < size;)
    {
      const char *end = strchr (p, '/');
      size_t len = end ? (size_t) (end - p) : strlen (p);
      if (len == 2 && !strncmp (p, "..", 2))
        {
          while (n > 1 && buf[n - 1] != '/')
            n--;
          if (n > 1)
            n--;
        }
      else if (len && !(len == 1 && p[0] == '.'))
        {
          if (n + 1 + len >= size)
            return target;
          if (n > 1 || buf[0] != '/')
            buf[n++] = '/';
          memcpy (buf + n, p, len);
          n += len;
        }
      buf[n] = '\0';
      p = end ? end + 1 : p + len;
    }
  return n < size ? buf : target;
#endif
}

dm_runner *
dm_cli_job_runner (dm_cli_job *job, dm_report *report, const char *target)
{
  char abs[4096];
  dm_runner *runner = dm_runner_new (report, absolute_target (target, abs, sizeof abs));
  if (runner)
    dm_runner_set_progress (runner, on_progress, job);
  return runner;
}

int
dm_cli_job_begin (dm_cli_job *job)
{
  if (!job->runner && !(job->runner = dm_cli_job_runner (job, &job->report, job->opt.target)))
    {
      fprintf (stderr, _ ("diskmeter-cli: out of memory\n"));
      dm_report_clear (&job->report);
      return -ENOMEM;
    }
  job->tty = isatty (STDERR_FILENO);
  dm_interrupt_install (on_interrupt, job);
  return 0;
}

/* Warnings and the reason of a failure, once per target. */
static void
tell_outcome (const dm_report *r, const char *which)
{
  /* The report keeps the engine's English; the terminal says it in the
   * user's language. */
  char shown[sizeof r->error + 512];
  if (r->warning[0])
    fprintf (stderr, _ ("diskmeter-cli: warning: %s\n"),
             dm_cli_shown (dm_reason_shown (r->warning, shown, sizeof shown)));
  if (r->status == DM_STATUS_FAILED && r->error[0])
    fprintf (stderr, "diskmeter-cli: %s%s%s\n", which ? dm_cli_shown (which) : "",
             which ? ": " : "", dm_cli_shown (dm_reason_shown (r->error, shown, sizeof shown)));
}

int
dm_cli_job_end (dm_cli_job *job, int err, const char *cancelled)
{
  int status = err == -ECANCELED ? DM_CLI_EXIT_CANCELLED
               : err < 0         ? DM_CLI_EXIT_FAILED
                                 : DM_CLI_EXIT_DONE;
  dm_cli_job_clear_line (job);
  tell_outcome (&job->report, job->runner_b ? job->opt.target : NULL);
  if (job->runner_b)
    tell_outcome (&job->report_b, job->opt.compare_with);
  if (status == DM_CLI_EXIT_CANCELLED)
    fputs (cancelled, stderr);
  return status;
}

bool
dm_cli_any_result_ran (const dm_report *r)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].status != DM_STATUS_PENDING)
      return true;
  return false;
}

int
dm_cli_job_write (dm_cli_job *job, dm_cli_write_fn write, int status)
{
  const char *file = job->opt.output;
  dm_buf out;
  int err;

  if (!file && !dm_cli_any_result_ran (&job->report))
    return status;
  dm_buf_init (&out);
  err = write (job, &out);
  if (err == 0)
    {
      err = dm_cli_emit (&out, file);
      if (err < 0)
        fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"),
                 file ? dm_cli_shown (file) : "the report", dm_strerror (err));
    }
  dm_buf_free (&out);
  return err < 0 && status == DM_CLI_EXIT_DONE ? DM_CLI_EXIT_FAILED : status;
}

void
dm_cli_job_clear (dm_cli_job *job)
{
  dm_runner_free (job->runner_b);
  dm_report_clear (&job->report_b);
  dm_runner_free (job->runner);
  dm_report_clear (&job->report);
  job->runner = job->runner_b = NULL;
}

void
dm_cli_format_time (double seconds, char *buf, size_t size)
{
  long s = seconds > 0 ? (long) (seconds + 0.5) : 0;
  if (s >= 3600)
    snprintf (buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    snprintf (buf, size, "%ld:%02ld", s / 60, s % 60);
}
