/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fleet runs: the merge of several hosts' reports (sums, spread,
 * percentiles from one histogram of every I/O) and its refusals, each
 * naming the file at fault. The schedule's own tests are test-schedule.c.
 */
#include <math.h>
#include <stdlib.h>

#include "dm-merge.h"
#include "dm-test.h"

/* A host's report of SEQ1M Q8T1 read and RND4K Q1T1 mix: runs of given
 * MB/s, latencies drawn from a spread the host shifts by lat_ns. */
static void
make_host (dm_report *r, double mb, uint64_t lat_ns, int64_t started_ms, dm_histogram *all_read,
           dm_histogram *all_mix)
{
  dm_settings s;
  dm_spec specs[2];
  dm_settings_init (&s);
  s.count = 3;
  s.measure_s = 5;
  s.warmup_s = 1;
  s.interval_s = 0;
  dm_spec_parse ("SEQ1M_Q8T1", &specs[0], NULL, 0);
  dm_spec_parse ("RND4K_Q1T1", &specs[1], NULL, 0);
  DM_CHECK_INT (dm_report_init (r, &s, specs, 2, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  /* dm_report_init gives one result per spec and mode; make the second
   * a Mix. */
  r->results[1].mode = DM_MODE_MIX;
  r->results[1].read_percent = 70;
  r->status = DM_STATUS_COMPLETE;
  r->started = started_ms / 1000 - 2;
  r->finished = started_ms / 1000 + 20;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      dm_result *res = &r->results[i];
      res->status = DM_STATUS_COMPLETE;
      res->n_runs = 3;
      for (unsigned k = 0; k < 3; k++)
        {
          res->runs[k].mb_per_s = mb + k - 1; /* mean mb */
          res->runs[k].iops = (mb + k - 1) * 10;
        }
      res->planned_start_ms = started_ms ? started_ms - 100 + i * 16000 : 0;
      res->started_ms = started_ms ? started_ms + i * 16000 : 0;
      for (uint64_t v = 0; v < 1000; v++)
        {
          uint64_t ns = lat_ns + v * v * 7; /* a long tail */
          dm_histogram *h = (i == 1 && v % 3 == 0) ? res->hist_write : res->hist_read;
          dm_histogram_add (h, ns, 1 + v % 2);
          dm_histogram_add (i == 0 ? all_read : all_mix, ns, 1 + v % 2);
        }
    }
}

static void
test_merge (void)
{
  dm_report r[3];
  dm_histogram all_read, all_mix;
  dm_merge m;
  char why[300] = "";
  const char *names[3] = { "a.json", "b.json", "c.json" };
  const double mb[3] = { 100, 200, 300 };

  dm_histogram_reset (&all_read);
  dm_histogram_reset (&all_mix);
  for (int h = 0; h < 3; h++)
    make_host (&r[h], mb[h], 20000 * (h + 1), 1796072400000LL + h * 30, &all_read, &all_mix);
  const dm_report *rp[3] = { &r[0], &r[1], &r[2] };
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why), ==, 0);
  if (m.n_rows != 2)
    {
      DM_CHECK_INT (m.n_rows, ==, 2);
      return;
    }
  DM_CHECK (m.scheduled);
  const dm_merge_row *row = &m.rows[0];
  DM_CHECK (fabs (row->sum_mb_per_s - 600) < 1e-9);
  DM_CHECK (fabs (row->sum_iops - 6000) < 1e-9);
  DM_CHECK (fabs (row->hosts[1].mb_per_s - 200) < 1e-9);
  DM_CHECK (fabs (row->min_mb_per_s - 100) < 1e-9);
  DM_CHECK (fabs (row->max_mb_per_s - 300) < 1e-9);
  /* Population CV of 100, 200, 300: sqrt(20000/3) / 200. */
  DM_CHECK (fabs (row->cv_mb_per_s - sqrt (20000.0 / 3) / 200 * 100) < 1e-9);
  /* Percentiles of one histogram of every host's I/O, not an average of
   * the hosts' percentiles. */
  DM_CHECK (row->latency.p99 == dm_histogram_quantile (&all_read, 0.99) / 1000);
  DM_CHECK (row->latency.p50 == dm_histogram_quantile (&all_read, 0.50) / 1000);
  DM_CHECK (row->latency.p99_99 == dm_histogram_quantile (&all_read, 0.9999) / 1000);
  double mean_p99 = (row->hosts[0].latency.p99 + row->hosts[1].latency.p99
                     + row->hosts[2].latency.p99) / 3;
  DM_CHECK (fabs (row->latency.p99 - mean_p99) > 1);
  DM_CHECK_INT (row->hist->count, ==, all_read.count);
  /* Mix: reads and writes of all hosts together. */
  DM_CHECK (m.rows[1].latency.p90 == dm_histogram_quantile (&all_mix, 0.90) / 1000);
  DM_CHECK (m.rows[1].latency_write.p50 > 0 && m.rows[1].latency_read.p50 > 0);
  /* The window all three measured: from the last start to the first end. */
  DM_CHECK_INT (row->window_start_ms, ==, 1796072400060LL);
  DM_CHECK_INT (row->window_end_ms, ==, 1796072400000LL + 15000);

  dm_buf out;
  dm_buf_init (&out);
  dm_merge_write_json (&m, &out);
  DM_CHECK (out.data && strstr (out.data, "\"mb_per_s\": 600.000"));
  DM_CHECK (out.data && strstr (out.data, "\"per_host\""));
  dm_buf_free (&out);
  dm_buf_init (&out);
  dm_merge_write_csv (&m, &out);
  DM_CHECK (out.data && strstr (out.data, "SEQ1M_Q8T1,read,sum,600.000,6000.0,"));
  DM_CHECK (out.data && strstr (out.data, "SEQ1M_Q8T1,read,b.json,200.000,2000.0,"));
  dm_buf_free (&out);
  dm_buf_init (&out);
  dm_merge_write_text (&m, &out);
  DM_CHECK (out.data && strstr (out.data, "fleet report of 3 hosts"));
  dm_buf_free (&out);
  dm_merge_clear (&m);

  /* Refusals, each naming the file at fault. */
  r[2].settings.measure_s = 4;
  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "c.json") && strstr (why, "measure"));
  r[2].settings.measure_s = 5;

  r[1].results[1].read_percent = 50;
  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "b.json") && strstr (why, "tests differ"));
  r[1].results[1].read_percent = 70;

  /* c started its second test 20 s late: no common window. */
  r[2].results[1].started_ms += 20000;
  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "c.json") && strstr (why, "overlap"));
  r[2].results[1].started_ms -= 20000;

  /* 14.9 s late still shares 100 ms with the others. */
  r[2].results[1].started_ms += 14900 - 30;
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why), ==, 0);
  dm_merge_clear (&m);
  r[2].results[1].started_ms -= 14900 - 30;

  r[0].status = DM_STATUS_CANCELLED;
  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "a.json") && strstr (why, "did not complete"));
  r[0].status = DM_STATUS_COMPLETE;

  /* Unscheduled runs: the whole runs must overlap. */
  for (int h = 0; h < 3; h++)
    for (unsigned i = 0; i < r[h].n_results; i++)
      r[h].results[i].started_ms = 0;
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why), ==, 0);
  DM_CHECK (!m.scheduled);
  dm_merge_clear (&m);
  r[1].started += 3600;
  r[1].finished += 3600;
  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "b.json") && strstr (why, "overlap"));

  DM_CHECK (dm_merge_build (&m, rp, names, 1, 0, why, sizeof why) < 0);
  for (int h = 0; h < 3; h++)
    dm_report_clear (&r[h]);
}

