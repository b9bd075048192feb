/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verdict of a comparison, table by table: a difference is "same" while
 * it stays within twice the combined (root-sum-square) spread of the two
 * runs, and "better" or "worse" beyond it, where lower is better for
 * latency (µs) and higher for MB/s, GB/s and IOPS.
 */
#include <math.h>

#include "dm-compare.h"
#include "dm-test.h"
#include "dm-test-workloads.h"
#include "dm-text.h"

typedef struct {
  double     first, first_spread, value, spread;
  dm_unit    unit;
  dm_verdict want;
  const char *why;
} judge_case;

static const judge_case judge_cases[] = {
  /* No spread: any difference counts. */
  { 100, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_SAME, "equal figures" },
  { 100, 0, 101, 0, DM_UNIT_MBPS, DM_VERDICT_BETTER, "more MB/s" },
  { 100, 0, 99, 0, DM_UNIT_MBPS, DM_VERDICT_WORSE, "fewer MB/s" },
  { 2.0, 0, 2.1, 0, DM_UNIT_GBPS, DM_VERDICT_BETTER, "more GB/s" },
  { 2.0, 0, 1.9, 0, DM_UNIT_GBPS, DM_VERDICT_WORSE, "fewer GB/s" },
  { 5000, 0, 5100, 0, DM_UNIT_IOPS, DM_VERDICT_BETTER, "more IOPS" },
  { 5000, 0, 4900, 0, DM_UNIT_IOPS, DM_VERDICT_WORSE, "fewer IOPS" },
  /* Latency: lower is better. */
  { 100, 0, 101, 0, DM_UNIT_US, DM_VERDICT_WORSE, "more us" },
  { 100, 0, 99, 0, DM_UNIT_US, DM_VERDICT_BETTER, "fewer us" },
  { 100, 0, 100, 0, DM_UNIT_US, DM_VERDICT_SAME, "equal us" },
  /* Spreads 3 and 4 combine to 5; the band is twice that, 10. */
  { 100, 3, 106, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "over one combined spread, under two" },
  { 100, 3, 110, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "exactly twice the combined spread" },
  { 100, 3, 90, 4, DM_UNIT_MBPS, DM_VERDICT_SAME, "exactly twice, below" },
  { 100, 3, 110.5, 4, DM_UNIT_MBPS, DM_VERDICT_BETTER, "just past the band, above" },
  { 100, 3, 89.5, 4, DM_UNIT_MBPS, DM_VERDICT_WORSE, "just past the band, below" },
  /* Combined as root-sum-square, not added: 2 x (3 + 4) = 14 would call
   * a difference of 12 "same". */
  { 100, 3, 112, 4, DM_UNIT_MBPS, DM_VERDICT_BETTER, "spreads are not added" },
  { 100, 4, 88, 3, DM_UNIT_IOPS, DM_VERDICT_WORSE, "either side's spread, IOPS" },
  /* The band is symmetric in who has the spread. */
  { 100, 0, 109, 5, DM_UNIT_MBPS, DM_VERDICT_SAME, "only the second run spreads" },
  { 100, 5, 109, 0, DM_UNIT_MBPS, DM_VERDICT_SAME, "only the first run spreads" },
  /* Latency with spread: same band, opposite direction. */
  { 100, 3, 110, 4, DM_UNIT_US, DM_VERDICT_SAME, "us within the band" },
  { 100, 3, 110.5, 4, DM_UNIT_US, DM_VERDICT_WORSE, "us past the band, slower" },
  { 100, 3, 89.5, 4, DM_UNIT_US, DM_VERDICT_BETTER, "us past the band, faster" },
  /* Nothing to compare with. */
  { 0, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "first run has no figure" },
  { 100, 0, 0, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "second run has no figure" },
  { -1, 0, 100, 0, DM_UNIT_US, DM_VERDICT_NONE, "a negative figure" },
  { NAN, 0, 100, 0, DM_UNIT_MBPS, DM_VERDICT_NONE, "not a number" },
};

static void
test_judge_table (void)
{
  for (size_t i = 0; i < sizeof judge_cases / sizeof judge_cases[0]; i++)
    {
      const judge_case *t = &judge_cases[i];
      dm_verdict got = dm_compare_judge (t->first, t->first_spread, t->value, t->spread, t->unit);
      if (got != t->want)
        {
          fprintf (stderr, "case %zu (%s): %g±%g vs %g±%g in unit %d: got \"%s\", want \"%s\"\n",
                   i, t->why, t->first, t->first_spread, t->value, t->spread, (int) t->unit,
                   dm_verdict_name (got), dm_verdict_name (t->want));
          dm_test_case_failed = 1;
        }
    }
}

