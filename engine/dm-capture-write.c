/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture as text (a summary, then the histograms side by side per
 * direction, as vscsiStats prints them), as CSV (one figure a row, for a
 * sheet) and as the profile file whose workload row has its shape, every
 * number in it explained by a comment above. JSON is dm-capture-json.c.
 */
#include "dm-capture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dm-platform.h"
#include "dm-units.h"

static const char *const dir_names[DM_CAPTURE_DIRS] = { "read", "write", "all" };

/* Time histograms shown in log2 bins of microseconds: <=1 us, <=2 us ...
 * <=2^20 us (about 1 s), more. */
#define TIME_BINS DM_CAPTURE_TIME_BINS

void
dm_capture_time_bins (const dm_histogram *h, uint64_t bins[TIME_BINS])
{
  memset (bins, 0, TIME_BINS * sizeof bins[0]);
  for (unsigned i = 0; i < DM_HIST_BUCKETS; i++)
    if (h->buckets[i])
      {
        double mid = (double) dm_histogram_bucket_low (i) + dm_histogram_bucket_width (i) / 2.0;
        unsigned b = 0;
        for (double top = 1000; b + 1 < TIME_BINS && mid > top; top *= 2)
          b++;
        bins[b] += h->buckets[i];
      }
}

static void
time_label (unsigned b, char *buf, size_t size)
{
  if (b + 1 == TIME_BINS)
    snprintf (buf, size, ">%llu", 1ull << (b - 1));
  else
    snprintf (buf, size, "%llu", 1ull << b);
}

/* Depth bins: 1..8 each, then 9-16, 17-32 ... 129-255, 256+. */
static const unsigned depth_low[DM_CAPTURE_DEPTH_BINS + 1] = {
  1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 33, 65, 129, 256, DM_CAPTURE_DEPTH_MAX + 1
};

void
dm_capture_depth_bins (const dm_capture_dir *d, uint64_t bins[DM_CAPTURE_DEPTH_BINS])
{
  for (unsigned b = 0; b < DM_CAPTURE_DEPTH_BINS; b++)
    {
      bins[b] = 0;
      for (unsigned k = depth_low[b]; k < depth_low[b + 1]; k++)
        bins[b] += d->depths[k - 1];
    }
}

void
dm_capture_depth_label (unsigned b, char *buf, size_t size)
{
  if (b < 8)
    snprintf (buf, size, "%u", depth_low[b]);
  else if (b + 1 == DM_CAPTURE_DEPTH_BINS)
    snprintf (buf, size, "%u+", depth_low[b]);
  else
    snprintf (buf, size, "%u-%u", depth_low[b], depth_low[b + 1] - 1);
}

typedef uint64_t (*bin_fn) (const dm_capture *c, unsigned dir, unsigned bin, const void *extra);

static uint64_t
size_bin (const dm_capture *c, unsigned d, unsigned b, const void *x)
{
  (void) x;
  return c->dir[d].sizes[b];
}

static uint64_t
seek_bin (const dm_capture *c, unsigned d, unsigned b, const void *x)
{
  (void) x;
  return c->dir[d].seeks[b];
}

static uint64_t
depth_bin_of (const dm_capture *c, unsigned d, unsigned b, const void *x)
{
  (void) x;
  uint64_t bins[DM_CAPTURE_DEPTH_BINS];
  dm_capture_depth_bins (&c->dir[d], bins);
  return bins[b];
}

static uint64_t
time_bin_of (const dm_capture *c, unsigned d, unsigned b, const void *x)
{
  uint64_t bins[TIME_BINS];
  dm_capture_time_bins (x == (const void *) 1 ? &c->dir[d].latency : &c->dir[d].interarrival, bins);
  return bins[b];
}

/* One histogram: a row per bin with any request, each direction's count
 * and share. */
