/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge of a fleet run's reports. A merge is only meaningful for the
 * same tests with the same settings measured at the same time, so
 * everything else is refused with the offending file named; what remains
 * adds up exactly: figures per host summed, histograms per host added
 * bucket by bucket before any percentile is read.
 */
#include "dm-merge.h"
#include "dm-text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-latency.h"
#include "dm-schedule.h"
#include "dm-units.h"

/* The first setting in which b differs from a, or NULL. */
static const char *
settings_differ (const dm_settings *a, const dm_settings *b)
{
  if (a->count != b->count)
    return "count";
  if (a->test_size != b->test_size)
    return "test size";
  if (a->measure_s != b->measure_s)
    return "measure time";
  if (a->interval_s != b->interval_s)
    return "interval";
  if (a->warmup_s != b->warmup_s)
    return "warm-up";
  if (a->data != b->data)
    return "data";
  if (a->mix_read_percent != b->mix_read_percent)
    return "Mix read share";
  if (a->buffered != b->buffered)
    return "buffered";
  if (a->write_through != b->write_through)
    return "write-through";
  return NULL;
}

static void
host_figures (const dm_result *res, dm_merge_host *h, dm_histogram *scratch)
{
  double mb = 0, iops = 0;
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      mb += res->runs[k].mb_per_s;
      iops += res->runs[k].iops;
    }
  h->mb_per_s = res->n_runs ? mb / res->n_runs : 0;
  h->iops = res->n_runs ? iops / res->n_runs : 0;
  h->started_ms = res->started_ms;
  dm_histogram_reset (scratch);
  if (res->hist_read)
    dm_histogram_merge (scratch, res->hist_read);
  if (res->hist_write)
    dm_histogram_merge (scratch, res->hist_write);
  dm_latency_from_histogram (&h->latency, scratch);
}

/* min, max and coefficient of variation (population, %) of n values
 * taken every stride bytes. */
static void
spread (const double *v, size_t stride, unsigned n, double *min, double *max, double *cv)
{
  double sum = 0, sq = 0;
  *min = INFINITY;
  *max = -INFINITY;
  for (unsigned i = 0; i < n; i++)
    {
      double x = *(const double *) ((const char *) v + i * stride);
      sum += x;
      sq += x * x;
      if (x < *min)
        *min = x;
      if (x > *max)
        *max = x;
    }
  double mean = sum / n, var = sq / n - mean * mean;
  *cv = mean > 0 ? sqrt (var > 0 ? var : 0) / mean * 100 : 0;
}

/* The span a host measured a result over, in ms: from its schedule if it
 * ran scheduled, else the whole run's (seconds). */
static void
span_of (const dm_report *r, const dm_result *res, bool scheduled, int64_t *a, int64_t *b)
{
  if (scheduled)
    {
      *a = res->started_ms;
      *b = res->started_ms + (int64_t) llround (res->n_runs * r->settings.measure_s * 1000);
    }
  else
    {
      *a = r->started * 1000;
      *b = (r->finished > r->started ? r->finished : r->started + 1) * 1000;
    }
}

/* Whether b is a's run again: a file given twice, or a copy of it with
 * another name or comment. A report has no run id and no host name; what
 * tells two hosts apart is when they ran, their test file's random name,
 * their system, and above all what they measured, which no two hosts
 * repeat byte for byte (on a block device the test file is the device on
 * every host, and a fleet's hosts may start in the same second). */
static bool
same_run (const dm_report *a, const dm_report *b)
{
  if (a->started != b->started || a->finished != b->finished
      || strcmp (a->test_file, b->test_file) || strcmp (a->target.path, b->target.path)
      || strcmp (a->system.kernel, b->system.kernel)
      || strcmp (a->system.cpu_model, b->system.cpu_model) || a->n_results != b->n_results)
    return false;
  for (unsigned i = 0; i < a->n_results; i++)
    {
      const dm_result *x = &a->results[i], *y = &b->results[i];
      if (x->started_ms != y->started_ms || x->n_runs != y->n_runs)
        return false;
      for (unsigned k = 0; k < x->n_runs; k++)
        if (x->runs[k].bytes != y->runs[k].bytes || x->runs[k].ios != y->runs[k].ios
            || x->runs[k].mb_per_s != y->runs[k].mb_per_s)
          return false;
    }
  return true;
}

