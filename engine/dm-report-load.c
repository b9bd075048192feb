/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading a saved JSON report back, for history and comparisons. A result
 * file may be corrupt, truncated, hand-edited, from a newer Diskmeter or not
 * ours at all; each case is refused with a reason and the report untouched.
 * Every number is checked for range, so a loaded report can be drawn and
 * compared without further checks.
 */
#include "dm-report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-schedule.h"
#include "dm-text.h"
#include "dm-units.h"

typedef struct loader {
  char  *why;
  size_t why_size;
  bool   failed;
} loader;

static bool
refuse (loader *l, const char *fmt, ...)
{
  if (!l->failed)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (l->why, l->why_size, fmt, ap);
      va_end (ap);
      l->failed = true;
    }
  return false;
}

/* A non-negative finite number no larger than max; absent gives 0. */
static double
number (loader *l, const dm_json *obj, const char *key, double max)
{
  const dm_json *v = dm_json_get (obj, key);
  if (!v || v->type == DM_JSON_NULL)
    return 0;
  if (v->type != DM_JSON_NUMBER || !isfinite (v->num) || v->num < 0 || v->num > max)
    {
      refuse (l, "'%s' is not a number from 0 to %g", key, max);
      return 0;
    }
  return v->num;
}

/* A string member, cut at a character boundary if the file holds more
 * than the field keeps. */
static void
string (const dm_json *obj, const char *key, char *dst, size_t size)
{
  dm_text_copy (dst, size, dm_json_get_string (obj, key, ""));
}

/* A user's or the OS's text: its exact bytes from key_bytes (hex) where
 * the writer kept them there because they are not UTF-8, else the string. */
static void
user_text (loader *l, const dm_json *obj, const char *key, char *dst, size_t size)
{
  char bytes_key[64];
  snprintf (bytes_key, sizeof bytes_key, "%s_bytes", key);
  const dm_json *bytes = dm_json_get (obj, bytes_key);
  if (!bytes || bytes->type == DM_JSON_NULL)
    {
      string (obj, key, dst, size);
      return;
    }
  if (bytes->type != DM_JSON_STRING || dm_text_from_hex (dst, size, bytes->str) < 0)
    {
      refuse (l, "'%s' is not an even number of hex digits without 00", bytes_key);
      dst[0] = '\0';
    }
}

/* The tags as written (files before tags have none): each checked as
 * --tag checks it, so a hand-edited file cannot smuggle in a key the CLI
 * would refuse. */
static void
load_tags (loader *l, const dm_json *o, dm_report *r)
{
  char why[160];
  if (!o || o->type == DM_JSON_NULL)
    return;
  if (o->type != DM_JSON_OBJECT)
    {
      refuse (l, "'tags' is not an object");
      return;
    }
  for (const dm_json *m = o->child; m; m = m->next)
    {
      dm_tag tag;
      if (m->type != DM_JSON_STRING)
        {
          refuse (l, "tag %.40s is not a string", m->key);
          return;
        }
      if (dm_tag_make (&tag, m->key, m->str, why, sizeof why) < 0)
        {
          refuse (l, "%s", why);
          return;
        }
      if (dm_tags_set (r->tags, &r->n_tags, DM_TAGS_ALL_MAX, &tag) < 0)
        {
          refuse (l, "more than %d tags", DM_TAGS_ALL_MAX);
          return;
        }
    }
}

static dm_status
parse_status (loader *l, const char *s)
{
  for (int st = DM_STATUS_PENDING; st <= DM_STATUS_FAILED; st++)
    if (!strcmp (s, dm_status_name ((dm_status) st)))
      return (dm_status) st;
  refuse (l, "unknown status '%s'", s);
  return DM_STATUS_FAILED;
}

static void
load_latency (loader *l, const dm_json *res, const char *key, dm_latency *lat)
{
  const dm_json *o = dm_json_get (res, key);
  const double max = 1e12; /* microseconds: about 11 days */
  if (!o)
    return;
  lat->min = number (l, o, "min", max);
  lat->mean = number (l, o, "mean", max);
  lat->max = number (l, o, "max", max);
  lat->stdev = number (l, o, "stdev", max);
  lat->p50 = number (l, o, "p50", max);
  lat->p90 = number (l, o, "p90", max);
  lat->p99 = number (l, o, "p99", max);
  lat->p99_9 = number (l, o, "p99_9", max);
  lat->p99_99 = number (l, o, "p99_99", max);
}

