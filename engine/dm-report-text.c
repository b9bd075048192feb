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
#include "dm-result-split.h"
#include "dm-text.h"
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
  /* A test a stop did not reach has no figure, and 0.000 MB/s would read
   * as a disk that moved nothing. */
  if (res->status == DM_STATUS_PENDING
      || (res->status == DM_STATUS_CANCELLED && !res->n_runs && !res->mb_per_s))
    {
      dm_buf_add (b, "  not run\n");
      return;
    }
  add_num (b, "%9.3f", res->mb_per_s);
  dm_buf_add (b, " MB/s [");
  add_num (b, "%8.1f", res->iops);
  dm_buf_add (b, " IOPS] <");
  add_num (b, "%9.2f", res->latency_us);
  dm_buf_add (b, " us>");
  if (res->status == DM_STATUS_COMPLETE && r->n_thresholds)
    colours (b, r, res);
  if (res->status == DM_STATUS_FAILED)
    {
      dm_buf_add (b, " FAILED: ");
      dm_text_add_shown (b, res->error);
    }
  else if (res->status == DM_STATUS_CANCELLED)
    dm_buf_printf (b, " (cancelled after %u of %u runs)", res->n_runs, count);
  dm_buf_add (b, "\n");
}

/* "  Read:  228.700 MB/s [ 27920 IOPS] p99 1466.37 us": one direction of
 * a workload row that has both, its part of the row's figure. */
static void
direction_line (dm_buf *b, const char *label, double mb, double iops, const dm_latency *l)
{
  dm_buf_printf (b, "     %s: ", label);
  add_num (b, "%9.3f", mb);
  dm_buf_add (b, " MB/s [");
  add_num (b, "%8.1f", iops);
  dm_buf_add (b, " IOPS] p99 ");
  add_num (b, "%.2f", l->p99);
  dm_buf_add (b, " us\n");
}

/* A workload row: its name and figures, then its shape on the line under
 * it, reads and writes apart when it has both, its latency percentiles,
 * whether it reached the rate it offered and the flushes it made. */
static void
workload_line (dm_buf *b, const dm_report *r, const dm_result *res, unsigned count)
{
  char shape[DM_WORKLOAD_TEXT_MAX + 64];
  dm_result_split split;
  dm_buf_add (b, "  ");
  dm_text_add_shown (b, res->workload.name);
  dm_buf_add (b, ":\n   ");
  result_line (b, r, res, count);
  dm_workload_describe (&res->workload, shape, sizeof shape);
  dm_buf_add (b, "     Mode: ");
  dm_text_add_shown (b, shape);
  dm_buf_add (b, "\n");
  if (!res->n_runs)
    return;
  /* The parts add up to the row's figure: its best run, shared out as the
   * measured runs moved bytes and I/Os each way. */
  if (res->mode == DM_MODE_MIX && dm_result_split_of (res, &split))
    {
      direction_line (b, " Read", split.read_mb_per_s, split.read_iops, &res->latency_read);
      direction_line (b, "Write", split.write_mb_per_s, split.write_iops, &res->latency_write);
    }
  dm_buf_add (b, "  Latency: p50 ");
  add_num (b, "%.2f", res->latency.p50);
  dm_buf_add (b, " us, p99 ");
  add_num (b, "%.2f", res->latency.p99);
  dm_buf_add (b, " us, p99.9 ");
  add_num (b, "%.2f", res->latency.p99_9);
  dm_buf_add (b, " us\n");
  if (res->workload.rate_unit != DM_RATE_NONE)
    {
      double reached;
      bool met = dm_result_rate_met (res, &reached);
      bool iops = res->workload.rate_unit == DM_RATE_IOPS;
      dm_buf_add (b, "     Rate: ");
      add_num (b, "%g", res->workload.rate);
      dm_buf_printf (b, " %s offered, ", iops ? "IOPS" : "MB/s");
      add_num (b, iops ? "%.0f" : "%.1f", reached);
      dm_buf_printf (b, " reached: %s; latency counts from each I/O's due time\n",
                     met ? "met" : "not met (the device fell behind)");
    }
  if (res->workload.sync == DM_SYNC_FLUSH)
    dm_buf_printf (b, "  Flushes: %llu in the measured runs (one per %u writes)\n",
                   (unsigned long long) res->flushes, res->workload.flush_every);
}

/* Under the layout, one line per test whose figure the disk's own counters
 * put in doubt, or one line saying why there were no counters to ask. */
