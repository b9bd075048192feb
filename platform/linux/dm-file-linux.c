/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test file on Linux. It is created with O_CREAT|O_EXCL under a fresh
 * random name, so it can never be an existing file or a symlink planted in
 * its place, and its name is removed as soon as it is open: the space is
 * freed when the last descriptor closes, even if the process is killed.
 * Also the files Diskmeter writes for the user (reports, saved runs), by
 * the rules in dm-platform.h: nothing at the path is harmed.
 */
#include "dm-linux-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static void
random_suffix (char *out, size_t n)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[16];
  if (getrandom (bytes, sizeof bytes, GRND_NONBLOCK) != (ssize_t) sizeof bytes)
    {
      struct timespec ts;
      clock_gettime (CLOCK_MONOTONIC, &ts);
      unsigned long long x = (unsigned long long) ts.tv_nsec * 2654435761u ^ (unsigned) getpid ();
      for (size_t i = 0; i < sizeof bytes; i++, x = x * 6364136223846793005ull + 1)
        bytes[i] = (unsigned char) (x >> 33);
    }
  for (size_t i = 0; i < n; i++)
    out[i] = alphabet[bytes[i % sizeof bytes] % (sizeof alphabet - 1)];
  out[n] = '\0';
}

static int
set_direct (int fd)
{
  int flags = fcntl (fd, F_GETFL);
  if (flags < 0 || fcntl (fd, F_SETFL, flags | O_DIRECT) < 0)
    return errno == EINVAL ? DM_E_NODIRECT : -errno;
  return 0;
}

/* Removes the name only if it still names our file, so a name swapped in
 * behind our back is never deleted. */
static int
unlink_if_ours (int fd, const char *path)
{
  struct stat a, b;
  int err = _dm_fault_check (DM_FAULT_UNLINK);
  if (err)
    return err;
  if (fstat (fd, &a) < 0 || lstat (path, &b) < 0)
    return -errno;
  if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
    return -EEXIST;
  return unlink (path) == 0 ? 0 : -errno;
}

int
dm_file_create_temp (const char *dir, const dm_file_options *opt, dm_file **out, char *path,
                     size_t path_size)
{
  int flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;
  int fd = -1, err;

  if (opt->write_through)
    flags |= O_DSYNC;
  if ((err = _dm_fault_check (DM_FAULT_CREATE)))
    return err;
  for (int attempt = 0; attempt < 64; attempt++)
    {
      char suffix[8];
      random_suffix (suffix, 6);
      if (snprintf (path, path_size, "%s%sdiskmeter-%s.tmp", dir,
                    dir[0] && dir[strlen (dir) - 1] == '/' ? "" : "/", suffix)
          >= (int) path_size)
        return -ENAMETOOLONG;
      fd = open (path, flags, 0600);
      if (fd >= 0 || errno != EEXIST)
        break;
    }
  if (fd < 0)
    return -errno;

  /* On a copy-on-write filesystem (btrfs) every overwrite would go to new
   * blocks and drag checksums and extent updates into the figures: switch
   * it off while the file is still empty, the only time btrfs allows it.
   * Filesystems without the flag refuse it, which is fine. */
  int attr = 0;
  bool nocow = false;
  if (ioctl (fd, FS_IOC_GETFLAGS, &attr) == 0 && !(attr & FS_NOCOW_FL))
    {
      attr |= FS_NOCOW_FL;
      nocow = ioctl (fd, FS_IOC_SETFLAGS, &attr) == 0 && ioctl (fd, FS_IOC_GETFLAGS, &attr) == 0
              && (attr & FS_NOCOW_FL);
    }

  /* O_DIRECT is switched on after creation: open(O_CREAT|O_DIRECT) on a
   * filesystem that refuses it may create the file and then fail. */
  if (opt->direct && (err = set_direct (fd)) < 0)
    {
      unlink_if_ours (fd, path);
      close (fd);
      return err;
    }
  if ((err = unlink_if_ours (fd, path)) < 0)
    {
      /* A test file that would outlive us by name is not started; one
       * more try, still only if the name is ours. */
      unlink_if_ours (fd, path);
      close (fd);
      return err;
    }

  dm_file *f = calloc (1, sizeof *f);
  if (!f)
    {
      close (fd);
      return -ENOMEM;
    }
  f->fd = fd;
  f->direct = opt->direct;
  f->nocow = nocow;
  *out = f;
  return 0;
}

