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
#include "dm-cli-options.h"
#include "dm-runner.h"
#include "dm-sustained.h"
#include "dm-units.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_CANCELLED = 130 };

/* A read pass fills its span first; by default it reads this much. */
#define READ_SPAN_DEFAULT (4ull << 30)

static const char sustained_usage[] =
  "Usage: diskmeter-cli sustained [OPTIONS] TARGET\n"
  "Writes (or reads) once through a test file as large as the span, until the\n"
  "span is covered or the duration is over, and shows the rate over time: where\n"
  "the rate fell below half of its opening rate for good (a write cache running\n"
  "out: the cliff), how much was written before, and the rates before and after.\n"
  "\n"
  "Sustained:\n"
  "  --mode write|read    write the span, or fill it and read it back (default write)\n"
  "  --pattern SEQ|RND    sequential or random (default SEQ)\n"
  "  --block SIZE         block size, 4KiB..8MiB, a power of two (default 1MiB)\n"
  "  --qd N               queue depth per thread (default 8)\n"
  "  --threads N          threads (default 1)\n"
  "  --span SIZE|free     test file size; free (the default for write) is all free\n"
  "                       space but max(1 GiB, 5% of the filesystem), at most 64GiB;\n"
  "                       read defaults to 4GiB or less\n"
  "  --duration SEC       at most this long (default 60)\n"
  "  --sample SEC         the timeline's step, 0.1..10 (default 0.5)\n"
  "  --progress           print each sample on stderr as it closes (for scripts)\n"
  "  --backend NAME, --data random|zeros, --buffered, --write-through, --comment TEXT\n"
  "Output:\n"
  "  --format text|json|csv   text: a summary and a chart; json: the report plus a\n"
  "                       \"sustained\" object; csv: one row per sample\n"
  "  --output FILE        write the report to FILE (atomically) instead of stdout\n"
  "  --quiet              no progress line\n"
  "\n"
  "Ctrl-C stops it and keeps the samples so far; the test file is removed.\n"
  "Exit status: 0 done, 1 failed, 2 bad usage, 130 cancelled.\n";

typedef struct sustained_cli {
  dm_cli_options    opt;
  dm_sustained_plan plan;
  bool              span_free;
  bool              span_given;
  bool              progress_lines;
  dm_report         report;
  dm_runner        *runner;
  bool              tty;
  double            last_print;
  double            last_sample_t;
  int               last_len;
} sustained_cli;

static int
usage_error (const char *why)
{
  fprintf (stderr, "diskmeter-cli: %s\nUsage: diskmeter-cli sustained [OPTIONS] TARGET "
                   "(see diskmeter-cli sustained --help)\n", why);
  return EXIT_USAGE;
}

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
apply_option (sustained_cli *c, const char *name, const char *v, char *why, size_t ws)
{
  dm_sustained_plan *p = &c->plan;
  char inner[200];
  int err = 0;

  if (!strcmp (name, "mode"))
    {
      if (dm_mode_parse (v, &p->mode) < 0 || p->mode == DM_MODE_MIX)
        return snprintf (why, ws, "--mode: '%s' is not write or read", v), -EINVAL;
    }
  else if (!strcmp (name, "pattern"))
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
  else if (!strcmp (name, "qd"))
    err = dm_uint_parse (v, 1, DM_QUEUE_MAX, &p->queue_depth, inner, sizeof inner);
  else if (!strcmp (name, "threads"))
    err = dm_uint_parse (v, 1, DM_THREADS_MAX, &p->threads, inner, sizeof inner);
  else if (!strcmp (name, "span"))
    {
      c->span_given = true;
      if (!dm_ascii_casecmp (v, "free"))
        c->span_free = true;
      else
        {
          c->span_free = false;
          err = dm_size_parse (v, &p->span, inner, sizeof inner);
          if (!err && (p->span < DM_TEST_SIZE_MIN || p->span > DM_TEST_SIZE_MAX
                       || p->span % DM_BLOCK_MAX_ALIGN))
            return snprintf (why, ws, "--span: '%s' is not free or a whole number of MiB "
                                      "from 16MiB to 64GiB", v), -EINVAL;
        }
    }
  if (err < 0)
    return snprintf (why, ws, "--%s: %s", name, inner), -EINVAL;
  return 0;
}

