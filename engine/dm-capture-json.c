/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture as JSON, and read back: the derived figures a script wants
 * (shares, IOPS, means and percentiles) next to the histograms in full,
 * the time histograms as their log-linear buckets, so that `diskmeter-cli
 * show` prints a saved capture exactly as the capture printed it.
 */
#include "dm-capture.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dm-json.h"
#include "dm-text.h"
#include "dm-units.h"

#define VERSION 1

static const char *const dir_names[DM_CAPTURE_DIRS] = { "read", "write", "all" };

static void
num (dm_buf *b, const char *key, double v, const char *fmt, bool comma)
{
  dm_buf_printf (b, "\"%s\": ", key);
  dm_buf_add_double (b, fmt, v);
  if (comma)
    dm_buf_add (b, ", ");
}

static void
counts (dm_buf *b, const char *key, const uint64_t *v, unsigned n)
{
  dm_buf_printf (b, ",\n      \"%s\": [", key);
  for (unsigned i = 0; i < n; i++)
    dm_buf_printf (b, "%s%llu", i ? ", " : "", (unsigned long long) v[i]);
  dm_buf_add (b, "]");
}

static void
times (dm_buf *b, const char *key, const dm_histogram *h)
{
  dm_buf_printf (b, ",\n      \"%s\": { ", key);
  num (b, "mean_us", dm_histogram_mean (h) / 1e3, "%.3f", true);
  num (b, "p50_us", dm_histogram_quantile (h, 0.5) / 1e3, "%.3f", true);
  num (b, "p95_us", dm_histogram_quantile (h, 0.95) / 1e3, "%.3f", true);
  num (b, "p99_us", dm_histogram_quantile (h, 0.99) / 1e3, "%.3f", true);
  num (b, "count", (double) h->count, "%.0f", true);
  num (b, "min_ns", h->count ? (double) h->min : 0, "%.0f", true);
  num (b, "max_ns", (double) h->max, "%.0f", true);
  num (b, "sum_ns", h->sum, "%.17g", true);
  num (b, "sum_sq", h->sum_sq, "%.17g", true);
  dm_buf_add (b, "\"buckets\": [");
  bool first = true;
  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    if (h->buckets[i])
      {
        dm_buf_printf (b, "%s[%u, %llu]", first ? "" : ", ", i, (unsigned long long) h->buckets[i]);
        first = false;
      }
  dm_buf_add (b, "] }");
}

static void
str (dm_buf *b, const char *key, const char *v)
{
  dm_buf_printf (b, "    \"%s\": ", key);
  dm_buf_add_json_string (b, v);
  dm_buf_add (b, ",\n");
}

