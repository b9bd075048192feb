/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON report: everything the run knew, so a saved run can be compared,
 * redrawn or audited later. Field names are stable; new fields may be added.
 */
#include "dm-report.h"

#include <stdio.h>
#include <time.h>

#include "dm-schedule.h"
#include "dm-text.h"
#include "dm-units.h"

typedef struct json {
  dm_buf *b;
  int     depth;
  bool    first; /* no comma before the next member */
} json;

static void
indent (json *j)
{
  dm_buf_add (j->b, "\n");
  for (int i = 0; i < j->depth; i++)
    dm_buf_add (j->b, "  ");
}

static void
key (json *j, const char *k)
{
  if (!j->first)
    dm_buf_add (j->b, ",");
  j->first = false;
  indent (j);
  if (k)
    {
      dm_buf_add_json_string (j->b, k);
      dm_buf_add (j->b, ": ");
    }
}

static void
open_ (json *j, const char *k, const char *bracket)
{
  key (j, k);
  dm_buf_add (j->b, bracket);
  j->depth++;
  j->first = true;
}

static void
close_ (json *j, const char *bracket)
{
  j->depth--;
  if (!j->first)
    indent (j);
  dm_buf_add (j->b, bracket);
  j->first = false;
}

static void
str (json *j, const char *k, const char *v)
{
  key (j, k);
  if (v)
    dm_buf_add_json_string (j->b, v);
  else
    dm_buf_add (j->b, "null");
}

/* A user's or the OS's text (a comment, a path, a model): the readable
 * string under k, always valid UTF-8, and where the bytes are not UTF-8
 * (a Latin-1 folder name is legal on Linux) the exact bytes in hex under
 * k_bytes as well, which the loader prefers (README, "Text in the
 * reports"). */
static void
user_text (json *j, const char *k, const char *v)
{
  str (j, k, v);
  if (!v || dm_utf8_valid (v))
    return;
  char bytes_key[64];
  snprintf (bytes_key, sizeof bytes_key, "%s_bytes", k);
  key (j, bytes_key);
  dm_buf_add (j->b, "\"");
  dm_text_add_hex (j->b, v);
  dm_buf_add (j->b, "\"");
}

static void
num (json *j, const char *k, double v)
{
  key (j, k);
  dm_buf_add_double (j->b, "%.6g", v);
}

static void
fixed (json *j, const char *k, double v)
{
  key (j, k);
  dm_buf_add_double (j->b, "%.3f", v);
}

static void
u64 (json *j, const char *k, uint64_t v)
{
  key (j, k);
  dm_buf_printf (j->b, "%llu", (unsigned long long) v);
}

static void
boolean (json *j, const char *k, bool v)
{
  key (j, k);
  dm_buf_add (j->b, v ? "true" : "false");
}

static void
latency (json *j, const char *k, const dm_latency *l)
{
  open_ (j, k, "{");
  fixed (j, "min", l->min);
  fixed (j, "mean", l->mean);
  fixed (j, "max", l->max);
  fixed (j, "stdev", l->stdev);
  fixed (j, "p50", l->p50);
  fixed (j, "p90", l->p90);
  fixed (j, "p99", l->p99);
  fixed (j, "p99_9", l->p99_9);
  fixed (j, "p99_99", l->p99_99);
  close_ (j, "}");
}

/* Non-empty buckets as [lowest ns, count] pairs: enough to redraw the
 * histogram or recompute any percentile from a saved run. */
static void
buckets (json *j, const char *k, const dm_histogram *h)
{
  key (j, k);
  dm_buf_add (j->b, "[");
  bool first = true;
  for (unsigned i = 0; h && i < DM_HIST_BUCKETS; i++)
    if (h->buckets[i])
      {
        dm_buf_printf (j->b, "%s[%llu, %llu]", first ? "" : ", ",
                       (unsigned long long) dm_histogram_bucket_low (i),
                       (unsigned long long) h->buckets[i]);
        first = false;
      }
  dm_buf_add (j->b, "]");
}

/* What the disk's own counters saw during the measured runs, and the flags
 * drawn from them; null where nothing could be counted. Then the queue the
 * system itself held, where the backend could tell (files from before it,
 * and backends that cannot, have no os_queue). */
/* Each direction's await and the part above it, null where not counted
 * (no request in that direction, or no timing): a 0 would be a figure.
 * Files from before them have none, and load as not counted. */
static void
device_split (json *j, const dm_device_seen *d)
{
  static const char *const keys[2][2] = { { "read_await_us", "read_guest_us" },
                                          { "write_await_us", "write_guest_us" } };
  for (unsigned k = 0; k < 2; k++)
    for (unsigned dir = 0; dir < 2; dir++)
      {
        const dm_device_split *s = &d->split[dir];
        bool ok = k ? s->guest_counted : s->counted;
        if (ok)
          fixed (j, keys[dir][k], k ? s->guest_us : s->await_us);
        else
          str (j, keys[dir][k], NULL);
      }
}

