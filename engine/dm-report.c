/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report's life cycle and the helpers its writers share.
 */
#include "dm-report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-text.h"
#include "dm-units.h"

static const char *const status_names[] = {
  "pending", "running", "complete", "cancelled", "failed",
};

const char *
dm_status_name (dm_status status)
{
  return status <= DM_STATUS_FAILED ? status_names[status] : "?";
}

const char *
dm_target_resolved (const dm_target_info *t)
{
  size_t n = strlen (t->path);
  /* "/mnt/data/" is "/mnt/data"; a root ("/", "C:\") keeps its own. */
  while (n > 1 && (t->path[n - 1] == '/' || t->path[n - 1] == '\\') && t->path[n - 2] != ':')
    n--;
  if (!t->real_path[0] || (strlen (t->real_path) == n && !strncmp (t->path, t->real_path, n)))
    return NULL;
  return t->real_path;
}

int
dm_report_set_comment (dm_report *r, const char *comment)
{
  return dm_text_copy (r->comment, sizeof r->comment, comment ? comment : "");
}

/* Room for n results and their 2 x n histograms; -ENOMEM leaves r clear. */
static int
alloc_results (dm_report *r, unsigned n)
{
  r->results = calloc (n, sizeof *r->results);
  r->histograms = malloc (2 * n * sizeof *r->histograms);
  if (!r->results || !r->histograms)
    {
      dm_report_clear (r);
      return -ENOMEM;
    }
  return 0;
}

int
dm_report_init (dm_report *r, const dm_settings *settings, const dm_spec *specs,
                unsigned n_specs, unsigned modes)
{
  memset (r, 0, sizeof *r);
  r->settings = *settings;
  snprintf (r->profile, sizeof r->profile, "custom");
  unsigned n = 0;
  for (int m = 0; m < DM_N_MODES; m++)
    if (modes & DM_MODE_BIT (m))
      n += n_specs;
  if (!n)
    return -EINVAL;
  if (alloc_results (r, n) != 0)
    return -ENOMEM;
  /* All reads, then all writes, then the mixes: CrystalDiskMark's order,
   * which also lets the disk rest from writes while reads run first. */
  for (int m = 0; m < DM_N_MODES; m++)
    {
      if (!(modes & DM_MODE_BIT (m)))
        continue;
      for (unsigned i = 0; i < n_specs; i++)
        {
          dm_result *res = &r->results[r->n_results++];
          res->spec = specs[i];
          res->mode = (dm_mode) m;
          res->read_percent = m == DM_MODE_READ ? 100 : m == DM_MODE_WRITE ? 0
                                                       : settings->mix_read_percent;
          dm_result_attach_histograms (res, &r->histograms[2 * (r->n_results - 1)]);
        }
    }
  return 0;
}

int
dm_report_init_workloads (dm_report *r, const dm_settings *settings,
                          const dm_workload *workloads, unsigned n)
{
  memset (r, 0, sizeof *r);
  r->settings = *settings;
  snprintf (r->profile, sizeof r->profile, "workloads");
  if (!n)
    return -EINVAL;
  if (alloc_results (r, n) != 0)
    return -ENOMEM;
  for (unsigned i = 0; i < n; i++)
    {
      dm_result *res = &r->results[r->n_results++];
      const dm_workload *w = &workloads[i];
      res->shaped = true;
      res->workload = *w;
      dm_workload_spec (w, &res->spec);
      res->read_percent = w->read_percent;
      res->mode = w->read_percent == 100 ? DM_MODE_READ
                  : w->read_percent == 0 ? DM_MODE_WRITE : DM_MODE_MIX;
      dm_result_attach_histograms (res, &r->histograms[2 * i]);
    }
  dm_report_profile_hash (r, r->profile_hash);
  return 0;
}

void
dm_report_profile_hash (const dm_report *r, char out[17])
{
  dm_buf b;
  bool any = false;
  dm_buf_init (&b);
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].shaped)
      {
        char line[DM_WORKLOAD_TEXT_MAX];
        dm_workload_format (&r->results[i].workload, line, sizeof line);
        dm_buf_add (&b, line);
        dm_buf_add (&b, "\n");
        any = true;
      }
  if (any && b.data)
    dm_workload_hash_text (b.data, b.len, out);
  else
    out[0] = '\0';
  dm_buf_free (&b);
}

bool
dm_report_same_profile (const dm_report *a, const dm_report *b, char *why, size_t why_size)
{
  char ha[17], hb[17];
  dm_report_profile_hash (a, ha);
  dm_report_profile_hash (b, hb);
  if (!strcmp (ha, hb))
    return true;
  if (!ha[0] || !hb[0])
    dm_why (why, why_size, "one report ran workload rows and the other CrystalDiskMark's tests");
  else
    dm_why (why, why_size, "the reports ran different profiles (hash %s and %s)", ha, hb);
  return false;
}

