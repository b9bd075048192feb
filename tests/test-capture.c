/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capture's statistics from request events whose shape is known by
 * construction: sizes, shares, depths, latencies and interarrival times
 * come out exactly; the profile file it writes parses back to the shape;
 * a capture saved as JSON reads back and prints the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-capture.h"
#include "dm-profile-file.h"
#include "dm-rng.h"
#include "dm-test.h"

#define N 12000
#define MS 1000000ull

static dm_capture c;
static dm_capture_event ev[2 * N];

/* N requests in groups of 3 issued 1 ms apart, each completing 100 us
 * after the third of its group: depths 1, 2, 3 alike. A quarter continue
 * where the last request of their direction ended (one stream per
 * direction, as fio's sequential part goes); sizes 4K or 64K (70/30);
 * reads 60 %. */
static void
make_events (size_t *n_out, unsigned *reads, unsigned *small, unsigned *seq)
{
  dm_rng rng;
  uint64_t t = 1000 * MS, next_end[2] = { 0, 0 };
  size_t n = 0;
  dm_rng_seed (&rng, 42);
  *reads = *small = *seq = 0;
  for (unsigned g = 0; g < N / 3; g++)
    {
      dm_capture_event group[3];
      for (unsigned k = 0; k < 3; k++)
        {
          dm_capture_event *e = &group[k];
          unsigned op = dm_rng_below (&rng, 100) < 60 ? DM_CAPTURE_OP_READ : DM_CAPTURE_OP_WRITE;
          uint32_t bytes = dm_rng_below (&rng, 100) < 70 ? 4096 : 65536;
          bool s = next_end[op] && dm_rng_below (&rng, 100) < 25;
          uint64_t sector = s ? next_end[op] : 8 * (1 + dm_rng_below (&rng, 1u << 20));
          memset (e, 0, sizeof *e);
          e->t_ns = t;
          e->sector = sector;
          e->bytes = bytes;
          e->what = DM_CAPTURE_ISSUE;
          e->op = (uint8_t) op;
          next_end[op] = sector + bytes / 512;
          *reads += op == DM_CAPTURE_OP_READ;
          *small += bytes == 4096;
          *seq += s;
          ev[n++] = *e;
          t += MS;
        }
      for (unsigned k = 0; k < 3; k++)
        {
          ev[n] = group[k];
          ev[n].what = DM_CAPTURE_COMPLETE;
          ev[n++].t_ns = t - MS + 100000 + k; /* after the group's last issue */
        }
    }
  *n_out = n;
}

static void
capture_known (unsigned *reads, unsigned *small, unsigned *seq)
{
  size_t n;
  make_events (&n, reads, small, seq);
  dm_capture_clear (&c);
  dm_capture_init (&c);
  snprintf (c.target, sizeof c.target, "/dev/test");
  snprintf (c.disk, sizeof c.disk, "test");
  c.from = DM_CAPTURE_FROM_EVENTS;
  DM_CHECK_INT (dm_capture_begin (&c, 1000 * MS), ==, 0);
  /* Fed in slices, as the capture's loop feeds what each read gave. */
  for (size_t i = 0; i < n; i += 1000)
    dm_capture_feed (&c, ev + i, n - i < 1000 ? n - i : 1000, UINT64_MAX);
  dm_capture_end (&c, N / 1000.0);
}

