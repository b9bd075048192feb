/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A concurrent run's total and its writers and reader: each target's
 * figures side by side with the sum, each disk's own counters beside
 * them, so that two targets behind one path show it.
 */
#include "dm-concurrent.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-latency.h"
#include "dm-text.h"
#include "dm-units.h"

/* The name a row goes by: the test's, or the workload row's. */
static void
row_name (const dm_result *res, char *buf, size_t size)
{
  if (res->shaped)
    snprintf (buf, size, "%s", res->workload.name);
  else
    dm_spec_name (&res->spec, buf, size);
}

static bool
same_test (const dm_result *a, const dm_result *b)
{
  char na[64], nb[64];
  row_name (a, na, sizeof na);
  row_name (b, nb, sizeof nb);
  return a->mode == b->mode && a->read_percent == b->read_percent && a->shaped == b->shaped
         && !strcmp (na, nb);
}

/* The worst of the targets' states: the total is complete only when
 * every target's test is. */
static dm_status
worst (dm_status a, dm_status b)
{
  static const int rank[] = { [DM_STATUS_COMPLETE] = 0, [DM_STATUS_RUNNING] = 1,
                              [DM_STATUS_PENDING] = 2, [DM_STATUS_CANCELLED] = 3,
                              [DM_STATUS_FAILED] = 4 };
  return rank[b] > rank[a] ? b : a;
}

/* Result i of every target added up. Window k is the same span on every
 * target (the runs start together), so its sums are one window of the
 * whole; figures are added as saved, so a run and its file agree. */
static void
total_result (dm_result *res, const dm_report *const *reports, unsigned n, unsigned i)
{
  unsigned runs = reports[0]->results[i].n_runs;
  for (unsigned k = 0; k < n; k++)
    {
      const dm_result *src = &reports[k]->results[i];
      res->status = k ? worst (res->status, src->status) : src->status;
      if (src->n_runs < runs)
        runs = src->n_runs;
      if (!res->error[0] && src->error[0])
        snprintf (res->error, sizeof res->error, "%s", src->error);
      res->flushes += src->flushes;
      if (src->cpu_percent > res->cpu_percent)
        res->cpu_percent = src->cpu_percent; /* one process: each saw all of it */
      if (src->hist_read)
        dm_histogram_merge (res->hist_read, src->hist_read);
      if (src->hist_write)
        dm_histogram_merge (res->hist_write, src->hist_write);
    }
  double sum = 0, sum_sq = 0;
  res->n_runs = runs;
  for (unsigned j = 0; j < runs; j++)
    {
      dm_run *run = &res->runs[j];
      double latency_weight = 0;
      for (unsigned k = 0; k < n; k++)
        {
          const dm_run *src = &reports[k]->results[i].runs[j];
          run->bytes += src->bytes;
          run->ios += src->ios;
          run->mb_per_s += dm_figure_as_saved (src->mb_per_s);
          run->iops += dm_figure_as_saved (src->iops);
          latency_weight += dm_figure_as_saved (src->latency_us) * (double) src->ios;
          if (src->seconds > run->seconds)
            run->seconds = src->seconds;
        }
      run->latency_us = run->ios ? latency_weight / (double) run->ios : 0;
      if (run->mb_per_s > res->mb_per_s)
        {
          res->mb_per_s = run->mb_per_s;
          res->iops = run->iops;
        }
      if (run->latency_us > 0 && (res->latency_us == 0 || run->latency_us < res->latency_us))
        res->latency_us = run->latency_us;
      sum += run->mb_per_s;
      sum_sq += run->mb_per_s * run->mb_per_s;
    }
  if (runs)
    {
      res->mean_mb_per_s = sum / runs;
      double var = runs > 1 ? (sum_sq - sum * sum / runs) / (runs - 1) : 0;
      res->stdev_mb_per_s = var > 0 ? sqrt (var) : 0;
    }
  dm_histogram all = *res->hist_read;
  dm_histogram_merge (&all, res->hist_write);
  dm_latency_from_histogram (&res->latency, &all);
  if (res->mode == DM_MODE_MIX)
    {
      dm_latency_from_histogram (&res->latency_read, res->hist_read);
      dm_latency_from_histogram (&res->latency_write, res->hist_write);
    }
}

