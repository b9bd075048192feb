/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Headroom (dm-headroom.h): the user's load at its own rate, the disk's
 * maximum at the same shape, and the rate curve's points between, read back
 * as one sentence a person can put in a report. The points are the sweep's
 * (dm_sweep_curve_rates), so a headroom and a rate curve of the same load
 * offer the same rates.
 */
#include "dm-headroom.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-gettext.h"
#include "dm-json.h"
#include "dm-tags.h"
#include "dm-units.h"

/* Marks a sentence for the catalogue; words() translates it if asked, as
 * dm-compare.c does, so JSON and CSV stay in English. */
#define R_(s) s

static const char *
words (const char *english, bool translate)
{
  return translate ? dm_gettext (english) : english;
}

int
dm_headroom_report_init (dm_report *r, const dm_workload *rows, unsigned n, const dm_settings *s,
                         char *why, size_t why_size)
{
  dm_workload *all;
  char inner[200];
  int err = 0;

  memset (r, 0, sizeof *r);
  if (!n)
    return dm_why (why, why_size, "--headroom: the profile file has no workload row");
  if (n > DM_HEADROOM_WORKLOADS)
    return dm_why (why, why_size, "--headroom: at most %d workload rows, the file has %u",
                   DM_HEADROOM_WORKLOADS, n);
  /* Rows are large (their size split and affinity lists): not on the stack. */
  if (!(all = calloc ((size_t) n * DM_HEADROOM_ROWS, sizeof *all)))
    return dm_why (why, why_size, "out of memory");
  for (unsigned k = 0; k < n; k++)
    {
      const dm_workload *w = &rows[k];
      if (w->rate_unit == DM_RATE_NONE)
        err = dm_why (why, why_size, "--headroom: workload '%s' has no rate (rate=): "
                       "headroom is measured from the rate the load runs at", w->name);
      else if (w->rate_unit != DM_RATE_IOPS)
        err = dm_why (why, why_size, "--headroom: workload '%s' has its rate in MB/s; "
                       "headroom is counted in I/Os a second (rate=N)", w->name);
      else if (dm_workload_check (w, inner, sizeof inner) < 0)
        err = dm_why (why, why_size, "--headroom: %s", inner);
      else if ((uint64_t) dm_workload_max_block (w) * w->threads > s->test_size)
        err = dm_why (why, why_size, "--headroom: workload '%s': its largest block x threads "
                       "is more than the test size", w->name);
      if (err < 0)
        goto out;
      for (unsigned i = 0; i < DM_HEADROOM_ROWS; i++)
        {
          dm_workload *row = &all[k * DM_HEADROOM_ROWS + i];
          *row = *w;
          /* The maximum runs unbounded; the points get their rates from
           * it once it is measured (dm_headroom_run). */
          if (i > 0)
            {
              row->rate_unit = DM_RATE_NONE;
              row->rate = 0;
            }
        }
    }
  err = dm_report_init_workloads (r, s, all, n * DM_HEADROOM_ROWS);
  if (err < 0)
    err = dm_why (why, why_size, "%s", err == -ENOMEM ? "out of memory" : "nothing to run");
  else
    snprintf (r->profile, sizeof r->profile, "headroom");
out:
  free (all);
  return err;
}

/* Gives workload k's points their rates from its maximum. */
static int
set_rates (dm_report *r, unsigned k)
{
  double rates[DM_SWEEP_CURVE_POINTS];
  const dm_result *max = &r->results[k * DM_HEADROOM_ROWS + 1];
  if (max->status != DM_STATUS_COMPLETE || !(max->iops > 0))
    return -ENOENT;
  dm_sweep_curve_rates (max->iops, rates);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      dm_workload *w = &r->results[k * DM_HEADROOM_ROWS + 2 + i].workload;
      w->rate_unit = DM_RATE_IOPS;
      w->rate = rates[i];
    }
  /* The hash is over the rows as they ran, rates included. */
  dm_report_profile_hash (r, r->profile_hash);
  return 0;
}

