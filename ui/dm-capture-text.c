/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summary the Capture window shows under its histograms
 * (dm-capture-text.h), from the engine's own figures (dm_capture_iops_get,
 * the shares and depths dm-capture.c derives), so the window says what
 * diskmeter-cli capture prints.
 */
#include "dm-capture-text.h"
#include "dm-i18n-ui.h"

#include "dm-reason.h"
#include "dm-units.h"

static void
size_split (GString *s, const dm_capture_dir *a)
{
  gboolean any = FALSE;

  for (unsigned b = 0; b < DM_CAPTURE_SIZES; b++)
    if (a->sizes[b])
      {
        char l[24];

        dm_capture_size_label (b, l, sizeof l);
        g_string_append_printf (s, "%s%s %.1f %%", any ? ", " : " ", l,
                                100.0 * (double) a->sizes[b] / (double) a->requests);
        any = TRUE;
      }
}

static void
time_us (GString *s, double ns)
{
  if (ns >= 1e6)
    g_string_append_printf (s, "%.2f ms", ns / 1e6);
  else
    g_string_append_printf (s, "%.1f µs", ns / 1e3);
}

char *
dm_capture_text_summary (const dm_capture *c)
{
  GString *s = g_string_new (NULL);
  const dm_capture_dir *a = &c->dir[DM_CAPTURE_ALL];
  gboolean events = c->from == DM_CAPTURE_FROM_EVENTS;
  dm_capture_iops io;
  char shown[400];

  dm_capture_iops_get (c, &io);
  g_string_append_printf (s, events ? _("Captured %s for %.1f s from the kernel's request events")
                                    : _("Captured %s for %.1f s from the disk's counters"),
                          c->disk, c->seconds);
  g_string_append (s, c->interrupted ? _(", ended early by Cancel.") : ".");
  if (c->note[0])
    g_string_append_printf (s, "\n%s.", dm_reason_shown (c->note, shown, sizeof shown));
  if (!events)
    {
      g_string_append_printf (s, _("\nNo request events: %s."),
                              dm_reason_shown (c->from_why, shown, sizeof shown));
      g_string_append (s, _("\nThe counters give means only: the read share, the mean request "
                            "size of each direction, IOPS, the mean queue and busy time. They "
                            "cannot tell the size split, seek distance (how random), outstanding "
                            "I/Os at issue, the latency histogram nor interarrival times, so "
                            "they make no grid row."));
      uint64_t done = c->c_reads + c->c_writes;
      g_string_append_printf (s, _("\nRequests: %llu (%llu reads, %llu writes); read share "
                                   "%.1f %%"),
                              (unsigned long long) done, (unsigned long long) c->c_reads,
                              (unsigned long long) c->c_writes, dm_capture_read_share (c));
      if (c->c_reads)
        g_string_append_printf (s, _("; mean read %.1f KiB"),
                                (double) c->c_read_bytes / (double) c->c_reads / 1024);
      if (c->c_writes)
        g_string_append_printf (s, _("; mean write %.1f KiB"),
                                (double) c->c_write_bytes / (double) c->c_writes / 1024);
    }
  else
    {
      g_string_append_printf (s, _("\nRequests: %llu (%llu reads, %llu writes)"),
                              (unsigned long long) a->requests,
                              (unsigned long long) c->dir[DM_CAPTURE_READS].requests,
                              (unsigned long long) c->dir[DM_CAPTURE_WRITES].requests);
      g_string_append_printf (s, _("\nRead share: %.1f %%; random: %.1f %%"),
                              dm_capture_read_share (c), dm_capture_random_share (a));
      if (a->requests)
        {
          g_string_append (s, _("\nI/O sizes:"));
          size_split (s, a);
        }
    }
  g_string_append_printf (s, _("\nIOPS over %u samples of 1 s: mean %.1f, p95 %.1f, peak %.0f"),
                          io.samples, io.mean, io.p95, io.peak);
  if (io.bursts)
    g_string_append_printf (s, _("; %u bursts at twice the mean or more, the busiest 100 ms "
                                 "at %.0f IOPS"), io.bursts, io.burst_peak);
  if (events && a->requests)
    {
      g_string_append_printf (s, _("\nQueue: %.2f outstanding at issue on average (median %u)"),
                              dm_capture_depth_mean (a), dm_capture_depth_median (a));
      if (c->counted)
        g_string_append_printf (s, _("; %.2f at the disk (the counters' mean), busy %.1f %%"),
                                c->avg_queue, c->busy_percent);
      g_string_append (s, _("\nDevice latency: mean "));
      time_us (s, dm_histogram_mean (&a->latency));
      g_string_append (s, _(", p99 "));
      time_us (s, dm_histogram_quantile (&a->latency, 0.99));
      g_string_append (s, _("; interarrival: mean "));
      time_us (s, dm_histogram_mean (&a->interarrival));
    }
  else if (c->counted)
    g_string_append_printf (s, _("\nQueue: %.2f at the disk on average, busy %.1f %%, "
                                 "%.2f ms a request"), c->avg_queue, c->busy_percent, c->await_ms);
  if (c->lost)
    g_string_append_printf (s, _("\nThe kernel dropped %llu events: the histograms miss them."),
                            (unsigned long long) c->lost);
  g_string_append_printf (s, _("\nDiskmeter took %.1f %% of one core while capturing."),
                          c->cpu_percent);
  return g_string_free (s, FALSE);
}
