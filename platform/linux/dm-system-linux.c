/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts about the machine and the target on Linux, read from /proc and
 * /sys: what a storage administrator needs to tell one run from another
 * (filesystem, device, model, and the controller's driver, which is what
 * tells an LSI Logic disk from a paravirtual or NVMe one in a VM).
 */
#include "dm-platform.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Reads the first line of a small file, without the newline and trailing
 * blanks (SCSI vendor strings are space padded). */
static int
read_line (const char *path, char *buf, size_t size)
{
  FILE *f = fopen (path, "re");
  if (!f)
    return -errno;
  if (!fgets (buf, (int) size, f))
    buf[0] = '\0';
  fclose (f);
  size_t n = strlen (buf);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
    buf[--n] = '\0';
  return 0;
}

static void
copy (char *dst, size_t size, const char *src)
{
  snprintf (dst, size, "%s", src ? src : "");
}

int
dm_system_info_get (dm_system_info *info)
{
  struct utsname u;
  char line[512];
  FILE *f;

  memset (info, 0, sizeof *info);
  copy (info->os, sizeof info->os, "Linux");
  if ((f = fopen ("/etc/os-release", "re")))
    {
      while (fgets (line, sizeof line, f))
        if (!strncmp (line, "PRETTY_NAME=", 12))
          {
            char *v = line + 12;
            size_t n = strcspn (v, "\n");
            v[n] = '\0';
            if (*v == '"')
              {
                v++;
                v[strcspn (v, "\"")] = '\0';
              }
            copy (info->os, sizeof info->os, v);
          }
      fclose (f);
    }
  if (uname (&u) == 0)
    snprintf (info->kernel, sizeof info->kernel, "%s %s %s", u.sysname, u.release, u.machine);
  if ((f = fopen ("/proc/cpuinfo", "re")))
    {
      while (fgets (line, sizeof line, f))
        if (!strncmp (line, "model name", 10) && strchr (line, ':'))
          {
            char *v = strchr (line, ':') + 1;
            while (*v == ' ')
              v++;
            v[strcspn (v, "\n")] = '\0';
            copy (info->cpu_model, sizeof info->cpu_model, v);
            break;
          }
      fclose (f);
    }
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  info->logical_cpus = n > 0 ? (unsigned) n : 1;
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    info->memory_bytes = (uint64_t) pages * (uint64_t) page;
  return 0;
}

/* The whole-disk sysfs folder for a device number: a partition's parent. */
static int
disk_sysfs (dev_t dev, char *out, size_t size)
{
  char link[128], real[PATH_MAX], tmp[PATH_MAX + 16];
  struct stat st;
  snprintf (link, sizeof link, "/sys/dev/block/%u:%u", major (dev), minor (dev));
  if (!realpath (link, real))
    return -errno;
  snprintf (tmp, sizeof tmp, "%s/partition", real);
  if (stat (tmp, &st) == 0)
    *strrchr (real, '/') = '\0';
  snprintf (out, size, "%s", real);
  return 0;
}

