/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CSV: one row per test and mode with plain numeric columns, so a
 * spreadsheet can sort and chart runs from many machines side by side.
 */
#include "dm-report.h"

#include <string.h>

#include "dm-result-split.h"
#include "dm-units.h"

static void
number (dm_buf *b, const char *fmt, double v)
{
  dm_buf_add (b, ",");
  dm_buf_add_double (b, fmt, v);
}

/* The disk's own counters; empty cells where none were counted. The flags
 * share one cell, separated by spaces, so the column count stays fixed. */
static void
device_columns (dm_buf *b, const dm_device_seen *d)
{
  if (!d->counted)
    dm_buf_add (b, ",,,,,,,");
  else
    {
      dm_buf_printf (b, ",%llu,%llu,%llu,%llu", (unsigned long long) d->read_bytes,
                     (unsigned long long) d->write_bytes, (unsigned long long) d->reads,
                     (unsigned long long) d->writes);
      number (b, "%.0f", dm_device_seen_avg_request (d));
      number (b, "%.2f", d->avg_queue);
      number (b, "%.1f", d->busy_percent);
    }
  dm_buf_add (b, ",");
  bool first = true;
  for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
    if (d->flags & (1u << f))
      {
        dm_buf_printf (b, "%s%s", first ? "" : " ", dm_device_flag_name ((dm_device_flag) (1u << f)));
        first = false;
      }
}

/* Each direction's await and the part above the device, after every
 * fixed column (they came later) and before the tags, which stay last:
 * empty where not counted, never 0. */
static void
split_columns (dm_buf *b, const dm_device_seen *d)
{
  for (unsigned k = 0; k < 2; k++)
    for (unsigned dir = 0; dir < 2; dir++)
      {
        const dm_device_split *s = &d->split[dir];
        if (k ? s->guest_counted : s->counted)
          number (b, "%.2f", k ? s->guest_us : s->await_us);
        else
          dm_buf_add (b, ",");
      }
}

static bool
has_workloads (const dm_report *r)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].shaped)
      return true;
  return false;
}

/* A workload row's own columns, after every plain one, so a plain test's
 * columns stay where they were and a report of plain tests has none of
 * these: the row's name and canonical shape, its mode line, reads and
 * writes apart (the row's figure shared out, adding up to it), each
 * direction's p99, its flushes, the rate offered and reached, and the
 * profile's hash. A plain test in the same file leaves them empty. */
static void
workload_columns (dm_buf *b, const dm_report *r, const dm_result *res)
{
  char text[DM_WORKLOAD_TEXT_MAX + 64];
  dm_result_split split;
  if (!res->shaped)
    {
      dm_buf_add (b, ",,,,,,,,,,,,,,,,,");
      return;
    }
  const dm_workload *w = &res->workload;
  dm_buf_add (b, ",");
  dm_buf_add_csv_field (b, w->name);
  dm_workload_format (w, text, sizeof text);
  dm_buf_add (b, ",");
  dm_buf_add_csv_field (b, text);
  dm_workload_describe (w, text, sizeof text);
  dm_buf_add (b, ",");
  dm_buf_add_csv_field (b, text);
  if (dm_result_split_of (res, &split))
    {
      number (b, "%.3f", split.read_mb_per_s);
      number (b, "%.1f", split.read_iops);
      number (b, "%.3f", split.write_mb_per_s);
      number (b, "%.1f", split.write_iops);
    }
  else
    dm_buf_add (b, ",,,,");
  /* Each direction's p99 where the row has both; else the row's is it. */
  if (res->mode == DM_MODE_MIX)
    {
      number (b, "%.2f", res->latency_read.p99);
      number (b, "%.2f", res->latency_write.p99);
    }
  else
    dm_buf_add (b, ",,");
  if (w->sync == DM_SYNC_FLUSH)
    dm_buf_printf (b, ",%llu", (unsigned long long) res->flushes);
  else
    dm_buf_add (b, ",");
  if (w->rate_unit != DM_RATE_NONE)
    {
      double reached;
      bool met = dm_result_rate_met (res, &reached);
      number (b, "%.6g", w->rate);
      dm_buf_printf (b, ",%s", w->rate_unit == DM_RATE_IOPS ? "IOPS" : "MB/s");
      number (b, "%.1f", reached);
      dm_buf_printf (b, ",%s", !res->n_runs ? "" : met ? "yes" : "no");
    }
  else
    dm_buf_add (b, ",,,,");
  dm_buf_printf (b, ",%s", w->sync == DM_SYNC_NONE ? "none" : w->sync == DM_SYNC_DSYNC ? "dsync"
                                                                                  : "flush");
  dm_buf_printf (b, ",%u", w->flush_every);
  dm_buf_printf (b, ",%s", r->profile_hash);
}

void
dm_report_csv_tags_header (const dm_report *r, dm_buf *b)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_user_tags (r, tags);
  for (unsigned i = 0; i < n; i++)
    dm_buf_printf (b, ",tag_%s", tags[i].key);
}

void
dm_report_csv_tags_fields (const dm_report *r, dm_buf *b)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_user_tags (r, tags);
  for (unsigned i = 0; i < n; i++)
    {
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, tags[i].value);
    }
}

