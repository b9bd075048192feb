/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An LD_PRELOAD shim for tests/safety-race.sh: getrandom() returns zero
 * bytes, so the test file name Diskmeter picks is known in advance
 * (diskmeter-aaaaaa.tmp) and a test can plant a symlink or a file there
 * first. With DM_FIXED_GETRANDOM=N only the first N calls are fixed and
 * later ones reach the kernel, which lets a test see the next name chosen.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT; the build may define it already */
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

ssize_t
getrandom (void *buf, size_t len, unsigned int flags)
{
  static atomic_long calls;
  const char *limit = getenv ("DM_FIXED_GETRANDOM");
  long n = atomic_fetch_add (&calls, 1);

  if (limit && n >= atol (limit))
    return syscall (SYS_getrandom, buf, len, flags);
  memset (buf, 0, len);
  return (ssize_t) len;
}
