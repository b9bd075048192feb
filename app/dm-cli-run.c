/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plain run, what diskmeter-cli does with no command: the profile's
 * tests (or --tests) on one target, or interleaved on two with
 * --compare-with, or on several at the same moment with --concurrent, or
 * on a fleet's shared schedule with --start-at; the
 * report as text, JSON or CSV, and the run kept in the history. Also
 * --list-targets, the folders and devices there are to measure.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-latency.h"
#include "dm-compare.h"
#include "dm-concurrent.h"
#include "dm-history.h"
#include "dm-interleave.h"
#include "dm-schedule.h"
#include "dm-profile.h"
#include "dm-units.h"

/* The test, its phase and the time left: the line a terminal shows. */
static bool
progress_line (const dm_cli_job *c, const dm_progress *p, char *line, size_t size)
{
  char name[32] = "";
  int left = (int) (p->seconds_left + 0.5);
  (void) c;
  if (p->result)
    dm_spec_name (&p->result->spec, name, sizeof name);
  switch (p->phase)
    {
    case DM_PHASE_PREPARE:
      snprintf (line, size, _ ("Preparing test file %3.0f%%"), p->fraction * 100);
      return true;
    case DM_PHASE_PRECONDITION:
      /* Not yet in the catalogues: the lead merges them. */
      snprintf (line, size, "Preconditioning, pass %u/%u          %3.0f%%  %d:%02d left",
                p->run, p->count, p->fraction * 100, left / 60, left % 60);
      return true;
    case DM_PHASE_WARMUP:
      snprintf (line, size, _ ("%-14s %-5s  warm-up           %3.0f%%  %d:%02d left"),
                name, dm_mode_title (p->result->mode), p->fraction * 100, left / 60, left % 60);
      return true;
    case DM_PHASE_MEASURE:
      /* The last sample's rate: it moves as the disk does, where the
       * best run's figure only changes when a run ends. */
      snprintf (line, size, _ ("%-14s %-5s  run %u/%u %10.2f MB/s %3.0f%%  %d:%02d left"),
                name, dm_mode_title (p->result->mode), p->run, p->count,
                p->sample.t > 0 ? p->sample.all.mb_per_s : p->result->mb_per_s,
                p->fraction * 100, left / 60, left % 60);
      return true;
    case DM_PHASE_INTERVAL:
      snprintf (line, size, _ ("Interval                          %3.0f%%  %d:%02d left"),
                p->fraction * 100, left / 60, left % 60);
      return true;
    default:
      return false;
    }
}

static const char *const target_kinds[] = {
  [DM_TARGET_LOCAL] = "local",       [DM_TARGET_REMOVABLE] = "removable",
  [DM_TARGET_NETWORK] = "network",   [DM_TARGET_FUSE] = "fuse",
  [DM_TARGET_DEVICE] = "device",
};

static const char fuse_note[] =
  "FUSE: user-space overhead in every figure, O_DIRECT may be ignored";

/* What a test may do there: a folder is read-write where a test file can
 * be created; a device as the kernel flags it (Diskmeter itself only
 * writes to one named by --destroy-data-on). */
static const char *
target_access (const dm_target_info *t)
{
  bool ro = t->kind == DM_TARGET_DEVICE ? t->read_only : !t->writable;
  return ro ? "read-only" : "read-write";
}

static void
list_targets_json (const dm_target_info *list, unsigned n, dm_buf *out)
{
  dm_buf_add (out, "[");
  for (unsigned i = 0; i < n; i++)
    {
      const dm_target_info *t = &list[i];
      dm_buf_add (out, i ? ",\n  {" : "\n  {");
      dm_buf_add (out, "\"path\": ");
      dm_buf_add_json_string (out, t->path);
      dm_buf_printf (out, ", \"kind\": \"%s\", \"filesystem\": ", target_kinds[t->kind]);
      dm_buf_add_json_string (out, t->filesystem);
      dm_buf_add (out, ", \"label\": ");
      dm_buf_add_json_string (out, t->label);
      dm_buf_add (out, ", \"model\": ");
      dm_buf_add_json_string (out, t->model);
      dm_buf_add (out, ", \"bus\": ");
      dm_buf_add_json_string (out, t->bus);
      dm_buf_printf (out, ", \"size_bytes\": %llu", (unsigned long long) t->size_bytes);
      /* A device has no free space to speak of: it holds no test file. */
      if (t->kind == DM_TARGET_DEVICE)
        dm_buf_add (out, ", \"free_bytes\": null");
      else
        dm_buf_printf (out, ", \"free_bytes\": %llu", (unsigned long long) t->free_bytes);
      dm_buf_printf (out, ", \"writable\": %s, \"access\": \"%s\"", t->writable ? "true" : "false",
                     target_access (t));
      dm_buf_add (out, ", \"device\": ");
      dm_buf_add_json_string (out, t->device);
      if (t->kind == DM_TARGET_FUSE)
        {
          dm_buf_add (out, ", \"note\": ");
          dm_buf_add_json_string (out, fuse_note);
        }
      dm_buf_add (out, "}");
    }
  dm_buf_add (out, n ? "\n]\n" : "]\n");
}