int
dm_headroom_run (dm_runner *runner, dm_report *r)
{
  int err = dm_runner_prepare (runner);
  unsigned n = dm_headroom_count (r);
  for (unsigned k = 0; !err && k < n; k++)
    {
      unsigned first = k * DM_HEADROOM_ROWS;
      err = dm_runner_run_result (runner, first, k > 0);
      if (!err)
        err = dm_runner_run_result (runner, first + 1, true);
      if (!err && set_rates (r, k) < 0)
        {
          const dm_result *max = &r->results[first + 1];
          snprintf (r->error, sizeof r->error, "%s: the maximum rate was not measured: %s",
                    max->workload.name, max->error[0] ? max->error : "no I/O completed");
          err = -EIO;
        }
      for (unsigned i = 2; !err && i < DM_HEADROOM_ROWS; i++)
        err = dm_runner_run_result (runner, first + i, true);
    }
  return dm_runner_finish (runner, err);
}

unsigned
dm_headroom_count (const dm_report *r)
{
  return r->n_results / DM_HEADROOM_ROWS;
}

bool
dm_headroom_from_json (const dm_report *r, const char *text, size_t len, double *bound_us)
{
  dm_json_doc doc = { 0 };
  char why[128];
  *bound_us = 0;
  if (!r->n_results || r->n_results % DM_HEADROOM_ROWS
      || dm_json_parse (text, len, &doc, why, sizeof why) < 0)
    return false;
  const dm_json *h = dm_json_get (doc.root, "headroom");
  bool is = h && h->type == DM_JSON_OBJECT;
  if (is)
    {
      /* null when the bound was twice each workload's captured p99. */
      double given = dm_json_get_number (h, "p99_bound_given_us", 0);
      *bound_us = isfinite (given) && given > 0 ? given : 0;
    }
  dm_json_free (&doc);
  return is;
}

unsigned
dm_headroom_percent (unsigned i)
{
  unsigned j = i % DM_HEADROOM_ROWS;
  return j >= 2 ? dm_sweep_curve_percent[j - 2] : 0;
}

static bool
measured (const dm_result *res)
{
  return res->status == DM_STATUS_COMPLETE;
}

/* A rate counts as headroom when the disk reached it and its p99, as the
 * JSON keeps it, is at or under the bound. */
static bool
under (const dm_result *res, double bound_us)
{
  return measured (res) && res->workload.rate_unit == DM_RATE_IOPS
         && dm_result_rate_met (res, NULL) && bound_us > 0
         && dm_figure_as_saved (res->latency.p99) <= bound_us;
}

void
dm_headroom_of (const dm_report *r, unsigned k, double bound_us, dm_headroom *h)
{
  unsigned first = k * DM_HEADROOM_ROWS;
  const dm_result *cap = &r->results[first], *max = &r->results[first + 1];
  memset (h, 0, sizeof *h);
  h->first = first;
  h->best = -1;
  h->rate = cap->workload.rate;
  if (measured (cap))
    {
      h->met = dm_result_rate_met (cap, &h->reached);
      h->p99_us = dm_figure_as_saved (cap->latency.p99);
    }
  if (measured (max))
    h->max_iops = max->iops;
  if (h->max_iops > 0 && h->rate > 0)
    h->ratio = h->max_iops / h->rate;
  h->bound_given = bound_us > 0;
  h->bound_us = bound_us > 0 ? bound_us : DM_HEADROOM_BOUND_FACTOR * h->p99_us;
  for (unsigned i = 0; i < DM_HEADROOM_ROWS; i++)
    {
      const dm_result *res = &r->results[first + i];
      if (i == 1 || !under (res, h->bound_us))
        continue;
      if (h->best < 0 || res->workload.rate > r->results[h->best].workload.rate)
        h->best = (int) (first + i);
    }
}

/* ---- writers ------------------------------------------------------------ */

