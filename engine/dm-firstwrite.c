/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first-write probe's plan, its run (the ordinary runner, one prepare
 * per test so that each test meets a file nothing has written), the
 * penalty of each pair of passes and its JSON, text and CSV forms.
 */
#include "dm-firstwrite.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-tags.h"
#include "dm-text.h"
#include "dm-units.h"

void
dm_firstwrite_plan_init (dm_firstwrite_plan *p)
{
  memset (p, 0, sizeof *p);
  p->tests[0] = (dm_spec) { DM_RND, 4096, 32, 1 };
  p->tests[1] = (dm_spec) { DM_SEQ, 1u << 20, 8, 1 };
  p->n_tests = 2;
  p->size = DM_FIRSTWRITE_SIZE_DEFAULT;
  p->duration_s = DM_FIRSTWRITE_DURATION_DEFAULT;
}

int
dm_firstwrite_report_init (dm_report *r, const dm_firstwrite_plan *p, const dm_settings *base,
                           char *why, size_t why_size)
{
  dm_settings s = *base;
  dm_spec specs[2 * DM_FIRSTWRITE_MAX_TESTS];

  if (!p->n_tests || p->n_tests > DM_FIRSTWRITE_MAX_TESTS)
    return dm_why (why, why_size, "the first-write probe runs 1 to %d tests",
                   DM_FIRSTWRITE_MAX_TESTS);
  /* One pass each, nothing before it: a warm-up, a fill or a precondition
   * would write the blocks the first pass must find unwritten. */
  s.count = 1;
  s.measure_s = p->duration_s;
  s.warmup_s = 0;
  s.warmup_steady = false;
  s.interval_s = 0;
  s.precondition = 0;
  s.test_size = p->size;
  for (unsigned i = 0; i < p->n_tests; i++)
    {
      char name[32];
      dm_spec_name (&p->tests[i], name, sizeof name);
      if ((uint64_t) p->tests[i].block_size * p->tests[i].threads > p->size)
        return dm_why (why, why_size, "%s needs a size of at least one block per thread", name);
      specs[2 * i] = specs[2 * i + 1] = p->tests[i];
    }
  int err = dm_settings_check (&s, why, why_size);
  if (err < 0)
    return err;
  if (dm_report_init (r, &s, specs, 2 * p->n_tests, DM_MODE_BIT (DM_MODE_WRITE)) < 0)
    return dm_why (why, why_size, "out of memory");
  snprintf (r->profile, sizeof r->profile, "first-write");
  return 0;
}

bool
dm_firstwrite_is (const dm_report *r)
{
  return !strcmp (r->profile, "first-write") && r->n_results >= 2 && r->n_results % 2 == 0;
}

int
dm_firstwrite_run (dm_runner *runner)
{
  dm_report *rep = dm_runner_get_report (runner);
  bool selected[2 * DM_FIRSTWRITE_MAX_TESTS];
  unsigned n = rep->n_results / 2;
  int64_t started = 0;
  int err = 0;

  if (n > DM_FIRSTWRITE_MAX_TESTS)
    n = DM_FIRSTWRITE_MAX_TESTS;
  dm_runner_set_pass (runner, false);
  dm_runner_set_pass_repeat (runner);
  for (unsigned i = 0; i < n && !err; i++)
    {
      /* A prepare per test: a new file whose blocks nothing has written
       * (the last test's file is gone by then). It starts the report's
       * byte counts afresh; the job's are kept. */
      uint64_t measured = rep->measured_bytes, unscored = rep->warmup_bytes;
      memset (selected, 0, sizeof selected);
      selected[2 * i] = selected[2 * i + 1] = true;
      dm_runner_select (runner, selected);
      err = dm_runner_prepare (runner);
      rep->measured_bytes += measured;
      rep->warmup_bytes += unscored;
      if (i)
        rep->started = started;
      started = rep->started;
      if (!err)
        err = dm_runner_run_result (runner, 2 * i, false);
      if (!err)
        err = dm_runner_run_result (runner, 2 * i + 1, false);
      err = dm_runner_finish (runner, err);
    }
  dm_runner_select (runner, NULL);
  return err;
}