static void
device (json *j, const dm_device_seen *d)
{
  if (!d->counted)
    {
      key (j, "device");
      dm_buf_add (j->b, "null");
    }
  else
    {
      open_ (j, "device", "{");
      user_text (j, "name", d->name);
      u64 (j, "read_bytes", d->read_bytes);
      u64 (j, "write_bytes", d->write_bytes);
      u64 (j, "reads", d->reads);
      u64 (j, "writes", d->writes);
      fixed (j, "avg_request_bytes", dm_device_seen_avg_request (d));
      fixed (j, "avg_queue", d->avg_queue);
      fixed (j, "busy_percent", d->busy_percent);
      u64 (j, "queue_limit", d->queue_limit);
      fixed (j, "seconds", d->seconds);
      u64 (j, "counted_bytes", d->counted_bytes);
      device_split (j, d);
      close_ (j, "}");
    }
  if (d->os_counted)
    fixed (j, "os_queue", d->os_queue);
  open_ (j, "flags", "[");
  for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
    if (d->flags & (1u << f))
      str (j, NULL, dm_device_flag_name ((dm_device_flag) (1u << f)));
  close_ (j, "]");
}

/* What the facts say limits a queue that did not reach the disk; written
 * only when there is advice, so files without it read back unchanged. */
static void
advice (json *j, const dm_advice *a)
{
  if (!a->sentence[0])
    return;
  open_ (j, "advice", "{");
  user_text (j, "sentence", a->sentence);
  user_text (j, "setting", a->setting);
  str (j, "source", a->source);
  close_ (j, "}");
}

static void
sample_figures (json *j, const dm_sample_figures *f)
{
  fixed (j, "mb_per_s", f->mb_per_s);
  fixed (j, "iops", f->iops);
  fixed (j, "latency_us_mean", f->latency_us_mean);
  fixed (j, "latency_us_p99", f->latency_us_p99);
}

/* The timeline, written only when there is one, so files from before it
 * read back unchanged. A Mix sample has its reads and writes apart. */
static void
samples (json *j, const dm_result *res)
{
  if (!res->n_samples)
    return;
  num (j, "sample_s", res->sample_s);
  open_ (j, "samples", "[");
  for (unsigned k = 0; k < res->n_samples; k++)
    {
      const dm_sample *sm = &res->samples[k];
      open_ (j, NULL, "{");
      num (j, "t", sm->t);
      sample_figures (j, &sm->all);
      if (res->mode == DM_MODE_MIX)
        {
          open_ (j, "read", "{");
          sample_figures (j, &sm->read);
          close_ (j, "}");
          open_ (j, "write", "{");
          sample_figures (j, &sm->write);
          close_ (j, "}");
        }
      close_ (j, "}");
    }
  close_ (j, "]");
}

