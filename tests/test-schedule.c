/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schedule of a fleet run: RFC 3339 times and back, --start-at's TIME
 * or +SEC and what it refuses, each test's slot, and the option on the
 * command line.
 */
#include "dm-cli-options.h"
#include "dm-schedule.h"
#include "dm-test.h"

static void
test_time (void)
{
  char buf[40];
  int64_t t;
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T21:00:00Z"), ==, 1796072400000LL);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T21:00:00.25Z"), ==, 1796072400250LL);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T22:00:00.250+01:00"), ==, 1796072400250LL);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T20:30:00-00:30"), ==, 1796072400000LL);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30t21:00:00z"), ==, 1796072400000LL);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T21:00:00"), ==, 0);  /* no zone */
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T21:00:00.Z"), ==, 0);
  DM_CHECK_INT (dm_time_parse_ms ("2026-11-30T21:00:00Zjunk"), ==, 0);
  DM_CHECK_INT (dm_time_parse_ms ("tomorrow"), ==, 0);
  DM_CHECK_INT (dm_time_parse_ms (NULL), ==, 0);
  dm_time_format_ms (1796072400250LL, buf, sizeof buf);
  DM_CHECK_STR (buf, "2026-11-30T21:00:00.250Z");
  DM_CHECK_INT (dm_time_parse_ms (buf), ==, 1796072400250LL);

  DM_CHECK_INT (dm_start_at_parse ("+30", 1000, &t, NULL, 0), ==, 0);
  DM_CHECK_INT (t, ==, 31000);
  DM_CHECK_INT (dm_start_at_parse ("+2.5", 1000, &t, NULL, 0), ==, 0);
  DM_CHECK_INT (t, ==, 3500);
  /* An absolute TIME is taken from now until a day ahead, as +SEC is. */
  const int64_t now = 1796072400000LL - 3600000;
  DM_CHECK_INT (dm_start_at_parse ("2026-11-30T21:00:00Z", now, &t, NULL, 0), ==, 0);
  DM_CHECK_INT (t, ==, 1796072400000LL);
  DM_CHECK_INT (dm_start_at_parse ("2026-12-01T20:00:00Z", now, &t, NULL, 0), ==, 0);
  char why[200] = "";
  DM_CHECK (dm_start_at_parse ("+", 0, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "+SEC") != NULL);
  DM_CHECK (dm_start_at_parse ("+-5", 0, &t, NULL, 0) < 0);
  DM_CHECK (dm_start_at_parse ("+1e9", 0, &t, NULL, 0) < 0);
  DM_CHECK (dm_start_at_parse ("21:00", 0, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "RFC 3339") != NULL);
}

/* Times that are not times are refused, each with its reason, rather
 * than normalised into another moment or waited for. */