static void
table (const dm_capture *c, dm_buf *out, const char *title, unsigned n_bins, bin_fn fn,
       const void *extra, void (*label) (unsigned, char *, size_t))
{
  unsigned first = n_bins, last = 0;
  uint64_t total[DM_CAPTURE_DIRS] = { 0 };
  for (unsigned b = 0; b < n_bins; b++)
    for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
      {
        uint64_t n = fn (c, d, b, extra);
        total[d] += n;
        if (n && b < first)
          first = b;
        if (n && b > last)
          last = b;
      }
  dm_buf_printf (out, "\n%-14s %17s %17s %17s\n", title, "Reads", "Writes", "All");
  if (first == n_bins)
    {
      dm_buf_add (out, "  (none)\n");
      return;
    }
  for (unsigned b = first; b <= last; b++)
    {
      char l[24];
      if (!fn (c, 0, b, extra) && !fn (c, 1, b, extra) && !fn (c, 2, b, extra))
        continue; /* an empty row says nothing; the labels show the gap */
      label (b, l, sizeof l);
      dm_buf_printf (out, "  %-12s", l);
      for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
        {
          uint64_t n = fn (c, d, b, extra);
          dm_buf_printf (out, " %9llu ", (unsigned long long) n);
          dm_buf_add_double (out, "%5.1f", total[d] ? 100.0 * (double) n / (double) total[d] : 0);
          dm_buf_add (out, "%");
        }
      dm_buf_add (out, "\n");
    }
}

static void
line_times (dm_buf *out, const char *what, const dm_histogram *h)
{
  dm_buf_printf (out, "%-14s", what);
  if (!h->count)
    {
      dm_buf_add (out, "none\n");
      return;
    }
  dm_buf_add (out, "mean ");
  dm_buf_add_double (out, "%.1f", dm_histogram_mean (h) / 1e3);
  dm_buf_add (out, " us, p50 ");
  dm_buf_add_double (out, "%.1f", dm_histogram_quantile (h, 0.5) / 1e3);
  dm_buf_add (out, ", p95 ");
  dm_buf_add_double (out, "%.1f", dm_histogram_quantile (h, 0.95) / 1e3);
  dm_buf_add (out, ", p99 ");
  dm_buf_add_double (out, "%.1f", dm_histogram_quantile (h, 0.99) / 1e3);
  dm_buf_add (out, ", max ");
  dm_buf_add_double (out, "%.1f", (double) h->max / 1e3);
  dm_buf_add (out, " us\n");
}

static void
fmt_time (int64_t t, char *buf, size_t size)
{
  dm_format_local_time (t, buf, size);
}