int
dm_merge_build (dm_merge *m, const dm_report *const *reports, const char *const *names,
                unsigned n, unsigned flags, char *why, size_t why_size)
{
  char name_a[32], name_b[32];
  memset (m, 0, sizeof *m);
  if (n < 2 || n > DM_MERGE_MAX)
    return dm_why (why, why_size, "a merge takes 2 to %d result files", DM_MERGE_MAX);
  const dm_report *first = reports[0];

  m->scheduled = true;
  for (unsigned h = 0; h < n; h++)
    {
      const dm_report *r = reports[h];
      const char *diff;
      if (r->status != DM_STATUS_COMPLETE)
        return dm_why (why, why_size, "%s: the run did not complete (%s%s%s)", names[h],
                       dm_status_name (r->status), r->error[0] ? ": " : "", r->error);
      if (h && (diff = settings_differ (&first->settings, &r->settings)))
        return dm_why (why, why_size, "%s: its settings differ from %s's (%s)", names[h],
                       names[0], diff);
      if (h && r->n_results != first->n_results)
        return dm_why (why, why_size, "%s: it has %u tests where %s has %u", names[h],
                       r->n_results, names[0], first->n_results);
      for (unsigned i = 0; i < r->n_results; i++)
        {
          const dm_result *res = &r->results[i], *ref = &first->results[i];
          dm_spec_name (&res->spec, name_a, sizeof name_a);
          dm_spec_name (&ref->spec, name_b, sizeof name_b);
          if (strcmp (name_a, name_b) || res->mode != ref->mode
              || res->read_percent != ref->read_percent)
            return dm_why (why, why_size, "%s: its tests differ from %s's (%s %s where %s has %s %s)",
                           names[h], names[0], name_a, dm_mode_name (res->mode), names[0], name_b,
                           dm_mode_name (ref->mode));
          if (res->status != DM_STATUS_COMPLETE || !res->n_runs)
            return dm_why (why, why_size, "%s: %s %s did not complete", names[h], name_a,
                           dm_mode_name (res->mode));
          if (!res->started_ms)
            m->scheduled = false;
        }
      for (unsigned e = 0; e < h && !(flags & DM_MERGE_ALLOW_DUPLICATES); e++)
        if (same_run (reports[e], r))
          {
            char when[40];
            dm_time_format_ms (r->started * 1000, when, sizeof when);
            return dm_why (why, why_size,
                           "%s: the same run as %s (started %s, test file %s), which would count "
                           "one host twice; --allow-duplicates merges it anyway",
                           names[h], names[e], when, r->test_file[0] ? r->test_file : "unknown");
          }
      m->reports[h] = r;
      m->names[h] = names[h];
    }
  m->n_hosts = n;
  if (!first->n_results)
    return dm_why (why, why_size, "%s: no results", names[0]);

  /* Overlap: each file against the window every file before it shares. */
  for (unsigned i = 0; i < first->n_results; i++)
    {
      int64_t lo = 0, hi = 0;
      for (unsigned h = 0; h < n; h++)
        {
          int64_t a, b;
          span_of (reports[h], &reports[h]->results[i], m->scheduled, &a, &b);
          if (h == 0 || a > lo)
            lo = a;
          if (h == 0 || b < hi)
            hi = b;
          if (lo >= hi)
            {
              char when[40];
              dm_spec_name (&first->results[i].spec, name_a, sizeof name_a);
              dm_time_format_ms (a, when, sizeof when);
              if (m->scheduled)
                return dm_why (why, why_size,
                               "%s: its %s %s started at %s and did not overlap the other "
                               "hosts' (were the clocks or --start-at different?)",
                               names[h], name_a, dm_mode_name (first->results[i].mode), when);
              return dm_why (why, why_size,
                             "%s: its run (from %s) did not overlap the other files' in time",
                             names[h], when);
            }
        }
      if (!m->scheduled)
        break;
    }

  m->n_rows = first->n_results;
  m->rows = calloc (m->n_rows, sizeof *m->rows);
  m->hists = malloc ((m->n_rows * 3 + 1) * sizeof *m->hists);
  m->host_cells = calloc ((size_t) m->n_rows * n, sizeof *m->host_cells);
  if (!m->rows || !m->hists || !m->host_cells)
    {
      dm_merge_clear (m);
      return dm_why (why, why_size, "out of memory");
    }
  dm_histogram *scratch = &m->hists[m->n_rows * 3];
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      dm_merge_row *row = &m->rows[i];
      dm_histogram *hr = &m->hists[3 * i + 1], *hw = &m->hists[3 * i + 2];
      const dm_result *ref = &first->results[i];
      row->spec = ref->spec;
      row->mode = ref->mode;
      row->read_percent = ref->read_percent;
      row->hist = &m->hists[3 * i];
      row->hosts = &m->host_cells[(size_t) i * n];
      dm_histogram_reset (row->hist);
      dm_histogram_reset (hr);
      dm_histogram_reset (hw);
      for (unsigned h = 0; h < n; h++)
        {
          const dm_result *res = &reports[h]->results[i];
          host_figures (res, &row->hosts[h], scratch);
          row->sum_mb_per_s += row->hosts[h].mb_per_s;
          row->sum_iops += row->hosts[h].iops;
          if (res->hist_read)
            dm_histogram_merge (hr, res->hist_read);
          if (res->hist_write)
            dm_histogram_merge (hw, res->hist_write);
          if (m->scheduled)
            {
              int64_t a, b;
              span_of (reports[h], res, true, &a, &b);
              if (h == 0 || a > row->window_start_ms)
                row->window_start_ms = a;
              if (h == 0 || b < row->window_end_ms)
                row->window_end_ms = b;
            }
        }
      dm_histogram_merge (row->hist, hr);
      dm_histogram_merge (row->hist, hw);
      dm_latency_from_histogram (&row->latency, row->hist);
      if (row->mode == DM_MODE_MIX)
        {
          dm_latency_from_histogram (&row->latency_read, hr);
          dm_latency_from_histogram (&row->latency_write, hw);
        }
      spread (&row->hosts[0].mb_per_s, sizeof row->hosts[0], n, &row->min_mb_per_s,
              &row->max_mb_per_s, &row->cv_mb_per_s);
      spread (&row->hosts[0].iops, sizeof row->hosts[0], n, &row->min_iops, &row->max_iops,
              &row->cv_iops);
    }
  return 0;
}

