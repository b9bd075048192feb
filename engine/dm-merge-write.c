/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A merged fleet report written out: text for the terminal, JSON and CSV
 * for scripts. Each lists the sums per test, then every host's own row,
 * from the compact rows the merge kept (dm-merge.h).
 */
#include "dm-merge.h"
#include "dm-text.h"

#include <string.h>

#include "dm-schedule.h"
#include "dm-units.h"

static void
num (dm_buf *b, const char *fmt, double v)
{
  dm_buf_add_double (b, fmt, v);
}

/* Host h's tags that not every host has, between open and close; nothing
 * without any. The fleet's common ones are said once. */
static void
host_tags (dm_buf *b, const dm_merge *m, unsigned h, const char *open, const char *sep,
           const char *close)
{
  const dm_merge_source *s = &m->hosts[h];
  unsigned shown = 0;
  for (unsigned k = 0; k < s->n_tags; k++)
    {
      if (dm_merge_tag_common (m, &s->tags[k]))
        continue;
      dm_buf_add (b, shown++ ? sep : open);
      dm_tags_add_text (b, &s->tags[k], 1, "");
    }
  if (shown)
    dm_buf_add (b, close);
}

void
dm_merge_write_text (const dm_merge *m, dm_buf *b)
{
  char name[32], when[40];
  const dm_settings *s = m->hosts[0].settings;
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
      dm_text_add_shown (b, m->hosts[h].name);
      if (m->hosts[h].comment[0])
        {
          dm_buf_add (b, " - ");
          dm_text_add_shown (b, m->hosts[h].comment);
        }
      host_tags (b, m, h, "  [", ", ", "]");
      dm_buf_add (b, "\n");
    }
  if (m->n_common_tags)
    {
      dm_buf_add (b, "Tags of every host: ");
      dm_tags_add_text (b, m->common_tags, m->n_common_tags, ", ");
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
          const char *base = strrchr (m->hosts[h].name, '/');
          base = base ? base + 1 : m->hosts[h].name;
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
jtags (dm_buf *b, bool *first, const char *k, const dm_tag *tags, unsigned n)
{
  bool f = true;
  jkey (b, first, k);
  dm_buf_add (b, "{");
  for (unsigned i = 0; i < n; i++)
    jstr (b, &f, tags[i].key, tags[i].value);
  dm_buf_add (b, "}");
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
  const dm_settings *s = m->hosts[0].settings;
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
  dm_buf_add (b, "},\n  \"tags\": ");
  f = true;
  jtags (b, &f, NULL, m->common_tags, m->n_common_tags);
  dm_buf_add (b, ",\n  \"hosts\": [");
  for (unsigned h = 0; h < m->n_hosts; h++)
    {
      const dm_merge_source *r = &m->hosts[h];
      f = true;
      dm_buf_add (b, h ? ",\n    {" : "\n    {");
      jstr (b, &f, "file", r->name);
      jstr (b, &f, "comment", r->comment);
      jstr (b, &f, "target", r->target_path);
      jstr (b, &f, "device", r->device);
      jstr (b, &f, "backend", r->backend);
      dm_time_format_ms (r->started * 1000, when, sizeof when);
      jstr (b, &f, "started", when);
      /* All the host's tags, the common ones too: a host's entry says
       * all of where it came from on its own. */
      jtags (b, &f, "tags", r->tags, r->n_tags);
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
          jstr (b, &g, "file", m->hosts[h].name);
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

/* ",key=value; key=value" as one field. */
static void
csv_tags (dm_buf *b, const dm_tag *tags, unsigned n)
{
  dm_buf one;
  dm_buf_init (&one);
  dm_tags_add_text (&one, tags, n, "; ");
  dm_buf_add (b, ",");
  dm_buf_add_csv_field (b, one.data ? one.data : "");
  dm_buf_free (&one);
}

void
dm_merge_write_csv (const dm_merge *m, dm_buf *b)
{
  char name[32];
  /* A tags column, last, only where a user gave some: the sum's row
   * holds the tags every host has, a host's row all of its own. */
  bool tagged = false;
  for (unsigned h = 0; h < m->n_hosts; h++)
    tagged |= m->hosts[h].n_tags > 0;
  dm_buf_add (b, "test,mode,host,mb_per_s,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,"
                 "lat_p99_9_us,lat_p99_99_us,lat_max_us,min_mb_per_s,max_mb_per_s,cv_mb_per_s,"
                 "min_iops,max_iops,cv_iops");
  dm_buf_add (b, tagged ? ",tags\r\n" : "\r\n");
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
      if (tagged)
        csv_tags (b, m->common_tags, m->n_common_tags);
      dm_buf_add (b, "\r\n");
      for (unsigned h = 0; h < m->n_hosts; h++)
        {
          csv_row (b, name, row->mode, m->hosts[h].name, row->hosts[h].mb_per_s, row->hosts[h].iops,
                   &row->hosts[h].latency);
          dm_buf_add (b, ",,,,,,");
          if (tagged)
            csv_tags (b, m->hosts[h].tags, m->hosts[h].n_tags);
          dm_buf_add (b, "\r\n");
        }
    }
}
