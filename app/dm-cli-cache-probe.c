/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli cache-probe: the host-cache ladder. Each working set is a
 * small report of its own, run by the ordinary runner on a test file of
 * that size (written whole first, then RND4K and SEQ1M over it, then
 * removed), its results copied into the probe's report. The probe stops
 * before a size that would pass the time limit, cancels one that does,
 * and on Ctrl-C keeps the sizes already measured.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-cache-probe.h"
#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-options.h"
#include "dm-reason.h"
#include "dm-runner.h"
#include "dm-text.h"
#include "dm-units.h"

static dm_cache_probe_info probe_info;
static unsigned probe_size;   /* the size being run, for the progress line */

static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  char ws[32], bs[16];
  unsigned n = dm_cache_probe_n_sizes (&c->report);
  dm_size_human (dm_cache_probe_size (&c->report, probe_size), ws, sizeof ws);
  if (p->phase == DM_PHASE_PREPARE || !p->result)
    snprintf (line, size, _ ("%u/%u %8s  writing the set %3.0f%%"), probe_size + 1, n, ws,
              p->fraction * 100);
  else
    {
      dm_block_short (p->result->spec.block_size, bs, sizeof bs);
      snprintf (line, size, _ ("%u/%u %8s  %s%s %-8s %10.2f MB/s"), probe_size + 1, n, ws,
                p->result->spec.pattern == DM_SEQ ? "SEQ" : "RND", bs,
                p->phase == DM_PHASE_WARMUP ? "warm-up" : "measure", p->result->mb_per_s);
    }
  return true;
}

static int
write_probe (const dm_cli_job *c, dm_buf *out)
{
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_cache_probe_write_text (&c->report, &probe_info, out); break;
    case DM_FORMAT_JSON: dm_cache_probe_write_json (&c->report, &probe_info, out); break;
    case DM_FORMAT_CSV:  dm_cache_probe_write_csv (&c->report, out); break;
    }
  return 0;
}

/* The largest test file the free space holds, by the test file's own
 * rule (a 64th of it and 16 MiB stay free). 0: no bound known. */
static uint64_t
room_of (const dm_target_info *t)
{
  if (!t->size_bytes)
    return 0;
  if (t->free_bytes <= (16ull << 20))
    return 1; /* less than any working set */
  uint64_t room = (t->free_bytes - (16ull << 20)) / 65 * 64;
  room = room / DM_BLOCK_MAX_ALIGN * DM_BLOCK_MAX_ALIGN;
  return room ? room : 1;
}

static int
say_failed (const char *why)
{
  char shown[1024];
  fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (dm_reason_shown (why, shown, sizeof shown)));
  return DM_CLI_EXIT_FAILED;
}

