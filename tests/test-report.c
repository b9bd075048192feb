/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The three report formats of a hand-built run (tests/dm-test-report.h):
 * CrystalDiskMark's text layout line by line, JSON read back by a strict
 * reader written for the tests (tests/dm-test-json.h, so a report any JSON
 * tool would choke on fails; the reader itself is checked here too), and
 * CSV read back by the RFC 4180 rules, with a comment full of quotes,
 * commas, newlines and non-ASCII text, and numbers that keep their '.'
 * under a German locale. The results in memory (values, copies, the view
 * of what ran) are tests/test-report-copy.c's.
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-report.h"
#include "dm-test.h"
#include "dm-test-json.h"
#include "dm-test-report.h"
#include "dm-units.h"

/* Quotes, a comma, a newline, a tab, a backslash, a control character,
 * and UTF-8 from two planes (ö, €, an emoji). */
static const char comment_hard[] =
  "NVMe \"Samsung\", slot 2\nsecond line\twith tab \\ and \x01 ctrl, gr\xc3\xb6\xc3\x9f"
  "e \xe2\x82\xac 5 \xf0\x9f\x98\x80";
/* The same as a CSV cell shows it: the control character escaped. */
static const char comment_hard_cell[] =
  "NVMe \"Samsung\", slot 2\nsecond line\twith tab \\ and \\x01 ctrl, gr\xc3\xb6\xc3\x9f"
  "e \xe2\x82\xac 5 \xf0\x9f\x98\x80";
static const char comment_line[] = "Firmware 2B2QEXM7, \"as shipped\" gr\xc3\xb6\xc3\x9f" "e";

/* --- text --------------------------------------------------------------- */

/* Splits at '\n' in place; returns the number of lines. */
static unsigned
split_lines (char *text, char **lines, unsigned max)
{
  unsigned n = 0;
  char *p = text;
  while (*p && n < max)
    {
      lines[n++] = p;
      char *nl = strchr (p, '\n');
      if (!nl)
        break;
      *nl = '\0';
      p = nl + 1;
    }
  return n;
}