static bool
load_buckets (loader *l, const dm_json *list, dm_histogram *h, const dm_latency *lat)
{
  if (!list)
    return true;
  if (list->type != DM_JSON_ARRAY)
    return refuse (l, "a latency histogram is not a list");
  for (const dm_json *b = list->child; b; b = b->next)
    {
      if (b->type != DM_JSON_ARRAY || b->n != 2 || b->child->type != DM_JSON_NUMBER
          || b->child->next->type != DM_JSON_NUMBER || b->child->num < 0
          || b->child->num > 1e15 || b->child->next->num < 0 || b->child->next->num > 1e18)
        return refuse (l, "a latency histogram bucket is not [ns, count]");
      uint64_t n = (uint64_t) b->child->next->num;
      h->buckets[dm_histogram_bucket ((uint64_t) b->child->num)] += n;
      h->count += n;
    }
  /* The exact moments are not in the buckets; take them from the summary
   * so a loaded histogram answers mean and range as the original did. */
  if (h->count)
    {
      h->min = (uint64_t) (lat->min * 1000);
      h->max = (uint64_t) (lat->max * 1000);
      h->sum = lat->mean * 1000 * (double) h->count;
      h->sum_sq = ((lat->stdev * lat->stdev) + lat->mean * lat->mean) * 1e6 * (double) h->count;
    }
  return true;
}

/* A number that may be below 0 (the part above the device, by noise),
 * within ±max; absent or null leaves *counted false. */
static double
signed_number (loader *l, const dm_json *obj, const char *key, double max, bool *counted)
{
  const dm_json *v = dm_json_get (obj, key);
  *counted = false;
  if (!v || v->type == DM_JSON_NULL)
    return 0;
  if (v->type != DM_JSON_NUMBER || !isfinite (v->num) || fabs (v->num) > max)
    {
      refuse (l, "'%s' is not a number from -%g to %g", key, max, max);
      return 0;
    }
  *counted = true;
  return v->num;
}

/* Each direction's await and the part above it; null or missing (a file
 * from before them) is not counted, never 0. */
static void
load_split (loader *l, const dm_json *dev, dm_device_seen *d)
{
  static const char *const keys[2][2] = { { "read_await_us", "read_guest_us" },
                                          { "write_await_us", "write_guest_us" } };
  for (unsigned dir = 0; dir < 2; dir++)
    {
      dm_device_split *s = &d->split[dir];
      bool counted;
      s->await_us = signed_number (l, dev, keys[dir][0], 1e12, &counted);
      s->counted = counted && s->await_us >= 0;
      if (counted && s->await_us < 0)
        refuse (l, "'%s' is below 0", keys[dir][0]);
      s->guest_us = signed_number (l, dev, keys[dir][1], 1e12, &s->guest_counted);
      s->guest_counted = s->guest_counted && s->counted;
    }
}

/* The device object and the flags as they were written: the flags are the
 * run's verdict, kept even if a later version would judge differently. */
static bool
load_device (loader *l, const dm_json *o, dm_device_seen *d, unsigned index)
{
  const dm_json *dev = dm_json_get (o, "device");
  const dm_json *flags = dm_json_get (o, "flags");
  memset (d, 0, sizeof *d);
  if (dev && dev->type == DM_JSON_OBJECT)
    {
      d->counted = true;
      user_text (l, dev, "name", d->name, sizeof d->name);
      d->read_bytes = (uint64_t) number (l, dev, "read_bytes", 1e19);
      d->write_bytes = (uint64_t) number (l, dev, "write_bytes", 1e19);
      d->reads = (uint64_t) number (l, dev, "reads", 1e19);
      d->writes = (uint64_t) number (l, dev, "writes", 1e19);
      d->avg_queue = number (l, dev, "avg_queue", 1e9);
      d->busy_percent = number (l, dev, "busy_percent", 100);
      d->queue_limit = (unsigned) number (l, dev, "queue_limit", 1e9);
      d->seconds = number (l, dev, "seconds", 1e7);
      d->counted_bytes = (uint64_t) number (l, dev, "counted_bytes", 1e19);
      load_split (l, dev, d);
    }
  else if (dev && dev->type != DM_JSON_NULL)
    return refuse (l, "result %u: 'device' is not an object", index + 1);
  if (dm_json_get (o, "os_queue"))
    {
      d->os_counted = true;
      d->os_queue = number (l, o, "os_queue", 1e6);
    }
  if (flags && flags->type != DM_JSON_ARRAY)
    return refuse (l, "result %u: 'flags' is not a list", index + 1);
  for (const dm_json *f = flags ? flags->child : NULL; f; f = f->next)
    {
      dm_device_flag flag;
      /* A flag this version does not know is left out, not refused: a
       * newer Diskmeter may judge more. */
      if (f->type == DM_JSON_STRING && dm_device_flag_parse (f->str, &flag) == 0)
        d->flags |= flag;
    }
  return !l->failed;
}