void
dm_capture_write_json (const dm_capture *c, dm_buf *b)
{
  dm_capture_iops io;
  char when[32];
  time_t t = (time_t) c->started;
  struct tm *tm = gmtime (&t);
  if (tm)
    strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", tm);
  else
    snprintf (when, sizeof when, "1970-01-01T00:00:00Z");
  dm_capture_iops_get (c, &io);
  dm_buf_printf (b, "{\n  \"capture\": {\n    \"version\": %d,\n", VERSION);
  str (b, "target", c->target);
  str (b, "disk", c->disk);
  str (b, "note", c->note);
  str (b, "from", c->from == DM_CAPTURE_FROM_EVENTS ? "events" : "counters");
  str (b, "from_why", c->from_why);
  str (b, "started", when);
  dm_buf_add (b, "    ");
  num (b, "started_unix", (double) c->started, "%.0f", true);
  num (b, "monotonic_ns", (double) c->started_ns, "%.0f", true);
  num (b, "seconds", c->seconds, "%.6f", true);
  dm_buf_printf (b, "\"interrupted\": %s,\n    ", c->interrupted ? "true" : "false");
  num (b, "read_percent", dm_capture_read_share (c), "%.3f", true);
  num (b, "random_percent", dm_capture_random_share (&c->dir[DM_CAPTURE_ALL]), "%.3f", true);
  num (b, "depth_mean", dm_capture_depth_mean (&c->dir[DM_CAPTURE_ALL]), "%.4f", true);
  num (b, "cpu_percent", c->cpu_percent, "%.4f", false);
  dm_buf_add (b, ",\n    \"iops\": { ");
  num (b, "mean", io.mean, "%.3f", true);
  num (b, "p50", io.p50, "%.0f", true);
  num (b, "p95", io.p95, "%.0f", true);
  num (b, "peak", io.peak, "%.0f", true);
  num (b, "samples", io.samples, "%.0f", true);
  num (b, "bursts", io.bursts, "%.0f", true);
  num (b, "burst_longest_s", io.burst_longest_s, "%.1f", true);
  num (b, "burst_peak", io.burst_peak, "%.0f", true);
  num (b, "burst_share", io.burst_share, "%.3f", false);
  dm_buf_add (b, " },\n    ");
  num (b, "other", (double) c->other, "%.0f", true);
  num (b, "lost", (double) c->lost, "%.0f", true);
  num (b, "unmatched", (double) c->unmatched, "%.0f", true);
  num (b, "in_flight", (double) c->in_flight, "%.0f", true);
  num (b, "low", (double) c->low, "%.0f", true);
  num (b, "high", (double) c->high, "%.0f", false);
  dm_buf_add (b, ",\n    \"counters\": ");
  if (!c->counted)
    dm_buf_add (b, "null");
  else
    {
      dm_buf_add (b, "{ ");
      num (b, "reads", (double) c->c_reads, "%.0f", true);
      num (b, "writes", (double) c->c_writes, "%.0f", true);
      num (b, "read_bytes", (double) c->c_read_bytes, "%.0f", true);
      num (b, "write_bytes", (double) c->c_write_bytes, "%.0f", true);
      num (b, "avg_queue", c->avg_queue, "%.17g", true);
      num (b, "busy_percent", c->busy_percent, "%.17g", true);
      num (b, "await_ms", c->await_ms, "%.17g", false);
      dm_buf_add (b, " }");
    }
  dm_buf_add (b, ",\n    \"directions\": {");
  for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
    {
      const dm_capture_dir *x = &c->dir[d];
      dm_buf_printf (b, "%s\n    \"%s\": {\n      ", d ? "," : "", dir_names[d]);
      num (b, "requests", (double) x->requests, "%.0f", true);
      num (b, "bytes", (double) x->bytes, "%.0f", true);
      num (b, "sequential", (double) x->sequential, "%.0f", true);
      num (b, "random_percent", dm_capture_random_share (x), "%.3f", true);
      num (b, "depth_mean", dm_capture_depth_mean (x), "%.4f", true);
      num (b, "depth_median", dm_capture_depth_median (x), "%.0f", false);
      /* Sizes from <=512 B up by powers of two; seeks from -1 TiB and
       * beyond through 0 (the middle) to beyond +1 TiB; depths from 1. */
      counts (b, "sizes", x->sizes, DM_CAPTURE_SIZES);
      counts (b, "seeks", x->seeks, DM_CAPTURE_SEEKS);
      counts (b, "depths", x->depths, DM_CAPTURE_DEPTH_MAX);
      times (b, "latency", &x->latency);
      times (b, "interarrival", &x->interarrival);
      dm_buf_add (b, "\n    }");
    }
  dm_buf_add (b, "},\n    \"ticks_100ms\": [");
  for (unsigned i = 0; i < c->n_ticks; i++)
    dm_buf_printf (b, "%s[%u, %u]", i ? ", " : "", c->ticks[i][0], c->ticks[i][1]);
  dm_buf_add (b, "]\n  }\n}\n");
}

static int
read_counts (const dm_json *obj, const char *key, uint64_t *v, unsigned n, char *why, size_t ws)
{
  const dm_json *a = dm_json_get (obj, key);
  if (!a || a->type != DM_JSON_ARRAY || a->n != n)
    return dm_why (why, ws, "\"%s\" is not an array of %u counts", key, n);
  unsigned i = 0;
  for (const dm_json *e = a->child; e; e = e->next, i++)
    {
      if (e->type != DM_JSON_NUMBER || e->num < 0)
        return dm_why (why, ws, "\"%s\" holds something other than a count", key);
      v[i] = (uint64_t) e->num;
    }
  return 0;
}

static int
read_times (const dm_json *obj, const char *key, dm_histogram *h, char *why, size_t ws)
{
  const dm_json *t = dm_json_get (obj, key), *b = t ? dm_json_get (t, "buckets") : NULL;
  if (!b || b->type != DM_JSON_ARRAY)
    return dm_why (why, ws, "\"%s\" has no buckets", key);
  dm_histogram_reset (h);
  for (const dm_json *e = b->child; e; e = e->next)
    {
      if (e->type != DM_JSON_ARRAY || e->n != 2 || e->child->type != DM_JSON_NUMBER
          || e->child->next->type != DM_JSON_NUMBER || e->child->num < 0
          || e->child->num >= DM_HIST_BUCKETS || e->child->next->num < 0)
        return dm_why (why, ws, "\"%s\" holds a bucket that is not [index, count]", key);
      h->buckets[(unsigned) e->child->num] = (uint64_t) e->child->next->num;
    }
  h->count = (uint64_t) dm_json_get_number (t, "count", 0);
  h->min = h->count ? (uint64_t) dm_json_get_number (t, "min_ns", 0) : UINT64_MAX;
  h->max = (uint64_t) dm_json_get_number (t, "max_ns", 0);
  h->sum = dm_json_get_number (t, "sum_ns", 0);
  h->sum_sq = dm_json_get_number (t, "sum_sq", 0);
  return 0;
}

