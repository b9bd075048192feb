/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel's own record of each request at the disks under a target:
 * when it was issued to the device and when it completed, where and how
 * large, read or write. Linux reads the block layer's tracepoints through
 * a private tracefs instance; an OS that keeps no such record (Windows,
 * whose disk counters are all it has) answers -ENOSYS, and the capture
 * then works from dm_device_watch's counters alone. The engine turns the
 * events into histograms (engine/dm-capture.c); nothing here is a figure.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "dm-platform.h"

enum { DM_CAPTURE_ISSUE = 0, DM_CAPTURE_COMPLETE = 1 };
enum { DM_CAPTURE_OP_READ = 0, DM_CAPTURE_OP_WRITE = 1, DM_CAPTURE_OP_OTHER = 2 };

/* One request event, as the kernel stamped it. */
typedef struct dm_capture_event {
  uint64_t t_ns;    /* dm_clock_ns's clock (CLOCK_MONOTONIC) */
  uint64_t sector;  /* first 512-byte sector on the disk */
  uint32_t bytes;   /* issued, or completed by this event */
  uint8_t  what;    /* DM_CAPTURE_ISSUE, DM_CAPTURE_COMPLETE */
  uint8_t  op;      /* DM_CAPTURE_OP_*: flushes and discards are OTHER */
  uint8_t  disk;    /* which of the disks under the target */
  uint8_t  pad;
} dm_capture_event;

typedef struct dm_capture_source dm_capture_source;

/* What a capture needs to know of a folder or device, found without a
 * request to the disk: dm_target_probe may read a filesystem's label
 * from the superblock, which the capture would then see as load of its
 * own. Fills path, device, filesystem and is_block_device; -ENOENT... */
int  dm_capture_target (const char *path, dm_target_info *info);

/* Starts recording the requests of the disks dm_device_watch_open counts
 * for target (a partition's disk, the disks under dm and md). 0; -EPERM
 * or -EACCES without the privilege (root or CAP_SYS_ADMIN on Linux);
 * -ENOSYS where the OS keeps no such record; -ENODEV for a target with
 * no disk; always with a one-line reason in why. */
int  dm_capture_source_open (const dm_target_info *target, dm_capture_source **out, char *why,
                             size_t why_size);
/* Waits up to timeout_ns for events, then hands over those recorded so
 * far, at most max, in no particular order across CPUs. *complete_before
 * is a time before which every event has now been handed over, so the
 * caller may order and use them up to there. 0 or -errno. */
int  dm_capture_source_read (dm_capture_source *s, uint64_t timeout_ns, dm_capture_event *ev,
                             size_t max, size_t *n, uint64_t *complete_before);
/* Events the kernel had to drop because its buffer was full. */
uint64_t dm_capture_source_lost (dm_capture_source *s);
/* Stops recording and removes everything open made (the trace instance,
 * a tracefs mount it made). Safe on NULL. */
void dm_capture_source_close (dm_capture_source *s);