bool
dm_file_is_nocow (const dm_file *file)
{
  return file && file->nocow;
}

int
dm_file_open_device (const char *device, bool writable, const dm_file_options *opt,
                     dm_file **out)
{
  /* O_EXCL on a block device fails with EBUSY while it is mounted or in
   * use, which is exactly when overwriting it would do harm. */
  int flags = (writable ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC;
  if (opt->direct)
    flags |= O_DIRECT;
  if (opt->write_through && writable)
    flags |= O_DSYNC;
  int fd = _dm_device_open (device, flags, writable);
  if (fd < 0)
    return fd == -EINVAL && opt->direct ? DM_E_NODIRECT : fd;
  dm_file *f = calloc (1, sizeof *f);
  if (!f)
    {
      close (fd);
      return -ENOMEM;
    }
  f->fd = fd;
  f->direct = opt->direct;
  *out = f;
  return 0;
}

int
dm_file_reserve (dm_file *f, uint64_t size)
{
  int err = _dm_fault_check (DM_FAULT_RESERVE);
  if (err)
    return err;
  if (fallocate (f->fd, 0, 0, (off_t) size) == 0)
    return 0;
  if (errno == ENOSPC || errno == EFBIG || errno == EDQUOT)
    return -ENOSPC;
  /* Filesystems without fallocate (some network and FUSE ones) still get
   * the full size written by the fill that follows. */
  if (errno == EOPNOTSUPP || errno == ENOSYS)
    return ftruncate (f->fd, (off_t) size) == 0 ? 0 : -errno;
  return -errno;
}

int
dm_file_write_at (dm_file *f, const void *buf, size_t len, uint64_t offset)
{
  const char *p = buf;
  while (len)
    {
      ssize_t n;
      int fault = _dm_fault_check (DM_FAULT_WRITE);
      if (fault)
        n = -1, errno = -fault;
      else if (_dm_fault_check (DM_FAULT_SHORT_WRITE))
        n = pwrite (f->fd, p, len / 2 ? (len / 2) & ~(size_t) 4095 : len, (off_t) offset);
      else
        n = pwrite (f->fd, p, len, (off_t) offset);
      if (n < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          return errno == EDQUOT ? -ENOSPC : -errno;
        }
      if (n == 0)
        return DM_E_SHORT;
      /* Short writes are legal; the rest goes in the next call. */
      p += n;
      len -= (size_t) n;
      offset += (uint64_t) n;
    }
  return 0;
}

int
dm_file_sync (dm_file *f)
{
  int err = _dm_fault_check (DM_FAULT_SYNC);
  if (err)
    return err;
  return fdatasync (f->fd) == 0 ? 0 : -errno;
}

void
dm_file_close (dm_file *f)
{
  if (!f)
    return;
  close (f->fd);
  free (f);
}

/* Every byte of data to fd: short writes go on, EINTR is retried, a full
 * quota reads as a full disk. */
static int
write_all (int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno == EDQUOT ? -ENOSPC : -errno;
      if (n == 0)
        return -EIO;
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

/* The new file gets what the old one had: owner and group where this
 * process may give them (root may; a user may keep a group of theirs),
 * mode bits, and the extended attributes that carry ACLs and security
 * labels. What cannot be kept is let go: the contents matter more. */
static void
keep_attributes (int fd, const char *old, const struct stat *st)
{
  if (fchown (fd, st->st_uid, st->st_gid) < 0 && fchown (fd, (uid_t) -1, st->st_gid) < 0)
    {
      /* Neither: the new file is the process's own, as any it creates. */
    }
  char names[4096];
  ssize_t n = llistxattr (old, names, sizeof names);
  for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t) strlen (names + i) + 1)
    {
      char value[4096];
      ssize_t v = lgetxattr (old, names + i, value, sizeof value);
      if (v >= 0)
        (void) fsetxattr (fd, names + i, value, (size_t) v, 0);
    }
  /* After chown, which clears set-id bits. */
  (void) fchmod (fd, st->st_mode & 07777);
}