static void
device_lines (dm_buf *b, const dm_report *r)
{
  bool header = false;
  if (r->device_note[0])
    {
      dm_buf_add (b, " Device: not counted: ");
      dm_text_add_shown (b, r->device_note);
      dm_buf_add (b, "\n");
      return;
    }
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      for (unsigned f = 0; f < DM_N_DEVICE_FLAGS; f++)
        {
          char name[32], why[200];
          /* The system's own queue has lines of its own (queue_lines):
           * it needs no device counters. */
          if (!(res->device.flags & (1u << f)) || (1u << f) == DM_FLAG_QUEUE_NOT_HELD)
            continue;
          if (!header)
            {
              dm_buf_add (b, " Device: ");
              dm_text_add_shown (b, res->device.name);
              dm_buf_add (b, ", its own counters during the measured runs:\n");
            }
          header = true;
          dm_device_ask ask = dm_result_device_ask (res);
          dm_spec_name (&res->spec, name, sizeof name);
          dm_device_flag_explain ((dm_device_flag) (1u << f), &res->device, &ask, why,
                                  sizeof why);
          dm_buf_printf (b, "  %s %s: ", name, dm_mode_title (res->mode));
          dm_text_add_shown (b, why);
          dm_buf_add (b, "\n");
        }
    }
}

/* One line per test whose queue the system itself never held, counted by
 * the backend, with or without the disk's counters. */
static void
queue_lines (dm_buf *b, const dm_report *r)
{
  bool header = false;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      char name[32], why[200];
      if (!(res->device.flags & DM_FLAG_QUEUE_NOT_HELD))
        continue;
      if (!header)
        dm_buf_add (b, " Queue: what the system itself held, as the backend counted it:\n");
      header = true;
      dm_device_ask ask = dm_result_device_ask (res);
      dm_spec_name (&res->spec, name, sizeof name);
      dm_device_flag_explain (DM_FLAG_QUEUE_NOT_HELD, &res->device, &ask, why, sizeof why);
      dm_buf_printf (b, "  %s %s: ", name, dm_mode_title (res->mode));
      dm_text_add_shown (b, why);
      dm_buf_add (b, "\n");
    }
}

/* Under the flags' lines, what the machine's facts say limits each such
 * queue, the setting to change and where it is documented. */
static void
advice_lines (dm_buf *b, const dm_report *r)
{
  bool header = false;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_advice *a = &r->results[i].advice;
      char name[32];
      if (!a->sentence[0])
        continue;
      if (!header)
        dm_buf_add (b, " Advice: what the machine's facts say limits the queue:\n");
      header = true;
      dm_spec_name (&r->results[i].spec, name, sizeof name);
      dm_buf_printf (b, "  %s %s: ", name, dm_mode_title (r->results[i].mode));
      dm_text_add_shown (b, a->sentence);
      dm_buf_add (b, "\n   change: ");
      dm_text_add_shown (b, a->setting);
      dm_buf_add (b, "\n   source: ");
      dm_text_add_shown (b, a->source);
      dm_buf_add (b, "\n");
    }
}

/* "Machine: KVM, 4 vCPUs (1 socket x 2 cores x 2 threads), 1 NUMA node,
 * 15.6 GiB": which (virtual) machine, as its settings would name it. */
static void
machine_line (dm_buf *b, const dm_report *r)
{
  const dm_system_info *y = &r->system;
  if (!y->hypervisor[0] && !y->sockets)
    return;
  dm_buf_add (b, "Machine: ");
  dm_text_add_shown (b, y->hypervisor[0] ? y->hypervisor : "-");
  if (y->machine[0])
    {
      dm_buf_add (b, " (");
      dm_text_add_shown (b, y->machine);
      dm_buf_add (b, ")");
    }
  dm_buf_printf (b, ", %u vCPU%s", y->logical_cpus, y->logical_cpus == 1 ? "" : "s");
  if (y->sockets)
    dm_buf_printf (b, " (%u socket%s x %u core%s x %u thread%s)", y->sockets,
                   y->sockets == 1 ? "" : "s", y->cores_per_socket,
                   y->cores_per_socket == 1 ? "" : "s", y->threads_per_core,
                   y->threads_per_core == 1 ? "" : "s");
  if (y->numa_nodes)
    dm_buf_printf (b, ", %u NUMA node%s", y->numa_nodes, y->numa_nodes == 1 ? "" : "s");
  if (y->memory_bytes)
    {
      dm_buf_add (b, ", ");
      add_num (b, "%.1f", (double) y->memory_bytes / (double) (1ull << 30));
      dm_buf_add (b, " GiB");
    }
  dm_buf_add (b, "\n");
}

/* "Adapter: VMware PVSCSI [vmw_pvscsi], queue depth 64 (host 254), 1
 * hardware queue of 128 requests, 128 segments": what a queue depth asked
 * of Diskmeter really reaches. */
