/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sustained test's plan, its cliff analysis and its JSON and text
 * forms. The measuring is the ordinary runner's, in one pass over the
 * file; everything here works from the result's timeline, so a saved run
 * gives the same cliff as the live one.
 */
#include "dm-sustained.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-units.h"
#include "dm-text.h"

#define OPENING_S 2.0   /* the opening rate is the median over this long */

void
dm_sustained_plan_init (dm_sustained_plan *p)
{
  memset (p, 0, sizeof *p);
  p->mode = DM_MODE_WRITE;
  p->pattern = DM_SEQ;
  p->block_size = 1u << 20;
  p->queue_depth = 8;
  p->threads = 1;
  p->span = 0;
  p->duration_s = 60;
  p->sample_s = DM_SAMPLE_DEFAULT_S;
}

uint64_t
dm_sustained_margin (uint64_t size_bytes)
{
  uint64_t share = size_bytes / 100 * DM_SUSTAINED_MARGIN_PERCENT;
  return share > DM_SUSTAINED_MARGIN_MIN ? share : DM_SUSTAINED_MARGIN_MIN;
}

uint64_t
dm_sustained_free_span (uint64_t free_bytes, uint64_t size_bytes)
{
  uint64_t margin = dm_sustained_margin (size_bytes);
  if (free_bytes <= margin)
    return 0;
  uint64_t span = (free_bytes - margin) / DM_BLOCK_MAX_ALIGN * DM_BLOCK_MAX_ALIGN;
  return span > DM_TEST_SIZE_MAX ? DM_TEST_SIZE_MAX : span;
}

int
dm_sustained_resolve_span (const dm_target_info *t, dm_mode mode, dm_sustained_span_kind kind,
                           uint64_t size, uint64_t *span)
{
  bool capped = mode == DM_MODE_READ && kind == DM_SUSTAINED_SPAN_DEFAULT;

  if (t->is_block_device)
    {
      /* A disk holds someone's data: the sustained test only reads it. */
      uint64_t whole = t->size_bytes / DM_BLOCK_MAX_ALIGN * DM_BLOCK_MAX_ALIGN;

      *span = kind == DM_SUSTAINED_SPAN_SIZE ? size
              : whole < DM_TEST_SIZE_MAX   ? whole
                                           : DM_TEST_SIZE_MAX;
      if (capped && *span > DM_SUSTAINED_READ_SPAN_DEFAULT)
        *span = DM_SUSTAINED_READ_SPAN_DEFAULT;
      return mode == DM_MODE_READ ? 0 : -EPERM;
    }
  if (kind == DM_SUSTAINED_SPAN_SIZE)
    {
      *span = size;
      return 0;
    }
  *span = dm_sustained_free_span (t->free_bytes, t->size_bytes);
  if (capped && *span > DM_SUSTAINED_READ_SPAN_DEFAULT)
    *span = DM_SUSTAINED_READ_SPAN_DEFAULT;
  return *span < DM_TEST_SIZE_MIN ? -ENOSPC : 0;
}

int
dm_sustained_report_init (dm_report *r, const dm_sustained_plan *p, uint64_t span,
                          const dm_settings *base, char *why, size_t why_size)
{
  dm_settings s = *base;
  dm_spec spec = { p->pattern, p->block_size, (uint16_t) p->queue_depth, (uint16_t) p->threads };

  if (p->mode != DM_MODE_WRITE && p->mode != DM_MODE_READ)
    return dm_why (why, why_size, "the sustained test writes or reads, it does not mix");
  /* One run as long as the duration, no warm-up: the cache the test
   * looks for is there from the first byte. */
  s.count = 1;
  s.measure_s = p->duration_s;
  s.warmup_s = 0;
  s.interval_s = 0;
  s.test_size = span;
  if (span < DM_TEST_SIZE_MIN || span > DM_TEST_SIZE_MAX || span % DM_BLOCK_MAX_ALIGN)
    {
      char have[32];
      dm_size_format (span, have, sizeof have);
      return dm_why (why, why_size, "a span of %s is out of range (16MiB to 64GiB, whole MiB)",
                     have);
    }
  if ((uint64_t) p->block_size * p->threads > span)
    return dm_why (why, why_size, "the span is smaller than one block per thread");
  int err = dm_settings_check (&s, why, why_size);
  if (err < 0)
    return err;
  err = dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (p->mode));
  if (err < 0)
    return dm_why (why, why_size, "out of memory");
  snprintf (r->profile, sizeof r->profile, "sustained");
  r->sample_s = p->sample_s;
  return 0;
}