/* The bytes a whole pass of res's test moves over size bytes: a
 * sequential test's threads each take whole blocks of an equal part. */
static uint64_t
whole_bytes (const dm_result *res, uint64_t size)
{
  const dm_spec *s = &res->spec;
  if (s->pattern == DM_SEQ)
    return size / s->threads / s->block_size * s->block_size * s->threads;
  return size / s->block_size * s->block_size;
}

/* A figure as the JSON writes it, "%.3f": printf's rounding of the binary
 * value, not round()'s of the decimal one (1.8155 prints as 1.815).
 * snprintf and strtod agree on the decimal point in any locale. */
static double
as_written (double v)
{
  char text[64];
  snprintf (text, sizeof text, "%.3f", isfinite (v) ? v : 0);
  return strtod (text, NULL);
}

void
dm_firstwrite_pair_of (const dm_report *r, unsigned i, dm_firstwrite_pair *out)
{
  memset (out, 0, sizeof *out);
  if (2 * i + 1 >= r->n_results)
    return;
  const dm_result *f = &r->results[2 * i], *w = &r->results[2 * i + 1];
  out->first = f;
  out->rewrite = w;
  out->measured = f->status == DM_STATUS_COMPLETE && w->status == DM_STATUS_COMPLETE
                  && f->n_runs && w->n_runs && f->iops > 0 && w->iops > 0;
  uint64_t size = r->settings.test_size;
  if (r->target.is_block_device && r->target.size_bytes && r->target.size_bytes < size)
    size = r->target.size_bytes & ~((1ull << 20) - 1);
  out->whole = f->n_runs && f->runs[0].bytes >= whole_bytes (f, size);
  if (!out->measured)
    return;
  /* From the figures as the JSON keeps them, so that a saved probe gives
   * the very same ratios. */
  double fm = as_written (f->latency.mean), wm = as_written (w->latency.mean);
  double fp = as_written (f->latency.p99), wp = as_written (w->latency.p99);
  out->penalty = as_written (w->iops) / as_written (f->iops);
  out->latency_ratio = wm > 0 ? fm / wm : 0;
  out->p99_ratio = wp > 0 ? fp / wp : 0;
}

/* ---- JSON ----------------------------------------------------------------- */

static void
json_pass (dm_buf *b, const dm_result *res)
{
  const dm_run *run = res->n_runs ? &res->runs[0] : NULL;
  dm_buf_add (b, "{ \"status\": ");
  dm_buf_add_json_string (b, dm_status_name (res->status));
  dm_buf_add (b, ", \"mb_per_s\": ");
  dm_buf_add_double (b, "%.3f", res->mb_per_s);
  dm_buf_add (b, ", \"iops\": ");
  dm_buf_add_double (b, "%.3f", res->iops);
  dm_buf_add (b, ", \"latency_us_mean\": ");
  dm_buf_add_double (b, "%.3f", res->latency.mean);
  dm_buf_add (b, ", \"latency_us_p99\": ");
  dm_buf_add_double (b, "%.3f", res->latency.p99);
  dm_buf_printf (b, ", \"bytes\": %llu, \"ios\": %llu, \"seconds\": ",
                 (unsigned long long) (run ? run->bytes : 0),
                 (unsigned long long) (run ? run->ios : 0));
  dm_buf_add_double (b, "%.6g", run ? run->seconds : 0);
  if (res->device.counted)
    dm_buf_printf (b, ", \"device_write_bytes\": %llu, \"device_writes\": %llu }",
                   (unsigned long long) res->device.write_bytes,
                   (unsigned long long) res->device.writes);
  else
    dm_buf_add (b, ", \"device_write_bytes\": null, \"device_writes\": null }");
}

static void
json_ratio (dm_buf *b, const char *key, bool known, double v)
{
  dm_buf_printf (b, ",\n      \"%s\": ", key);
  if (known && v > 0)
    dm_buf_add_double (b, "%.4f", v);
  else
    dm_buf_add (b, "null");
}