static void
adapter_line (dm_buf *b, const dm_report *r)
{
  const dm_target_info *t = &r->target;
  if (!t->controller[0] && !t->queue_depth && !t->driver_params[0])
    return;
  dm_buf_add (b, "Adapter: ");
  dm_text_add_shown (b, t->controller[0] ? t->controller : t->driver[0] ? t->driver : "-");
  if (t->controller[0] && t->driver[0])
    {
      dm_buf_add (b, " [");
      dm_text_add_shown (b, t->driver);
      dm_buf_add (b, "]");
    }
  if (t->queue_depth)
    dm_buf_printf (b, ", queue depth %u", t->queue_depth);
  if (t->host_queue)
    dm_buf_printf (b, " (host %u)", t->host_queue);
  if (t->hw_queues)
    dm_buf_printf (b, ", %u hardware queue%s", t->hw_queues, t->hw_queues == 1 ? "" : "s");
  if (t->nr_requests)
    dm_buf_printf (b, "%s%u requests", t->hw_queues ? " of " : ", ", t->nr_requests);
  if (t->max_segments)
    dm_buf_printf (b, ", %u segments", t->max_segments);
  if (t->driver_params[0])
    {
      dm_buf_add (b, ", ");
      dm_text_add_shown (b, t->driver_params);
    }
  dm_buf_add (b, "\n");
}

/* "   Tags: vcpus=48 (HT), site=lab 2": the user's tags, escaped as any
 * other text, on one line. The facts offered as tags are in the lines
 * above; one the user overrode is a tag of theirs. */
static void
tags_line (dm_buf *b, const dm_report *r)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_tags (r, tags), shown = 0;
  for (unsigned i = 0; i < n; i++)
    {
      if (dm_tag_is_fact (&tags[i], &r->system, &r->target))
        continue;
      dm_buf_printf (b, "%s%s=", shown++ ? ", " : "   Tags: ", tags[i].key);
      dm_text_add_shown (b, tags[i].value);
    }
  if (shown)
    dm_buf_add (b, "\n");
}

/* Under Time: the precondition passes and, for a steady warm-up, how
 * each test's ended. Nothing for a run that asked for neither. */
static void
warm_lines (dm_buf *b, const dm_report *r)
{
  const dm_settings *s = &r->settings;
  char size[32];
  if (s->precondition)
    {
      dm_size_format (r->precondition_bytes, size, sizeof size);
      dm_buf_printf (b, "   Prec: %u pass%s of the whole file, %s written in ", s->precondition,
                     s->precondition == 1 ? "" : "es", size);
      add_num (b, "%.2f", r->precondition_s);
      dm_buf_add (b, " sec\n");
    }
  if (!s->warmup_steady)
    return;
  dm_buf_add (b, "   Warm: steady, samples of ");
  add_num (b, "%g", DM_STEADY_SAMPLE_S);
  dm_buf_add (b, " sec within ");
  add_num (b, "%g", s->steady_margin);
  dm_buf_add (b, "% of their mean over ");
  add_num (b, "%g", DM_STEADY_WINDOW_S);
  dm_buf_add (b, " sec, at most ");
  add_num (b, "%g", s->steady_limit_s);
  dm_buf_add (b, " sec\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      char name[32];
      if (res->status == DM_STATUS_PENDING)
        continue;
      dm_spec_name (&res->spec, name, sizeof name);
      dm_buf_add (b, "         ");
      dm_text_add_shown (b, res->shaped ? res->workload.name : name);
      if (!res->shaped)
        dm_buf_printf (b, " %s", dm_mode_title (res->mode));
      dm_buf_add (b, ": ");
      dm_buf_add (b, res->warmup_settled ? "settled after " : "NOT SETTLED within ");
      add_num (b, "%.1f", res->warmup_took_s);
      dm_buf_add (b, " sec (spread ");
      add_num (b, "%.1f", res->warmup_spread);
      dm_buf_add (b, "%)\n");
    }
}

