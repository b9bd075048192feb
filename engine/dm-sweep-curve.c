/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The block-size sweep (ATTO Disk Benchmark's chart: MB/s of each size at
 * one load) and the rate curve (vdbench's iorate=curve: the load's maximum,
 * then fixed offered rates at shares of it, to see where latency turns).
 * Both are ordinary reports the runner fills, as the QD x T sweep is; this
 * file plans them and reads them back.
 */
#include "dm-sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-text.h"
#include "dm-units.h"

/* vdbench's curve, less its 60 %: the points where a disk's latency turns
 * are the high ones, and each point costs a whole measured run. */
const unsigned dm_sweep_curve_percent[DM_SWEEP_CURVE_POINTS] = { 10, 50, 70, 80, 90, 100 };

/* As the JSON keeps a figure (3 decimals), so a choice made on figures is
 * the same when the file is read back (see dm-sweep.c). */
static double
as_saved (double v)
{
  return round (v * 1000) / 1000;
}

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

static int
block_word (const char *word, uint32_t *out, char *why, size_t why_size)
{
  uint64_t v;
  char inner[160];
  if (dm_size_parse (word, &v, inner, sizeof inner) < 0)
    return dm_why (why, why_size, "--blocks: %s", inner);
  if (v < DM_BLOCK_MIN || v > DM_BLOCK_MAX || (v & (v - 1)))
    return dm_why (why, why_size, "--blocks: '%s' is not a power of two from 4KiB to 8MiB", word);
  *out = (uint32_t) v;
  return 0;
}

int
dm_sweep_blocks_parse (const char *text, uint32_t *out, unsigned *n, char *why, size_t why_size)
{
  uint32_t v[DM_SWEEP_MAX_LIST * 2];
  bool ellipsis_after[DM_SWEEP_MAX_LIST * 2] = { false };
  unsigned count = 0;
  bool pending = false;
  const char *p = text;

  if (!text || !*text)
    return dm_why (why, why_size, "--blocks: an empty list (try 4K,8K,...,8M)");
  while (p)
    {
      const char *end = strchr (p, ',');
      size_t len = end ? (size_t) (end - p) : strlen (p);
      char word[32];
      if (len == 0 || len >= sizeof word)
        return dm_why (why, why_size, "--blocks: '%s' is not a list of sizes like 4K,8K,...,8M",
                       text);
      memcpy (word, p, len);
      word[len] = '\0';
      if (!strcmp (word, "..."))
        {
          if (!count || pending)
            return dm_why (why, why_size, "--blocks: '...' goes between two sizes");
          pending = true;
        }
      else
        {
          if (count == sizeof v / sizeof v[0])
            return dm_why (why, why_size, "--blocks: at most %d sizes", DM_SWEEP_MAX_LIST);
          if (block_word (word, &v[count], why, why_size) < 0)
            return -EINVAL;
          if (pending)
            ellipsis_after[count - 1] = true;
          pending = false;
          count++;
        }
      p = end ? end + 1 : NULL;
    }
  if (pending)
    return dm_why (why, why_size, "--blocks: '...' goes between two sizes");

  unsigned m = 0;
  for (unsigned i = 0; i < count; i++)
    {
      uint32_t list[24];
      unsigned k = 0;
      list[k++] = v[i];
      /* "a,...,b": every doubling from a up to b (or down, written the
       * other way round). */
      if (ellipsis_after[i])
        {
          uint32_t lo = v[i] < v[i + 1] ? v[i] : v[i + 1], hi = v[i] ^ v[i + 1] ^ lo;
          for (uint32_t s = lo; s < hi; s *= 2)
            list[k++] = s;
        }
      for (unsigned j = 0; j < k; j++)
        {
          bool seen = false;
          for (unsigned q = 0; q < m; q++)
            seen |= out[q] == list[j];
          if (seen)
            continue;
          if (m == DM_SWEEP_MAX_LIST)
            return dm_why (why, why_size, "--blocks: at most %d sizes", DM_SWEEP_MAX_LIST);
          out[m++] = list[j];
        }
    }
  qsort (out, m, sizeof *out, cmp_u32);
  *n = m;
  return 0;
}

