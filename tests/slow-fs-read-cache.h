/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * slow-fs's --read-cache: a cache of a set size below the file system,
 * as a host's page cache is below a VM's disk. Per file, the first MIB
 * MiB of distinct 4 KiB blocks touched (written, or read while there is
 * room) are held, and never let go; a read is served at the cache's time
 * for the share of its blocks held, at the device's for the rest. Over a
 * working set written whole and then read at random, the cache serves
 * MIB / SET of the reads (every cache does, whatever it evicts: uniform
 * random reads hit any N of the set's blocks as often), so the truth of a
 * ladder is arithmetic. Apart from slow-fs.c, so that its other modes
 * stay as they are.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Sets the cache's size (0: none) and its service time per read. */
void slow_read_cache_init (uint64_t bytes, long cache_ns);
bool slow_read_cache_on (void);
/* A read of [off, off + len) of file fh: the service time it takes, from
 * the share of its blocks held before it; then its blocks are held while
 * there is room (a read fills a cache too). */
long slow_read_cache_read (unsigned fh, uint64_t off, uint64_t len, long service_ns);
/* A write: its blocks are held while there is room. */
void slow_read_cache_write (unsigned fh, uint64_t off, uint64_t len);
/* The file fh is gone: the cache forgets it. */
void slow_read_cache_forget (unsigned fh);