/* Takes the sustained test's own options out of argv and hands the rest
 * (duration, sample, output, TARGET...) to the plain run's parser. */
static int
parse (sustained_cli *c, int argc, char **argv, char *why, size_t ws)
{
  static const char *const own[] = { "mode", "pattern", "block", "qd", "threads", "span" };
  static const char *const refused[] = { "tests", "modes", "profile", "nvme", "count", "size",
                                         "warmup", "interval", "mix", "mix-read",
                                         "compare-with", "start-at", "list-targets",
                                         "destroy-data-on", "threshold", "latency" };
  bool only_args = false, duration_given = false;
  char **rest = calloc ((size_t) argc + 1, sizeof *rest);
  int n_rest = 0, err = 0;

  if (!rest)
    return snprintf (why, ws, "out of memory"), -ENOMEM;
  dm_sustained_plan_init (&c->plan);
  c->span_free = true;
  rest[n_rest++] = "diskmeter-cli sustained";

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
      if (is_option (arg, "progress", &value) && !value)
        {
          c->progress_lines = true;
          continue;
        }
      for (k = 0; k < sizeof refused / sizeof refused[0]; k++)
        if (is_option (arg, refused[k], &value))
          {
            snprintf (why, ws, "--%s is not a sustained option (see --help)", refused[k]);
            err = -EINVAL;
            goto out;
          }
      for (k = 0; k < sizeof own / sizeof own[0]; k++)
        if (is_option (arg, own[k], &value))
          break;
      if (k == sizeof own / sizeof own[0])
        {
          duration_given |= is_option (arg, "duration", &value);
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
      if ((err = apply_option (c, own[k], value, why, ws)) < 0)
        goto out;
    }

  if ((err = dm_cli_parse (n_rest, rest, &c->opt, why, ws)) < 0)
    goto out;
  if (duration_given)
    c->plan.duration_s = c->opt.settings.measure_s;
  if (c->opt.sample_s > 0)
    c->plan.sample_s = c->opt.sample_s;

out:
  free (rest);
  return err;
}

