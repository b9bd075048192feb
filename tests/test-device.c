/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the disk saw, from two counter readings: the figures (queue from the
 * time-weighted counter, busy share, request size) and the flags, case by
 * case at their edges, and their trip through JSON and the text report.
 */
#include <errno.h>
#include <math.h>

#include "dm-device.h"
#include "dm-latency.h"
#include "dm-report.h"
#include "dm-study.h"
#include "dm-test.h"

/* One test's readings: before is all zero, after has what the disk did in
 * `seconds`; Diskmeter counted `counted` bytes meanwhile. */
typedef struct {
  const char *what;
  unsigned    block, qd, threads, read_percent;
  uint64_t    counted;
  uint64_t    reads, read_bytes, writes, write_bytes;
  double      queue;   /* mean requests at the disk over the span */
  unsigned    want;    /* flags */
} flag_case;

static const flag_case flag_cases[] = {
  /* The disk moved what was counted and held the queue. */
  { "read, all reached, full queue", 4096, 32, 1, 100, 100u << 20,
    25600, 100u << 20, 0, 0, 31.0, 0 },
  /* 89 % reached the disk: a cache served the rest. 90 % does not flag. */
  { "read, 89% reached", 4096, 32, 1, 100, 100u << 20,
    22784, 89u << 20, 0, 0, 31.0, DM_FLAG_CACHE_SUSPECTED },
  { "read, 90% reached", 4096, 32, 1, 100, 100u << 20,
    23040, 90u << 20, 0, 0, 31.0, 0 },
  /* Another program's writes do not make up for reads a cache served. */
  { "read from cache while another program writes", 4096, 32, 1, 100, 100u << 20,
    10, 40960, 25600, 200u << 20, 31.0, DM_FLAG_CACHE_SUSPECTED },
  /* Writes held in a cache. */
  { "write, half reached", 1u << 20, 8, 1, 0, 100u << 20,
    0, 0, 100, 50u << 20, 8.0, DM_FLAG_CACHE_SUSPECTED },
  /* Mix 70/30: the writes fell short though the total looks right. */
  { "mix, writes short", 4096, 32, 1, 70, 100u << 20,
    25600, 90u << 20, 2560, 10u << 20, 31.0, DM_FLAG_CACHE_SUSPECTED },
  { "mix, both reached", 4096, 32, 1, 70, 100u << 20,
    17920, 70u << 20, 7680, 30u << 20, 31.0, 0 },
  /* Half the queue is the edge; below it the host held the I/O. */
  { "host bound at 15.9 of 32", 4096, 32, 1, 100, 100u << 20,
    25600, 100u << 20, 0, 0, 15.9, DM_FLAG_HOST_BOUND },
  { "not host bound at 16 of 32", 4096, 32, 1, 100, 100u << 20,
    25600, 100u << 20, 0, 0, 16.0, 0 },
  /* Q x T counts threads too. */
  { "host bound at 60 of 4 x 32", 4096, 32, 4, 100, 100u << 20,
    25600, 100u << 20, 0, 0, 60.0, DM_FLAG_HOST_BOUND },
  /* Each 1 MiB read split into two 512 KiB requests: 8 requests at the
   * disk are only 4 of Diskmeter's I/Os, half of Q8: not flagged; 7 are. */
  { "split reads, 4 of 8 I/Os", 1u << 20, 8, 1, 100, 100u << 20,
    200, 100u << 20, 0, 0, 8.0, 0 },
  { "split reads, 3.5 of 8 I/Os", 1u << 20, 8, 1, 100, 100u << 20,
    200, 100u << 20, 0, 0, 7.0, DM_FLAG_HOST_BOUND },
  /* Merged neighbours: one 2 MiB request holds two 1 MiB I/Os. */
  { "merged reads, 2 requests = 4 I/Os", 1u << 20, 8, 1, 100, 100u << 20,
    50, 100u << 20, 0, 0, 2.0, 0 },
  /* A disk that saw nothing held no queue: the cache is the story. */
  { "nothing reached the disk", 4096, 32, 1, 100, 100u << 20,
    0, 0, 0, 0, 0.0, DM_FLAG_CACHE_SUSPECTED },
};

