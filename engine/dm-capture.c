/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capture's statistics: request events, in time order, into the
 * vscsiStats histograms, the timeline and the workload row that has their
 * shape. Issues are matched to their completions by disk and sector in an
 * open-addressed table, as blkparse does; nothing is allocated per event.
 */
#include "dm-capture.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-spec.h"
#include "dm-units.h"

#define PENDING     16384u /* requests in flight at once, all disks: a power of two */
#define DISKS       256

typedef struct pending {
  uint64_t sector;
  uint64_t t;
  uint32_t bytes;
  uint8_t  op, disk, used;
} pending;

struct dm_capture_state {
  uint64_t t0, end;
  pending  table[PENDING];
  unsigned outstanding;
  uint64_t last_end[DM_CAPTURE_DIRS][DISKS];  /* bytes; +1 so 0 is none */
  uint64_t last_issue[DM_CAPTURE_DIRS];       /* ns; 0 none */
  uint64_t recent[DM_CAPTURE_RECENT];         /* ends, disk in the top byte; +1 */
  unsigned recent_next;
};

void
dm_capture_init (dm_capture *c)
{
  memset (c, 0, sizeof *c);
  for (unsigned d = 0; d < DM_CAPTURE_DIRS; d++)
    {
      dm_histogram_reset (&c->dir[d].latency);
      dm_histogram_reset (&c->dir[d].interarrival);
    }
  c->low = UINT64_MAX;
}

void
dm_capture_clear (dm_capture *c)
{
  free (c->ticks);
  free (c->state);
  c->ticks = NULL;
  c->state = NULL;
  c->n_ticks = c->cap_ticks = 0;
}

int
dm_capture_begin (dm_capture *c, uint64_t t0_ns)
{
  if (!(c->state = calloc (1, sizeof *c->state)))
    return -ENOMEM;
  c->state->t0 = t0_ns;
  return 0;
}

int
dm_capture_add_tick (dm_capture *c, unsigned k, uint32_t reads, uint32_t writes)
{
  if (k >= c->cap_ticks)
    {
      unsigned cap = c->cap_ticks ? c->cap_ticks : 256;
      while (cap <= k)
        cap *= 2;
      void *p = realloc (c->ticks, cap * sizeof *c->ticks);
      if (!p)
        return -ENOMEM;
      c->ticks = p;
      memset (c->ticks + c->cap_ticks, 0, (cap - c->cap_ticks) * sizeof *c->ticks);
      c->cap_ticks = cap;
    }
  c->ticks[k][0] += reads;
  c->ticks[k][1] += writes;
  if (k + 1 > c->n_ticks)
    c->n_ticks = k + 1;
  return 0;
}

static unsigned
slot_of (uint64_t sector, unsigned disk)
{
  uint64_t h = (sector ^ ((uint64_t) disk << 56)) * 0x9e3779b97f4a7c15ull;
  return (unsigned) (h >> 40) & (PENDING - 1);
}

static pending *
find (dm_capture_state *s, uint64_t sector, unsigned disk)
{
  for (unsigned i = slot_of (sector, disk), k = 0; k < PENDING; k++, i = (i + 1) & (PENDING - 1))
    {
      pending *p = &s->table[i];
      if (!p->used)
        return NULL;
      if (p->sector == sector && p->disk == disk)
        return p;
    }
  return NULL;
}

/* Linear probing's deletion: later entries of the run move up, so that no
 * search stops at the hole. */
static void
remove_at (dm_capture_state *s, pending *p)
{
  unsigned i = (unsigned) (p - s->table), j = i;
  s->table[i].used = 0;
  for (;;)
    {
      j = (j + 1) & (PENDING - 1);
      if (!s->table[j].used)
        return;
      unsigned home = slot_of (s->table[j].sector, s->table[j].disk);
      /* Stays unless its home lies cyclically in (i, j]. */
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j))
        {
          s->table[i] = s->table[j];
          s->table[j].used = 0;
          i = j;
        }
    }
}

static bool
insert (dm_capture_state *s, const pending *e)
{
  unsigned i = slot_of (e->sector, e->disk);
  for (unsigned k = 0; k < PENDING; k++, i = (i + 1) & (PENDING - 1))
    if (!s->table[i].used)
      {
        s->table[i] = *e;
        s->table[i].used = 1;
        return true;
      }
  return false;
}

static unsigned
size_bucket (uint32_t bytes)
{
  unsigned b = 0;
  for (uint64_t top = 512; b + 1 < DM_CAPTURE_SIZES && bytes > top; top <<= 1)
    b++;
  return b;
}

uint64_t
dm_capture_size_bucket_top (unsigned bucket)
{
  return 512ull << bucket;
}

