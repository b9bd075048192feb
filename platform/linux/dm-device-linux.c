/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The block device's own counters under a target, from /sys/block/DEV/stat:
 * what the kernel says reached the disk, so a report can tell a figure the
 * disk produced from one a cache or this machine produced. A partition is
 * counted on its disk, device-mapper and md devices on the disks below them.
 */
#include "dm-platform.h"
#include "dm-linux-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_MEMBERS 16

struct dm_device_watch {
  unsigned n;
  char     stat[MAX_MEMBERS][PATH_MAX]; /* /sys/.../stat of each counted disk */
};

static bool
is_dir (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

static void
add_member (dm_device_watch *w, const char *sys, char *name, size_t name_size)
{
  char stat_path[PATH_MAX];
  if (w->n == MAX_MEMBERS || snprintf (stat_path, sizeof stat_path, "%s/stat", sys) >= PATH_MAX)
    return;
  for (unsigned i = 0; i < w->n; i++)
    if (!strcmp (w->stat[i], stat_path))
      return;
  snprintf (w->stat[w->n++], PATH_MAX, "%s", stat_path);
  size_t len = strlen (name);
  snprintf (name + len, name_size - len, "%s%s", len ? "+" : "", strrchr (sys, '/') + 1);
}

/* Adds the disks that hold a sysfs block device: its own disk when it is a
 * partition, the disks under its slaves when it is stacked (dm, md), the
 * device itself otherwise. depth bounds a malformed loop of slaves. */
static void
collect (dm_device_watch *w, const char *sys, char *name, size_t name_size, int depth)
{
  char path[PATH_MAX], real[PATH_MAX];
  struct stat st;

  if (depth > 8 || !realpath (sys, real))
    return;
  if (snprintf (path, sizeof path, "%s/partition", real) < (int) sizeof path
      && stat (path, &st) == 0)
    {
      *strrchr (real, '/') = '\0';
      collect (w, real, name, name_size, depth + 1);
      return;
    }
  snprintf (path, sizeof path, "%s/slaves", real);
  DIR *d = is_dir (path) ? opendir (path) : NULL;
  bool stacked = false;
  for (struct dirent *e; d && (e = readdir (d));)
    {
      char slave[PATH_MAX + 300];
      if (e->d_name[0] == '.')
        continue;
      snprintf (slave, sizeof slave, "%s/%s", path, e->d_name);
      collect (w, slave, name, name_size, depth + 1);
      stacked = true;
    }
  if (d)
    closedir (d);
  if (!stacked)
    add_member (w, real, name, name_size);
}

/* The block device behind a folder. Filesystems with an anonymous device
 * number (btrfs) are found through the mount's source. */
static int
device_of (const dm_target_info *target, dev_t *dev)
{
  struct stat st;
  if (stat (target->path, &st) < 0)
    return -errno;
  if (S_ISBLK (st.st_mode))
    {
      *dev = st.st_rdev;
      return 0;
    }
  if (major (st.st_dev) != 0)
    {
      *dev = st.st_dev;
      return 0;
    }
  if (target->device[0] == '/' && stat (target->device, &st) == 0 && S_ISBLK (st.st_mode))
    {
      *dev = st.st_rdev;
      return 0;
    }
  return -ENODEV;
}

static void
no_device_reason (const dm_target_info *target, char *why, size_t why_size)
{
  static const char *const network[] = { "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph",
                                         "9p", "glusterfs", "afs", "lustre", "virtiofs" };
  const char *fs = target->filesystem[0] ? target->filesystem : "this filesystem";
  for (size_t i = 0; i < sizeof network / sizeof network[0]; i++)
    if (!strcmp (fs, network[i]))
      {
        snprintf (why, why_size, "%s is a network filesystem: no block device here to count", fs);
        return;
      }
  if (!strncmp (fs, "fuse", 4))
    snprintf (why, why_size, "%s is a FUSE filesystem: no block device to count", fs);
  else if (!strcmp (fs, "tmpfs") || !strcmp (fs, "ramfs"))
    snprintf (why, why_size, "%s lives in memory: no block device to count", fs);
  else
    snprintf (why, why_size, "%s has no block device under it to count", fs);
}

int
dm_device_watch_open (const dm_target_info *target, dm_device_watch **out, char *name,
                      size_t name_size, char *why, size_t why_size)
{
  char sys[64];
  dev_t dev;
  dm_device_watch *w;

  *out = NULL;
  name[0] = why[0] = '\0';
  if (device_of (target, &dev) < 0)
    {
      no_device_reason (target, why, why_size);
      return -ENODEV;
    }
  if (!(w = calloc (1, sizeof *w)))
    return -ENOMEM;
  snprintf (sys, sizeof sys, "/sys/dev/block/%u:%u", major (dev), minor (dev));
  collect (w, sys, name, name_size, 0);
  dm_device_counters probe;
  if (!w->n || dm_device_watch_read (w, &probe) < 0)
    {
      snprintf (why, why_size, "the kernel keeps no counters for device %u:%u", major (dev),
                minor (dev));
      free (w);
      return -ENODEV;
    }
  *out = w;
  return 0;
}

int
dm_device_watch_read (dm_device_watch *w, dm_device_counters *c)
{
  memset (c, 0, sizeof *c);
  for (unsigned i = 0; i < w->n; i++)
    {
      char line[512];
      unsigned long long f[11];
      int fd = open (w->stat[i], O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        return -errno;
      ssize_t got = read (fd, line, sizeof line - 1);
      close (fd);
      if (got <= 0)
        return -EIO;
      line[got] = '\0';
      /* reads, merged, sectors, ms; writes, merged, sectors, ms; in flight,
       * ms busy, ms weighted by the requests in flight. Sectors are 512
       * bytes whatever the device's own sector size. */
      if (sscanf (line, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
                  &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10]) != 11)
        return -EIO;
      c->reads += f[0];
      c->read_bytes += f[2] * 512;
      c->writes += f[4];
      c->write_bytes += f[6] * 512;
      /* Fields 4 and 8: milliseconds, but the kernel sums each request's
       * nanoseconds and only then divides, so over a measured span the
       * error is under a millisecond in all, not one per request. */
      c->read_ns += f[3] * 1000000ull;
      c->write_ns += f[7] * 1000000ull;
      c->timed = true;
      c->busy_ns += f[9] * 1000000ull;
      c->queue_ns += f[10] * 1000000ull;
      c->members++;
      /* The scheduler's depth: a queue the device cannot hold is no sign
       * of a slow host. Missing for devices without a request queue. */
      char q[PATH_MAX + 32], *slash;
      snprintf (q, sizeof q, "%s", w->stat[i]);
      if ((slash = strrchr (q, '/')))
        {
          unsigned long n = 0;
          FILE *f_q;
          strcpy (slash, "/queue/nr_requests");
          if ((f_q = fopen (q, "re")))
            {
              if (fscanf (f_q, "%lu", &n) == 1)
                c->queue_limit += (unsigned) n;
              fclose (f_q);
            }
        }
    }
  return 0;
}

void
dm_device_watch_close (dm_device_watch *w)
{
  free (w);
}

int
_dm_device_watch_disk (const dm_device_watch *w, unsigned i, char *dir, size_t size)
{
  if (i >= w->n)
    return -ENOENT;
  snprintf (dir, size, "%s", w->stat[i]);
  char *slash = strrchr (dir, '/');
  if (slash)
    *slash = '\0';
  return 0;
}
