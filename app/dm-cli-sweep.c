/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli sweep: one pattern at every queue depth x thread count
 * combination, run by the same engine as the grid, then the tables, the
 * knee and the best load under a latency bound. The options shared with a
 * plain run are parsed by dm_cli_parse, so they mean and refuse the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-cli-commands.h"
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sweep.h"
#include "dm-units.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_CANCELLED = 130 };

/* Shorter than a plain run's 5 x 5 s: a sweep runs dozens of combinations
 * and wants the shape of the curve, so one 3 s run after a 2 s warm-up. */
#define SWEEP_COUNT    1
#define SWEEP_DURATION 3.0
#define SWEEP_WARMUP   2.0
#define SWEEP_INTERVAL 0.0

static const char sweep_usage[] =
  "Usage: diskmeter-cli sweep [OPTIONS] TARGET\n"
  "Measures one pattern at every queue depth x thread count and finds the knee:\n"
  "the lightest load past which throughput gains under 5% while latency rises.\n"
  "\n"
  "Sweep:\n"
  "  --pattern SEQ|RND    sequential or random (default RND)\n"
  "  --block SIZE         block size, 4KiB..8MiB, a power of two (default 4K)\n"
  "  --mode read|write|mix  (default read)\n"
  "  --mix-read PERCENT   read share of mix, 10..90 (default 70; implies --mode mix)\n"
  "  --qd LIST            queue depths per thread (default 1,2,4,8,16,32,64,128,256)\n"
  "  --threads LIST       thread counts (default 1,2,4,8,16)\n"
  "  --latency-bound US   also name the fastest load whose p99 stays under US microseconds\n"
  "Combinations beyond 4 threads per logical CPU, 4096 I/Os in flight, 1 GiB of\n"
  "buffers, or more threads than blocks in the test size are left out, with a note.\n"
  "Settings (as for a plain run):\n"
  "  --count N            measured runs per combination, 1..9 (default 1)\n"
  "  --size SIZE          test file size, 16MiB..64GiB (default 1GiB)\n"
  "  --duration SEC       length of one measured run (default 3)\n"
  "  --warmup SEC         unscored run before each combination (default 2)\n"
  "  --interval SEC       pause between combinations (default 0)\n"
  "  --backend NAME, --data random|zeros, --buffered, --write-through,\n"
  "  --destroy-data-on DEVICE, --comment TEXT\n"
  "Output:\n"
  "  --format text|json|csv   text: QD x T tables of MB/s, IOPS and p99 latency;\n"
  "                       json: the full report plus a \"sweep\" object;\n"
  "                       csv: one row per combination\n"
  "  --output FILE        write the report to FILE (atomically) instead of stdout\n"
  "  --quiet              no estimate or progress line\n"
  "\n"
  "The estimated time is printed before the sweep starts. Ctrl-C stops it and\n"
  "keeps every combination already measured.\n"
  "Exit status: 0 done, 1 failed, 2 bad usage, 130 cancelled.\n";

typedef struct sweep_cli {
  dm_cli_options opt;
  dm_sweep_plan  plan;
  dm_report      report;
  dm_runner     *runner;
  bool           tty;
  double         last_print;
  int            last_len;
} sweep_cli;

static int
usage_error (const char *why)
{
  fprintf (stderr, "diskmeter-cli: %s\nUsage: diskmeter-cli sweep [OPTIONS] TARGET "
                   "(see diskmeter-cli sweep --help)\n", why);
  return EXIT_USAGE;
}

/* Whether arg is --name or --name=VALUE. */
static bool
is_option (const char *arg, const char *name, const char **value)
{
  size_t n = strlen (name);
  if (strncmp (arg, "--", 2) != 0 || strncmp (arg + 2, name, n) != 0)
    return false;
  if (arg[2 + n] == '\0')
    {
      *value = NULL;
      return true;
    }
  if (arg[2 + n] == '=')
    {
      *value = arg + 3 + n;
      return true;
    }
  return false;
}