/* The advice as it was written (files before it, and results without
 * any, have none): kept, not judged again, as the flags are. */
static bool
load_advice (loader *l, const dm_json *o, dm_advice *a, unsigned index)
{
  const dm_json *adv = dm_json_get (o, "advice");
  memset (a, 0, sizeof *a);
  if (!adv || adv->type == DM_JSON_NULL)
    return true;
  if (adv->type != DM_JSON_OBJECT)
    return refuse (l, "result %u: 'advice' is not an object", index + 1);
  user_text (l, adv, "sentence", a->sentence, sizeof a->sentence);
  user_text (l, adv, "setting", a->setting, sizeof a->setting);
  string (adv, "source", a->source, sizeof a->source);
  return !l->failed;
}

static void
load_sample_figures (loader *l, const dm_json *o, dm_sample_figures *f)
{
  f->mb_per_s = number (l, o, "mb_per_s", 1e9);
  f->iops = number (l, o, "iops", 1e12);
  f->latency_us_mean = number (l, o, "latency_us_mean", 1e12);
  f->latency_us_p99 = number (l, o, "latency_us_p99", 1e12);
}

/* The timeline, when the file has one (files before it have none). */
static bool
load_samples (loader *l, const dm_json *o, dm_result *res, unsigned index)
{
  const dm_json *list = dm_json_get (o, "samples");
  if (!list)
    return true;
  if (list->type != DM_JSON_ARRAY)
    return refuse (l, "result %u: 'samples' is not a list", index + 1);
  if (list->n > 10000000)
    return refuse (l, "result %u has %zu samples, more than any run takes", index + 1, list->n);
  double step = number (l, o, "sample_s", DM_SAMPLE_MAX_S);
  dm_sample *samples = calloc (list->n ? list->n : 1, sizeof *samples);
  if (!samples)
    return refuse (l, "out of memory");
  unsigned n = 0;
  for (const dm_json *sm = list->child; sm && !l->failed; sm = sm->next, n++)
    {
      if (sm->type != DM_JSON_OBJECT)
        {
          refuse (l, "result %u: a sample is not an object", index + 1);
          break;
        }
      samples[n].t = number (l, sm, "t", 1e7);
      load_sample_figures (l, sm, &samples[n].all);
      load_sample_figures (l, dm_json_get (sm, "read"), &samples[n].read);
      load_sample_figures (l, dm_json_get (sm, "write"), &samples[n].write);
    }
  if (!l->failed && dm_result_set_samples (res, samples, n, step) < 0)
    refuse (l, "out of memory");
  free (samples);
  return !l->failed;
}

/* A field a result repeats from its test name or mode, if present, must
 * be a whole number in max and be want. The file is refused otherwise:
 * the name alone says what was measured, and a file whose own fields
 * contradict it was edited or is not ours. */
static bool
repeated_uint (loader *l, const dm_json *o, const char *key, double max, unsigned want,
               const char *test, const char *mode, unsigned index)
{
  const dm_json *v = dm_json_get (o, key);
  if (!v)
    return true;
  if (v->type != DM_JSON_NUMBER || !isfinite (v->num) || v->num < 0 || v->num > max
      || v->num != floor (v->num))
    return refuse (l, "result %u (%s %s): '%s' is not a whole number from 0 to %.0f", index + 1,
                   test, mode, key, max);
  if (v->num != want)
    return refuse (l, "result %u (%s %s): '%s' is %.0f where the test and mode say %u",
                   index + 1, test, mode, key, v->num, want);
  return true;
}