enum { COL_TARGET, COL_KIND, COL_SIZE, COL_FREE, COL_FS, COL_LABEL, COL_BUS, COL_ACCESS,
       COL_MODEL, N_COLS };

/* One row of the table, every cell as the terminal shows it and "-" for
 * a fact that is not known, so that no column is ever blank. */
static void
target_row (const dm_target_info *t, char cells[N_COLS][1100])
{
  char size[32] = "-", free_[32] = "-";
  if (t->size_bytes)
    dm_size_human (t->size_bytes, size, sizeof size);
  if (t->kind != DM_TARGET_DEVICE)
    dm_size_human (t->free_bytes, free_, sizeof free_);
  /* The folder, as users type it: "C:\\" rather than the drive "C:". */
  snprintf (cells[COL_TARGET], sizeof cells[0], "%s",
            dm_cli_shown (t->mount_point[0] && t->kind != DM_TARGET_DEVICE ? t->mount_point
                                                                           : t->path));
  snprintf (cells[COL_KIND], sizeof cells[0], "%s", target_kinds[t->kind]);
  snprintf (cells[COL_SIZE], sizeof cells[0], "%s", size);
  snprintf (cells[COL_FREE], sizeof cells[0], "%s", free_);
  snprintf (cells[COL_FS], sizeof cells[0], "%s",
            t->filesystem[0] ? dm_cli_shown (t->filesystem) : "-");
  snprintf (cells[COL_LABEL], sizeof cells[0], "%s", t->label[0] ? dm_cli_shown (t->label) : "-");
  snprintf (cells[COL_BUS], sizeof cells[0], "%s", t->bus[0] ? dm_cli_shown (t->bus) : "-");
  snprintf (cells[COL_ACCESS], sizeof cells[0], "%s", target_access (t));
  snprintf (cells[COL_MODEL], sizeof cells[0], "%s%s", t->model[0] ? dm_cli_shown (t->model) : "-",
            t->kind == DM_TARGET_FUSE ? " *" : "");
}

static void
list_targets_text (const dm_target_info *list, unsigned n, dm_buf *out)
{
  static const char *const heads[N_COLS] = { "TARGET", "KIND", "SIZE", "FREE", "FS", "LABEL",
                                             "BUS", "ACCESS", "MODEL" };
  static char cells[N_COLS][1100];
  int width[N_COLS];
  bool fuse = false;

  /* Each column as wide as its widest cell: a long mount point moves the
   * columns after it for every row, not only its own. */
  for (int c = 0; c < N_COLS; c++)
    width[c] = dm_cli_columns (heads[c]);
  for (unsigned i = 0; i < n; i++)
    {
      target_row (&list[i], cells);
      for (int c = 0; c < N_COLS; c++)
        if (dm_cli_columns (cells[c]) > width[c])
          width[c] = dm_cli_columns (cells[c]);
    }
  for (unsigned i = 0; i <= n; i++)
    {
      if (i)
        target_row (&list[i - 1], cells);
      else
        for (int c = 0; c < N_COLS; c++)
          snprintf (cells[c], sizeof cells[0], "%s", heads[c]);
      fuse |= i && list[i - 1].kind == DM_TARGET_FUSE;
      for (int c = 0; c < N_COLS; c++)
        {
          bool right = c == COL_SIZE || c == COL_FREE;
          int pad = width[c] - dm_cli_columns (cells[c]);
          if (c)
            dm_buf_add (out, " ");
          if (c == N_COLS - 1)
            dm_buf_add (out, cells[c]);
          else if (right)
            dm_buf_printf (out, "%*s%s", pad, "", cells[c]);
          else
            dm_cli_add_cell (out, cells[c], width[c]);
        }
      dm_buf_add (out, "\n");
    }
  if (fuse)
    dm_buf_printf (out, "* %s\n", fuse_note);
}

