/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preparing the target. Every refusal happens before the first byte is
 * written, and the file is filled completely with data that differs per MiB
 * before anything is measured, so neither sparse reads, compression nor
 * deduplication can flatter a result.
 */
#include "dm-testfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm-rng.h"
#include "dm-text.h"
#include "dm-units.h"

/* One MiB per write: a cancel during the fill waits for at most one, even
 * on a slow device, and the data still differs per MiB. */
#define FILL_CHUNK (1u << 20)

/* The run's error, a sentence that may name the target: a long target is
 * shortened in the middle so that the reason, at the sentence's end,
 * always survives (dm_text_say). NULL where it names none. */
static int
fail (dm_report *r, int code, const char *target, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static int
fail (dm_report *r, int code, const char *target, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  dm_text_vsay (r->error, sizeof r->error, target, fmt, ap);
  va_end (ap);
  return code;
}

/* Every stale file is named, as far as the line has room for whole names:
 * the user decides which of them to delete. */
static void
note_stale (const char *path, uint64_t size, void *user)
{
  dm_report *r = user;
  char sz[32];
  size_t n = strlen (r->warning);
  dm_size_format (size, sz, sizeof sz);
  if (!n)
    dm_text_say (r->warning, sizeof r->warning, path,
                 "%s (%s) was left by an earlier run that crashed; it is not ours to delete", path,
                 sz);
  else if (n + (size_t) snprintf (NULL, 0, "; so was %s (%s)", path, sz) < sizeof r->warning)
    snprintf (r->warning + n, sizeof r->warning - n, "; so was %s (%s)", path, sz);
}

/* Rounds down to whole MiB, so every block size up to 8 MiB divides it
 * evenly for any thread count that fits. */
static uint64_t
usable_size (uint64_t size)
{
  return size & ~((1ull << 20) - 1);
}

int
dm_testfile_open (dm_testfile *tf, dm_report *r, const char *target, bool need_write)
{
  dm_settings *s = &r->settings;
  dm_file_options opt = { .direct = !s->buffered, .write_through = s->write_through };
  char need[32], have[32], room[32], total[32];
  int err;

  memset (tf, 0, sizeof *tf);
  err = dm_target_probe (target, &r->target);
  if (err == -ENOENT)
    return fail (r, err, target, "%s does not exist", target);
  if (err == -ENOTDIR)
    return fail (r, err, target, "%s is neither a folder nor a block device", target);
  if (err < 0)
    return fail (r, err, target, "cannot use %s: %s", target, dm_strerror (err));

  if (r->target.is_block_device)
    {
      /* A device holds someone's data. Reading is harmless; writing needs
       * the user to name this very device in --destroy-data-on. */
      if (need_write && strcmp (s->destroy_device, target) != 0
          && strcmp (s->destroy_device, r->target.device) != 0)
        return fail (r, -EPERM, target,
                     "writing to %s would destroy the data on it; run read tests only, "
                     "or pass --destroy-data-on %s to allow it", target, target);
      err = dm_file_open_device (target, need_write, &opt, &tf->file);
      if (err == DM_E_NODIRECT)
        return fail (r, err, target, "%s refuses unbuffered I/O (O_DIRECT)", target);
      if (err < 0)
        return fail (r, err, target, "cannot open %s: %s", target, dm_strerror (err));
      tf->size = usable_size (s->test_size < r->target.size_bytes ? s->test_size
                                                                  : r->target.size_bytes);
      if (tf->size < (1ull << 20))
        {
          dm_testfile_close (tf);
          return fail (r, -ENOSPC, target, "%s is too small to test", target);
        }
      tf->alignment = r->target.sector_size ? r->target.sector_size : 4096;
      dm_text_copy (r->test_file, sizeof r->test_file, target);
      return 0;
    }

  /* A folder reached through a link into the system's own folders is a
   * link the user may not know leads there (a test file in /etc, or in
   * C:\Windows); written out without the link, it is their choice. */
  const char *real = dm_target_resolved (&r->target);
  char sysdir[1024];
  if (real && dm_path_in_system_folder (real, sysdir, sizeof sysdir))
    return fail (r, -EPERM, real,
                 "%s leads to %s, inside the system folder %s; a test file there is refused "
                 "unless you give %s itself", target, real, sysdir, real);

  dm_stale_files (target, note_stale, r);

  if (r->target.read_only)
    return fail (r, -EROFS, target, "%s is on a read-only filesystem (%s)", target,
                 r->target.filesystem);

  /* Leave a little room beyond the file for the filesystem's own metadata.
   * Some filesystems (ramfs) report no size at all; there, running out is
   * caught when the space is reserved or written. */
  uint64_t margin = s->test_size / 64 + (16ull << 20);
  if (r->target.size_bytes && r->target.free_bytes < s->test_size + margin)
    {
      /* The room is said: a file smaller than what is free would
       * otherwise read as refused by mistake. */
      dm_size_format (s->test_size, need, sizeof need);
      dm_size_human (r->target.free_bytes, have, sizeof have);
      dm_size_human (margin, room, sizeof room);
      dm_size_human (s->test_size + margin, total, sizeof total);
      return fail (r, -ENOSPC, target,
                   "not enough free space in %s for a %s test file: with the %s kept free "
                   "for the filesystem's own use it needs %s, and %s is free",
                   target, need, room, total, have);
    }

  err = dm_file_create_temp (target, &opt, &tf->file, r->test_file, sizeof r->test_file);
  if (err == DM_E_NODIRECT)
    return fail (r, err, target,
                 "the %s filesystem at %s refuses unbuffered I/O (O_DIRECT); "
                 "--buffered runs anyway, with every result marked cached",
                 r->target.filesystem, target);
  if (err == -EACCES || err == -EPERM)
    return fail (r, err, target, "no permission to create a file in %s", target);
  if (err == -EROFS)
    return fail (r, err, target, "%s is on a read-only filesystem (%s)", target,
                 r->target.filesystem);
  if (err < 0)
    return fail (r, err, target, "cannot create a test file in %s: %s", target, dm_strerror (err));

  tf->size = usable_size (s->test_size);
  tf->alignment = r->target.sector_size ? r->target.sector_size : 4096;
  err = dm_file_reserve (tf->file, tf->size);
  if (err < 0)
    {
      dm_testfile_close (tf);
      dm_size_format (s->test_size, need, sizeof need);
      if (err == -ENOSPC)
        return fail (r, err, target, "not enough free space in %s for a %s test file", target,
                     need);
      return fail (r, err, target, "cannot reserve %s in %s: %s", need, target, dm_strerror (err));
    }
  return 0;
}

int
dm_testfile_fill (dm_testfile *tf, dm_report *r, atomic_int *cancel,
                  void (*progress) (void *user, double fraction), void *user)
{
  size_t chunk = tf->size < FILL_CHUNK ? (size_t) tf->size : FILL_CHUNK;
  void *buf = dm_alloc_io (chunk);
  uint64_t seed = (uint64_t) dm_clock_ns () ^ (uint64_t) r->started * 0x9e3779b97f4a7c15ull;
  int err = 0;

  if (!buf)
    return fail (r, -ENOMEM, NULL, "out of memory for a %llu byte buffer",
                 (unsigned long long) chunk);
  for (uint64_t off = 0; off < tf->size; off += chunk)
    {
      if (atomic_load_explicit (cancel, memory_order_relaxed))
        {
          err = -ECANCELED;
          break;
        }
      size_t len = tf->size - off < chunk ? (size_t) (tf->size - off) : chunk;
      if (r->settings.data == DM_DATA_RANDOM)
        {
          /* A fresh stream per MiB: no two MiB of the file are alike. */
          for (size_t mib = 0; mib < len; mib += 1u << 20)
            {
              dm_rng rng;
              dm_rng_seed (&rng, seed ^ ((off + mib) >> 20));
              dm_rng_fill (&rng, (char *) buf + mib, len - mib < (1u << 20) ? len - mib : 1u << 20);
            }
        }
      err = dm_file_write_at (tf->file, buf, len, off);
      if (err < 0)
        {
          char where[32];
          dm_size_format (off, where, sizeof where);
          fail (r, err, NULL, "writing the test file failed at %s: %s", where, dm_strerror (err));
          break;
        }
      r->prepare_bytes += len;
      if (progress)
        progress (user, (double) (off + len) / (double) tf->size);
    }
  /* The fill must be on the device, not in its write cache, before the
   * first measurement, or the first write test pays for it. */
  if (!err)
    {
      err = dm_file_sync (tf->file);
      if (err < 0)
        fail (r, err, NULL, "flushing the test file failed: %s", dm_strerror (err));
    }
  dm_free_io (buf, chunk);
  return err;
}

void
dm_testfile_close (dm_testfile *tf)
{
  dm_file_close (tf->file);
  tf->file = NULL;
}
