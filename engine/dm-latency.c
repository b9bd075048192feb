/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Latency detail from the log-linear histograms the runner keeps: the
 * percentile table, SQLIO's per-millisecond histogram, chart buckets, and
 * the text the CLI prints for --latency. Nothing here stores samples; every
 * figure comes from the buckets, so a saved report redraws the same way.
 */
#include "dm-latency.h"

#include <math.h>
#include <string.h>

#include "dm-text.h"

#define NS_PER_MS 1000000.0

void
dm_latency_from_histogram (dm_latency *l, const dm_histogram *h)
{
  memset (l, 0, sizeof *l);
  if (!h || !h->count)
    return;
  l->min = (double) h->min / 1000;
  l->max = (double) h->max / 1000;
  l->mean = dm_histogram_mean (h) / 1000;
  l->stdev = dm_histogram_stdev (h) / 1000;
  l->p50 = dm_histogram_quantile (h, 0.50) / 1000;
  l->p90 = dm_histogram_quantile (h, 0.90) / 1000;
  l->p99 = dm_histogram_quantile (h, 0.99) / 1000;
  l->p99_9 = dm_histogram_quantile (h, 0.999) / 1000;
  l->p99_99 = dm_histogram_quantile (h, 0.9999) / 1000;
}

double
dm_latency_count_below (const dm_histogram *h, double ns)
{
  if (!h || !h->count || ns <= (double) h->min)
    return 0;
  if (ns > (double) h->max)
    return (double) h->count;

  /* A bucket's samples all lie within the exact min and max too, so its
   * range is narrowed to them before splitting: a run whose I/Os all took
   * 2.0 ms puts them all in the 2 ms column, not partly in the 1 ms one. */
  double lo_all = (double) h->min, hi_all = (double) h->max + 1;
  double below = 0;
  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    {
      if (!h->buckets[i])
        continue;
      double lo = (double) dm_histogram_bucket_low (i);
      double hi = lo + (double) dm_histogram_bucket_width (i);
      if (lo >= ns)
        break;
      lo = fmax (lo, lo_all);
      hi = fmin (hi, hi_all);
      double n = (double) h->buckets[i];
      if (hi <= ns)
        below += n;
      else if (hi > lo && ns > lo)
        below += n * (ns - lo) / (hi - lo);
    }
  return below;
}

void
dm_latency_per_ms (const dm_histogram *h, double percent[DM_LATENCY_MS_BUCKETS])
{
  memset (percent, 0, DM_LATENCY_MS_BUCKETS * sizeof *percent);
  if (!h || !h->count)
    return;
  double total = (double) h->count, prev = 0;
  for (unsigned k = 0; k + 1 < DM_LATENCY_MS_BUCKETS; k++)
    {
      double below = dm_latency_count_below (h, (k + 1) * NS_PER_MS);
      percent[k] = (below - prev) / total * 100;
      prev = below;
    }
  percent[DM_LATENCY_MS_BUCKETS - 1] = (total - prev) / total * 100;
}

unsigned
dm_latency_log_edges (uint64_t min_ns, uint64_t max_ns, unsigned per_decade,
                      double *edges, unsigned max_edges)
{
  if (max_edges < 2)
    return 0;
  if (per_decade == 0)
    per_decade = 1;
  if (min_ns == 0)
    min_ns = 1;
  if (max_ns < min_ns)
    max_ns = min_ns;
  /* The small epsilon keeps an exact power of ten (1000 ns) from landing one
   * step low through rounding in log10. */
  double p = per_decade;
  long k = (long) floor (log10 ((double) min_ns) * p + 1e-9);
  unsigned n = 0;
  for (;;)
    {
      double e = pow (10.0, (double) k / p);
      edges[n++] = e;
      if (e > (double) max_ns && n >= 2)
        break;
      if (n == max_edges)
        break;
      k++;
    }
  return n;
}

void
dm_latency_chart (const dm_histogram *h, const double *edges, unsigned n_edges, double *counts)
{
  if (n_edges < 2)
    return;
  double prev = dm_latency_count_below (h, edges[0]);
  for (unsigned i = 0; i + 1 < n_edges; i++)
    {
      double below = dm_latency_count_below (h, edges[i + 1]);
      counts[i] = below > prev ? below - prev : 0;
      prev = below;
    }
}

/* ---- text --------------------------------------------------------------- */

static void
table_row (dm_buf *b, const char *label, const dm_histogram *h)
{
  dm_latency l;
  dm_latency_from_histogram (&l, h);
  dm_buf_printf (b, "  %-7s", label);
  const double v[] = { l.min, l.p50, l.p90, l.p99, l.p99_9, l.p99_99, l.max };
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
    dm_buf_add_double (b, " %10.1f", v[i]);
  dm_buf_printf (b, " %12llu\n", (unsigned long long) (h ? h->count : 0));
}

/* Whole percents as SQLIO prints them, except that a share too small to
 * round to 1 % shows as "<1": a rare 30 ms stall is what an administrator
 * looks for in this histogram, and a 0 would hide it. */
static void
histogram_row (dm_buf *b, const char *label, const dm_histogram *h)
{
  double pct[DM_LATENCY_MS_BUCKETS];
  dm_latency_per_ms (h, pct);
  dm_buf_printf (b, "  %-7s", label);
  for (unsigned k = 0; k < DM_LATENCY_MS_BUCKETS; k++)
    {
      if (pct[k] > 0 && pct[k] < 0.5)
        dm_buf_add (b, "  <1");
      else
        dm_buf_printf (b, " %3d", (int) lround (pct[k]));
    }
  dm_buf_add (b, "\n");
}