void
dm_merge_clear (dm_merge *m)
{
  free (m->rows);
  free (m->hists);
  free (m->host_cells);
  memset (m, 0, sizeof *m);
}

/* ---- writers -------------------------------------------------------------- */

static void
num (dm_buf *b, const char *fmt, double v)
{
  dm_buf_add_double (b, fmt, v);
}

void
dm_merge_write_text (const dm_merge *m, dm_buf *b)
{
  char name[32], when[40];
  const dm_settings *s = &m->reports[0]->settings;
  char size[32];

  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "Diskmeter %s - fleet report of %u hosts\n", DM_VERSION, m->n_hosts);
  dm_buf_printf (b, "Settings: %u x ", s->count);
  num (b, "%g", s->measure_s);
  dm_buf_printf (b, " s, %s, warm-up ", size);
  num (b, "%g", s->warmup_s);
  dm_buf_add (b, " s, interval ");
  num (b, "%g", s->interval_s);
  dm_buf_add (b, " s\n");
  dm_buf_add (b, m->scheduled ? "Runs: scheduled (--start-at); sums are over the window every host measured\n"
                              : "Runs: not scheduled; they overlapped in time, not window by window\n");
  for (unsigned h = 0; h < m->n_hosts; h++)
    {
      /* A file name or comment is one line, shown escaped: neither can
       * forge a row of the fleet's table or drive the terminal. */
      dm_buf_printf (b, "Host %u: ", h + 1);
      dm_text_add_shown (b, m->names[h]);
      if (m->reports[h]->comment[0])
        {
          dm_buf_add (b, " - ");
          dm_text_add_shown (b, m->reports[h]->comment);
        }
      dm_buf_add (b, "\n");
    }
  dm_buf_add (b, "\nMB/s and IOPS: mean over each host's measured runs, summed over hosts.\n"
                 "Latency: all I/Os of all hosts, from their merged histograms.\n\n");
  dm_buf_printf (b, "%-14s %-5s %-18s %11s %11s %10s %10s %10s %10s %7s\n", "Test", "Mode", "Host",
                 "MB/s", "IOPS", "p50 us", "p99 us", "p99.9 us", "max us", "CV %");
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      const dm_merge_row *row = &m->rows[i];
      dm_spec_name (&row->spec, name, sizeof name);
      dm_buf_printf (b, "%-14s %-5s %-18s ", name, dm_mode_title (row->mode), "sum");
      num (b, "%11.2f", row->sum_mb_per_s);
      num (b, " %11.1f", row->sum_iops);
      num (b, " %10.1f", row->latency.p50);
      num (b, " %10.1f", row->latency.p99);
      num (b, " %10.1f", row->latency.p99_9);
      num (b, " %10.1f", row->latency.max);
      num (b, " %7.1f", row->cv_mb_per_s);
      dm_buf_add (b, "\n");
      for (unsigned h = 0; h < m->n_hosts; h++)
        {
          const dm_merge_host *c = &row->hosts[h];
          const char *base = strrchr (m->names[h], '/');
          base = base ? base + 1 : m->names[h];
          char shown[300], col[64];
          dm_text_shorten (col, sizeof col, dm_text_shown (shown, sizeof shown, base), 18);
          dm_buf_printf (b, "%-14s %-5s %-18s ", "", "", col);
          num (b, "%11.2f", c->mb_per_s);
          num (b, " %11.1f", c->iops);
          num (b, " %10.1f", c->latency.p50);
          num (b, " %10.1f", c->latency.p99);
          num (b, " %10.1f", c->latency.p99_9);
          num (b, " %10.1f", c->latency.max);
          dm_buf_add (b, "\n");
        }
      dm_buf_add (b, "  spread: MB/s ");
      num (b, "%.2f", row->min_mb_per_s);
      dm_buf_add (b, " to ");
      num (b, "%.2f", row->max_mb_per_s);
      dm_buf_add (b, ", IOPS ");
      num (b, "%.1f", row->min_iops);
      dm_buf_add (b, " to ");
      num (b, "%.1f", row->max_iops);
      dm_buf_add (b, " (CV ");
      num (b, "%.1f", row->cv_iops);
      dm_buf_add (b, " %)");
      if (row->window_start_ms)
        {
          dm_time_format_ms (row->window_start_ms, when, sizeof when);
          dm_buf_printf (b, "; common window from %s for ", when);
          num (b, "%.3f", (double) (row->window_end_ms - row->window_start_ms) / 1000);
          dm_buf_add (b, " s");
        }
      dm_buf_add (b, "\n");
    }
}

