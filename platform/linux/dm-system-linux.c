/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts about the machine and the target on Linux, read from /proc and
 * /sys: what a storage administrator needs to tell one run from another
 * (filesystem, device, model, and the controller's driver, which is what
 * tells an LSI Logic disk from a paravirtual or NVMe one in a VM).
 */
#include "config.h"
#include "dm-linux-private.h"

#include <dirent.h>
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
#ifdef DM_HAVE_BLKID
#include <blkid.h>
#endif

int
_dm_read_line (const char *path, char *buf, size_t size)
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

static bool describe_disk_at (const char *root, const char *sys, dm_target_info *info);

int
dm_facts_probe_root (const char *root, const char *disk, dm_system_info *sys,
                     dm_target_info *target)
{
  char real_root[PATH_MAX], link[PATH_MAX + 300], real[PATH_MAX], part[PATH_MAX + 16];
  struct stat st;

  if (!realpath (root, real_root))
    return -errno;
  if (sys)
    {
      memset (sys, 0, sizeof *sys);
      _dm_machine_facts_at (real_root, false, sys);
      snprintf (link, sizeof link, "%s/sys/devices/system/cpu", real_root);
      DIR *d = opendir (link);
      for (struct dirent *e; d && (e = readdir (d));)
        {
          unsigned id;
          char extra;
          sys->logical_cpus += sscanf (e->d_name, "cpu%u%c", &id, &extra) == 1;
        }
      if (d)
        closedir (d);
    }
  if (target && disk)
    {
      memset (target, 0, sizeof *target);
      snprintf (link, sizeof link, "%s/sys/class/block/%s", real_root, disk);
      if (!realpath (link, real))
        return -errno;
      /* A partition is described by its disk, as dm_target_probe does. */
      snprintf (part, sizeof part, "%s/partition", real);
      if (stat (part, &st) == 0)
        *strrchr (real, '/') = '\0';
      describe_disk_at (real_root, real, target);
    }
  return 0;
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
  _dm_machine_facts_at ("", true, info);
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

/* Whether the disk under a block device is one a user unplugs: the
 * kernel's removable flag (card readers, most sticks) or a USB bus (USB
 * disks that call themselves fixed). */
static bool
disk_removable (const char *sys)
{
  char path[PATH_MAX + 32], v[8] = "";
  snprintf (path, sizeof path, "%s/removable", sys);
  return _dm_read_line (path, v, sizeof v) == 0 && v[0] == '1';
}

/* The bus a user recognises, from where the disk hangs in sysfs: a USB
 * stick's path runs through the USB controller, an ATA disk's through its
 * ataN port; other SCSI disks are named with their host adapter's driver. */
static void
describe_bus (const char *sys, const char *name, dm_target_info *info)
{
  char path[PATH_MAX + 32], real[PATH_MAX];
  const char *bus = "";
  char scsi[96];

  snprintf (path, sizeof path, "%s/device", sys);
  if (!realpath (path, real))
    copy (real, sizeof real, sys);
  if (strstr (real, "/usb"))
    bus = "USB";
  else if (!strncmp (name, "nvme", 4))
    bus = "NVMe";
  else if (!strncmp (name, "loop", 4))
    bus = "loop";
  else if (!strncmp (name, "dm-", 3))
    bus = "device-mapper";
  else if (!strncmp (name, "md", 2))
    bus = "md RAID";
  else if (!strncmp (name, "mmcblk", 6))
    bus = "SD/MMC";
  else if (!strncmp (name, "vd", 2) || !strcmp (info->driver, "virtio_blk"))
    bus = "virtio";
  else if (strstr (real, "/ata"))
    bus = "SATA";
  else if (strstr (real, "/host"))
    {
      snprintf (scsi, sizeof scsi, "SCSI%s%s%s", info->driver[0] ? " (" : "", info->driver,
                info->driver[0] ? ")" : "");
      bus = scsi;
    }
  else
    bus = info->driver;
  copy (info->bus, sizeof info->bus, bus);
}

/* A small number from a sysfs file, 0 where there is none. */
static unsigned
read_uint (const char *path)
{
  char v[32] = "";
  if (_dm_read_line (path, v, sizeof v) < 0)
    return 0;
  unsigned long n = strtoul (v, NULL, 10);
  return n > UINT_MAX ? UINT_MAX : (unsigned) n;
}

/* The SCSI host number in a disk's sysfs path (".../host2/target2:0:0/..."),
 * looked for below root only; -1 for a disk that is not SCSI. */
static int
scsi_host (const char *root, const char *sys)
{
  char path[PATH_MAX + 64], real[PATH_MAX];
  unsigned h;
  snprintf (path, sizeof path, "%s/device", sys);
  if (!realpath (path, real))
    return -1;
  const char *host = strstr (real + strlen (root), "/host");
  return host && sscanf (host, "/host%u", &h) == 1 ? (int) h : -1;
}

/* The queues the OS keeps for a disk: the LUN's queue_depth and its host
 * adapter's can_queue for SCSI (pvscsi, LSI Logic, storvsc, virtio_scsi,
 * ahci), the block layer's nr_requests per hardware queue and how many
 * hardware queues there are (NVMe, virtio: mq/0, mq/1...). */
static void
describe_queues (const char *root, const char *sys, dm_target_info *info)
{
  char path[PATH_MAX + 64];
  int host = scsi_host (root, sys);
  unsigned lun_depth;

  snprintf (path, sizeof path, "%s/device/queue_depth", sys);
  lun_depth = read_uint (path);
  if (host >= 0)
    {
      snprintf (path, sizeof path, "%s/sys/class/scsi_host/host%d/can_queue", root, host);
      info->host_queue = read_uint (path);
    }
  snprintf (path, sizeof path, "%s/queue/nr_requests", sys);
  info->nr_requests = read_uint (path);
  snprintf (path, sizeof path, "%s/queue/max_segments", sys);
  info->max_segments = read_uint (path);
  snprintf (path, sizeof path, "%s/mq", sys);
  DIR *d = opendir (path);
  for (struct dirent *e; d && (e = readdir (d));)
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
      info->hw_queues++;
  if (d)
    closedir (d);
  info->queue_depth = lun_depth ? lun_depth : info->nr_requests;
}

/* Model, controller driver and bus of the disk whose sysfs folder is sys
 * (a whole disk), with SCSI hosts looked up below root ("" for the real
 * /sys); true when a user unplugs that disk. */
static bool
describe_disk_at (const char *root, const char *sys, dm_target_info *info)
{
  char path[PATH_MAX + 64], vendor[64] = "", model[128] = "", real[PATH_MAX];
  const char *name = strrchr (sys, '/') + 1;

  snprintf (path, sizeof path, "%s/device/vendor", sys);
  _dm_read_line (path, vendor, sizeof vendor);
  snprintf (path, sizeof path, "%s/device/model", sys);
  _dm_read_line (path, model, sizeof model);
  if (!strncmp (name, "loop", 4))
    {
      char backing[PATH_MAX] = "";
      snprintf (path, sizeof path, "%s/loop/backing_file", sys);
      _dm_read_line (path, backing, sizeof backing);
      snprintf (info->model, sizeof info->model, "loop device over %s", backing);
      copy (info->driver, sizeof info->driver, "loop");
    }
  else if (model[0])
    snprintf (info->model, sizeof info->model, "%s%s%s", vendor, vendor[0] ? " " : "", model);

  describe_queues (root, sys, info);
  if (info->driver[0])
    goto out;
  /* SCSI disks: the host adapter's driver (mptspi, mptsas, vmw_pvscsi,
   * megaraid_sas, virtio_scsi...) is what an administrator compares. */
  int host = scsi_host (root, sys);
  if (host >= 0)
    {
      snprintf (path, sizeof path, "%s/sys/class/scsi_host/host%d/proc_name", root, host);
      if (_dm_read_line (path, info->driver, sizeof info->driver) == 0 && info->driver[0])
        goto out;
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
out:
  copy (info->controller, sizeof info->controller, dm_controller_name (info->driver));
  describe_bus (sys, name, info);
  return disk_removable (sys) || !strcmp (info->bus, "USB");
}

static bool
describe_disk (dev_t dev, dm_target_info *info)
{
  char sys[PATH_MAX];
  if (disk_sysfs (dev, sys, sizeof sys) < 0)
    return false;
  return describe_disk_at ("", sys, info);
}

/* Decodes udev's \xNN escapes (ID_FS_LABEL_ENC) in place. */
static void
unescape_udev (char *s)
{
  char *o = s;
  for (; *s; s++)
    {
      unsigned v;
      if (s[0] == '\\' && s[1] == 'x' && sscanf (s + 2, "%2x", &v) == 1)
        {
          *o++ = (char) v;
          s += 3;
        }
      else
        *o++ = *s;
    }
  *o = '\0';
}

/* The label and filesystem type on a block device. udev's database is
 * readable by every user and is what desktops show; where udev does not
 * run (containers, rescue systems), libblkid reads the superblock itself,
 * which needs read access to the device. */
static void
read_label (dev_t dev, const char *node, char *label, size_t label_size,
            char *type, size_t type_size)
{
  char path[64], line[512];
  FILE *f;

  label[0] = '\0';
  snprintf (path, sizeof path, "/run/udev/data/b%u:%u", major (dev), minor (dev));
  if ((f = fopen (path, "re")))
    {
      while (fgets (line, sizeof line, f))
        {
          line[strcspn (line, "\n")] = '\0';
          if (!strncmp (line, "E:ID_FS_LABEL_ENC=", 18))
            {
              unescape_udev (line + 18);
              copy (label, label_size, line + 18);
            }
          else if (!strncmp (line, "E:ID_FS_TYPE=", 13) && type && !type[0])
            copy (type, type_size, line + 13);
        }
      fclose (f);
      if (label[0])
        return;
    }
#ifdef DM_HAVE_BLKID
  blkid_probe pr = blkid_new_probe_from_filename (node);
  const char *v;
  if (!pr)
    return;
  blkid_probe_enable_superblocks (pr, 1);
  blkid_probe_set_superblocks_flags (pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_TYPE);
  if (blkid_do_safeprobe (pr) == 0)
    {
      if (blkid_probe_lookup_value (pr, "LABEL", &v, NULL) == 0)
        copy (label, label_size, v);
      if (type && !type[0] && blkid_probe_lookup_value (pr, "TYPE", &v, NULL) == 0)
        copy (type, type_size, v);
    }
  blkid_free_probe (pr);
#else
  (void) node;
#endif
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

/* True when path is folder or lies below it. */
static bool
under (const char *path, const char *folder)
{
  size_t n = strlen (folder);
  return !strncmp (path, folder, n) && (path[n] == '/' || path[n] == '\0');
}

static bool
network_fs (const char *t)
{
  static const char *const net[] = {
    "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "ceph", "9p", "afs", "glusterfs",
    "lustre", "gfs2", "ocfs2", "fuse.glusterfs",
  };
  for (size_t i = 0; i < sizeof net / sizeof net[0]; i++)
    if (!strcmp (t, net[i]))
      return true;
  return false;
}

static bool
fuse_fs (const char *t)
{
  return !strcmp (t, "fuse") || !strcmp (t, "fuseblk") || !strncmp (t, "fuse.", 5);
}

static bool
memory_fs (const char *t)
{
  return !strcmp (t, "tmpfs") || !strcmp (t, "ramfs");
}

/* A block device's size and read-only flag from sysfs, for a user who may
 * not open it (a whole disk without root). */
static void
probe_sysfs_block (dev_t dev, dm_target_info *info)
{
  char path[96], v[32] = "";
  snprintf (path, sizeof path, "/sys/dev/block/%u:%u/size", major (dev), minor (dev));
  if (_dm_read_line (path, v, sizeof v) == 0)
    info->size_bytes = strtoull (v, NULL, 10) * 512;
  snprintf (path, sizeof path, "/sys/dev/block/%u:%u/ro", major (dev), minor (dev));
  if (_dm_read_line (path, v, sizeof v) == 0)
    info->read_only = v[0] == '1';
  snprintf (path, sizeof path, "/sys/dev/block/%u:%u/queue/logical_block_size", major (dev),
            minor (dev));
  if (_dm_read_line (path, v, sizeof v) == 0)
    info->sector_size = (uint32_t) strtoul (v, NULL, 10);
}

bool
dm_path_in_system_folder (const char *real_path, char *folder, size_t size)
{
  /* The system's own configuration, programs, boot files and the
   * kernel's views: a test file there is never what a user meant. */
  static const char *const folders[] = { "/etc", "/usr", "/boot", "/proc", "/sys", "/dev" };
  for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++)
    {
      size_t n = strlen (folders[i]);
      if (!strncmp (real_path, folders[i], n) && (real_path[n] == '\0' || real_path[n] == '/'))
        {
          copy (folder, size, folders[i]);
          return true;
        }
    }
  return false;
}

int
dm_target_probe (const char *path, dm_target_info *info)
{
  struct stat st, src;
  char real[PATH_MAX];

  memset (info, 0, sizeof *info);
  copy (info->path, sizeof info->path, path);
  if (stat (path, &st) < 0)
    return -errno;

  if (S_ISBLK (st.st_mode))
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
      info->is_block_device = true;
      info->kind = DM_TARGET_DEVICE;
      if (fd >= 0)
        {
          uint64_t bytes = 0;
          int ssz = 512;
          ioctl (fd, BLKGETSIZE64, &bytes);
          ioctl (fd, BLKSSZGET, &ssz);
          int ro = 0;
          ioctl (fd, BLKROGET, &ro);
          close (fd);
          info->size_bytes = bytes;
          info->sector_size = (uint32_t) ssz;
          info->read_only = ro != 0;
        }
      else if (errno == EACCES || errno == EPERM)
        /* Listed all the same: a read may go through udisks2. */
        probe_sysfs_block (st.st_rdev, info);
      else
        return -errno;
      if (info->sector_size < 512)
        info->sector_size = 512;
      info->free_bytes = info->size_bytes;
      copy (info->device, sizeof info->device, realpath (path, real) ? real : path);
      copy (info->real_path, sizeof info->real_path, info->device);
      describe_disk (st.st_rdev, info);
      read_label (st.st_rdev, info->device, info->label, sizeof info->label,
                  info->filesystem, sizeof info->filesystem);
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
  bool resolved = realpath (path, real) != NULL;
  if (resolved)
    copy (info->real_path, sizeof info->real_path, real);
  find_mount fm = { st.st_dev, resolved ? real : path, { 0 }, 0 };
  each_mount (match_mount, &fm);
  if (fm.best_len)
    {
      copy (info->mount_point, sizeof info->mount_point, fm.best.point);
      copy (info->filesystem, sizeof info->filesystem, fm.best.fstype);
      copy (info->device, sizeof info->device, fm.best.source);
      if (fm.best.ro)
        info->read_only = true;
    }
  info->writable = !info->read_only && faccessat (AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
  /* The sector size of the disk below the filesystem decides O_DIRECT's
   * alignment; 4096 covers 512e and 4Kn disks alike. */
  info->sector_size = 4096;

  bool removable = false;
  if (network_fs (info->filesystem))
    {
      /* Named as mount shows it: server:/export, //server/share. */
      info->kind = DM_TARGET_NETWORK;
      copy (info->model, sizeof info->model, info->device);
      copy (info->driver, sizeof info->driver, info->filesystem);
      copy (info->bus, sizeof info->bus, "network");
      return 0;
    }
  /* btrfs and FUSE block filesystems (ntfs-3g, exFAT) report a device
   * number of their own; the disk is the one mount names. */
  if (major (st.st_dev) != 0)
    removable = describe_disk (st.st_dev, info);
  else if (info->device[0] == '/' && stat (info->device, &src) == 0 && S_ISBLK (src.st_mode))
    removable = describe_disk (src.st_rdev, info);
  else if (info->filesystem[0])
    copy (info->driver, sizeof info->driver, info->filesystem);

  if (major (st.st_dev) != 0)
    read_label (st.st_dev, info->device, info->label, sizeof info->label, NULL, 0);
  else if (info->device[0] == '/' && stat (info->device, &src) == 0 && S_ISBLK (src.st_mode))
    read_label (src.st_rdev, info->device, info->label, sizeof info->label, NULL, 0);

  if (fuse_fs (info->filesystem))
    info->kind = DM_TARGET_FUSE;
  else if (removable || under (info->mount_point, "/run/media") || under (info->mount_point, "/media"))
    info->kind = DM_TARGET_REMOVABLE;
  else
    info->kind = DM_TARGET_LOCAL;
  if (memory_fs (info->filesystem))
    copy (info->bus, sizeof info->bus, "memory");
  return 0;
}

static bool
pseudo_fs (const char *t)
{
  static const char *const skip[] = {
    "proc", "sysfs", "devtmpfs", "devpts", "tmpfs", "cgroup", "cgroup2", "pstore", "bpf",
    "securityfs", "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs",
    "autofs", "binfmt_misc", "rpc_pipefs", "nsfs", "efivarfs", "squashfs", "ramfs",
    "fuse.gvfsd-fuse", "fuse.portal", "overlay", "nfsd", "selinuxfs", "erofs",
  };
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (!strcmp (t, skip[i]))
      return true;
  return false;
}

typedef struct list_state {
  dm_target_info *items;
  dev_t          *devs;   /* each item's device number, to list a filesystem once */
  unsigned        n, cap;
  unsigned        flags;
  int             err;
} list_state;

static dm_target_info *
list_grow (list_state *ls)
{
  if (ls->n == ls->cap)
    {
      unsigned cap = ls->cap ? ls->cap * 2 : 16;
      dm_target_info *items = realloc (ls->items, cap * sizeof *items);
      if (!items)
        return NULL;
      ls->items = items;
      dev_t *devs = realloc (ls->devs, cap * sizeof *devs);
      if (!devs)
        return NULL;
      ls->devs = devs;
      ls->cap = cap;
    }
  return &ls->items[ls->n];
}

static int
add_mount (const mount_entry *m, void *user)
{
  list_state *ls = user;
  bool memory = memory_fs (m->fstype) && (ls->flags & DM_TARGET_LIST_MEMORY);
  /* System folders are never a drive; of /run only the desktop's
   * automounts (/run/media/USER/LABEL) are. */
  if ((pseudo_fs (m->fstype) && !memory) || under (m->point, "/proc") || under (m->point, "/sys")
      || (under (m->point, "/run") && !under (m->point, "/run/media"))
      || under (m->point, "/snap") || under (m->point, "/boot/efi")
      || under (m->point, "/var/lib/docker") || under (m->point, "/var/lib/containers"))
    return 0;
  /* A filesystem mounted twice (bind mounts, the same btrfs volume under
   * two folders) is listed once, where it was mounted first. */
  dev_t dev = makedev (m->maj, m->min);
  for (unsigned i = 0; i < ls->n; i++)
    if (ls->devs[i] == dev || !strcmp (ls->items[i].mount_point, m->point))
      return 0; /* a folder mounted over is the one on top, which its probe saw */
  dm_target_info *info = list_grow (ls);
  if (!info)
    {
      ls->err = -ENOMEM;
      return 1;
    }
  if (dm_target_probe (m->point, info) == 0)
    ls->devs[ls->n++] = dev;
  return 0;
}

static int
by_path (const void *a, const void *b)
{
  return strcmp (((const dm_target_info *) a)->path, ((const dm_target_info *) b)->path);
}

/* Whole disks and partitions, as /sys/class/block knows them: everything
 * with a size, but not RAM disks, zram swap or empty drives. */
static int
add_devices (list_state *ls)
{
  DIR *d = opendir ("/sys/class/block");
  struct dirent *e;
  unsigned first = ls->n;
  if (!d)
    return 0;
  while ((e = readdir (d)))
    {
      char path[PATH_MAX], v[32] = "", node[300];
      unsigned maj, min;
      struct stat st;
      if (e->d_name[0] == '.' || !strncmp (e->d_name, "ram", 3) || !strncmp (e->d_name, "zram", 4)
          || !strncmp (e->d_name, "sr", 2) || !strncmp (e->d_name, "fd", 2))
        continue;
      snprintf (path, sizeof path, "/sys/class/block/%s/size", e->d_name);
      if (_dm_read_line (path, v, sizeof v) < 0 || strtoull (v, NULL, 10) == 0)
        continue;
      snprintf (path, sizeof path, "/sys/class/block/%s/dev", e->d_name);
      if (_dm_read_line (path, v, sizeof v) < 0 || sscanf (v, "%u:%u", &maj, &min) != 2)
        continue;
      /* Only a node that is that very device: a container's /dev may
       * hold other devices under the host's names, or none. */
      snprintf (node, sizeof node, "/dev/%s", e->d_name);
      if (stat (node, &st) < 0 || !S_ISBLK (st.st_mode) || st.st_rdev != makedev (maj, min))
        continue;
      dm_target_info *info = list_grow (ls);
      if (!info)
        {
          closedir (d);
          return -ENOMEM;
        }
      if (dm_target_probe (node, info) == 0)
        ls->devs[ls->n++] = st.st_rdev;
    }
  closedir (d);
  qsort (ls->items + first, ls->n - first, sizeof *ls->items, by_path);
  return 0;
}

int
dm_target_list_full (dm_target_info **out, unsigned *n, unsigned flags)
{
  list_state ls = { .flags = flags };
  int err = each_mount (add_mount, &ls);
  if (err == 0 && ls.err == 0 && (flags & DM_TARGET_LIST_DEVICES))
    err = add_devices (&ls);
  free (ls.devs);
  if (err < 0 || ls.err < 0)
    {
      free (ls.items);
      return err < 0 ? err : ls.err;
    }
  *out = ls.items;
  *n = ls.n;
  return 0;
}

int
dm_target_list (dm_target_info **out, unsigned *n)
{
  return dm_target_list_full (out, n, 0);
}

void
dm_target_list_free (dm_target_info *list)
{
  free (list);
}
