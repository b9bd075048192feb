/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file system whose reads behave like a device with a known curve: each
 * read takes a fixed service time, and at most a set number are served at
 * once (the device's internal parallelism). From that the truth is
 * arithmetic: at queue depth QD the device serves min(QD, P) / D reads a
 * second, and by Little's law each waits max(D, QD x D / P) on average. So
 * a sweep over QD must find its knee at P, which a throttled loop device
 * (one request served at a time, no latency floor) cannot show.
 *
 *   slow-fs MOUNTPOINT SERVICE_US PARALLEL [--write-us US] [--keep-writes FILE]
 *           [--write-cache MIB [--cache-us US]] [--log-requests FILE] [--thin-us US]
 *           [--read-cache MIB [--read-cache-us US]]
 *
 * Runs in the foreground until unmounted or killed. Files live in memory,
 * up to 512 MiB in all; creation and the rest are immediate, and so are
 * writes unless --write-us gives them a service time too. Only
 * what Diskmeter does to its test file is implemented: create, unlink while
 * open, fallocate, read, write, fsync, statfs. The file ".served" reads as
 * "reads N read_bytes B writes N write_bytes B" and then the service it
 * really delivered to reads, "held N hold_ns S hold_max_ns M late_ns L"
 * (how long each read kept its slot: the service time plus however late
 * the sleep ended, so a test can tell the device's time from the
 * machine's; L adds up only the lateness, for reads of mixed service
 * times), "idle_ns I" (slot time left free while a request waited for a
 * slot, its thread not yet awake: the machine's too), "wheld N wlate_ns L"
 * (writes served in slots, --write-us, and their lateness), and
 * "realtime 0|1 kept_bytes K dropped_bytes D": what the device served, to
 * hold against what Diskmeter reports, as the block tests hold it against
 * the kernel's sector counters.
 *
 * It asks for real-time scheduling (SCHED_FIFO) where it may, so that a
 * busy machine delays its service as little as it can; where it may not,
 * "realtime 0" says so. --write-us serves writes in the same slots as the
 * reads, which also bounds how many bytes a test must keep. --keep-writes
 * appends every write, as it came, to FILE: a 16-byte header (offset, u64;
 * length, u32; 0, u32; little-endian) and the bytes, up to 1 GiB in all,
 * so a test can read back what a program wrote to a file whose name it
 * removed at once. --write-cache models an SSD's SLC cache: the first MIB
 * MiB written are served in --cache-us each (0: at once), every write
 * after them in --write-us; the cache never drains, so the cliff falls
 * at exactly MIB MiB. --log-requests writes one line per request to FILE,
 * "OP OFFSET LENGTH ARRIVED_NS DONE_NS" (OP R, W, F for fsync or D for
 * fdatasync; times since the mount), so a test can check the shape of what
 * was asked against the arithmetic: sizes, offsets, their spread, rates and
 * flushes. The log is flushed when a file is closed and when .served is
 * read, so it is complete once the program under test has closed its file.
 * --thin-us models a thin disk: a write that touches a 4 KiB block never
 * written since the file grew over it (by fallocate, truncate or a write
 * past its end) is served in US, a rewrite in --write-us; .served then adds
 * "first_writes N rewrites M", the requests of each kind.
 * --read-cache models a cache below the device, as a host's page cache is
 * below a VM's disk (slow-fs-read-cache.c): per file, the first MIB MiB of
 * distinct 4 KiB blocks touched (written, or read while there is room) are
 * held for good, and the share of a read's blocks held is served in
 * --read-cache-us each (0: at once), the rest in SERVICE_US. A set of SET
 * MiB written whole and read at random is then served MIB / SET from the
 * cache, so a cache-probe ladder must find MIB and both rates.
 */

#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "slow-fs-read-cache.h"

#define MAX_FILES 16
#define MAX_BYTES (512ull << 20)
#define SERVED    MAX_FILES   /* the file handle of ".served" */
#define MAX_KEPT  (1ull << 30)

typedef struct {
  char     name[256];   /* empty once unlinked */
  bool     used;
  unsigned opened;
  char    *data;
  size_t   size;
  unsigned char *written; /* --thin-us: per 4 KiB block, 1 once written */
} node;

static struct {
  pthread_mutex_t lock;     /* the file table */
  node            files[MAX_FILES];
  size_t          bytes;
  pthread_mutex_t serve_lock;  /* the device's service slots */
  pthread_cond_t  slot_free;
  unsigned        busy;
  unsigned        parallel;
  long            service_ns;
  long            write_service_ns;  /* 0: writes are immediate */
  long            cache_service_ns;  /* --cache-us: writes into the write cache */
  uint64_t        cache_left;        /* --write-cache bytes not yet written, under lock */
  bool            cache;
  uint64_t        held, hold_ns, hold_max_ns;  /* reads' slot time, under serve_lock */
  uint64_t        late_ns;   /* of it, past each read's service time */
  uint64_t        wheld, wlate_ns;  /* the same for writes served in slots */
  unsigned        waiting;   /* requests waiting for a slot, under serve_lock */
  uint64_t        idle_ns;   /* slot time left free while one waited, under serve_lock */
  uint64_t        idle_since;  /* when busy or waiting last changed, under serve_lock */
  uint64_t        reads, read_bytes, writes, write_bytes;  /* under lock */
  bool            realtime;
  FILE           *kept;  /* --keep-writes, under lock */
  FILE           *log;   /* --log-requests, under lock */
  uint64_t        epoch_ns;
  uint64_t        kept_bytes, dropped_bytes;
  long            thin_service_ns;   /* --thin-us: a first write's service; 0: off */
  uint64_t        first_writes, rewrites;  /* --thin-us requests, under lock */
} fs = { .lock = PTHREAD_MUTEX_INITIALIZER, .serve_lock = PTHREAD_MUTEX_INITIALIZER,
         .slot_free = PTHREAD_COND_INITIALIZER };

static uint64_t
now_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* --log-requests: one line for a request served. Under fs.lock. */
static void
log_request (char op, uint64_t off, uint64_t len, uint64_t arrived, uint64_t done)
{
  if (fs.log)
    fprintf (fs.log, "%c %llu %llu %llu %llu\n", op, (unsigned long long) off,
             (unsigned long long) len, (unsigned long long) (arrived - fs.epoch_ns),
             (unsigned long long) (done - fs.epoch_ns));
}

/* Adds the slot time left free since the last change while a request
 * waited for a slot: from a read's end to when the waiter it woke takes
 * the slot. That is the machine's time, not the device's (a thread that
 * wakes late), as late_ns is; a slot free with none waiting is not
 * counted, since then the program under test has not asked. Called
 * before busy or waiting changes. Under serve_lock. */
static void
account_idle (void)
{
  uint64_t now = now_ns ();
  if (fs.waiting && fs.busy < fs.parallel)
    fs.idle_ns += (now - fs.idle_since) * (fs.parallel - fs.busy);
  fs.idle_since = now;
}

/* One request's service: wait for a free slot, hold it for the service
 * time. The time waited for the slot is the queueing a real device would
 * add. A read's hold time is added up: it is the service the device really
 * delivered, which is longer than service_ns when this thread wakes late.
 * A write's lateness is added up apart (wheld, wlate_ns), so that a run of
 * reads and writes can be held to its service (idle_ns counts both). */
static void
serve (long service_ns, bool read)
{
  struct timespec t;
  pthread_mutex_lock (&fs.serve_lock);
  if (fs.busy >= fs.parallel)
    {
      account_idle ();
      fs.waiting++;
      while (fs.busy >= fs.parallel)
        pthread_cond_wait (&fs.slot_free, &fs.serve_lock);
      account_idle ();
      fs.waiting--;
    }
  else
    account_idle ();
  fs.busy++;
  pthread_mutex_unlock (&fs.serve_lock);

  uint64_t start = now_ns ();
  t.tv_sec = (time_t) (start / 1000000000u);
  t.tv_nsec = (long) (start % 1000000000u) + service_ns;
  t.tv_sec += t.tv_nsec / 1000000000;
  t.tv_nsec %= 1000000000;
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
    ;

  pthread_mutex_lock (&fs.serve_lock);
  uint64_t hold = now_ns () - start;
  uint64_t late = hold > (uint64_t) service_ns ? hold - (uint64_t) service_ns : 0;
  if (!read)
    {
      fs.wheld++;
      fs.wlate_ns += late;
    }
  else
    {
      fs.held++;
      fs.hold_ns += hold;
      fs.late_ns += late;
      if (hold > fs.hold_max_ns)
        fs.hold_max_ns = hold;
    }
  account_idle ();
  fs.busy--;
  pthread_cond_signal (&fs.slot_free);
  pthread_mutex_unlock (&fs.serve_lock);
}

/* The linked file called path ("/name"), or NULL. Under fs.lock. */
static node *
lookup (const char *path)
{
  if (path[0] != '/' || strchr (path + 1, '/'))
    return NULL;
  for (int i = 0; i < MAX_FILES; i++)
    if (fs.files[i].used && fs.files[i].name[0] && !strcmp (fs.files[i].name, path + 1))
      return &fs.files[i];
  return NULL;
}

static void
release_if_gone (node *n)
{
  if (n->used && !n->name[0] && n->opened == 0)
    {
      fs.bytes -= n->size;
      free (n->data);
      free (n->written);
      slow_read_cache_forget ((unsigned) (n - fs.files));
      memset (n, 0, sizeof *n);
    }
}

/* --thin-us: the blocks from old_size to size are new, never written:
 * what fallocate leaves, as a thin disk's unallocated space. Under fs.lock. */
#define THIN_BLOCK 4096u
static int
thin_grow (node *n, size_t old_size, size_t size)
{
  if (!fs.thin_service_ns)
    return 0;
  size_t from = (old_size + THIN_BLOCK - 1) / THIN_BLOCK, to = (size + THIN_BLOCK - 1) / THIN_BLOCK;
  unsigned char *w = realloc (n->written, to ? to : 1);
  if (!w)
    return -ENOMEM;
  if (to > from)
    memset (w + from, 0, to - from);
  n->written = w;
  return 0;
}

/* Whether a write of [off, off + size) touches a block never written
 * (past the end counts: grow makes it new). Under fs.lock. */
static bool
thin_first (const node *n, uint64_t off, size_t size)
{
  size_t have = (n->size + THIN_BLOCK - 1) / THIN_BLOCK;
  for (uint64_t b = off / THIN_BLOCK; b * THIN_BLOCK < off + size; b++)
    if (b >= have || !n->written[b])
      return true;
  return false;
}

/* The blocks of a write done, counted as a first write or a rewrite. */
static void
thin_mark (node *n, uint64_t off, size_t size, bool first)
{
  for (uint64_t b = off / THIN_BLOCK; b * THIN_BLOCK < off + size; b++)
    n->written[b] = 1;
  *(first ? &fs.first_writes : &fs.rewrites) += 1;
}

/* Grows a file to at least size bytes, zero-filled. Under fs.lock. */
static int
grow (node *n, size_t size)
{
  if (size <= n->size)
    return 0;
  if (fs.bytes + (size - n->size) > MAX_BYTES)
    return -ENOSPC;
  char *data = realloc (n->data, size);
  if (!data)
    return -ENOMEM;
  memset (data + n->size, 0, size - n->size);
  n->data = data;
  if (thin_grow (n, n->size, size) < 0)
    return -ENOMEM;
  fs.bytes += size - n->size;
  n->size = size;
  return 0;
}

static void *
slow_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
  /* Unlinked-while-open files stay as they are (no .fuse_hidden rename),
   * and every open reads and writes through to us, never a page cache. */
  cfg->hard_remove = 1;
  cfg->nullpath_ok = 1;
  cfg->direct_io = 1;
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  /* Enough requests in flight for the deepest queue a test asks for. */
  conn->max_background = 256;
  conn->congestion_threshold = 256;
  return NULL;
}

static int
slow_getattr (const char *path, struct stat *st, struct fuse_file_info *fi)
{
  memset (st, 0, sizeof *st);
  if (!fi && path && !strcmp (path, "/"))
    {
      st->st_mode = S_IFDIR | 0755;
      st->st_nlink = 2;
      return 0;
    }
  if (fi ? fi->fh == SERVED : !strcmp (path, "/.served"))
    {
      st->st_mode = S_IFREG | 0444;
      st->st_nlink = 1;
      st->st_size = 4096;  /* at most; reads return what there is */
      return 0;
    }
  pthread_mutex_lock (&fs.lock);
  node *n = fi ? &fs.files[fi->fh] : lookup (path);
  if (n)
    {
      st->st_mode = S_IFREG | 0600;
      st->st_nlink = n->name[0] ? 1 : 0;
      st->st_size = (off_t) n->size;
      st->st_blocks = (blkcnt_t) ((n->size + 511) / 512);
      st->st_blksize = 4096;
    }
  pthread_mutex_unlock (&fs.lock);
  return n ? 0 : -ENOENT;
}

static int
slow_readdir (const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
              struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
  /* There is one folder, the root; path may be NULL (nullpath_ok). */
  (void) path, (void) off, (void) fi, (void) flags;
  fill (buf, ".", NULL, 0, 0);
  fill (buf, "..", NULL, 0, 0);
  pthread_mutex_lock (&fs.lock);
  for (int i = 0; i < MAX_FILES; i++)
    if (fs.files[i].used && fs.files[i].name[0])
      fill (buf, fs.files[i].name, NULL, 0, 0);
  pthread_mutex_unlock (&fs.lock);
  return 0;
}

static int
slow_create (const char *path, mode_t mode, struct fuse_file_info *fi)
{
  (void) mode;
  int err = -ENFILE;
  if (path[0] != '/' || strchr (path + 1, '/') || strlen (path + 1) >= sizeof fs.files[0].name)
    return -EINVAL;
  pthread_mutex_lock (&fs.lock);
  if (lookup (path))
    err = -EEXIST;
  else
    for (int i = 0; i < MAX_FILES; i++)
      if (!fs.files[i].used)
        {
          fs.files[i].used = true;
          fs.files[i].opened = 1;
          snprintf (fs.files[i].name, sizeof fs.files[i].name, "%s", path + 1);
          fi->fh = (uint64_t) i;
          fi->direct_io = 1;
          err = 0;
          break;
        }
  pthread_mutex_unlock (&fs.lock);
  return err;
}

static int
slow_open (const char *path, struct fuse_file_info *fi)
{
  if (!strcmp (path, "/.served"))
    {
      fi->fh = SERVED;
      fi->direct_io = 1;
      return 0;
    }
  pthread_mutex_lock (&fs.lock);
  node *n = lookup (path);
  if (n)
    {
      n->opened++;
      fi->fh = (uint64_t) (n - fs.files);
      fi->direct_io = 1;
      if (fi->flags & O_TRUNC)
        {
          fs.bytes -= n->size;
          n->size = 0;
        }
    }
  pthread_mutex_unlock (&fs.lock);
  return n ? 0 : -ENOENT;
}

static int
slow_release (const char *path, struct fuse_file_info *fi)
{
  (void) path;
  if (fi->fh == SERVED)
    return 0;
  pthread_mutex_lock (&fs.lock);
  node *n = &fs.files[fi->fh];
  n->opened--;
  release_if_gone (n);
  if (fs.log)
    fflush (fs.log);
  pthread_mutex_unlock (&fs.lock);
  return 0;
}

static int
slow_unlink (const char *path)
{
  pthread_mutex_lock (&fs.lock);
  node *n = lookup (path);
  if (n)
    {
      n->name[0] = '\0';
      release_if_gone (n);
    }
  pthread_mutex_unlock (&fs.lock);
  return n ? 0 : -ENOENT;
}

static int
slow_read (const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
  (void) path;
  if (fi->fh == SERVED)
    {
      char text[512];
      uint64_t held, hold_ns, hold_max_ns, late_ns, idle_ns, wheld, wlate_ns;
      pthread_mutex_lock (&fs.serve_lock);
      account_idle ();
      idle_ns = fs.idle_ns;
      held = fs.held;
      hold_ns = fs.hold_ns;
      hold_max_ns = fs.hold_max_ns;
      late_ns = fs.late_ns;
      wheld = fs.wheld;
      wlate_ns = fs.wlate_ns;
      pthread_mutex_unlock (&fs.serve_lock);
      pthread_mutex_lock (&fs.lock);
      int len = snprintf (text, sizeof text,
                          "reads %llu read_bytes %llu writes %llu write_bytes %llu"
                          " held %llu hold_ns %llu hold_max_ns %llu late_ns %llu idle_ns %llu"
                          " wheld %llu wlate_ns %llu realtime %d kept_bytes %llu dropped_bytes %llu\n",
                          (unsigned long long) fs.reads, (unsigned long long) fs.read_bytes,
                          (unsigned long long) fs.writes, (unsigned long long) fs.write_bytes,
                          (unsigned long long) held, (unsigned long long) hold_ns,
                          (unsigned long long) hold_max_ns, (unsigned long long) late_ns,
                          (unsigned long long) idle_ns,
                          (unsigned long long) wheld, (unsigned long long) wlate_ns,
                          fs.realtime ? 1 : 0,
                          (unsigned long long) fs.kept_bytes,
                          (unsigned long long) fs.dropped_bytes);
      if (fs.thin_service_ns && len > 0)
        len += snprintf (text + len - 1, sizeof text - (size_t) len + 1,
                         " first_writes %llu rewrites %llu\n",
                         (unsigned long long) fs.first_writes,
                         (unsigned long long) fs.rewrites) - 1;
      if (fs.log)
        fflush (fs.log);
      pthread_mutex_unlock (&fs.lock);
      if (off >= len)
        return 0;
      size_t got = (size_t) (len - off) < size ? (size_t) (len - off) : size;
      memcpy (buf, text + off, got);
      return (int) got;
    }
  uint64_t arrived = now_ns ();
  serve (slow_read_cache_on () ? slow_read_cache_read ((unsigned) fi->fh, (uint64_t) off, size,
                                                       fs.service_ns)
                               : fs.service_ns, true);
  pthread_mutex_lock (&fs.lock);
  node *n = &fs.files[fi->fh];
  size_t got = 0;
  if ((size_t) off < n->size)
    {
      got = n->size - (size_t) off < size ? n->size - (size_t) off : size;
      memcpy (buf, n->data + off, got);
    }
  fs.reads++;
  fs.read_bytes += got;
  log_request ('R', (uint64_t) off, got, arrived, now_ns ());
  pthread_mutex_unlock (&fs.lock);
  return (int) got;
}

/* --keep-writes: the write as it came, header first. Under fs.lock. */
static void
keep_write (const char *buf, size_t size, off_t off)
{
  if (!fs.kept)
    return;
  if (fs.kept_bytes + size > MAX_KEPT)
    {
      fs.dropped_bytes += size;
      return;
    }
  unsigned char head[16] = { 0 };
  for (int i = 0; i < 8; i++)
    head[i] = (unsigned char) ((uint64_t) off >> (8 * i));
  for (int i = 0; i < 4; i++)
    head[8 + i] = (unsigned char) ((uint32_t) size >> (8 * i));
  if (fwrite (head, sizeof head, 1, fs.kept) != 1 || fwrite (buf, 1, size, fs.kept) != size
      || fflush (fs.kept) != 0)
    fs.dropped_bytes += size;
  else
    fs.kept_bytes += size;
}

static int
slow_write (const char *path, const char *buf, size_t size, off_t off,
            struct fuse_file_info *fi)
{
  (void) path;
  if (fi->fh == SERVED)
    return -EBADF;
  bool cached = false;
  uint64_t arrived = now_ns ();
  if (fs.cache)
    {
      pthread_mutex_lock (&fs.lock);
      cached = fs.cache_left >= size;
      fs.cache_left = cached ? fs.cache_left - size : 0;
      pthread_mutex_unlock (&fs.lock);
    }
  long service = cached ? fs.cache_service_ns : fs.write_service_ns;
  bool first = false;
  if (fs.thin_service_ns)
    {
      pthread_mutex_lock (&fs.lock);
      first = thin_first (&fs.files[fi->fh], (uint64_t) off, size);
      pthread_mutex_unlock (&fs.lock);
      if (first)
        service = fs.thin_service_ns;
    }
  if (service)
    serve (service, false);  /* a write */
  pthread_mutex_lock (&fs.lock);
  node *n = &fs.files[fi->fh];
  int err = grow (n, (size_t) off + size);
  if (err == 0)
    {
      if (fs.thin_service_ns)
        thin_mark (n, (uint64_t) off, size, first);
      memcpy (n->data + off, buf, size);
      fs.writes++;
      fs.write_bytes += size;
      keep_write (buf, size, off);
      if (slow_read_cache_on ())
        slow_read_cache_write ((unsigned) fi->fh, (uint64_t) off, size);
      log_request ('W', (uint64_t) off, size, arrived, now_ns ());
    }
  pthread_mutex_unlock (&fs.lock);
  return err < 0 ? err : (int) size;
}

static int
slow_truncate (const char *path, off_t size, struct fuse_file_info *fi)
{
  if (fi && fi->fh == SERVED)
    return -EPERM;
  pthread_mutex_lock (&fs.lock);
  node *n = fi ? &fs.files[fi->fh] : lookup (path);
  int err = n ? 0 : -ENOENT;
  if (n && (size_t) size > n->size)
    err = grow (n, (size_t) size);
  else if (n)
    {
      fs.bytes -= n->size - (size_t) size;
      n->size = (size_t) size;
    }
  pthread_mutex_unlock (&fs.lock);
  return err;
}

static int
slow_fallocate (const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
  (void) path;
  if (mode != 0 || fi->fh == SERVED)
    return -EOPNOTSUPP;
  pthread_mutex_lock (&fs.lock);
  int err = grow (&fs.files[fi->fh], (size_t) (off + len));
  pthread_mutex_unlock (&fs.lock);
  return err;
}

static int
slow_fsync (const char *path, int datasync, struct fuse_file_info *fi)
{
  (void) path, (void) fi;
  uint64_t t = now_ns ();
  pthread_mutex_lock (&fs.lock);
  log_request (datasync ? 'D' : 'F', 0, 0, t, t);
  pthread_mutex_unlock (&fs.lock);
  return 0;
}

static int
slow_statfs (const char *path, struct statvfs *st)
{
  (void) path;
  memset (st, 0, sizeof *st);
  st->f_bsize = st->f_frsize = 4096;
  st->f_blocks = MAX_BYTES / 4096;
  pthread_mutex_lock (&fs.lock);
  st->f_bfree = st->f_bavail = (MAX_BYTES - fs.bytes) / 4096;
  pthread_mutex_unlock (&fs.lock);
  st->f_files = MAX_FILES;
  st->f_namemax = 255;
  return 0;
}

static const struct fuse_operations slow_ops = {
  .init = slow_init,
  .getattr = slow_getattr,
  .readdir = slow_readdir,
  .create = slow_create,
  .open = slow_open,
  .release = slow_release,
  .unlink = slow_unlink,
  .read = slow_read,
  .write = slow_write,
  .truncate = slow_truncate,
  .fallocate = slow_fallocate,
  .fsync = slow_fsync,
  .statfs = slow_statfs,
};

int
main (int argc, char **argv)
{
  char *end1, *end2;
  const char *kept = NULL, *logged = NULL;
  long write_us = 0, read_cache_mib = 0, read_cache_us = 0;
  if (argc < 4)
    {
      fprintf (stderr, "usage: slow-fs MOUNTPOINT SERVICE_US PARALLEL [--write-us US] "
               "[--keep-writes FILE] [--write-cache MIB [--cache-us US]] "
               "[--log-requests FILE] [--thin-us US] [--read-cache MIB [--read-cache-us US]]\n");
      return 2;
    }
  long us = strtol (argv[2], &end1, 10);
  long parallel = strtol (argv[3], &end2, 10);
  if (*end1 || *end2 || us < 1 || us > 10000000 || parallel < 1 || parallel > 64)
    {
      fprintf (stderr, "slow-fs: SERVICE_US must be 1..10000000 and PARALLEL 1..64\n");
      return 2;
    }
  for (int i = 4; i < argc; i += 2)
    {
      if (i + 1 >= argc)
        {
          fprintf (stderr, "slow-fs: %s needs a value\n", argv[i]);
          return 2;
        }
      if (!strcmp (argv[i], "--keep-writes"))
        kept = argv[i + 1];
      else if (!strcmp (argv[i], "--log-requests"))
        logged = argv[i + 1];
      else if (!strcmp (argv[i], "--write-us"))
        {
          write_us = strtol (argv[i + 1], &end1, 10);
          if (*end1 || write_us < 0 || write_us > 10000000)
            {
              fprintf (stderr, "slow-fs: --write-us must be 0..10000000\n");
              return 2;
            }
        }
      else if (!strcmp (argv[i], "--thin-us"))
        {
          long v = strtol (argv[i + 1], &end1, 10);
          if (*end1 || v < 1 || v > 10000000)
            {
              fprintf (stderr, "slow-fs: --thin-us must be 1..10000000\n");
              return 2;
            }
          fs.thin_service_ns = v * 1000;
        }
      else if (!strcmp (argv[i], "--write-cache") || !strcmp (argv[i], "--cache-us"))
        {
          long v = strtol (argv[i + 1], &end1, 10);
          if (*end1 || v < 0 || v > 10000000)
            {
              fprintf (stderr, "slow-fs: %s must be 0..10000000\n", argv[i]);
              return 2;
            }
          if (argv[i][2] == 'w')
            {
              fs.cache = true;
              fs.cache_left = (uint64_t) v << 20;
            }
          else
            fs.cache_service_ns = v * 1000;
        }
      else if (!strcmp (argv[i], "--read-cache") || !strcmp (argv[i], "--read-cache-us"))
        {
          long v = strtol (argv[i + 1], &end1, 10);
          if (*end1 || v < 0 || v > (argv[i][12] ? 10000000 : 512))
            {
              fprintf (stderr, "slow-fs: %s must be 0..%d\n", argv[i],
                       argv[i][12] ? 10000000 : 512);
              return 2;
            }
          *(argv[i][12] ? &read_cache_us : &read_cache_mib) = v;
        }
      else
        {
          fprintf (stderr, "slow-fs: unknown option %s\n", argv[i]);
          return 2;
        }
    }
  fs.service_ns = us * 1000;
  fs.write_service_ns = write_us * 1000;
  fs.parallel = (unsigned) parallel;
  slow_read_cache_init ((uint64_t) read_cache_mib << 20, read_cache_us * 1000);
  if (kept && !(fs.kept = fopen (kept, "wbx")))
    {
      fprintf (stderr, "slow-fs: cannot create %s: %s\n", kept, strerror (errno));
      return 1;
    }
  if (logged)
    {
      if (!(fs.log = fopen (logged, "wx")))
        {
          fprintf (stderr, "slow-fs: cannot create %s: %s\n", logged, strerror (errno));
          return 1;
        }
      /* Whole blocks, not a write per request: the log must not slow the
       * service it records. */
      setvbuf (fs.log, NULL, _IOFBF, 1 << 20);
    }
  fs.epoch_ns = now_ns ();
  /* Sleeps end on time, not up to 50 us late, and a busy machine does not
   * keep a served read waiting for a CPU: the worker threads inherit both
   * from the main thread that creates them. A priority low among real-time
   * ones: the service is sleeping, so it takes almost no CPU from others. */
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  struct sched_param rt = { .sched_priority = 10 };
  fs.realtime = sched_setscheduler (0, SCHED_FIFO, &rt) == 0;
  if (!fs.realtime)
    fprintf (stderr, "slow-fs: no real-time scheduling (%s); service may run late under load\n",
             strerror (errno));

  /* Foreground, many threads (a queued read holds one while it waits for
   * a slot), and no single-thread option. */
  char *args[] = { argv[0], argv[1], "-f", "-o", "fsname=slow-fs,max_threads=128",
                   NULL };
  int rc = fuse_main (5, args, &slow_ops, NULL);
  if (fs.kept)
    fclose (fs.kept);
  if (fs.log && fclose (fs.log) != 0)
    {
      fprintf (stderr, "slow-fs: writing the request log failed: %s\n", strerror (errno));
      return 1;
    }
  return rc;
}