/* 15000 as "15,000", as the sentence reads. */
static void
add_count (dm_buf *b, double v)
{
  char digits[32];
  snprintf (digits, sizeof digits, "%.0f", v < 0 ? 0 : v);
  size_t n = strlen (digits);
  for (size_t i = 0; i < n; i++)
    {
      if (i && (n - i) % 3 == 0)
        dm_buf_add (b, ",");
      dm_buf_addn (b, digits + i, 1);
    }
}

/* A latency as a person says it: "450 us", "2.1 ms". */
static void
add_latency (dm_buf *b, double us)
{
  if (us < 1000)
    {
      dm_buf_add_double (b, "%.0f", us);
      dm_buf_add (b, " us");
    }
  else
    {
      dm_buf_add_double (b, us < 100e3 ? "%.1f" : "%.0f", us / 1000);
      dm_buf_add (b, " ms");
    }
}

static void
point_name (char *buf, size_t size, unsigned i)
{
  unsigned j = i % DM_HEADROOM_ROWS;
  if (j == 0)
    snprintf (buf, size, "captured");
  else if (j == 1)
    snprintf (buf, size, "max");
  else
    snprintf (buf, size, "%u%%", dm_headroom_percent (i));
}

/* The sentence of the issue that asked for it: "at your 1,200 IOPS, p99
 * 0.9 ms; this disk reaches 15,000 IOPS at the same shape (12x), p99 under
 * 2 ms up to 9,000". */
static void
sentence (dm_buf *b, const dm_report *r, const dm_headroom *h, bool translate)
{
  if (!h->p99_us || !h->max_iops)
    {
      dm_buf_add (b, words (R_ ("not measured to the end: no headroom to tell"), translate));
      dm_buf_add (b, "\n");
      return;
    }
  /* A rate missed by a few I/Os at the window's edges, on a disk whose
   * maximum is above it, is no shortfall of the disk's: the table shows
   * what was reached. */
  if (h->met || h->max_iops >= h->rate)
    {
      dm_buf_add (b, words (R_ ("at your "), translate));
      add_count (b, h->rate);
      dm_buf_add (b, words (R_ (" IOPS, p99 "), translate));
    }
  else
    {
      dm_buf_add (b, words (R_ ("your "), translate));
      add_count (b, h->rate);
      dm_buf_add (b, words (R_ (" IOPS is more than this disk gave at that shape: "), translate));
      add_count (b, h->reached);
      dm_buf_add (b, words (R_ (" IOPS, p99 "), translate));
    }
  add_latency (b, h->p99_us);
  dm_buf_add (b, words (R_ ("; this disk reaches "), translate));
  add_count (b, h->max_iops);
  dm_buf_add (b, words (R_ (" IOPS at the same shape ("), translate));
  dm_buf_add_double (b, h->ratio < 10 ? "%.1f" : "%.0f", h->ratio);
  dm_buf_add (b, "x), ");
  if (h->best >= 0)
    {
      dm_buf_add (b, words (R_ ("p99 under "), translate));
      add_latency (b, h->bound_us);
      dm_buf_add (b, words (R_ (" up to "), translate));
      add_count (b, r->results[h->best].workload.rate);
    }
  else
    {
      dm_buf_add (b, words (R_ ("p99 over "), translate));
      add_latency (b, h->bound_us);
      dm_buf_add (b, words (R_ (" at every rate it reached"), translate));
    }
  dm_buf_add (b, "\n");
}

static void
cell (dm_buf *b, const dm_result *res, const char *fmt, double v, int width)
{
  if (res->status == DM_STATUS_COMPLETE)
    {
      dm_buf_add (b, " ");
      dm_buf_add_double (b, fmt, v);
    }
  else
    dm_buf_printf (b, " %*s", width, res->status == DM_STATUS_FAILED ? "FAILED" : "-");
}