/* A new file in path's folder, renamed over path: a reader never sees half
 * a report, and a failed write leaves the old file as it was. old is what
 * path is now, NULL when nothing is there. */
static int
replace_file (const char *path, const struct stat *old, const void *data, size_t len)
{
  char tmp[4200];
  int fd, err;
  if (snprintf (tmp, sizeof tmp, "%s.XXXXXX", path) >= (int) sizeof tmp)
    return -ENAMETOOLONG;
  fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    return -errno;
  err = write_all (fd, data, len);
  if (!err && old)
    keep_attributes (fd, path, old);
  else if (!err)
    {
      /* Readable like any file the user creates (mkostemp makes it 0600). */
      mode_t mask = umask (0);
      umask (mask);
      if (fchmod (fd, 0666 & ~mask) < 0)
        err = -errno;
    }
  if (!err && fsync (fd) < 0)
    err = -errno;
  if (close (fd) < 0 && !err)
    err = -errno;
  /* Where nothing was, nothing that appeared since is replaced (where the
   * filesystem can tell: not all take RENAME_NOREPLACE). */
  bool moved = false;
  if (!err && !old)
    {
      if (renameat2 (AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        moved = true;
      else if (errno != EINVAL && errno != ENOSYS)
        err = -errno;
    }
  if (!err && !moved && rename (tmp, path) < 0)
    err = -errno;
  if (err)
    unlink (tmp);
  return err == -EDQUOT ? -ENOSPC : err;
}

/* A pipe or a character device (a terminal, /dev/null) is written into as
 * the shell's > would, never created, truncated or replaced. */
static int
write_stream (const char *path, const void *data, size_t len)
{
  int fd = open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC), err;
  if (fd < 0)
    return -errno;
  err = write_all (fd, data, len);
  if (close (fd) < 0 && !err && errno != EINTR)
    err = -errno;
  return err;
}

static bool
same_file (int fd, const struct stat *st)
{
  struct stat f;
  return fstat (fd, &f) == 0 && f.st_dev == st->st_dev && f.st_ino == st->st_ino;
}

int
dm_file_replace_contents (const char *path, const void *data, size_t len)
{
  struct stat st, link;
  char real[PATH_MAX];

  if (lstat (path, &link) < 0)
    return errno == ENOENT ? replace_file (path, NULL, data, len) : -errno;
  /* What the name leads to, through any symbolic links. */
  if (stat (path, &st) < 0)
    return -errno;

  /* /dev/stdout and the like name this process's own output, which may be
   * a file the shell opened for appending (>>): written where that
   * descriptor stands, as any other output of the process. */
  if (S_ISLNK (link.st_mode))
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
      if (same_file (fd, &st))
        {
          fflush (fd == STDOUT_FILENO ? stdout : stderr);
          return write_all (fd, data, len);
        }

  if (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode))
    return write_stream (path, data, len);
  if (S_ISDIR (st.st_mode))
    return -EISDIR;
  if (S_ISBLK (st.st_mode))
    return DM_E_BLOCKDEV;
  if (!S_ISREG (st.st_mode))
    return DM_E_NOTFILE;
  if (!S_ISLNK (link.st_mode))
    return replace_file (path, &st, data, len);
  /* A link stays a link: the file it leads to is the one replaced. */
  if (!realpath (path, real))
    return -errno;
  return replace_file (real, &st, data, len);
}