/* Two reports of one test whose repetitions spread as given; the result's
 * figure is the best run as the grid shows it (set here directly). */
typedef struct {
  dm_unit     unit;
  double      a_runs[3], a_best;
  double      b_runs[3], b_best;
  dm_verdict  want;
  const char *why;
} build_case;

static const build_case build_cases[] = {
  /* Runs 98, 100, 102 and 104, 106, 108: sample spreads 2 and 2, band
   * 2 x sqrt (8) = 5.66. */
  { DM_UNIT_US, { 98, 100, 102 }, 100, { 104, 106, 108 }, 106, DM_VERDICT_WORSE, "latency up 6 us" },
  { DM_UNIT_US, { 104, 106, 108 }, 106, { 98, 100, 102 }, 100, DM_VERDICT_BETTER, "latency down 6 us" },
  { DM_UNIT_US, { 98, 100, 102 }, 100, { 101, 103, 105 }, 103, DM_VERDICT_SAME, "latency up 3 us" },
  { DM_UNIT_IOPS, { 98, 100, 102 }, 100, { 104, 106, 108 }, 106, DM_VERDICT_BETTER, "IOPS up 6" },
  { DM_UNIT_IOPS, { 104, 106, 108 }, 106, { 98, 100, 102 }, 100, DM_VERDICT_WORSE, "IOPS down 6" },
  { DM_UNIT_MBPS, { 98, 100, 102 }, 100, { 101, 103, 105 }, 103, DM_VERDICT_SAME, "MB/s up 3" },
  /* Spreads 10 and 10 (runs 90, 100, 110): band 28.3, so 20 more is same. */
  { DM_UNIT_MBPS, { 90, 100, 110 }, 110, { 110, 120, 130 }, 130, DM_VERDICT_SAME, "wide spread" },
  { DM_UNIT_US, { 90, 100, 110 }, 90, { 110, 120, 130 }, 110, DM_VERDICT_SAME, "wide spread, us" },
};

static void
fill (dm_result *res, dm_unit unit, const double runs[3], double best)
{
  res->status = DM_STATUS_COMPLETE;
  res->n_runs = 3;
  for (unsigned k = 0; k < 3; k++)
    {
      dm_run *run = &res->runs[k];
      run->mb_per_s = unit == DM_UNIT_MBPS ? runs[k] : 1;
      run->iops = unit == DM_UNIT_IOPS ? runs[k] : 1;
      run->latency_us = unit == DM_UNIT_US ? runs[k] : 1;
    }
  res->mb_per_s = unit == DM_UNIT_MBPS ? best : 1;
  res->iops = unit == DM_UNIT_IOPS ? best : 1;
  res->latency_us = unit == DM_UNIT_US ? best : 1;
}