static int
list_targets (const dm_cli_options *o)
{
  dm_target_info *list;
  unsigned n;
  dm_buf out;
  int err = dm_target_list_full (&list, &n, DM_TARGET_LIST_DEVICES
                                 | (o->all_targets ? DM_TARGET_LIST_MEMORY : 0));
  if (err < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli: cannot list filesystems: %s\n"), dm_strerror (err));
      return DM_CLI_EXIT_FAILED;
    }
  dm_buf_init (&out);
  if (o->format == DM_FORMAT_JSON)
    list_targets_json (list, n, &out);
  else
    list_targets_text (list, n, &out);
  dm_target_list_free (list);
  err = dm_cli_emit (&out, NULL);
  dm_buf_free (&out);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"), "the list", dm_strerror (err));
  return err < 0 ? DM_CLI_EXIT_FAILED : DM_CLI_EXIT_DONE;
}

static int
write_report (const dm_cli_job *c, dm_buf *out)
{
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: /* not a choice of a plain run */
      dm_report_write_text (&c->report, out);
      if (c->opt.latency)
        {
          dm_buf_add (out, "\n");
          dm_report_write_latency (&c->report, out);
        }
      break;
    case DM_FORMAT_JSON: dm_report_write_json (&c->report, out); break;
    case DM_FORMAT_CSV:
      if (c->opt.samples)
        dm_report_write_samples_csv (&c->report, out);
      else
        dm_report_write_csv (&c->report, out);
      break;
    }
  return 0;
}

/* --compare-with: the two targets' figures side by side. */
static int
write_comparison (const dm_cli_job *c, dm_buf *out)
{
  const dm_report *reports[2] = { &c->report, &c->report_b };
  const char *names[2] = { c->opt.target, c->opt.compare_with };
  dm_compare cmp;
  if (dm_compare_build (&cmp, reports, names, 2, DM_UNIT_MBPS) < 0)
    return -ENOMEM;
  dm_compare_set_thresholds (&cmp, c->opt.thresholds, c->opt.n_thresholds);
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: dm_compare_write_text (&cmp, out); break;
    case DM_FORMAT_JSON: dm_compare_write_json (&cmp, out); break;
    case DM_FORMAT_CSV:  dm_compare_write_csv (&cmp, out); break;
    }
  dm_compare_clear (&cmp);
  return 0;
}

/* --concurrent: the other targets' reports and runners; the job's own
 * report and runner are TARGET's, the first of them. */
static dm_report more_reports[DM_CLI_MAX_CONCURRENT];
static dm_runner *more_runners[DM_CLI_MAX_CONCURRENT];

static unsigned
concurrent_reports (const dm_cli_job *c, const dm_report **reports)
{
  reports[0] = &c->report;
  for (unsigned k = 0; k < c->opt.n_concurrent; k++)
    reports[k + 1] = &more_reports[k];
  return c->opt.n_concurrent + 1;
}

/* Each target's figures and their total. */
static int
write_concurrent (const dm_cli_job *c, dm_buf *out)
{
  const dm_report *reports[DM_CONCURRENT_MAX];
  unsigned n = concurrent_reports (c, reports);
  dm_report total;
  char why[200];
  int err = dm_concurrent_total (&total, reports, n, why, sizeof why);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli: %s\n", why);
      return err;
    }
  switch (c->opt.format)
    {
    case DM_FORMAT_TEXT:
    case DM_FORMAT_XLSX: /* not a choice of a plain run */
      dm_concurrent_write_text (reports, n, &total, out);
      if (c->opt.latency)
        {
          dm_buf_add (out, "\nTotal: every target's I/Os\n");
          dm_report_write_latency (&total, out);
        }
      break;
    case DM_FORMAT_JSON: dm_concurrent_write_json (reports, n, &total, out); break;
    case DM_FORMAT_CSV:  dm_concurrent_write_csv (reports, n, &total, out); break;
    }
  dm_report_clear (&total);
  return 0;
}

/* Two names of one folder, as typed: the same but for trailing
 * separators. Links are followed later, when the targets are probed. */