/* One host's file given twice, or a copy of it under another name, would
 * count that host twice: refused unless asked for. */
static void
test_merge_duplicates (void)
{
  dm_report r[3];
  dm_histogram a, b;
  dm_merge m;
  char why[300] = "";
  const char *names[3] = { "a.json", "b.json", "a-copy.json" };

  dm_histogram_reset (&a);
  dm_histogram_reset (&b);
  make_host (&r[0], 100, 20000, 1796072400000LL, &a, &b);
  make_host (&r[1], 200, 40000, 1796072400030LL, &a, &b);
  make_host (&r[2], 100, 20000, 1796072400000LL, &a, &b);
  snprintf (r[0].test_file, sizeof r[0].test_file, "/data/diskmeter-Ab3dE9.tmp");
  snprintf (r[1].test_file, sizeof r[1].test_file, "/data/diskmeter-x7Qp2L.tmp");
  snprintf (r[2].test_file, sizeof r[2].test_file, "/data/diskmeter-Ab3dE9.tmp");
  /* The copy was given a comment of its own: still the same run. */
  snprintf (r[2].comment, sizeof r[2].comment, "host C");
  const dm_report *rp[3] = { &r[0], &r[1], &r[2] };

  DM_CHECK (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "a-copy.json") && strstr (why, "the same run as a.json"));
  DM_CHECK (strstr (why, "--allow-duplicates") != NULL);
  const dm_report *twice[2] = { &r[0], &r[0] };
  const char *twice_names[2] = { "a.json", "a.json" };
  DM_CHECK (dm_merge_build (&m, twice, twice_names, 2, 0, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "the same run") != NULL);

  /* Asked for, the copy is summed as another host. */
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, DM_MERGE_ALLOW_DUPLICATES, why, sizeof why),
                ==, 0);
  if (m.n_rows)
    DM_CHECK (fabs (m.rows[0].sum_mb_per_s - 400) < 1e-9);
  dm_merge_clear (&m);

  /* Another host whose run began in the same second on a folder of the
   * same name made a test file of another name: not a duplicate. */
  snprintf (r[2].test_file, sizeof r[2].test_file, "/data/diskmeter-Zz91kP.tmp");
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why), ==, 0);
  dm_merge_clear (&m);
  /* Nor is one whose figures differ, as on a block device (the test file
   * is the device's name on every host). */
  snprintf (r[2].test_file, sizeof r[2].test_file, "/data/diskmeter-Ab3dE9.tmp");
  r[2].results[1].runs[2].bytes += 4096;
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 3, 0, why, sizeof why), ==, 0);
  dm_merge_clear (&m);
  for (int h = 0; h < 3; h++)
    dm_report_clear (&r[h]);
}