void
dm_headroom_write_text (const dm_report *r, double bound_us, bool translate, dm_buf *b)
{
  const dm_settings *s = &r->settings;
  char size[16];
  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "Diskmeter %s headroom, %u x ", DM_VERSION, s->count);
  dm_buf_add_double (b, "%g", s->measure_s);
  dm_buf_printf (b, " s per rate, test size %s\n", size);
  dm_sweep_write_target (r, b);
  for (unsigned k = 0; k < dm_headroom_count (r); k++)
    {
      dm_headroom h;
      char desc[DM_WORKLOAD_TEXT_MAX];
      dm_headroom_of (r, k, bound_us, &h);
      dm_workload_describe (&r->results[h.first].workload, desc, sizeof desc);
      dm_buf_printf (b, "\n%s\n  %-8s %13s %13s %4s %11s %11s %6s\n", desc, "Rate",
                     "Offered IOPS", "Reached IOPS", "Met", "p50 us", "p99 us", "Under");
      for (unsigned i = h.first; i < h.first + DM_HEADROOM_ROWS; i++)
        {
          const dm_result *res = &r->results[i];
          char name[16];
          bool rated = res->workload.rate_unit == DM_RATE_IOPS;
          point_name (name, sizeof name, i);
          dm_buf_printf (b, "  %-8s", name);
          if (rated)
            {
              dm_buf_add (b, " ");
              dm_buf_add_double (b, "%13.0f", res->workload.rate);
            }
          else
            dm_buf_printf (b, " %13s", "-");
          cell (b, res, "%13.1f", res->iops, 13);
          dm_buf_printf (b, " %4s", rated && measured (res)
                                      ? (dm_result_rate_met (res, NULL) ? "yes" : "no") : "-");
          cell (b, res, "%11.1f", res->latency.p50, 11);
          cell (b, res, "%11.1f", res->latency.p99, 11);
          dm_buf_printf (b, " %6s", !rated || !measured (res) ? "-"
                                    : under (res, h.bound_us) ? "yes" : "no");
          dm_buf_add (b, "\n");
        }
      dm_buf_add (b, "  ");
      dm_buf_add (b, words (h.bound_given ? R_ ("p99 bound (given): ")
                                          : R_ ("p99 bound (twice p99 at your rate): "),
                            translate));
      add_latency (b, h.bound_us);
      dm_buf_add (b, "\n\n");
      sentence (b, r, &h, translate);
    }
}

static void
number_or_null (dm_buf *b, double v, bool known)
{
  if (known)
    dm_buf_add_double (b, "%.3f", v);
  else
    dm_buf_add (b, "null");
}

static void
point_json (dm_buf *b, const dm_result *res, unsigned i, double bound_us)
{
  bool rated = res->workload.rate_unit == DM_RATE_IOPS, m = measured (res);
  char name[16];
  point_name (name, sizeof name, i);
  dm_buf_add (b, "{\"point\": ");
  dm_buf_add_json_string (b, name);
  dm_buf_add (b, ", \"percent\": ");
  if (dm_headroom_percent (i))
    dm_buf_printf (b, "%u", dm_headroom_percent (i));
  else
    dm_buf_add (b, "null");
  dm_buf_add (b, ", \"offered_iops\": ");
  number_or_null (b, res->workload.rate, rated);
  dm_buf_add (b, ", \"reached_iops\": ");
  number_or_null (b, res->iops, m);
  dm_buf_printf (b, ", \"rate_met\": %s, \"p50_latency_us\": ",
                 !rated || !m ? "null" : dm_result_rate_met (res, NULL) ? "true" : "false");
  number_or_null (b, res->latency.p50, m);
  dm_buf_add (b, ", \"p99_latency_us\": ");
  number_or_null (b, res->latency.p99, m);
  dm_buf_printf (b, ", \"under_bound\": %s, \"status\": \"%s\"}",
                 !rated || !m ? "null" : under (res, bound_us) ? "true" : "false",
                 dm_status_name (res->status));
}