void
dm_capture_write_text (const dm_capture *c, dm_buf *out)
{
  const dm_capture_dir *r = &c->dir[DM_CAPTURE_READS], *w = &c->dir[DM_CAPTURE_WRITES],
                       *a = &c->dir[DM_CAPTURE_ALL];
  bool events = c->from == DM_CAPTURE_FROM_EVENTS;
  uint64_t nr = events ? r->requests : c->c_reads, nw = events ? w->requests : c->c_writes;
  uint64_t br = events ? r->bytes : c->c_read_bytes, bw = events ? w->bytes : c->c_write_bytes;
  dm_capture_iops io;
  char when[64], s1[32], s2[32];

  dm_capture_iops_get (c, &io);
  fmt_time (c->started, when, sizeof when);
  dm_buf_printf (out, "Diskmeter capture of %s (%s), %s\n", c->target, c->disk, when);
  dm_buf_add (out, "  ");
  dm_buf_add_double (out, "%.1f", c->seconds);
  dm_buf_printf (out, " s%s, from %s\n", c->interrupted ? ", ended by Ctrl-C" : "",
                 events ? "the kernel's request events" : "the disk's counters alone");
  if (c->note[0])
    dm_buf_printf (out, "  %s\n", c->note);
  if (!events)
    dm_buf_printf (out, "  No request events: %s. The counters give means only, no size, seek, "
                        "outstanding, latency or interarrival histograms.\n", c->from_why);
  dm_buf_printf (out, "\nRequests      %llu: %llu reads, %llu writes (",
                 (unsigned long long) (nr + nw), (unsigned long long) nr, (unsigned long long) nw);
  dm_buf_add_double (out, "%.1f", dm_capture_read_share (c));
  dm_buf_printf (out, " %% read)%s", events && c->other ? "," : "\n");
  if (events && c->other)
    dm_buf_printf (out, " and %llu flushes or discards\n", (unsigned long long) c->other);
  dm_size_human (br, s1, sizeof s1);
  dm_size_human (bw, s2, sizeof s2);
  dm_buf_printf (out, "Data          %s read, %s written\n", s1, s2);
  dm_size_human (nr ? br / nr : 0, s1, sizeof s1);
  dm_size_human (nw ? bw / nw : 0, s2, sizeof s2);
  dm_buf_printf (out, "Mean size     read %s, write %s\n", s1, s2);
  dm_buf_add (out, "IOPS          mean ");
  dm_buf_add_double (out, "%.1f", io.mean);
  dm_buf_add (out, ", median ");
  dm_buf_add_double (out, "%.0f", io.p50);
  dm_buf_add (out, ", p95 ");
  dm_buf_add_double (out, "%.0f", io.p95);
  dm_buf_add (out, ", peak ");
  dm_buf_add_double (out, "%.0f", io.peak);
  dm_buf_printf (out, " (%u samples of 1 s)\n", io.samples);
  if (!io.bursts)
    dm_buf_add (out, "Bursts        none (100 ms at twice the mean rate or more)\n");
  else
    {
      dm_buf_printf (out, "Bursts        %u of 100 ms at twice the mean rate or more, the longest ",
                     io.bursts);
      dm_buf_add_double (out, "%.1f", io.burst_longest_s);
      dm_buf_add (out, " s, up to ");
      dm_buf_add_double (out, "%.0f", io.burst_peak);
      dm_buf_add (out, " IOPS; ");
      dm_buf_add_double (out, "%.1f", io.burst_share);
      dm_buf_add (out, " % of the requests\n");
    }
  if (events)
    {
      dm_buf_add (out, "Random        ");
      dm_buf_add_double (out, "%.1f", dm_capture_random_share (a));
      dm_buf_add (out, " % (reads ");
      dm_buf_add_double (out, "%.1f", dm_capture_random_share (r));
      dm_buf_add (out, " %, writes ");
      dm_buf_add_double (out, "%.1f", dm_capture_random_share (w));
      dm_buf_printf (out, " %%); the rest began where one of the last %d requests ended\n",
                     DM_CAPTURE_RECENT);
      dm_buf_add (out, "Outstanding   mean ");
      dm_buf_add_double (out, "%.2f", dm_capture_depth_mean (a));
      dm_buf_printf (out, ", median %u at issue, the new request counted\n",
                     dm_capture_depth_median (a));
      line_times (out, "Latency", &a->latency);
      line_times (out, "Interarrival", &a->interarrival);
      dm_size_human (c->low, s1, sizeof s1);
      dm_size_human (c->high, s2, sizeof s2);
      dm_buf_printf (out, "Span          %s to %s of the disk\n", s1, s2);
    }
  if (c->counted)
    {
      dm_buf_add (out, "Disk counters mean queue ");
      dm_buf_add_double (out, "%.2f", c->avg_queue);
      dm_buf_add (out, ", busy ");
      dm_buf_add_double (out, "%.1f", c->busy_percent);
      dm_buf_add (out, " %, ");
      dm_buf_add_double (out, "%.3f", c->await_ms);
      dm_buf_printf (out, " ms per request, %llu requests completed\n",
                     (unsigned long long) (c->c_reads + c->c_writes));
    }
  dm_buf_add (out, "Diskmeter     ");
  dm_buf_add_double (out, "%.2f", c->cpu_percent);
  dm_buf_add (out, " % of one CPU core");
  if (events)
    dm_buf_printf (out, "; %llu events lost, %llu completions of earlier requests, %llu in "
                        "flight at the end",
                   (unsigned long long) c->lost, (unsigned long long) c->unmatched,
                   (unsigned long long) c->in_flight);
  dm_buf_add (out, "\n");
  if (!events)
    return;
  table (c, out, "I/O size", DM_CAPTURE_SIZES, size_bin, NULL, dm_capture_size_label);
  table (c, out, "Seek distance", DM_CAPTURE_SEEKS, seek_bin, NULL, dm_capture_seek_label);
  table (c, out, "Outstanding", DM_CAPTURE_DEPTH_BINS, depth_bin_of, NULL, dm_capture_depth_label);
  table (c, out, "Latency us", TIME_BINS, time_bin_of, (const void *) 1, time_label);
  table (c, out, "Interarrival", TIME_BINS, time_bin_of, NULL, time_label);
  dm_buf_add (out, "\nSeek distance: bytes from the end of the previous request of the same "
                   "direction (All: of any).\n");
}