int
dm_sweep_blocks_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                             char *why, size_t why_size)
{
  dm_spec specs[DM_SWEEP_MAX_LIST];
  unsigned qd = p->n_queue_depths ? p->queue_depths[0] : 4;
  unsigned t = p->n_threads ? p->threads[0] : 1;
  unsigned modes = p->modes ? p->modes : DM_MODE_BIT (p->mode);
  char bs[16], size[16];

  memset (r, 0, sizeof *r);
  if (!p->n_blocks || p->n_blocks > DM_SWEEP_MAX_LIST)
    return dm_why (why, why_size, "a block sweep needs 1 to %d sizes", DM_SWEEP_MAX_LIST);
  if (qd < 1 || qd > DM_QUEUE_MAX || t < 1 || t > DM_THREADS_MAX)
    return dm_why (why, why_size, "queue depths must be 1..%d and threads 1..%d",
                   DM_QUEUE_MAX, DM_THREADS_MAX);
  for (unsigned i = 0; i < p->n_blocks; i++)
    {
      uint32_t b = p->blocks[i];
      dm_block_short (b, bs, sizeof bs);
      dm_size_format (s->test_size, size, sizeof size);
      if (b < DM_BLOCK_MIN || b > DM_BLOCK_MAX || (b & (b - 1)))
        return dm_why (why, why_size, "--blocks: %s is not a power of two from 4KiB to 8MiB", bs);
      /* Each thread keeps its own share of the file: a block larger than
       * the share would read the same bytes again and again. */
      if ((uint64_t) b * t > s->test_size)
        return dm_why (why, why_size, "--blocks: %s x %u threads is more than the test size %s",
                       bs, t, size);
      if ((uint64_t) qd * t * b > DM_SWEEP_MAX_BUFFERS)
        return dm_why (why, why_size, "--blocks: %s at Q%uT%u needs more than 1 GiB of buffers",
                       bs, qd, t);
      specs[i] = (dm_spec) { p->pattern, b, (uint16_t) qd, (uint16_t) t };
    }
  int err = dm_report_init (r, s, specs, p->n_blocks, modes);
  if (err < 0)
    return dm_why (why, why_size, "%s", err == -ENOMEM ? "out of memory" : "nothing to run");
  snprintf (r->profile, sizeof r->profile, "sweep");
  return 0;
}

int
dm_sweep_curve_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                            char *why, size_t why_size)
{
  dm_workload rows[1 + DM_SWEEP_CURVE_POINTS];
  char inner[200];

  memset (r, 0, sizeof *r);
  if (p->workload.rate_unit != DM_RATE_NONE)
    return dm_why (why, why_size, "--rates curve sets the rates itself: the workload has one "
                   "(rate=) already");
  if (dm_workload_check (&p->workload, inner, sizeof inner) < 0)
    return dm_why (why, why_size, "%s", inner);
  if ((uint64_t) dm_workload_max_block (&p->workload) * p->workload.threads > s->test_size)
    return dm_why (why, why_size, "the workload's largest block x threads is more than the "
                   "test size");
  for (unsigned i = 0; i <= DM_SWEEP_CURVE_POINTS; i++)
    rows[i] = p->workload;
  int err = dm_report_init_workloads (r, s, rows, 1 + DM_SWEEP_CURVE_POINTS);
  if (err < 0)
    return dm_why (why, why_size, "%s", err == -ENOMEM ? "out of memory" : "nothing to run");
  snprintf (r->profile, sizeof r->profile, "sweep");
  return 0;
}

void
dm_sweep_curve_rates (double max_iops, double rates[DM_SWEEP_CURVE_POINTS])
{
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      /* Whole I/Os a second: every form a rate is written in (the
       * workload's canonical one, the report's JSON) keeps them exactly,
       * so the saved curve is the one that ran. */
      double v = round (max_iops * dm_sweep_curve_percent[i] / 100.0);
      rates[i] = v < 1 ? 1 : v;
    }
}