static void
test_start_at_refused (void)
{
  const int64_t now = 1796072400000LL; /* 2026-11-30T21:00:00Z */
  char why[200] = "";
  int64_t t = 0;

  /* 30 February is not 2 March. */
  DM_CHECK (dm_start_at_parse ("2026-11-31T21:30:00Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "November 2026 has 30 days") != NULL);
  DM_CHECK (dm_start_at_parse ("2027-02-29T00:00:00Z", now - 86400000LL * 89, &t, why,
                               sizeof why) < 0);
  DM_CHECK (strstr (why, "February 2027 has 28 days") != NULL);
  DM_CHECK (dm_start_at_parse ("2026-02-30T12:00:00Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "February 2026 has 28 days") != NULL);
  DM_CHECK (dm_start_at_parse ("2026-11-30T21:00:00-00:60", now, &t, why, sizeof why) < 0);
  /* A leap second is not the next minute's first. */
  DM_CHECK (dm_start_at_parse ("2026-11-30T23:59:60Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "leap second") != NULL);
  /* No further than +SEC may go. */
  DM_CHECK (dm_start_at_parse ("9999-12-31T23:59:59Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "more than a day ahead") != NULL);
  DM_CHECK (dm_start_at_parse ("2026-12-01T21:00:01Z", now, &t, why, sizeof why) < 0);
  DM_CHECK_INT (dm_start_at_parse ("2026-12-01T21:00:00Z", now, &t, why, sizeof why), ==, 0);
  /* Nor into the past, which would be missed after the test file was
   * filled. */
  DM_CHECK (dm_start_at_parse ("2026-11-30T20:59:59.999Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "in the past") != NULL);
  DM_CHECK (dm_start_at_parse ("2020-01-01T00:00:00Z", now, &t, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "in the past") != NULL);
  DM_CHECK_INT (dm_start_at_parse ("2026-11-30T21:00:00.001Z", now, &t, why, sizeof why), ==, 0);
  /* An offset moves the moment, not the rules: 22:30+01:00 is 21:30Z. */
  DM_CHECK_INT (dm_start_at_parse ("2026-11-30T22:30:00+01:00", now, &t, why, sizeof why), ==, 0);
  DM_CHECK_INT (t, ==, now + 1800000);
}

static void
test_schedule (void)
{
  dm_settings s;
  dm_settings_init (&s);
  s.count = 3;
  s.measure_s = 2;
  s.warmup_s = 1;
  s.interval_s = 0.5;
  /* 1 + 3 x 2 + 0.5 = 7.5 s per test, whatever the tests took. */
  DM_CHECK_INT (dm_schedule_measure_ms (100000, &s, 0), ==, 100000);
  DM_CHECK_INT (dm_schedule_measure_ms (100000, &s, 1), ==, 107500);
  DM_CHECK_INT (dm_schedule_measure_ms (100000, &s, 4), ==, 130000);
}

static int
parse_start_at (const char *value, dm_cli_options *o, char *why, size_t size)
{
  char *argv[] = { (char *) "diskmeter-cli", (char *) "--start-at", (char *) value,
                   (char *) "/mnt/data", NULL };
  memset (o, 0, sizeof *o);
  return dm_cli_parse (4, argv, o, why, size);
}

/* --start-at on the command line: checked when parsed, kept as given. */
static void
test_cli_option (void)
{
  static dm_cli_options o;
  char why[512] = "";
  char soon[40];
  dm_time_format_ms (dm_wall_ms () + 600000, soon, sizeof soon);
  DM_CHECK_INT (parse_start_at (soon, &o, why, sizeof why), ==, 0);
  DM_CHECK_STR (o.start_at, soon);
  /* Checked against the clock when parsed: an hour ago is refused before
   * anything is prepared. */
  char ago[40];
  dm_time_format_ms (dm_wall_ms () - 3600000, ago, sizeof ago);
  DM_CHECK (parse_start_at (ago, &o, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "--start-at") && strstr (why, "in the past"));
  DM_CHECK_INT (parse_start_at ("+90", &o, why, sizeof why), ==, 0);
  DM_CHECK_STR (o.start_at, "+90");
  DM_CHECK (parse_start_at ("9pm", &o, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "--start-at") && strstr (why, "RFC 3339"));
  char *argv[] = { (char *) "diskmeter-cli", (char *) "--start-at", (char *) "+5",
                   (char *) "--compare-with", (char *) "/mnt/b", (char *) "/mnt/a", NULL };
  memset (&o, 0, sizeof o);
  DM_CHECK (dm_cli_parse (6, argv, &o, why, sizeof why) < 0);
  DM_CHECK (strstr (why, "--compare-with") != NULL);
}

int
main (void)
{
  DM_RUN ("/schedule/time", test_time);
  DM_RUN ("/schedule/start-at-refused", test_start_at_refused);
  DM_RUN ("/schedule/schedule", test_schedule);
  DM_RUN ("/schedule/cli-option", test_cli_option);
  return dm_test_done ();
}
