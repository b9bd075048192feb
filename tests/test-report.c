/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The three report formats of a hand-built run: CrystalDiskMark's text
 * layout line by line, JSON read back by a strict parser written here (so
 * a report any JSON tool would choke on fails), and CSV read back by the
 * RFC 4180 rules, with a comment full of quotes, commas, newlines and
 * non-ASCII text, and numbers that keep their '.' under a German locale.
 * Also a run copied into another report, as the window does with its grid:
 * every figure and latency arrives, and no pointer is shared.
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
#include "dm-units.h"

#define N_RESULTS 12

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

static const char *const spec_names[] = { "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1" };

/* The grid figures per result: read, write, mix, each in the profile's order. */
static const struct {
  double mb, iops, lat;
} figures[N_RESULTS] = {
  { 1234.567, 1177.4, 6789.01 },   { 987.654, 941.9, 1061.23 },
  { 456.789, 111520.8, 286.87 },   { 45.678, 11151.9, 89.55 },
  { 2345.678, 2237.0, 3574.12 },   { 1999.999, 1907.3, 524.28 },
  { 321.098, 78393.1, 408.12 },    { 0, 0, 0 },
  { 1500.000, 1430.5, 5589.33 },   { 0.123, 0.1, 33333.33 },
  { 99999.999, 24414062.3, 1.31 }, { 12.345, 3013.9, 331.77 },
};

static void
build_report (dm_report *r, const char *comment)
{
  dm_settings s;
  dm_spec specs[4];

  dm_settings_init (&s);
  for (int i = 0; i < 4; i++)
    DM_CHECK_INT (dm_spec_parse (spec_names[i], &specs[i], NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (r, &s, specs, 4, DM_MODES_ALL), ==, 0);
  DM_CHECK_INT (r->n_results, ==, N_RESULTS);

  r->status = DM_STATUS_CANCELLED;
  snprintf (r->backend, sizeof r->backend, "io_uring");
  snprintf (r->profile, sizeof r->profile, "default");
  snprintf (r->comment, sizeof r->comment, "%s", comment);
  snprintf (r->test_file, sizeof r->test_file, "/mnt/data/diskmeter-Ab12Cd.tmp");
  r->started = 1700000000;
  r->finished = 1700000300;
  snprintf (r->target.path, sizeof r->target.path, "/mnt/data");
  snprintf (r->target.mount_point, sizeof r->target.mount_point, "/mnt/data");
  snprintf (r->target.filesystem, sizeof r->target.filesystem, "ext4");
  snprintf (r->target.device, sizeof r->target.device, "/dev/nvme0n1p1");
  snprintf (r->target.model, sizeof r->target.model, "Samsung SSD 980 1TB");
  snprintf (r->target.driver, sizeof r->target.driver, "nvme");
  r->target.size_bytes = 100ull << 30;
  r->target.free_bytes = 50ull << 30;
  r->target.sector_size = 512;
  snprintf (r->system.os, sizeof r->system.os, "Debian GNU/Linux 12 (bookworm)");
  snprintf (r->system.kernel, sizeof r->system.kernel, "Linux 6.1.0-18-amd64 x86_64");
  snprintf (r->system.cpu_model, sizeof r->system.cpu_model, "AMD EPYC 7763 64-Core Processor");
  r->system.logical_cpus = 8;
  r->system.memory_bytes = 32ull << 30;

  for (unsigned i = 0; i < r->n_results && i < N_RESULTS; i++)
    {
      dm_result *res = &r->results[i];
      double lat = figures[i].lat;
      res->status = DM_STATUS_COMPLETE;
      res->mb_per_s = figures[i].mb;
      res->iops = figures[i].iops;
      res->latency_us = lat;
      res->n_runs = 5;
      for (unsigned k = 0; k < res->n_runs; k++)
        {
          res->runs[k].bytes = (uint64_t) (figures[i].mb * 5e6) - k;
          res->runs[k].ios = (uint64_t) (figures[i].iops * 5) - k;
          res->runs[k].seconds = 5.0;
          res->runs[k].mb_per_s = figures[i].mb - k;
          res->runs[k].iops = figures[i].iops - k;
          res->runs[k].latency_us = lat + k;
        }
      res->mean_mb_per_s = figures[i].mb - 2;
      res->stdev_mb_per_s = 1.5;
      res->latency = (dm_latency) { lat * 0.5, lat, lat * 10, lat * 0.25,
                                    lat * 0.9, lat * 1.5, lat * 2, lat * 3, lat * 5 };
      res->latency_read = res->latency;
      res->latency_write = res->latency;
      res->cpu_percent = 3.25 + i;
      res->cpu_us_per_io = 1.5;
    }
  /* A failed test, a cancelled one, and figures that are not numbers:
   * none of them may break a format. */
  r->results[7].status = DM_STATUS_FAILED;
  r->results[7].n_runs = 0;
  snprintf (r->results[7].error, sizeof r->results[7].error, "I/O error at offset 4096");
  r->results[11].status = DM_STATUS_CANCELLED;
  r->results[11].n_runs = 2;
  r->results[3].cpu_percent = NAN;
  r->results[2].stdev_mb_per_s = INFINITY;
}

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

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
  jtype        type;
  bool         boolean;
  double       num;
  char        *str;   /* decoded string */
  char        *key;   /* member name inside an object */
  struct jval *kids;  /* array elements or object members */
  size_t       n_kids;
} jval;