/* A small JSON writer: the merge's own layout, stable field names. */
static void
jkey (dm_buf *b, bool *first, const char *k)
{
  dm_buf_add (b, *first ? "" : ", ");
  *first = false;
  if (k)
    {
      dm_buf_add_json_string (b, k);
      dm_buf_add (b, ": ");
    }
}

static void
jnum (dm_buf *b, bool *first, const char *k, const char *fmt, double v)
{
  jkey (b, first, k);
  dm_buf_add_double (b, fmt, v);
}

static void
jstr (dm_buf *b, bool *first, const char *k, const char *v)
{
  jkey (b, first, k);
  dm_buf_add_json_string (b, v);
}

static void
jlatency (dm_buf *b, bool *first, const char *k, const dm_latency *l)
{
  bool f = true;
  jkey (b, first, k);
  dm_buf_add (b, "{");
  jnum (b, &f, "min", "%.3f", l->min);
  jnum (b, &f, "mean", "%.3f", l->mean);
  jnum (b, &f, "max", "%.3f", l->max);
  jnum (b, &f, "stdev", "%.3f", l->stdev);
  jnum (b, &f, "p50", "%.3f", l->p50);
  jnum (b, &f, "p90", "%.3f", l->p90);
  jnum (b, &f, "p99", "%.3f", l->p99);
  jnum (b, &f, "p99_9", "%.3f", l->p99_9);
  jnum (b, &f, "p99_99", "%.3f", l->p99_99);
  dm_buf_add (b, "}");
}