/* ---- the cliff ---------------------------------------------------------- */

static double
sample_len (const dm_sample *s, unsigned k)
{
  return s[k].t - (k ? s[k - 1].t : 0);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Mean rate over samples [from, to), weighted by their lengths. */
static double
mean_rate (const dm_sample *s, unsigned from, unsigned to)
{
  double bytes = 0, secs = 0;
  for (unsigned k = from; k < to; k++)
    {
      bytes += s[k].all.mb_per_s * sample_len (s, k);
      secs += sample_len (s, k);
    }
  return secs > 0 ? bytes / secs : 0;
}

/* Median rate of samples [from, to): one burst (a throttle's initial
 * budget) or one stall does not move it, as it would a mean. */
static double
median_rate (const dm_sample *s, unsigned from, unsigned to)
{
  if (to <= from)
    return 0;
  unsigned n = to - from;
  double *v = malloc (n * sizeof *v), m;
  if (!v)
    return mean_rate (s, from, to);
  for (unsigned k = 0; k < n; k++)
    v[k] = s[from + k].all.mb_per_s;
  qsort (v, n, sizeof *v, cmp_double);
  m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  free (v);
  return m;
}

void
dm_sustained_find_cliff (const dm_sample *s, unsigned n, dm_sustained_cliff *out)
{
  memset (out, 0, sizeof *out);
  if (!n)
    return;

  /* The opening rate: the best median of three neighbouring samples in
   * the first seconds, so that neither the ramp of the first sample nor
   * one lucky sample sets it, and a cache shorter than the window still
   * shows (with fewer than three samples, the best one). */
  unsigned k_open = 0;
  while (k_open < n && s[k_open].t <= OPENING_S + 1e-9)
    k_open++;
  if (k_open < 1)
    k_open = 1;
  double opening = 0;
  if (k_open < 3 || n < 3)
    for (unsigned k = 0; k < k_open; k++)
      opening = fmax (opening, s[k].all.mb_per_s);
  else
    for (unsigned k = 1; k + 1 < n && k <= k_open; k++)
      {
        double three[3] = { s[k - 1].all.mb_per_s, s[k].all.mb_per_s, s[k + 1].all.mb_per_s };
        qsort (three, 3, sizeof three[0], cmp_double);
        opening = fmax (opening, three[1]);
      }
  out->opening_mb_per_s = opening;
  double half = opening / 2;

  /* From the end backwards: how long the samples from k on spent below
   * half, and their mean. The cliff is the first k below half whose tail
   * stays there: nine tenths of its time and on average, over more than
   * one and a half samples' time. Time, not a count: a run ends with a
   * short sample, a sliver of time whose rate can be anything, and it
   * must not outvote the seconds before it (nor make one slow sample,
   * with it, a tail of two). */
  int cliff = -1;
  double below_s = 0, tail_mb = 0, tail_s = 0;
  for (unsigned k = n; k-- > 0;)
    {
      double len = sample_len (s, k);
      if (s[k].all.mb_per_s < half)
        below_s += len;
      tail_mb += s[k].all.mb_per_s * len;
      tail_s += len;
      if (k > 0 && s[k].all.mb_per_s < half && tail_s > 1.5 * len
          && below_s >= 0.9 * tail_s && tail_mb < half * tail_s)
        cliff = (int) k;
    }
  if (cliff < 0)
    {
      unsigned q = n - n / 4 > k_open ? n - n / 4 : 0;
      out->before_mb_per_s = opening;
      out->after_mb_per_s = median_rate (s, q, n);
      return;
    }

  unsigned c = (unsigned) cliff;
  /* The drop happens in sample c or in the one before it (which may be
   * half fast, half slow): the rates before and after are taken outside
   * these two, where there are samples. */
  unsigned b_end = c >= 2 ? c - 1 : c;
  /* Medians: the start (queues filling, a throttle's initial budget) and
   * the odd stall do not set the rates. */
  double before = median_rate (s, 0, b_end);
  double after = c + 1 < n ? median_rate (s, c + 1, n) : median_rate (s, c, n);
  unsigned w0 = c >= 1 ? c - 1 : c;

  double bytes_to_w0 = 0;
  for (unsigned k = 0; k < w0; k++)
    bytes_to_w0 += s[k].all.mb_per_s * 1e6 * sample_len (s, k);
  double w_bytes = 0, w_secs = 0;
  for (unsigned k = w0; k <= c; k++)
    {
      w_bytes += s[k].all.mb_per_s * 1e6 * sample_len (s, k);
      w_secs += sample_len (s, k);
    }
  /* x bytes at `before`, the rest at `after`, in w_secs: solved for x. */
  double x = w_bytes;
  if (before > after && after > 0)
    x = (w_secs - w_bytes / (after * 1e6)) / (1 / (before * 1e6) - 1 / (after * 1e6));
  if (x < 0)
    x = 0;
  if (x > w_bytes)
    x = w_bytes;
  out->found = true;
  out->cache_bytes = (uint64_t) llround (bytes_to_w0 + x);
  out->at_s = (w0 ? s[w0 - 1].t : 0) + (before > 0 ? x / (before * 1e6) : 0);
  out->before_mb_per_s = before;
  out->after_mb_per_s = after;
}

/* ---- reports ------------------------------------------------------------- */

bool
dm_sustained_is (const dm_report *r, const char *text, size_t len)
{
  if (!strcmp (r->profile, "sustained") && r->n_results == 1)
    return true;
  if (!text)
    return false;
  dm_json_doc doc = { 0 };
  char why[128];
  if (dm_json_parse (text, len, &doc, why, sizeof why) < 0)
    return false;
  const dm_json *m = dm_json_get (doc.root, "sustained");
  bool is = m && m->type == DM_JSON_OBJECT && r->n_results == 1;
  dm_json_free (&doc);
  return is;
}

void
dm_sustained_find_cliff_as_saved (const dm_sample *samples, unsigned n, dm_sustained_cliff *out)
{
  memset (out, 0, sizeof *out);
  if (!n)
    return;
  dm_sample *s = malloc ((size_t) n * sizeof *s);
  if (!s)
    return;
  /* snprintf and strtod agree on the decimal point in any locale, so the
   * window, in the user's LC_NUMERIC, rounds as the C-locale writer does. */
  for (unsigned k = 0; k < n; k++)
    {
      char text[64];
      memset (&s[k], 0, sizeof s[k]);
      snprintf (text, sizeof text, "%.6g", samples[k].t);
      s[k].t = strtod (text, NULL);
      snprintf (text, sizeof text, "%.3f", samples[k].all.mb_per_s);
      s[k].all.mb_per_s = strtod (text, NULL);
    }
  dm_sustained_find_cliff (s, n, out);
  free (s);
}

/* The cliff of a report's timeline as saved. */
static void
cliff_of (const dm_report *r, dm_sustained_cliff *c)
{
  memset (c, 0, sizeof *c);
  if (!r->n_results)
    return;
  dm_sustained_find_cliff_as_saved (r->results[0].samples, r->results[0].n_samples, c);
}

void
dm_sustained_write_json (const dm_report *r, dm_buf *b)
{
  dm_sustained_cliff c;

  /* A member of the report's object, as the sweep's is. */
  if (!dm_report_write_json_open (r, b))
    return;
  cliff_of (r, &c);
  dm_buf_add (b, ",\n  \"sustained\": {\n    \"mode\": ");
  dm_buf_add_json_string (b, r->n_results ? dm_mode_name (r->results[0].mode) : "write");
  dm_buf_printf (b, ",\n    \"span_bytes\": %llu", (unsigned long long) r->settings.test_size);
  dm_buf_add (b, ",\n    \"duration_s\": ");
  dm_buf_add_double (b, "%.6g", r->settings.measure_s);
  if (c.found)
    {
      dm_buf_printf (b, ",\n    \"cache_bytes\": %llu", (unsigned long long) c.cache_bytes);
      dm_buf_add (b, ",\n    \"cliff_s\": ");
      dm_buf_add_double (b, "%.3f", c.at_s);
    }
  else
    dm_buf_add (b, ",\n    \"cache_bytes\": null,\n    \"cliff_s\": null");
  dm_buf_add (b, ",\n    \"opening_mb_per_s\": ");
  dm_buf_add_double (b, "%.3f", c.opening_mb_per_s);
  dm_buf_add (b, ",\n    \"before_mb_per_s\": ");
  dm_buf_add_double (b, "%.3f", c.before_mb_per_s);
  dm_buf_add (b, ",\n    \"after_mb_per_s\": ");
  dm_buf_add_double (b, "%.3f", c.after_mb_per_s);
  dm_buf_add (b, "\n  }\n}\n");
}

#define CHART_W 60
#define CHART_H 12

/* A figure with one decimal and a '.', whatever LC_NUMERIC the caller
 * runs in (the window uses the user's): the summary is part of reports. */
static const char *
num1 (char buf[32], double v)
{
  snprintf (buf, 32, "%.1f", isfinite (v) ? v : 0);
  for (char *p = buf; *p; p++)
    if (*p == ',')
      *p = '.';
  return buf;
}

void
dm_sustained_write_text (const dm_report *r, dm_buf *b)
{
  char name[32], span[32], cache[32];
  dm_sustained_cliff c;

  if (!r->n_results)
    return;
  const dm_result *res = &r->results[0];
  dm_spec_name (&res->spec, name, sizeof name);
  dm_size_human (r->settings.test_size, span, sizeof span);
  char n1[32], n2[32], n3[32];
  dm_buf_printf (b, "Sustained %s %s over a %s span of ", name, dm_mode_name (res->mode), span);
  dm_text_add_shown (b, r->target.path[0] ? r->target.path : "?");
  dm_buf_add (b, " (");
  dm_text_add_shown (b, r->target.filesystem[0] ? r->target.filesystem : "-");
  dm_buf_add (b, ")\n");
  dm_report_add_tags_line (b, r, "Tags: ");
  if (res->status != DM_STATUS_COMPLETE)
    {
      dm_buf_printf (b, "Status: %s%s", dm_status_name (res->status), res->error[0] ? ": " : "");
      dm_text_add_shown (b, res->error);
      dm_buf_add (b, "\n");
    }
  uint64_t moved = res->n_runs ? res->runs[0].bytes : 0;
  double secs = res->n_runs ? res->runs[0].seconds
                            : res->n_samples ? res->samples[res->n_samples - 1].t : 0;
  dm_size_human (moved, cache, sizeof cache);
  dm_buf_printf (b, "%s: %s in %s s, %s MB/s on average%s\n",
                 res->mode == DM_MODE_READ ? "Read" : "Written", cache, num1 (n1, secs),
                 num1 (n2, res->n_runs ? res->runs[0].mb_per_s : 0),
                 res->n_runs && moved >= r->settings.test_size ? " (the whole span)" : "");
  cliff_of (r, &c);
  if (c.found)
    {
      dm_size_human (c.cache_bytes, cache, sizeof cache);
      dm_buf_printf (b, "Cliff: after %s (%s s): %s MB/s before, %s MB/s after\n", cache,
                     num1 (n1, c.at_s), num1 (n2, c.before_mb_per_s), num1 (n3, c.after_mb_per_s));
    }
  else
    dm_buf_printf (b, "No cliff: the rate stayed above half of its opening %s MB/s "
                      "(%s MB/s over the last quarter)\n",
                   num1 (n1, c.opening_mb_per_s), num1 (n2, c.after_mb_per_s));
  if (!res->n_samples)
    return;

  /* The chart: one column per slice of time (the mean rate in it), the
   * cliff marked under the axis. */
  double end = res->samples[res->n_samples - 1].t, top = 0;
  unsigned cols = res->n_samples < CHART_W ? res->n_samples : CHART_W;
  double col_rate[CHART_W];
  for (unsigned x = 0; x < cols; x++)
    {
      unsigned from = x * res->n_samples / cols, to = (x + 1) * res->n_samples / cols;
      col_rate[x] = mean_rate (res->samples, from, to > from ? to : from + 1);
      if (col_rate[x] > top)
        top = col_rate[x];
    }
  if (top <= 0)
    top = 1;
  dm_buf_add (b, "\n    MB/s\n");
  for (int y = CHART_H; y >= 1; y--)
    {
      double level = top * (y - 0.5) / CHART_H;
      if (y == CHART_H || y == CHART_H / 2)
        dm_buf_printf (b, "%8.0f |", top * y / CHART_H);
      else
        dm_buf_add (b, "         |");
      for (unsigned x = 0; x < cols; x++)
        dm_buf_add (b, col_rate[x] >= level ? "#" : " ");
      dm_buf_add (b, "\n");
    }
  dm_buf_add (b, "       0 +");
  for (unsigned x = 0; x < cols; x++)
    dm_buf_add (b, "-");
  dm_buf_add (b, "\n");
  if (c.found && end > 0)
    {
      unsigned at = (unsigned) fmin (cols - 1, c.at_s / end * cols);
      dm_buf_printf (b, "          %*s^ cliff\n", (int) at, "");
    }
  dm_buf_printf (b, "          0 s%*s%s s\n", cols > 10 ? (int) cols - 10 : 1, "", num1 (n1, end));
}