static int
apply_sweep_option (sweep_cli *c, const char *name, const char *v, char *why, size_t ws)
{
  dm_sweep_plan *p = &c->plan;
  char inner[200];
  int err = 0;

  if (!strcmp (name, "pattern"))
    {
      if (!dm_ascii_casecmp (v, "SEQ"))
        p->pattern = DM_SEQ;
      else if (!dm_ascii_casecmp (v, "RND"))
        p->pattern = DM_RND;
      else
        return snprintf (why, ws, "--pattern: '%s' is not SEQ or RND", v), -EINVAL;
    }
  else if (!strcmp (name, "block"))
    {
      uint64_t size;
      err = dm_size_parse (v, &size, inner, sizeof inner);
      if (!err && (size < DM_BLOCK_MIN || size > DM_BLOCK_MAX || (size & (size - 1))))
        return snprintf (why, ws, "--block: '%s' is not a power of two from 4KiB to 8MiB", v),
               -EINVAL;
      if (!err)
        p->block_size = (uint32_t) size;
    }
  else if (!strcmp (name, "mode"))
    {
      if (dm_mode_parse (v, &p->mode) < 0)
        return snprintf (why, ws, "--mode: '%s' is not read, write or mix", v), -EINVAL;
    }
  else if (!strcmp (name, "qd"))
    err = dm_sweep_list_parse (v, 1, DM_QUEUE_MAX, p->queue_depths, &p->n_queue_depths,
                               inner, sizeof inner);
  else if (!strcmp (name, "threads"))
    err = dm_sweep_list_parse (v, 1, DM_THREADS_MAX, p->threads, &p->n_threads,
                               inner, sizeof inner);
  else if (!strcmp (name, "latency-bound"))
    {
      unsigned us;
      err = dm_uint_parse (v, 1, 60000000, &us, inner, sizeof inner);
      if (!err)
        p->latency_bound_us = us;
    }
  if (err < 0)
    return snprintf (why, ws, "--%s: %s", name, inner), -EINVAL;
  return 0;
}

/* Takes the sweep's own options out of argv and hands the rest (settings,
 * output, TARGET) to the plain run's parser. */
static int
parse (sweep_cli *c, int argc, char **argv, char *why, size_t ws)
{
  static const char *const own[] = { "pattern", "block", "mode", "qd", "threads",
                                     "latency-bound" };
  static const char *const defaults[] = { "count", "duration", "warmup", "interval" };
  bool given[4] = { false }, mode_given = false, only_args = false;
  char **rest = calloc ((size_t) argc + 1, sizeof *rest);
  int n_rest = 0, err = 0;

  if (!rest)
    return snprintf (why, ws, "out of memory"), -ENOMEM;
  dm_sweep_plan_init (&c->plan);
  rest[n_rest++] = "diskmeter-cli sweep";

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i], *value = NULL;
      size_t k;
      if (only_args)
        {
          rest[n_rest++] = argv[i];
          continue;
        }
      if (!strcmp (arg, "--"))
        only_args = true;
      if (is_option (arg, "mix", &value) && !value)
        {
          c->plan.mode = DM_MODE_MIX;
          mode_given = true;
          continue;
        }
      for (k = 0; k < sizeof own / sizeof own[0]; k++)
        if (is_option (arg, own[k], &value))
          break;
      if (k == sizeof own / sizeof own[0])
        {
          for (size_t d = 0; d < sizeof defaults / sizeof defaults[0]; d++)
            given[d] |= is_option (arg, defaults[d], &value);
          rest[n_rest++] = argv[i];
          continue;
        }
      if (!value)
        {
          if (i + 1 >= argc)
            {
              snprintf (why, ws, "--%s needs a value", own[k]);
              err = -EINVAL;
              goto out;
            }
          value = argv[++i];
        }
      mode_given |= !strcmp (own[k], "mode");
      if ((err = apply_sweep_option (c, own[k], value, why, ws)) < 0)
        goto out;
    }

  if ((err = dm_cli_parse (n_rest, rest, &c->opt, why, ws)) < 0)
    goto out;
  /* The plain run's test choices have no meaning in a sweep. */
  if (c->opt.n_tests || c->opt.modes || c->opt.nvme || c->opt.list_targets
      || strcmp (c->opt.profile, "default") != 0)
    {
      snprintf (why, ws, "--tests, --modes, --profile, --nvme and --list-targets are not "
                         "sweep options; use --pattern, --block, --mode, --qd and --threads");
      err = -EINVAL;
      goto out;
    }
  if (c->opt.mix && !mode_given)
    c->plan.mode = DM_MODE_MIX; /* --mix-read alone asks for mix, as in a plain run */

  dm_settings *s = &c->opt.settings;
  if (!given[0])
    s->count = SWEEP_COUNT;
  if (!given[1])
    s->measure_s = SWEEP_DURATION;
  if (!given[2])
    s->warmup_s = SWEEP_WARMUP;
  if (!given[3])
    s->interval_s = SWEEP_INTERVAL;

