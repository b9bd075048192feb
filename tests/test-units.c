/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes, durations, counts and display units as users type them: each
 * accepted form gives the exact value, and anything half-readable is
 * refused whole with a reason rather than silently read as something else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-test.h"
#include "dm-units.h"

static void
check_size (const char *text, uint64_t want)
{
  uint64_t v = 0;
  char why[256] = "";
  int err = dm_size_parse (text, &v, why, sizeof why);
  if (err != 0 || v != want)
    {
      fprintf (stderr, "size '%s': err %d, %llu bytes (%s), want %llu\n", text, err,
               (unsigned long long) v, why, (unsigned long long) want);
      dm_test_case_failed = 1;
    }
}

static void
check_size_refused (const char *text)
{
  uint64_t v = 4242;
  char why[256] = "";
  if (dm_size_parse (text, &v, why, sizeof why) != -EINVAL)
    {
      fprintf (stderr, "size '%s' accepted as %llu\n", text ? text : "(null)",
               (unsigned long long) v);
      dm_test_case_failed = 1;
    }
  DM_CHECK (why[0] != '\0');
  DM_CHECK (strchr (why, '\n') == NULL);
  DM_CHECK_INT (v, ==, 4242);
}

/* A decimal spelling is refused with the binary one to write instead. */
static void
test_size_decimal (void)
{
  uint64_t v;
  char why[256] = "";
  DM_CHECK_INT (dm_size_parse ("32MB", &v, why, sizeof why), ==, -EINVAL);
  DM_CHECK_STR (why, "'32MB' is not a binary size: write 32MiB (1 MB = 1,000,000 bytes)");
  DM_CHECK_INT (dm_size_parse ("64kb", &v, why, sizeof why), ==, -EINVAL);
  DM_CHECK_STR (why, "'64kb' is not a binary size: write 64KiB (1 KB = 1,000 bytes)");
}

static void
test_size_parse (void)
{
  check_size ("1GiB", 1ull << 30);
  check_size ("1G", 1ull << 30);
  check_size ("1g", 1ull << 30);
  check_size ("512MiB", 512ull << 20);
  check_size ("512M", 512ull << 20);
  check_size ("64k", 64ull << 10);
  check_size ("64KiB", 64ull << 10);
  check_size ("16MiB", 16ull << 20);
  check_size ("4096", 4096);
  check_size ("4096B", 4096);
  check_size ("64GiB", 64ull << 30);
  check_size ("1TiB", 1ull << 40);
  check_size ("1.5GiB", 1536ull << 20);
  check_size ("0.5k", 512);
  check_size ("2.5GiB", 2560ull << 20);
  check_size ("1.25GiB", 1280ull << 20);
  check_size ("0.125MiB", 128ull << 10);
  check_size ("1.375GiB", 1408ull << 20);
  check_size ("0.0625GiB", 64ull << 20);

  check_size_refused ("1.5");     /* one and a half bytes */
  check_size_refused ("1.1GiB");  /* not a whole number of bytes */
  check_size_refused ("-1G");
  check_size_refused ("1X");
  check_size_refused ("");
  check_size_refused ("G");
  check_size_refused (".G");
  check_size_refused ("1GiBs");
  check_size_refused ("1 GiB");
  check_size_refused (" 1GiB");
  check_size_refused ("1e9");
  check_size_refused ("0x100");
  check_size_refused ("1,5GiB");
  /* A report's MB is 10^6 bytes, fio's default 2^20: not guessed. */
  check_size_refused ("1GB");
  check_size_refused ("32MB");
  check_size_refused ("64kB");
  check_size_refused ("1.5TB");
  check_size_refused ("1iB");
  check_size_refused ("99999999999999TiB"); /* does not fit in 64 bits */
  check_size_refused (NULL);
}

static void
check_format (uint64_t bytes, const char *want)
{
  char buf[32];
  dm_size_format (bytes, buf, sizeof buf);
  DM_CHECK_STR (buf, want);
}

static void
test_size_format (void)
{
  check_format (1ull << 30, "1GiB");
  check_format (3ull << 30, "3GiB");
  check_format (1536ull << 20, "1536MiB");
  check_format (4096, "4KiB");
  check_format (16ull << 20, "16MiB");
  check_format (64ull << 30, "64GiB");
  check_format (1ull << 40, "1TiB");
  check_format (1000, "1000B");
  check_format (0, "0B");

  /* What is printed reads back as the same size. */
  static const uint64_t sizes[] = { 1, 512, 4096, 1536ull << 20, 1ull << 30, 5ull << 40 };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      char buf[32];
      uint64_t back = 0;
      dm_size_format (sizes[i], buf, sizeof buf);
      DM_CHECK_INT (dm_size_parse (buf, &back, NULL, 0), ==, 0);
      DM_CHECK_INT (back, ==, sizes[i]);
    }
}

static void
check_duration (const char *text, double want)
{
  double v = -1;
  char why[256] = "";
  int err = dm_duration_parse (text, &v, why, sizeof why);
  if (err != 0 || v != want)
    {
      fprintf (stderr, "duration '%s': err %d, %g s (%s), want %g\n", text, err, v, why, want);
      dm_test_case_failed = 1;
    }
}

static void
check_duration_refused (const char *text)
{
  double v = 42;
  char why[256] = "";
  if (dm_duration_parse (text, &v, why, sizeof why) != -EINVAL)
    {
      fprintf (stderr, "duration '%s' accepted as %g\n", text ? text : "(null)", v);
      dm_test_case_failed = 1;
    }
  DM_CHECK (why[0] != '\0');
  DM_CHECK (v == 42);
}