static void
test_flags (void)
{
  for (size_t i = 0; i < sizeof flag_cases / sizeof flag_cases[0]; i++)
    {
      const flag_case *c = &flag_cases[i];
      dm_device_counters before = { 0 }, after = { 0 };
      dm_device_ask ask = { c->block, c->qd, c->threads, c->read_percent };
      dm_device_seen seen;
      after.reads = c->reads;
      after.read_bytes = c->read_bytes;
      after.writes = c->writes;
      after.write_bytes = c->write_bytes;
      after.queue_ns = (uint64_t) (c->queue * 2e9);
      after.busy_ns = 2000000000ull;
      after.members = 1;
      dm_device_seen_set (&seen, "vda", &before, &after, 2.0, c->counted, &ask);
      if (seen.flags != c->want)
        fprintf (stderr, "case '%s': flags %u, want %u\n", c->what, seen.flags, c->want);
      DM_CHECK_INT (seen.flags, ==, c->want);
      DM_CHECK (fabs (seen.avg_queue - c->queue) < 1e-9);
    }
}

/* A device whose queue takes 256 requests (nr_requests) cannot hold half
 * of Q32 x T16 = 512: judged against what it can hold, 230 is a full queue;
 * where the limit is unknown, the same 230 is host bound. */
static void
test_queue_limit (void)
{
  dm_device_counters before = { 0 }, after = { 0 };
  dm_device_ask ask = { 4096, 32, 16, 100 };
  dm_device_seen seen;
  char why[200];

  after.reads = 100000;
  after.read_bytes = 100000ull * 4096;
  after.queue_ns = 230ull * 2000000000ull;
  after.busy_ns = 2000000000ull;
  after.members = 1;
  after.queue_limit = 256;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 100000ull * 4096, &ask);
  DM_CHECK_INT (seen.queue_limit, ==, 256);
  DM_CHECK_INT (seen.flags, ==, 0);
  after.queue_ns = 100ull * 2000000000ull;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 100000ull * 4096, &ask);
  DM_CHECK_INT (seen.flags, ==, DM_FLAG_HOST_BOUND);
  dm_device_flag_explain (DM_FLAG_HOST_BOUND, &seen, &ask, why, sizeof why);
  DM_CHECK (strstr (why, "held 100.0 of the 256 I/Os asked") != NULL);
  after.queue_ns = 230ull * 2000000000ull;
  after.queue_limit = 0;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 100000ull * 4096, &ask);
  DM_CHECK_INT (seen.flags, ==, DM_FLAG_HOST_BOUND);
}