static void
test_build_table (void)
{
  dm_spec spec;
  dm_settings s;
  dm_spec_parse ("RND4K_Q1T1", &spec, NULL, 0);
  dm_settings_init (&s);
  for (size_t i = 0; i < sizeof build_cases / sizeof build_cases[0]; i++)
    {
      const build_case *t = &build_cases[i];
      dm_report a, b;
      dm_compare c;
      DM_CHECK_INT (dm_report_init (&a, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      DM_CHECK_INT (dm_report_init (&b, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      a.status = b.status = DM_STATUS_COMPLETE;
      fill (&a.results[0], t->unit, t->a_runs, t->a_best);
      fill (&b.results[0], t->unit, t->b_runs, t->b_best);
      const dm_report *pair[2] = { &a, &b };
      const char *names[2] = { "A", "B" };
      DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, t->unit), ==, 0);
      DM_CHECK_INT (c.n_rows, ==, 1);
      if (c.n_rows == 1)
        {
          const dm_compare_cell *cell = &c.rows[0].cells[1];
          if (cell->verdict != t->want)
            {
              fprintf (stderr, "case %zu (%s): got \"%s\", want \"%s\" (spreads %g and %g)\n", i,
                       t->why, dm_verdict_name (cell->verdict), dm_verdict_name (t->want),
                       c.rows[0].cells[0].spread, cell->spread);
              dm_test_case_failed = 1;
            }
          /* The first column is the reference, never judged. */
          DM_CHECK_INT (c.rows[0].cells[0].verdict, ==, DM_VERDICT_NONE);
        }
      dm_compare_clear (&c);
      dm_report_clear (&a);
      dm_report_clear (&b);
    }
}


/* A report of one test in the given modes, every result complete with
 * count runs of one figure (MB/s), so each case below changes one thing. */
static void
make_report (dm_report *r, const char *test, unsigned modes, unsigned count, double mb_per_s)
{
  dm_settings s;
  dm_spec spec;
  dm_settings_init (&s);
  s.count = count;
  DM_CHECK_INT (dm_spec_parse (test, &spec, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (r, &s, &spec, 1, modes), ==, 0);
  r->status = DM_STATUS_COMPLETE;
  r->started = 1764640000;
  snprintf (r->profile, sizeof r->profile, "default");
  for (unsigned k = 0; k < r->n_results; k++)
    {
      dm_result *res = &r->results[k];
      res->status = DM_STATUS_COMPLETE;
      res->n_runs = count;
      for (unsigned i = 0; i < count; i++)
        {
          res->runs[i].mb_per_s = mb_per_s;
          res->runs[i].iops = mb_per_s * 1000;
          res->runs[i].latency_us = 1000 / mb_per_s;
        }
      res->mb_per_s = mb_per_s;
      res->iops = mb_per_s * 1000;
      res->latency_us = 1000 / mb_per_s;
    }
}

/* The comparison of a and b (and c, if given) as diskmeter-cli prints it. */
static char *
compare_text (const dm_report *a, const dm_report *b, const dm_report *c3, const char *const *names)
{
  const dm_report *runs[3] = { a, b, c3 };
  dm_compare c;
  dm_buf out;
  dm_buf_init (&out);
  DM_CHECK_INT (dm_compare_build (&c, runs, names, c3 ? 3 : 2, DM_UNIT_MBPS), ==, 0);
  dm_compare_write_text (&c, &out);
  dm_compare_clear (&c);
  return out.data;
}

/* The line of text that starts with start, without its newline; "" if none. */
static const char *
line_of (const char *text, const char *start, char *buf, size_t size)
{
  buf[0] = '\0';
  for (const char *p = text; p && *p; p = strchr (p, '\n') ? strchr (p, '\n') + 1 : NULL)
    if (!strncmp (p, start, strlen (start)))
      {
        size_t len = strcspn (p, "\n");
        snprintf (buf, size, "%.*s", (int) (len < size ? len : size - 1), p);
        break;
      }
  return buf;
}

/* With --count 1 there is no spread: a 3.2 % difference is not "worse"
 * but said to rest on one run; from two runs a side on, it is judged. */
/* A run compared in memory (the window) and the same run read back from
 * its file (the CLI) print the same figure: 20.0053 is saved as 20.005,
 * which reads back below 20.005 and shows as 20.00, so the comparison
 * takes figures as saved in both. */
static void
test_as_saved (void)
{
  static const char *const names[2] = { "A", "B" };
  dm_report a, b, saved;
  char line[256], line_saved[256];
  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 40.01);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 20.0053);
  make_report (&saved, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 20.005);
  char *text = compare_text (&a, &b, NULL, names);
  char *text_saved = compare_text (&a, &saved, NULL, names);
  line_of (text, "Read SEQ1M / Q8T1", line, sizeof line);
  line_of (text_saved, "Read SEQ1M / Q8T1", line_saved, sizeof line_saved);
  DM_CHECK_STR (line, line_saved);
  free (text);
  free (text_saved);
  dm_report_clear (&a);
  dm_report_clear (&b);
  dm_report_clear (&saved);
}

static void
test_one_run (void)
{
  static const char *const names[2] = { "A", "B" };
  dm_report a, b;
  char line[256];

  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 96.8);
  char *text = compare_text (&a, &b, NULL, names);
  line_of (text, "Read SEQ1M / Q8T1", line, sizeof line);
  DM_CHECK_STR (line, "Read SEQ1M / Q8T1            100.00        96.80 -3.2% no spread: one run");
  DM_CHECK (strstr (text, "worse") == NULL);
  free (text);

  const dm_report *pair[2] = { &a, &b };
  dm_compare c;
  dm_buf json;
  dm_buf_init (&json);
  DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, DM_UNIT_MBPS), ==, 0);
  DM_CHECK_STR (dm_verdict_name (c.rows[0].cells[1].verdict), "one-run");
  dm_compare_write_json (&c, &json);
  DM_CHECK (strstr (json.data, "\"verdict\": \"one-run\"") != NULL);
  dm_compare_clear (&c);
  dm_buf_free (&json);

  /* Five runs against one: still only one side has a spread to go by. */
  dm_report_clear (&a);
  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 5, 100.0);
  DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, DM_UNIT_MBPS), ==, 0);
  DM_CHECK_STR (dm_verdict_name (c.rows[0].cells[1].verdict), "one-run");
  dm_compare_clear (&c);

  /* Two runs each that agree to the digit: a spread of 0, measured, so
   * the 3.2 % counts. */
  dm_report_clear (&a);
  dm_report_clear (&b);
  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 2, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 2, 96.8);
  text = compare_text (&a, &b, NULL, names);
  line_of (text, "Read SEQ1M / Q8T1", line, sizeof line);
  DM_CHECK_STR (line, "Read SEQ1M / Q8T1            100.00        96.80      -3.2% worse");
  free (text);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

