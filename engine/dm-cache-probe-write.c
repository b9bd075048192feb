/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host-cache ladder's JSON, CSV and text: the rates of each working
 * set and the steps in words. Every figure comes from the report's
 * results through dm_cache_probe_ladder_of, so a saved probe reprints as
 * the live one printed.
 */
#include "dm-cache-probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dm-json.h"
#include "dm-text.h"
#include "dm-tags.h"
#include "dm-units.h"

/* One decimal and a '.', whatever LC_NUMERIC is (the window's). */
static const char *
num1 (char buf[32], double v)
{
  snprintf (buf, 32, "%.1f", isfinite (v) ? v : 0);
  for (char *p = buf; *p; p++)
    if (*p == ',')
      *p = '.';
  return buf;
}

bool
dm_cache_probe_info_from_json (const char *text, size_t len, dm_cache_probe_info *info)
{
  dm_json_doc doc = { 0 };
  char why[128];
  memset (info, 0, sizeof *info);
  if (!text || dm_json_parse (text, len, &doc, why, sizeof why) < 0)
    return false;
  const dm_json *m = dm_json_get (doc.root, "cache_probe");
  bool is = m && m->type == DM_JSON_OBJECT;
  if (is)
    {
      double max = dm_json_get_number (m, "max_asked_bytes", 0);
      info->max_asked = max > 0 && max < 1e19 ? (uint64_t) max : 0;
      info->time_limit_s = dm_json_get_number (m, "time_limit_s", 0);
      snprintf (info->stopped, sizeof info->stopped, "%s",
                dm_json_get_string (m, "stopped", ""));
    }
  dm_json_free (&doc);
  return is;
}

void
dm_cache_probe_step_text (const dm_cache_probe_step *s, char *buf, size_t size)
{
  char c[32], lo[32], hi[32], n1[32], n2[32];
  dm_size_human (s->cache_bytes, c, sizeof c);
  dm_size_human (s->below, lo, sizeof lo);
  dm_size_human (s->above, hi, sizeof hi);
  if (s->estimated)
    snprintf (buf, size, "about %s served by a cache below this VM at %s MB/s; beyond it %s MB/s",
              c, num1 (n1, s->cache_mb_per_s), num1 (n2, s->beyond_mb_per_s));
  else
    snprintf (buf, size, "between %s and %s served by a cache below this VM at %s MB/s; "
                         "%s MB/s at %s", lo, hi, num1 (n1, s->cache_mb_per_s),
              num1 (n2, s->beyond_mb_per_s), hi);
}

void
dm_cache_probe_write_json (const dm_report *r, const dm_cache_probe_info *info, dm_buf *b)
{
  unsigned n = dm_cache_probe_n_sizes (r);
  if (!dm_report_write_json_open (r, b))
    return;
  dm_buf_add (b, ",\n  \"cache_probe\": {\n    \"mode\": ");
  dm_buf_add_json_string (b, n ? dm_mode_name (r->results[0].mode) : "read");
  dm_buf_add (b, ",\n    \"working_sets\": [");
  for (unsigned k = 0; k < n; k++)
    dm_buf_printf (b, "%s%llu", k ? ", " : "", (unsigned long long) dm_cache_probe_size (r, k));
  dm_buf_printf (b, "],\n    \"max_asked_bytes\": %llu", (unsigned long long) info->max_asked);
  dm_buf_add (b, ",\n    \"memory_bytes\": ");
  dm_buf_printf (b, "%llu", (unsigned long long) r->system.memory_bytes);
  dm_buf_add (b, ",\n    \"time_limit_s\": ");
  dm_buf_add_double (b, "%.6g", info->time_limit_s);
  dm_buf_add (b, ",\n    \"stopped\": ");
  if (info->stopped[0])
    dm_buf_add_json_string (b, info->stopped);
  else
    dm_buf_add (b, "null");
  dm_buf_add (b, ",\n    \"fall\": ");
  dm_buf_add_double (b, "%.3f", DM_CACHE_PROBE_FALL);
  dm_buf_add (b, ",\n    \"ladders\": [");
  for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
    {
      dm_cache_probe_ladder l;
      char name[32];
      dm_cache_probe_ladder_of (r, t, &l);
      dm_spec_name (&dm_cache_probe_tests[t], name, sizeof name);
      dm_buf_add (b, t ? ",\n      { \"test\": " : "\n      { \"test\": ");
      dm_buf_add_json_string (b, name);
      dm_buf_add (b, ", \"mb_per_s\": [");
      for (unsigned k = 0; k < l.n; k++)
        {
          if (k)
            dm_buf_add (b, ", ");
          dm_buf_add_double (b, "%.3f", l.mb_per_s[k]);
        }
      dm_buf_add (b, "],\n        \"steps\": [");
      for (unsigned s = 0; s < l.n_steps; s++)
        {
          const dm_cache_probe_step *st = &l.steps[s];
          dm_buf_printf (b, "%s{ \"below_bytes\": %llu, \"above_bytes\": %llu, "
                            "\"estimated\": %s, \"cache_bytes\": %llu, ",
                         s ? ", " : "", (unsigned long long) st->below,
                         (unsigned long long) st->above, st->estimated ? "true" : "false",
                         (unsigned long long) st->cache_bytes);
          dm_buf_add (b, "\"cache_mb_per_s\": ");
          dm_buf_add_double (b, "%.3f", st->cache_mb_per_s);
          dm_buf_add (b, ", \"beyond_mb_per_s\": ");
          dm_buf_add_double (b, "%.3f", st->beyond_mb_per_s);
          dm_buf_add (b, " }");
        }
      dm_buf_add (b, "] }");
    }
  dm_buf_add (b, "\n    ]\n  }\n}\n");
}

