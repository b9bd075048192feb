/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The block layer's request events on Linux: block:block_rq_issue (the
 * request handed to the driver) and block:block_rq_complete, recorded in a
 * private tracefs instance (instances/diskmeter-PID, so no other tracer's
 * settings or buffer are touched), filtered in the kernel to the disks
 * under the target, and read as binary ring pages from each CPU's
 * trace_pipe_raw. Binary rather than trace_pipe's text: the kernel does not
 * format a line per event and this side does not parse one, which keeps
 * the reader's own CPU time near nothing (README: the figures). Reading
 * every 100 ms batches hundreds of events per system call.
 */
#include "dm-capture-source.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dm-linux-private.h"

#define MAX_DISKS 16
#define MAX_CPUS  1024
/* Per CPU buffer: a burst of 100k events (64 bytes each) between two
 * reads fits, while a many-CPU host spends at most 64 MiB on all. */
#define BUFFER_KB_MAX (4u << 10)
#define BUFFER_KB_MIN 512u
#define BUFFER_KB_ALL (64u << 10)
/* An event is stamped when its slot is reserved and readable when it is
 * committed, microseconds later with preemption off: events stamped more
 * than this before a drain began are all in it. */
#define COMMIT_SLACK_NS 2000000ull

typedef struct fields {
  unsigned id;
  int dev, sector, nr_sector, rwbs, rwbs_size;
} fields;

struct dm_capture_source {
  char     root[PATH_MAX];  /* the tracefs mount used */
  char     inst[PATH_MAX];  /* root/instances/diskmeter-PID */
  bool     mounted;         /* root was mounted here: unmounted at close */
  bool     made;            /* inst was created */
  unsigned n_disks;
  uint32_t devs[MAX_DISKS]; /* the kernel's dev_t encoding, MAJ << 20 | MIN */
  fields   issue, complete;
  dm_trace_page_layout layout;
  size_t   page_size;
  unsigned char *page;
  unsigned n_cpus;
  int      fds[MAX_CPUS];
  unsigned cpus[MAX_CPUS];
  /* Where parsed events go during one read. */
  dm_capture_event *out;
  size_t   max, n;
};

/* A one-line reason, as the engine's dm_why writes them. */
__attribute__ ((format (printf, 3, 4))) static void
say (char *why, size_t ws, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, ws, fmt, ap);
  va_end (ap);
}

static int
write_text (const char *dir, const char *name, const char *text)
{
  char path[PATH_MAX + 64];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  ssize_t n = write (fd, text, strlen (text));
  int err = n < 0 ? -errno : 0;
  close (fd);
  return err;
}

static int
read_text (const char *dir, const char *name, char *buf, size_t size)
{
  char path[PATH_MAX + 64];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  size_t got = 0;
  for (ssize_t n; got + 1 < size && (n = read (fd, buf + got, size - 1 - got)) > 0;)
    got += (size_t) n;
  close (fd);
  buf[got] = '\0';
  return 0;
}