/* The spec's fields against the spec read from the test name, within the
 * ranges dm-spec.h allows, and the read share against the mode. */
static bool
check_repeated_spec (loader *l, const dm_json *o, const dm_result *res, unsigned index)
{
  const char *test = dm_json_get_string (o, "test", "");
  const char *mode = dm_mode_name (res->mode);
  const dm_json *pattern = dm_json_get (o, "pattern");
  const char *want_pattern = res->spec.pattern == DM_SEQ ? "SEQ" : "RND";

  if (pattern && (pattern->type != DM_JSON_STRING || strcmp (pattern->str, want_pattern)))
    return refuse (l, "result %u (%s %s): 'pattern' is not %s, as the test says", index + 1,
                   test, mode, want_pattern);
  if (!repeated_uint (l, o, "block_size", DM_BLOCK_MAX, res->spec.block_size, test, mode, index)
      || !repeated_uint (l, o, "queue_depth", DM_QUEUE_MAX, res->spec.queue_depth, test, mode,
                         index)
      || !repeated_uint (l, o, "threads", DM_THREADS_MAX, res->spec.threads, test, mode, index))
    return false;
  /* Read is all reads, write none, Mix the share it was run with. */
  const dm_json *share = dm_json_get (o, "read_percent");
  if (share && res->mode != DM_MODE_MIX)
    return repeated_uint (l, o, "read_percent", 100, res->mode == DM_MODE_READ ? 100 : 0, test,
                          mode, index);
  if (res->mode == DM_MODE_MIX
      && (res->read_percent < DM_MIX_READ_MIN || res->read_percent > DM_MIX_READ_MAX))
    return refuse (l, "result %u (%s %s): 'read_percent' is %u; a Mix reads %d to %d percent",
                   index + 1, test, mode, res->read_percent, DM_MIX_READ_MIN, DM_MIX_READ_MAX);
  return true;
}