void
dm_report_write_csv (const dm_report *r, dm_buf *b)
{
  bool workloads = has_workloads (r);
  char name[32], date[32], size[32];

  dm_buf_add (b, "test,mode,pattern,block_size,queue_depth,threads,read_percent,status,"
                 "mb_per_s,iops,latency_us,mean_mb_per_s,stdev_mb_per_s,runs,"
                 "lat_min_us,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p99_9_us,"
                 "lat_p99_99_us,lat_max_us,cpu_percent,backend,cached,target,target_real_path,"
                 "filesystem,device,model,test_size,date,comment,device_read_bytes,device_write_bytes,"
                 "device_reads,device_writes,device_avg_request_bytes,device_avg_queue,"
                 "device_busy_percent,flags");
  if (r->n_thresholds)
    dm_buf_add (b, ",colour_mb_per_s,colour_iops,colour_latency_us");
  if (workloads)
    dm_buf_add (b, ",workload,workload_canonical,workload_mode,read_mb_per_s,read_iops,"
                   "write_mb_per_s,write_iops,read_lat_p99_us,write_lat_p99_us,flushes,"
                   "rate_offered,rate_unit,rate_reached,rate_met,sync,flush_every,profile_hash");
  dm_buf_add (b, ",device_read_await_us,device_write_await_us,guest_read_us,guest_write_us");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\r\n");
  dm_format_local_time (r->started, date, sizeof date);
  dm_size_format (r->settings.test_size, size, sizeof size);
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      const dm_latency *l = &res->latency;
      dm_spec_name (&res->spec, name, sizeof name);
      dm_buf_printf (b, "%s,%s,%s,%u,%u,%u,%u,%s", name, dm_mode_name (res->mode),
                     res->spec.pattern == DM_SEQ ? "SEQ" : "RND", res->spec.block_size,
                     (unsigned) res->spec.queue_depth, (unsigned) res->spec.threads,
                     res->read_percent, dm_status_name (res->status));
      number (b, "%.3f", res->mb_per_s);
      number (b, "%.1f", res->iops);
      number (b, "%.2f", res->latency_us);
      number (b, "%.3f", res->mean_mb_per_s);
      number (b, "%.3f", res->stdev_mb_per_s);
      dm_buf_printf (b, ",%u", res->n_runs);
      number (b, "%.2f", l->min);
      number (b, "%.2f", l->mean);
      number (b, "%.2f", l->p50);
      number (b, "%.2f", l->p90);
      number (b, "%.2f", l->p99);
      number (b, "%.2f", l->p99_9);
      number (b, "%.2f", l->p99_99);
      number (b, "%.2f", l->max);
      number (b, "%.2f", res->cpu_percent);
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, r->backend);
      dm_buf_printf (b, ",%s,", r->cached ? "yes" : "no");
      dm_buf_add_csv_field (b, r->target.path);
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, r->target.real_path[0] ? r->target.real_path : r->target.path);
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, r->target.filesystem);
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, r->target.device);
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, r->target.model);
      dm_buf_printf (b, ",%s,%s,", size, date);
      dm_buf_add_csv_field (b, r->comment);
      device_columns (b, &res->device);
      if (r->n_thresholds)
        {
          static const dm_unit units[] = { DM_UNIT_MBPS, DM_UNIT_IOPS, DM_UNIT_US };
          for (int u = 0; u < 3; u++)
            dm_buf_printf (b, ",%s", dm_colour_name (dm_threshold_colour (
                                       r->thresholds, r->n_thresholds, &res->spec, res->mode,
                                       units[u], dm_result_value (res, units[u]))));
        }
      if (workloads)
        workload_columns (b, r, res);
      split_columns (b, &res->device);
      dm_report_csv_tags_fields (r, b);
      dm_buf_add (b, "\r\n");
    }
}

static void
sample_columns (dm_buf *b, const dm_sample_figures *f)
{
  number (b, "%.3f", f->mb_per_s);
  number (b, "%.1f", f->iops);
  number (b, "%.2f", f->latency_us_mean);
  number (b, "%.2f", f->latency_us_p99);
}

void
dm_report_write_samples_csv (const dm_report *r, dm_buf *b)
{
  char name[32];

  dm_buf_add (b, "test,mode,t,mb_per_s,iops,latency_us_mean,latency_us_p99,"
                 "read_mb_per_s,read_iops,read_latency_us_mean,read_latency_us_p99,"
                 "write_mb_per_s,write_iops,write_latency_us_mean,write_latency_us_p99");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\r\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      dm_spec_name (&res->spec, name, sizeof name);
      for (unsigned k = 0; k < res->n_samples; k++)
        {
          const dm_sample *s = &res->samples[k];
          dm_buf_printf (b, "%s,%s", name, dm_mode_name (res->mode));
          number (b, "%.6g", s->t);
          sample_columns (b, &s->all);
          /* Reads and writes apart for Mix; empty cells otherwise. */
          if (res->mode == DM_MODE_MIX)
            {
              sample_columns (b, &s->read);
              sample_columns (b, &s->write);
            }
          else
            dm_buf_add (b, ",,,,,,,,");
          dm_report_csv_tags_fields (r, b);
          dm_buf_add (b, "\r\n");
        }
    }
}
