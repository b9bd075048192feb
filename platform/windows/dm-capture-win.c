/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Windows keeps no per-request record of its disks that a program can read
 * without a kernel driver or an ETW session of its own; what it keeps are
 * the disk's counters (IOCTL_DISK_PERFORMANCE, dm_device_watch), from
 * which the capture then takes its means. So the event source says so.
 */
#include "dm-capture-source.h"

#include <errno.h>
#include <stdio.h>

/* Windows' probe asks the volume, never reads its sectors. */
int
dm_capture_target (const char *path, dm_target_info *info)
{
  return dm_target_probe (path, info);
}

int
dm_capture_source_open (const dm_target_info *target, dm_capture_source **out, char *why,
                        size_t why_size)
{
  (void) target;
  *out = NULL;
  snprintf (why, why_size, "Windows keeps no per-request events Diskmeter reads; the disk's "
                           "counters are used");
  return -ENOSYS;
}

int
dm_capture_source_read (dm_capture_source *s, uint64_t timeout_ns, dm_capture_event *ev,
                        size_t max, size_t *n, uint64_t *complete_before)
{
  (void) s, (void) timeout_ns, (void) ev, (void) max;
  *n = 0;
  *complete_before = 0;
  return -ENOSYS;
}

uint64_t
dm_capture_source_lost (dm_capture_source *s)
{
  (void) s;
  return 0;
}

void
dm_capture_source_close (dm_capture_source *s)
{
  (void) s;
}