static bool
load_result (loader *l, const dm_json *o, dm_result *res, unsigned index, unsigned mix_share)
{
  char why[160];
  const char *test = dm_json_get_string (o, "test", NULL);
  const char *mode = dm_json_get_string (o, "mode", NULL);

  if (o->type != DM_JSON_OBJECT)
    return refuse (l, "result %u is not an object", index + 1);
  if (!test || dm_spec_parse (test, &res->spec, why, sizeof why) < 0)
    return refuse (l, "result %u: %s", index + 1, test ? why : "no test name");
  if (!mode || dm_mode_parse (mode, &res->mode) < 0)
    return refuse (l, "result %u: '%s' is not read, write or mix", index + 1, mode ? mode : "");
  res->status = parse_status (l, dm_json_get_string (o, "status", "complete"));
  user_text (l, o, "error", res->error, sizeof res->error);
  /* A file without the share (an older one) has the one its mode means,
   * a Mix the run's; written out again, it says so and loads again. */
  res->read_percent = dm_json_get (o, "read_percent")
                      ? (unsigned) number (l, o, "read_percent", 100)
                      : res->mode == DM_MODE_READ ? 100 : res->mode == DM_MODE_WRITE ? 0 : mix_share;
  const dm_json *warm = dm_json_get (o, "warmup");
  if (warm && warm->type == DM_JSON_OBJECT)
    {
      res->warmup_took_s = number (l, warm, "took_s", 86400);
      res->warmup_settled = dm_json_get_bool (warm, "settled", false);
      res->warmup_spread = number (l, warm, "spread_percent", 1e9);
    }
  /* A workload row: its canonical form, which must agree with the test
   * name and read share written beside it. */
  const dm_json *wl = dm_json_get (o, "workload");
  if (wl && wl->type != DM_JSON_NULL)
    {
      char text[DM_WORKLOAD_TEXT_MAX], inner[200];
      dm_spec spec;
      user_text (l, o, "workload", text, sizeof text);
      if (dm_workload_parse (text, &res->workload, inner, sizeof inner) < 0)
        return refuse (l, "result %u: the workload is not valid: %s", index + 1, inner);
      res->shaped = true;
      dm_workload_spec (&res->workload, &spec);
      if (!dm_spec_equal (&spec, &res->spec) || res->read_percent != res->workload.read_percent)
        return refuse (l, "result %u (%s): the workload does not match its test and read share",
                       index + 1, test);
      res->flushes = (uint64_t) number (l, o, "flushes", 1e18);
    }
  else if (!l->failed && !check_repeated_spec (l, o, res, index))
    return false;
  res->mb_per_s = number (l, o, "mb_per_s", 1e9);
  res->iops = number (l, o, "iops", 1e12);
  res->latency_us = number (l, o, "best_latency_us", 1e12);
  res->mean_mb_per_s = number (l, o, "mean_mb_per_s", 1e9);
  res->stdev_mb_per_s = number (l, o, "stdev_mb_per_s", 1e9);
  res->cpu_percent = number (l, o, "cpu_percent", 100 * 4096.0);
  res->cpu_us_per_io = number (l, o, "cpu_us_per_io", 1e12);
  load_latency (l, o, "latency_us", &res->latency);
  load_latency (l, o, "latency_read_us", &res->latency_read);
  load_latency (l, o, "latency_write_us", &res->latency_write);
  const dm_json *hist = dm_json_get (o, "latency_histogram");
  bool mix = res->mode == DM_MODE_MIX;
  if (!load_buckets (l, dm_json_get (hist, "read"), res->hist_read,
                     mix ? &res->latency_read : &res->latency)
      || !load_buckets (l, dm_json_get (hist, "write"), res->hist_write,
                        mix ? &res->latency_write : &res->latency))
    return false;

  if (!load_device (l, o, &res->device, index))
    return false;
  if (!load_advice (l, o, &res->advice, index))
    return false;
  res->planned_start_ms = dm_time_parse_ms (dm_json_get_string (o, "planned_start", NULL));
  res->started_ms = dm_time_parse_ms (dm_json_get_string (o, "started", NULL));

  const dm_json *runs = dm_json_get (o, "runs");
  if (runs && runs->type != DM_JSON_ARRAY)
    return refuse (l, "result %u: 'runs' is not a list", index + 1);
  if (runs && runs->n > sizeof res->runs / sizeof res->runs[0])
    return refuse (l, "result %u has %zu runs; at most 9 are possible", index + 1, runs->n);
  for (const dm_json *run = runs ? runs->child : NULL; run; run = run->next)
    {
      dm_run *r = &res->runs[res->n_runs++];
      if (run->type != DM_JSON_OBJECT)
        return refuse (l, "result %u: a run is not an object", index + 1);
      r->bytes = (uint64_t) number (l, run, "bytes", 1e18);
      r->ios = (uint64_t) number (l, run, "ios", 1e18);
      r->seconds = number (l, run, "seconds", 1e7);
      r->mb_per_s = number (l, run, "mb_per_s", 1e9);
      r->iops = number (l, run, "iops", 1e12);
      r->latency_us = number (l, run, "latency_us", 1e12);
    }
  return !l->failed && load_samples (l, o, res, index);
}

int
dm_report_load_json (dm_report *out, const char *text, size_t len, char *why, size_t why_size)
{
  dm_json_doc doc;
  char inner[200];

  if (dm_json_parse (text, len, &doc, inner, sizeof inner) < 0)
    {
      /* A file cut short ends in the middle of something. */
      bool truncated = strstr (inner, "end of text") || strstr (inner, "unterminated");
      snprintf (why, why_size, "%s (%s)",
                truncated ? "the file is truncated" : "the file is not valid JSON", inner);
      return -EINVAL;
    }
  int err = dm_report_load_node (out, doc.root, why, why_size);
  dm_json_free (&doc);
  return err;
}

