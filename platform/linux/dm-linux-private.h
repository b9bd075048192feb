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
