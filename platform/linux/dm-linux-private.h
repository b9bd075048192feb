/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Linux backends need to know about a dm_file.
 */
#pragma once

#include "dm-faults-private.h"
#include "dm-platform.h"

struct dm_file {
  int  fd;
  bool direct;
  bool nocow;  /* copy-on-write switched off before the first byte (btrfs) */
};

/* Opens a block device with open(2)'s flags; a read the kernel refuses
 * goes through udisks2's OpenForBenchmark where it runs (dm-udisks-linux.c).
 * A descriptor, or a negative errno code. */
int _dm_device_open (const char *device, int flags, bool writable);

/* The hypervisor, firmware and CPU topology of dm_system_info, read below
 * root ("" for the machine itself); CPUID only with cpuid true. */
void _dm_machine_facts_at (const char *root, bool cpuid, dm_system_info *info);

/* The first line of a small sysfs or procfs file, without its newline and
 * trailing blanks (SCSI vendor strings are space padded); 0 or -errno. */
int _dm_read_line (const char *path, char *buf, size_t size);

/* The sysfs folder of the ith disk a device watch counts (/sys/devices/
 * .../sda), for the capture's events of the same disks; -ENOENT past the
 * last. */
int _dm_device_watch_disk (const dm_device_watch *w, unsigned i, char *dir, size_t size);

/* One page of a tracefs ring buffer (trace_pipe_raw), as the header_page
 * format lays it out: commit_offset/commit_size where the page's used
 * length is, data_offset where events begin. fn gets each event's
 * payload and time; returns the events the page held. */
typedef struct dm_trace_page_layout {
  unsigned commit_offset, commit_size, data_offset;
} dm_trace_page_layout;
unsigned _dm_trace_page_parse (const dm_trace_page_layout *layout, const unsigned char *page,
                               size_t len,
                               void (*fn) (void *user, uint64_t ts, const unsigned char *data,
                                           size_t size),
                               void *user);