int
dm_report_load_node (dm_report *out, const dm_json *root, char *why, size_t why_size)
{
  loader l = { why, why_size, false };
  dm_report r;

  memset (&r, 0, sizeof r);
  dm_settings_init (&r.settings);
  const dm_json *tool = dm_json_get (root, "tool");
  if (root->type != DM_JSON_OBJECT || !tool
      || strcmp (dm_json_get_string (tool, "name", ""), "Diskmeter") != 0)
    {
      refuse (&l, "not a Diskmeter result file");
      goto out;
    }
  double format = dm_json_get_number (root, "format_version", 1);
  if (format > DM_REPORT_FORMAT)
    {
      refuse (&l, "written by Diskmeter %s in a newer format (%g); this version reads %d",
              dm_json_get_string (tool, "version", "?"), format, DM_REPORT_FORMAT);
      goto out;
    }

  string (root, "backend", r.backend, sizeof r.backend);
  r.status = parse_status (&l, dm_json_get_string (root, "status", ""));
  user_text (&l, root, "error", r.error, sizeof r.error);
  user_text (&l, root, "warning", r.warning, sizeof r.warning);
  r.cached = dm_json_get_bool (root, "cached", false);
  string (root, "profile", r.profile, sizeof r.profile);
  r.nvme = dm_json_get_bool (root, "nvme", false);
  user_text (&l, root, "comment", r.comment, sizeof r.comment);
  user_text (&l, root, "test_file", r.test_file, sizeof r.test_file);
  r.nocow = dm_json_get_bool (root, "nocow", false);
  user_text (&l, root, "device_note", r.device_note, sizeof r.device_note);
  r.started = dm_parse_iso_time (dm_json_get_string (root, "started", ""));
  r.finished = dm_parse_iso_time (dm_json_get_string (root, "finished", ""));

  const dm_json *t = dm_json_get (root, "target");
  user_text (&l, t, "path", r.target.path, sizeof r.target.path);
  user_text (&l, t, "real_path", r.target.real_path, sizeof r.target.real_path);
  user_text (&l, t, "mount_point", r.target.mount_point, sizeof r.target.mount_point);
  user_text (&l, t, "filesystem", r.target.filesystem, sizeof r.target.filesystem);
  user_text (&l, t, "device", r.target.device, sizeof r.target.device);
  user_text (&l, t, "model", r.target.model, sizeof r.target.model);
  user_text (&l, t, "driver", r.target.driver, sizeof r.target.driver);
  r.target.size_bytes = (uint64_t) number (&l, t, "size_bytes", 1e19);
  r.target.free_bytes = (uint64_t) number (&l, t, "free_bytes", 1e19);
  r.target.sector_size = (uint32_t) number (&l, t, "sector_size", 1 << 20);
  r.target.is_block_device = dm_json_get_bool (t, "is_block_device", false);
  user_text (&l, t, "controller", r.target.controller, sizeof r.target.controller);
  r.target.queue_depth = (unsigned) number (&l, t, "queue_depth", 1e9);
  r.target.host_queue = (unsigned) number (&l, t, "host_queue", 1e9);
  r.target.nr_requests = (unsigned) number (&l, t, "nr_requests", 1e9);
  r.target.hw_queues = (unsigned) number (&l, t, "hw_queues", 1e6);
  r.target.max_segments = (unsigned) number (&l, t, "max_segments", 1e9);
  user_text (&l, t, "driver_params", r.target.driver_params, sizeof r.target.driver_params);

  const dm_json *sy = dm_json_get (root, "system");
  user_text (&l, sy, "os", r.system.os, sizeof r.system.os);
  user_text (&l, sy, "kernel", r.system.kernel, sizeof r.system.kernel);
  user_text (&l, sy, "cpu_model", r.system.cpu_model, sizeof r.system.cpu_model);
  r.system.logical_cpus = (unsigned) number (&l, sy, "logical_cpus", 1 << 20);
  r.system.memory_bytes = (uint64_t) number (&l, sy, "memory_bytes", 1e19);
  string (sy, "hypervisor", r.system.hypervisor, sizeof r.system.hypervisor);
  user_text (&l, sy, "machine", r.system.machine, sizeof r.system.machine);
  r.system.sockets = (unsigned) number (&l, sy, "sockets", 1 << 20);
  r.system.cores_per_socket = (unsigned) number (&l, sy, "cores_per_socket", 1 << 20);
  r.system.threads_per_core = (unsigned) number (&l, sy, "threads_per_core", 1 << 20);
  r.system.numa_nodes = (unsigned) number (&l, sy, "numa_nodes", 1 << 20);
  load_tags (&l, dm_json_get (root, "tags"), &r);

  const dm_json *se = dm_json_get (root, "settings");
  if (se)
    {
      r.settings.count = (unsigned) number (&l, se, "count", 9);
      r.settings.test_size = (uint64_t) number (&l, se, "test_size", 1e15);
      r.settings.measure_s = number (&l, se, "measure_s", 86400);
      r.settings.interval_s = number (&l, se, "interval_s", 86400);
      r.settings.warmup_s = number (&l, se, "warmup_s", 86400);
      dm_data_parse (dm_json_get_string (se, "data", "random"), &r.settings.data);
      r.settings.mix_read_percent = (unsigned) number (&l, se, "mix_read_percent", 100);
      r.settings.buffered = dm_json_get_bool (se, "buffered", false);
      r.settings.write_through = dm_json_get_bool (se, "write_through", false);
      const dm_json *st = dm_json_get (se, "warmup_steady");
      if (st && st->type == DM_JSON_OBJECT)
        {
          r.settings.warmup_steady = true;
          r.settings.steady_margin = number (&l, st, "margin_percent", 100);
          r.settings.steady_limit_s = number (&l, st, "limit_s", 86400);
        }
      r.settings.precondition = (unsigned) number (&l, se, "precondition", DM_PRECONDITION_MAX);
    }
  const dm_json *io = dm_json_get (root, "io_totals");
  r.prepare_bytes = (uint64_t) number (&l, io, "prepare_bytes", 1e19);
  r.precondition_bytes = (uint64_t) number (&l, io, "precondition_bytes", 1e19);
  r.precondition_s = number (&l, io, "precondition_s", 1e9);
  r.warmup_bytes = (uint64_t) number (&l, io, "warmup_bytes", 1e19);
  r.measured_bytes = (uint64_t) number (&l, io, "measured_bytes", 1e19);
  if (l.failed)
    goto out;

  const dm_json *rules = dm_json_get (root, "thresholds");
  for (const dm_json *rule = rules && rules->type == DM_JSON_ARRAY ? rules->child : NULL; rule;
       rule = rule->next)
    {
      char why_rule[200];
      if (r.n_thresholds == sizeof r.thresholds / sizeof r.thresholds[0])
        break;
      if (rule->type != DM_JSON_STRING
          || dm_threshold_parse (rule->str, &r.thresholds[r.n_thresholds], why_rule,
                                 sizeof why_rule) < 0)
        {
          refuse (&l, "a threshold is not valid: %s",
                  rule->type == DM_JSON_STRING ? why_rule : "not a string");
          goto out;
        }
      r.n_thresholds++;
    }

  const dm_json *results = dm_json_get (root, "results");
  if (!results || results->type != DM_JSON_ARRAY)
    {
      refuse (&l, "no results list");
      goto out;
    }
  if (results->n > 4096)
    {
      refuse (&l, "%zu results is more than any run has", results->n);
      goto out;
    }
  r.results = calloc (results->n ? results->n : 1, sizeof *r.results);
  r.histograms = malloc (2 * (results->n ? results->n : 1) * sizeof *r.histograms);
  if (!r.results || !r.histograms)
    {
      refuse (&l, "out of memory");
      goto out;
    }
  for (const dm_json *res = results->child; res; res = res->next)
    {
      dm_result_attach_histograms (&r.results[r.n_results], &r.histograms[2 * r.n_results]);
      if (!load_result (&l, res, &r.results[r.n_results], r.n_results,
                        r.settings.mix_read_percent))
        {
          free (r.results[r.n_results].samples);
          goto out;
        }
      r.n_results++;
    }
  /* The profile's hash is the rows' own: one that does not match them
   * was edited, and compare and merge would trust it. */
  string (root, "profile_hash", r.profile_hash, sizeof r.profile_hash);
  if (!l.failed)
    {
      char hash[17];
      dm_report_profile_hash (&r, hash);
      if (strcmp (hash, r.profile_hash))
        {
          refuse (&l, "'profile_hash' is '%s' where its workloads make '%s'", r.profile_hash, hash);
          goto out;
        }
    }

out:
  if (l.failed)
    {
      dm_report_clear (&r);
      return -EINVAL;
    }
  *out = r;
  return 0;
}