static void
test_figures (void)
{
  dm_device_counters before = { 1000, 2000, 1u << 30, 2u << 30, 5000000000ull, 7000000000ull, 2 };
  dm_device_counters after = before;
  dm_device_ask ask = { 4096, 4, 1, 100 };
  dm_device_seen seen;

  /* Two member disks, each busy half of the 4 s: 50 %, not 100 %. */
  after.reads += 4096;
  after.read_bytes += 4096ull * 4096;
  after.busy_ns += 4000000000ull;
  after.queue_ns += 12000000000ull;
  dm_device_seen_set (&seen, "sda+sdb", &before, &after, 4.0, 4096ull * 4096, &ask);
  DM_CHECK (seen.counted);
  DM_CHECK_STR (seen.name, "sda+sdb");
  DM_CHECK_INT (seen.reads, ==, 4096);
  DM_CHECK_INT (seen.read_bytes, ==, 4096ull * 4096);
  DM_CHECK_INT (seen.writes, ==, 0);
  DM_CHECK (fabs (seen.avg_queue - 3.0) < 1e-9);
  DM_CHECK (fabs (seen.busy_percent - 50.0) < 1e-9);
  DM_CHECK (fabs (dm_device_seen_avg_request (&seen) - 4096) < 1e-9);
  DM_CHECK_INT (seen.flags, ==, 0);

  /* Millisecond counters over a short span may read a tick over 100 %. */
  after = before;
  after.busy_ns += 2 * 1001000000ull;
  dm_device_seen_set (&seen, "vda", &before, &after, 1.0, 0, &ask);
  DM_CHECK (seen.busy_percent <= 100.0);

  /* A counter that went backwards (a reset) reads 0, not 2^64 - n. */
  after = before;
  after.reads -= 10;
  dm_device_seen_set (&seen, "vda", &before, &after, 1.0, 0, &ask);
  DM_CHECK_INT (seen.reads, ==, 0);

  /* No span, no figures. */
  dm_device_seen_set (&seen, "vda", &before, &after, 0, 0, &ask);
  DM_CHECK (!seen.counted);
}

static void
test_names (void)
{
  dm_device_flag f;
  DM_CHECK_STR (dm_device_flag_name (DM_FLAG_CACHE_SUSPECTED), "cache_suspected");
  DM_CHECK_STR (dm_device_flag_name (DM_FLAG_HOST_BOUND), "host_bound");
  DM_CHECK_INT (dm_device_flag_parse ("host_bound", &f), ==, 0);
  DM_CHECK_INT (f, ==, DM_FLAG_HOST_BOUND);
  DM_CHECK_INT (dm_device_flag_parse ("fast", &f), ==, -EINVAL);
}

/* A report whose first result was flagged and whose second was counted
 * clean, written as JSON and read back: the same device figures, the same
 * flags, the same text. */
static void
test_round_trip (void)
{
  dm_report r, back;
  dm_settings s;
  dm_spec spec;
  dm_buf json = { 0 }, text = { 0 }, text_back = { 0 };
  char why[256] = "";

  dm_settings_init (&s);
  DM_CHECK_INT (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODES_ALL), ==, 0);
  r.status = DM_STATUS_COMPLETE;
  r.nocow = true;
  snprintf (r.backend, sizeof r.backend, "io_uring");
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];
      dm_device_counters before = { 0 }, after = { 0 };
      dm_device_ask ask = dm_result_device_ask (res);
      res->status = DM_STATUS_COMPLETE;
      after.members = 1;
      after.reads = 2000;
      after.read_bytes = 1000ull << 20;
      after.queue_ns = i == 0 ? 2000000000ull : 32000000000ull;
      after.busy_ns = 2000000000ull;
      dm_device_seen_set (&res->device, "vda", &before, &after, 2.0, 1000ull << 20, &ask);
    }
  DM_CHECK_INT (r.results[0].device.flags, ==, DM_FLAG_HOST_BOUND);
  DM_CHECK_INT (r.results[1].device.flags, ==, DM_FLAG_CACHE_SUSPECTED);

  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"flags\": [\n        \"host_bound\"\n      ]") != NULL);
  DM_CHECK (strstr (json.data, "\"avg_queue\": 1.000") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK (back.nocow);
  for (unsigned i = 0; i < r.n_results; i++)
    {
      DM_CHECK_INT (back.results[i].device.flags, ==, r.results[i].device.flags);
      DM_CHECK_INT (back.results[i].device.read_bytes, ==, r.results[i].device.read_bytes);
      DM_CHECK_INT (back.results[i].device.counted_bytes, ==, r.results[i].device.counted_bytes);
      DM_CHECK_STR (back.results[i].device.name, "vda");
    }
  dm_report_write_text (&r, &text);
  dm_report_write_text (&back, &text_back);
  DM_CHECK_STR (text_back.data, text.data);
  DM_CHECK (strstr (text.data, "   Mode: [direct, io_uring, random, NOCOW]\n") != NULL);
  DM_CHECK (strstr (text.data, "  SEQ1M_Q8T1 Read: host bound: vda held 0.5 of the 8 I/Os") != NULL);
  DM_CHECK (strstr (text.data, "  SEQ1M_Q8T1 Write: cache suspected: vda moved 0% of the bytes")
            != NULL);

  /* No counters: the note, and no device object. */
  dm_buf_free (&json);
  memset (&json, 0, sizeof json);
  memset (&r.results[0].device, 0, sizeof r.results[0].device);
  snprintf (r.device_note, sizeof r.device_note, "nfs4 is a network filesystem: no block device here to count");
  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"device\": null") != NULL);
  DM_CHECK (strstr (json.data, "\"device_note\": \"nfs4 is a network filesystem") != NULL);

  dm_buf_free (&json);
  dm_buf_free (&text);
  dm_buf_free (&text_back);
  dm_report_clear (&r);
  dm_report_clear (&back);
}

