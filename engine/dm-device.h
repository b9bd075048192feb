/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the block device under the target saw during a test's measured runs,
 * from the OS's own counters, and the flags that say when a figure came
 * from somewhere else than the disk: a cache that served the bytes, a
 * host that never kept the asked-for queue at the device, or a system that
 * never held it at all (the backend's own count, with or without counters).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dm-platform.h"

typedef enum {
  DM_FLAG_CACHE_SUSPECTED = 1u << 0, /* the device moved < 90 % of the bytes counted */
  DM_FLAG_HOST_BOUND      = 1u << 1, /* the device's mean queue stayed under half of Q×T */
  DM_FLAG_QUEUE_NOT_HELD  = 1u << 2, /* the system's own mean queue stayed under half of Q×T */
} dm_device_flag;
#define DM_N_DEVICE_FLAGS 3

/* One direction's latency, split where the device's own time ends: the
 * mean time a request spent at the device (iostat's r_await or w_await,
 * Performance Monitor's Avg. Disk sec/Read) and what is left of
 * Diskmeter's own mean latency above it: the time in this machine's stack.
 * In a VM the device is the disk the guest sees: the virtual controller,
 * the host and the array are in the await, and the part above it is the
 * guest's own. Diskmeter's I/O and the device's
 * request are related by Little's law, as dm_device_seen_ios_at_device
 * does: the I/Os at the device at once over Diskmeter's rate is the same
 * per-request await whether one I/O became two requests served side by
 * side or two I/Os were merged into one request; so the await is held
 * against Diskmeter's per-I/O mean as it is. Linux times a request from
 * when the block layer makes it, so its wait in the I/O scheduler counts
 * at the device, as in iostat. */
typedef struct dm_device_split {
  bool   counted;       /* the device timed this direction and completed requests in it */
  double await_us;      /* mean time of one request at the device */
  bool   guest_counted; /* counted, and Diskmeter measured I/Os in this direction */
  double guest_us;      /* Diskmeter's mean latency less await_us; < 0 only by noise */
} dm_device_split;

enum { DM_DEVICE_READ, DM_DEVICE_WRITE };

typedef struct dm_device_seen {
  bool     counted;       /* counters were read around the measured runs */
  char     name[64];      /* "vda", "sda+sdb" */
  uint64_t reads;         /* requests the device completed */
  uint64_t writes;
  uint64_t read_bytes;
  uint64_t write_bytes;
  double   seconds;       /* the span the counters cover */
  uint64_t counted_bytes; /* what Diskmeter counted over the same span */
  double   avg_queue;     /* mean requests at the device, as iostat's aqu-sz */
  double   busy_percent;  /* of the span, mean over the devices counted */
  unsigned queue_limit;   /* requests the device can hold at once, 0 unknown */
  unsigned flags;         /* dm_device_flag bits */
  /* Not the device's counters but the backend's: the I/Os the system held
   * in flight at once, on average over the measured time, summed over the
   * threads (JSON: the result's os_queue). A system that does each I/O in
   * the call that starts it holds one per thread, whatever Q was asked. */
  bool     os_counted;    /* the backend could tell (false: not counted) */
  double   os_queue;
  dm_device_split split[2]; /* DM_DEVICE_READ, DM_DEVICE_WRITE; counted needs counted above */
} dm_device_seen;

/* What the test asked of the device: the flags are judged against it. */
typedef struct dm_device_ask {
  uint32_t block_size;
  unsigned queue_depth;
  unsigned threads;
  unsigned read_percent; /* 100 read, 0 write, the Mix share */
} dm_device_ask;

/* Fills seen from two readings taken seconds apart, during which Diskmeter
 * counted counted_bytes, and sets its flags. */
void dm_device_seen_set (dm_device_seen *seen, const char *name,
                         const dm_device_counters *before, const dm_device_counters *after,
                         double seconds, uint64_t counted_bytes, const dm_device_ask *ask);
/* The part above the device, from Diskmeter's own mean latency of each
 * direction (mean_us) over n I/Os measured in it; a direction without
 * I/O, or whose await was not counted, has none. */
void dm_device_seen_set_guest (dm_device_seen *seen, const double mean_us[2],
                               const uint64_t n[2]);
/* "r_await" and "w_await" as iostat names them. */
const char *dm_device_await_name (unsigned direction);
/* One sentence for a tile's detail: each direction Diskmeter measured,
 * its await and the part above the device ("" when neither is counted).
 * In the caller's LC_NUMERIC, as dm_device_flag_explain is. */
void dm_device_split_explain (const dm_device_seen *seen, char *buf, size_t size);
/* The flags again, from figures already in seen (a loaded report). */
unsigned dm_device_seen_flags (const dm_device_seen *seen, const dm_device_ask *ask);
/* Diskmeter's I/Os at the device at once: the mean queue in requests,
 * scaled by how many requests one I/O became (a 1 MiB read split in two)
 * or how many I/Os one request held (merged neighbours). */
double dm_device_seen_ios_at_device (const dm_device_seen *seen, const dm_device_ask *ask);
double dm_device_seen_avg_request (const dm_device_seen *seen);

/* "cache_suspected", "host_bound", "queue_not_held": the names JSON and
 * CSV carry. */
const char *dm_device_flag_name (dm_device_flag flag);
int dm_device_flag_parse (const char *name, dm_device_flag *flag);
/* One sentence for a report line or a tile's detail view. */
void dm_device_flag_explain (dm_device_flag flag, const dm_device_seen *seen,
                             const dm_device_ask *ask, char *buf, size_t size);
