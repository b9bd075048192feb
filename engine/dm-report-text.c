/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The saved-text layout CrystalDiskMark users paste into forums and
 * reports: [Read] / [Write] / [Mix] sections with one fixed-width line per
 * test, then the profile, test size, times, date, OS and comment. The
 * window's "Copy" and diskmeter-cli print exactly this.
 */
#include "dm-report.h"

#include <stdio.h>
#include <string.h>

#include "dm-profile.h"
#include "dm-units.h"

static const char rule[] =
  "------------------------------------------------------------------------------\n";

static void
add_num (dm_buf *b, const char *fmt, double v)
{
  dm_buf_add_double (b, fmt, v);
}

/* " [green MB/s, red us]": the limits a line's figures cross. */
static void
colours (dm_buf *b, const dm_report *r, const dm_result *res)
{
  static const dm_unit units[] = { DM_UNIT_MBPS, DM_UNIT_IOPS, DM_UNIT_US };
  bool any = false;
  for (int u = 0; u < 3; u++)
    {
      dm_colour c = dm_threshold_colour (r->thresholds, r->n_thresholds, &res->spec, res->mode,
                                         units[u], dm_result_value (res, units[u]));
      if (c == DM_COLOUR_NONE)
        continue;
      dm_buf_printf (b, "%s%s %s", any ? ", " : " [", dm_colour_name (c), dm_unit_name (units[u]));
      any = true;
    }
  if (any)
    dm_buf_add (b, "]");
}

static void
result_line (dm_buf *b, const dm_report *r, const dm_result *res, unsigned count)
{
  char label[64];
  dm_spec_text_label (&res->spec, label, sizeof label);
  dm_buf_printf (b, "  %s: ", label);
  add_num (b, "%9.3f", res->mb_per_s);
  dm_buf_add (b, " MB/s [");
  add_num (b, "%8.1f", res->iops);
  dm_buf_add (b, " IOPS] <");
  add_num (b, "%9.2f", res->latency_us);
  dm_buf_add (b, " us>");
  if (res->status == DM_STATUS_COMPLETE && r->n_thresholds)
    colours (b, r, res);
  if (res->status == DM_STATUS_FAILED)
    dm_buf_printf (b, " FAILED: %s", res->error);
  else if (res->status == DM_STATUS_CANCELLED)
    dm_buf_printf (b, " (cancelled after %u of %u runs)", res->n_runs, count);
  dm_buf_add (b, "\n");
}

/* Under the layout, one line per test whose figure the disk's own counters
 * put in doubt, or one line saying why there were no counters to ask. */
static void
device_lines (dm_buf *b, const dm_report *r)
{
  bool header = false;
  if (r->device_note[0])
    {
      dm_buf_printf (b, " Device: not counted: %s\n", r->device_note);
      return;
    }
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
        {
          char name[32], why[200];
          if (!(res->device.flags & (1u << f)))
            continue;
          if (!header)
            dm_buf_printf (b, " Device: %s, its own counters during the measured runs:\n",
                           res->device.name);
          header = true;
          dm_device_ask ask = dm_result_device_ask (res);
          dm_spec_name (&res->spec, name, sizeof name);
          dm_device_flag_explain ((dm_device_flag) (1u << f), &res->device, &ask, why,
                                  sizeof why);
          dm_buf_printf (b, "  %s %s: %s\n", name, dm_mode_title (res->mode), why);
        }
    }
}

void
dm_report_write_text (const dm_report *r, dm_buf *b)
{
  const dm_settings *s = &r->settings;
  char size[32], date[32];

  dm_buf_add (b, rule);
  dm_buf_printf (b, "Diskmeter %s (%s)\n", DM_VERSION, r->backend[0] ? r->backend : "-");
  dm_buf_add (b, rule);
  dm_buf_add (b, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n");
  dm_buf_add (b, "* KB = 1000 bytes, KiB = 1024 bytes\n");
  if (r->cached)
    dm_buf_add (b, "* CACHED: run with --buffered; the page cache is in these figures, "
                   "not only the disk\n");
  if (r->status == DM_STATUS_CANCELLED)
    dm_buf_add (b, "* CANCELLED: tests that did not finish show what they measured so far\n");
  if (r->status == DM_STATUS_FAILED)
    dm_buf_printf (b, "* FAILED: %s\n", r->error);

  for (int m = 0; m < DM_N_MODES; m++)
    {
      bool any = false;
      for (unsigned i = 0; i < r->n_results; i++)
        if (r->results[i].mode == (dm_mode) m)
          {
            if (!any)
              {
                dm_buf_printf (b, "\n[%s]", dm_mode_title ((dm_mode) m));
                if (m == DM_MODE_MIX)
                  dm_buf_printf (b, " Read %u%%/Write %u%%", s->mix_read_percent,
                                 100 - s->mix_read_percent);
                dm_buf_add (b, "\n");
                any = true;
              }
            result_line (b, r, &r->results[i], s->count);
          }
    }

  const dm_profile *p = dm_profile_find (r->profile);
  dm_buf_printf (b, "\nProfile: %s%s\n", p ? p->title : "Custom", r->nvme ? " [NVMe SSD]" : "");
  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "   Test: %s (x%u)", size, s->count);
  if (r->target.size_bytes)
    {
      uint64_t used = r->target.size_bytes - r->target.free_bytes;
      /* CrystalDiskMark's GiB, but MiB where GiB would read "0/0". */
      bool small = r->target.size_bytes < (10ull << 30);
      double unit = small ? (double) (1ull << 20) : (double) (1ull << 30);
      dm_buf_printf (b, " [%s: %u%% (%.0f/%.0f%s)]",
                     r->target.mount_point[0] ? r->target.mount_point : r->target.path,
                     (unsigned) (used * 100 / r->target.size_bytes), (double) used / unit,
                     (double) r->target.size_bytes / unit, small ? "MiB" : "GiB");
    }
  dm_buf_add (b, "\n");
  dm_buf_printf (b, "   Mode: [%s%s, %s, %s%s]\n", r->cached ? "buffered" : "direct",
                 s->write_through ? ", write-through" : "", r->backend[0] ? r->backend : "-",
                 dm_data_name (s->data), r->nocow ? ", NOCOW" : "");
  dm_buf_add (b, "   Time: Measure ");
  add_num (b, "%g", s->measure_s);
  dm_buf_add (b, " sec / Interval ");
  add_num (b, "%g", s->interval_s);
  dm_buf_add (b, " sec\n");
  dm_format_local_time (r->started, date, sizeof date);
  dm_buf_printf (b, "   Date: %s\n", date);
  dm_buf_printf (b, "     OS: %s\n", r->system.os);
  /* The controller's driver is what tells an LSI Logic disk from a
   * paravirtual or NVMe one in a VM, so it goes into the text too. */
  if (r->target.filesystem[0] || r->target.model[0])
    dm_buf_printf (b, "   Disk: %s%s%s%s%s%s%s%s\n", r->target.model[0] ? r->target.model : "",
                   r->target.model[0] ? " " : "", r->target.device,
                   r->target.driver[0] ? " [" : "", r->target.driver,
                   r->target.driver[0] ? "]" : "",
                   r->target.filesystem[0] ? ", " : "", r->target.filesystem);
  /* A target reached through a link: the folder really measured. */
  if (dm_target_resolved (&r->target))
    dm_buf_printf (b, "   Path: %s (%s leads there)\n", r->target.real_path, r->target.path);
  dm_buf_printf (b, "Comment: %s\n", r->comment);
  device_lines (b, r);
}