static bool
is_date (const char *s)
{
  /* "YYYY/MM/DD hh:mm:ss" */
  static const char shape[] = "0000/00/00 00:00:00";
  if (strlen (s) != sizeof shape - 1)
    return false;
  for (size_t i = 0; shape[i]; i++)
    if (shape[i] == '0' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
      return false;
  return true;
}

static const char *const text_expected[] = {
  "------------------------------------------------------------------------------",
  "Diskmeter " DM_VERSION " (io_uring)",
  "------------------------------------------------------------------------------",
  "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]",
  "* KB = 1000 bytes, KiB = 1024 bytes",
  "* CANCELLED: tests that did not finish show what they measured so far",
  "",
  "[Read]",
  "  SEQ    1MiB (Q=  8, T= 1):  1234.567 MB/s [  1177.4 IOPS] <  6789.01 us>",
  "  SEQ    1MiB (Q=  1, T= 1):   987.654 MB/s [   941.9 IOPS] <  1061.23 us>",
  "  RND    4KiB (Q= 32, T= 1):   456.789 MB/s [111520.8 IOPS] <   286.87 us>",
  "  RND    4KiB (Q=  1, T= 1):    45.678 MB/s [ 11151.9 IOPS] <    89.55 us>",
  "",
  "[Write]",
  "  SEQ    1MiB (Q=  8, T= 1):  2345.678 MB/s [  2237.0 IOPS] <  3574.12 us>",
  "  SEQ    1MiB (Q=  1, T= 1):  1999.999 MB/s [  1907.3 IOPS] <   524.28 us>",
  "  RND    4KiB (Q= 32, T= 1):   321.098 MB/s [ 78393.1 IOPS] <   408.12 us>",
  "  RND    4KiB (Q=  1, T= 1):     0.000 MB/s [     0.0 IOPS] <     0.00 us>"
  " FAILED: I/O error at offset 4096",
  "",
  "[Mix] Read 70%/Write 30%",
  "  SEQ    1MiB (Q=  8, T= 1):  1500.000 MB/s [  1430.5 IOPS] <  5589.33 us>",
  "  SEQ    1MiB (Q=  1, T= 1):     0.123 MB/s [     0.1 IOPS] < 33333.33 us>",
  "  RND    4KiB (Q= 32, T= 1): 99999.999 MB/s [24414062.3 IOPS] <     1.31 us>",
  "  RND    4KiB (Q=  1, T= 1):    12.345 MB/s [  3013.9 IOPS] <   331.77 us>"
  " (cancelled after 2 of 5 runs)",
  "",
  "Profile: Default",
  "   Test: 1GiB (x5) [/mnt/data: 50% (50/100GiB)]",
  "   Mode: [direct, io_uring, random]",
  "   Time: Measure 5 sec / Interval 5 sec",
  NULL, /* the date, in local time */
  "     OS: Debian GNU/Linux 12 (bookworm)",
  "   Disk: Samsung SSD 980 1TB /dev/nvme0n1p1 [nvme], ext4",
  "Comment: Firmware 2B2QEXM7, \"as shipped\" gr\xc3\xb6\xc3\x9f" "e",
};

static void
check_text (const dm_report *r)
{
  dm_buf b;
  char *lines[64];
  const unsigned n_expected = sizeof text_expected / sizeof text_expected[0];

  dm_buf_init (&b);
  dm_report_write_text (r, &b);
  DM_CHECK_INT (b.error, ==, 0);
  DM_CHECK (b.len > 0 && b.data[b.len - 1] == '\n');
  if (!b.data)
    return;
  unsigned n = split_lines (b.data, lines, 64);
  DM_CHECK_INT (n, ==, n_expected);
  for (unsigned i = 0; i < n && i < n_expected; i++)
    {
      if (text_expected[i])
        DM_CHECK_STR (lines[i], text_expected[i]);
      else
        {
          DM_CHECK (strncmp (lines[i], "   Date: ", 9) == 0);
          DM_CHECK (is_date (lines[i] + 9));
        }
    }
  dm_buf_free (&b);
}

static void
test_text (void)
{
  dm_report r;
  build_report (&r, comment_line);
  check_text (&r);
  dm_report_clear (&r);
}

/* What the header says about how the figures came about: a user must be
 * able to tell a cached or failed run from the text alone. */
static void
test_text_marks (void)
{
  dm_report r;
  dm_buf b;

  build_report (&r, "");
  r.status = DM_STATUS_FAILED;
  snprintf (r.error, sizeof r.error, "the disk is full");
  r.cached = true;
  r.nvme = true;
  r.settings.write_through = true;
  r.settings.data = DM_DATA_ZEROS;
  r.settings.measure_s = 0.5;
  r.settings.interval_s = 0;
  r.settings.test_size = 1536ull << 20;
  r.settings.count = 3;
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (strstr (b.data, "\n* CACHED: ") != NULL);
  DM_CHECK (strstr (b.data, "\n* FAILED: the disk is full\n") != NULL);
  DM_CHECK (strstr (b.data, "\n* CANCELLED") == NULL);
  DM_CHECK (strstr (b.data, "\nProfile: Default [NVMe SSD]\n") != NULL);
  DM_CHECK (strstr (b.data, "\n   Test: 1536MiB (x3) [") != NULL);
  DM_CHECK (strstr (b.data, "\n   Mode: [buffered, write-through, io_uring, zeros]\n") != NULL);
  DM_CHECK (strstr (b.data, "\n   Time: Measure 0.5 sec / Interval 0 sec\n") != NULL);
  DM_CHECK (strstr (b.data, "\nComment: \n") != NULL);

  /* A custom test list is no profile. */
  snprintf (r.profile, sizeof r.profile, "custom");
  r.nvme = false;
  dm_buf_clear (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (strstr (b.data, "\nProfile: Custom\n") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&r);
}

/* --- JSON --------------------------------------------------------------- */

static const jval *
jexpect (const jval *root, const char *path, jtype type)
{
  const jval *v = jget (root, path);
  if (!v || v->type != type)
    {
      fprintf (stderr, "JSON: '%s' is %s\n", path, v ? "of the wrong type" : "missing");
      dm_test_case_failed = 1;
      return NULL;
    }
  return v;
}

static void
jexpect_str (const jval *root, const char *path, const char *want)
{
  const jval *v = jexpect (root, path, J_STR);
  if (v)
    DM_CHECK_STR (v->str, want);
}

static void
jexpect_num (const jval *root, const char *path, double want, double tolerance)
{
  const jval *v = jexpect (root, path, J_NUM);
  if (v && !(fabs (v->num - want) <= tolerance))
    {
      fprintf (stderr, "JSON: '%s' is %.17g, want %.17g\n", path, v->num, want);
      dm_test_case_failed = 1;
    }
}

static void
test_json_parser (void)
{
  /* The validator itself must refuse what real JSON parsers refuse, or it
   * would prove nothing about the report. */
  static const char *const bad[] = {
    "", "{", "{\"a\":1,}", "[1,]", "{\"a\" 1}", "{'a':1}", "[01]", "[1.]", "[.5]",
    "[1,5e]", "[NaN]", "[Infinity]", "[-]", "[\"a\nb\"]", "[\"\\x\"]", "[\"\\ud800\"]",
    "{\"a\":1,\"a\":2}", "[1] [2]", "[1,2", "[\"\xc3\"]", "[\"\xc0\xaf\"]", "[tru]",
    "[1,234]x", "{\"a\":1,5}",
  };
  static const char *const good[] = {
    "{}", "[]", "[0, -0.5e-3, 1E+2, 123]", "{\"a\": [true, false, null, \"\\u00e9\\ud83d\\ude00\"]}",
    " \n[\"\xc3\xa9\"]\n ",
  };
  jval v;
  json_quiet = true;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (jparse (bad[i], &v))
      {
        fprintf (stderr, "JSON validator accepted '%s'\n", bad[i]);
        dm_test_case_failed = 1;
        jfree (&v);
      }
  json_quiet = false;
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    {
      bool ok = jparse (good[i], &v);
      DM_CHECK (ok);
      if (ok)
        jfree (&v);
    }
  DM_CHECK (jparse ("{\"s\": \"\\u00e9\\ud83d\\ude00\\\"\\n\"}", &v));
  DM_CHECK_STR (jget (&v, "s")->str, "\xc3\xa9\xf0\x9f\x98\x80\"\n");
  jfree (&v);
}

static void
check_json (const dm_report *r)
{
  dm_buf b;
  jval root;

  dm_buf_init (&b);
  dm_report_write_json (r, &b);
  DM_CHECK_INT (b.error, ==, 0);
  if (!b.data || !jparse (b.data, &root))
    {
      DM_CHECK (!"the JSON report parses");
      dm_buf_free (&b);
      return;
    }

  jexpect_str (&root, "tool.name", "Diskmeter");
  jexpect_str (&root, "tool.version", DM_VERSION);
  jexpect_str (&root, "backend", "io_uring");
  jexpect_str (&root, "status", "cancelled");
  jexpect_str (&root, "profile", "default");
  jexpect_str (&root, "comment", r->comment);
  jexpect_str (&root, "started", "2023-11-14T22:13:20Z");
  jexpect_str (&root, "target.path", "/mnt/data");
  jexpect_str (&root, "target.filesystem", "ext4");
  jexpect_str (&root, "target.device", "/dev/nvme0n1p1");
  jexpect_str (&root, "target.model", "Samsung SSD 980 1TB");
  jexpect_str (&root, "target.driver", "nvme");
  jexpect_num (&root, "target.size_bytes", 100.0 * (1 << 30), 0);
  jexpect_str (&root, "system.os", "Debian GNU/Linux 12 (bookworm)");
  jexpect_str (&root, "system.kernel", "Linux 6.1.0-18-amd64 x86_64");
  jexpect_str (&root, "system.cpu_model", "AMD EPYC 7763 64-Core Processor");
  jexpect_num (&root, "system.logical_cpus", 8, 0);
  jexpect_num (&root, "system.memory_bytes", 32.0 * (1 << 30), 0);
  jexpect (&root, "settings", J_OBJ);
  jexpect_num (&root, "settings.count", 5, 0);
  jexpect_num (&root, "settings.test_size", 1 << 30, 0);
  jexpect_num (&root, "settings.measure_s", 5, 0);
  jexpect_num (&root, "settings.interval_s", 5, 0);
  jexpect_num (&root, "settings.mix_read_percent", 70, 0);
  jexpect_str (&root, "settings.data", "random");

  const jval *results = jexpect (&root, "results", J_ARR);
  if (results)
    DM_CHECK_INT (results->n_kids, ==, r->n_results);
  for (unsigned i = 0; results && i < results->n_kids && i < r->n_results; i++)
    {
      const jval *o = &results->kids[i];
      const dm_result *res = &r->results[i];
      const dm_latency *l = &res->latency;
      char name[32];
      dm_spec_name (&res->spec, name, sizeof name);
      jexpect_str (o, "test", name);
      jexpect_str (o, "mode", dm_mode_name (res->mode));
      jexpect_str (o, "pattern", res->spec.pattern == DM_SEQ ? "SEQ" : "RND");
      jexpect_num (o, "block_size", res->spec.block_size, 0);
      jexpect_num (o, "queue_depth", res->spec.queue_depth, 0);
      jexpect_num (o, "threads", res->spec.threads, 0);
      jexpect_num (o, "read_percent", i < 4 ? 100 : i < 8 ? 0 : 70, 0);
      const jval *runs = jexpect (o, "runs", J_ARR);
      if (runs)
        DM_CHECK_INT (runs->n_kids, ==, res->n_runs);
      for (unsigned k = 0; runs && k < runs->n_kids && k < res->n_runs; k++)
        {
          jexpect_num (&runs->kids[k], "bytes", (double) res->runs[k].bytes, 0);
          jexpect_num (&runs->kids[k], "mb_per_s", res->runs[k].mb_per_s, 0.0005);
        }
      jexpect_num (o, "mb_per_s", res->mb_per_s, 0.0005);
      jexpect_num (o, "iops", res->iops, 0.0005);
      jexpect_num (o, "mean_mb_per_s", res->mean_mb_per_s, 0.0005);
      /* Not-a-number figures are written as 0, never as "nan" or "inf". */
      jexpect_num (o, "stdev_mb_per_s", isfinite (res->stdev_mb_per_s) ? res->stdev_mb_per_s : 0,
                   0.0005);
      jexpect_num (o, "cpu_percent", isfinite (res->cpu_percent) ? res->cpu_percent : 0, 0.0005);
      jexpect_num (o, "latency_us.min", l->min, 0.0005);
      jexpect_num (o, "latency_us.mean", l->mean, 0.0005);
      jexpect_num (o, "latency_us.max", l->max, 0.0005);
      jexpect_num (o, "latency_us.p50", l->p50, 0.0005);
      jexpect_num (o, "latency_us.p90", l->p90, 0.0005);
      jexpect_num (o, "latency_us.p99", l->p99, 0.0005);
      jexpect_num (o, "latency_us.p99_9", l->p99_9, 0.0005);
      jexpect_num (o, "latency_us.p99_99", l->p99_99, 0.0005);
      jexpect_str (o, "status", dm_status_name (res->status));
      /* Mix alone has reads and writes apart. */
      DM_CHECK ((jget (o, "latency_read_us") != NULL) == (res->mode == DM_MODE_MIX));
    }
  if (results && results->n_kids > 7)
    jexpect_str (&results->kids[7], "error", "I/O error at offset 4096");

  jfree (&root);
  dm_buf_free (&b);
}

static void
test_json (void)
{
  dm_report r;
  build_report (&r, comment_hard);
  check_json (&r);
  dm_report_clear (&r);
}

/* --- CSV ---------------------------------------------------------------- */

typedef struct {
  char  **fields;
  size_t  n;
} csv_row;

/* RFC 4180: CRLF between records, fields in quotes when they hold a comma,
 * quote or line break, quotes doubled inside. Returns the number of rows
 * or -1 for text that breaks the rules. */
static int
csv_parse (const char *p, csv_row *rows, int max_rows)
{
  int n = 0;
  while (*p)
    {
      if (n == max_rows)
        return -1;
      csv_row *row = &rows[n++];
      row->fields = NULL;
      row->n = 0;
      for (;;)
        {
          size_t cap = strlen (p) + 1, len = 0;
          char *f = malloc (cap);
          if (*p == '"')
            {
              p++;
              for (;;)
                {
                  if (!*p)
                    return free (f), -1;
                  if (*p == '"' && p[1] == '"')
                    f[len++] = '"', p += 2;
                  else if (*p == '"')
                    {
                      p++;
                      break;
                    }
                  else
                    f[len++] = *p++;
                }
            }
          else
            while (*p && *p != ',' && *p != '\r' && *p != '\n')
              {
                if (*p == '"')
                  return free (f), -1;
                f[len++] = *p++;
              }
          f[len] = '\0';
          row->fields = realloc (row->fields, (row->n + 1) * sizeof *row->fields);
          row->fields[row->n++] = f;
          if (*p == ',')
            {
              p++;
              continue;
            }
          if (p[0] == '\r' && p[1] == '\n')
            {
              p += 2;
              break;
            }
          if (!*p)
            break;
          return -1; /* a bare LF or CR, or text after a closing quote */
        }
    }
  return n;
}

static void
csv_free (csv_row *rows, int n)
{
  for (int i = 0; i < n; i++)
    {
      for (size_t k = 0; k < rows[i].n; k++)
        free (rows[i].fields[k]);
      free (rows[i].fields);
    }
}

static int
csv_column (const csv_row *header, const char *name)
{
  for (size_t i = 0; i < header->n; i++)
    if (!strcmp (header->fields[i], name))
      return (int) i;
  fprintf (stderr, "CSV: no column '%s'\n", name);
  dm_test_case_failed = 1;
  return -1;
}

static const char *
csv_field (const csv_row *row, int column)
{
  return column >= 0 && (size_t) column < row->n ? row->fields[column] : "(none)";
}

static void
check_csv (const dm_report *r, const char *want_comment)
{
  dm_buf b;
  csv_row rows[32];

  dm_buf_init (&b);
  dm_report_write_csv (r, &b);
  DM_CHECK_INT (b.error, ==, 0);
  int n = b.data ? csv_parse (b.data, rows, 32) : -1;
  if (n < 0)
    {
      DM_CHECK (!"the CSV report follows RFC 4180");
      dm_buf_free (&b);
      return;
    }
  DM_CHECK_INT (n, ==, 1 + (int) r->n_results);
  for (int i = 1; i < n; i++)
    if (rows[i].n != rows[0].n)
      {
        fprintf (stderr, "CSV row %d has %zu fields, the header %zu\n", i, rows[i].n, rows[0].n);
        dm_test_case_failed = 1;
      }

  int c_test = csv_column (&rows[0], "test"), c_mode = csv_column (&rows[0], "mode");
  int c_mb = csv_column (&rows[0], "mb_per_s"), c_iops = csv_column (&rows[0], "iops");
  int c_lat = csv_column (&rows[0], "latency_us"), c_cpu = csv_column (&rows[0], "cpu_percent");
  int c_p999 = csv_column (&rows[0], "lat_p99_9_us"), c_qd = csv_column (&rows[0], "queue_depth");
  int c_comment = csv_column (&rows[0], "comment"), c_read = csv_column (&rows[0], "read_percent");
  int c_status = csv_column (&rows[0], "status"), c_model = csv_column (&rows[0], "model");
  for (int i = 1; i < n && i <= (int) r->n_results; i++)
    {
      const dm_result *res = &r->results[i - 1];
      char name[32];
      dm_spec_name (&res->spec, name, sizeof name);
      DM_CHECK_STR (csv_field (&rows[i], c_test), name);
      DM_CHECK_STR (csv_field (&rows[i], c_mode), dm_mode_name (res->mode));
      DM_CHECK_STR (csv_field (&rows[i], c_status), dm_status_name (res->status));
      DM_CHECK_STR (csv_field (&rows[i], c_comment), want_comment);
      DM_CHECK_STR (csv_field (&rows[i], c_model), "Samsung SSD 980 1TB");
    }
  if (n > 4)
    {
      DM_CHECK_STR (csv_field (&rows[1], c_mb), "1234.567");
      DM_CHECK_STR (csv_field (&rows[1], c_iops), "1177.4");
      DM_CHECK_STR (csv_field (&rows[1], c_lat), "6789.01");
      DM_CHECK_STR (csv_field (&rows[1], c_p999), "20367.03");
      DM_CHECK_STR (csv_field (&rows[1], c_qd), "8");
      DM_CHECK_STR (csv_field (&rows[1], c_read), "100");
      DM_CHECK_STR (csv_field (&rows[4], c_cpu), "0.00"); /* NaN */
    }
  if (n > 10)
    DM_CHECK_STR (csv_field (&rows[10], c_read), "70");
  csv_free (rows, n);
  dm_buf_free (&b);
}

static void
test_csv (void)
{
  dm_report r;
  build_report (&r, comment_hard);
  check_csv (&r, comment_hard_cell);
  dm_report_clear (&r);
}

/* --- locale ------------------------------------------------------------- */

/* A desktop session in Germany prints 1234,567; reports must not. */
static void
test_locale (void)
{
  static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "de_DE", "German_Germany.1252",
                                       "de-DE" };
  /* The Linux build generates de_DE.UTF-8 into the build folder (LOCPATH)
   * and names it here, so the check cannot quietly drop out; elsewhere
   * (under Wine) the system's own locales are tried. */
  const char *required = getenv ("DM_DECIMAL_COMMA_LOCALE");
  const char *got = NULL;
  if (required && *required && setlocale (LC_NUMERIC, required)
      && localeconv ()->decimal_point[0] == ',')
    got = required;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
    if (setlocale (LC_NUMERIC, names[i]) && localeconv ()->decimal_point[0] == ',')
      got = names[i];
  if (!got)
    {
      setlocale (LC_NUMERIC, "C");
      if (required && *required)
        {
          const char *locpath = getenv ("LOCPATH");
          fprintf (stderr, "/engine/report/locale: %s (LOCPATH=%s) cannot be loaded; "
                   "build-aux/dev installs the locales package that generates it\n",
                   required, locpath ? locpath : "unset");
          dm_test_case_failed = 1;
          return;
        }
      printf ("# /engine/report/locale: no locale with a decimal comma here "
              "(de_DE.UTF-8); decimal point check skipped\n");
      return;
    }

  dm_report r;
  build_report (&r, comment_line);
  check_text (&r);
  check_json (&r);
  check_csv (&r, comment_line);
  dm_report_clear (&r);
  setlocale (LC_NUMERIC, "C");
}

int
main (void)
{
  DM_RUN ("/engine/report/text", test_text);
  DM_RUN ("/engine/report/text-marks", test_text_marks);
  DM_RUN ("/engine/report/json-validator", test_json_parser);
  DM_RUN ("/engine/report/json", test_json);
  DM_RUN ("/engine/report/csv", test_csv);
  DM_RUN ("/engine/report/locale", test_locale);
  return dm_test_done ();
}