int
dm_concurrent_total (dm_report *total, const dm_report *const *reports, unsigned n, char *why,
                     size_t why_size)
{
  memset (total, 0, sizeof *total);
  if (n < 1)
    {
      snprintf (why, why_size, "no targets");
      return -EINVAL;
    }
  const dm_report *a = reports[0];
  for (unsigned k = 1; k < n; k++)
    {
      bool same = reports[k]->n_results == a->n_results;
      for (unsigned i = 0; same && i < a->n_results; i++)
        same = same_test (&reports[k]->results[i], &a->results[i]);
      if (!same)
        {
          snprintf (why, why_size, "target %u did not run the same tests as target 1", k + 1);
          return -EINVAL;
        }
    }
  unsigned m = a->n_results ? a->n_results : 1;
  dm_result *results = calloc (m, sizeof *results);
  dm_histogram *hists = malloc (2 * m * sizeof *hists);
  if (!results || !hists)
    {
      free (results);
      free (hists);
      snprintf (why, why_size, "out of memory");
      return -ENOMEM;
    }
  total->results = results;
  total->histograms = hists;
  dm_report_copy_run (total, a);
  total->n_results = a->n_results;
  memset (&total->target, 0, sizeof total->target);
  snprintf (total->target.path, sizeof total->target.path, "total");
  total->test_file[0] = total->device_note[0] = total->warning[0] = '\0';
  /* The targets keep the tags: a loaded report's hold its target's facts
   * too, which are no facts of the total. */
  total->n_tags = 0;
  total->prepare_bytes = total->precondition_bytes = 0;
  total->warmup_bytes = total->measured_bytes = 0;
  for (unsigned k = 0; k < n; k++)
    {
      const dm_report *r = reports[k];
      total->status = k ? worst (total->status, r->status) : r->status;
      if (!total->error[0] || (r->status == DM_STATUS_FAILED && total->status == r->status
                               && strcmp (total->error, r->error) && !strcmp (total->error,
                                                                              "cancelled")))
        snprintf (total->error, sizeof total->error, "%s", r->error);
      total->prepare_bytes += r->prepare_bytes;
      total->precondition_bytes += r->precondition_bytes;
      total->warmup_bytes += r->warmup_bytes;
      total->measured_bytes += r->measured_bytes;
      if (r->finished > total->finished)
        total->finished = r->finished;
    }
  for (unsigned i = 0; i < a->n_results; i++)
    {
      dm_result *res = &results[i];
      const dm_result *src = &a->results[i];
      res->spec = src->spec;
      res->mode = src->mode;
      res->read_percent = src->read_percent;
      res->shaped = src->shaped;
      res->workload = src->workload;
      res->planned_start_ms = src->planned_start_ms;
      res->started_ms = src->started_ms;
      dm_result_attach_histograms (res, &hists[2 * i]);
      total_result (res, reports, n, i);
    }
  return 0;
}

/* --- Text ----------------------------------------------------------------- */

static void
add_target_line (dm_buf *b, unsigned k, const dm_report *r)
{
  const dm_target_info *t = &r->target;
  dm_buf_printf (b, "  %u: ", k + 1);
  dm_text_add_shown (b, t->path);
  const char *real = dm_target_resolved (t);
  if (real)
    {
      dm_buf_add (b, " -> ");
      dm_text_add_shown (b, real);
    }
  dm_buf_add (b, "  [");
  dm_text_add_shown (b, t->filesystem[0] ? t->filesystem : "-");
  dm_buf_add (b, ", ");
  dm_text_add_shown (b, t->device[0] ? t->device : "-");
  dm_buf_add (b, "]");
  if (r->status != DM_STATUS_COMPLETE)
    dm_buf_printf (b, "  %s", dm_status_name (r->status));
  if (r->status == DM_STATUS_FAILED && r->error[0])
    {
      dm_buf_add (b, ": ");
      dm_text_add_shown (b, r->error);
    }
  dm_buf_add (b, "\n");
}

/* A figure, or what stands in its place for a test that has none. */
static void
add_figure (dm_buf *b, const dm_result *res, double v, const char *fmt, int width)
{
  char cell[40];
  if (res->status == DM_STATUS_COMPLETE || (res->n_runs && res->status == DM_STATUS_CANCELLED))
    {
      dm_buf tmp;
      dm_buf_init (&tmp);
      dm_buf_add_double (&tmp, fmt, dm_figure_as_saved (v));
      snprintf (cell, sizeof cell, "%s", tmp.data ? tmp.data : "");
      dm_buf_free (&tmp);
    }
  else
    snprintf (cell, sizeof cell, "%s", dm_status_name (res->status));
  dm_buf_printf (b, " %*s", width, cell);
}