int
dm_sweep_curve_set_rates (dm_report *r)
{
  double rates[DM_SWEEP_CURVE_POINTS];
  if (r->n_results != 1 + DM_SWEEP_CURVE_POINTS || r->results[0].status != DM_STATUS_COMPLETE
      || !(r->results[0].iops > 0))
    return -ENOENT;
  dm_sweep_curve_rates (r->results[0].iops, rates);
  for (unsigned i = 0; i < DM_SWEEP_CURVE_POINTS; i++)
    {
      dm_workload *w = &r->results[1 + i].workload;
      w->rate_unit = DM_RATE_IOPS;
      w->rate = rates[i];
    }
  /* The hash is over the rows as they ran, rates included, as a loaded
   * report checks it. */
  dm_report_profile_hash (r, r->profile_hash);
  return 0;
}

static bool
is_curve_point (const dm_result *res)
{
  return res->shaped && res->workload.rate_unit == DM_RATE_IOPS && res->workload.rate > 0;
}

int
dm_sweep_curve_workload_of (const dm_spec *t, dm_mode mode, unsigned read_percent,
                            dm_workload *w, char *why, size_t why_size)
{
  char text[128], name[32];
  unsigned read = mode == DM_MODE_READ ? 100 : mode == DM_MODE_WRITE ? 0 : read_percent;
  dm_spec_name (t, name, sizeof name);
  snprintf (text, sizeof text, "name=%s;block=%u;read=%u;random=%u;qd=%u;threads=%u", name,
            t->block_size, read, t->pattern == DM_RND ? 100 : 0, t->queue_depth, t->threads);
  return dm_workload_parse (text, w, why, why_size) < 0 ? -EINVAL : 0;
}

/* The curve's maximum first; its IOPS set the other points' offered rates
 * before they run, which the runner reads from each row as it starts it. */
int
dm_sweep_run (dm_runner *runner, dm_report *r)
{
  if (dm_sweep_kind_of (r) != DM_SWEEP_RATES)
    return dm_runner_run (runner);
  int err = dm_runner_prepare (runner);
  if (!err)
    err = dm_runner_run_result (runner, 0, false);
  if (!err && dm_sweep_curve_set_rates (r) < 0)
    {
      snprintf (r->error, sizeof r->error, "the maximum rate was not measured: %s",
                r->results[0].error[0] ? r->results[0].error : "no I/O completed");
      err = -EIO;
    }
  for (unsigned i = 1; !err && i < r->n_results; i++)
    err = dm_runner_run_result (runner, i, true);
  return dm_runner_finish (runner, err);
}

int
dm_sweep_curve_best (const dm_report *r, double bound_us, int *index)
{
  int best = -1;
  if (!(bound_us > 0))
    return -ENOENT;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (!is_curve_point (res) || res->status != DM_STATUS_COMPLETE
          || as_saved (res->latency.p99) > bound_us)
        continue;
      if (best < 0 || res->workload.rate > r->results[best].workload.rate)
        best = (int) i;
    }
  if (best < 0)
    return -ENOENT;
  *index = best;
  return 0;
}

dm_sweep_kind
dm_sweep_kind_of (const dm_report *r)
{
  if (r->n_results && r->results[0].shaped)
    return DM_SWEEP_RATES;
  for (unsigned i = 1; i < r->n_results; i++)
    if (r->results[i].spec.block_size != r->results[0].spec.block_size)
      return DM_SWEEP_BLOCKS;
  return DM_SWEEP_QD;
}

int
dm_sweep_bound_parse (const char *text, double *us, char *why, size_t why_size)
{
  char *end;
  double v;
  if (!text || !*text)
    return dm_why (why, why_size, "--latency-bound: no duration given (try 2ms)");
  v = strtod (text, &end);
  double scale = 0;
  if (!*end)
    scale = 1; /* microseconds, as the option always took */
  else if (!strcmp (end, "us"))
    scale = 1;
  else if (!strcmp (end, "ms"))
    scale = 1e3;
  else if (!strcmp (end, "s"))
    scale = 1e6;
  if (end == text || !scale || !(v > 0) || !isfinite (v) || v * scale > 60e6)
    return dm_why (why, why_size, "--latency-bound: '%s' is not a duration from 1us to 60s "
                   "(try 2ms, 500us)", text);
  if (v * scale < 1)
    return dm_why (why, why_size, "--latency-bound: '%s' is under 1us", text);
  *us = v * scale;
  return 0;
}