void
dm_firstwrite_write_json (const dm_report *r, dm_buf *b)
{
  char name[32];

  /* A member of the report's object, as the sweep's and sustained's are. */
  if (!dm_report_write_json_open (r, b))
    return;
  dm_buf_printf (b, ",\n  \"first_write\": {\n    \"size_bytes\": %llu",
                 (unsigned long long) r->settings.test_size);
  dm_buf_add (b, ",\n    \"duration_s\": ");
  dm_buf_add_double (b, "%.6g", r->settings.measure_s);
  dm_buf_printf (b, ",\n    \"device\": %s,\n    \"tests\": [",
                 r->target.is_block_device ? "true" : "false");
  for (unsigned i = 0; i < r->n_results / 2; i++)
    {
      dm_firstwrite_pair p;
      dm_firstwrite_pair_of (r, i, &p);
      dm_spec_name (&p.first->spec, name, sizeof name);
      dm_buf_add (b, i ? ",\n    {\n      \"test\": " : "\n    {\n      \"test\": ");
      dm_buf_add_json_string (b, name);
      dm_buf_printf (b, ",\n      \"whole\": %s,\n      \"first\": ", p.whole ? "true" : "false");
      json_pass (b, p.first);
      dm_buf_add (b, ",\n      \"rewrite\": ");
      json_pass (b, p.rewrite);
      json_ratio (b, "penalty", p.measured, p.penalty);
      json_ratio (b, "latency_ratio", p.measured, p.latency_ratio);
      json_ratio (b, "p99_ratio", p.measured, p.p99_ratio);
      dm_buf_add (b, "\n    }");
    }
  dm_buf_add (b, "\n    ]\n  }\n}\n");
}

/* ---- text ----------------------------------------------------------------- */

static void
text_pass (dm_buf *b, const char *test, const char *pass, const dm_result *res)
{
  char blocks[32];
  dm_buf_printf (b, "%-14s %-8s", test, pass);
  if (res->status != DM_STATUS_COMPLETE || !res->n_runs)
    {
      dm_buf_printf (b, " %s%s", dm_status_name (res->status), res->error[0] ? ": " : "");
      dm_text_add_shown (b, res->error);
      dm_buf_add (b, "\n");
      return;
    }
  dm_buf_add_double (b, "%10.2f", res->mb_per_s);
  dm_buf_add_double (b, "%11.1f", res->iops);
  dm_buf_add_double (b, "%11.1f", res->latency.mean);
  dm_buf_add_double (b, "%11.1f", res->latency.p99);
  snprintf (blocks, sizeof blocks, "%llu", (unsigned long long) res->runs[0].ios);
  dm_buf_printf (b, " %10s", blocks);
  dm_buf_add_double (b, "%9.2f", res->runs[0].seconds);
  dm_buf_add (b, "\n");
}