typedef struct {
  const char *p;
  const char *start;
  const char *err;
  int         depth;
} jparser;

static bool jparse_value (jparser *ps, jval *out);

static bool json_quiet; /* while feeding the validator bad JSON on purpose */

static bool
jfail (jparser *ps, const char *what)
{
  if (!ps->err && !json_quiet)
    {
      ps->err = what;
      fprintf (stderr, "JSON: %s at byte %ld: \"%.30s\"\n", what, (long) (ps->p - ps->start),
               ps->p);
    }
  return false;
}

static void
jskip (jparser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static void
jfree (jval *v)
{
  for (size_t i = 0; i < v->n_kids; i++)
    jfree (&v->kids[i]);
  free (v->kids);
  free (v->str);
  free (v->key);
  memset (v, 0, sizeof *v);
}

static int
hexval (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static bool
read_hex4 (jparser *ps, unsigned *out)
{
  unsigned v = 0;
  for (int i = 0; i < 4; i++)
    {
      int h = hexval (ps->p[i]);
      if (h < 0)
        return jfail (ps, "bad \\u escape");
      v = v * 16 + (unsigned) h;
    }
  ps->p += 4;
  *out = v;
  return true;
}

static size_t
put_utf8 (char *o, unsigned c)
{
  if (c < 0x80)
    return o[0] = (char) c, 1;
  if (c < 0x800)
    return o[0] = (char) (0xc0 | (c >> 6)), o[1] = (char) (0x80 | (c & 0x3f)), 2;
  if (c < 0x10000)
    return o[0] = (char) (0xe0 | (c >> 12)), o[1] = (char) (0x80 | ((c >> 6) & 0x3f)),
           o[2] = (char) (0x80 | (c & 0x3f)), 3;
  o[0] = (char) (0xf0 | (c >> 18));
  o[1] = (char) (0x80 | ((c >> 12) & 0x3f));
  o[2] = (char) (0x80 | ((c >> 6) & 0x3f));
  o[3] = (char) (0x80 | (c & 0x3f));
  return 4;
}

/* Length of the well-formed UTF-8 sequence at p (no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0. */
static size_t
utf8_len (const unsigned char *p)
{
  unsigned c;
  size_t n;
  if (p[0] < 0x80)
    return 1;
  else if (p[0] >= 0xc2 && p[0] <= 0xdf)
    n = 2, c = p[0] & 0x1f;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    n = 3, c = p[0] & 0x0f;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    n = 4, c = p[0] & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      c = (c << 6) | (p[i] & 0x3f);
    }
  if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff))
      || (c >= 0xd800 && c <= 0xdfff))
    return 0;
  return n;
}