out:
  free (rest);
  return err;
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
    snprintf (line, sizeof line, "Preparing test file %3.0f%%", p->fraction * 100);
  else
    {
      const dm_result *res = p->result;
      snprintf (line, sizeof line, "Q%-3u T%-2u  %3d/%-3u %-8s %10.2f MB/s  %3.0f%%  %s left",
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
    case DM_FORMAT_TEXT: dm_sweep_write_text (&c->report, &c->plan, &out); break;
    case DM_FORMAT_JSON: dm_sweep_write_json (&c->report, &c->plan, &out); break;
    case DM_FORMAT_CSV:  dm_sweep_write_csv (&c->report, &out); break;
    }
  if (out.error)
    err = out.error;
  else if (c->opt.output)
    err = dm_write_file_atomic (c->opt.output, &out);
  else if (fwrite (out.data, 1, out.len, stdout) != out.len || fflush (stdout) != 0)
    err = -errno;
  if (err < 0)
    fprintf (stderr, "diskmeter-cli: cannot write %s: %s\n",
             c->opt.output ? c->opt.output : "the report", dm_strerror (err));
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
  if (parse (&c, argc, argv, why, sizeof why) < 0)
    return usage_error (why);
  if (c.opt.help)
    {
      fputs (sweep_usage, stdout);
      return EXIT_DONE;
    }
  if (c.opt.version)
    {
      printf ("diskmeter-cli %s\n", DM_VERSION);
      return EXIT_DONE;
    }

  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  if (dm_sweep_report_init (&c.report, &c.plan, &c.opt.settings, sys.logical_cpus,
                            note, sizeof note, why, sizeof why) < 0)
    return usage_error (why);
  snprintf (c.report.comment, sizeof c.report.comment, "%s", c.opt.comment ? c.opt.comment : "");
  if (note[0])
    fprintf (stderr, "diskmeter-cli: note: %s\n", note);
  if (!c.opt.quiet)
    {
      char t[32];
      format_time (dm_sweep_estimate_seconds (&c.report), t, sizeof t);
      fprintf (stderr, "diskmeter-cli: sweeping %u combinations, about %s "
                       "plus preparing the test file\n", c.report.n_results, t);
    }

  c.runner = dm_runner_new (&c.report, c.opt.target);
  if (!c.runner)
    {
      fprintf (stderr, "diskmeter-cli: out of memory\n");
      dm_report_clear (&c.report);
      return EXIT_FAILED;
    }
  c.tty = isatty (STDERR_FILENO);
  dm_runner_set_progress (c.runner, on_progress, &c);
  dm_interrupt_install (on_interrupt, c.runner);

  int err = dm_runner_run (c.runner);
  clear_line (&c);
  if (c.report.warning[0])
    fprintf (stderr, "diskmeter-cli: warning: %s\n", c.report.warning);

  status = err == -ECANCELED ? EXIT_CANCELLED : err < 0 ? EXIT_FAILED : EXIT_DONE;
  if (status == EXIT_FAILED)
    fprintf (stderr, "diskmeter-cli: %s\n", c.report.error);
  else if (status == EXIT_CANCELLED)
    fprintf (stderr, "diskmeter-cli: cancelled; kept the combinations already measured, "
                     "the test file was removed\n");

  if (c.opt.output || any_result_ran (&c.report))
    if (write_output (&c) < 0 && status == EXIT_DONE)
      status = EXIT_FAILED;

  dm_runner_free (c.runner);
  dm_report_clear (&c.report);
  return status;
}