static void
csv_row (dm_buf *out, const char *figure, const char *dir, const char *bucket, double v,
         const char *fmt)
{
  dm_buf_printf (out, "%s,%s,", figure, dir);
  dm_buf_add_csv_field (out, bucket);
  dm_buf_add (out, ",");
  dm_buf_add_double (out, fmt, v);
  dm_buf_add (out, "\n");
}

/* A histogram's rows, those with any request. */
static void
csv_counts (dm_buf *out, const char *figure, const char *dir, const uint64_t *n, unsigned bins,
            void (*label) (unsigned, char *, size_t))
{
  char l[24];
  for (unsigned b = 0; b < bins; b++)
    if (n[b])
      {
        label (b, l, sizeof l);
        csv_row (out, figure, dir, l, (double) n[b], "%.0f");
      }
}

static void
depth_exact_label (unsigned b, char *buf, size_t size)
{
  snprintf (buf, size, "%u", b + 1);
}

void
dm_capture_write_csv (const dm_capture *c, dm_buf *out)
{
  dm_capture_iops io;
  char l[24];
  bool events = c->from == DM_CAPTURE_FROM_EVENTS;
  dm_capture_iops_get (c, &io);
  dm_buf_add (out, "figure,direction,bucket,value\n");
  csv_row (out, "seconds", "all", "", c->seconds, "%.3f");
  const dm_capture_dir *r = &c->dir[DM_CAPTURE_READS], *w = &c->dir[DM_CAPTURE_WRITES];
  csv_row (out, "requests", "read", "", (double) (events ? r->requests : c->c_reads), "%.0f");
  csv_row (out, "requests", "write", "", (double) (events ? w->requests : c->c_writes), "%.0f");
  csv_row (out, "bytes", "read", "", (double) (events ? r->bytes : c->c_read_bytes), "%.0f");
  csv_row (out, "bytes", "write", "", (double) (events ? w->bytes : c->c_write_bytes), "%.0f");
  csv_row (out, "read_percent", "all", "", dm_capture_read_share (c), "%.2f");
  csv_row (out, "iops_mean", "all", "", io.mean, "%.2f");
  csv_row (out, "iops_p50", "all", "", io.p50, "%.0f");
  csv_row (out, "iops_p95", "all", "", io.p95, "%.0f");
  csv_row (out, "iops_peak", "all", "", io.peak, "%.0f");
  csv_row (out, "bursts", "all", "", io.bursts, "%.0f");
  if (c->counted)
    {
      csv_row (out, "avg_queue", "all", "", c->avg_queue, "%.3f");
      csv_row (out, "busy_percent", "all", "", c->busy_percent, "%.2f");
    }
  for (unsigned s = 0; s < io.samples; s++)
    {
      double n = 0;
      for (unsigned k = 0; k < 10; k++)
        n += c->ticks[s * 10 + k][0] + c->ticks[s * 10 + k][1];
      snprintf (l, sizeof l, "%u", s + 1);
      csv_row (out, "iops_1s", "all", l, n, "%.0f");
    }
  if (!events)
    return;
  for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
    {
      const dm_capture_dir *x = &c->dir[d];
      csv_row (out, "random_percent", dir_names[d], "", dm_capture_random_share (x), "%.2f");
      csv_row (out, "depth_mean", dir_names[d], "", dm_capture_depth_mean (x), "%.3f");
      csv_row (out, "latency_mean_us", dir_names[d], "", dm_histogram_mean (&x->latency) / 1e3,
               "%.3f");
      csv_row (out, "interarrival_mean_us", dir_names[d], "",
               dm_histogram_mean (&x->interarrival) / 1e3, "%.3f");
      csv_counts (out, "size", dir_names[d], x->sizes, DM_CAPTURE_SIZES, dm_capture_size_label);
      csv_counts (out, "seek", dir_names[d], x->seeks, DM_CAPTURE_SEEKS, dm_capture_seek_label);
      csv_counts (out, "outstanding", dir_names[d], x->depths, DM_CAPTURE_DEPTH_MAX,
                  depth_exact_label);
      uint64_t bins[TIME_BINS];
      dm_capture_time_bins (&x->latency, bins);
      csv_counts (out, "latency_us", dir_names[d], bins, TIME_BINS, time_label);
      dm_capture_time_bins (&x->interarrival, bins);
      csv_counts (out, "interarrival_us", dir_names[d], bins, TIME_BINS, time_label);
    }
}