static bool
jparse_string (jparser *ps, char **out)
{
  if (*ps->p != '"')
    return jfail (ps, "expected a string");
  ps->p++;
  /* Decoding never makes a string longer than its escaped form. */
  const char *end = ps->p;
  while (*end && *end != '"')
    end += (*end == '\\' && end[1]) ? 2 : 1;
  char *s = malloc ((size_t) (end - ps->p) + 1), *o = s;
  if (!s)
    return jfail (ps, "out of memory");
  for (;;)
    {
      unsigned char c = (unsigned char) *ps->p;
      if (c == '"')
        break;
      if (c < 0x20)
        {
          free (s);
          return jfail (ps, c ? "raw control character in a string" : "unterminated string");
        }
      if (c != '\\')
        {
          size_t n = utf8_len ((const unsigned char *) ps->p);
          if (!n)
            {
              free (s);
              return jfail (ps, "invalid UTF-8");
            }
          memcpy (o, ps->p, n);
          o += n;
          ps->p += n;
          continue;
        }
      ps->p++;
      char e = *ps->p++;
      switch (e)
        {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
          {
            unsigned cp, lo;
            if (!read_hex4 (ps, &cp))
              {
                free (s);
                return false;
              }
            if (cp >= 0xdc00 && cp <= 0xdfff)
              {
                free (s);
                return jfail (ps, "lone low surrogate");
              }
            if (cp >= 0xd800 && cp <= 0xdbff)
              {
                if (ps->p[0] != '\\' || ps->p[1] != 'u')
                  {
                    free (s);
                    return jfail (ps, "lone high surrogate");
                  }
                ps->p += 2;
                if (!read_hex4 (ps, &lo) || lo < 0xdc00 || lo > 0xdfff)
                  {
                    free (s);
                    return jfail (ps, "bad surrogate pair");
                  }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
              }
            if (cp == 0)
              {
                free (s);
                return jfail (ps, "NUL in a string");
              }
            o += put_utf8 (o, cp);
            break;
          }
        default:
          free (s);
          return jfail (ps, "bad escape");
        }
    }
  ps->p++;
  *o = '\0';
  *out = s;
  return true;
}

/* JSON's number grammar exactly, converted by hand so the process locale
 * cannot change what is read. */
static bool
jparse_number (jparser *ps, double *out)
{
  const char *p = ps->p;
  double sign = 1, v = 0;
  int exp10 = 0;
  if (*p == '-')
    sign = -1, p++;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (*p >= '0' && *p <= '9')
      v = v * 10 + (*p++ - '0');
  else
    return jfail (ps, "bad number");
  if (*p == '.')
    {
      p++;
      if (!(*p >= '0' && *p <= '9'))
        return jfail (ps, "no digits after the decimal point");
      while (*p >= '0' && *p <= '9')
        {
          v = v * 10 + (*p++ - '0');
          exp10--;
        }
    }
  if (*p == 'e' || *p == 'E')
    {
      int esign = 1, e = 0;
      p++;
      if (*p == '+' || *p == '-')
        esign = *p++ == '-' ? -1 : 1;
      if (!(*p >= '0' && *p <= '9'))
        return jfail (ps, "no digits in the exponent");
      while (*p >= '0' && *p <= '9')
        {
          if (e < 10000)
            e = e * 10 + (*p - '0');
          p++;
        }
      exp10 += esign * e;
    }
  ps->p = p;
  *out = sign * v * pow (10, exp10);
  return true;
}

static bool
jpush (jparser *ps, jval *parent, jval *kid)
{
  jval *k = realloc (parent->kids, (parent->n_kids + 1) * sizeof *k);
  if (!k)
    return jfail (ps, "out of memory");
  parent->kids = k;
  parent->kids[parent->n_kids++] = *kid;
  return true;
}