/* The queue the system held, as the backend counted it, with no device
 * counters at all (Wine, a share): under half of Q x T is queue_not_held,
 * in JSON, the text and back; a result held whole and one not counted are
 * not flagged, and only a counted one writes os_queue. */
static void
test_queue_not_held (void)
{
  dm_report r, back;
  dm_settings s;
  dm_spec spec;
  dm_buf json = { 0 }, text = { 0 };
  char why[256] = "";
  double held[DM_N_MODES] = { 1.0, 4.0, 4.0 }; /* read, write, mix */

  dm_settings_init (&s);
  DM_CHECK_INT (dm_spec_parse ("RND4K_Q4T1", &spec, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODES_ALL), ==, 0);
  r.status = DM_STATUS_COMPLETE;
  DM_CHECK_INT (r.n_results, ==, DM_N_MODES);
  snprintf (r.backend, sizeof r.backend, "iocp");
  snprintf (r.device_note, sizeof r.device_note, "cannot open the volume: Permission denied");
  for (unsigned i = 0; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];
      dm_device_ask ask = dm_result_device_ask (res);
      res->status = DM_STATUS_COMPLETE;
      res->device.os_counted = true;
      res->device.os_queue = held[i];
      res->device.flags = dm_device_seen_flags (&res->device, &ask);
    }
  DM_CHECK_INT (r.results[0].device.flags, ==, DM_FLAG_QUEUE_NOT_HELD);
  DM_CHECK_INT (r.results[1].device.flags, ==, 0);
  DM_CHECK_STR (dm_device_flag_name (DM_FLAG_QUEUE_NOT_HELD), "queue_not_held");

  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"os_queue\": 1.000,\n      \"flags\": [\n        \"queue_not_held\"") != NULL);
  DM_CHECK (strstr (json.data, "\"os_queue\": 4.000,\n      \"flags\": []") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_INT (back.results[0].device.flags, ==, DM_FLAG_QUEUE_NOT_HELD);
  DM_CHECK (back.results[1].device.os_counted);
  DM_CHECK (back.results[1].device.os_queue == 4.0);
  dm_report_write_text (&back, &text);
  DM_CHECK (strstr (text.data, " Device: not counted: cannot open the volume") != NULL);
  DM_CHECK (strstr (text.data, "  RND4K_Q4T1 Read: queue not held: the system held 1.0 of the 4 I/Os "
                               "asked at once on average") != NULL);
  DM_CHECK (strstr (text.data, "Write: queue not held") == NULL);

  /* A backend that cannot tell: no figure, no flag. */
  dm_buf_free (&json);
  memset (&json, 0, sizeof json);
  memset (&r.results[0].device, 0, sizeof r.results[0].device);
  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"os_queue\": 1.000") == NULL);

  dm_buf_free (&json);
  dm_buf_free (&text);
  dm_report_clear (&r);
  dm_report_clear (&back);
}