/* ---- writers ------------------------------------------------------------ */

static void
header (dm_buf *b, const dm_report *r, const char *what, const char *per)
{
  const dm_settings *s = &r->settings;
  char size[16];
  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "Diskmeter %s %s, %u x ", DM_VERSION, what, s->count);
  dm_buf_add_double (b, "%g", s->measure_s);
  dm_buf_printf (b, " s per %s, test size %s\n", per, size);
  dm_sweep_write_target (r, b);
}

static bool
has_figures (const dm_result *res)
{
  return res->status == DM_STATUS_COMPLETE;
}

/* ",v1,v2...": a CSV row's figures, empty cells for a result without. */
static void
csv_figures (dm_buf *b, const dm_result *res, const double *v, unsigned n)
{
  for (unsigned k = 0; k < n; k++)
    {
      dm_buf_add (b, ",");
      if (has_figures (res))
        dm_buf_add_double (b, "%.3f", v[k]);
    }
}

static void
cell (dm_buf *b, const dm_result *res, const char *fmt, double v, int width)
{
  if (!res || res->status == DM_STATUS_PENDING || res->status == DM_STATUS_CANCELLED)
    dm_buf_printf (b, " %*s", width, "-");
  else if (res->status == DM_STATUS_FAILED)
    dm_buf_printf (b, " %*s", width, "FAILED");
  else
    {
      dm_buf_add (b, " ");
      dm_buf_add_double (b, fmt, v);
    }
}

/* The result of the block sweep for size and mode, or NULL. */
static const dm_result *
block_result (const dm_report *r, uint32_t block, dm_mode mode)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].spec.block_size == block && r->results[i].mode == mode)
      return &r->results[i];
  return NULL;
}

unsigned
dm_sweep_blocks_of (const dm_report *r, uint32_t *blocks, unsigned *modes)
{
  unsigned n = 0;
  *modes = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      bool seen = false;
      *modes |= DM_MODE_BIT (r->results[i].mode);
      for (unsigned k = 0; k < n; k++)
        seen |= blocks[k] == r->results[i].spec.block_size;
      if (!seen && n < DM_SWEEP_MAX_LIST)
        blocks[n++] = r->results[i].spec.block_size;
    }
  qsort (blocks, n, sizeof *blocks, cmp_u32);
  return n;
}

void
dm_sweep_blocks_write_text (const dm_report *r, dm_buf *b)
{
  uint32_t blocks[DM_SWEEP_MAX_LIST];
  unsigned modes, n = dm_sweep_blocks_of (r, blocks, &modes);
  char what[96];
  if (!r->n_results)
    return;
  const dm_spec *sp = &r->results[0].spec;
  snprintf (what, sizeof what, "block-size sweep: %s Q%uT%u", sp->pattern == DM_SEQ ? "SEQ" : "RND",
            sp->queue_depth, sp->threads);
  header (b, r, what, "size");
  dm_buf_printf (b, "\n  %8s", "Block");
  for (int m = 0; m < DM_N_MODES; m++)
    if (modes & DM_MODE_BIT (m))
      {
        char mbps[32], p99[32];
        snprintf (mbps, sizeof mbps, "%s MB/s", dm_mode_title ((dm_mode) m));
        snprintf (p99, sizeof p99, "%s p99 us", dm_mode_title ((dm_mode) m));
        dm_buf_printf (b, " %15s %15s", mbps, p99);
      }
  dm_buf_add (b, "\n");
  for (unsigned i = 0; i < n; i++)
    {
      char bs[16];
      dm_block_short (blocks[i], bs, sizeof bs);
      dm_buf_printf (b, "  %8s", bs);
      for (int m = 0; m < DM_N_MODES; m++)
        if (modes & DM_MODE_BIT (m))
          {
            const dm_result *res = block_result (r, blocks[i], (dm_mode) m);
            cell (b, res, "%15.1f", res ? res->mb_per_s : 0, 15);
            cell (b, res, "%15.1f", res ? res->latency.p99 : 0, 15);
          }
      dm_buf_add (b, "\n");
    }
}