/* A host's file name and comment are shown on one line each, escaped: a
 * newline cannot forge a row of the fleet's table, an escape sequence
 * cannot reach the terminal. */
static void
test_merge_text_escaped (void)
{
  dm_report r[2];
  dm_histogram a, b;
  dm_merge m;
  dm_buf out;
  char why[300] = "";
  const char *names[2] = { "a\x1b[2J.json", "b.json" };

  dm_histogram_reset (&a);
  dm_histogram_reset (&b);
  make_host (&r[0], 100, 20000, 1796072400000LL, &a, &b);
  make_host (&r[1], 200, 40000, 1796072400030LL, &a, &b);
  snprintf (r[0].test_file, sizeof r[0].test_file, "/data/diskmeter-Ab3dE9.tmp");
  snprintf (r[1].test_file, sizeof r[1].test_file, "/data/diskmeter-x7Qp2L.tmp");
  snprintf (r[1].comment, sizeof r[1].comment,
            "fine\nSEQ1M_Q8T1     read  all           999999.0\x1b]0;owned\x07");
  const dm_report *rp[2] = { &r[0], &r[1] };
  DM_CHECK_INT (dm_merge_build (&m, rp, names, 2, 0, why, sizeof why), ==, 0);
  dm_buf_init (&out);
  dm_merge_write_text (&m, &out);
  const char *t = out.data ? out.data : "";
  DM_CHECK (strchr (t, '\x1b') == NULL);
  DM_CHECK (strchr (t, '\x07') == NULL);
  DM_CHECK (strstr (t, "\nSEQ1M_Q8T1     read  all           999999.0") == NULL);
  DM_CHECK (strstr (t, "Host 1: a\\x1b[2J.json\n") != NULL);
  DM_CHECK (strstr (t, "Host 2: b.json - fine\\nSEQ1M_Q8T1") != NULL);
  dm_buf_free (&out);
  dm_merge_clear (&m);
  for (int h = 0; h < 2; h++)
    dm_report_clear (&r[h]);
}

/* A latency drawn by make_host, with how many I/Os took it. */
typedef struct sample {
  uint64_t ns, n;
} sample;

