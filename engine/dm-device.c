/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns two readings of the device's counters into what a report shows:
 * bytes and requests, the mean request size, the mean queue (iostat's
 * aqu-sz: time requests spent at the device over the span) and the busy
 * share, and judges them against what Diskmeter itself counted.
 */
#include "dm-device.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Below this share of the counted bytes, something other than the device
 * served the I/O: the page cache, a filesystem's own cache (ZFS ARC,
 * ntfs-3g), or a buffered run. Writes can only add (journal, metadata). */
#define CACHE_SHARE 0.90
/* A device that held less than half the asked queue was kept waiting by
 * this machine: the figure measures the host, not the disk. */
#define HOST_SHARE  0.50

static const char *const flag_names[DM_N_DEVICE_FLAGS] = { "cache_suspected", "host_bound",
                                                             "queue_not_held" };

static uint64_t
delta (uint64_t a, uint64_t b)
{
  /* A counter that went backwards (a device reset, a wrap) gives 0, not
   * an absurd figure. */
  return b >= a ? b - a : 0;
}

double
dm_device_seen_avg_request (const dm_device_seen *seen)
{
  uint64_t n = seen->reads + seen->writes;
  return n ? (double) (seen->read_bytes + seen->write_bytes) / (double) n : 0;
}

double
dm_device_seen_ios_at_device (const dm_device_seen *seen, const dm_device_ask *ask)
{
  /* The request size of the test's own direction: the disk is shared, and
   * another program's writes during a read test are not our requests. */
  uint64_t bytes = seen->read_bytes + seen->write_bytes, n = seen->reads + seen->writes;
  if (ask->read_percent == 100)
    bytes = seen->read_bytes, n = seen->reads;
  else if (ask->read_percent == 0)
    bytes = seen->write_bytes, n = seen->writes;
  double request = n ? (double) bytes / (double) n : 0;
  return request > 0 && ask->block_size ? seen->avg_queue * request / ask->block_size : 0;
}

/* The share of the bytes Diskmeter counted that reached the device, in the
 * direction that fell shortest: a cache serves reads, or holds writes. */
static double
share_reached (const dm_device_seen *seen, const dm_device_ask *ask)
{
  double counted = (double) seen->counted_bytes, share = 1e9;
  double want_read = counted * ask->read_percent / 100, want_write = counted - want_read;
  if (want_read > 0)
    share = (double) seen->read_bytes / want_read;
  if (want_write > 0 && (double) seen->write_bytes / want_write < share)
    share = (double) seen->write_bytes / want_write;
  return share;
}

/* The queue the device could have held: Q x T, but no more than the
 * requests its queue takes (nr_requests), or a Q x T beyond it would count
 * against the host. */
static double
asked_queue (const dm_device_seen *seen, const dm_device_ask *ask)
{
  double asked = (double) ask->queue_depth * ask->threads;
  if (seen->queue_limit && seen->queue_limit < asked)
    asked = seen->queue_limit;
  return asked;
}

unsigned
dm_device_seen_flags (const dm_device_seen *seen, const dm_device_ask *ask)
{
  unsigned flags = 0;
  /* The system's own count needs no device counters: Wine, a network
   * share or a drive without them still says what queue it kept. */
  if (seen->os_counted
      && seen->os_queue < HOST_SHARE * ask->queue_depth * ask->threads)
    flags |= DM_FLAG_QUEUE_NOT_HELD;
  if (!seen->counted || !seen->counted_bytes)
    return flags;
  if (share_reached (seen, ask) < CACHE_SHARE)
    flags |= DM_FLAG_CACHE_SUSPECTED;
  /* A device that saw almost nothing of the I/O held no queue either; the
   * cache is the story then, not the host. */
  else if (dm_device_seen_ios_at_device (seen, ask) < HOST_SHARE * asked_queue (seen, ask))
    flags |= DM_FLAG_HOST_BOUND;
  return flags;
}

