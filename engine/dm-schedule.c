/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schedule of a fleet run: the wall clock, RFC 3339 times, --start-at's
 * TIME or +SEC, and the slot of each test, so that every host of a fleet
 * measures its tests over the same windows from one start time.
 */
#include "dm-schedule.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dm-units.h"

/* clock_gettime, not C11's timespec_get: MinGW has the latter only with
 * the UCRT, and the former everywhere (winpthreads). */
int64_t
dm_wall_ms (void)
{
  struct timespec ts;
  if (clock_gettime (CLOCK_REALTIME, &ts) != 0)
    return (int64_t) time (NULL) * 1000;
  return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
dm_time_format_ms (int64_t ms, char *buf, size_t size)
{
  time_t tt = (time_t) (ms / 1000);
  /* gmtime_r is not in MinGW's C runtime; reports are written from one
   * thread. */
  struct tm *p = gmtime (&tt);
  char date[32];
  if (!p || ms < 0)
    {
      snprintf (buf, size, "1970-01-01T00:00:00.000Z");
      return;
    }
  strftime (date, sizeof date, "%Y-%m-%dT%H:%M:%S", p);
  snprintf (buf, size, "%s.%03dZ", date, (int) (ms % 1000));
}

int64_t
dm_time_parse_ms (const char *text)
{
  int y, mo, d, h, mi, s, n = 0;
  char base[32];
  int64_t ms = 0;

  if (!text || sscanf (text, "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &n) != 6
      || n != 19)
    return 0;
  const char *p = text + n;
  if (*p == '.')
    {
      int digits = 0;
      int64_t scale = 100;
      for (p++; *p >= '0' && *p <= '9'; p++, digits++)
        {
          ms += (*p - '0') * scale;
          scale /= 10;
        }
      if (!digits)
        return 0;
    }
  int64_t offset_s = 0;
  if (*p == 'Z' || *p == 'z')
    p++;
  else if (*p == '+' || *p == '-')
    {
      int oh, om, on = 0;
      if (sscanf (p + 1, "%2d:%2d%n", &oh, &om, &on) != 2 || on != 5 || oh > 23 || om > 59)
        return 0;
      offset_s = (oh * 3600 + om * 60) * (*p == '+' ? 1 : -1);
      p += 6;
    }
  else
    return 0;
  if (*p)
    return 0;
  snprintf (base, sizeof base, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, s);
  int64_t t = dm_parse_iso_time (base);
  if (t <= 0)
    return 0;
  return (t - offset_s) * 1000 + ms;
}

/* The furthest ahead a start may be, absolute or +SEC (86400 in the +SEC
 * message too): a fleet's TIME is computed just before its hosts are
 * started, so a later one is a typo (a wrong year or day) that would hold
 * the test file for nothing. */
#define START_AT_MAX_S 86400

/* The fields a time's text names but dm_time_parse_ms normalises away:
 * the day of the month and a leap second. */
static int
start_at_calendar (const char *text, char *why, size_t why_size)
{
  static const char *const months[] = { "January", "February", "March", "April",
                                        "May", "June", "July", "August", "September",
                                        "October", "November", "December" };
  static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  int y, mo, d, h, mi, s;

  if (sscanf (text, "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s) != 6
      || mo < 1 || mo > 12)
    return 0; /* dm_time_parse_ms refuses it */
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  int n = days[mo - 1] + (mo == 2 && leap);
  if (d > n)
    return dm_why (why, why_size, "'%.40s' is not a date: %s %d has %d days", text,
                   months[mo - 1], y, n);
  /* A host's clock steps over a leap second (or smears it), so nothing
   * would begin at :60; taken as the next minute it would be one second
   * off every other host's reading of the same text. */
  if (s == 60)
    return dm_why (why, why_size,
                   "'%.40s' is a leap second, which host clocks do not show; give :59 or the "
                   "next minute", text);
  return 0;
}

int
dm_start_at_parse (const char *text, int64_t now_ms, int64_t *out_ms, char *why, size_t why_size)
{
  if (text && text[0] == '+')
    {
      char *end;
      double sec = strtod (text + 1, &end);
      if (end == text + 1 || *end || !isfinite (sec) || sec < 0 || sec > START_AT_MAX_S)
        return dm_why (why, why_size, "'%.40s' is not +SEC with 0 to 86400 seconds", text);
      *out_ms = now_ms + (int64_t) llround (sec * 1000);
      return 0;
    }
  int64_t t = dm_time_parse_ms (text);
  if (t <= 0)
    return dm_why (why, why_size,
                   "'%.40s' is not a time as 2026-11-30T21:00:00Z (RFC 3339) or +SEC",
                   text ? text : "");
  int err = start_at_calendar (text, why, why_size);
  if (err < 0)
    return err;
  char now[40];
  dm_time_format_ms (now_ms, now, sizeof now);
  if (t <= now_ms)
    return dm_why (why, why_size, "'%.40s' is in the past (it is %s now)", text, now);
  if (t - now_ms > (int64_t) START_AT_MAX_S * 1000)
    return dm_why (why, why_size,
                   "'%.40s' is more than a day ahead (it is %s now); TIME may be at most "
                   "%d seconds away, as +SEC may", text, now, START_AT_MAX_S);
  *out_ms = t;
  return 0;
}

int64_t
dm_schedule_measure_ms (int64_t start_ms, const dm_settings *s, unsigned k)
{
  double slot = s->warmup_s + s->count * s->measure_s + s->interval_s;
  return start_ms + (int64_t) llround (k * slot * 1000);
}
