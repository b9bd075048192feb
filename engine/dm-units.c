/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parsing what users type for sizes, durations and counts, strictly: a
 * value is accepted whole or refused with a reason, never half-read.
 */
#include "dm-units.h"

#include "dm-gettext.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
lower (int c)
{
  return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int
dm_ascii_ncasecmp (const char *a, const char *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      int d = lower ((unsigned char) a[i]) - lower ((unsigned char) b[i]);
      if (d || !a[i])
        return d;
    }
  return 0;
}

int
dm_ascii_casecmp (const char *a, const char *b)
{
  return dm_ascii_ncasecmp (a, b, (size_t) -1);
}

int
dm_why (char *why, size_t why_size, const char *fmt, ...)
{
  if (why && why_size)
    {
      va_list ap;
      va_start (ap, fmt);
      /* The reason in the user's language, where the program set one. */
      vsnprintf (why, why_size, dm_gettext (fmt), ap);
      va_end (ap);
    }
  return -EINVAL;
}

/* Reads a non-negative decimal number with an optional fraction, without
 * strtod, so the C locale's decimal comma in a GUI process cannot matter. */
static const char *
read_decimal (const char *p, double *out)
{
  double v = 0;
  int digits = 0;
  while (*p >= '0' && *p <= '9')
    {
      v = v * 10 + (*p++ - '0');
      digits++;
      if (digits > 15)
        return NULL;
    }
  if (*p == '.')
    {
      p++;
      double scale = 0.1;
      int frac = 0;
      while (*p >= '0' && *p <= '9')
        {
          v += (*p++ - '0') * scale;
          scale /= 10;
          if (++frac > 9)
            return NULL;
        }
      digits += frac;
    }
  if (!digits)
    return NULL;
  *out = v;
  return p;
}

int
dm_size_parse (const char *text, uint64_t *out, char *why, size_t why_size)
{
  static const char form[] = "try 1GiB, 512MiB, 64KiB";
  /* Integer arithmetic throughout: a size is exact or refused, never
   * rounded through a double. */
  unsigned __int128 whole = 0, frac = 0, scale = 1;
  const char *p = text;
  int digits = 0;
  if (!p)
    return dm_why (why, why_size, "no size given (%s)", form);
  for (; *p >= '0' && *p <= '9'; p++, digits++)
    {
      whole = whole * 10 + (unsigned) (*p - '0');
      if (whole > ((unsigned __int128) 1 << 64))
        return dm_why (why, why_size, "'%s' is too large", text);
    }
  if (*p == '.')
    {
      p++;
      for (int k = 0; *p >= '0' && *p <= '9'; p++, k++, digits++)
        {
          if (k >= 12)
            return dm_why (why, why_size, "'%s' has too many decimals", text);
          frac = frac * 10 + (unsigned) (*p - '0');
          scale *= 10;
        }
    }
  if (!digits)
    return dm_why (why, why_size, "'%s' is not a size (%s)", text, form);
  unsigned shift = 0;
  switch (lower ((unsigned char) *p))
    {
    case 'k': shift = 10; p++; break;
    case 'm': shift = 20; p++; break;
    case 'g': shift = 30; p++; break;
    case 't': shift = 40; p++; break;
    default: break;
    }
  if (shift && lower ((unsigned char) *p) == 'i')
    p++;
  else if (shift && lower ((unsigned char) *p) == 'b' && !p[1])
    /* "32MB": the report says an MB is 1,000,000 bytes, fio reads 32MiB,
     * and a test file is whole MiB anyway. Rather than guess, name the
     * binary spelling meant. */
    {
      static const char *const decimal[] = { "1,000", "1,000,000", "1,000,000,000",
                                              "1,000,000,000,000" };
      char unit = "KMGT"[shift / 10 - 1];
      return dm_why (why, why_size, "'%s' is not a binary size: write %.*s%ciB (1 %cB = %s bytes)",
                     text, (int) (p - 1 - text), text, unit, unit, decimal[shift / 10 - 1]);
    }
  if (lower ((unsigned char) *p) == 'b')
    p++;
  if (*p)
    return dm_why (why, why_size, "'%s' is not a size (%s)", text, form);
  unsigned __int128 bytes = whole << shift;
  unsigned __int128 part = frac << shift;
  if (part % scale)
    return dm_why (why, why_size, "'%s' is not a whole number of bytes", text);
  bytes += part / scale;
  if (bytes > UINT64_MAX)
    return dm_why (why, why_size, "'%s' is too large", text);
  *out = (uint64_t) bytes;
  return 0;
}