void
dm_device_seen_set (dm_device_seen *seen, const char *name, const dm_device_counters *before,
                    const dm_device_counters *after, double seconds, uint64_t counted_bytes,
                    const dm_device_ask *ask)
{
  memset (seen, 0, sizeof *seen);
  if (seconds <= 0)
    return;
  seen->counted = true;
  snprintf (seen->name, sizeof seen->name, "%s", name);
  seen->reads = delta (before->reads, after->reads);
  seen->writes = delta (before->writes, after->writes);
  seen->read_bytes = delta (before->read_bytes, after->read_bytes);
  seen->write_bytes = delta (before->write_bytes, after->write_bytes);
  seen->seconds = seconds;
  seen->counted_bytes = counted_bytes;
  seen->queue_limit = after->queue_limit;
  seen->avg_queue = (double) delta (before->queue_ns, after->queue_ns) / 1e9 / seconds;
  unsigned members = after->members ? after->members : 1;
  seen->busy_percent = (double) delta (before->busy_ns, after->busy_ns) / 1e9 / seconds
                       / members * 100;
  /* Counters tick in milliseconds: a span a tick short reads over 100 %. */
  if (seen->busy_percent > 100)
    seen->busy_percent = 100;
  seen->flags = dm_device_seen_flags (seen, ask);
  /* Per request the device completed in each direction, as iostat's
   * r_await = (read ticks delta) / (reads delta) over the same span. A
   * time that went backwards (Linux prints its milliseconds in 32 bits,
   * which wrap after 49 days of a direction's time) is not counted, since
   * a 0 would read as a device that took no time. */
  if (before->timed && after->timed)
    {
      uint64_t n[2] = { seen->reads, seen->writes };
      uint64_t ns[2] = { delta (before->read_ns, after->read_ns),
                         delta (before->write_ns, after->write_ns) };
      bool back[2] = { after->read_ns < before->read_ns, after->write_ns < before->write_ns };
      for (unsigned d = 0; d < 2; d++)
        if (n[d] && !back[d])
          {
            seen->split[d].counted = true;
            seen->split[d].await_us = (double) ns[d] / 1e3 / (double) n[d];
          }
    }
}

void
dm_device_seen_set_guest (dm_device_seen *seen, const double mean_us[2], const uint64_t n[2])
{
  for (unsigned d = 0; d < 2; d++)
    {
      dm_device_split *s = &seen->split[d];
      s->guest_counted = seen->counted && s->counted && n[d] > 0;
      s->guest_us = s->guest_counted ? mean_us[d] - s->await_us : 0;
    }
}

const char *
dm_device_await_name (unsigned direction)
{
  return direction == DM_DEVICE_WRITE ? "w_await" : "r_await";
}

void
dm_device_split_explain (const dm_device_seen *seen, char *buf, size_t size)
{
  size_t len = 0;
  if (size)
    buf[0] = '\0';
  for (unsigned d = 0; d < 2 && len < size; d++)
    {
      const dm_device_split *s = &seen->split[d];
      if (!s->guest_counted)
        continue;
      int n = snprintf (buf + len, size - len,
                        "%s%s %.0f µs at the device (%s), %.0f µs above it in this machine",
                        len ? "; " : "", d == DM_DEVICE_READ ? "Reads" : len ? "writes" : "Writes",
                        s->await_us,
                        dm_device_await_name (d), s->guest_us);
      len = n > 0 ? len + (size_t) n : len;
    }
}

const char *
dm_device_flag_name (dm_device_flag flag)
{
  for (unsigned i = 0; i < DM_N_DEVICE_FLAGS; i++)
    if (flag == 1u << i)
      return flag_names[i];
  return "?";
}

int
dm_device_flag_parse (const char *name, dm_device_flag *flag)
{
  for (unsigned i = 0; i < DM_N_DEVICE_FLAGS; i++)
    if (!strcmp (name, flag_names[i]))
      {
        *flag = (dm_device_flag) (1u << i);
        return 0;
      }
  return -EINVAL;
}

void
dm_device_flag_explain (dm_device_flag flag, const dm_device_seen *seen, const dm_device_ask *ask,
                        char *buf, size_t size)
{
  if (flag == DM_FLAG_CACHE_SUSPECTED)
    snprintf (buf, size,
              "cache suspected: %s moved %.0f%% of the bytes measured; a cache, not the disk, "
              "served the rest",
              seen->name, share_reached (seen, ask) * 100);
  else if (flag == DM_FLAG_HOST_BOUND)
    snprintf (buf, size,
              "host bound: %s held %.1f of the %.0f I/Os asked on average; the rest of "
              "the time they were in this machine, not at the disk",
              seen->name, dm_device_seen_ios_at_device (seen, ask), asked_queue (seen, ask));
  else if (flag == DM_FLAG_QUEUE_NOT_HELD)
    snprintf (buf, size,
              "queue not held: the system held %.1f of the %u I/Os asked at once on average, "
              "so this is the figure of a shorter queue than asked",
              seen->os_queue, ask->queue_depth * ask->threads);
  else
    snprintf (buf, size, "?");
}