void
dm_firstwrite_write_text (const dm_report *r, dm_buf *b)
{
  char name[32], size[32], a[32], c[32];
  bool device = r->target.is_block_device;

  dm_size_human (r->settings.test_size, size, sizeof size);
  dm_buf_add (b, "First write against rewrite on ");
  dm_text_add_shown (b, r->target.path[0] ? r->target.path : "?");
  dm_buf_add (b, " (");
  dm_text_add_shown (b, device ? "device" : r->target.filesystem[0] ? r->target.filesystem : "-");
  dm_buf_printf (b, "), %s %s per test\n", size,
                 device ? "from the start of the device" : "in a new test file");
  dm_report_add_tags_line (b, r, "Tags: ");
  if (r->status == DM_STATUS_FAILED && r->error[0])
    {
      dm_buf_add (b, "Status: failed: ");
      dm_text_add_shown (b, r->error);
      dm_buf_add (b, "\n");
    }
  dm_buf_add (b, "\nTest           Pass          MB/s       IOPS    Mean us     p99 us"
                 "     Blocks        s\n");
  for (unsigned i = 0; i < r->n_results / 2; i++)
    {
      dm_firstwrite_pair p;
      dm_firstwrite_pair_of (r, i, &p);
      dm_spec_name (&p.first->spec, name, sizeof name);
      text_pass (b, name, "first", p.first);
      text_pass (b, "", "rewrite", p.rewrite);
      if (p.measured)
        {
          dm_buf_printf (b, "%-14s %-8s", "", "penalty");
          dm_buf_add_double (b, " x%.2f", p.penalty);
          dm_buf_add (b, " (IOPS), mean latency x");
          dm_buf_add_double (b, "%.2f", p.latency_ratio);
          dm_buf_add (b, ", p99 x");
          dm_buf_add_double (b, "%.2f", p.p99_ratio);
          dm_buf_add (b, "\n");
        }
      if (p.first->n_runs && !p.whole)
        dm_buf_add (b, "               The first pass ran out of time before the whole size; "
                       "the rewrite wrote the same blocks.\n");
      if (p.first->device.counted && p.rewrite->device.counted)
        {
          const dm_device_seen *f = &p.first->device, *w = &p.rewrite->device;
          dm_size_human (f->write_bytes, a, sizeof a);
          dm_size_human (w->write_bytes, c, sizeof c);
          dm_buf_add (b, "               Device ");
          dm_text_add_shown (b, f->name);
          dm_buf_printf (b, " wrote %s in %llu requests in the first pass, %s in %llu in the "
                            "rewrite", a, (unsigned long long) f->writes, c,
                         (unsigned long long) w->writes);
          if (!device && f->write_bytes > w->write_bytes)
            {
              dm_size_human (f->write_bytes - w->write_bytes, a, sizeof a);
              dm_buf_printf (b, ": %s more, the filesystem's own", a);
            }
          dm_buf_add (b, "\n");
        }
    }
  dm_buf_add (b, "\nThe penalty is how many times longer a block took to write the first "
                 "time than again.\n");
  if (device)
    dm_buf_add (b, "On a device the probe measures the disk alone; its first pass meets the "
                   "blocks as they are, unwritten only where the disk, LUN or snapshot never "
                   "held data.\n");
  else
    dm_buf_add (b, "In a folder the first write includes the filesystem's own work: it turns "
                   "the test file's unwritten extents into written ones (ext4, XFS), or fills "
                   "the file with zeros up to each write past its valid data (NTFS). "
                   "--destroy-data-on DEVICE measures a whole disk alone.\n");
}

/* ---- CSV ------------------------------------------------------------------ */

static void
csv_number (dm_buf *b, const char *fmt, bool known, double v)
{
  dm_buf_add (b, ",");
  if (known)
    dm_buf_add_double (b, fmt, v);
}

void
dm_firstwrite_write_csv (const dm_report *r, dm_buf *b)
{
  char name[32];

  dm_buf_add (b, "test,pass,status,mb_per_s,iops,latency_us_mean,latency_us_p99,bytes,ios,"
                 "seconds,device_write_bytes,device_writes,penalty,latency_ratio,p99_ratio");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\r\n");
  for (unsigned i = 0; i < r->n_results / 2; i++)
    {
      dm_firstwrite_pair p;
      dm_firstwrite_pair_of (r, i, &p);
      dm_spec_name (&p.first->spec, name, sizeof name);
      for (int k = 0; k < 2; k++)
        {
          const dm_result *res = k ? p.rewrite : p.first;
          const dm_run *run = res->n_runs ? &res->runs[0] : NULL;
          dm_buf_printf (b, "%s,%s,%s", name, k ? "rewrite" : "first",
                         dm_status_name (res->status));
          csv_number (b, "%.3f", true, res->mb_per_s);
          csv_number (b, "%.3f", true, res->iops);
          csv_number (b, "%.3f", true, res->latency.mean);
          csv_number (b, "%.3f", true, res->latency.p99);
          dm_buf_printf (b, ",%llu,%llu", (unsigned long long) (run ? run->bytes : 0),
                         (unsigned long long) (run ? run->ios : 0));
          csv_number (b, "%.6g", true, run ? run->seconds : 0);
          if (res->device.counted)
            dm_buf_printf (b, ",%llu,%llu", (unsigned long long) res->device.write_bytes,
                           (unsigned long long) res->device.writes);
          else
            dm_buf_add (b, ",,");
          csv_number (b, "%.4f", p.measured, p.penalty);
          csv_number (b, "%.4f", p.measured, p.latency_ratio);
          csv_number (b, "%.4f", p.measured, p.p99_ratio);
          dm_report_csv_tags_fields (r, b);
          dm_buf_add (b, "\r\n");
        }
    }
}