void
dm_merge_write_json (const dm_merge *m, dm_buf *b)
{
  const dm_settings *s = &m->reports[0]->settings;
  char name[32], when[40];
  bool f;

  dm_buf_printf (b, "{\n  \"tool\": {\"name\": \"Diskmeter\", \"version\": \"%s\"},\n", DM_VERSION);
  dm_buf_add (b, "  \"kind\": \"merge\",\n");
  dm_buf_printf (b, "  \"scheduled\": %s,\n", m->scheduled ? "true" : "false");
  f = true;
  dm_buf_add (b, "  \"settings\": {");
  jnum (b, &f, "count", "%.0f", s->count);
  jnum (b, &f, "test_size", "%.0f", (double) s->test_size);
  jnum (b, &f, "measure_s", "%.6g", s->measure_s);
  jnum (b, &f, "interval_s", "%.6g", s->interval_s);
  jnum (b, &f, "warmup_s", "%.6g", s->warmup_s);
  dm_buf_add (b, "},\n  \"hosts\": [");
  for (unsigned h = 0; h < m->n_hosts; h++)
    {
      const dm_report *r = m->reports[h];
      f = true;
      dm_buf_add (b, h ? ",\n    {" : "\n    {");
      jstr (b, &f, "file", m->names[h]);
      jstr (b, &f, "comment", r->comment);
      jstr (b, &f, "target", r->target.path);
      jstr (b, &f, "device", r->target.device);
      jstr (b, &f, "backend", r->backend);
      dm_time_format_ms (r->started * 1000, when, sizeof when);
      jstr (b, &f, "started", when);
      dm_buf_add (b, "}");
    }
  dm_buf_add (b, "\n  ],\n  \"results\": [");
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      const dm_merge_row *row = &m->rows[i];
      dm_spec_name (&row->spec, name, sizeof name);
      f = true;
      dm_buf_add (b, i ? ",\n    {" : "\n    {");
      jstr (b, &f, "test", name);
      jstr (b, &f, "mode", dm_mode_name (row->mode));
      jnum (b, &f, "read_percent", "%.0f", row->read_percent);
      jnum (b, &f, "host_count", "%.0f", m->n_hosts);
      jnum (b, &f, "mb_per_s", "%.3f", row->sum_mb_per_s);
      jnum (b, &f, "iops", "%.1f", row->sum_iops);
      jkey (b, &f, "spread");
      dm_buf_add (b, "{\"mb_per_s\": {\"min\": ");
      num (b, "%.3f", row->min_mb_per_s);
      dm_buf_add (b, ", \"max\": ");
      num (b, "%.3f", row->max_mb_per_s);
      dm_buf_add (b, ", \"cv_percent\": ");
      num (b, "%.3f", row->cv_mb_per_s);
      dm_buf_add (b, "}, \"iops\": {\"min\": ");
      num (b, "%.1f", row->min_iops);
      dm_buf_add (b, ", \"max\": ");
      num (b, "%.1f", row->max_iops);
      dm_buf_add (b, ", \"cv_percent\": ");
      num (b, "%.3f", row->cv_iops);
      dm_buf_add (b, "}}");
      jlatency (b, &f, "latency_us", &row->latency);
      if (row->mode == DM_MODE_MIX)
        {
          jlatency (b, &f, "latency_read_us", &row->latency_read);
          jlatency (b, &f, "latency_write_us", &row->latency_write);
        }
      if (row->window_start_ms)
        {
          jkey (b, &f, "window");
          dm_time_format_ms (row->window_start_ms, when, sizeof when);
          dm_buf_printf (b, "{\"start\": \"%s\", ", when);
          dm_time_format_ms (row->window_end_ms, when, sizeof when);
          dm_buf_printf (b, "\"end\": \"%s\"}", when);
        }
      dm_buf_add (b, ",\n      \"latency_histogram\": [");
      bool first_bucket = true;
      for (unsigned k = 0; k < DM_HIST_BUCKETS; k++)
        if (row->hist->buckets[k])
          {
            dm_buf_printf (b, "%s[%llu, %llu]", first_bucket ? "" : ", ",
                           (unsigned long long) dm_histogram_bucket_low (k),
                           (unsigned long long) row->hist->buckets[k]);
            first_bucket = false;
          }
      dm_buf_add (b, "],\n      \"per_host\": [");
      for (unsigned h = 0; h < m->n_hosts; h++)
        {
          const dm_merge_host *c = &row->hosts[h];
          bool g = true;
          dm_buf_add (b, h ? ",\n        {" : "\n        {");
          jstr (b, &g, "file", m->names[h]);
          jnum (b, &g, "mb_per_s", "%.3f", c->mb_per_s);
          jnum (b, &g, "iops", "%.1f", c->iops);
          jlatency (b, &g, "latency_us", &c->latency);
          if (c->started_ms)
            {
              dm_time_format_ms (c->started_ms, when, sizeof when);
              jstr (b, &g, "started", when);
            }
          dm_buf_add (b, "}");
        }
      dm_buf_add (b, "\n      ]}");
    }
  dm_buf_add (b, "\n  ]\n}\n");
}