static void
test_shape (void)
{
  unsigned reads, small, seq;
  capture_known (&reads, &small, &seq);
  const dm_capture_dir *a = &c.dir[DM_CAPTURE_ALL];
  DM_CHECK_INT (a->requests, ==, N);
  DM_CHECK_INT (c.dir[DM_CAPTURE_READS].requests, ==, reads);
  DM_CHECK_INT (a->sizes[3], ==, small);          /* the 4K bucket */
  DM_CHECK_INT (a->sizes[7], ==, N - small);      /* 64K */
  DM_CHECK_INT (a->sequential, >=, seq);          /* a random one may land on an end */
  DM_CHECK_INT (a->sequential, <=, seq + 2);
  DM_CHECK_INT (a->depths[0], ==, N / 3);
  DM_CHECK_INT (a->depths[1], ==, N / 3);
  DM_CHECK_INT (a->depths[2], ==, N / 3);
  DM_CHECK (fabs (dm_capture_depth_mean (a) - 2.0) < 1e-9);
  DM_CHECK_INT (dm_capture_depth_median (a), ==, 2);
  DM_CHECK_INT (a->latency.count, ==, N);
  DM_CHECK_INT (a->interarrival.count, ==, N - 1);
  DM_CHECK (fabs (dm_histogram_mean (&a->interarrival) - 1e6) < 1);
  DM_CHECK_INT (c.unmatched, ==, 0);
  DM_CHECK_INT (c.in_flight, ==, 0);
  /* 1000 requests each second, every second alike. */
  dm_capture_iops io;
  dm_capture_iops_get (&c, &io);
  DM_CHECK_INT (io.samples, ==, N / 1000);
  DM_CHECK (fabs (io.mean - 1000) < 1e-9 && io.p50 == 1000 && io.p95 == 1000 && io.peak == 1000);
  DM_CHECK_INT (io.bursts, ==, 0);
  /* Per direction, from the previous request of the same direction. */
  const dm_capture_dir *r = &c.dir[DM_CAPTURE_READS];
  uint64_t zero = r->seeks[DM_CAPTURE_SEEK_SIDE], all = 0;
  for (unsigned b = 0; b < DM_CAPTURE_SEEKS; b++)
    all += r->seeks[b];
  DM_CHECK_INT (all, ==, r->requests - 1);
  DM_CHECK (zero >= r->sequential - 2 && zero <= r->sequential);
}

/* 12000 requests in flight at once fill the table of pending requests to
 * three quarters, so that its probe runs are long; they complete in a
 * scrambled order, each in two parts. */
static void
test_partial_and_collisions (void)
{
  enum { M = 12000 };
  dm_capture_clear (&c);
  dm_capture_init (&c);
  c.from = DM_CAPTURE_FROM_EVENTS;
  dm_capture_begin (&c, 0);
  for (unsigned i = 0; i < M; i++)
    {
      dm_capture_event e = { .t_ns = 1 + i, .sector = (uint64_t) i * 1024, .bytes = 8192,
                             .what = DM_CAPTURE_ISSUE, .op = DM_CAPTURE_OP_WRITE };
      dm_capture_feed (&c, &e, 1, UINT64_MAX);
    }
  for (unsigned k = 0; k < M; k++)
    {
      unsigned i = (unsigned) ((uint64_t) k * 7919 % M);
      dm_capture_event e = { .t_ns = 100000 + k, .sector = (uint64_t) i * 1024, .bytes = 4096,
                             .what = DM_CAPTURE_COMPLETE, .op = DM_CAPTURE_OP_WRITE };
      dm_capture_feed (&c, &e, 1, UINT64_MAX);
      e.sector += 8;
      e.t_ns = 200000 + i;
      dm_capture_feed (&c, &e, 1, UINT64_MAX);
    }
  dm_capture_end (&c, 1);
  const dm_capture_dir *w = &c.dir[DM_CAPTURE_WRITES];
  DM_CHECK_INT (w->latency.count, ==, M);
  DM_CHECK_INT (w->depths[DM_CAPTURE_DEPTH_MAX - 1], ==, M - DM_CAPTURE_DEPTH_MAX + 1);
  DM_CHECK_INT (c.unmatched, ==, 0);
  DM_CHECK_INT (c.in_flight, ==, 0);
  /* Every latency: 200000 + i - (1 + i), from the issue, not the part. */
  DM_CHECK_INT (w->latency.min, ==, 199999);
  DM_CHECK_INT (w->latency.max, ==, 199999);
}