static unsigned
seek_bucket (int64_t d)
{
  if (!d)
    return DM_CAPTURE_SEEK_SIDE;
  uint64_t a = d < 0 ? (uint64_t) -d : (uint64_t) d;
  unsigned k = 1;
  for (uint64_t top = 512; k < DM_CAPTURE_SEEK_SIDE && a > top; top <<= 1)
    k++;
  return d < 0 ? DM_CAPTURE_SEEK_SIDE - k : DM_CAPTURE_SEEK_SIDE + k;
}

static void
issue (dm_capture *c, const dm_capture_event *e)
{
  dm_capture_state *s = c->state;
  unsigned op = e->op, disk = e->disk;
  uint64_t start = e->sector * 512, end = start + e->bytes;
  uint64_t key = ((uint64_t) disk << 56 | (start & ((1ull << 56) - 1))) + 1;
  unsigned depth = s->outstanding + 1;
  bool seq = false;

  for (unsigned i = 0; i < DM_CAPTURE_RECENT && !seq; i++)
    seq = s->recent[i] == key;
  unsigned dirs[2] = { op, DM_CAPTURE_ALL };
  for (unsigned k = 0; k < 2; k++)
    {
      dm_capture_dir *d = &c->dir[dirs[k]];
      d->requests++;
      d->bytes += e->bytes;
      d->sizes[size_bucket (e->bytes)]++;
      d->depths[(depth > DM_CAPTURE_DEPTH_MAX ? DM_CAPTURE_DEPTH_MAX : depth) - 1]++;
      d->sequential += seq;
      if (s->last_end[dirs[k]][disk])
        d->seeks[seek_bucket ((int64_t) (start - (s->last_end[dirs[k]][disk] - 1)))]++;
      s->last_end[dirs[k]][disk] = end + 1;
      if (s->last_issue[dirs[k]])
        dm_histogram_add (&d->interarrival, e->t_ns - s->last_issue[dirs[k]], 1);
      s->last_issue[dirs[k]] = e->t_ns;
    }
  s->recent[s->recent_next] = ((uint64_t) disk << 56 | (end & ((1ull << 56) - 1))) + 1;
  s->recent_next = (s->recent_next + 1) % DM_CAPTURE_RECENT;
  if (start < c->low)
    c->low = start;
  if (end > c->high)
    c->high = end;
  unsigned tick = (unsigned) ((e->t_ns - s->t0) / DM_CAPTURE_TICK_NS);
  dm_capture_add_tick (c, tick, op == DM_CAPTURE_OP_READ, op == DM_CAPTURE_OP_WRITE);

  /* The same sector issued again while in flight: the kernel requeued it. */
  pending *p = find (s, e->sector, disk);
  if (p)
    {
      p->t = e->t_ns;
      return;
    }
  pending n = { .sector = e->sector, .t = e->t_ns, .bytes = e->bytes, .op = (uint8_t) op,
                .disk = (uint8_t) disk };
  if (insert (s, &n))
    s->outstanding++;
}

/* late: after the end, when a request not found was issued after it
 * too, and left out, rather than before the capture began. */
static void
complete (dm_capture *c, const dm_capture_event *e, bool late)
{
  dm_capture_state *s = c->state;
  pending *p = find (s, e->sector, e->disk);
  if (!p)
    {
      c->unmatched += !late;
      return;
    }
  if (e->bytes && e->bytes < p->bytes)
    {
      /* A part done: the rest stays in flight, from where it now starts. */
      pending rest = *p;
      rest.sector += e->bytes / 512;
      rest.bytes -= e->bytes;
      remove_at (s, p);
      insert (s, &rest);
      return;
    }
  uint64_t ns = e->t_ns > p->t ? e->t_ns - p->t : 0;
  dm_histogram_add (&c->dir[p->op].latency, ns, 1);
  dm_histogram_add (&c->dir[DM_CAPTURE_ALL].latency, ns, 1);
  remove_at (s, p);
  s->outstanding--;
}

void
dm_capture_feed (dm_capture *c, const dm_capture_event *ev, size_t n, uint64_t end_ns)
{
  dm_capture_state *s = c->state;
  for (size_t i = 0; i < n; i++)
    {
      const dm_capture_event *e = &ev[i];
      if (e->what == DM_CAPTURE_ISSUE)
        {
          if (e->t_ns < s->t0 || e->t_ns >= end_ns)
            continue;
          if (e->op == DM_CAPTURE_OP_OTHER)
            c->other++;
          else
            issue (c, e);
        }
      else if (e->op != DM_CAPTURE_OP_OTHER && e->t_ns >= s->t0)
        complete (c, e, e->t_ns >= end_ns);
    }
}