static void
csv_row (dm_buf *b, const char *test, dm_mode mode, const char *host, double mb, double iops,
         const dm_latency *l)
{
  dm_buf_printf (b, "%s,%s,", test, dm_mode_name (mode));
  dm_buf_add_csv_field (b, host);
  dm_buf_add (b, ",");
  num (b, "%.3f", mb);
  dm_buf_add (b, ",");
  num (b, "%.1f", iops);
  const double v[] = { l->mean, l->p50, l->p90, l->p99, l->p99_9, l->p99_99, l->max };
  for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
    {
      dm_buf_add (b, ",");
      num (b, "%.3f", v[k]);
    }
}

void
dm_merge_write_csv (const dm_merge *m, dm_buf *b)
{
  char name[32];
  dm_buf_add (b, "test,mode,host,mb_per_s,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,"
                 "lat_p99_9_us,lat_p99_99_us,lat_max_us,min_mb_per_s,max_mb_per_s,cv_mb_per_s,"
                 "min_iops,max_iops,cv_iops\r\n");
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      const dm_merge_row *row = &m->rows[i];
      dm_spec_name (&row->spec, name, sizeof name);
      csv_row (b, name, row->mode, "sum", row->sum_mb_per_s, row->sum_iops, &row->latency);
      const double v[] = { row->min_mb_per_s, row->max_mb_per_s, row->cv_mb_per_s,
                           row->min_iops, row->max_iops, row->cv_iops };
      for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
        {
          dm_buf_add (b, ",");
          num (b, "%.3f", v[k]);
        }
      dm_buf_add (b, "\r\n");
      for (unsigned h = 0; h < m->n_hosts; h++)
        {
          csv_row (b, name, row->mode, m->names[h], row->hosts[h].mb_per_s, row->hosts[h].iops,
                   &row->hosts[h].latency);
          dm_buf_add (b, ",,,,,,\r\n");
        }
    }
}