void
dm_sweep_blocks_write_csv (const dm_report *r, dm_buf *b)
{
  dm_buf_add (b, "block_size,mode,qd,threads,mb_per_s,iops,mean_latency_us,p99_latency_us,status");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      const double v[] = { res->mb_per_s, res->iops, res->latency.mean, res->latency.p99 };
      dm_buf_printf (b, "%u,%s,%u,%u", res->spec.block_size, dm_mode_name (res->mode),
                     res->spec.queue_depth, res->spec.threads);
      csv_figures (b, res, v, sizeof v / sizeof v[0]);
      dm_buf_printf (b, ",%s", dm_status_name (res->status));
      dm_report_csv_tags_fields (r, b);
      dm_buf_add (b, "\n");
    }
}

void
dm_sweep_blocks_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *b)
{
  uint32_t blocks[DM_SWEEP_MAX_LIST];
  unsigned modes, n = dm_sweep_blocks_of (r, blocks, &modes);
  if (p && p->n_blocks)
    {
      memcpy (blocks, p->blocks, sizeof blocks);
      n = p->n_blocks;
    }
  dm_buf_add (b, ",\n  \"sweep\": {\n    \"kind\": \"blocks\",\n    \"pattern\": ");
  dm_buf_add_json_string (b, r->n_results && r->results[0].spec.pattern == DM_SEQ ? "SEQ" : "RND");
  dm_buf_add (b, ",\n    \"blocks\": [");
  for (unsigned i = 0; i < n; i++)
    dm_buf_printf (b, "%s%u", i ? ", " : "", blocks[i]);
  dm_buf_printf (b, "],\n    \"queue_depth\": %u,\n    \"threads\": %u\n  }\n}\n",
                 r->n_results ? r->results[0].spec.queue_depth : 0,
                 r->n_results ? r->results[0].spec.threads : 0);
}

/* ---- the rate curve ----------------------------------------------------- */

static void
curve_point_json (dm_buf *b, const dm_result *res, unsigned percent)
{
  double reached = 0;
  bool met = dm_result_rate_met (res, &reached);
  dm_buf_printf (b, "{\"percent\": %u, \"offered_iops\": ", percent);
  dm_buf_add_double (b, "%.3f", res->workload.rate);
  dm_buf_add (b, ", \"reached_iops\": ");
  dm_buf_add_double (b, "%.3f", res->iops);
  dm_buf_printf (b, ", \"rate_met\": %s, \"p50_latency_us\": ", met ? "true" : "false");
  dm_buf_add_double (b, "%.3f", res->latency.p50);
  dm_buf_add (b, ", \"p99_latency_us\": ");
  dm_buf_add_double (b, "%.3f", res->latency.p99);
  dm_buf_add (b, ", \"p99_9_latency_us\": ");
  dm_buf_add_double (b, "%.3f", res->latency.p99_9);
  dm_buf_add (b, "}");
}

static unsigned
percent_of (const dm_report *r, unsigned i)
{
  (void) r;
  return i >= 1 && i <= DM_SWEEP_CURVE_POINTS ? dm_sweep_curve_percent[i - 1] : 0;
}

void
dm_sweep_curve_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *b)
{
  double bound = p ? p->latency_bound_us : 0;
  int best = -1;
  dm_buf_add (b, ",\n  \"sweep\": {\n    \"kind\": \"rates\",\n    \"latency_bound_us\": ");
  if (bound > 0)
    dm_buf_add_double (b, "%.3f", bound);
  else
    dm_buf_add (b, "null");
  dm_buf_add (b, ",\n    \"max_iops\": ");
  if (r->n_results && has_figures (&r->results[0]))
    dm_buf_add_double (b, "%.3f", r->results[0].iops);
  else
    dm_buf_add (b, "null");
  dm_buf_add (b, ",\n    \"points\": [");
  unsigned k = 0;
  for (unsigned i = 1; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (!is_curve_point (res) || !has_figures (res))
        continue;
      dm_buf_add (b, k++ ? ",\n      " : "\n      ");
      curve_point_json (b, res, percent_of (r, i));
    }
  dm_buf_add (b, "],\n    \"best_under_bound\": ");
  if (dm_sweep_curve_best (r, bound, &best) == 0)
    curve_point_json (b, &r->results[best], percent_of (r, (unsigned) best));
  else
    dm_buf_add (b, "null");
  dm_buf_add (b, "\n  }\n}\n");
}

