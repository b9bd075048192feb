/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The backends Linux offers, best first: io_uring where the kernel (and a
 * container's seccomp policy) allows it, else the pread/pwrite pool.
 */
#include "config.h"
#include "dm-backend.h"

extern const dm_backend dm_backend_uring;
extern const dm_backend dm_backend_psync;

static const dm_backend *const backends[] = {
#ifdef DM_HAVE_URING
  &dm_backend_uring,
#endif
  &dm_backend_psync,
};

const dm_backend *const *
dm_backends (unsigned *n)
{
  *n = sizeof backends / sizeof backends[0];
  return backends;
}