static bool
same_name (const char *a, const char *b)
{
  size_t la = strlen (a), lb = strlen (b);
  while (la > 1 && (a[la - 1] == '/' || a[la - 1] == '\\'))
    la--;
  while (lb > 1 && (b[lb - 1] == '/' || b[lb - 1] == '\\'))
    lb--;
  return la == lb && !memcmp (a, b, la);
}

/* A reason in English: not yet in the catalogues, the lead merges them. */
static int
concurrent_why (char *why, size_t ws, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

static int
concurrent_why (char *why, size_t ws, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, ws, fmt, ap);
  va_end (ap);
  return -EINVAL;
}

/* --concurrent: other targets, each once, for a plain timed run. */
static int
check_concurrent (const dm_cli_options *o, char *why, size_t ws)
{
  for (unsigned i = 0; i < o->n_concurrent; i++)
    {
      if (!*o->concurrent[i])
        return concurrent_why (why, ws, _ ("--concurrent: the target is empty"));
      if (same_name (o->concurrent[i], o->target))
        return concurrent_why (why, ws, _ ("--concurrent %s names the same target as TARGET"),
                       o->concurrent[i]);
      for (unsigned j = 0; j < i; j++)
        if (same_name (o->concurrent[i], o->concurrent[j]))
          return concurrent_why (why, ws, _ ("--concurrent %s is given twice"), o->concurrent[i]);
    }
  if (o->compare_with)
    return concurrent_why (why, ws, _ ("--concurrent and --compare-with do not go together"));
  if (o->settings.destroy_device[0])
    return concurrent_why (why, ws, _ ("--concurrent and --destroy-data-on do not go together"));
  if (o->start_at)
    return concurrent_why (why, ws, _ ("--concurrent and --start-at do not go together"));
  if (o->samples)
    return concurrent_why (why, ws, _ ("--concurrent and --samples do not go together"));
  /* Each target would settle on its own: their windows would differ. */
  if (o->settings.warmup_steady)
    return concurrent_why (why, ws, _ ("--concurrent does not go with --warmup steady"));
  return 0;
}

/* Every target there and each a folder of its own, before any test file
 * is made: a missing target, or one folder under two names, is bad
 * input. */
static int
check_concurrent_targets (const dm_cli_options *o)
{
  static dm_target_info info[DM_CONCURRENT_MAX];
  const char *names[DM_CONCURRENT_MAX];
  char why[2400];
  unsigned n = o->n_concurrent + 1;
  if (check_concurrent (o, why, sizeof why) < 0)
    return dm_cli_usage_error (DM_CLI_RUN, why);
  names[0] = o->target;
  memcpy (names + 1, o->concurrent, o->n_concurrent * sizeof *names);
  for (unsigned k = 0; k < n; k++)
    {
      int err = dm_target_probe (names[k], &info[k]);
      if (err < 0)
        {
          snprintf (why, sizeof why, _ ("cannot measure %s: %s"), dm_cli_shown (names[k]),
                    dm_strerror (err));
          return dm_cli_usage_error (DM_CLI_RUN, why);
        }
      const char *real = info[k].real_path[0] ? info[k].real_path : info[k].path;
      for (unsigned j = 0; j < k; j++)
        if (!strcmp (real, info[j].real_path[0] ? info[j].real_path : info[j].path))
          {
            snprintf (why, sizeof why, _ ("--concurrent: %s and %s are the same folder"),
                      dm_cli_shown (names[j]), dm_cli_shown (names[k]));
            return dm_cli_usage_error (DM_CLI_RUN, why);
          }
    }
  return -1;
}

static int
setup_run (dm_cli_job *c, dm_report *report, dm_runner **runner, const char *target,
           const dm_spec *specs, unsigned n_specs, unsigned modes)
{
  if (c->opt.n_workloads)
    {
      if (dm_report_init_workloads (report, &c->opt.settings, c->opt.workloads,
                                    c->opt.n_workloads) < 0)
        return -ENOMEM;
    }
  else
    {
      if (dm_report_init (report, &c->opt.settings, specs, n_specs, modes) < 0)
        return -ENOMEM;
      snprintf (report->profile, sizeof report->profile, "%s",
                c->opt.n_tests ? "custom" : c->opt.profile);
      report->nvme = c->opt.nvme && !c->opt.n_tests;
    }
  dm_report_set_comment (report, c->opt.comment);
  memcpy (report->tags, c->opt.tags, c->opt.n_tags * sizeof *report->tags);
  report->n_tags = c->opt.n_tags;
  memcpy (report->thresholds, c->opt.thresholds, sizeof report->thresholds);
  report->n_thresholds = c->opt.n_thresholds;
  report->sample_s = c->opt.sample_s;
  *runner = dm_cli_job_runner (c, report, target);
  return *runner ? 0 : -ENOMEM;
}

