/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The throttle fingerprint: whether a sweep's throughput was held by a
 * rate cap outside the disk rather than by the disk. Little's law ties
 * every closed-loop point's mean latency to its load and rate, so the law
 * alone cannot tell a cap from a saturated disk; what tells them apart is
 * where the waiting I/Os are (the device's own queue) and, without device
 * counters, whether the curve ever rose before it levelled off.
 */
#include "dm-sweep-cap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Judged on figures as saved, as the knee is, so the file read back gives
 * the same verdict and the same JSON. */
#define as_saved dm_figure_as_saved

typedef struct cap_point {
  int      index;
  unsigned load;
  double   iops;
  double   mean;
} cap_point;

static int
cmp_load (const void *a, const void *b)
{
  const cap_point *x = a, *y = b;
  return x->load < y->load ? -1 : x->load > y->load;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* One point per load, as the knee takes them: the best of the QD x T that
 * keep the same number of I/Os in flight shows what that load can do. */
static unsigned
points_of (const dm_report *r, cap_point *pts)
{
  unsigned m = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (res->status != DM_STATUS_COMPLETE || !(res->iops > 0) || !(res->latency.mean > 0))
        continue;
      unsigned load = (unsigned) res->spec.queue_depth * res->spec.threads, k;
      for (k = 0; k < m && pts[k].load != load; k++)
        ;
      if (k < m && as_saved (res->iops) <= pts[k].iops)
        continue;
      if (k == m)
        m++;
      pts[k] = (cap_point) { (int) i, load, as_saved (res->iops), as_saved (res->latency.mean) };
    }
  qsort (pts, m, sizeof *pts, cmp_load);
  return m;
}

/* The largest distance of the IOPS of pts[from..m-1] from their median, as
 * a share of it; the median in *median. Not max - min: a throttle's budget
 * carried from one short run into the next puts single loads some per cent
 * over it, and the band around the level is what a cap keeps. */
static double
spread_of (const cap_point *pts, unsigned from, unsigned m, double *v, double *median)
{
  unsigned n = m - from;
  for (unsigned i = 0; i < n; i++)
    v[i] = pts[from + i].iops;
  qsort (v, n, sizeof *v, cmp_double);
  *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return *median > 0 ? fmax (v[n - 1] - *median, *median - v[0]) / *median : INFINITY;
}

void
dm_sweep_cap_find (const dm_report *r, dm_sweep_cap *cap)
{
  size_t n = r->n_results ? r->n_results : 1;
  cap_point *pts = calloc (n, sizeof *pts);
  double *v = calloc (n, sizeof *v);
  unsigned m, from;
  double median = 0;

  memset (cap, 0, sizeof *cap);
  cap->first = cap->last = -1;
  cap->verdict = DM_CAP_TOO_FEW;
  if (!pts || !v)
    goto out;
  m = points_of (r, pts);
  if (m < DM_SWEEP_CAP_POINTS || pts[m - 1].load < DM_SWEEP_CAP_SPAN * pts[0].load)
    goto out;

  /* The longest run of heaviest loads that level off: a cap holds every
   * load past the one that first reaches it, so it is a tail of the curve. */
  for (from = 0; from + DM_SWEEP_CAP_POINTS <= m; from++)
    if (spread_of (pts, from, m, v, &median) <= DM_SWEEP_CAP_FLAT)
      break;
  if (from + DM_SWEEP_CAP_POINTS > m || pts[m - 1].load < DM_SWEEP_CAP_SPAN * pts[from].load)
    {
      cap->verdict = DM_CAP_NOT_FLAT;
      goto out;
    }

  const dm_result *last = &r->results[pts[m - 1].index];
  cap->first = pts[from].index;
  cap->last = pts[m - 1].index;
  cap->n_points = m - from;
  cap->spread = spread_of (pts, from, m, v, &median);
  cap->iops = median;
  cap->mb_per_s = median * last->spec.block_size / 1e6;
  cap->by_bytes = last->spec.block_size >= 65536;
  cap->load = pts[m - 1].load;
  cap->latency_growth = pts[m - 1].mean / pts[from].mean;
  /* A fixed rate R with L I/Os always in flight makes each wait L / R. */
  for (unsigned i = from; i < m; i++)
    cap->little_error = fmax (cap->little_error,
                              fabs (pts[i].mean / (pts[i].load / median * 1e6) - 1));
  unsigned flags = last->device.flags;
  cap->device_counted = last->device.counted && last->device.counted_bytes
                        && !(flags & DM_FLAG_CACHE_SUSPECTED);
  cap->device_queue = cap->device_counted ? as_saved (last->device.avg_queue) : 0;

  /* A backend that never kept the queue asked is flat by its own doing. */
  if (flags & DM_FLAG_QUEUE_NOT_HELD)
    cap->verdict = DM_CAP_NOT_HELD;
  else if (cap->little_error > DM_SWEEP_CAP_LITTLE)
    cap->verdict = DM_CAP_NOT_LITTLE;
  /* Where the waiting I/Os are decides: above the device for a cap (the
   * host-bound flag: under half of QD x T at the device), in its queue for
   * a device that is saturated. */
  else if (cap->device_counted)
    cap->verdict = flags & DM_FLAG_HOST_BOUND ? DM_CAP_FOUND : DM_CAP_DEVICE_QUEUE;
  /* Uncounted: a curve that rose first had a device that gained from the
   * queue up to a knee (slow-fs with 4 in service); one flat from the
   * lightest load gained nothing from any queue, as only a cap or a device
   * serving one I/O at a time does, and the text says which was not seen. */
  else
    cap->verdict = from == 0 ? DM_CAP_FOUND : DM_CAP_GROWS_FIRST;
out:
  free (pts);
  free (v);
}

static const struct {
  const char *name;
  const char *text;
} verdicts[DM_N_CAP_VERDICTS] = {
  [DM_CAP_FOUND] = { "capped", "by something outside this disk (a VM or datastore limit, a "
                               "cloud tier)" },
  [DM_CAP_TOO_FEW] = { "too_few_loads", "too few loads to tell (3 complete, the heaviest 4 x "
                                        "the lightest, are needed)" },
  [DM_CAP_NOT_FLAT] = { "not_flat", "throughput does not level off over the heavier loads" },
  [DM_CAP_NOT_HELD] = { "queue_not_held", "the system did not keep the asked queue in flight, "
                                          "so a flat curve says nothing of a cap" },
  [DM_CAP_NOT_LITTLE] = { "not_littles_law", "latency does not grow as a fixed rate makes it "
                                             "(QD x T / rate)" },
  [DM_CAP_DEVICE_QUEUE] = { "device_queue", "the device's own queue held the load: the limit "
                                            "is the disk's own" },
  [DM_CAP_GROWS_FIRST] = { "grows_first", "throughput grew with the queue before it levelled "
                                          "off, a device's knee (the device's own queue was "
                                          "not counted)" },
};

const char *
dm_sweep_cap_verdict_name (dm_sweep_cap_verdict v)
{
  return (unsigned) v < DM_N_CAP_VERDICTS ? verdicts[v].name : "?";
}

const char *
dm_sweep_cap_verdict_text (dm_sweep_cap_verdict v)
{
  return (unsigned) v < DM_N_CAP_VERDICTS ? verdicts[v].text : "?";
}

static void
json_load (dm_buf *b, const char *key, const dm_report *r, int index)
{
  dm_buf_printf (b, ", \"%s\": ", key);
  if (index < 0)
    dm_buf_add (b, "null");
  else
    dm_buf_printf (b, "{\"queue_depth\": %u, \"threads\": %u}",
                   r->results[index].spec.queue_depth, r->results[index].spec.threads);
}

static void
json_number (dm_buf *b, const char *key, bool known, double v)
{
  dm_buf_printf (b, ", \"%s\": ", key);
  if (known && isfinite (v))
    dm_buf_add_double (b, "%.3f", v);
  else
    dm_buf_add (b, "null");
}

void
dm_sweep_cap_write_json (const dm_sweep_cap *cap, const dm_report *r, dm_buf *b)
{
  bool run = cap->first >= 0;
  dm_buf_printf (b, ",\n    \"rate_cap\": {\"capped\": %s, \"verdict\": ",
                 cap->verdict == DM_CAP_FOUND ? "true" : "false");
  dm_buf_add_json_string (b, dm_sweep_cap_verdict_name (cap->verdict));
  json_number (b, "iops", run, cap->iops);
  json_number (b, "mb_per_s", run, cap->mb_per_s);
  json_load (b, "from", r, cap->first);
  json_load (b, "to", r, cap->last);
  dm_buf_printf (b, ", \"loads\": %u", cap->n_points);
  json_number (b, "spread_percent", run, cap->spread * 100);
  json_number (b, "littles_law_error_percent", run, cap->little_error * 100);
  json_number (b, "latency_growth", run, cap->latency_growth);
  json_number (b, "device_avg_queue", run && cap->device_counted, cap->device_queue);
  dm_buf_add (b, "}");
}

static void
load_name (dm_buf *b, const dm_report *r, int index)
{
  dm_buf_printf (b, "Q%uT%u", r->results[index].spec.queue_depth,
                 r->results[index].spec.threads);
}

/* "5000 IOPS (20.5 MB/s)", or MB/s first for large blocks. */
static void
rate (dm_buf *b, const dm_sweep_cap *cap)
{
  if (cap->by_bytes)
    {
      dm_buf_add_double (b, "%.1f", cap->mb_per_s);
      dm_buf_add (b, " MB/s (");
      dm_buf_add_double (b, "%.0f", cap->iops);
      dm_buf_add (b, " IOPS)");
    }
  else
    {
      dm_buf_add_double (b, "%.0f", cap->iops);
      dm_buf_add (b, " IOPS (");
      dm_buf_add_double (b, "%.1f", cap->mb_per_s);
      dm_buf_add (b, " MB/s)");
    }
}

void
dm_sweep_cap_write_text (const dm_sweep_cap *cap, const dm_report *r, dm_buf *b)
{
  dm_buf_add (b, "Rate cap: ");
  if (cap->verdict == DM_CAP_FOUND)
    {
      dm_buf_add (b, "capped near ");
      rate (b, cap);
      dm_buf_printf (b, " %s\n", dm_sweep_cap_verdict_text (cap->verdict));
    }
  else
    dm_buf_printf (b, "none: %s\n", dm_sweep_cap_verdict_text (cap->verdict));
  if (cap->first < 0)
    return;
  dm_buf_printf (b, "  Evidence: %u loads from ", cap->n_points);
  load_name (b, r, cap->first);
  dm_buf_add (b, " to ");
  load_name (b, r, cap->last);
  dm_buf_add (b, " within ");
  dm_buf_add_double (b, "%.1f", cap->spread * 100);
  dm_buf_add (b, " % of ");
  rate (b, cap);
  dm_buf_add (b, "; mean latency within ");
  dm_buf_add_double (b, "%.1f", cap->little_error * 100);
  dm_buf_add (b, " % of QD x T / rate (Little's law), ");
  dm_buf_add_double (b, "%.1f", cap->latency_growth);
  dm_buf_add (b, " x from the lightest to the heaviest; ");
  if (cap->device_counted)
    {
      dm_buf_add (b, "the device's own queue ");
      dm_buf_add_double (b, "%.1f", cap->device_queue);
      dm_buf_printf (b, " of %u in flight at ", cap->load);
      load_name (b, r, cap->last);
      dm_buf_add (b, "\n");
    }
  else
    dm_buf_add (b, "the device's own queue not counted\n");
}