/* Runs made another way are compared with a line that says how, above
 * the table: each setting that differs, every run's value in order. */
static void
test_settings_differ (void)
{
  static const char *const names[3] = { "A", "B", "C" };
  dm_report a, b, c3;
  char line[512];
  char *text;

  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 5, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 1, 100.0);
  a.settings.test_size = 1ull << 30;
  b.settings.test_size = 64ull << 20;
  text = compare_text (&a, &b, NULL, names);
  line_of (text, "Different settings:", line, sizeof line);
  DM_CHECK_STR (line, "Different settings: test size 1 GiB vs 64 MiB; count 5 vs 1");
  /* Above the table, below the runs' lines. */
  DM_CHECK (strstr (text, "Different settings:") < strstr (text, "Test "));
  DM_CHECK (strstr (text, "  B: ") < strstr (text, "Different settings:"));
  free (text);

  /* Everything else a report keeps that changes what a figure means. */
  b.settings.test_size = a.settings.test_size;
  b.settings.count = a.settings.count;
  b.settings.measure_s = 1;
  b.settings.interval_s = 0;
  b.settings.warmup_s = 0;
  b.settings.data = DM_DATA_ZEROS;
  b.settings.buffered = true;
  b.settings.write_through = true;
  snprintf (a.backend, sizeof a.backend, "io_uring");
  snprintf (b.backend, sizeof b.backend, "pread");
  snprintf (a.target.filesystem, sizeof a.target.filesystem, "ext4");
  snprintf (b.target.filesystem, sizeof b.target.filesystem, "tmpfs");
  snprintf (a.system.os, sizeof a.system.os, "Debian GNU/Linux 12 (bookworm)");
  snprintf (b.system.os, sizeof b.system.os, "Windows Server 2022");
  a.system.memory_bytes = 8ull << 30;
  b.system.memory_bytes = 16ull << 30;
  a.results[0].device.queue_limit = 32;
  b.results[0].device.queue_limit = 254;
  snprintf (b.profile, sizeof b.profile, "peak");
  text = compare_text (&a, &b, NULL, names);
  line_of (text, "Different settings:", line, sizeof line);
  DM_CHECK_STR (line, "Different settings: profile default vs peak; duration 5 s vs 1 s; "
                      "interval 5 s vs 0 s; warm-up 5 s vs 0 s; test data random vs zeros; "
                      "I/O direct vs buffered; write-through off vs on; backend io_uring vs pread; "
                      "filesystem ext4 vs tmpfs; device queue 32 vs 254; "
                      "OS Debian GNU/Linux 12 (bookworm) vs Windows Server 2022; "
                      "memory 8.0 GiB vs 16.0 GiB");
  free (text);
  dm_report_clear (&a);
  dm_report_clear (&b);

  /* The same settings: no line. A fact one run does not know (an older
   * report without a filesystem) is no difference, nor is a Mix share
   * without a Mix test; with Mix tests it is one. */
  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 3, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 3, 90.0);
  snprintf (a.target.filesystem, sizeof a.target.filesystem, "ext4");
  b.settings.mix_read_percent = 50;
  text = compare_text (&a, &b, NULL, names);
  DM_CHECK (strstr (text, "Different settings") == NULL);
  free (text);
  dm_report_clear (&a);
  dm_report_clear (&b);
  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_MIX), 3, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_MIX), 3, 90.0);
  b.settings.mix_read_percent = 50;
  make_report (&c3, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_MIX), 1, 90.0);
  text = compare_text (&a, &b, &c3, names);
  line_of (text, "Different settings:", line, sizeof line);
  DM_CHECK_STR (line, "Different settings: count 3 vs 3 vs 1; Mix read share 70% vs 50% vs 70%");
  free (text);

  /* The JSON says it too, in the same words. */
  const dm_report *pair[2] = { &a, &b };
  dm_compare c;
  dm_buf json;
  dm_buf_init (&json);
  DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, DM_UNIT_MBPS), ==, 0);
  dm_compare_write_json (&c, &json);
  DM_CHECK (strstr (json.data, "\"different_settings\": \"Different settings: Mix read share 70% "
                               "vs 50%\"") != NULL);
  dm_compare_clear (&c);
  dm_buf_free (&json);
  dm_report_clear (&a);
  dm_report_clear (&b);
  dm_report_clear (&c3);
}