/* tracefs where it is mounted, else mounted at /sys/kernel/tracing. */
static int
find_tracefs (dm_capture_source *s)
{
  FILE *f = fopen ("/proc/self/mounts", "re");
  char line[PATH_MAX + 256], dev[64], dir[PATH_MAX], type[64];
  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "%63s %4095s %63s", dev, dir, type) == 3 && !strcmp (type, "tracefs"))
      {
        snprintf (s->root, sizeof s->root, "%s", dir);
        fclose (f);
        return 0;
      }
  if (f)
    fclose (f);
  snprintf (s->root, sizeof s->root, "/sys/kernel/tracing");
  if (mount ("tracefs", s->root, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
    return -errno;
  s->mounted = true;
  return 0;
}

/* The offsets of the fields named in an event's format file. */
static int
read_fields (const dm_capture_source *s, const char *event, fields *f)
{
  char dir[PATH_MAX + 64], text[8192], *p;
  snprintf (dir, sizeof dir, "%s/events/block/%s", s->inst, event);
  f->dev = f->sector = f->nr_sector = f->rwbs = -1;
  if (read_text (dir, "id", text, sizeof text) < 0 || sscanf (text, "%u", &f->id) != 1)
    return -ENOENT;
  if (read_text (dir, "format", text, sizeof text) < 0)
    return -ENOENT;
  for (p = text; (p = strstr (p, "field:"));)
    {
      char decl[128], *semi = strchr (p, ';'), *name;
      int off = -1, size = -1;
      if (!semi || semi - p - 6 >= (long) sizeof decl)
        break;
      memcpy (decl, p + 6, (size_t) (semi - p - 6));
      decl[semi - p - 6] = '\0';
      char *o = strstr (semi, "offset:"), *z = strstr (semi, "size:");
      if (!o || !z || sscanf (o, "offset:%d", &off) != 1 || sscanf (z, "size:%d", &size) != 1)
        break;
      if ((name = strchr (decl, '[')))
        *name = '\0';
      name = strrchr (decl, ' ');
      name = name ? name + 1 : decl;
      if (!strcmp (name, "dev") && size == 4)
        f->dev = off;
      else if (!strcmp (name, "sector") && size == 8)
        f->sector = off;
      else if (!strcmp (name, "nr_sector") && size == 4)
        f->nr_sector = off;
      else if (!strcmp (name, "rwbs"))
        f->rwbs = off, f->rwbs_size = size;
      p = semi;
    }
  return f->dev < 0 || f->sector < 0 || f->nr_sector < 0 || f->rwbs < 0 ? -EPROTO : 0;
}

/* header_page: "field: local_t commit; offset:8; size:8; ..." */
static int
read_layout (dm_capture_source *s)
{
  char dir[PATH_MAX + 16], text[2048];
  snprintf (dir, sizeof dir, "%s/events", s->root);
  if (read_text (dir, "header_page", text, sizeof text) < 0)
    return -ENOENT;
  char *c = strstr (text, "commit;"), *d = strstr (text, "data;");
  if (!c || !d || sscanf (strstr (c, "offset:"), "offset:%u", &s->layout.commit_offset) != 1
      || sscanf (strstr (c, "size:"), "size:%u", &s->layout.commit_size) != 1
      || sscanf (strstr (d, "offset:"), "offset:%u", &s->layout.data_offset) != 1)
    return -EPROTO;
  return 0;
}

static uint64_t
get_u (const unsigned char *d, int off, unsigned size)
{
  uint64_t v = 0;
  memcpy (&v, d + off, size); /* little- or big-endian alike: the host's own */
  if (size == 4)
    {
      uint32_t v32;
      memcpy (&v32, d + off, 4);
      return v32;
    }
  return v;
}

static void
on_event (void *user, uint64_t ts, const unsigned char *d, size_t size)
{
  dm_capture_source *s = user;
  uint16_t type;
  if (size < 8 || s->n == s->max)
    return;
  memcpy (&type, d, 2);
  const fields *f = type == s->issue.id ? &s->issue : type == s->complete.id ? &s->complete : NULL;
  if (!f || (size_t) f->rwbs + (size_t) f->rwbs_size > size)
    return;
  uint32_t dev = (uint32_t) get_u (d, f->dev, 4);
  unsigned disk = 0;
  while (disk < s->n_disks && s->devs[disk] != dev)
    disk++;
  if (disk == s->n_disks)
    return;
  dm_capture_event *e = &s->out[s->n++];
  char rwbs[16] = "";
  memcpy (rwbs, d + f->rwbs, f->rwbs_size < 15 ? (size_t) f->rwbs_size : 15);
  e->t_ns = ts;
  e->sector = get_u (d, f->sector, 8);
  e->bytes = (uint32_t) get_u (d, f->nr_sector, 4) << 9;
  e->what = f == &s->issue ? DM_CAPTURE_ISSUE : DM_CAPTURE_COMPLETE;
  /* rwbs: [F]lush first, then R, W, D(iscard), E(rase) or N(one): a flush
   * that carries no data is no read or write of the shape. */
  e->op = !e->bytes ? DM_CAPTURE_OP_OTHER
          : strchr (rwbs, 'D') || strchr (rwbs, 'E') ? DM_CAPTURE_OP_OTHER
          : strchr (rwbs, 'W') ? DM_CAPTURE_OP_WRITE
          : strchr (rwbs, 'R') ? DM_CAPTURE_OP_READ : DM_CAPTURE_OP_OTHER;
  e->disk = (uint8_t) disk;
  e->pad = 0;
}

unsigned
_dm_trace_page_parse (const dm_trace_page_layout *l, const unsigned char *page, size_t len,
                      void (*fn) (void *user, uint64_t ts, const unsigned char *data, size_t size),
                      void *user)
{
  uint64_t ts, commit;
  unsigned events = 0;
  if (len < l->data_offset || len < 8 || l->commit_offset + l->commit_size > len)
    return 0;
  memcpy (&ts, page, 8);
  commit = get_u (page, (int) l->commit_offset, l->commit_size);
  /* The top bits flag events missed before this page (counted apart). */
  size_t used = (size_t) (commit & ((1ull << 30) - 1));
  const unsigned char *data = page + l->data_offset;
  if (used > len - l->data_offset)
    used = len - l->data_offset;
  for (size_t off = 0; off + 4 <= used;)
    {
      uint32_t h, a0 = 0;
      memcpy (&h, data + off, 4);
      unsigned type_len = h & 31, delta = h >> 5;
      if (off + 8 <= used)
        memcpy (&a0, data + off + 4, 4);
      switch (type_len)
        {
        case 29: /* padding: the rest of the page, or a discarded event */
          if (!delta)
            return events;
          ts += delta;
          off += 4 + (size_t) a0;
          break;
        case 30: /* time extend */
          ts += ((uint64_t) a0 << 27) | delta;
          off += 8;
          break;
        case 31: /* absolute time stamp, its top bits the page's */
          ts = (ts & ~((1ull << 59) - 1)) | ((uint64_t) a0 << 27) | delta;
          off += 8;
          break;
        case 0: /* data, its length in the first word */
          ts += delta;
          if (a0 < 4 || off + 4 + a0 > used)
            return events;
          fn (user, ts, data + off + 8, a0 - 4);
          events++;
          off += 4 + (size_t) a0;
          break;
        default: /* data of type_len words */
          ts += delta;
          if (off + 4 + type_len * 4u > used)
            return events;
          fn (user, ts, data + off + 4, type_len * 4u);
          events++;
          off += 4 + type_len * 4u;
          break;
        }
    }
  return events;
}

int
dm_capture_target (const char *path, dm_target_info *info)
{
  struct stat st;
  char real[PATH_MAX], line[3 * PATH_MAX];
  memset (info, 0, sizeof *info);
  snprintf (info->path, sizeof info->path, "%s", path);
  if (stat (path, &st) < 0)
    return -errno;
  if (S_ISBLK (st.st_mode))
    {
      info->is_block_device = true;
      info->kind = DM_TARGET_DEVICE;
      snprintf (info->device, sizeof info->device, "%s", realpath (path, real) ? real : path);
      return 0;
    }
  if (!S_ISDIR (st.st_mode))
    return -ENOTDIR;
  /* mountinfo: "36 35 MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS] - TYPE SOURCE ...",
   * the device number as stat gives it, btrfs's anonymous one too. */
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  while (f && fgets (line, sizeof line, f))
    {
      unsigned ma, mi;
      char *dash = strstr (line, " - "), type[32], source[256];
      if (sscanf (line, "%*u %*u %u:%u", &ma, &mi) != 2 || !dash
          || makedev (ma, mi) != st.st_dev
          || sscanf (dash + 3, "%31s %255s", type, source) != 2)
        continue;
      snprintf (info->filesystem, sizeof info->filesystem, "%s", type);
      snprintf (info->device, sizeof info->device, "%s", source);
    }
  if (f)
    fclose (f);
  return 0;
}

static void
teardown (dm_capture_source *s)
{
  for (unsigned i = 0; i < s->n_cpus; i++)
    close (s->fds[i]);
  s->n_cpus = 0;
  if (s->made)
    {
      write_text (s->inst, "tracing_on", "0");
      write_text (s->inst, "events/block/block_rq_issue/enable", "0");
      write_text (s->inst, "events/block/block_rq_complete/enable", "0");
      rmdir (s->inst);
    }
  if (s->mounted)
    umount2 (s->root, 0);
  free (s->page);
}

/* Instances of captures that were killed (SIGKILL leaves no chance to
 * remove one) would go on recording: those whose process is gone, or is
 * this one under a reused id, are removed. */
static void
remove_stale (const char *root)
{
  char dir[PATH_MAX + 16];
  snprintf (dir, sizeof dir, "%s/instances", root);
  DIR *d = opendir (dir);
  for (struct dirent *e; d && (e = readdir (d));)
    {
      char path[PATH_MAX + 300];
      long pid;
      int end = 0;
      if (sscanf (e->d_name, "diskmeter-%ld%n", &pid, &end) != 1 || e->d_name[end])
        continue;
      if (pid != (long) getpid () && (kill ((pid_t) pid, 0) == 0 || errno != ESRCH))
        continue;
      snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
      rmdir (path);
    }
  if (d)
    closedir (d);
}

static int
setup (dm_capture_source *s, char *why, size_t ws)
{
  char text[512], filter[MAX_DISKS * 32] = "";
  int err;
  if ((err = find_tracefs (s)) < 0)
    return say (why, ws, "cannot mount tracefs at %s: %s", s->root, dm_strerror (err)), err;
  remove_stale (s->root);
  snprintf (s->inst, sizeof s->inst, "%s/instances/diskmeter-%ld", s->root, (long) getpid ());
  if (mkdir (s->inst, 0700) < 0)
    {
      err = -errno;
      if (err == -ENOENT)
        err = -ENOSYS;
      return say (why, ws, "cannot make a trace instance in %s: %s", s->root,
                     err == -ENOSYS ? "this kernel has no trace instances" : dm_strerror (err)),
             err;
    }
  s->made = true;
  if (read_fields (s, "block_rq_issue", &s->issue) < 0
      || read_fields (s, "block_rq_complete", &s->complete) < 0 || read_layout (s) < 0)
    return say (why, ws, "this kernel has no block:block_rq_issue and block_rq_complete "
                            "events Diskmeter can read"), -ENOSYS;
  for (unsigned i = 0; i < s->n_disks; i++)
    snprintf (filter + strlen (filter), sizeof filter - strlen (filter), "%sdev == %u",
              i ? " || " : "", s->devs[i]);
  /* The clock of dm_clock_ns, so events line up with the capture's time. */
  if (write_text (s->inst, "trace_clock", "mono") < 0)
    return say (why, ws, "this kernel's tracer has no monotonic clock"), -ENOSYS;
  long cpus = sysconf (_SC_NPROCESSORS_CONF);
  unsigned kb = BUFFER_KB_ALL / (unsigned) (cpus > 0 ? cpus : 1);
  snprintf (text, sizeof text, "%u", kb > BUFFER_KB_MAX ? BUFFER_KB_MAX
                                     : kb < BUFFER_KB_MIN ? BUFFER_KB_MIN : kb);
  write_text (s->inst, "buffer_size_kb", text);
  /* A full buffer drops new events, counted, rather than old unread ones. */
  write_text (s->inst, "options/overwrite", "0");
  if ((err = write_text (s->inst, "events/block/block_rq_issue/filter", filter)) < 0
      || (err = write_text (s->inst, "events/block/block_rq_complete/filter", filter)) < 0
      || (err = write_text (s->inst, "events/block/block_rq_issue/enable", "1")) < 0
      || (err = write_text (s->inst, "events/block/block_rq_complete/enable", "1")) < 0
      || (err = write_text (s->inst, "tracing_on", "1")) < 0)
    return say (why, ws, "cannot enable the block events: %s", dm_strerror (err)), err;

  /* One reader per CPU the instance keeps a buffer for. */
  s->page_size = (size_t) sysconf (_SC_PAGESIZE);
  if (read_text (s->inst, "buffer_subbuf_size_kb", text, sizeof text) == 0 && atoi (text) > 0)
    s->page_size = (size_t) atoi (text) * 1024;
  if (!(s->page = malloc (s->page_size)))
    return -ENOMEM;
  snprintf (text, sizeof text, "%s/per_cpu", s->inst);
  DIR *d = opendir (text);
  for (struct dirent *e; d && (e = readdir (d)) && s->n_cpus < MAX_CPUS;)
    {
      char path[PATH_MAX + 300];
      unsigned cpu;
      if (sscanf (e->d_name, "cpu%u", &cpu) != 1)
        continue;
      snprintf (path, sizeof path, "%s/%s/trace_pipe_raw", text, e->d_name);
      int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        continue;
      s->cpus[s->n_cpus] = cpu;
      s->fds[s->n_cpus++] = fd;
    }
  if (d)
    closedir (d);
  if (!s->n_cpus)
    return say (why, ws, "cannot read the trace instance's buffers"), -EACCES;
  return 0;
}

int
dm_capture_source_open (const dm_target_info *target, dm_capture_source **out, char *why,
                        size_t ws)
{
  dm_device_watch *w;
  char name[256], dir[PATH_MAX], text[64];
  int err;
  *out = NULL;
  if ((err = dm_device_watch_open (target, &w, name, sizeof name, why, ws)) < 0)
    return err;
  dm_capture_source *s = calloc (1, sizeof *s);
  if (!s)
    {
      dm_device_watch_close (w);
      return -ENOMEM;
    }
  for (unsigned i = 0; s->n_disks < MAX_DISKS && _dm_device_watch_disk (w, i, dir, sizeof dir) == 0;
       i++)
    {
      unsigned ma, mi;
      if (read_text (dir, "dev", text, sizeof text) == 0 && sscanf (text, "%u:%u", &ma, &mi) == 2)
        s->devs[s->n_disks++] = ma << 20 | mi;
    }
  dm_device_watch_close (w);
  if (!s->n_disks)
    {
      free (s);
      return say (why, ws, "no disk number for %s", name), -ENODEV;
    }
  if ((err = setup (s, why, ws)) < 0)
    {
      teardown (s);
      free (s);
      return err;
    }
  *out = s;
  return 0;
}

int
dm_capture_source_read (dm_capture_source *s, uint64_t timeout_ns, dm_capture_event *ev,
                        size_t max, size_t *n, uint64_t *complete_before)
{
  /* A sleep, not poll(): the kernel wakes a poller of trace_pipe_raw only
   * when the buffer is half full, and a timer is all this needs. */
  if (timeout_ns)
    dm_sleep_ns (timeout_ns);
  uint64_t began = dm_clock_ns ();
  size_t room = s->page_size / 12 + 1; /* the most events one page can hold */
  s->out = ev;
  s->max = max;
  s->n = 0;
  for (unsigned i = 0; i < s->n_cpus; i++)
    while (s->max - s->n >= room)
      {
        ssize_t got = read (s->fds[i], s->page, s->page_size);
        if (got <= 0)
          break;
        _dm_trace_page_parse (&s->layout, s->page, (size_t) got, on_event, s);
      }
  *n = s->n;
  *complete_before = began > COMMIT_SLACK_NS ? began - COMMIT_SLACK_NS : 0;
  return 0;
}

uint64_t
dm_capture_source_lost (dm_capture_source *s)
{
  uint64_t lost = 0;
  for (unsigned i = 0; i < s->n_cpus; i++)
    {
      char dir[PATH_MAX + 32], text[1024], *p;
      unsigned long long v;
      snprintf (dir, sizeof dir, "%s/per_cpu/cpu%u", s->inst, s->cpus[i]);
      if (read_text (dir, "stats", text, sizeof text) < 0)
        continue;
      if ((p = strstr (text, "overrun:")) && sscanf (p, "overrun: %llu", &v) == 1)
        lost += v;
      if ((p = strstr (text, "dropped events:")) && sscanf (p, "dropped events: %llu", &v) == 1)
        lost += v;
    }
  return lost;
}

void
dm_capture_source_close (dm_capture_source *s)
{
  if (!s)
    return;
  teardown (s);
  free (s);
}