/* The span to run: checked against the free space, with the margin kept. */
static int
resolve_span (sustained_cli *c, uint64_t *span, char *why, size_t ws)
{
  dm_target_info t;
  char a[32], m[32];
  int err = dm_target_probe (c->opt.target, &t);
  if (err == -ENOENT)
    return snprintf (why, ws, "%s does not exist", c->opt.target), err;
  if (err < 0)
    return snprintf (why, ws, "cannot use %s: %s", c->opt.target, dm_strerror (err)), err;

  if (t.is_block_device)
    {
      /* A device holds someone's data: the sustained test only reads it. */
      if (c->plan.mode != DM_MODE_READ)
        return snprintf (why, ws, "the sustained test writes only into a test file in a "
                                  "folder; --mode read measures the device %s",
                         c->opt.target), -EPERM;
      uint64_t size = t.size_bytes / DM_BLOCK_MAX_ALIGN * DM_BLOCK_MAX_ALIGN;
      *span = c->span_given && !c->span_free ? c->plan.span
                                            : size < DM_TEST_SIZE_MAX ? size : DM_TEST_SIZE_MAX;
      if (c->plan.mode == DM_MODE_READ && !c->span_given && *span > READ_SPAN_DEFAULT)
        *span = READ_SPAN_DEFAULT;
      return 0;
    }

  uint64_t margin = dm_sustained_margin (t.size_bytes);
  uint64_t room = dm_sustained_free_span (t.free_bytes, t.size_bytes);
  dm_size_human (t.free_bytes, a, sizeof a);
  dm_size_human (margin, m, sizeof m);
  if (c->span_free || !c->span_given)
    {
      *span = room;
      if (c->plan.mode == DM_MODE_READ && !c->span_given && *span > READ_SPAN_DEFAULT)
        *span = READ_SPAN_DEFAULT;
      if (*span < DM_TEST_SIZE_MIN)
        return snprintf (why, ws, "not enough free space in %s: %s free, and %s of it stays "
                                  "free", c->opt.target, a, m), -ENOSPC;
      return 0;
    }
  /* A span given is checked as every run's test file is (with room for
   * the filesystem's own metadata) when it is created. */
  *span = c->plan.span;
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
  if (c->progress_lines && p->phase == DM_PHASE_MEASURE && p->sample.t > c->last_sample_t)
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
    snprintf (line, sizeof line, "Preparing test file %3.0f%%", p->fraction * 100);
  else if (p->phase == DM_PHASE_MEASURE)
    {
      const dm_result *res = p->result;
      snprintf (line, sizeof line, "%s %7.1f s %10.2f MB/s  %d:%02d left",
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
    case DM_FORMAT_TEXT: dm_sustained_write_text (&c->report, &out); break;
    case DM_FORMAT_JSON: dm_sustained_write_json (&c->report, &out); break;
    case DM_FORMAT_CSV:  dm_report_write_samples_csv (&c->report, &out); break;
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

int
dm_cli_sustained_main (int argc, char **argv)
{
  static sustained_cli c;
  char why[400];
  uint64_t span;
  int status;

  memset (&c, 0, sizeof c);
  if (parse (&c, argc, argv, why, sizeof why) < 0)
    return usage_error (why);
  if (c.opt.help)
    {
      fputs (sustained_usage, stdout);
      return EXIT_DONE;
    }
  if (c.opt.version)
    {
      printf ("diskmeter-cli %s\n", DM_VERSION);
      return EXIT_DONE;
    }
  int err = resolve_span (&c, &span, why, sizeof why);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli: %s\n", why);
      return EXIT_FAILED;
    }
  if (dm_sustained_report_init (&c.report, &c.plan, span, &c.opt.settings, why, sizeof why) < 0)
    return usage_error (why);
  snprintf (c.report.comment, sizeof c.report.comment, "%s", c.opt.comment ? c.opt.comment : "");

  c.runner = dm_runner_new (&c.report, c.opt.target);
  if (!c.runner)
    {
      fprintf (stderr, "diskmeter-cli: out of memory\n");
      dm_report_clear (&c.report);
      return EXIT_FAILED;
    }
  dm_runner_set_pass (c.runner, c.plan.mode == DM_MODE_READ);
  c.tty = isatty (STDERR_FILENO);
  dm_runner_set_progress (c.runner, on_progress, &c);
  dm_interrupt_install (on_interrupt, c.runner);
  if (!c.opt.quiet)
    {
      char s[32];
      dm_size_human (span, s, sizeof s);
      fprintf (stderr, "diskmeter-cli: sustained %s over %s, up to %.0f s\n",
               dm_mode_name (c.plan.mode), s, c.plan.duration_s);
    }

  err = dm_runner_run (c.runner);
  clear_line (&c);
  if (c.report.warning[0])
    fprintf (stderr, "diskmeter-cli: warning: %s\n", c.report.warning);
  status = err == -ECANCELED ? EXIT_CANCELLED : err < 0 ? EXIT_FAILED : EXIT_DONE;
  if (status == EXIT_FAILED)
    fprintf (stderr, "diskmeter-cli: %s\n", c.report.error);
  else if (status == EXIT_CANCELLED)
    fprintf (stderr, "diskmeter-cli: cancelled; kept the samples so far, the test file was "
                     "removed\n");

  if (c.opt.output || c.report.results[0].status != DM_STATUS_PENDING)
    if (write_output (&c) < 0 && status == EXIT_DONE)
      status = EXIT_FAILED;

  dm_runner_free (c.runner);
  dm_report_clear (&c.report);
  return status;
}
