/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every diskmeter-cli command shares: its start-up (the command line
 * through the one option table, --help, --version), the output it prints,
 * and for the commands that measure a job that runs the engine on this
 * thread with a progress line on a terminal, Ctrl-C handling and the end
 * told on stderr. A command parses, calls the engine and shows; the rest is
 * here, once.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "dm-cli-options.h"
#include "dm-report.h"
#include "dm-runner.h"

enum { DM_CLI_EXIT_DONE = 0, DM_CLI_EXIT_FAILED = 1, DM_CLI_EXIT_USAGE = 2,
       DM_CLI_EXIT_CANCELLED = 130 };

/* --- Start-up (dm-cli-common.c) ------------------------------------------- */

/* Parses command's line into o through the option table. -1 to go on;
 * otherwise the exit status to return at once: 2 after a one-line reason
 * for bad usage, 0 after --help or --version. */
int dm_cli_start (dm_cli_command command, int argc, char **argv, dm_cli_options *o);

/* Bad usage found after the parse (a plan the engine refuses): the reason
 * and the usage line, as dm_cli_start says them. Returns 2. */
int dm_cli_usage_error (dm_cli_command command, const char *why);

/* --- A measuring job (dm-cli-common.c) ------------------------------------ */

typedef struct dm_cli_job dm_cli_job;

/* The command's progress line for p in line; false leaves the line shown
 * as it is. Called on the runner's thread, which is the job's. */
typedef bool (*dm_cli_line_fn) (const dm_cli_job *job, const dm_progress *p, char *line,
                                size_t size);
/* The command's report of the job in its --format, into out. 0 or -errno. */
typedef int (*dm_cli_write_fn) (const dm_cli_job *job, dm_buf *out);

struct dm_cli_job {
  dm_cli_options opt;
  dm_cli_line_fn line;          /* the command's progress line */
  dm_report      report;
  dm_runner     *runner;
  dm_report      report_b;      /* the plain run's --compare-with: the second target */
  dm_runner     *runner_b;
  bool           tty;           /* stderr is a terminal: a progress line */
  double         last_print;    /* when the line was last drawn, s */
  double         last_sample_t; /* --progress: the last sample printed */
  int            last_len;      /* the line's length on screen, to clear it */
  volatile sig_atomic_t interrupted; /* also ends a wait for --start-at */
  double         deadline_s;    /* dm_clock_ns time in s at which the runner is cancelled; 0: none */
  bool           timed_out;     /* it was */
};

/* A runner for report on target, reporting to job's progress line. NULL
 * when out of memory. */
dm_runner *dm_cli_job_runner (dm_cli_job *job, dm_report *report, const char *target);
/* Before the run: the runner of the job's report on its target, unless
 * the command made its own; the progress line if stderr is a terminal;
 * Ctrl-C, SIGTERM or a closed console cancelling every runner of the job.
 * 0, or -ENOMEM after saying so, with the report cleared. */
int dm_cli_job_begin (dm_cli_job *job);
/* Shows line in place of the progress line (a wait for --start-at). */
void dm_cli_job_show (dm_cli_job *job, const char *line);
/* Removes the progress line, so that a message or the report follows. */
void dm_cli_job_clear_line (dm_cli_job *job);
/* After the run that returned err: the line removed, each target's warning
 * and the reason of a failure told, cancelled said if it was; returns the
 * exit status. */
int dm_cli_job_end (dm_cli_job *job, int err, const char *cancelled);
/* The report written by write to --output or stdout, if a file was asked
 * for or a test ran: a run refused before any test has nothing to print
 * on the terminal but its reason, while scripts always find the file with
 * its status. Returns status, or 1 where it was 0 and writing failed. */
int dm_cli_job_write (dm_cli_job *job, dm_cli_write_fn write, int status);
/* Frees the runners and the reports. */
void dm_cli_job_clear (dm_cli_job *job);

/* Whether any test of r began. */
bool dm_cli_any_result_ran (const dm_report *r);

/* --- Output (dm-cli-output.c, dm-cli-text.c) ------------------------------ */

/* Sends buf to file, by the platform's rules for output files (a stream
 * such as /dev/stdout written into, a file replaced atomically), or to
 * stdout when file is NULL, flushed. 0 or -errno: -ENOSPC for a full disk,
 * never a vaguer code in its place. */
int dm_cli_emit (const dm_buf *buf, const char *file);

/* The exit status, after the last check of stdout: a write that failed
 * unseen (a line printed with printf) or a failing close turns a success
 * into 1, with one line saying why. Every command's status passes here. */
int dm_cli_finish (int status);

/* s as the terminal may show it: controls and bytes that are not UTF-8
 * escaped (dm_text_shown). Valid until the fourth call after, per thread. */
const char *dm_cli_shown (const char *s);

/* The columns a terminal gives s (a kanji two, a combining accent none). */
/* A time left or taken, "m:ss" or "h:mm:ss", for a progress line. */
void dm_cli_format_time (double seconds, char *buf, size_t size);
int dm_cli_columns (const char *s);

/* s as a table's cell of width columns: cut in the middle with "…" when
 * it is wider, padded with spaces when narrower. */
void dm_cli_add_cell (dm_buf *out, const char *s, int width);

/* A report as text (with the latency table if asked), JSON or CSV, to
 * stdout or atomically to file. 0 or -errno. */
int dm_cli_write_report (const dm_report *r, dm_format format, bool latency, const char *file);
