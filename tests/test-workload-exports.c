/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the CSV and the text show of workload rows, against figures set by
 * hand: each row's name and shape, reads and writes apart as the row's
 * figure shared out by the bytes and I/Os its measured runs moved each way
 * (so they add up to it), each direction's p99, the rate offered against
 * reached, the flushes and the profile's hash; the same after a JSON round
 * trip; and a plain report's CSV without a column more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-report.h"
#include "dm-test-workloads.h"
#include "dm-test.h"

/* One CSV line's fields: quotes as RFC 4180 has them. */
static int
fields (const char *line, char out[][600], int max)
{
  int n = 0;
  const char *p = line;
  while (n < max)
    {
      size_t o = 0;
      if (*p == '"')
        {
          for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
            {
              if (*p == '"')
                p++;
              if (o + 1 < 600)
                out[n][o++] = *p;
            }
          if (*p == '"')
            p++;
        }
      else
        for (; *p && *p != ',' && *p != '\r' && *p != '\n'; p++)
          if (o + 1 < 600)
            out[n][o++] = *p;
      out[n++][o] = '\0';
      if (*p != ',')
        break;
      p++;
    }
  return n;
}

static char (*rows_of (const char *csv, int *n_rows, int *n_cols))[40][600]
{
  static char table[4][40][600];
  const char *p = csv;
  *n_rows = 0;
  while (p && *p && *n_rows < 4)
    {
      *n_cols = fields (p, table[*n_rows], 40);
      (*n_rows)++;
      p = strstr (p, "\r\n");
      p = p ? p + 2 : NULL;
    }
  return table;
}

static const char *
cell (char (*t)[40][600], int n_cols, int row, const char *name)
{
  for (int c = 0; c < n_cols; c++)
    if (!strcmp (t[0][c], name))
      return t[row][c];
  return "(no such column)";
}

static void
check_csv (const dm_report *r)
{
  dm_buf b;
  int n_rows = 0, n_cols = 0;
  char want[64];
  dm_buf_init (&b);
  dm_report_write_csv (r, &b);
  DM_CHECK (b.data != NULL);
  if (!b.data)
    return;
  /* The CSV has more columns than 40 of a plain report: the workload ones
   * come after, so look for them from the end of the header. */
  char (*t)[40][600] = NULL;
  const char *start = strstr (b.data, "flags,");
  DM_CHECK (start != NULL);
  if (!start)
    goto out;
  /* Re-read every line from its "flags" column on, which the plain rows
   * have last: the header there, and each row from the same field. */
  {
    dm_buf cut;
    unsigned plain_cols = 0;
    dm_buf_init (&cut);
    for (const char *q = b.data; q < start; q++)
      plain_cols += *q == ',';
    for (const char *line = b.data; line && *line;)
      {
        char f[64][600];
        int n = fields (line, f, 64);
        for (int k = (int) plain_cols; k < n; k++)
          {
            if (k > (int) plain_cols)
              dm_buf_add (&cut, ",");
            dm_buf_add_csv_field (&cut, f[k]);
          }
        dm_buf_add (&cut, "\r\n");
        line = strstr (line, "\r\n");
        line = line ? line + 2 : NULL;
      }
    t = rows_of (cut.data, &n_rows, &n_cols);
    dm_buf_free (&cut);
  }
  DM_CHECK_INT (n_rows, ==, 3);
  if (n_rows != 3)
    goto out;
  double mb = 1843 * 8192 / 1e6;
  DM_CHECK_STR (cell (t, n_cols, 1, "workload"), "Mixed 8K 70/30");
  DM_CHECK (strstr (cell (t, n_cols, 1, "workload_canonical"), "block=8K;read=70;") != NULL);
  DM_CHECK (strstr (cell (t, n_cols, 1, "workload_mode"), "70% read") != NULL);
  snprintf (want, sizeof want, "%.3f", mb * DM_TW_READ_BYTE_SHARE);
  DM_CHECK_STR (cell (t, n_cols, 1, "read_mb_per_s"), want);
  snprintf (want, sizeof want, "%.3f", mb * (1 - DM_TW_READ_BYTE_SHARE));
  DM_CHECK_STR (cell (t, n_cols, 1, "write_mb_per_s"), want);
  DM_CHECK_STR (cell (t, n_cols, 1, "read_iops"), "1290.0");
  DM_CHECK_STR (cell (t, n_cols, 1, "write_iops"), "553.0");
  DM_CHECK_STR (cell (t, n_cols, 1, "read_lat_p99_us"), "2100.00");
  DM_CHECK_STR (cell (t, n_cols, 1, "write_lat_p99_us"), "3100.00");
  DM_CHECK_STR (cell (t, n_cols, 1, "flushes"), "");
  DM_CHECK_STR (cell (t, n_cols, 1, "rate_offered"), "2000");
  DM_CHECK_STR (cell (t, n_cols, 1, "rate_unit"), "IOPS");
  DM_CHECK_STR (cell (t, n_cols, 1, "rate_reached"), "1843.0");
  DM_CHECK_STR (cell (t, n_cols, 1, "rate_met"), "no");
  DM_CHECK_STR (cell (t, n_cols, 1, "profile_hash"), r->profile_hash);
  DM_CHECK_INT (strlen (r->profile_hash), ==, 16);
  DM_CHECK_STR (cell (t, n_cols, 2, "workload"), "Log writes");
  DM_CHECK (strstr (cell (t, n_cols, 2, "workload_canonical"), "block=4K/50,64K/50") != NULL);
  DM_CHECK_STR (cell (t, n_cols, 2, "read_mb_per_s"), "0.000");
  DM_CHECK_STR (cell (t, n_cols, 2, "write_mb_per_s"), "104.448");
  DM_CHECK_STR (cell (t, n_cols, 2, "flushes"), "750");
  DM_CHECK_STR (cell (t, n_cols, 2, "sync"), "flush");
  DM_CHECK_STR (cell (t, n_cols, 2, "flush_every"), "8");
  DM_CHECK_STR (cell (t, n_cols, 2, "rate_offered"), "");
out:
  dm_buf_free (&b);
}