/* The disk a target's counters came from, or NULL where none were read. */
static const char *
disk_of (const dm_report *r)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].device.counted)
      return r->results[i].device.name;
  return NULL;
}

void
dm_concurrent_write_text (const dm_report *const *reports, unsigned n, const dm_report *total,
                          dm_buf *b)
{
  const dm_settings *s = &reports[0]->settings;
  char size[32], date[32];

  dm_buf_printf (b, "Diskmeter %s, %u targets at the same moment (", DM_VERSION, n);
  dm_text_add_shown (b, reports[0]->backend[0] ? reports[0]->backend : "-");
  dm_buf_add (b, ")\n");
  dm_buf_add (b, "* Each test ran on every target at once, over the same measured runs\n"
                 "* Total: MB/s and IOPS added up run by run, the best run's sum;\n"
                 "  latency of every target's I/Os\n");
  if (total->status == DM_STATUS_CANCELLED)
    dm_buf_add (b, "* CANCELLED: tests that did not finish show what they measured so far\n");
  if (total->status == DM_STATUS_FAILED)
    {
      dm_buf_add (b, "* FAILED: ");
      dm_text_add_shown (b, total->error);
      dm_buf_add (b, "\n");
    }
  for (unsigned k = 0; k < n; k++)
    add_target_line (b, k, reports[k]);
  dm_size_format (s->test_size, size, sizeof size);
  dm_format_local_time (reports[0]->started, date, sizeof date);
  dm_buf_printf (b, "  Test: %s (x%u) on each, Measure ", size, s->count);
  dm_buf_add_double (b, "%g", s->measure_s);
  dm_buf_add (b, " sec / Interval ");
  dm_buf_add_double (b, "%g", s->interval_s);
  dm_buf_printf (b, " sec, %s\n\n", date);

  dm_buf_printf (b, "%-18s %-5s", "Test", "Mode");
  for (unsigned k = 0; k < n; k++)
    {
      char head[24];
      snprintf (head, sizeof head, "%u MB/s", k + 1);
      dm_buf_printf (b, " %11s", head);
    }
  dm_buf_printf (b, " %11s %11s %10s %10s\n", "Total MB/s", "Total IOPS", "mean us", "p99 us");
  for (unsigned i = 0; i < total->n_results; i++)
    {
      const dm_result *t = &total->results[i];
      char name[64];
      row_name (t, name, sizeof name);
      dm_text_add_shown (b, name);
      dm_buf_printf (b, "%*s", 18 - (int) (strlen (name) < 18 ? strlen (name) : 18), "");
      dm_buf_printf (b, " %-5s", dm_mode_title (t->mode));
      for (unsigned k = 0; k < n; k++)
        add_figure (b, &reports[k]->results[i], reports[k]->results[i].mb_per_s, "%.3f", 11);
      add_figure (b, t, t->mb_per_s, "%.3f", 11);
      add_figure (b, t, t->iops, "%.1f", 11);
      add_figure (b, t, t->latency.mean, "%.2f", 10);
      add_figure (b, t, t->latency.p99, "%.2f", 10);
      dm_buf_add (b, "\n");
    }

  /* Each disk's own view: two targets behind one path each move their
   * share, and the disks say so whatever Diskmeter counted. */
  bool any = false;
  for (unsigned k = 0; k < n && !any; k++)
    for (unsigned i = 0; i < reports[k]->n_results && !any; i++)
      any = reports[k]->results[i].device.counted;
  if (!any)
    return;
  dm_buf_add (b, "\nEach disk's own counters during the measured runs (MB/s moved, busy %):\n");
  for (unsigned i = 0; i < total->n_results; i++)
    {
      char name[64];
      row_name (&total->results[i], name, sizeof name);
      dm_buf_add (b, "  ");
      dm_text_add_shown (b, name);
      dm_buf_printf (b, " %s:", dm_mode_title (total->results[i].mode));
      for (unsigned k = 0; k < n; k++)
        {
          const dm_device_seen *d = &reports[k]->results[i].device;
          dm_buf_printf (b, "  %u: ", k + 1);
          if (!d->counted || d->seconds <= 0)
            {
              dm_buf_add (b, "-");
              continue;
            }
          dm_text_add_shown (b, d->name);
          dm_buf_add (b, " ");
          dm_buf_add_double (b, "%.1f",
                             (double) (d->read_bytes + d->write_bytes) / d->seconds / 1e6);
          dm_buf_add (b, " MB/s, busy ");
          dm_buf_add_double (b, "%.0f", d->busy_percent);
          dm_buf_add (b, "%");
        }
      dm_buf_add (b, "\n");
    }
  /* Targets on one disk: its counters are all of theirs together. */
  for (unsigned k = 0; k < n; k++)
    {
      const char *name = disk_of (reports[k]);
      unsigned same = 0;
      bool first = true;
      for (unsigned j = 0; name && j < n; j++)
        if (disk_of (reports[j]) && !strcmp (disk_of (reports[j]), name))
          {
            same++;
            first = first && j >= k;
          }
      if (!name || !first || same < 2)
        continue;
      dm_buf_add (b, "  Targets");
      for (unsigned j = k; j < n; j++)
        if (disk_of (reports[j]) && !strcmp (disk_of (reports[j]), name))
          dm_buf_printf (b, " %u", j + 1);
      dm_buf_add (b, " are on one disk, ");
      dm_text_add_shown (b, name);
      dm_buf_add (b, ": its counters are theirs together\n");
    }
}