void
dm_report_write_text (const dm_report *r, dm_buf *b)
{
  const dm_settings *s = &r->settings;
  char size[32], date[32];

  dm_buf_add (b, rule);
  dm_buf_printf (b, "Diskmeter %s (", DM_VERSION);
  dm_text_add_shown (b, r->backend[0] ? r->backend : "-");
  dm_buf_add (b, ")\n");
  dm_buf_add (b, rule);
  dm_buf_add (b, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n");
  dm_buf_add (b, "* KB = 1000 bytes, KiB = 1024 bytes\n");
  if (r->cached)
    dm_buf_add (b, "* CACHED: run with --buffered; the page cache is in these figures, "
                   "not only the disk\n");
  if (r->status == DM_STATUS_CANCELLED)
    dm_buf_add (b, "* CANCELLED: tests that did not finish show what they measured so far\n");
  if (r->status == DM_STATUS_FAILED)
    {
      dm_buf_add (b, "* FAILED: ");
      dm_text_add_shown (b, r->error);
      dm_buf_add (b, "\n");
    }

  for (int m = 0; m < DM_N_MODES; m++)
    {
      bool any = false;
      for (unsigned i = 0; i < r->n_results; i++)
        if (r->results[i].mode == (dm_mode) m && !r->results[i].shaped)
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

  bool shaped = false;
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].shaped)
      {
        if (!shaped)
          dm_buf_add (b, "\n[Workloads]\n");
        shaped = true;
        workload_line (b, r, &r->results[i], s->count);
      }

  const dm_profile *p = dm_profile_find (r->profile);
  if (r->profile_hash[0])
    dm_buf_printf (b, "\nProfile: Workloads (hash %s)\n", r->profile_hash);
  else
    dm_buf_printf (b, "\nProfile: %s%s\n", p ? p->title : "Custom", r->nvme ? " [NVMe SSD]" : "");
  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "   Test: %s (x%u)", size, s->count);
  if (r->target.size_bytes)
    {
      uint64_t used = r->target.size_bytes - r->target.free_bytes;
      /* CrystalDiskMark's GiB, but MiB where GiB would read "0/0". */
      bool small = r->target.size_bytes < (10ull << 30);
      double unit = small ? (double) (1ull << 20) : (double) (1ull << 30);
      dm_buf_add (b, " [");
      dm_text_add_shown (b, r->target.mount_point[0] ? r->target.mount_point : r->target.path);
      dm_buf_printf (b, ": %u%% (%.0f/%.0f%s)]",
                     (unsigned) (used * 100 / r->target.size_bytes), (double) used / unit,
                     (double) r->target.size_bytes / unit, small ? "MiB" : "GiB");
    }
  dm_buf_add (b, "\n");
  dm_buf_printf (b, "   Mode: [%s%s, ", r->cached ? "buffered" : "direct",
                 s->write_through ? ", write-through" : "");
  dm_text_add_shown (b, r->backend[0] ? r->backend : "-");
  dm_buf_printf (b, ", %s%s]\n", dm_data_name (s->data), r->nocow ? ", NOCOW" : "");
  dm_buf_add (b, "   Time: Measure ");
  add_num (b, "%g", s->measure_s);
  dm_buf_add (b, " sec / Interval ");
  add_num (b, "%g", s->interval_s);
  dm_buf_add (b, " sec\n");
  warm_lines (b, r);
  dm_format_local_time (r->started, date, sizeof date);
  dm_buf_printf (b, "   Date: %s\n", date);
  dm_buf_add (b, "     OS: ");
  dm_text_add_shown (b, r->system.os);
  dm_buf_add (b, "\n");
  machine_line (b, r);
  /* The controller's driver is what tells an LSI Logic disk from a
   * paravirtual or NVMe one in a VM, so it goes into the text too. */
  if (r->target.filesystem[0] || r->target.model[0])
    {
      dm_buf_add (b, "   Disk: ");
      if (r->target.model[0])
        {
          dm_text_add_shown (b, r->target.model);
          dm_buf_add (b, " ");
        }
      dm_text_add_shown (b, r->target.device);
      if (r->target.driver[0])
        {
          dm_buf_add (b, " [");
          dm_text_add_shown (b, r->target.driver);
          dm_buf_add (b, "]");
        }
      if (r->target.filesystem[0])
        {
          dm_buf_add (b, ", ");
          dm_text_add_shown (b, r->target.filesystem);
        }
      dm_buf_add (b, "\n");
    }
  adapter_line (b, r);
  /* A target reached through a link: the folder really measured. */
  if (dm_target_resolved (&r->target))
    {
      dm_buf_add (b, "   Path: ");
      dm_text_add_shown (b, r->target.real_path);
      dm_buf_add (b, " (");
      dm_text_add_shown (b, r->target.path);
      dm_buf_add (b, " leads there)\n");
    }
  /* A comment is one line, whatever it holds: a newline in it cannot
   * start a forged [Read] section, an escape cannot drive the terminal. */
  tags_line (b, r);
  dm_buf_add (b, "Comment: ");
  dm_text_add_shown (b, r->comment);
  dm_buf_add (b, "\n");
  device_lines (b, r);
  queue_lines (b, r);
  advice_lines (b, r);
}