static void
test_duration (void)
{
  check_duration ("5", 5);
  check_duration ("5s", 5);
  check_duration ("0.5", 0.5);
  check_duration ("500ms", 0.5);
  check_duration ("2m", 120);
  check_duration ("2min", 120);
  check_duration ("0", 0);
  check_duration ("86400", 86400);
  check_duration ("1440m", 86400);

  check_duration_refused ("");
  check_duration_refused ("s");
  check_duration_refused ("x");
  check_duration_refused ("-1");
  check_duration_refused ("5h");
  check_duration_refused ("5 s");
  check_duration_refused ("5sec");
  check_duration_refused ("1.5.5");
  check_duration_refused ("0,5");
  check_duration_refused ("86401");
  check_duration_refused ("1441m");
  check_duration_refused ("1e3");
  check_duration_refused (NULL);
}

static void
check_uint (const char *text, unsigned min, unsigned max, int want_err, unsigned want)
{
  unsigned v = 4242;
  char why[256] = "";
  int err = dm_uint_parse (text, min, max, &v, why, sizeof why);
  if (err != want_err || (err == 0 && v != want) || (err != 0 && v != 4242)
      || (err != 0 && why[0] == '\0'))
    {
      fprintf (stderr, "uint '%s' in [%u, %u]: err %d, %u (%s)\n", text ? text : "(null)",
               min, max, err, v, why);
      dm_test_case_failed = 1;
    }
}

static void
test_uint (void)
{
  check_uint ("1", 1, 9, 0, 1);
  check_uint ("9", 1, 9, 0, 9);
  check_uint ("5", 1, 9, 0, 5);
  check_uint ("05", 1, 9, 0, 5);
  check_uint ("0", 1, 9, -EINVAL, 0);
  check_uint ("10", 1, 9, -EINVAL, 0);
  check_uint ("abc", 1, 9, -EINVAL, 0);
  check_uint ("", 1, 9, -EINVAL, 0);
  check_uint ("+5", 1, 9, -EINVAL, 0);
  check_uint ("-1", 1, 9, -EINVAL, 0);
  check_uint (" 5", 1, 9, -EINVAL, 0);
  check_uint ("5 ", 1, 9, -EINVAL, 0);
  check_uint ("5.0", 1, 9, -EINVAL, 0);
  check_uint (NULL, 1, 9, -EINVAL, 0);
  check_uint ("70", 10, 90, 0, 70);
  check_uint ("9", 10, 90, -EINVAL, 0);
  check_uint ("91", 10, 90, -EINVAL, 0);
  /* Numbers that overflow must not wrap around into the range. */
  check_uint ("4294967295", 0, 4294967295u, 0, 4294967295u);
  check_uint ("4294967296", 0, 4294967295u, -EINVAL, 0);
  check_uint ("4294967301", 1, 9, -EINVAL, 0);
  check_uint ("18446744073709551621", 1, 9, -EINVAL, 0);
  check_uint ("99999999999999999999999999", 0, 4294967295u, -EINVAL, 0);
}

static void
test_unit (void)
{
  dm_unit u;
  for (int i = 0; i < DM_N_UNITS; i++)
    {
      DM_CHECK_INT (dm_unit_parse (dm_unit_name ((dm_unit) i), &u), ==, 0);
      DM_CHECK_INT (u, ==, i);
    }
  DM_CHECK_STR (dm_unit_name (DM_UNIT_MBPS), "MB/s");
  DM_CHECK_STR (dm_unit_name (DM_UNIT_GBPS), "GB/s");
  DM_CHECK_STR (dm_unit_name (DM_UNIT_IOPS), "IOPS");
  DM_CHECK_STR (dm_unit_name (DM_UNIT_US), "us");

  DM_CHECK_INT (dm_unit_parse ("mb/s", &u), ==, 0);
  DM_CHECK_INT (u, ==, DM_UNIT_MBPS);
  DM_CHECK_INT (dm_unit_parse ("MBps", &u), ==, 0);
  DM_CHECK_INT (u, ==, DM_UNIT_MBPS);
  DM_CHECK_INT (dm_unit_parse ("gbps", &u), ==, 0);
  DM_CHECK_INT (u, ==, DM_UNIT_GBPS);
  DM_CHECK_INT (dm_unit_parse ("iops", &u), ==, 0);
  DM_CHECK_INT (u, ==, DM_UNIT_IOPS);
  DM_CHECK_INT (dm_unit_parse ("\xce\xbcs", &u), ==, 0); /* "μs" in UTF-8 */
  DM_CHECK_INT (u, ==, DM_UNIT_US);
  DM_CHECK_INT (dm_unit_parse ("latency", &u), ==, 0);
  DM_CHECK_INT (u, ==, DM_UNIT_US);

  u = DM_UNIT_IOPS;
  DM_CHECK_INT (dm_unit_parse ("KB/s", &u), ==, -EINVAL);
  DM_CHECK_INT (dm_unit_parse ("", &u), ==, -EINVAL);
  DM_CHECK_INT (dm_unit_parse ("MB/s ", &u), ==, -EINVAL);
  DM_CHECK_INT (u, ==, DM_UNIT_IOPS);
}

int
main (void)
{
  DM_RUN ("/engine/units/size-parse", test_size_parse);
  DM_RUN ("/engine/units/size-decimal", test_size_decimal);
  DM_RUN ("/engine/units/size-format", test_size_format);
  DM_RUN ("/engine/units/duration", test_duration);
  DM_RUN ("/engine/units/uint", test_uint);
  DM_RUN ("/engine/units/unit", test_unit);
  return dm_test_done ();
}