void
dm_headroom_write_json (const dm_report *r, double bound_us, dm_buf *b)
{
  if (!dm_report_write_json_open (r, b))
    return;
  dm_buf_add (b, ",\n  \"headroom\": {\n    \"p99_bound_given_us\": ");
  number_or_null (b, bound_us, bound_us > 0);
  dm_buf_add (b, ",\n    \"workloads\": [");
  for (unsigned k = 0; k < dm_headroom_count (r); k++)
    {
      dm_headroom h;
      dm_headroom_of (r, k, bound_us, &h);
      const dm_result *cap = &r->results[h.first];
      dm_buf_add (b, k ? ",\n      {\"name\": " : "\n      {\"name\": ");
      dm_buf_add_json_string (b, cap->workload.name);
      dm_buf_add (b, ",\n       \"captured_rate_iops\": ");
      dm_buf_add_double (b, "%.3f", h.rate);
      dm_buf_add (b, ", \"captured_reached_iops\": ");
      number_or_null (b, h.reached, measured (cap));
      dm_buf_printf (b, ", \"captured_rate_met\": %s,\n       \"captured_p99_us\": ",
                     !measured (cap) ? "null" : h.met ? "true" : "false");
      number_or_null (b, h.p99_us, measured (cap));
      dm_buf_add (b, ", \"max_iops\": ");
      number_or_null (b, h.max_iops, h.max_iops > 0);
      dm_buf_add (b, ", \"ratio\": ");
      number_or_null (b, h.ratio, h.ratio > 0);
      dm_buf_add (b, ",\n       \"p99_bound_us\": ");
      number_or_null (b, h.bound_us, h.bound_us > 0);
      dm_buf_printf (b, ", \"p99_bound_from\": \"%s\", \"best_rate_iops\": ",
                     h.bound_given ? "given" : "twice captured p99");
      number_or_null (b, h.best >= 0 ? r->results[h.best].workload.rate : 0, h.best >= 0);
      dm_buf_add (b, ", \"best_p99_us\": ");
      number_or_null (b, h.best >= 0 ? r->results[h.best].latency.p99 : 0, h.best >= 0);
      dm_buf_add (b, ",\n       \"ladder\": [");
      for (unsigned i = 0; i < DM_HEADROOM_ROWS; i++)
        {
          dm_buf_add (b, i ? ",\n         " : "\n         ");
          point_json (b, &r->results[h.first + i], h.first + i, h.bound_us);
        }
      dm_buf_add (b, "]}");
    }
  dm_buf_add (b, "]\n  }\n}\n");
}

void
dm_headroom_write_csv (const dm_report *r, double bound_us, dm_buf *b)
{
  dm_buf_add (b, "workload,point,offered_iops,reached_iops,rate_met,p50_latency_us,"
                 "p99_latency_us,p99_bound_us,under_bound,status");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\n");
  for (unsigned k = 0; k < dm_headroom_count (r); k++)
    {
      dm_headroom h;
      dm_headroom_of (r, k, bound_us, &h);
      for (unsigned i = h.first; i < h.first + DM_HEADROOM_ROWS; i++)
        {
          const dm_result *res = &r->results[i];
          bool rated = res->workload.rate_unit == DM_RATE_IOPS, m = measured (res);
          char name[16];
          point_name (name, sizeof name, i);
          dm_buf_add_csv_field (b, res->workload.name);
          dm_buf_printf (b, ",%s,", name);
          if (rated)
            dm_buf_add_double (b, "%.3f", res->workload.rate);
          dm_buf_add (b, ",");
          if (m)
            dm_buf_add_double (b, "%.3f", res->iops);
          dm_buf_printf (b, ",%s,", rated && m ? (dm_result_rate_met (res, NULL) ? "yes" : "no")
                                               : "");
          if (m)
            dm_buf_add_double (b, "%.3f", res->latency.p50);
          dm_buf_add (b, ",");
          if (m)
            dm_buf_add_double (b, "%.3f", res->latency.p99);
          dm_buf_add (b, ",");
          if (h.bound_us > 0)
            dm_buf_add_double (b, "%.3f", h.bound_us);
          dm_buf_printf (b, ",%s,%s", rated && m ? (under (res, h.bound_us) ? "yes" : "no") : "",
                         dm_status_name (res->status));
          dm_report_csv_tags_fields (r, b);
          dm_buf_add (b, "\n");
        }
    }
}