static bool
jparse_container (jparser *ps, jval *out, bool object)
{
  char close = object ? '}' : ']';
  out->type = object ? J_OBJ : J_ARR;
  if (++ps->depth > 64)
    return jfail (ps, "nested too deep");
  ps->p++;
  jskip (ps);
  if (*ps->p == close)
    {
      ps->p++;
      ps->depth--;
      return true;
    }
  for (;;)
    {
      jval kid = { 0 };
      jskip (ps);
      if (object)
        {
          if (!jparse_string (ps, &kid.key))
            return false;
          for (size_t i = 0; i < out->n_kids; i++)
            if (!strcmp (out->kids[i].key, kid.key))
              {
                free (kid.key);
                return jfail (ps, "duplicate key");
              }
          jskip (ps);
          if (*ps->p != ':')
            {
              free (kid.key);
              return jfail (ps, "expected ':'");
            }
          ps->p++;
        }
      if (!jparse_value (ps, &kid) || !jpush (ps, out, &kid))
        {
          jfree (&kid);
          return false;
        }
      jskip (ps);
      if (*ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (*ps->p == close)
        {
          ps->p++;
          ps->depth--;
          return true;
        }
      return jfail (ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool
jparse_value (jparser *ps, jval *out)
{
  jskip (ps);
  switch (*ps->p)
    {
    case '{': return jparse_container (ps, out, true);
    case '[': return jparse_container (ps, out, false);
    case '"':
      out->type = J_STR;
      return jparse_string (ps, &out->str);
    case 't':
    case 'f':
    case 'n':
      {
        static const char *const words[] = { "true", "false", "null" };
        for (int i = 0; i < 3; i++)
          if (!strncmp (ps->p, words[i], strlen (words[i])))
            {
              ps->p += strlen (words[i]);
              out->type = i == 2 ? J_NULL : J_BOOL;
              out->boolean = i == 0;
              return true;
            }
        return jfail (ps, "bad literal");
      }
    default:
      out->type = J_NUM;
      return jparse_number (ps, &out->num);
    }
}

/* The whole text must be exactly one JSON value. */
static bool
jparse (const char *text, jval *root)
{
  jparser ps = { text, text, NULL, 0 };
  memset (root, 0, sizeof *root);
  if (!jparse_value (&ps, root))
    {
      jfree (root);
      return false;
    }
  jskip (&ps);
  if (*ps.p)
    {
      jfail (&ps, "text after the value");
      jfree (root);
      return false;
    }
  return true;
}

/* Member by a dotted path, "target.path". */
static const jval *
jget (const jval *v, const char *path)
{
  char part[64];
  while (v && *path)
    {
      size_t n = strcspn (path, ".");
      if (n >= sizeof part || v->type != J_OBJ)
        return NULL;
      memcpy (part, path, n);
      part[n] = '\0';
      path += n + (path[n] == '.');
      const jval *found = NULL;
      for (size_t i = 0; i < v->n_kids; i++)
        if (!strcmp (v->kids[i].key, part))
          found = &v->kids[i];
      v = found;
    }
  return v;
}

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

/* --- values -------------------------------------------------------------- */

static void
test_values (void)
{
  dm_report r;
  build_report (&r, "");
  const dm_result *res = &r.results[0];
  DM_CHECK (dm_result_value (res, DM_UNIT_MBPS) == 1234.567);
  DM_CHECK (fabs (dm_result_value (res, DM_UNIT_GBPS) - 1.234567) < 1e-12);
  DM_CHECK (dm_result_value (res, DM_UNIT_IOPS) == 1177.4);
  DM_CHECK (dm_result_value (res, DM_UNIT_US) == 6789.01);

  /* Results come in CrystalDiskMark's order and can be found again. */
  dm_spec s;
  dm_spec_parse ("RND4K_Q32T1", &s, NULL, 0);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_WRITE) == &r.results[6]);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_MIX) == &r.results[10]);
  dm_spec_parse ("RND4K_Q32T16", &s, NULL, 0);
  DM_CHECK (dm_report_find (&r, &s, DM_MODE_READ) == NULL);
  dm_report_clear (&r);

  /* No modes, no report. */
  dm_settings set;
  dm_settings_init (&set);
  DM_CHECK_INT (dm_report_init (&r, &set, &s, 1, 0), <, 0);
}

/* --- copies between reports ---------------------------------------------- */

static bool
points_into (const void *p, const void *base, size_t size)
{
  const char *c = p, *b = base;
  return p && base && c >= b && c < b + size;
}

/* No pointer in dst may lead into memory that src owns: the window copies a
 * finished run into its grid and then lets the run go. */
static void
check_owns_nothing_of (const dm_report *dst, const dm_report *src)
{
  size_t results_size = src->n_results * sizeof *src->results;
  size_t hist_size = 2 * src->n_results * sizeof *src->histograms;

  DM_CHECK (dst->results != src->results);
  DM_CHECK (dst->histograms != src->histograms);
  for (unsigned i = 0; i < dst->n_results; i++)
    {
      const dm_result *res = &dst->results[i];
      DM_CHECK (!points_into (res, src->results, results_size));
      DM_CHECK (!points_into (res->hist_read, src->histograms, hist_size));
      DM_CHECK (!points_into (res->hist_write, src->histograms, hist_size));
      DM_CHECK (res->hist_read == &dst->histograms[2 * i]);
      DM_CHECK (res->hist_write == &dst->histograms[2 * i + 1]);
    }
}