void
dm_sweep_curve_write_csv (const dm_report *r, dm_buf *b)
{
  dm_buf_add (b, "percent,offered_iops,reached_iops,rate_met,p50_latency_us,p99_latency_us,"
                 "p99_9_latency_us,status");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      bool rated = is_curve_point (res);
      double reached;
      bool met = dm_result_rate_met (res, &reached);
      if (i == 0)
        dm_buf_add (b, "max,");
      else
        dm_buf_printf (b, "%u,", percent_of (r, i));
      if (rated)
        dm_buf_add_double (b, "%.3f", res->workload.rate);
      const double v[] = { res->iops, res->latency.p50, res->latency.p99, res->latency.p99_9 };
      csv_figures (b, res, v, 1);
      dm_buf_printf (b, ",%s", rated && has_figures (res) ? (met ? "yes" : "no") : "");
      csv_figures (b, res, v + 1, 3);
      dm_buf_printf (b, ",%s", dm_status_name (res->status));
      dm_report_csv_tags_fields (r, b);
      dm_buf_add (b, "\n");
    }
}

void
dm_sweep_curve_write_text (const dm_report *r, const dm_sweep_plan *p, dm_buf *b)
{
  double bound = p ? p->latency_bound_us : 0;
  char desc[DM_WORKLOAD_TEXT_MAX], what[DM_WORKLOAD_TEXT_MAX + 32];
  int best = -1;
  if (!r->n_results)
    return;
  dm_workload_describe (&r->results[0].workload, desc, sizeof desc);
  snprintf (what, sizeof what, "rate curve: %s", desc);
  header (b, r, what, "point");
  dm_buf_printf (b, "\n  %5s %13s %13s %4s %11s %11s %11s\n", "Point", "Offered IOPS",
                 "Reached IOPS", "Met", "p50 us", "p99 us", "p99.9 us");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      bool rated = is_curve_point (res);
      double reached;
      bool met = dm_result_rate_met (res, &reached);
      if (i == 0)
        dm_buf_printf (b, "  %5s %13s", "max", "-");
      else
        {
          dm_buf_printf (b, "  %4u%%", percent_of (r, i));
          if (rated)
            {
              dm_buf_add (b, " ");
              dm_buf_add_double (b, "%13.1f", res->workload.rate);
            }
          else
            dm_buf_printf (b, " %13s", "-");
        }
      cell (b, res, "%13.1f", res->iops, 13);
      dm_buf_printf (b, " %4s", rated && has_figures (res) ? (met ? "yes" : "no") : "-");
      cell (b, res, "%11.1f", res->latency.p50, 11);
      cell (b, res, "%11.1f", res->latency.p99, 11);
      cell (b, res, "%11.1f", res->latency.p99_9, 11);
      dm_buf_add (b, "\n");
    }
  if (bound > 0)
    {
      dm_buf_add (b, "\nHighest rate with p99 <= ");
      dm_buf_add_double (b, "%.0f", bound);
      dm_buf_add (b, " us: ");
      if (dm_sweep_curve_best (r, bound, &best) == 0)
        {
          const dm_result *res = &r->results[best];
          dm_buf_printf (b, "%u%% of the maximum, ", percent_of (r, (unsigned) best));
          dm_buf_add_double (b, "%.0f", res->workload.rate);
          dm_buf_add (b, " IOPS offered, ");
          dm_buf_add_double (b, "%.0f", res->iops);
          dm_buf_add (b, " reached, p99 ");
          dm_buf_add_double (b, "%.1f", res->latency.p99);
          dm_buf_add (b, " us\n");
        }
      else
        dm_buf_add (b, "none\n");
    }
}