static int
by_ns (const void *a, const void *b)
{
  const sample *x = a, *y = b;
  return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The percentile a merge must give, worked out from the samples
 * themselves: the rank-th smallest I/O (rank = ceil(q * count)), reported
 * as its bucket's midpoint and kept within the smallest and largest. */
static double
reference_us (const sample *v, size_t n, uint64_t count, double q)
{
  uint64_t rank = (uint64_t) ceil (q * (double) count), seen = 0;
  if (rank < 1)
    rank = 1;
  for (size_t i = 0; i < n; i++)
    if ((seen += v[i].n) >= rank)
      {
        unsigned k = dm_histogram_bucket (v[i].ns);
        double low = (double) dm_histogram_bucket_low (k);
        double width = (double) dm_histogram_bucket_width (k);
        double x = width > 1 ? low + (width - 1) / 2.0 : low;
        x = x < (double) v[0].ns ? (double) v[0].ns : x;
        x = x > (double) v[n - 1].ns ? (double) v[n - 1].ns : x;
        return x / 1000;
      }
  return (double) v[n - 1].ns / 1000;
}

/* More hosts than a merge once took (256), each report added and then
 * dropped at once: the sums, counts and percentiles are those worked out
 * here from what each host measured, and every host keeps its row. */
static void
test_merge_300 (void)
{
  enum { HOSTS = 300, DRAWS = 1000 };
  static char names[HOSTS][24];
  dm_histogram unused_a, unused_b;
  dm_merge m;
  dm_report r;
  char why[300] = "";
  double sum_mb = 0, sum_iops = 0, sq_mb = 0;
  uint64_t count = 0;
  sample *v = malloc (sizeof *v * HOSTS * DRAWS);
  size_t n = 0;

  DM_CHECK (v != NULL);
  if (!v)
    return;
  DM_CHECK_INT (dm_merge_begin (&m, 0), ==, 0);
  for (unsigned h = 0; h < HOSTS; h++)
    {
      const double mb = 10 + h;          /* a whole number: its sum is exact */
      const uint64_t lat_ns = 5000 + 97 * (uint64_t) h;
      snprintf (names[h], sizeof names[h], "host-%03u.json", h + 1);
      dm_histogram_reset (&unused_a);
      dm_histogram_reset (&unused_b);
      make_host (&r, mb, lat_ns, 1796072400000LL + h, &unused_a, &unused_b);
      snprintf (r.test_file, sizeof r.test_file, "/data/diskmeter-%05u.tmp", h);
      DM_CHECK_INT (dm_merge_add (&m, &r, names[h], why, sizeof why), ==, 0);
      dm_report_clear (&r); /* the merge keeps nothing of it */
      sum_mb += mb;
      sum_iops += mb * 10;
      sq_mb += mb * mb;
      /* The draws of make_host's first test, all reads. */
      for (uint64_t d = 0; d < DRAWS; d++)
        {
          v[n++] = (sample) { lat_ns + d * d * 7, 1 + d % 2 };
          count += 1 + d % 2;
        }
    }
  DM_CHECK_INT (dm_merge_end (&m, why, sizeof why), ==, 0);
  if (m.n_rows != 2 || m.n_hosts != HOSTS)
    {
      DM_CHECK_INT (m.n_hosts, ==, HOSTS);
      DM_CHECK_INT (m.n_rows, ==, 2);
      dm_merge_clear (&m);
      free (v);
      return;
    }
  const dm_merge_row *row = &m.rows[0];
  DM_CHECK (row->sum_mb_per_s == sum_mb);
  DM_CHECK (row->sum_iops == sum_iops);
  DM_CHECK (row->min_mb_per_s == 10 && row->max_mb_per_s == 10 + HOSTS - 1);
  double mean = sum_mb / HOSTS;
  DM_CHECK (fabs (row->cv_mb_per_s - sqrt (sq_mb / HOSTS - mean * mean) / mean * 100) < 1e-9);
  DM_CHECK_INT (row->hist->count, ==, count);
  qsort (v, n, sizeof *v, by_ns);
  DM_CHECK (row->latency.min == (double) v[0].ns / 1000);
  DM_CHECK (row->latency.max == (double) v[n - 1].ns / 1000);
  DM_CHECK (row->latency.p50 == reference_us (v, n, count, 0.50));
  DM_CHECK (row->latency.p90 == reference_us (v, n, count, 0.90));
  DM_CHECK (row->latency.p99 == reference_us (v, n, count, 0.99));
  DM_CHECK (row->latency.p99_9 == reference_us (v, n, count, 0.999));
  DM_CHECK (row->latency.p99_99 == reference_us (v, n, count, 0.9999));
  /* Every host's own row, in the order added, named as given. */
  DM_CHECK (row->hosts[HOSTS - 1].mb_per_s == 10 + HOSTS - 1);
  DM_CHECK (strcmp (m.hosts[HOSTS - 1].name, "host-300.json") == 0);
  DM_CHECK (strcmp (m.hosts[HOSTS - 1].comment, "") == 0);
  /* The window all of them measured: from the last start to the first end. */
  DM_CHECK_INT (row->window_start_ms, ==, 1796072400000LL + HOSTS - 1);
  DM_CHECK_INT (row->window_end_ms, ==, 1796072400000LL + 15000);

  dm_buf out;
  dm_buf_init (&out);
  dm_merge_write_csv (&m, &out);
  DM_CHECK (out.data && strstr (out.data, "SEQ1M_Q8T1,read,host-300.json,309.000,3090.0,"));
  dm_buf_free (&out);
  dm_merge_clear (&m);
  free (v);
}

/* A run given twice among hundreds is still found, by the copy's name
 * and the first one's, when the merge keeps no report to compare with. */
static void
test_merge_duplicate_among_many (void)
{
  enum { HOSTS = 300 };
  static char names[HOSTS + 1][24];
  dm_histogram a, b;
  dm_merge m;
  dm_report r;
  char why[400] = "";

  for (int allow = 0; allow < 2; allow++)
    {
      int err = 0;
      DM_CHECK_INT (dm_merge_begin (&m, allow ? DM_MERGE_ALLOW_DUPLICATES : 0), ==, 0);
      for (unsigned h = 0; h <= HOSTS && err == 0; h++)
        {
          unsigned as = h == HOSTS ? 149 : h; /* the last is host 150 again */
          snprintf (names[h], sizeof names[h], h == HOSTS ? "copy.json" : "host-%03u.json",
                    h + 1);
          dm_histogram_reset (&a);
          dm_histogram_reset (&b);
          make_host (&r, 10 + as, 5000 + 97 * (uint64_t) as, 1796072400000LL + as, &a, &b);
          snprintf (r.test_file, sizeof r.test_file, "/data/diskmeter-%05u.tmp", as);
          if (h == HOSTS)
            snprintf (r.comment, sizeof r.comment, "a comment of its own");
          err = dm_merge_add (&m, &r, names[h], why, sizeof why);
          dm_report_clear (&r);
        }
      if (allow)
        {
          DM_CHECK_INT (err, ==, 0);
          DM_CHECK_INT (dm_merge_end (&m, why, sizeof why), ==, 0);
          DM_CHECK_INT (m.n_hosts, ==, HOSTS + 1);
        }
      else
        {
          DM_CHECK (err < 0);
          DM_CHECK (strstr (why, "copy.json: the same run as host-150.json") == why);
        }
      dm_merge_clear (&m);
    }
}

/* The schedule survives a JSON round trip; unscheduled results have none. */
static void
test_json_schedule (void)
{
  dm_report r, back;
  dm_histogram a, b;
  dm_buf out;
  char why[300];
  dm_histogram_reset (&a);
  dm_histogram_reset (&b);
  make_host (&r, 100, 20000, 1796072400000LL, &a, &b);
  r.results[1].planned_start_ms = r.results[1].started_ms = 0;
  dm_buf_init (&out);
  dm_report_write_json (&r, &out);
  DM_CHECK (strstr (out.data, "\"planned_start\": \"2026-11-30T20:59:59.900Z\""));
  DM_CHECK (strstr (out.data, "\"started\": \"2026-11-30T21:00:00.000Z\""));
  DM_CHECK_INT (dm_report_load_json (&back, out.data, out.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (back.results[0].planned_start_ms, ==, 1796072399900LL);
  DM_CHECK_INT (back.results[0].started_ms, ==, 1796072400000LL);
  DM_CHECK_INT (back.results[1].planned_start_ms, ==, 0);
  DM_CHECK_INT (back.results[1].started_ms, ==, 0);
  dm_buf_free (&out);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/merge/merge", test_merge);
  DM_RUN ("/merge/duplicates", test_merge_duplicates);
  DM_RUN ("/merge/text-escaped", test_merge_text_escaped);
  DM_RUN ("/merge/300-hosts", test_merge_300);
  DM_RUN ("/merge/duplicate-among-many", test_merge_duplicate_among_many);
  DM_RUN ("/merge/json-schedule", test_json_schedule);
  return dm_test_done ();
}