/* Each direction's await is its own ticks over its own requests, as
 * iostat's r_await and w_await; the part above it is Diskmeter's mean
 * less that. A direction without requests, or counters without times
 * (timed false), is not counted, and JSON says null and reads it back
 * so, as it reads a file from before the split (no keys at all). */
static void
test_await (void)
{
  dm_device_counters before = { 0 }, after = { 0 };
  dm_device_ask ask = { 4096, 4, 1, 70 };
  dm_device_seen seen;
  char why[256] = "";

  before.timed = after.timed = true;
  before.read_ns = 7000000ull, before.write_ns = 3000000ull;
  after.reads = 2000, after.read_bytes = 2000ull * 4096;
  after.writes = 1000, after.write_bytes = 1000ull * 4096;
  after.read_ns = before.read_ns + 2000ull * 5000000ull; /* 5 ms each */
  after.write_ns = before.write_ns + 1000ull * 2000000ull; /* 2 ms each */
  after.queue_ns = after.read_ns + after.write_ns;
  after.members = 1;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 3000ull * 4096, &ask);
  DM_CHECK (seen.split[DM_DEVICE_READ].counted && seen.split[DM_DEVICE_WRITE].counted);
  DM_CHECK (fabs (seen.split[DM_DEVICE_READ].await_us - 5000) < 1e-6);
  DM_CHECK (fabs (seen.split[DM_DEVICE_WRITE].await_us - 2000) < 1e-6);
  /* Before Diskmeter's means are known, nothing above the device is. */
  DM_CHECK (!seen.split[0].guest_counted && !seen.split[1].guest_counted);
  double mean[2] = { 5040.5, 1999.0 };
  uint64_t n[2] = { 2000, 1000 };
  dm_device_seen_set_guest (&seen, mean, n);
  DM_CHECK (seen.split[0].guest_counted && fabs (seen.split[0].guest_us - 40.5) < 1e-6);
  /* A part below 0 is kept as it is: the clocks' noise, not a reason to lie. */
  DM_CHECK (seen.split[1].guest_counted && fabs (seen.split[1].guest_us + 1.0) < 1e-6);
  dm_device_split_explain (&seen, why, sizeof why);
  DM_CHECK (strstr (why, "Reads ") == why);
  DM_CHECK (strstr (why, "(r_await)") && strstr (why, "; writes ") && strstr (why, "(w_await)"));

  /* A read time that went backwards (a wrap): not counted, not 0. */
  uint64_t kept = after.read_ns;
  after.read_ns = before.read_ns - 1;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 3000ull * 4096, &ask);
  DM_CHECK (!seen.split[DM_DEVICE_READ].counted && seen.split[DM_DEVICE_WRITE].counted);
  after.read_ns = kept;

  /* No writes completed: no w_await, and no part above it either. */
  after.writes = 0, after.write_ns = before.write_ns;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 2000ull * 4096, &ask);
  dm_device_seen_set_guest (&seen, mean, n);
  DM_CHECK (seen.split[0].counted && !seen.split[1].counted && !seen.split[1].guest_counted);
  dm_device_split_explain (&seen, why, sizeof why);
  DM_CHECK (strstr (why, "w_await") == NULL);
  /* Counters without times (a platform that keeps none). */
  after.timed = false;
  dm_device_seen_set (&seen, "vda", &before, &after, 2.0, 2000ull * 4096, &ask);
  dm_device_seen_set_guest (&seen, mean, n);
  DM_CHECK (seen.counted && !seen.split[0].counted && !seen.split[0].guest_counted);
  dm_device_split_explain (&seen, why, sizeof why);
  DM_CHECK_STR (why, "");

  /* Through JSON: the figures, a negative part, null where not counted. */
  dm_report r, back;
  dm_settings s;
  dm_spec spec;
  dm_buf json = { 0 }, lat = { 0 }, csv = { 0 };
  dm_settings_init (&s);
  DM_CHECK_INT (dm_spec_parse ("RND4K_Q4T1", &spec, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  r.status = r.results[0].status = DM_STATUS_COMPLETE;
  after.timed = true, after.writes = 1000, after.write_ns = before.write_ns + 1000ull * 2000000ull;
  dm_device_seen_set (&r.results[0].device, "vda", &before, &after, 2.0, 3000ull * 4096, &ask);
  n[1] = 0;
  dm_device_seen_set_guest (&r.results[0].device, mean, n);
  dm_histogram_add (r.results[0].hist_read, 5040500, 2000);
  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"read_await_us\": 5000.000") != NULL);
  DM_CHECK (strstr (json.data, "\"write_await_us\": 2000.000") != NULL);
  DM_CHECK (strstr (json.data, "\"read_guest_us\": 40.500") != NULL);
  DM_CHECK (strstr (json.data, "\"write_guest_us\": null") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  const dm_device_seen *b = &back.results[0].device;
  DM_CHECK (b->split[0].counted && fabs (b->split[0].await_us - 5000) < 1e-9);
  DM_CHECK (b->split[0].guest_counted && fabs (b->split[0].guest_us - 40.5) < 1e-9);
  DM_CHECK (b->split[1].counted && !b->split[1].guest_counted);
  dm_report_write_latency (&back, &lat);
  DM_CHECK (strstr (lat.data, "  Read at the device: r_await 5000.0, above it 40.5 of the mean 5040.5\n")
            != NULL);
  dm_report_write_csv (&back, &csv);
  DM_CHECK (strstr (csv.data, ",guest_read_us,guest_write_us\r\n") != NULL);
  DM_CHECK (strstr (csv.data, ",5000.00,2000.00,40.50,\r\n") != NULL);
  dm_report_clear (&back);

  /* A file from before the split: the keys missing, "not counted". */
  char *old = strdup (json.data);
  for (char *k; (k = strstr (old, "\"read_await_us\""));)
    memcpy (k, "\"read_awaitXus\"", 15);
  DM_CHECK_INT (dm_report_load_json (&back, old, strlen (old), why, sizeof why), ==, 0);
  DM_CHECK (back.results[0].device.counted && !back.results[0].device.split[0].counted);
  DM_CHECK (!back.results[0].device.split[0].guest_counted);
  dm_buf_free (&lat);
  memset (&lat, 0, sizeof lat);
  dm_report_write_latency (&back, &lat);
  DM_CHECK (strstr (lat.data, "  Read at the device: r_await not counted, nor the part above it\n")
            != NULL);
  dm_report_clear (&back);
  free (old);

  /* An await below 0 or not a number is refused, with a reason. */
  char *bad = strdup (json.data);
  char *k = strstr (bad, "5000.000");
  memcpy (k, "-500.000", 8);
  DM_CHECK_INT (dm_report_load_json (&back, bad, strlen (bad), why, sizeof why), <, 0);
  DM_CHECK (strstr (why, "read_await_us") != NULL);
  free (bad);

  dm_buf_free (&json);
  dm_buf_free (&lat);
  dm_buf_free (&csv);
  dm_report_clear (&r);
}