/* Each run's line names its own target: B's filesystem and device, not
 * A's, and no part twice (a live comparison's name is its path; tmpfs's
 * device is called tmpfs). */
static void
test_run_lines (void)
{
  static const char *const names[2] = { "/mnt/a", "/mnt/b" };
  dm_report a, b;
  char line[512], want[512], date[32];
  char *text;

  make_report (&a, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 3, 100.0);
  make_report (&b, "SEQ1M_Q8T1", DM_MODE_BIT (DM_MODE_READ), 3, 100.0);
  snprintf (a.target.path, sizeof a.target.path, "/mnt/a");
  snprintf (a.target.filesystem, sizeof a.target.filesystem, "ext4");
  snprintf (a.target.device, sizeof a.target.device, "/dev/sdb1");
  snprintf (a.target.model, sizeof a.target.model, "Samsung SSD 980");
  snprintf (b.target.path, sizeof b.target.path, "/mnt/b");
  snprintf (b.target.filesystem, sizeof b.target.filesystem, "tmpfs");
  snprintf (b.target.device, sizeof b.target.device, "tmpfs");
  dm_format_local_time (a.started, date, sizeof date);
  text = compare_text (&a, &b, NULL, names);
  snprintf (want, sizeof want, "  A: /mnt/a  %s  [ext4, /dev/sdb1, Samsung SSD 980]", date);
  DM_CHECK_STR (line_of (text, "  A: ", line, sizeof line), want);
  snprintf (want, sizeof want, "  B: /mnt/b  %s  [tmpfs]", date);
  DM_CHECK_STR (line_of (text, "  B: ", line, sizeof line), want);
  /* The filesystems differ too, and the line above the table says so. */
  DM_CHECK_STR (line_of (text, "Different", line, sizeof line),
                "Different settings: filesystem ext4 vs tmpfs");
  free (text);

  /* Saved files: the file, then the target's own path. */
  static const char *const files[2] = { "before.json", "after.json" };
  text = compare_text (&a, &b, NULL, files);
  snprintf (want, sizeof want, "  B: after.json  %s  /mnt/b  [tmpfs]", date);
  DM_CHECK_STR (line_of (text, "  B: ", line, sizeof line), want);
  free (text);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

static void
test_verdict_names (void)
{
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_NONE), "");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_SAME), "same");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_BETTER), "better");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_WORSE), "worse");
  DM_CHECK_STR (dm_verdict_name (DM_VERDICT_ONE_RUN), "one-run");
  DM_CHECK_STR (dm_verdict_words (DM_VERDICT_ONE_RUN, false), "no spread: one run");
  DM_CHECK_STR (dm_verdict_words (DM_VERDICT_WORSE, false), "worse");
}

/* Workload rows are matched by their name and shape: the same rows of two
 * runs of one profile meet in one row; a plain test standing in the same
 * test, or the same name with another queue, is another row. */
