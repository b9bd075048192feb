/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * slow-fs's --read-cache (see slow-fs-read-cache.h): a bitmap of the 4 KiB
 * blocks held per file and a count of the bytes held, under one lock.
 */
#include "slow-fs-read-cache.h"

#include <pthread.h>
#include <string.h>

#define RC_FILES  16                    /* slow-fs's MAX_FILES */
#define RC_BLOCK  4096u
#define RC_BLOCKS ((512ull << 20) / RC_BLOCK) /* slow-fs's MAX_BYTES */

static struct {
  pthread_mutex_t lock;
  uint64_t        cap;       /* bytes a file may have held */
  long            cache_ns;
  uint64_t        held[RC_FILES];
  uint8_t         bits[RC_FILES][RC_BLOCKS / 8];
} rc = { .lock = PTHREAD_MUTEX_INITIALIZER };

void
slow_read_cache_init (uint64_t bytes, long cache_ns)
{
  rc.cap = bytes;
  rc.cache_ns = cache_ns;
}

bool
slow_read_cache_on (void)
{
  return rc.cap > 0;
}

/* Holds the blocks of the range while there is room; the share of them
 * held before. Under rc.lock. */
static double
touch (unsigned fh, uint64_t off, uint64_t len)
{
  uint64_t first = off / RC_BLOCK, end = (off + len + RC_BLOCK - 1) / RC_BLOCK, had = 0;
  if (fh >= RC_FILES || !len)
    return 0;
  if (end > RC_BLOCKS)
    end = RC_BLOCKS;
  if (first >= end)
    return 0;
  for (uint64_t b = first; b < end; b++)
    {
      uint8_t *byte = &rc.bits[fh][b / 8], bit = (uint8_t) (1u << (b % 8));
      if (*byte & bit)
        had++;
      else if (rc.held[fh] + RC_BLOCK <= rc.cap)
        {
          *byte |= bit;
          rc.held[fh] += RC_BLOCK;
        }
    }
  return (double) had / (double) (end - first);
}

long
slow_read_cache_read (unsigned fh, uint64_t off, uint64_t len, long service_ns)
{
  pthread_mutex_lock (&rc.lock);
  double share = touch (fh, off, len);
  pthread_mutex_unlock (&rc.lock);
  return (long) (share * (double) rc.cache_ns + (1 - share) * (double) service_ns + 0.5);
}

void
slow_read_cache_write (unsigned fh, uint64_t off, uint64_t len)
{
  pthread_mutex_lock (&rc.lock);
  touch (fh, off, len);
  pthread_mutex_unlock (&rc.lock);
}

void
slow_read_cache_forget (unsigned fh)
{
  if (fh >= RC_FILES)
    return;
  pthread_mutex_lock (&rc.lock);
  rc.held[fh] = 0;
  memset (rc.bits[fh], 0, sizeof rc.bits[fh]);
  pthread_mutex_unlock (&rc.lock);
}