bool
dm_result_rate_met (const dm_result *res, double *reached)
{
  const dm_workload *w = &res->workload;
  if (reached)
    *reached = 0;
  if (!res->shaped || w->rate_unit == DM_RATE_NONE)
    return true;
  double got = w->rate_unit == DM_RATE_IOPS ? res->iops : res->mb_per_s;
  if (reached)
    *reached = got;
  return got >= 0.97 * w->rate;
}

void
dm_result_attach_histograms (dm_result *res, dm_histogram *pair)
{
  res->hist_read = &pair[0];
  res->hist_write = &pair[1];
  dm_histogram_reset (res->hist_read);
  dm_histogram_reset (res->hist_write);
}

void
dm_result_copy (dm_result *dst, const dm_result *src)
{
  dm_histogram *hist_read = dst->hist_read;
  dm_histogram *hist_write = dst->hist_write;
  dm_sample *samples = dst->samples;

  *dst = *src;
  /* The timeline too is dst's own; without memory for it, dst has none. */
  dst->samples = samples;
  dst->n_samples = 0;
  if (src != dst)
    dm_result_set_samples (dst, src->samples, src->n_samples, src->sample_s);
  /* The histograms belong to dst's report: their contents are copied, the
   * pointers never are, so either report can be cleared first. */
  dst->hist_read = hist_read;
  dst->hist_write = hist_write;
  if (hist_read)
    {
      if (src->hist_read)
        *hist_read = *src->hist_read;
      else
        dm_histogram_reset (hist_read);
    }
  if (hist_write)
    {
      if (src->hist_write)
        *hist_write = *src->hist_write;
      else
        dm_histogram_reset (hist_write);
    }
}

void
dm_result_reset (dm_result *res)
{
  dm_spec spec = res->spec;
  dm_mode mode = res->mode;
  unsigned read_percent = res->read_percent;
  dm_histogram *pair = res->hist_read;

  free (res->samples);
  memset (res, 0, sizeof *res);
  res->spec = spec;
  res->mode = mode;
  res->read_percent = read_percent;
  if (pair)
    dm_result_attach_histograms (res, pair);
}

void
dm_report_copy_run (dm_report *dst, const dm_report *src)
{
  dm_result *results = dst->results;
  unsigned n_results = dst->n_results;
  dm_histogram *histograms = dst->histograms;

  *dst = *src;
  dst->results = results;
  dst->n_results = n_results;
  dst->histograms = histograms;
}

int
dm_report_view_ran (const dm_report *src, dm_report *view)
{
  unsigned ran = 0;
  for (unsigned i = 0; i < src->n_results; i++)
    ran += src->results[i].status != DM_STATUS_PENDING;
  *view = *src;
  view->results = malloc ((src->n_results ? src->n_results : 1) * sizeof *view->results);
  view->n_results = 0;
  if (!view->results)
    return -ENOMEM;
  for (unsigned i = 0; i < src->n_results; i++)
    if (ran == 0 || src->results[i].status != DM_STATUS_PENDING)
      view->results[view->n_results++] = src->results[i];
  return 0;
}

void
dm_report_view_free (dm_report *view)
{
  free (view->results);
  view->results = NULL;
  view->n_results = 0;
}

int
dm_result_set_samples (dm_result *res, const dm_sample *samples, unsigned n, double step_s)
{
  dm_sample *copy = NULL;
  if (n)
    {
      copy = malloc ((size_t) n * sizeof *copy);
      if (!copy)
        {
          free (res->samples);
          res->samples = NULL;
          res->n_samples = 0;
          return -ENOMEM;
        }
      memcpy (copy, samples, (size_t) n * sizeof *copy);
    }
  free (res->samples);
  res->samples = copy;
  res->n_samples = n;
  res->sample_s = step_s;
  return 0;
}

void
dm_report_clear (dm_report *r)
{
  for (unsigned i = 0; r->results && i < r->n_results; i++)
    free (r->results[i].samples);
  free (r->results);
  free (r->histograms);
  memset (r, 0, sizeof *r);
}

dm_device_ask
dm_result_device_ask (const dm_result *res)
{
  dm_device_ask ask = { res->spec.block_size, res->spec.queue_depth, res->spec.threads,
                        res->read_percent };
  return ask;
}

dm_result *
dm_report_find (const dm_report *r, const dm_spec *spec, dm_mode mode)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].mode == mode && dm_spec_equal (&r->results[i].spec, spec))
      return &r->results[i];
  return NULL;
}

double
dm_result_value (const dm_result *res, int unit)
{
  switch (unit)
    {
    case DM_UNIT_MBPS: return res->mb_per_s;
    case DM_UNIT_GBPS: return res->mb_per_s / 1000;
    case DM_UNIT_IOPS: return res->iops;
    case DM_UNIT_US:   return res->latency_us;
    default:           return 0;
    }
}

int
dm_write_file_atomic (const char *path, const dm_buf *buf)
{
  if (buf->error)
    return buf->error;
  return dm_file_replace_contents (path, buf->data ? buf->data : "", buf->len);
}

double
dm_figure_as_saved (double v)
{
  return round (v * 1000) / 1000;
}
