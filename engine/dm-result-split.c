/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads and writes apart, from what a result already holds: its timeline
 * (bytes per direction) and its histograms (I/Os per direction).
 */
#include "dm-result-split.h"

#include <string.h>

/* Bytes moved each way over the timeline, in MB (rate x length summed). */
static bool
timeline_bytes (const dm_result *res, double *read_mb, double *write_mb)
{
  double prev = 0;
  *read_mb = *write_mb = 0;
  for (unsigned k = 0; k < res->n_samples; k++)
    {
      const dm_sample *s = &res->samples[k];
      double len = s->t - prev;
      prev = s->t;
      if (len <= 0)
        continue;
      *read_mb += s->read.mb_per_s * len;
      *write_mb += s->write.mb_per_s * len;
    }
  return *read_mb + *write_mb > 0;
}

static bool
one_size (const dm_result *res)
{
  return !res->shaped || res->workload.n_sizes <= 1;
}

bool
dm_result_split_of (const dm_result *res, dm_result_split *out)
{
  memset (out, 0, sizeof *out);
  if (!res->n_runs || !(res->mb_per_s > 0 || res->iops > 0))
    return false;
  if (res->read_percent == 100 || res->read_percent == 0)
    {
      if (res->read_percent == 100)
        {
          out->read_share = 1;
          out->read_mb_per_s = res->mb_per_s;
          out->read_iops = res->iops;
        }
      else
        {
          out->write_mb_per_s = res->mb_per_s;
          out->write_iops = res->iops;
        }
      return true;
    }
  double rd_mb, wr_mb, byte_share = -1, io_share = -1;
  if (timeline_bytes (res, &rd_mb, &wr_mb))
    byte_share = rd_mb / (rd_mb + wr_mb);
  uint64_t rd = res->hist_read ? res->hist_read->count : 0;
  uint64_t wr = res->hist_write ? res->hist_write->count : 0;
  if (rd + wr)
    io_share = (double) rd / (double) (rd + wr);
  else if (res->n_samples)
    {
      /* I/Os from the timeline, as the bytes are. */
      double prev = 0, r_ios = 0, w_ios = 0;
      for (unsigned k = 0; k < res->n_samples; k++)
        {
          double len = res->samples[k].t - prev;
          prev = res->samples[k].t;
          r_ios += res->samples[k].read.iops * len;
          w_ios += res->samples[k].write.iops * len;
        }
      if (r_ios + w_ios > 0)
        io_share = r_ios / (r_ios + w_ios);
    }
  /* One block size: a share of the I/Os is the same share of the bytes. */
  if (byte_share < 0 && one_size (res))
    byte_share = io_share;
  if (io_share < 0 && one_size (res))
    io_share = byte_share;
  if (byte_share < 0 || io_share < 0)
    return false;
  out->read_share = io_share;
  out->read_mb_per_s = res->mb_per_s * byte_share;
  out->write_mb_per_s = res->mb_per_s - out->read_mb_per_s;
  out->read_iops = res->iops * io_share;
  out->write_iops = res->iops - out->read_iops;
  return true;
}