int
dm_file_read_all (const char *path, size_t max, char **data, size_t *len)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC), err = 0;
  char *buf = NULL;
  size_t got = 0, cap = 0;
  if (fd < 0)
    return -errno;
  if (fstat (fd, &st) < 0)
    err = -errno;
  else if (S_ISDIR (st.st_mode))
    err = -EISDIR;
  else if (S_ISREG (st.st_mode) && (uint64_t) st.st_size > max)
    err = -EFBIG;
  else
    {
      /* st_size is a first guess: a pipe (diskmeter-cli compare <(...))
       * or a /proc file says 0, and a file may grow while it is read. */
      cap = S_ISREG (st.st_mode) && st.st_size > 0 ? (size_t) st.st_size + 1 : 4096;
      if (!(buf = malloc (cap)))
        err = -ENOMEM;
    }
  while (!err)
    {
      if (got == cap - 1)
        {
          /* Full. Room for one byte past max tells a file of exactly max
           * bytes from a longer one. */
          if (got > max)
            {
              err = -EFBIG;
              break;
            }
          size_t bigger = cap > max / 2 ? max + 2 : cap * 2;
          char *more = realloc (buf, bigger);
          if (!more)
            {
              err = -ENOMEM;
              break;
            }
          buf = more;
          cap = bigger;
        }
      ssize_t n = read (fd, buf + got, cap - 1 - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        err = -errno;
      else if (n == 0)
        break;
      else
        got += (size_t) n;
    }
  close (fd);
  if (err)
    {
      free (buf);
      return err;
    }
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return 0;
}

static int
mkdir_p (char *path)
{
  /* Each parent in turn; existing ones are fine, a file in the way is not. */
  for (char *p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        int r = mkdir (path, 0755);
        *p = '/';
        if (r < 0 && errno != EEXIST)
          return -errno;
      }
  if (mkdir (path, 0755) < 0 && errno != EEXIST)
    return -errno;
  struct stat st;
  if (stat (path, &st) < 0)
    return -errno;
  return S_ISDIR (st.st_mode) ? 0 : -ENOTDIR;
}

int
dm_ensure_dir (const char *path)
{
  char buf[4200];
  if (snprintf (buf, sizeof buf, "%s", path) >= (int) sizeof buf)
    return -ENAMETOOLONG;
  return mkdir_p (buf);
}

char
dm_dir_separator (void)
{
  return '/';
}

int
dm_data_dir (char *buf, size_t size)
{
  const char *xdg = getenv ("XDG_DATA_HOME"), *home = getenv ("HOME");
  int n;
  if (xdg && xdg[0] == '/')
    n = snprintf (buf, size, "%s/diskmeter", xdg);
  else if (home && home[0] == '/')
    n = snprintf (buf, size, "%s/.local/share/diskmeter", home);
  else
    return -ENOENT;
  if (n < 0 || (size_t) n >= size)
    return -ENAMETOOLONG;
  return mkdir_p (buf);
}

int
dm_file_write_new (const char *path, const void *data, size_t len)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644), err;
  if (fd < 0)
    return -errno;
  err = write_all (fd, data, len);
  if (!err && fsync (fd) < 0)
    err = -errno;
  if (close (fd) < 0 && !err)
    err = -errno;
  if (err)
    unlink (path);
  return err;
}

int
dm_file_remove (const char *path)
{
  struct stat st;
  if (lstat (path, &st) < 0)
    return -errno;
  if (!S_ISREG (st.st_mode))
    return -EPERM;
  return unlink (path) == 0 ? 0 : -errno;
}

int
dm_list_files (const char *dir, void (*fn) (const char *name, void *user), void *user)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  if (!d)
    return -errno;
  while ((e = readdir (d)))
    if (e->d_type == DT_REG || e->d_type == DT_UNKNOWN)
      {
        char path[4200];
        struct stat st;
        snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat (path, &st) == 0 && S_ISREG (st.st_mode))
          fn (e->d_name, user);
      }
  closedir (d);
  return 0;
}

static bool
is_test_file_name (const char *name)
{
  size_t n = strlen (name);
  return n == strlen ("diskmeter-XXXXXX.tmp") && !strncmp (name, "diskmeter-", 10)
         && !strcmp (name + n - 4, ".tmp");
}

int
dm_stale_files (const char *dir, void (*fn) (const char *path, uint64_t size, void *user),
                void *user)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  if (!d)
    return -errno;
  while ((e = readdir (d)))
    {
      char path[4200];
      struct stat st;
      if (!is_test_file_name (e->d_name))
        continue;
      snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
      if (lstat (path, &st) == 0 && S_ISREG (st.st_mode))
        fn (path, (uint64_t) st.st_size, user);
    }
  closedir (d);
  return 0;
}