static void
test_workload_rows (void)
{
  dm_report a, b, plain, other;
  dm_settings s;
  dm_spec spec;
  dm_compare c;
  char why[200], name[80];

  dm_tw_make (&a, 4, 1, 1700000000);
  dm_tw_make (&b, 4, 0.5, 1700000100);
  dm_tw_make (&other, 8, 1, 1700000200);
  dm_settings_init (&s);
  /* The test the mixed row stands in, as a plain Mix test. */
  dm_spec_parse ("RND8K_Q4T1", &spec, NULL, 0);
  DM_CHECK_INT (dm_report_init (&plain, &s, &spec, 1, DM_MODE_BIT (DM_MODE_MIX)), ==, 0);
  DM_CHECK (dm_spec_equal (&spec, &a.results[0].spec) && a.results[0].mode == DM_MODE_MIX);
  plain.results[0].status = DM_STATUS_COMPLETE;
  plain.results[0].n_runs = 1;
  plain.results[0].mb_per_s = 99;
  plain.results[0].runs[0].mb_per_s = 99;

  const dm_report *ab[2] = { &a, &b };
  const char *names[2] = { "A", "B" };
  DM_CHECK_INT (dm_compare_build (&c, ab, names, 2, DM_UNIT_MBPS), ==, 0);
  DM_CHECK_INT (c.n_rows, ==, 2);
  if (c.n_rows == 2)
    {
      dm_compare_row_name (&c.rows[0], name, sizeof name);
      DM_CHECK_STR (name, "Mixed 8K 70/30");
      dm_compare_row_name (&c.rows[1], name, sizeof name);
      DM_CHECK_STR (name, "Log writes");
      DM_CHECK (c.rows[0].cells[0].present && c.rows[0].cells[1].present);
      /* B's figures are half of A's: -50 %. */
      DM_CHECK (fabs (c.rows[0].cells[1].diff_percent + 50) < 1e-9);
      DM_CHECK (fabs (c.rows[1].cells[1].diff_percent + 50) < 1e-9);
    }
  dm_buf t;
  dm_buf_init (&t);
  dm_compare_write_text (&c, &t);
  DM_CHECK (t.data && strstr (t.data, "\nMixed 8K 70/30   ") && strstr (t.data, "\nLog writes   "));
  dm_buf_free (&t);
  dm_buf_init (&t);
  dm_compare_write_csv (&c, &t);
  DM_CHECK (t.data && strstr (t.data, ",workload,workload_canonical\r\n")
            && strstr (t.data, ",Mixed 8K 70/30,name=Mixed 8K 70/30;"));
  dm_buf_free (&t);
  dm_compare_clear (&c);
  DM_CHECK (dm_report_same_profile (&a, &b, why, sizeof why));

  /* A plain test is not the workload row that stands in it. */
  const dm_report *ap[2] = { &a, &plain };
  DM_CHECK_INT (dm_compare_build (&c, ap, names, 2, DM_UNIT_MBPS), ==, 0);
  DM_CHECK_INT (c.n_rows, ==, 3);
  if (c.n_rows == 3)
    {
      DM_CHECK (c.rows[0].shaped && c.rows[0].cells[0].present && !c.rows[0].cells[1].present);
      DM_CHECK (!c.rows[2].shaped && !c.rows[2].cells[0].present && c.rows[2].cells[1].present);
    }
  dm_compare_clear (&c);
  DM_CHECK (!dm_report_same_profile (&a, &plain, why, sizeof why));

  /* The same name with another queue is another shape: another row. */
  const dm_report *ao[2] = { &a, &other };
  DM_CHECK_INT (dm_compare_build (&c, ao, names, 2, DM_UNIT_MBPS), ==, 0);
  DM_CHECK_INT (c.n_rows, ==, 3);
  dm_buf_init (&t);
  /* And the line of differences names both profiles by their hashes. */
  dm_compare_write_differences (&c, false, &t);
  DM_CHECK (t.data && strstr (t.data, a.profile_hash) && strstr (t.data, other.profile_hash));
  dm_buf_free (&t);
  dm_compare_clear (&c);
  DM_CHECK (!dm_report_same_profile (&a, &other, why, sizeof why));

  dm_report_clear (&a);
  dm_report_clear (&b);
  dm_report_clear (&plain);
  dm_report_clear (&other);
}

int
main (void)
{
  DM_RUN ("/engine/compare/judge-table", test_judge_table);
  DM_RUN ("/engine/compare/build-table", test_build_table);
  DM_RUN ("/engine/compare/verdict-names", test_verdict_names);
  DM_RUN ("/engine/compare/one-run", test_one_run);
  DM_RUN ("/engine/compare/as-saved", test_as_saved);
  DM_RUN ("/engine/compare/settings-differ", test_settings_differ);
  DM_RUN ("/engine/compare/run-lines", test_run_lines);
  DM_RUN ("/engine/compare/workload-rows", test_workload_rows);
  return dm_test_done ();
}
