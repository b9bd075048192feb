/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture's loop: every 100 ms the events recorded since are fetched,
 * put in time order and fed to the statistics, up to the moment before
 * which the platform says none can still be missing; without events, the
 * disk's counters are read instead, one 100 ms tick at a time. It reads
 * only kernel records, never the disk, so the capture adds no request.
 */
#include "dm-capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-text.h"
#include "dm-units.h"

#define EVENTS_MAX (1u << 18) /* held between two reads: 4 MiB */

static int
cmp_event (const void *a, const void *b)
{
  const dm_capture_event *x = a, *y = b;
  if (x->t_ns != y->t_ns)
    return x->t_ns < y->t_ns ? -1 : 1;
  return (int) x->what - (int) y->what; /* an issue before a completion of the same ns */
}

/* Sorts what is held and feeds what is older than before; returns how
 * many are still held, moved to the front. */
static size_t
feed_until (dm_capture *c, dm_capture_event *ev, size_t n, uint64_t before, uint64_t end)
{
  size_t k = 0;
  qsort (ev, n, sizeof *ev, cmp_event);
  while (k < n && ev[k].t_ns < before)
    k++;
  dm_capture_feed (c, ev, k, end);
  memmove (ev, ev + k, (n - k) * sizeof *ev);
  return n - k;
}

static void
set_counters (dm_capture *c, const dm_device_counters *a, const dm_device_counters *b,
              double seconds)
{
  c->counted = true;
  c->c_reads = b->reads - a->reads;
  c->c_writes = b->writes - a->writes;
  c->c_read_bytes = b->read_bytes - a->read_bytes;
  c->c_write_bytes = b->write_bytes - a->write_bytes;
  double ns = seconds * 1e9;
  c->avg_queue = ns > 0 ? (double) (b->queue_ns - a->queue_ns) / ns : 0;
  c->busy_percent = ns > 0 && b->members
                      ? 100.0 * (double) (b->busy_ns - a->busy_ns) / (ns * b->members) : 0;
  uint64_t done = c->c_reads + c->c_writes;
  c->await_ms = done ? (double) (b->queue_ns - a->queue_ns) / (double) done / 1e6 : 0;
}

int
dm_capture_run (dm_capture *c, const char *target, double seconds, atomic_int *cancel,
                void (*progress) (void *user, const dm_capture *c, double done), void *user,
                char *why, size_t ws)
{
  dm_target_info t;
  dm_device_watch *watch = NULL;
  dm_capture_source *src = NULL;
  dm_capture_event *ev = NULL;
  dm_device_counters first, last, prev;
  char inner[320];
  int err = dm_capture_target (target, &t);
  if (err == -ENOENT)
    return dm_text_say (why, ws, target, "%s does not exist", target), err;
  if (err < 0)
    return dm_text_say (why, ws, target, "cannot use %s: %s", target, dm_strerror (err)), err;
  dm_text_copy (c->target, sizeof c->target, target);
  if ((err = dm_device_watch_open (&t, &watch, c->disk, sizeof c->disk, inner, sizeof inner)) < 0)
    return dm_text_say (why, ws, target, "nothing to capture under %s: %s", target, inner), err;
  const char *base = strrchr (t.device, '/');
  base = base ? base + 1 : t.device;
  if (base[0] && strcmp (base, c->disk))
    snprintf (c->note, sizeof c->note,
              "%s lies on %s: every request to %s is captured, other partitions' too", base,
              c->disk, c->disk);

  err = dm_capture_source_open (&t, &src, c->from_why, sizeof c->from_why);
  c->from = err < 0 ? DM_CAPTURE_FROM_COUNTERS : DM_CAPTURE_FROM_EVENTS;
  if (err == -EPERM || err == -EACCES)
    {
      char cause[sizeof c->from_why];
      dm_text_copy (cause, sizeof cause, c->from_why);
      snprintf (c->from_why, sizeof c->from_why, "they need root or CAP_SYS_ADMIN (%s)", cause);
    }
  if (src && !(ev = malloc (EVENTS_MAX * sizeof *ev)))
    {
      err = -ENOMEM;
      goto out;
    }
  if ((err = dm_device_watch_read (watch, &first)) < 0)
    {
      dm_text_say (why, ws, target, "cannot read the counters of %s: %s", c->disk,
                   dm_strerror (err));
      goto out;
    }
  prev = first;
  uint64_t t0 = dm_clock_ns (), cpu0 = dm_process_cpu_ns (), end = t0 + (uint64_t) (seconds * 1e9);
  size_t held = 0;
  unsigned tick = 0;
  c->started = dm_wall_time ();
  c->started_ns = t0;
  if ((err = dm_capture_begin (c, t0)) < 0)
    goto out;
  if (progress)
    progress (user, c, 0);
  for (;;)
    {
      uint64_t now = dm_clock_ns ();
      if (cancel && atomic_load (cancel))
        {
          c->interrupted = true;
          end = now;
        }
      if (now >= end)
        break;
      uint64_t next = t0 + (uint64_t) (tick + 1) * DM_CAPTURE_TICK_NS;
      uint64_t wait = (next < end ? next : end) - now;
      if (src)
        {
          size_t n = 0;
          uint64_t before = 0;
          if ((err = dm_capture_source_read (src, wait, ev + held, EVENTS_MAX - held, &n,
                                             &before)) < 0)
            {
              dm_text_say (why, ws, target, "reading the block events failed: %s",
                           dm_strerror (err));
              goto out;
            }
          held = feed_until (c, ev, held + n, before, end);
        }
      else
        {
          dm_sleep_ns (wait);
          dm_device_counters now_c;
          if (dm_device_watch_read (watch, &now_c) == 0)
            {
              dm_capture_add_tick (c, tick, (uint32_t) (now_c.reads - prev.reads),
                                   (uint32_t) (now_c.writes - prev.writes));
              prev = now_c;
            }
        }
      if (dm_clock_ns () >= next)
        tick++;
      if (progress)
        progress (user, c, (double) (dm_clock_ns () - t0) / 1e9);
    }
  if (src)
    {
      /* Requests issued before the end complete a moment later: their
       * latency counts, while feed leaves out anything issued after. */
      size_t n = 0;
      uint64_t before = 0;
      dm_capture_source_read (src, 20000000ull, ev + held, EVENTS_MAX - held, &n, &before);
      held = feed_until (c, ev, held + n, UINT64_MAX, end);
      c->lost = dm_capture_source_lost (src);
    }
  double elapsed = (double) (end - t0) / 1e9;
  uint64_t cpu = dm_process_cpu_ns () - cpu0;
  c->cpu_percent = 100.0 * (double) cpu / (double) (dm_clock_ns () - t0);
  if (dm_device_watch_read (watch, &last) == 0)
    set_counters (c, &first, &last, elapsed);
  dm_capture_end (c, elapsed);
  err = 0;
out:
  free (ev);
  dm_capture_source_close (src);
  dm_device_watch_close (watch);
  if (err == -ENOMEM)
    dm_why (why, ws, "out of memory for the capture");
  return err;
}