static void
iso_time (int64_t t, char *buf, size_t size)
{
  time_t tt = (time_t) t;
  struct tm tm;
  /* gmtime_r is not in MinGW's C runtime; gmtime's static buffer is fine
   * here since reports are written from one thread. */
  struct tm *p = gmtime (&tt);
  if (!p)
    {
      snprintf (buf, size, "1970-01-01T00:00:00Z");
      return;
    }
  tm = *p;
  strftime (buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Everything but the top-level object's closing brace. */
static void
write_members (const dm_report *r, dm_buf *b)
{
  const dm_settings *s = &r->settings;
  json j = { b, 0, true };
  char t[64];

  dm_buf_add (b, "{");
  j.depth = 1;
  open_ (&j, "tool", "{");
  str (&j, "name", "Diskmeter");
  str (&j, "version", DM_VERSION);
  close_ (&j, "}");
  u64 (&j, "format_version", DM_REPORT_FORMAT);
  str (&j, "backend", r->backend);
  str (&j, "status", dm_status_name (r->status));
  user_text (&j, "error", r->error[0] ? r->error : NULL);
  user_text (&j, "warning", r->warning[0] ? r->warning : NULL);
  boolean (&j, "cached", r->cached);
  str (&j, "profile", r->profile);
  /* Workload rows: the hash of the profile they make, one canonical
   * workload a line; compare and merge refuse two that differ. */
  if (r->profile_hash[0])
    str (&j, "profile_hash", r->profile_hash);
  boolean (&j, "nvme", r->nvme);
  user_text (&j, "comment", r->comment);
  iso_time (r->started, t, sizeof t);
  str (&j, "started", t);
  iso_time (r->finished, t, sizeof t);
  str (&j, "finished", t);
  user_text (&j, "test_file", r->test_file);
  boolean (&j, "nocow", r->nocow);
  /* Why the results carry no device counters, when they carry none. */
  user_text (&j, "device_note", r->device_note[0] ? r->device_note : NULL);

  open_ (&j, "target", "{");
  user_text (&j, "path", r->target.path);
  /* What the path's links lead to: the folder or device really measured. */
  user_text (&j, "real_path", r->target.real_path[0] ? r->target.real_path : NULL);
  user_text (&j, "mount_point", r->target.mount_point);
  user_text (&j, "filesystem", r->target.filesystem);
  user_text (&j, "device", r->target.device);
  user_text (&j, "model", r->target.model);
  user_text (&j, "driver", r->target.driver);
  u64 (&j, "size_bytes", r->target.size_bytes);
  u64 (&j, "free_bytes", r->target.free_bytes);
  u64 (&j, "sector_size", r->target.sector_size);
  boolean (&j, "is_block_device", r->target.is_block_device);
  /* The controller and the queues the OS keeps for the disk (0: not
   * known): what a queue depth asked of Diskmeter really reached. */
  user_text (&j, "controller", r->target.controller);
  u64 (&j, "queue_depth", r->target.queue_depth);
  u64 (&j, "host_queue", r->target.host_queue);
  u64 (&j, "nr_requests", r->target.nr_requests);
  u64 (&j, "hw_queues", r->target.hw_queues);
  u64 (&j, "max_segments", r->target.max_segments);
  user_text (&j, "driver_params", r->target.driver_params);
  close_ (&j, "}");

  open_ (&j, "system", "{");
  user_text (&j, "os", r->system.os);
  user_text (&j, "kernel", r->system.kernel);
  user_text (&j, "cpu_model", r->system.cpu_model);
  u64 (&j, "logical_cpus", r->system.logical_cpus);
  u64 (&j, "memory_bytes", r->system.memory_bytes);
  /* Which (virtual) machine: the hypervisor and the topology it gave. */
  str (&j, "hypervisor", r->system.hypervisor);
  user_text (&j, "machine", r->system.machine);
  u64 (&j, "sockets", r->system.sockets);
  u64 (&j, "cores_per_socket", r->system.cores_per_socket);
  u64 (&j, "threads_per_core", r->system.threads_per_core);
  u64 (&j, "numa_nodes", r->system.numa_nodes);
  close_ (&j, "}");

  /* The user's tags and the facts offered as tags, as dm_report_tags
   * gives them; every value is UTF-8 (dm_tag_make). */
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n_tags = dm_report_tags (r, tags);
  open_ (&j, "tags", "{");
  for (unsigned i = 0; i < n_tags; i++)
    str (&j, tags[i].key, tags[i].value);
  close_ (&j, "}");

  open_ (&j, "settings", "{");
  u64 (&j, "count", s->count);
  u64 (&j, "test_size", s->test_size);
  num (&j, "measure_s", s->measure_s);
  num (&j, "interval_s", s->interval_s);
  num (&j, "warmup_s", s->warmup_s);
  /* Written only when asked, so that reports of runs without them read
   * as they always did. */
  if (s->warmup_steady)
    {
      open_ (&j, "warmup_steady", "{");
      num (&j, "margin_percent", s->steady_margin);
      num (&j, "limit_s", s->steady_limit_s);
      num (&j, "window_s", DM_STEADY_WINDOW_S);
      num (&j, "sample_s", DM_STEADY_SAMPLE_S);
      close_ (&j, "}");
    }
  if (s->precondition)
    u64 (&j, "precondition", s->precondition);
  str (&j, "data", dm_data_name (s->data));
  u64 (&j, "mix_read_percent", s->mix_read_percent);
  boolean (&j, "buffered", s->buffered);
  boolean (&j, "write_through", s->write_through);
  str (&j, "backend", s->backend[0] ? s->backend : "auto");
  close_ (&j, "}");

  /* Every byte the run moved, so it can be checked against the device's
   * own counters: filling the file, unscored I/O, measured I/O. */
  open_ (&j, "io_totals", "{");
  u64 (&j, "prepare_bytes", r->prepare_bytes);
  if (s->precondition)
    {
      u64 (&j, "precondition_bytes", r->precondition_bytes);
      num (&j, "precondition_s", r->precondition_s);
    }
  u64 (&j, "warmup_bytes", r->warmup_bytes);
  u64 (&j, "measured_bytes", r->measured_bytes);
  close_ (&j, "}");

  open_ (&j, "thresholds", "[");
  for (unsigned i = 0; i < r->n_thresholds; i++)
    {
      char rule[160];
      dm_threshold_format (&r->thresholds[i], rule, sizeof rule);
      str (&j, NULL, rule);
    }
  close_ (&j, "]");

  open_ (&j, "results", "[");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      char name[32];
      dm_spec_name (&res->spec, name, sizeof name);
      open_ (&j, NULL, "{");
      str (&j, "test", name);
      str (&j, "mode", dm_mode_name (res->mode));
      str (&j, "status", dm_status_name (res->status));
      user_text (&j, "error", res->error[0] ? res->error : NULL);
      str (&j, "pattern", res->spec.pattern == DM_SEQ ? "SEQ" : "RND");
      u64 (&j, "block_size", res->spec.block_size);
      u64 (&j, "queue_depth", res->spec.queue_depth);
      u64 (&j, "threads", res->spec.threads);
      u64 (&j, "read_percent", res->read_percent);
      if (s->warmup_steady)
        {
          /* How the steady warm-up ended: settled, or at its limit. */
          open_ (&j, "warmup", "{");
          num (&j, "took_s", res->warmup_took_s);
          boolean (&j, "settled", res->warmup_settled);
          num (&j, "spread_percent", res->warmup_spread);
          close_ (&j, "}");
        }
      if (res->shaped)
        {
          /* The workload in its canonical form, which reads back as it
           * ran; its read share is the one above, its spec the test's. */
          char wl[DM_WORKLOAD_TEXT_MAX];
          double reached;
          dm_workload_format (&res->workload, wl, sizeof wl);
          user_text (&j, "workload", wl);
          if (res->workload.sync == DM_SYNC_FLUSH)
            u64 (&j, "flushes", res->flushes);
          if (res->workload.rate_unit != DM_RATE_NONE)
            {
              bool met = dm_result_rate_met (res, &reached);
              open_ (&j, "rate", "{");
              num (&j, "offered", res->workload.rate);
              str (&j, "unit", res->workload.rate_unit == DM_RATE_IOPS ? "IOPS" : "MB/s");
              fixed (&j, "reached", reached);
              boolean (&j, "met", met);
              close_ (&j, "}");
            }
        }
      open_ (&j, "runs", "[");
      for (unsigned k = 0; k < res->n_runs; k++)
        {
          const dm_run *run = &res->runs[k];
          open_ (&j, NULL, "{");
          u64 (&j, "bytes", run->bytes);
          u64 (&j, "ios", run->ios);
          num (&j, "seconds", run->seconds);
          fixed (&j, "mb_per_s", run->mb_per_s);
          fixed (&j, "iops", run->iops);
          fixed (&j, "latency_us", run->latency_us);
          close_ (&j, "}");
        }
      close_ (&j, "]");
      fixed (&j, "mb_per_s", res->mb_per_s);
      fixed (&j, "iops", res->iops);
      fixed (&j, "best_latency_us", res->latency_us);
      fixed (&j, "mean_mb_per_s", res->mean_mb_per_s);
      fixed (&j, "stdev_mb_per_s", res->stdev_mb_per_s);
      latency (&j, "latency_us", &res->latency);
      if (res->mode == DM_MODE_MIX)
        {
          latency (&j, "latency_read_us", &res->latency_read);
          latency (&j, "latency_write_us", &res->latency_write);
        }
      open_ (&j, "latency_histogram", "{");
      buckets (&j, "read", res->hist_read);
      buckets (&j, "write", res->hist_write);
      close_ (&j, "}");
      if (r->n_thresholds)
        {
          /* The colour of each figure under the user's limits, as the
           * grid and the spreadsheets show it. */
          open_ (&j, "colour", "{");
          for (int u = 0; u < DM_N_UNITS; u++)
            {
              dm_colour c = dm_threshold_colour (r->thresholds, r->n_thresholds, &res->spec,
                                                 res->mode, (dm_unit) u,
                                                 dm_result_value (res, u));
              if (c != DM_COLOUR_NONE)
                str (&j, dm_unit_name ((dm_unit) u), dm_colour_name (c));
            }
          close_ (&j, "}");
        }
      fixed (&j, "cpu_percent", res->cpu_percent);
      fixed (&j, "cpu_us_per_io", res->cpu_us_per_io);
      device (&j, &res->device);
      advice (&j, &res->advice);
      if (res->planned_start_ms)
        {
          /* --start-at: when the first measured run was due and began. */
          dm_time_format_ms (res->planned_start_ms, t, sizeof t);
          str (&j, "planned_start", t);
          dm_time_format_ms (res->started_ms, t, sizeof t);
          str (&j, "started", t);
        }
      samples (&j, res);
      close_ (&j, "}");
    }
  close_ (&j, "]");
  j.depth = 0;
}

void
dm_report_write_json (const dm_report *r, dm_buf *b)
{
  write_members (r, b);
  dm_buf_add (b, "\n}\n");
}

bool
dm_report_write_json_open (const dm_report *r, dm_buf *b)
{
  write_members (r, b);
  return !b->error;
}