int
dm_capture_write_profile (const dm_capture *c, dm_buf *out, char *why, size_t ws)
{
  dm_workload w;
  dm_capture_iops io;
  const dm_capture_dir *a = &c->dir[DM_CAPTURE_ALL];
  char when[64], text[DM_WORKLOAD_TEXT_MAX], s1[32], s2[32];
  int err = dm_capture_workload (c, &w, why, ws);
  if (err < 0)
    return err;
  dm_capture_iops_get (c, &io);
  fmt_time (c->started, when, sizeof when);
  dm_buf_printf (out, "# Diskmeter profile from a capture of %s (%s), %s, ", c->target, c->disk,
                 when);
  dm_buf_add_double (out, "%.1f", c->seconds);
  dm_buf_printf (out, " s:\n# %llu requests the kernel issued to the disk "
                      "(diskmeter-cli capture).\n", (unsigned long long) a->requests);
  if (c->note[0])
    dm_buf_printf (out, "# %s.\n", c->note);
  dm_buf_add (out, "#\n# block:   the requests' sizes, each at the power of two at or above it "
                   "(4K to 8M), of all requests:");
  for (unsigned b = 0; b < DM_CAPTURE_SIZES; b++)
    if (a->sizes[b])
      {
        char l[24];
        dm_capture_size_label (b, l, sizeof l);
        dm_buf_printf (out, " %s ", l);
        dm_buf_add_double (out, "%.1f", 100.0 * (double) a->sizes[b] / (double) a->requests);
        dm_buf_add (out, "%");
      }
  dm_buf_printf (out, "\n# read:    %llu of the %llu requests were reads\n",
                 (unsigned long long) c->dir[DM_CAPTURE_READS].requests,
                 (unsigned long long) a->requests);
  dm_buf_add (out, "# random:  ");
  dm_buf_add_double (out, "%.1f", 100.0 - dm_capture_random_share (a));
  dm_buf_printf (out, " %% began where one of the last %d requests ended (seek distance 0): "
                      "sequential\n", DM_CAPTURE_RECENT);
  dm_buf_add (out, "# qd:      the mean of the requests outstanding at issue, ");
  dm_buf_add_double (out, "%.2f", dm_capture_depth_mean (a));
  dm_buf_printf (out, " (median %u), rounded\n", dm_capture_depth_median (a));
  if (w.rate_unit == DM_RATE_IOPS)
    {
      dm_buf_printf (out, "# rate:    the p95 of %u samples of 1 s (mean ", io.samples);
      dm_buf_add_double (out, "%.1f", io.mean);
      dm_buf_add (out, ", peak ");
      dm_buf_add_double (out, "%.0f", io.peak);
      dm_buf_add (out, " IOPS)\n");
    }
  dm_size_human (c->low, s1, sizeof s1);
  dm_size_human (c->high, s2, sizeof s2);
  dm_buf_printf (out, "# The requests lay from %s to %s of the disk: a test size of %s or more "
                      "spreads them as wide.\n", s1, s2, s2);
  dm_buf_add (out, "# At the disk they took ");
  dm_buf_add_double (out, "%.1f", dm_histogram_mean (&a->latency) / 1e3);
  dm_buf_add (out, " us on average (p99 ");
  dm_buf_add_double (out, "%.1f", dm_histogram_quantile (&a->latency, 0.99) / 1e3);
  dm_buf_add (out, " us).\n\n");

  /* The row in its canonical form, a key a line: it reads back to w. */
  dm_workload_format (&w, text, sizeof text);
  dm_buf_printf (out, "[%s]\n", w.name);
  for (char *p = text, *end; p && *p; p = end ? end + 1 : NULL)
    {
      end = strchr (p, ';');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char *eq = memchr (p, '=', n);
      if (!eq || ((size_t) (eq - p) == 4 && !strncmp (p, "name", 4)))
        continue;
      dm_buf_printf (out, "%.*s = %.*s\n", (int) (eq - p), p, (int) (n - (size_t) (eq - p) - 1),
                     eq + 1);
    }
  return 0;
}