int
dm_capture_load_json (dm_capture *c, const char *text, size_t len, char *why, size_t ws)
{
  dm_json_doc doc;
  char inner[256];
  int err = -EINVAL;
  if (dm_json_parse (text, len, &doc, inner, sizeof inner) < 0)
    return 1;
  const dm_json *m = dm_json_get (doc.root, "capture");
  if (!m || m->type != DM_JSON_OBJECT)
    {
      dm_json_free (&doc);
      return 1;
    }
  if (dm_json_get_number (m, "version", 0) != VERSION)
    {
      dm_why (why, ws, "a capture of another version (%g) than this Diskmeter reads (%d)",
              dm_json_get_number (m, "version", 0), VERSION);
      goto out;
    }
  dm_text_copy (c->target, sizeof c->target, dm_json_get_string (m, "target", ""));
  dm_text_copy (c->disk, sizeof c->disk, dm_json_get_string (m, "disk", ""));
  dm_text_copy (c->note, sizeof c->note, dm_json_get_string (m, "note", ""));
  dm_text_copy (c->from_why, sizeof c->from_why, dm_json_get_string (m, "from_why", ""));
  c->from = !strcmp (dm_json_get_string (m, "from", ""), "events") ? DM_CAPTURE_FROM_EVENTS
                                                                  : DM_CAPTURE_FROM_COUNTERS;
  c->started = (int64_t) dm_json_get_number (m, "started_unix", 0);
  c->started_ns = (uint64_t) dm_json_get_number (m, "monotonic_ns", 0);
  c->seconds = dm_json_get_number (m, "seconds", 0);
  c->interrupted = dm_json_get_bool (m, "interrupted", false);
  c->cpu_percent = dm_json_get_number (m, "cpu_percent", 0);
  c->other = (uint64_t) dm_json_get_number (m, "other", 0);
  c->lost = (uint64_t) dm_json_get_number (m, "lost", 0);
  c->unmatched = (uint64_t) dm_json_get_number (m, "unmatched", 0);
  c->in_flight = (uint64_t) dm_json_get_number (m, "in_flight", 0);
  c->low = (uint64_t) dm_json_get_number (m, "low", 0);
  c->high = (uint64_t) dm_json_get_number (m, "high", 0);
  const dm_json *k = dm_json_get (m, "counters");
  if (k && k->type == DM_JSON_OBJECT)
    {
      c->counted = true;
      c->c_reads = (uint64_t) dm_json_get_number (k, "reads", 0);
      c->c_writes = (uint64_t) dm_json_get_number (k, "writes", 0);
      c->c_read_bytes = (uint64_t) dm_json_get_number (k, "read_bytes", 0);
      c->c_write_bytes = (uint64_t) dm_json_get_number (k, "write_bytes", 0);
      c->avg_queue = dm_json_get_number (k, "avg_queue", 0);
      c->busy_percent = dm_json_get_number (k, "busy_percent", 0);
      c->await_ms = dm_json_get_number (k, "await_ms", 0);
    }
  const dm_json *dirs = dm_json_get (m, "directions");
  for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
    {
      const dm_json *x = dirs ? dm_json_get (dirs, dir_names[d]) : NULL;
      dm_capture_dir *y = &c->dir[d];
      if (!x || x->type != DM_JSON_OBJECT)
        {
          dm_why (why, ws, "no \"%s\" direction in the capture", dir_names[d]);
          goto out;
        }
      y->requests = (uint64_t) dm_json_get_number (x, "requests", 0);
      y->bytes = (uint64_t) dm_json_get_number (x, "bytes", 0);
      y->sequential = (uint64_t) dm_json_get_number (x, "sequential", 0);
      if (read_counts (x, "sizes", y->sizes, DM_CAPTURE_SIZES, why, ws) < 0
          || read_counts (x, "seeks", y->seeks, DM_CAPTURE_SEEKS, why, ws) < 0
          || read_counts (x, "depths", y->depths, DM_CAPTURE_DEPTH_MAX, why, ws) < 0
          || read_times (x, "latency", &y->latency, why, ws) < 0
          || read_times (x, "interarrival", &y->interarrival, why, ws) < 0)
        goto out;
    }
  const dm_json *t = dm_json_get (m, "ticks_100ms");
  if (!t || t->type != DM_JSON_ARRAY)
    {
      dm_why (why, ws, "no \"ticks_100ms\" timeline in the capture");
      goto out;
    }
  unsigned i = 0;
  for (const dm_json *e = t->child; e; e = e->next, i++)
    {
      if (e->type != DM_JSON_ARRAY || e->n != 2 || e->child->type != DM_JSON_NUMBER
          || e->child->next->type != DM_JSON_NUMBER || e->child->num < 0
          || e->child->next->num < 0 || e->child->num > UINT32_MAX
          || e->child->next->num > UINT32_MAX)
        {
          dm_why (why, ws, "\"ticks_100ms\" holds something other than [reads, writes]");
          goto out;
        }
      if (dm_capture_add_tick (c, i, (uint32_t) e->child->num, (uint32_t) e->child->next->num) < 0)
        {
          dm_why (why, ws, "out of memory");
          goto out;
        }
    }
  err = 0;
out:
  dm_json_free (&doc);
  return err;
}