static void
test_copy (void)
{
  dm_report done, grid;
  build_report (&done, "the run's comment");
  build_report (&grid, "");
  for (unsigned i = 0; i < done.n_results; i++)
    {
      dm_histogram_add (done.results[i].hist_read, 1000 + i, 10);
      dm_histogram_add (done.results[i].hist_write, 50000 + i, 3);
    }
  done.status = DM_STATUS_COMPLETE;
  done.measured_bytes = 123456789;
  done.thresholds[0].green = 500;
  done.n_thresholds = 1;

  for (unsigned i = 0; i < done.n_results; i++)
    dm_result_copy (&grid.results[i], &done.results[i]);
  dm_report_copy_run (&grid, &done);
  check_owns_nothing_of (&grid, &done);
  DM_CHECK_INT (grid.n_results, ==, N_RESULTS);
  DM_CHECK_INT (grid.status, ==, DM_STATUS_COMPLETE);
  DM_CHECK_INT (grid.measured_bytes, ==, 123456789);
  DM_CHECK_INT (grid.n_thresholds, ==, 1);
  DM_CHECK_STR (grid.comment, "the run's comment");

  /* Once the run is gone, the grid still has every figure and latency. */
  dm_report_clear (&done);
  for (unsigned i = 0; i < grid.n_results; i++)
    {
      const dm_result *res = &grid.results[i];
      DM_CHECK (res->mb_per_s == figures[i].mb);
      DM_CHECK_INT (res->hist_read->count, ==, 10);
      DM_CHECK_INT (res->hist_read->min, ==, 1000 + i);
      DM_CHECK_INT (res->hist_write->count, ==, 3);
      DM_CHECK_INT (res->hist_write->max, ==, 50000 + i);
    }

  /* A result without histograms (a caller's own) empties the grid's
   * instead of leaving the last run's latency behind. */
  dm_result bare = grid.results[0];
  bare.hist_read = NULL;
  bare.hist_write = NULL;
  dm_result_copy (&grid.results[1], &bare);
  DM_CHECK (grid.results[1].hist_read == &grid.histograms[2]);
  DM_CHECK_INT (grid.results[1].hist_read->count, ==, 0);
  DM_CHECK_INT (grid.results[1].hist_write->count, ==, 0);
  DM_CHECK (grid.results[1].mb_per_s == figures[0].mb);

  /* And a result without histograms does not get another's. */
  dm_result_copy (&bare, &grid.results[2]);
  DM_CHECK (bare.hist_read == NULL && bare.hist_write == NULL);

  /* A reset row keeps which test it is and its storage, nothing else. */
  dm_result_reset (&grid.results[4]);
  DM_CHECK_INT (grid.results[4].mode, ==, DM_MODE_WRITE);
  DM_CHECK_INT (grid.results[4].read_percent, ==, 0);
  DM_CHECK_INT (grid.results[4].status, ==, DM_STATUS_PENDING);
  DM_CHECK_INT (grid.results[4].n_runs, ==, 0);
  DM_CHECK (grid.results[4].mb_per_s == 0);
  DM_CHECK (grid.results[4].hist_read == &grid.histograms[8]);
  DM_CHECK_INT (grid.results[4].hist_read->count, ==, 0);
  DM_CHECK_INT (grid.results[4].hist_write->count, ==, 0);
  DM_CHECK_INT (grid.results[5].hist_read->count, ==, 10);
  dm_report_clear (&grid);
}

/* The view of what a run reached leaves out the pending tests, keeps the
 * rest in order and shares their figures; with nothing run it keeps all. */
static void
test_view_ran (void)
{
  dm_report r, view;
  build_report (&r, "");
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].status = DM_STATUS_PENDING;
  DM_CHECK_INT (dm_report_view_ran (&r, &view), ==, 0);
  DM_CHECK_INT (view.n_results, ==, r.n_results);
  dm_report_view_free (&view);

  r.results[1].status = DM_STATUS_COMPLETE;
  r.results[4].status = DM_STATUS_FAILED;
  r.results[5].status = DM_STATUS_CANCELLED;
  DM_CHECK_INT (dm_report_view_ran (&r, &view), ==, 0);
  DM_CHECK_INT (view.n_results, ==, 3);
  DM_CHECK (view.results[0].mb_per_s == figures[1].mb);
  DM_CHECK_INT (view.results[1].status, ==, DM_STATUS_FAILED);
  DM_CHECK_INT (view.results[2].status, ==, DM_STATUS_CANCELLED);
  DM_CHECK (view.results[0].hist_read == r.results[1].hist_read);
  DM_CHECK (view.histograms == r.histograms);
  dm_report_view_free (&view);
  DM_CHECK (view.results == NULL && view.n_results == 0);
  dm_report_clear (&r);
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
  DM_RUN ("/engine/report/values", test_values);
  DM_RUN ("/engine/report/copy", test_copy);
  DM_RUN ("/engine/report/view-ran", test_view_ran);
  return dm_test_done ();
}