void
dm_size_format (uint64_t bytes, char *buf, size_t size)
{
  static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  unsigned u = 0;
  /* Largest unit in which the size is whole: 1536MiB rather than 1.5GiB,
   * which is how CrystalDiskMark users write sizes. */
  while (u < 4 && bytes && bytes % 1024 == 0)
    {
      bytes /= 1024;
      u++;
    }
  snprintf (buf, size, "%llu%s", (unsigned long long) bytes, units[u]);
}

void
dm_size_human (uint64_t bytes, char *buf, size_t size)
{
  static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  double v = (double) bytes;
  unsigned u = 0;
  while (v >= 1024 && u < 5)
    {
      v /= 1024;
      u++;
    }
  if (u == 0)
    snprintf (buf, size, "%lluB", (unsigned long long) bytes);
  else
    snprintf (buf, size, "%.1f%s", v, units[u]);
  for (char *p = buf; *p; p++)
    if (*p == ',')
      *p = '.';
}

int
dm_duration_parse (const char *text, double *seconds, char *why, size_t why_size)
{
  double v;
  const char *p = text ? read_decimal (text, &v) : NULL;
  if (!p)
    return dm_why (why, why_size, "'%s' is not a duration (try 5, 5s, 500ms)", text ? text : "");
  if (!*p || !strcmp (p, "s"))
    ;
  else if (!strcmp (p, "ms"))
    v /= 1000;
  else if (!strcmp (p, "m") || !strcmp (p, "min"))
    v *= 60;
  else
    return dm_why (why, why_size, "'%s' is not a duration (try 5, 5s, 500ms)", text);
  if (v > 86400)
    return dm_why (why, why_size, "'%s' is longer than a day", text);
  *seconds = v;
  return 0;
}

int
dm_uint_parse (const char *text, unsigned min, unsigned max, unsigned *out,
               char *why, size_t why_size)
{
  unsigned long long v = 0;
  const char *p = text;
  if (!p || !*p)
    return dm_why (why, why_size, "a number from %u to %u is needed", min, max);
  for (; *p; p++)
    {
      if (*p < '0' || *p > '9' || v > 1000000000ull)
        return dm_why (why, why_size, "'%s' is not a number from %u to %u", text, min, max);
      v = v * 10 + (unsigned) (*p - '0');
    }
  if (v < min || v > max)
    return dm_why (why, why_size, "'%s' is out of range (%u to %u)", text, min, max);
  *out = (unsigned) v;
  return 0;
}

static const char *const unit_names[DM_N_UNITS] = { "MB/s", "GB/s", "IOPS", "us" };

const char *
dm_unit_name (dm_unit unit)
{
  return unit < DM_N_UNITS ? unit_names[unit] : "?";
}

int
dm_unit_parse (const char *text, dm_unit *out)
{
  for (int u = 0; u < DM_N_UNITS; u++)
    if (!dm_ascii_casecmp (text, unit_names[u]))
      {
        *out = (dm_unit) u;
        return 0;
      }
  if (!dm_ascii_casecmp (text, "mbps"))
    *out = DM_UNIT_MBPS;
  else if (!dm_ascii_casecmp (text, "gbps"))
    *out = DM_UNIT_GBPS;
  else if (!dm_ascii_casecmp (text, "μs") || !dm_ascii_casecmp (text, "latency"))
    *out = DM_UNIT_US;
  else
    return -EINVAL;
  return 0;
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm);
 * timegm is not in every C library this builds with. */
static int64_t
days_from_civil (int64_t y, unsigned m, unsigned d)
{
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned) (y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t) doe - 719468;
}

int64_t
dm_parse_iso_time (const char *text)
{
  int y, mo, d, h, mi, s;
  char z;
  if (!text || sscanf (text, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &z) != 7
      || z != 'Z' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60
      || y < 1970 || h < 0 || mi < 0 || s < 0)
    return 0;
  return days_from_civil (y, (unsigned) mo, (unsigned) d) * 86400 + h * 3600 + mi * 60 + s;
}