int
dm_cli_cache_probe_main (int argc, char **argv)
{
  static dm_cli_job c;
  static dm_report sub;
  uint64_t sizes[DM_CACHE_PROBE_SIZES];
  unsigned n;
  char why[400];
  int status;

  memset (&c, 0, sizeof c);
  memset (&probe_info, 0, sizeof probe_info);
  if ((status = dm_cli_start (DM_CLI_CACHE_PROBE, argc, argv, &c.opt)) >= 0)
    return status;

  dm_target_info t;
  int err = dm_target_probe (c.opt.target, &t);
  if (err == -ENOENT)
    return dm_text_say (why, sizeof why, c.opt.target, "%s does not exist", c.opt.target),
           say_failed (why);
  if (err < 0)
    return dm_text_say (why, sizeof why, c.opt.target, "cannot use %s: %s", c.opt.target,
                        dm_strerror (err)), say_failed (why);
  if (t.is_block_device)
    return dm_text_say (why, sizeof why, c.opt.target,
                        "the cache probe writes its working sets into test files in a "
                        "folder; %s is a disk", c.opt.target), say_failed (why);

  dm_system_info sys;
  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  dm_cache_probe_plan *plan = &c.opt.probe;
  probe_info.max_asked = plan->max ? plan->max : sys.memory_bytes * DM_CACHE_PROBE_RAM_FACTOR;
  probe_info.time_limit_s = plan->time_limit_s;
  err = dm_cache_probe_sizes (plan, sys.memory_bytes, room_of (&t), sizes, &n, why, sizeof why);
  if (err == -ENOSPC)
    return say_failed (why);
  if (err < 0
      || dm_cache_probe_report_init (&c.report, plan, sizes, n, &c.opt.settings, why,
                                     sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_CACHE_PROBE, why);
  dm_report_set_comment (&c.report, c.opt.comment);
  dm_report_set_tags (&c.report, c.opt.tags, c.opt.n_tags);

  uint64_t fill = 0;
  for (unsigned k = 0; k < n; k++)
    fill += sizes[k];
  double per_size = dm_cache_probe_size_seconds (&c.report);
  if (!c.opt.quiet)
    {
      char a[32], b[32], f[32], m[32], l[32];
      dm_size_human (sizes[0], a, sizeof a);
      dm_size_human (sizes[n - 1], b, sizeof b);
      dm_size_human (fill, f, sizeof f);
      dm_cli_format_time (n * per_size, m, sizeof m);
      dm_cli_format_time (plan->time_limit_s, l, sizeof l);
      fprintf (stderr, _ ("diskmeter-cli: cache probe (%s) over %u working sets from %s to %s: "
                          "writes %s to fill them, about %s of measuring plus the filling, "
                          "at most %s (--time-limit)\n"),
               dm_mode_name (plan->mode), n, a, b, f, m, l);
    }

  c.line = progress_line;
  double t0 = (double) dm_clock_ns () / 1e9, fill_rate = 0;
  c.deadline_s = t0 + plan->time_limit_s;
  bool begun = false;
  err = 0;
  for (unsigned k = 0; k < n; k++)
    {
      double now = (double) dm_clock_ns () / 1e9;
      if (c.interrupted)
        {
          err = -ECANCELED;
          break;
        }
      /* A size that would end past the limit is not begun: its figures
       * would be lost to the cancel anyway. */
      if (fill_rate > 0 && now + (double) sizes[k] / fill_rate + per_size > c.deadline_s)
        {
          snprintf (probe_info.stopped, sizeof probe_info.stopped, "time-limit");
          break;
        }
      if (dm_cache_probe_size_report (&sub, &c.report, k) < 0)
        {
          err = -ENOMEM;
          snprintf (c.report.error, sizeof c.report.error, "out of memory");
          break;
        }
      dm_runner *old = c.runner;
      c.runner = dm_cli_job_runner (&c, &sub, c.opt.target);
      dm_runner_free (old);
      if (!c.runner)
        {
          dm_report_clear (&sub);
          err = -ENOMEM;
          snprintf (c.report.error, sizeof c.report.error, "out of memory");
          break;
        }
      if (!begun && dm_cli_job_begin (&c) < 0)
        {
          dm_report_clear (&sub);
          return DM_CLI_EXIT_FAILED;
        }
      begun = true;
      probe_size = k;
      double start = (double) dm_clock_ns () / 1e9;
      err = dm_runner_run (c.runner);
      double took = (double) dm_clock_ns () / 1e9 - start - per_size;
      if (k == 0)
        {
          /* The run's facts (target, machine, backend, start) are the
           * first size's; the sizes are the probe's. */
          uint64_t largest = c.report.settings.test_size;
          dm_report_copy_run (&c.report, &sub);
          c.report.settings.test_size = largest;
          snprintf (c.report.profile, sizeof c.report.profile, "cache-probe");
        }
      dm_cache_probe_take (&c.report, k, &sub);
      c.report.finished = sub.finished;
      if (sub.warning[0] && !c.report.warning[0])
        snprintf (c.report.warning, sizeof c.report.warning, "%s", sub.warning);
      if (err < 0 && err != -ECANCELED)
        snprintf (c.report.error, sizeof c.report.error, "%s", sub.error);
      dm_report_clear (&sub);
      if (took > 0.01)
        fill_rate = (double) sizes[k] / took;
      if (err == -ECANCELED && c.timed_out)
        {
          snprintf (probe_info.stopped, sizeof probe_info.stopped, "time-limit");
          err = 0;
          break;
        }
      if (err < 0)
        break;
    }
  if (!begun)
    {
      /* Not even the first size fit the limit: nothing ran. */
      dm_report_clear (&c.report);
      return say_failed ("the time limit ended before the first working set");
    }
  if (err == -ECANCELED)
    snprintf (probe_info.stopped, sizeof probe_info.stopped, "cancelled");
  else if (err == -ENOSPC)
    snprintf (probe_info.stopped, sizeof probe_info.stopped, "no-space");
  else if (err < 0)
    snprintf (probe_info.stopped, sizeof probe_info.stopped, "failed");
  c.report.status = err == -ECANCELED ? DM_STATUS_CANCELLED
                    : err < 0         ? DM_STATUS_FAILED
                                      : DM_STATUS_COMPLETE;
  if (!c.opt.quiet && !strcmp (probe_info.stopped, "time-limit"))
    {
      dm_cli_job_clear_line (&c);
      fprintf (stderr, _ ("diskmeter-cli: stopped at the time limit, with the working sets "
                          "measured by then\n"));
    }
  status = dm_cli_job_end (&c, err, _ ("diskmeter-cli: cancelled; kept the working sets already "
                                       "measured, the test file was removed\n"));
  status = dm_cli_job_write (&c, write_probe, status);
  dm_cli_job_clear (&c);
  return status;
}