/* Model and controller driver of the disk under a block device. */
static void
describe_disk (dev_t dev, dm_target_info *info)
{
  char sys[PATH_MAX], path[PATH_MAX + 64], vendor[64] = "", model[128] = "", real[PATH_MAX];
  if (disk_sysfs (dev, sys, sizeof sys) < 0)
    return;
  const char *name = strrchr (sys, '/') + 1;

  snprintf (path, sizeof path, "%s/device/vendor", sys);
  read_line (path, vendor, sizeof vendor);
  snprintf (path, sizeof path, "%s/device/model", sys);
  read_line (path, model, sizeof model);
  if (!strncmp (name, "loop", 4))
    {
      char backing[PATH_MAX] = "";
      snprintf (path, sizeof path, "%s/loop/backing_file", sys);
      read_line (path, backing, sizeof backing);
      snprintf (info->model, sizeof info->model, "loop device over %s", backing);
      copy (info->driver, sizeof info->driver, "loop");
    }
  else if (model[0])
    snprintf (info->model, sizeof info->model, "%s%s%s", vendor, vendor[0] ? " " : "", model);

  if (info->driver[0])
    return;
  /* SCSI disks: the host adapter's driver (mptspi, mptsas, vmw_pvscsi,
   * megaraid_sas, virtio_scsi...) is what an administrator compares. */
  snprintf (path, sizeof path, "%s/device", sys);
  if (realpath (path, real))
    {
      char *host = strstr (real, "/host");
      if (host)
        {
          unsigned h;
          if (sscanf (host, "/host%u", &h) == 1)
            {
              snprintf (path, sizeof path, "/sys/class/scsi_host/host%u/proc_name", h);
              if (read_line (path, info->driver, sizeof info->driver) == 0 && info->driver[0])
                return;
            }
        }
    }
  snprintf (path, sizeof path, "%s/device/driver", sys);
  if (realpath (path, real))
    copy (info->driver, sizeof info->driver, strrchr (real, '/') + 1);
  else if (!strncmp (name, "nvme", 4))
    copy (info->driver, sizeof info->driver, "nvme");
  else if (!strncmp (name, "dm-", 3))
    copy (info->driver, sizeof info->driver, "device-mapper");
  else if (!strncmp (name, "vd", 2))
    copy (info->driver, sizeof info->driver, "virtio_blk");
  /* NVMe namespaces hang below the controller, one level further up. */
  if (!info->driver[0] || !strcmp (info->driver, "nvme"))
    {
      snprintf (path, sizeof path, "%s/device/device/driver", sys);
      if (realpath (path, real))
        copy (info->driver, sizeof info->driver, strrchr (real, '/') + 1);
    }
}

/* Unescapes the octal \040 style of /proc/self/mountinfo in place. */
static void
unescape (char *s)
{
  char *o = s;
  for (; *s; s++)
    {
      if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3])
        {
          *o++ = (char) ((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
          s += 3;
        }
      else
        *o++ = *s;
    }
  *o = '\0';
}

typedef struct mount_entry {
  unsigned maj, min;
  char     point[1024];
  char     fstype[32];
  char     source[256];
  bool     ro;
} mount_entry;

/* Iterates /proc/self/mountinfo; fn returns non-zero to stop. */
static int
each_mount (int (*fn) (const mount_entry *m, void *user), void *user)
{
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  char line[4096];
  if (!f)
    return -errno;
  while (fgets (line, sizeof line, f))
    {
      mount_entry m = { 0 };
      char point[1024], opts[256], *sep;
      if (sscanf (line, "%*u %*u %u:%u %*s %1023s %255s", &m.maj, &m.min, point, opts) != 4)
        continue;
      if (!(sep = strstr (line, " - ")))
        continue;
      if (sscanf (sep + 3, "%31s %255s", m.fstype, m.source) < 1)
        continue;
      unescape (point);
      unescape (m.source);
      copy (m.point, sizeof m.point, point);
      m.ro = !strncmp (opts, "ro", 2) && (opts[2] == ',' || opts[2] == '\0');
      if (fn (&m, user))
        break;
    }
  fclose (f);
  return 0;
}

typedef struct find_mount {
  dev_t       dev;
  const char *path;
  mount_entry best;
  size_t      best_len;
} find_mount;

static int
match_mount (const mount_entry *m, void *user)
{
  find_mount *fm = user;
  size_t n = strlen (m->point);
  if (makedev (m->maj, m->min) != fm->dev)
    return 0;
  if (strncmp (fm->path, m->point, n) != 0
      || (fm->path[n] != '/' && fm->path[n] != '\0' && strcmp (m->point, "/") != 0))
    return 0;
  if (n >= fm->best_len)
    {
      fm->best = *m;
      fm->best_len = n;
    }
  return 0;
}