static void
test_csv (void)
{
  dm_report r;
  dm_tw_make (&r, 4, 1, 1700000000);
  check_csv (&r);
  dm_report_clear (&r);
}

static void
test_text (void)
{
  dm_report r;
  dm_buf b;
  char want[160];
  dm_tw_make (&r, 4, 1, 1700000000);
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (b.data != NULL);
  if (b.data)
    {
      double mb = 1843 * 8192 / 1e6;
      snprintf (want, sizeof want, "      Read: %9.3f MB/s [  1290.0 IOPS] p99 2100.00 us\n",
                mb * DM_TW_READ_BYTE_SHARE);
      DM_CHECK (strstr (b.data, want) != NULL);
      snprintf (want, sizeof want, "     Write: %9.3f MB/s [   553.0 IOPS] p99 3100.00 us\n",
                mb * (1 - DM_TW_READ_BYTE_SHARE));
      DM_CHECK (strstr (b.data, want) != NULL);
      DM_CHECK (strstr (b.data, "  Latency: p50 400.00 us, p99 2500.00 us, p99.9 6000.00 us\n"));
      DM_CHECK (strstr (b.data, "Rate: 2000 IOPS offered, 1843 reached: not met"));
      DM_CHECK (strstr (b.data, "Flushes: 750 in the measured runs"));
      /* A write-only row has no reads to show apart. */
      const char *log = strstr (b.data, "  Log writes:\n");
      DM_CHECK (log && !strstr (log, "Read:"));
    }
  dm_buf_free (&b);
  dm_report_clear (&r);
}

/* Saved as JSON and read back, the exports are the same byte for byte:
 * what the history shows of a run is what it was. */
static void
test_round_trip (void)
{
  dm_report r, back;
  dm_buf json, a, c, ta, tc;
  char why[320];
  dm_tw_make (&r, 4, 1, 1700000000);
  dm_buf_init (&json);
  dm_buf_init (&a);
  dm_buf_init (&c);
  dm_buf_init (&ta);
  dm_buf_init (&tc);
  dm_report_write_json (&r, &json);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  dm_report_write_csv (&r, &a);
  dm_report_write_csv (&back, &c);
  DM_CHECK (a.data && c.data && !strcmp (a.data, c.data));
  dm_report_write_text (&r, &ta);
  dm_report_write_text (&back, &tc);
  DM_CHECK (ta.data && tc.data && !strcmp (ta.data, tc.data));
  check_csv (&back);
  dm_buf_free (&json);
  dm_buf_free (&a);
  dm_buf_free (&c);
  dm_buf_free (&ta);
  dm_buf_free (&tc);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

/* A report of plain tests keeps its columns: none of the workload ones. */
static void
test_plain_columns (void)
{
  dm_report r;
  dm_settings s;
  dm_spec spec;
  dm_buf b;
  dm_settings_init (&s);
  dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  dm_buf_init (&b);
  dm_report_write_csv (&r, &b);
  DM_CHECK (b.data && strstr (b.data, "device_busy_percent,flags,device_read_await_us,device_write_await_us,"
                            "guest_read_us,guest_write_us\r\n") && !strstr (b.data, "workload"));
  dm_buf_free (&b);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/workload-exports/csv", test_csv);
  DM_RUN ("/engine/workload-exports/text", test_text);
  DM_RUN ("/engine/workload-exports/round-trip", test_round_trip);
  DM_RUN ("/engine/workload-exports/plain-columns", test_plain_columns);
  return dm_test_done ();
}