/* Completed and cancelled runs go into the history; a failure to save is
 * worth a warning, never a failed run. */
static void
save_history (const dm_cli_job *c, const dm_report *r)
{
  char path[1200];
  if (r->status != DM_STATUS_COMPLETE && r->status != DM_STATUS_CANCELLED)
    return;
  if (!dm_cli_any_result_ran (r))
    return;
  int err = dm_history_save (r, path, sizeof path);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli: warning: the run was not saved in the history: %s\n"),
             dm_strerror (err));
  else if (!c->opt.quiet && c->tty)
    fprintf (stderr, _ ("diskmeter-cli: saved as %s\n"), dm_cli_shown (path));
}

/* Waits on the wall clock (which chrony may slew or step) until at_ms;
 * -ECANCELED if interrupted. */
static int
wait_until (dm_cli_job *c, int64_t at_ms)
{
  for (;;)
    {
      int64_t left = at_ms - dm_wall_ms ();
      if (c->interrupted)
        return -ECANCELED;
      if (left <= 0)
        return 0;
      if (c->tty && !c->opt.quiet && left > 1000)
        {
          char line[160];
          snprintf (line, sizeof line, _ ("Waiting for the start time: %d:%02d"),
                    (int) (left / 60000), (int) (left / 1000 % 60));
          dm_cli_job_show (c, line);
        }
      dm_sleep_ns ((uint64_t) (left < 100 ? left : 100) * 1000000);
    }
}

/* --start-at: the test file is prepared first; then every test begins on
 * its slot of a fixed schedule from TIME (dm_schedule_measure_ms), its
 * warm-up just before, so that hosts with agreeing clocks measure each
 * test over the same window. A test that cannot begin on time fails the
 * run: a host out of step would make the fleet's sums wrong. */
static int
run_scheduled (dm_cli_job *c)
{
  dm_report *rep = &c->report;
  const dm_settings *s = &rep->settings;
  char when[40], ready[40];
  int64_t start_ms;
  unsigned k = 0;

  int64_t warmup_ms = (int64_t) llround (s->warmup_s * 1000);
  int64_t asked_ms = dm_wall_ms ();
  /* The options checked TIME a moment ago; a TIME that has passed since,
   * or whose first warm-up was due before now, is missed before the test
   * file is made, not after it was filled. */
  if (dm_start_at_parse (c->opt.start_at, asked_ms, &start_ms, NULL, 0) < 0)
    start_ms = dm_time_parse_ms (c->opt.start_at);
  if (asked_ms > start_ms - warmup_ms + DM_SCHEDULE_TOLERANCE_MS)
    {
      dm_time_format_ms (start_ms - warmup_ms, when, sizeof when);
      dm_time_format_ms (asked_ms, ready, sizeof ready);
      rep->started = dm_wall_time ();
      snprintf (rep->error, sizeof rep->error,
                "missed --start-at: the first test's warm-up was due to begin at %s, before "
                "the run could begin at %s; nothing was prepared; give a later TIME", when,
                ready);
      return dm_runner_finish (c->runner, -ETIME);
    }
  int err = dm_runner_prepare (c->runner);
  for (unsigned i = 0; !err && i < rep->n_results; i++)
    {
      if (!dm_runner_selected (c->runner, i))
        continue;
      dm_result *res = &rep->results[i];
      int64_t planned = dm_schedule_measure_ms (start_ms, s, k);
      int64_t now = dm_wall_ms ();
      if (now > planned - warmup_ms + DM_SCHEDULE_TOLERANCE_MS)
        {
          char name[32];
          dm_time_format_ms (planned - warmup_ms, when, sizeof when);
          dm_time_format_ms (now, ready, sizeof ready);
          dm_spec_name (&res->spec, name, sizeof name);
          if (k == 0)
            snprintf (rep->error, sizeof rep->error,
                      "missed --start-at: the first test was due to begin at %s but the test "
                      "file was ready only at %s (%.1f s late); give a later TIME", when, ready,
                      (double) (now - planned + warmup_ms) / 1000);
          else
            snprintf (rep->error, sizeof rep->error,
                      "%s %s was due to begin at %s on the --start-at schedule, but the test "
                      "before it ran until %s (%.1f s late); a longer --interval leaves room",
                      name, dm_mode_name (res->mode), when, ready,
                      (double) (now - planned + warmup_ms) / 1000);
          err = -ETIME;
          break;
        }
      err = wait_until (c, planned - warmup_ms);
      if (err < 0)
        break;
      dm_cli_job_clear_line (c);
      /* The runner begins its warm-up as soon as its threads are up, and
       * its first measured run exactly warmup_s later. */
      int64_t began = dm_wall_ms ();
      err = dm_runner_run_result (c->runner, i, false);
      res->planned_start_ms = planned;
      res->started_ms = began + warmup_ms;
      k++;
    }
  return dm_runner_finish (c->runner, err);
}