int
dm_target_probe (const char *path, dm_target_info *info)
{
  struct stat st;
  char real[PATH_MAX];

  memset (info, 0, sizeof *info);
  copy (info->path, sizeof info->path, path);
  if (stat (path, &st) < 0)
    return -errno;

  if (S_ISBLK (st.st_mode))
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0)
        return -errno;
      uint64_t bytes = 0;
      int ssz = 512;
      ioctl (fd, BLKGETSIZE64, &bytes);
      ioctl (fd, BLKSSZGET, &ssz);
      int ro = 0;
      ioctl (fd, BLKROGET, &ro);
      close (fd);
      info->is_block_device = true;
      info->size_bytes = bytes;
      info->free_bytes = bytes;
      info->sector_size = (uint32_t) ssz;
      info->read_only = ro != 0;
      copy (info->device, sizeof info->device, realpath (path, real) ? real : path);
      describe_disk (st.st_rdev, info);
      return 0;
    }
  if (!S_ISDIR (st.st_mode))
    return -ENOTDIR;

  struct statvfs vfs;
  if (statvfs (path, &vfs) == 0)
    {
      info->size_bytes = (uint64_t) vfs.f_blocks * vfs.f_frsize;
      info->free_bytes = (uint64_t) vfs.f_bavail * vfs.f_frsize;
      info->read_only = (vfs.f_flag & ST_RDONLY) != 0;
    }
  find_mount fm = { st.st_dev, realpath (path, real) ? real : path, { 0 }, 0 };
  each_mount (match_mount, &fm);
  if (fm.best_len)
    {
      copy (info->mount_point, sizeof info->mount_point, fm.best.point);
      copy (info->filesystem, sizeof info->filesystem, fm.best.fstype);
      copy (info->device, sizeof info->device, fm.best.source);
      if (fm.best.ro)
        info->read_only = true;
    }
  /* The sector size of the disk below the filesystem decides O_DIRECT's
   * alignment; 4096 covers 512e and 4Kn disks alike. */
  info->sector_size = 4096;
  if (major (st.st_dev) != 0)
    describe_disk (st.st_dev, info);
  else if (info->filesystem[0])
    copy (info->driver, sizeof info->driver, info->filesystem);
  return 0;
}

static bool
pseudo_fs (const char *t)
{
  static const char *const skip[] = {
    "proc", "sysfs", "devtmpfs", "devpts", "tmpfs", "cgroup", "cgroup2", "pstore", "bpf",
    "securityfs", "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs",
    "autofs", "binfmt_misc", "rpc_pipefs", "nsfs", "efivarfs", "squashfs", "ramfs",
    "fuse.gvfsd-fuse", "fuse.portal", "overlay",
  };
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (!strcmp (t, skip[i]))
      return true;
  return false;
}

typedef struct list_state {
  dm_target_info *items;
  unsigned        n, cap;
  int             err;
} list_state;

static int
add_mount (const mount_entry *m, void *user)
{
  list_state *ls = user;
  if (pseudo_fs (m->fstype) || !strncmp (m->point, "/proc", 5) || !strncmp (m->point, "/sys", 4)
      || !strncmp (m->point, "/run", 4) || !strncmp (m->point, "/snap/", 6)
      || !strncmp (m->point, "/boot/efi", 9))
    return 0;
  /* A filesystem mounted twice (bind mounts) is listed once. */
  for (unsigned i = 0; i < ls->n; i++)
    if (!strcmp (ls->items[i].device, m->source) && m->source[0] == '/')
      return 0;
  if (ls->n == ls->cap)
    {
      unsigned cap = ls->cap ? ls->cap * 2 : 16;
      dm_target_info *items = realloc (ls->items, cap * sizeof *items);
      if (!items)
        {
          ls->err = -ENOMEM;
          return 1;
        }
      ls->items = items;
      ls->cap = cap;
    }
  if (dm_target_probe (m->point, &ls->items[ls->n]) == 0)
    ls->n++;
  return 0;
}

int
dm_target_list (dm_target_info **out, unsigned *n)
{
  list_state ls = { 0 };
  int err = each_mount (add_mount, &ls);
  if (err < 0 || ls.err < 0)
    {
      free (ls.items);
      return err < 0 ? err : ls.err;
    }
  *out = ls.items;
  *n = ls.n;
  return 0;
}

void
dm_target_list_free (dm_target_info *list)
{
  free (list);
}