/* The study's sheet: a scenario whose device timed its reads gets the
 * r_await and the part above it, weighed by requests over its tests; one
 * without counters leaves them empty, and no column is made for writes no
 * scenario counted. */
static void
test_await_sheet (void)
{
  static dm_report r[2];
  static dm_study_sheet sheet;
  const char *labels[2] = { "timed", "untimed" };
  char why[200];
  dm_buf csv = { 0 };

  for (unsigned i = 0; i < 2; i++)
    {
      dm_settings s;
      dm_spec specs[2];
      dm_tag tag;
      dm_settings_init (&s);
      dm_spec_parse ("RND4K_Q1T1", &specs[0], NULL, 0);
      dm_spec_parse ("SEQ1M_Q1T1", &specs[1], NULL, 0);
      DM_CHECK_INT (dm_report_init (&r[i], &s, specs, 2, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      r[i].status = DM_STATUS_COMPLETE;
      r[i].started = 100 + i;
      dm_tag_make (&tag, "study", "s", NULL, 0);
      dm_tags_set (r[i].tags, &r[i].n_tags, DM_TAGS_ALL_MAX, &tag);
      dm_tag_make (&tag, "study.target", labels[i], NULL, 0);
      dm_tags_set (r[i].tags, &r[i].n_tags, DM_TAGS_ALL_MAX, &tag);
      for (unsigned k = 0; k < 2; k++)
        {
          dm_result *res = &r[i].results[k];
          res->status = DM_STATUS_COMPLETE;
          res->iops = 100;
          if (i)
            continue;
          /* 1000 reads of 2 ms, then 3000 of 6 ms: 5 ms a request. */
          dm_device_counters before = { 0 }, after = { 0 };
          dm_device_ask ask = dm_result_device_ask (res);
          before.timed = after.timed = true;
          after.members = 1;
          after.reads = k ? 3000 : 1000;
          after.read_bytes = after.reads * 4096ull;
          after.read_ns = after.reads * (k ? 6000000ull : 2000000ull);
          dm_device_seen_set (&res->device, "vda", &before, &after, 2.0, after.read_bytes, &ask);
          double mean[2] = { k ? 6100.0 : 2020.0, 0 };
          uint64_t n[2] = { after.reads, 0 };
          dm_device_seen_set_guest (&res->device, mean, n);
        }
    }
  const dm_report *rs[2] = { &r[0], &r[1] };
  DM_CHECK_INT (dm_study_sheet_build ("s", rs, NULL, 2, NULL, 0, &sheet, why, sizeof why), ==, 0);
  int await = -1, guest = -1;
  for (unsigned c = 0; c < sheet.n_columns; c++)
    {
      if (!strcmp (sheet.columns[c].title, "Device r_await us"))
        await = (int) c;
      if (!strcmp (sheet.columns[c].title, "Guest read us"))
        guest = (int) c;
      DM_CHECK (!strstr (sheet.columns[c].title, "w_await"));
    }
  DM_CHECK (await >= 0 && guest == await + 1);
  DM_CHECK_INT (sheet.n_rows, ==, 2);
  if (await >= 0 && guest >= 0)
    {
      DM_CHECK (fabs (sheet.rows[0].values[await] - 5000) < 0.01);
      DM_CHECK (fabs (sheet.rows[0].values[guest] - 80) < 0.01); /* (1000 x 20 + 3000 x 100) / 4000 */
      DM_CHECK (sheet.rows[1].values[await] < 0 && sheet.rows[1].values[guest] < 0);
    }
  dm_study_sheet_write_csv (&sheet, &csv);
  DM_CHECK (csv.data && strstr (csv.data, ",Device r_await us,Guest read us,") != NULL);
  DM_CHECK (csv.data && strstr (csv.data, ",5000.0,80.0,") != NULL);
  dm_buf_free (&csv);
  dm_study_sheet_free (&sheet);
  dm_report_clear (&r[0]);
  dm_report_clear (&r[1]);
}

int
main (void)
{
  DM_RUN ("/engine/device/flags", test_flags);
  DM_RUN ("/engine/device/figures", test_figures);
  DM_RUN ("/engine/device/queue-limit", test_queue_limit);
  DM_RUN ("/engine/device/names", test_names);
  DM_RUN ("/engine/device/round-trip", test_round_trip);
  DM_RUN ("/engine/device/queue-not-held", test_queue_not_held);
  DM_RUN ("/engine/device/await", test_await);
  DM_RUN ("/engine/device/await-sheet", test_await_sheet);
  return dm_test_done ();
}