int
dm_cli_run_main (int argc, char **argv)
{
  static dm_cli_job c;
  unsigned n_specs, modes;
  int status;

  if ((status = dm_cli_start (DM_CLI_RUN, argc, argv, &c.opt)) >= 0)
    return status;
  if (c.opt.list_targets)
    return list_targets (&c.opt);
  if (c.opt.headroom)
    return dm_cli_headroom_main (&c);

  char why[600];
  if (dm_cli_load_profile_files (&c.opt, why, sizeof why) < 0)
    {
      for (char *p = why; *p; p++)
        if ((unsigned char) *p < 0x20 || *p == 0x7f)
          *p = '?';
      fprintf (stderr, "diskmeter-cli: %s\n", why);
      return DM_CLI_EXIT_USAGE;
    }
  const dm_spec *specs = dm_cli_specs (&c.opt, &n_specs, &modes);
  unsigned more = c.opt.n_concurrent;
  if (more && (status = check_concurrent_targets (&c.opt)) >= 0)
    return status;
  c.line = progress_line;
  bool made = setup_run (&c, &c.report, &c.runner, c.opt.target, specs, n_specs, modes) == 0
              && (!c.opt.compare_with
                  || setup_run (&c, &c.report_b, &c.runner_b, c.opt.compare_with, specs,
                                n_specs, modes) == 0);
  for (unsigned k = 0; made && k < more; k++)
    {
      made = setup_run (&c, &more_reports[k], &more_runners[k], c.opt.concurrent[k], specs,
                        n_specs, modes) == 0;
      /* One progress line, TARGET's: the others run on their own threads. */
      if (made)
        dm_runner_set_progress (more_runners[k], NULL, NULL);
    }
  if (!made)
    {
      fprintf (stderr, _ ("diskmeter-cli: out of memory\n"));
      return DM_CLI_EXIT_FAILED;
    }
  dm_cli_job_begin (&c); /* cannot fail: the runners are made */

  dm_runner *all[DM_CONCURRENT_MAX] = { c.runner };
  memcpy (all + 1, more_runners, more * sizeof *all);
  int err = more             ? dm_concurrent_run (all, more + 1)
            : c.runner_b     ? dm_interleave_run (c.runner, c.runner_b)
            : c.opt.start_at ? run_scheduled (&c)
                             : dm_runner_run (c.runner);
  status = dm_cli_job_end (&c, err, more ? "diskmeter-cli: cancelled; the test files were "
                                          "removed\n"
                                        : _ ("diskmeter-cli: cancelled; the test file was "
                                             "removed\n"));
  for (unsigned k = 0; k < more; k++)
    if (more_reports[k].status == DM_STATUS_FAILED && more_reports[k].error[0]
        && strcmp (more_reports[k].error, c.report.error))
      fprintf (stderr, "diskmeter-cli: %s: %s\n", dm_cli_shown (c.opt.concurrent[k]),
               dm_cli_shown (more_reports[k].error));
  if (!c.opt.no_history)
    {
      save_history (&c, &c.report);
      if (c.runner_b)
        save_history (&c, &c.report_b);
      for (unsigned k = 0; k < more; k++)
        save_history (&c, &more_reports[k]);
    }
  status = dm_cli_job_write (&c, more ? write_concurrent
                                 : c.runner_b ? write_comparison : write_report, status);
  for (unsigned k = 0; k < more; k++)
    {
      dm_runner_free (more_runners[k]);
      dm_report_clear (&more_reports[k]);
    }
  dm_cli_job_clear (&c);
  return status;
}