static void
test_profile (void)
{
  unsigned reads, small, seq;
  dm_buf out;
  dm_workload w[2];
  unsigned n = 0;
  char why[320];
  capture_known (&reads, &small, &seq);
  dm_buf_init (&out);
  DM_CHECK_INT (dm_capture_write_profile (&c, &out, why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_profile_file_parse (out.data, out.len, w, 2, &n, why, sizeof why), ==, 0);
  if (n != 1)
    {
      fprintf (stderr, "%s\n%s\n", why, out.data);
      DM_CHECK (0);
      dm_buf_free (&out);
      return;
    }
  DM_CHECK_INT (w[0].n_sizes, ==, 2);
  DM_CHECK_INT (w[0].sizes[0], ==, 4096);
  DM_CHECK_INT (w[0].sizes[1], ==, 65536);
  DM_CHECK_INT (w[0].weights[0], ==, (unsigned) lround (1000.0 * small / N));
  DM_CHECK_INT (w[0].read_percent, ==, (unsigned) lround (100.0 * reads / N));
  DM_CHECK_INT (w[0].random_percent, ==,
                (unsigned) lround (dm_capture_random_share (&c.dir[DM_CAPTURE_ALL])));
  DM_CHECK_INT (w[0].queue_depth, ==, 2);
  DM_CHECK_INT (w[0].rate_unit, ==, DM_RATE_IOPS);
  DM_CHECK (w[0].rate == 1000);
  /* Every number is explained above the row. */
  DM_CHECK (strstr (out.data, "# read:") && strstr (out.data, "# qd:"));
  DM_CHECK (strstr (out.data, "# rate:") && strstr (out.data, "# block:"));
  dm_buf_free (&out);

  /* The counters alone cannot give a shape. */
  c.from = DM_CAPTURE_FROM_COUNTERS;
  dm_buf_init (&out);
  DM_CHECK (dm_capture_write_profile (&c, &out, why, sizeof why) < 0 && strstr (why, "counters"));
  dm_buf_free (&out);
}

static void
test_json (void)
{
  unsigned reads, small, seq;
  dm_buf a, b, ta, tb;
  static dm_capture back;
  char why[320];
  capture_known (&reads, &small, &seq);
  dm_buf_init (&a);
  dm_buf_init (&b);
  dm_buf_init (&ta);
  dm_buf_init (&tb);
  dm_capture_write_json (&c, &a);
  dm_capture_init (&back);
  DM_CHECK_INT (dm_capture_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  dm_capture_write_text (&c, &ta);
  dm_capture_write_text (&back, &tb);
  DM_CHECK_STR (tb.data, ta.data);
  dm_capture_write_csv (&c, &ta);
  dm_capture_write_csv (&back, &tb);
  DM_CHECK_STR (tb.data, ta.data);
  /* A report that is no capture is said to be none. */
  DM_CHECK_INT (dm_capture_load_json (&back, "{\"results\": []}", 15, why, sizeof why), ==, 1);
  const char *other = "{\"capture\": {\"version\": 9}}";
  DM_CHECK (dm_capture_load_json (&back, other, strlen (other), why, sizeof why) < 0);
  dm_capture_clear (&back);
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&ta);
  dm_buf_free (&tb);
}

/* The counters alone: their means, said to be so, and no histogram. */
static void
test_counters (void)
{
  dm_buf out;
  static dm_capture k, back;
  char why[320];
  dm_capture_init (&k);
  k.from = DM_CAPTURE_FROM_COUNTERS;
  snprintf (k.from_why, sizeof k.from_why, "they need root or CAP_SYS_ADMIN");
  k.counted = true;
  k.c_reads = 700;
  k.c_writes = 300;
  k.c_read_bytes = 700 * 4096;
  k.c_write_bytes = 300 * 65536;
  for (unsigned t = 0; t < 20; t++)
    dm_capture_add_tick (&k, t, 35, 15);
  dm_capture_end (&k, 2);
  DM_CHECK (fabs (dm_capture_read_share (&k) - 70) < 1e-9);
  dm_capture_iops io;
  dm_capture_iops_get (&k, &io);
  DM_CHECK (io.samples == 2 && io.mean == 500 && io.p95 == 500);
  dm_buf_init (&out);
  dm_capture_write_text (&k, &out);
  DM_CHECK (strstr (out.data, "from the disk's counters alone") != NULL);
  DM_CHECK (strstr (out.data, "CAP_SYS_ADMIN") != NULL);
  DM_CHECK (strstr (out.data, "Mean size     read 4.0KiB, write 64.0KiB") != NULL);
  DM_CHECK (strstr (out.data, "Seek distance") == NULL);
  dm_buf_clear (&out);
  dm_capture_write_json (&k, &out);
  dm_capture_init (&back);
  DM_CHECK_INT (dm_capture_load_json (&back, out.data, out.len, why, sizeof why), ==, 0);
  DM_CHECK (back.from == DM_CAPTURE_FROM_COUNTERS && back.c_reads == 700 && back.n_ticks == 20);
  dm_capture_clear (&back);
  dm_capture_clear (&k);
  dm_buf_free (&out);
}

int
main (void)
{
  DM_RUN ("/engine/capture/shape", test_shape);
  DM_RUN ("/engine/capture/partial-and-collisions", test_partial_and_collisions);
  DM_RUN ("/engine/capture/profile", test_profile);
  DM_RUN ("/engine/capture/json", test_json);
  DM_RUN ("/engine/capture/counters", test_counters);
  dm_capture_clear (&c);
  return dm_test_done ();
}