/* --- JSON and CSV --------------------------------------------------------- */

/* A whole report as a member's value: its object without the newline a
 * file ends in. */
static void
add_report_object (dm_buf *b, const dm_report *r)
{
  size_t before = b->len;
  dm_report_write_json (r, b);
  if (!b->error && b->len > before && b->data[b->len - 1] == '\n')
    b->data[--b->len] = '\0';
}

void
dm_concurrent_write_json (const dm_report *const *reports, unsigned n, const dm_report *total,
                          dm_buf *b)
{
  if (!dm_report_write_json_open (reports[0], b))
    return;
  dm_buf_printf (b, ",\n  \"concurrent\": {\n    \"n_targets\": %u,\n    \"targets\": [\n", n);
  for (unsigned k = 0; k < n; k++)
    {
      if (k)
        dm_buf_add (b, ",\n");
      add_report_object (b, reports[k]);
    }
  dm_buf_add (b, "\n    ],\n    \"total\": ");
  add_report_object (b, total);
  dm_buf_add (b, "\n  }\n}\n");
}

/* A report's CSV rows without its header line. */
static void
add_rows (dm_buf *b, const dm_report *r, bool header)
{
  dm_buf rows;
  dm_buf_init (&rows);
  dm_report_write_csv (r, &rows);
  const char *text = rows.data ? rows.data : "";
  const char *body = header ? text : strchr (text, '\n');
  if (body && !header)
    body++;
  if (body)
    dm_buf_add (b, body);
  if (rows.error)
    b->error = true;
  dm_buf_free (&rows);
}

void
dm_concurrent_write_csv (const dm_report *const *reports, unsigned n, const dm_report *total,
                         dm_buf *b)
{
  for (unsigned k = 0; k < n; k++)
    add_rows (b, reports[k], k == 0);
  add_rows (b, total, false);
}

/* --- Reading back --------------------------------------------------------- */

int
dm_concurrent_load (const char *text, size_t len, dm_report *reports, unsigned max, unsigned *n,
                    char *why, size_t why_size)
{
  dm_json_doc doc;
  char inner[200];
  int err = 0;

  *n = 0;
  if (dm_json_parse (text, len, &doc, inner, sizeof inner) < 0)
    return -ENOENT; /* the plain reader says why */
  const dm_json *c = dm_json_get (doc.root, "concurrent");
  const dm_json *list = c ? dm_json_get (c, "targets") : NULL;
  if (!c)
    err = -ENOENT;
  else if (!list || list->type != DM_JSON_ARRAY || list->n < 1)
    {
      snprintf (why, why_size, "'concurrent' holds no list of targets");
      err = -EINVAL;
    }
  else if (list->n > max)
    {
      snprintf (why, why_size, "'concurrent' holds %u targets; a run has at most %u",
              (unsigned) list->n, max);
      err = -EINVAL;
    }
  for (const dm_json *t = list && !err ? list->child : NULL; t; t = t->next)
    {
      char one[300];
      if (dm_report_load_node (&reports[*n], t, one, sizeof one) < 0)
        {
          snprintf (why, why_size, "concurrent target %u: %s", *n + 1, one);
          err = -EINVAL;
          break;
        }
      (*n)++;
    }
  dm_json_free (&doc);
  if (err)
    {
      for (unsigned k = 0; k < *n; k++)
        dm_report_clear (&reports[k]);
      *n = 0;
    }
  return err;
}