void
dm_cache_probe_write_csv (const dm_report *r, dm_buf *b)
{
  char name[32];
  dm_buf_add (b, "working_set_bytes,test,mode,status,mb_per_s,iops,mean_latency_us,"
                 "p99_latency_us\r\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      dm_spec_name (&res->spec, name, sizeof name);
      dm_buf_printf (b, "%llu,%s,%s,%s,",
                     (unsigned long long) dm_cache_probe_size (r, i / DM_CACHE_PROBE_TESTS), name,
                     dm_mode_name (res->mode), dm_status_name (res->status));
      dm_buf_add_double (b, "%.3f", res->mb_per_s);
      dm_buf_add (b, ",");
      dm_buf_add_double (b, "%.3f", res->iops);
      dm_buf_add (b, ",");
      dm_buf_add_double (b, "%.3f", res->latency.mean);
      dm_buf_add (b, ",");
      dm_buf_add_double (b, "%.3f", res->latency.p99);
      dm_buf_add (b, "\r\n");
    }
}

void
dm_cache_probe_write_text (const dm_report *r, const dm_cache_probe_info *info, dm_buf *b)
{
  unsigned n = dm_cache_probe_n_sizes (r);
  char a[32], c[32], mem[32], name[2][32], n1[32], n2[32];
  if (!n)
    return;
  dm_size_human (dm_cache_probe_size (r, 0), a, sizeof a);
  dm_size_human (dm_cache_probe_size (r, n - 1), c, sizeof c);
  dm_buf_printf (b, "Cache probe (%s) of ", dm_mode_name (r->results[0].mode));
  dm_text_add_shown (b, r->target.path[0] ? r->target.path : "?");
  dm_buf_add (b, " (");
  dm_text_add_shown (b, r->target.filesystem[0] ? r->target.filesystem : "-");
  dm_buf_printf (b, "), working sets %s to %s", a, c);
  if (r->system.memory_bytes)
    {
      dm_size_human (r->system.memory_bytes, mem, sizeof mem);
      dm_buf_printf (b, "; this guest has %s of memory", mem);
    }
  dm_buf_printf (b, "\nBackend %s, each test %s s after a %s s warm-up, each set written "
                    "whole first\n", r->backend[0] ? r->backend : "-",
                 num1 (n1, r->settings.measure_s), num1 (n2, r->settings.warmup_s));
  dm_report_add_tags_line (b, r, "Tags: ");

  dm_cache_probe_ladder l[DM_CACHE_PROBE_TESTS];
  for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
    {
      dm_cache_probe_ladder_of (r, t, &l[t]);
      dm_spec_name (&dm_cache_probe_tests[t], name[t], sizeof name[t]);
    }
  dm_buf_printf (b, "\n%12s %16s %16s\n", "Working set", name[0], name[1]);
  for (unsigned k = 0; k < n; k++)
    {
      dm_size_human (dm_cache_probe_size (r, k), a, sizeof a);
      dm_buf_printf (b, "%12s", a);
      for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
        {
          const dm_result *res = &r->results[k * DM_CACHE_PROBE_TESTS + t];
          if (res->status == DM_STATUS_COMPLETE)
            dm_buf_printf (b, " %11s MB/s", num1 (n1, res->mb_per_s));
          else
            dm_buf_printf (b, " %16s", dm_status_name (res->status));
        }
      dm_buf_add (b, "\n");
    }

  dm_buf_add (b, "\nSteps (where the rate of the bytes a doubling adds falls by more than 25 %; "
                 "the test file is O_DIRECT, so the guest's own page cache serves none of it "
                 "and any step is a cache below this VM):\n");
  for (unsigned t = 0; t < DM_CACHE_PROBE_TESTS; t++)
    {
      if (!l[t].n)
        {
          dm_buf_printf (b, "  %s: not measured\n", name[t]);
          continue;
        }
      for (unsigned s = 0; s < l[t].n_steps; s++)
        {
          char line[256];
          dm_cache_probe_step_text (&l[t].steps[s], line, sizeof line);
          dm_buf_printf (b, "  %s: %s\n", name[t], line);
        }
      if (l[t].n == 1)
        dm_buf_printf (b, "  %s: one working set measured, no ladder to find a step on\n",
                       name[t]);
      else if (!l[t].n_steps)
        {
          dm_size_human (l[t].bytes[0], a, sizeof a);
          dm_size_human (l[t].bytes[l[t].n - 1], c, sizeof c);
          dm_buf_printf (b, "  %s: no step from %s to %s (%s to %s MB/s): no cache below this "
                            "VM held a part of these sets and let go of the rest\n",
                         name[t], a, c, num1 (n1, l[t].mb_per_s[0]),
                         num1 (n2, l[t].mb_per_s[l[t].n - 1]));
        }
    }
  if (info->max_asked && dm_cache_probe_size (r, n - 1) < info->max_asked)
    {
      dm_size_human (info->max_asked, a, sizeof a);
      dm_buf_printf (b, "Asked for up to %s; the free space allowed %s\n", a, c);
    }
  if (!strcmp (info->stopped, "time-limit"))
    dm_buf_printf (b, "Stopped at the time limit of %s s, with the sizes measured by then\n",
                   num1 (n1, info->time_limit_s));
  else if (!strcmp (info->stopped, "cancelled"))
    dm_buf_add (b, "Cancelled, with the sizes measured by then\n");
  else if (info->stopped[0])
    {
      dm_buf_printf (b, "Stopped (%s)", info->stopped);
      if (r->error[0])
        {
          dm_buf_add (b, ": ");
          dm_text_add_shown (b, r->error);
        }
      dm_buf_add (b, "\n");
    }
}