void
dm_capture_end (dm_capture *c, double seconds)
{
  c->seconds = seconds;
  if (c->state)
    c->in_flight = c->state->outstanding;
  if (c->low == UINT64_MAX)
    c->low = 0;
  unsigned want = (unsigned) ceil (seconds * 1e9 / DM_CAPTURE_TICK_NS - 1e-6);
  if (want && c->n_ticks < want)
    dm_capture_add_tick (c, want - 1, 0, 0);
  free (c->state);
  c->state = NULL;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
dm_capture_iops_get (const dm_capture *c, dm_capture_iops *o)
{
  unsigned per_s = (unsigned) (1e9 / DM_CAPTURE_TICK_NS);
  memset (o, 0, sizeof *o);
  /* Whole seconds only: a last part-second would read as a dip. */
  o->samples = c->n_ticks / per_s;
  if (c->seconds > 0 && c->seconds < 1e9 / DM_CAPTURE_TICK_NS * c->n_ticks)
    o->samples = (unsigned) fmin (o->samples, floor (c->seconds + 1e-6));
  double *v = o->samples ? malloc (o->samples * sizeof *v) : NULL;
  uint64_t all = 0;
  for (unsigned i = 0; i < c->n_ticks; i++)
    all += c->ticks[i][0] + c->ticks[i][1];
  if (v)
    {
      double sum = 0;
      for (unsigned s = 0; s < o->samples; s++)
        {
          v[s] = 0;
          for (unsigned k = 0; k < per_s; k++)
            v[s] += c->ticks[s * per_s + k][0] + c->ticks[s * per_s + k][1];
          sum += v[s];
        }
      qsort (v, o->samples, sizeof *v, cmp_double);
      o->mean = sum / o->samples;
      /* Nearest rank: the value 95 % of the seconds do not exceed. */
      o->p50 = v[(unsigned) ceil (0.5 * o->samples) - 1];
      o->p95 = v[(unsigned) ceil (0.95 * o->samples) - 1];
      o->peak = v[o->samples - 1];
      free (v);
    }
  else if (c->seconds > 0)
    o->mean = o->p50 = o->p95 = o->peak = (double) all / c->seconds;
  /* A burst: 100 ms in a row at twice the mean rate or more, and at
   * least 2 requests in each, so an idle disk's lone request is none. */
  double mean_tick = c->seconds > 0 ? (double) all / (c->seconds * per_s) : 0;
  unsigned run = 0;
  uint64_t in_bursts = 0;
  for (unsigned i = 0; i <= c->n_ticks; i++)
    {
      double n = i < c->n_ticks ? c->ticks[i][0] + c->ticks[i][1] : 0;
      if (i < c->n_ticks && n >= 2 && n >= 2 * mean_tick)
        {
          run++;
          in_bursts += (uint64_t) n;
          if (n * per_s > o->burst_peak)
            o->burst_peak = n * per_s;
          continue;
        }
      if (run)
        {
          o->bursts++;
          o->burst_longest_s = fmax (o->burst_longest_s, run / (double) per_s);
        }
      run = 0;
    }
  o->burst_share = all ? 100.0 * (double) in_bursts / (double) all : 0;
}

double
dm_capture_depth_mean (const dm_capture_dir *d)
{
  double sum = 0;
  uint64_t n = 0;
  for (unsigned i = 0; i < DM_CAPTURE_DEPTH_MAX; i++)
    {
      sum += (double) d->depths[i] * (i + 1);
      n += d->depths[i];
    }
  return n ? sum / (double) n : 0;
}

unsigned
dm_capture_depth_median (const dm_capture_dir *d)
{
  uint64_t n = 0, seen = 0;
  for (unsigned i = 0; i < DM_CAPTURE_DEPTH_MAX; i++)
    n += d->depths[i];
  for (unsigned i = 0; i < DM_CAPTURE_DEPTH_MAX; i++)
    if ((seen += d->depths[i]) * 2 >= n && n)
      return i + 1;
  return 0;
}

double
dm_capture_read_share (const dm_capture *c)
{
  if (c->from == DM_CAPTURE_FROM_COUNTERS)
    return c->c_reads + c->c_writes
             ? 100.0 * (double) c->c_reads / (double) (c->c_reads + c->c_writes) : 0;
  uint64_t n = c->dir[DM_CAPTURE_ALL].requests;
  return n ? 100.0 * (double) c->dir[DM_CAPTURE_READS].requests / (double) n : 0;
}

double
dm_capture_random_share (const dm_capture_dir *d)
{
  return d->requests ? 100.0 - 100.0 * (double) d->sequential / (double) d->requests : 0;
}

static void
bytes_label (uint64_t b, char *buf, size_t size)
{
  static const char units[] = "KMGT";
  if (b < 1024)
    {
      snprintf (buf, size, "%llu", (unsigned long long) b);
      return;
    }
  unsigned u = 0;
  for (b /= 1024; b >= 1024 && u < 3; b /= 1024)
    u++;
  snprintf (buf, size, "%llu%c", (unsigned long long) b, units[u]);
}

void
dm_capture_size_label (unsigned bucket, char *buf, size_t size)
{
  char t[16];
  if (bucket + 1 >= DM_CAPTURE_SIZES)
    {
      bytes_label (dm_capture_size_bucket_top (bucket - 1), t, sizeof t);
      snprintf (buf, size, ">%s", t);
    }
  else
    bytes_label (dm_capture_size_bucket_top (bucket), buf, size);
}

void
dm_capture_seek_label (unsigned bucket, char *buf, size_t size)
{
  char t[16];
  if (bucket == DM_CAPTURE_SEEK_SIDE)
    {
      snprintf (buf, size, "0");
      return;
    }
  unsigned k = bucket > DM_CAPTURE_SEEK_SIDE ? bucket - DM_CAPTURE_SEEK_SIDE
                                             : DM_CAPTURE_SEEK_SIDE - bucket;
  char sign = bucket > DM_CAPTURE_SEEK_SIDE ? '+' : '-';
  if (k == DM_CAPTURE_SEEK_SIDE)
    bytes_label (256ull << (k - 1), t, sizeof t), snprintf (buf, size, "%c>%s", sign, t);
  else
    bytes_label (256ull << k, t, sizeof t), snprintf (buf, size, "%c%s", sign, t);
}

int
dm_capture_workload (const dm_capture *c, dm_workload *w, char *why, size_t ws)
{
  const dm_capture_dir *all = &c->dir[DM_CAPTURE_ALL];
  uint64_t by_size[DM_CAPTURE_SIZES] = { 0 };
  dm_capture_iops iops;
  if (c->from != DM_CAPTURE_FROM_EVENTS)
    return dm_why (why, ws, "the disk's counters tell no size split nor random share: a "
                            "profile needs the kernel's request events");
  if (!all->requests)
    return dm_why (why, ws, "no read or write reached %s while capturing", c->disk);
  dm_workload_init (w);
  /* A size goes to its bucket's top, within what a workload row takes. */
  for (unsigned b = 0; b < DM_CAPTURE_SIZES; b++)
    {
      uint64_t top = dm_capture_size_bucket_top (b);
      unsigned to = b;
      while (dm_capture_size_bucket_top (to) < DM_BLOCK_MIN)
        to++;
      while (top > DM_BLOCK_MAX && dm_capture_size_bucket_top (to) > DM_BLOCK_MAX)
        to--;
      by_size[to] += all->sizes[b];
    }
  /* The 8 sizes with most requests, weighed per mille of all. */
  w->n_sizes = 0;
  for (unsigned k = 0; k < DM_WORKLOAD_SIZES; k++)
    {
      unsigned best = DM_CAPTURE_SIZES;
      for (unsigned b = 0; b < DM_CAPTURE_SIZES; b++)
        if (by_size[b] && (best == DM_CAPTURE_SIZES || by_size[b] > by_size[best]))
          best = b;
      if (best == DM_CAPTURE_SIZES)
        break;
      unsigned weight =
        (unsigned) llround (1000.0 * (double) by_size[best] / (double) all->requests);
      by_size[best] = 0;
      if (!weight && w->n_sizes)
        continue;
      unsigned i = w->n_sizes++;
      uint32_t size = (uint32_t) dm_capture_size_bucket_top (best);
      while (i > 0 && w->sizes[i - 1] > size)
        {
          w->sizes[i] = w->sizes[i - 1];
          w->weights[i] = w->weights[i - 1];
          i--;
        }
      w->sizes[i] = size;
      w->weights[i] = (uint16_t) (weight ? weight : 1);
    }
  w->read_percent = (unsigned) llround (dm_capture_read_share (c));
  w->random_percent = (unsigned) llround (dm_capture_random_share (all));
  long qd = lround (dm_capture_depth_mean (all));
  w->queue_depth = (uint16_t) (qd < 1 ? 1 : qd > DM_QUEUE_MAX ? DM_QUEUE_MAX : qd);
  w->threads = 1;
  dm_capture_iops_get (c, &iops);
  if (iops.p95 >= 1)
    {
      w->rate_unit = DM_RATE_IOPS;
      w->rate = round (iops.p95);
    }
  snprintf (w->name, sizeof w->name, "capture-%s", c->disk[0] ? c->disk : "disk");
  for (char *p = w->name; *p; p++)
    if (strchr (";=#[]\"\t\r\n", *p))
      *p = '_';
  return dm_workload_check (w, why, ws);
}