/* What the disk's own counters saw meanwhile: the requests behind these
 * latencies, their size, the queue the disk held and how busy it was. */
static void
device_row (dm_buf *b, const dm_report *r, const dm_result *res)
{
  const dm_device_seen *d = &res->device;
  if (!d->counted)
    {
      if (r->device_note[0])
        {
          dm_buf_add (b, "  Device: not counted: ");
          dm_text_add_shown (b, r->device_note);
          dm_buf_add (b, "\n");
        }
      return;
    }
  /* The figures through dm_buf_add_double: the window writes this text
   * in the user's LC_NUMERIC, and a report keeps its '.'. */
  dm_buf_printf (b, "  Device %s: %llu reads, %llu writes, ", d->name,
                 (unsigned long long) d->reads, (unsigned long long) d->writes);
  dm_buf_add_double (b, "%.1f", (double) d->read_bytes / 1e6);
  dm_buf_add (b, " MB read, ");
  dm_buf_add_double (b, "%.1f", (double) d->write_bytes / 1e6);
  dm_buf_add (b, " MB written, ");
  dm_buf_add_double (b, "%.1f", dm_device_seen_avg_request (d) / 1024);
  dm_buf_add (b, " KiB per request, queue ");
  dm_buf_add_double (b, "%.2f", d->avg_queue);
  dm_buf_add (b, ", busy ");
  dm_buf_add_double (b, "%.0f", d->busy_percent);
  dm_buf_add (b, "%\n");
  for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
    if (d->flags & (1u << f))
      {
        char why[200];
        dm_device_ask ask = dm_result_device_ask (res);
        dm_device_flag_explain ((dm_device_flag) (1u << f), d, &ask, why, sizeof why);
        dm_buf_printf (b, "  ! %s\n", why);
      }
}

/* Each direction the test measured, split where the device's own time
 * ends: its await (iostat's r_await or w_await) and what is left of
 * Diskmeter's mean above it, in this machine's stack (in a VM, the
 * guest's own; the host is below the disk it sees). "not counted" where the device's
 * counters are missing, never a 0 that would read as a figure. */
static void
split_rows (dm_buf *b, const dm_result *res)
{
  const dm_histogram *h[2] = { res->hist_read, res->hist_write };
  for (unsigned d = 0; d < 2; d++)
    {
      const dm_device_split *s = &res->device.split[d];
      if ((d == DM_DEVICE_READ ? res->mode == DM_MODE_WRITE : res->mode == DM_MODE_READ)
          || !h[d] || !h[d]->count)
        continue;
      dm_buf_printf (b, "  %s at the device: %s ", d == DM_DEVICE_READ ? "Read" : "Write",
                     dm_device_await_name (d));
      if (!s->counted)
        {
          dm_buf_add (b, "not counted, nor the part above it\n");
          continue;
        }
      dm_buf_add_double (b, "%.1f", s->await_us);
      if (!s->guest_counted)
        {
          dm_buf_add (b, ", the part above it not counted\n");
          continue;
        }
      dm_buf_add (b, ", above it ");
      dm_buf_add_double (b, "%.1f", s->guest_us);
      dm_buf_add (b, " of the mean ");
      dm_buf_add_double (b, "%.1f", s->await_us + s->guest_us);
      dm_buf_add (b, "\n");
    }
}

void
dm_report_write_latency (const dm_report *r, dm_buf *b)
{
  bool first = true;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (res->status == DM_STATUS_PENDING)
        continue;
      char name[32];
      dm_spec_name (&res->spec, name, sizeof name);
      dm_buf_add (b, first ? "" : "\n");
      first = false;
      if (res->mode == DM_MODE_MIX)
        dm_buf_printf (b, "%s %s (%u%% reads): latency in microseconds\n", name,
                       dm_mode_title (res->mode), res->read_percent);
      else
        dm_buf_printf (b, "%s %s: latency in microseconds\n", name, dm_mode_title (res->mode));

      uint64_t n = (res->hist_read ? res->hist_read->count : 0)
                   + (res->hist_write ? res->hist_write->count : 0);
      if (!n)
        {
          dm_buf_printf (b, "  no I/O was measured (%s)\n", dm_status_name (res->status));
          continue;
        }

      /* Read and Write rows for Mix, one row named after the column else. */
      const dm_histogram *rows[2];
      const char *labels[2];
      unsigned n_rows = 0;
      if (res->mode != DM_MODE_WRITE)
        {
          rows[n_rows] = res->hist_read;
          labels[n_rows++] = "Read";
        }
      if (res->mode != DM_MODE_READ)
        {
          rows[n_rows] = res->hist_write;
          labels[n_rows++] = "Write";
        }

      dm_buf_printf (b, "  %-7s %10s %10s %10s %10s %10s %10s %10s %12s\n", "", "min", "p50",
                     "p90", "p99", "p99.9", "p99.99", "max", "I/Os");
      for (unsigned k = 0; k < n_rows; k++)
        table_row (b, labels[k], rows[k]);

      dm_buf_add (b, "  Percent of I/Os per millisecond:\n");
      dm_buf_printf (b, "  %-7s", "ms");
      for (unsigned k = 0; k < DM_LATENCY_MS_BUCKETS; k++)
        {
          if (k + 1 < DM_LATENCY_MS_BUCKETS)
            dm_buf_printf (b, " %3u", k);
          else
            dm_buf_printf (b, " %2u+", k);
        }
      dm_buf_add (b, "\n");
      for (unsigned k = 0; k < n_rows; k++)
        histogram_row (b, labels[k], rows[k]);
      device_row (b, r, res);
      split_rows (b, res);
    }
}
