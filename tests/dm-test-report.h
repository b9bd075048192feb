/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hand-built run the report tests share: the default profile's four
 * tests in all three modes with figures of every size, a failed test, a
 * cancelled one and figures that are not numbers. Its checks count in the
 * test program that includes it (tests/dm-test.h), so it is a header.
 */
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "dm-report.h"
#include "dm-test.h"

#define N_RESULTS 12

static const char *const spec_names[] = { "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1" };

/* The grid figures per result: read, write, mix, each in the profile's order. */
static const struct {
  double mb, iops, lat;
} figures[N_RESULTS] = {
  { 1234.567, 1177.4, 6789.01 },   { 987.654, 941.9, 1061.23 },
  { 456.789, 111520.8, 286.87 },   { 45.678, 11151.9, 89.55 },
  { 2345.678, 2237.0, 3574.12 },   { 1999.999, 1907.3, 524.28 },
  { 321.098, 78393.1, 408.12 },    { 0, 0, 0 },
  { 1500.000, 1430.5, 5589.33 },   { 0.123, 0.1, 33333.33 },
  { 99999.999, 24414062.3, 1.31 }, { 12.345, 3013.9, 331.77 },
};

static void
build_report (dm_report *r, const char *comment)
{
  dm_settings s;
  dm_spec specs[4];

  dm_settings_init (&s);
  for (int i = 0; i < 4; i++)
    DM_CHECK_INT (dm_spec_parse (spec_names[i], &specs[i], NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (r, &s, specs, 4, DM_MODES_ALL), ==, 0);
  DM_CHECK_INT (r->n_results, ==, N_RESULTS);

  r->status = DM_STATUS_CANCELLED;
  snprintf (r->backend, sizeof r->backend, "io_uring");
  snprintf (r->profile, sizeof r->profile, "default");
  snprintf (r->comment, sizeof r->comment, "%s", comment);
  snprintf (r->test_file, sizeof r->test_file, "/mnt/data/diskmeter-Ab12Cd.tmp");
  r->started = 1700000000;
  r->finished = 1700000300;
  snprintf (r->target.path, sizeof r->target.path, "/mnt/data");
  snprintf (r->target.mount_point, sizeof r->target.mount_point, "/mnt/data");
  snprintf (r->target.filesystem, sizeof r->target.filesystem, "ext4");
  snprintf (r->target.device, sizeof r->target.device, "/dev/nvme0n1p1");
  snprintf (r->target.model, sizeof r->target.model, "Samsung SSD 980 1TB");
  snprintf (r->target.driver, sizeof r->target.driver, "nvme");
  r->target.size_bytes = 100ull << 30;
  r->target.free_bytes = 50ull << 30;
  r->target.sector_size = 512;
  snprintf (r->system.os, sizeof r->system.os, "Debian GNU/Linux 12 (bookworm)");
  snprintf (r->system.kernel, sizeof r->system.kernel, "Linux 6.1.0-18-amd64 x86_64");
  snprintf (r->system.cpu_model, sizeof r->system.cpu_model, "AMD EPYC 7763 64-Core Processor");
  r->system.logical_cpus = 8;
  r->system.memory_bytes = 32ull << 30;

  for (unsigned i = 0; i < r->n_results && i < N_RESULTS; i++)
    {
      dm_result *res = &r->results[i];
      double lat = figures[i].lat;
      res->status = DM_STATUS_COMPLETE;
      res->mb_per_s = figures[i].mb;
      res->iops = figures[i].iops;
      res->latency_us = lat;
      res->n_runs = 5;
      for (unsigned k = 0; k < res->n_runs; k++)
        {
          res->runs[k].bytes = (uint64_t) (figures[i].mb * 5e6) - k;
          res->runs[k].ios = (uint64_t) (figures[i].iops * 5) - k;
          res->runs[k].seconds = 5.0;
          res->runs[k].mb_per_s = figures[i].mb - k;
          res->runs[k].iops = figures[i].iops - k;
          res->runs[k].latency_us = lat + k;
        }
      res->mean_mb_per_s = figures[i].mb - 2;
      res->stdev_mb_per_s = 1.5;
      res->latency = (dm_latency) { lat * 0.5, lat, lat * 10, lat * 0.25,
                                    lat * 0.9, lat * 1.5, lat * 2, lat * 3, lat * 5 };
      res->latency_read = res->latency;
      res->latency_write = res->latency;
      res->cpu_percent = 3.25 + i;
      res->cpu_us_per_io = 1.5;
    }
  /* A failed test, a cancelled one, and figures that are not numbers:
   * none of them may break a format. */
  r->results[7].status = DM_STATUS_FAILED;
  r->results[7].n_runs = 0;
  snprintf (r->results[7].error, sizeof r->results[7].error, "I/O error at offset 4096");
  r->results[11].status = DM_STATUS_CANCELLED;
  r->results[11].n_runs = 2;
  r->results[3].cpu_percent = NAN;
  r->results[2].stdev_mb_per_s = INFINITY;
}
