/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A report of two workload rows with figures set by hand, so what the
 * exports show of them can be checked against arithmetic: a rate-limited
 * 70/30 row that fell behind its rate and a sequential write row that
 * flushes every 8 writes. Shared by test-workload-exports, test-compare
 * and test-history.
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include "dm-report.h"
#include "dm-test.h"

/* The mixed row's timeline: two half seconds, MB/s each way. Its reads
 * moved 0.5 x (10 + 12) = 11 MB, its writes 0.5 x (4 + 6) = 5 MB. */
#define DM_TW_READ_BYTE_SHARE (11.0 / 16.0)
/* Its histograms: 1290 reads and 553 writes, the 1843 I/Os of its run. */
#define DM_TW_READS  1290
#define DM_TW_WRITES 553

static const char *const dm_tw_rows[2] = {
  "name=Mixed 8K 70/30;block=8K;read=70;random=100;rate=2000iops;qd=4;threads=1",
  "name=Log writes;block=4K/50,64K/50;read=0;random=0;sync=flush:8",
};

/* mixed_qd: the first row's queue, 4 as above; another is another shape
 * under the same name. scale multiplies every figure. */
static void
dm_tw_make (dm_report *r, unsigned mixed_qd, double scale, int64_t started)
{
  dm_workload w[2];
  dm_settings s;
  char why[200], text[300];
  dm_settings_init (&s);
  s.count = 2;
  s.measure_s = 1;
  s.test_size = 64ull << 20;
  for (int i = 0; i < 2; i++)
    {
      snprintf (text, sizeof text, "%s", dm_tw_rows[i]);
      if (i == 0 && mixed_qd != 4)
        snprintf (text, sizeof text, "%s;qd=%u", dm_tw_rows[0], mixed_qd);
      dm_workload_init (&w[i]);
      DM_CHECK_INT (dm_workload_parse (text, &w[i], why, sizeof why), ==, 0);
    }
  DM_CHECK_INT (dm_report_init_workloads (r, &s, w, 2), ==, 0);
  r->status = DM_STATUS_COMPLETE;
  r->started = started;
  r->finished = started + 10;
  snprintf (r->backend, sizeof r->backend, "test");
  snprintf (r->target.path, sizeof r->target.path, "/srv/data");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      dm_result *res = &r->results[i];
      double iops = (i == 0 ? 1843 : 3000) * scale, mb;
      mb = i == 0 ? iops * 8192 / 1e6 : iops * 34816 / 1e6;
      res->status = DM_STATUS_COMPLETE;
      res->n_runs = 2;
      /* The best run is the figure; the other is 10 % slower. */
      for (unsigned k = 0; k < 2; k++)
        {
          double f = k ? 0.9 : 1.0;
          res->runs[k] = (dm_run) { (uint64_t) (mb * f * 1e6), (uint64_t) (iops * f), 1.0,
                                    mb * f, iops * f, 500 };
        }
      res->mb_per_s = mb;
      res->iops = iops;
      res->latency_us = 500;
      res->mean_mb_per_s = mb * 0.95;
      res->stdev_mb_per_s = mb * 0.05 * 1.4142135623730951;
      res->latency = (dm_latency) { 50, 500, 9000, 300, 400, 900, 2500, 6000, 8000 };
      if (i == 0)
        {
          res->latency_read = (dm_latency) { 50, 450, 9000, 300, 350, 800, 2100, 5000, 7000 };
          res->latency_write = (dm_latency) { 60, 620, 8000, 300, 500, 1000, 3100, 6500, 7900 };
          dm_histogram_add (res->hist_read, 400000, DM_TW_READS);
          dm_histogram_add (res->hist_write, 600000, DM_TW_WRITES);
          dm_sample sm[2];
          memset (sm, 0, sizeof sm);
          sm[0].t = 0.5;
          sm[1].t = 1.0;
          sm[0].read.mb_per_s = 10 * scale;
          sm[1].read.mb_per_s = 12 * scale;
          sm[0].write.mb_per_s = 4 * scale;
          sm[1].write.mb_per_s = 6 * scale;
          sm[0].all.mb_per_s = sm[0].read.mb_per_s + sm[0].write.mb_per_s;
          sm[1].all.mb_per_s = sm[1].read.mb_per_s + sm[1].write.mb_per_s;
          DM_CHECK_INT (dm_result_set_samples (res, sm, 2, 0.5), ==, 0);
        }
      else
        {
          dm_histogram_add (res->hist_write, 300000, 6000);
          res->flushes = 750;
        }
    }
}
