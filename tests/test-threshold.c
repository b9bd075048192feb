/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Green and red limits: parsing what administrators write, the colour at,
 * just above and just below each limit, the direction of latency (lower is
 * better), which rule wins, and the limits surviving a saved report and
 * colouring a comparison.
 */
#include <stdio.h>
#include <string.h>

#include "dm-compare.h"
#include "dm-test.h"
#include "dm-threshold.h"

static dm_spec rnd, seq;

static dm_colour
colour (const dm_threshold *rules, unsigned n, const dm_spec *spec, dm_mode mode, dm_unit unit,
        double v)
{
  return dm_threshold_colour (rules, n, spec, mode, unit, v);
}

static void
test_parse (void)
{
  dm_threshold t;
  char why[200], text[160];
  DM_CHECK_INT (dm_threshold_parse ("read RND4K_Q32T1 IOPS green>90000 red<50000", &t, why,
                                    sizeof why), ==, 0);
  DM_CHECK (t.has_mode && t.mode == DM_MODE_READ && t.has_spec && t.unit == DM_UNIT_IOPS);
  DM_CHECK (t.has_green && t.green_above && !t.green_inclusive && t.green == 90000);
  DM_CHECK (t.has_red && !t.red_above && t.red == 50000);
  dm_threshold_format (&t, text, sizeof text);
  DM_CHECK_STR (text, "read RND4K_Q32T1 IOPS green>90000 red<50000");
  DM_CHECK_INT (dm_threshold_parse ("us red>=10000 green<=200.5", &t, why, sizeof why), ==, 0);
  dm_threshold_format (&t, text, sizeof text);
  DM_CHECK_STR (text, "us green<=200.5 red>=10000");

  static const char *const bad[] = {
    "", "IOPS", "read green>5", "IOPS green>", "IOPS green=5", "IOPS blue>5",
    "read write IOPS green>1", "IOPS MB/s green>1", "IOPS green>1x",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      why[0] = '\0';
      DM_CHECK_INT (dm_threshold_parse (bad[i], &t, why, sizeof why), <, 0);
      DM_CHECK (why[0] != '\0' && !strchr (why, '\n'));
    }
}

static void
test_at_and_around (void)
{
  dm_threshold r[1];
  char why[200];
  dm_threshold_parse ("read IOPS green>90000 red<50000", &r[0], why, sizeof why);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 90000.001), ==, DM_COLOUR_GREEN);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 90000), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 70000), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 50000), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 49999.999), ==, DM_COLOUR_RED);
  /* Other columns and units are not touched by a read IOPS rule. */
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_WRITE, DM_UNIT_IOPS, 10), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_MBPS, 10), ==, DM_COLOUR_NONE);
  /* Nothing measured is no colour, not red. */
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 0), ==, DM_COLOUR_NONE);

  dm_threshold_parse ("read IOPS green>=90000 red<=50000", &r[0], why, sizeof why);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 90000), ==, DM_COLOUR_GREEN);
  DM_CHECK_INT (colour (r, 1, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 50000), ==, DM_COLOUR_RED);

  /* Latency: lower is better, so green is below and red above. */
  dm_threshold_parse ("us green<200 red>10000", &r[0], why, sizeof why);
  DM_CHECK_INT (colour (r, 1, &seq, DM_MODE_WRITE, DM_UNIT_US, 199.9), ==, DM_COLOUR_GREEN);
  DM_CHECK_INT (colour (r, 1, &seq, DM_MODE_WRITE, DM_UNIT_US, 200), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 1, &seq, DM_MODE_WRITE, DM_UNIT_US, 10000.5), ==, DM_COLOUR_RED);
}

static void
test_specific_rule_wins (void)
{
  dm_threshold r[3];
  char why[200];
  dm_threshold_parse ("IOPS red<100000", &r[0], why, sizeof why);
  dm_threshold_parse ("read IOPS red<60000", &r[1], why, sizeof why);
  dm_threshold_parse ("read SEQ1M_Q8T1 IOPS green>1000", &r[2], why, sizeof why);
  DM_CHECK_INT (colour (r, 3, &rnd, DM_MODE_WRITE, DM_UNIT_IOPS, 80000), ==, DM_COLOUR_RED);
  DM_CHECK_INT (colour (r, 3, &rnd, DM_MODE_READ, DM_UNIT_IOPS, 80000), ==, DM_COLOUR_NONE);
  DM_CHECK_INT (colour (r, 3, &seq, DM_MODE_READ, DM_UNIT_IOPS, 1500), ==, DM_COLOUR_GREEN);
  /* When one rule's two limits overlap, red wins. */
  dm_threshold_parse ("MB/s green>100 red<500", &r[0], why, sizeof why);
  DM_CHECK_INT (colour (r, 1, &seq, DM_MODE_READ, DM_UNIT_MBPS, 300), ==, DM_COLOUR_RED);
}

static void
test_saved_and_compared (void)
{
  dm_settings s;
  dm_report a, b, back;
  char why[200];
  dm_settings_init (&s);
  DM_CHECK_INT (dm_report_init (&a, &s, &rnd, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  DM_CHECK_INT (dm_report_init (&b, &s, &rnd, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  dm_threshold_parse ("read IOPS green>90000 red<50000", &a.thresholds[0], why, sizeof why);
  a.n_thresholds = 1;
  a.status = b.status = DM_STATUS_COMPLETE;
  a.results[0].status = b.results[0].status = DM_STATUS_COMPLETE;
  /* Two runs each, so the comparison has a spread to judge by. */
  a.results[0].n_runs = b.results[0].n_runs = 2;
  a.results[0].iops = a.results[0].runs[0].iops = a.results[0].runs[1].iops = 95000;
  b.results[0].iops = b.results[0].runs[0].iops = b.results[0].runs[1].iops = 40000;

  dm_buf json;
  dm_buf_init (&json);
  dm_report_write_json (&a, &json);
  DM_CHECK (strstr (json.data, "\"IOPS\": \"green\"") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_INT (back.n_thresholds, ==, 1);
  DM_CHECK (back.thresholds[0].green == 90000 && back.thresholds[0].red == 50000);
  dm_report_clear (&back);
  dm_buf_free (&json);

  const dm_report *pair[2] = { &a, &b };
  const char *names[2] = { "E:", "F:" };
  dm_compare c;
  DM_CHECK_INT (dm_compare_build (&c, pair, names, 2, DM_UNIT_IOPS), ==, 0);
  dm_compare_set_thresholds (&c, a.thresholds, a.n_thresholds);
  DM_CHECK_INT (c.rows[0].cells[0].colour, ==, DM_COLOUR_GREEN);
  DM_CHECK_INT (c.rows[0].cells[1].colour, ==, DM_COLOUR_RED);
  DM_CHECK_INT (c.rows[0].cells[1].verdict, ==, DM_VERDICT_WORSE);
  dm_buf csv;
  dm_buf_init (&csv);
  dm_compare_write_csv (&c, &csv);
  DM_CHECK (strstr (csv.data, ",green,") != NULL && strstr (csv.data, ",red,") != NULL);
  dm_buf_free (&csv);
  dm_compare_clear (&c);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

int
main (void)
{
  dm_spec_parse ("RND4K_Q32T1", &rnd, NULL, 0);
  dm_spec_parse ("SEQ1M_Q8T1", &seq, NULL, 0);
  DM_RUN ("/engine/threshold/parse", test_parse);
  DM_RUN ("/engine/threshold/at-and-around", test_at_and_around);
  DM_RUN ("/engine/threshold/specific-rule-wins", test_specific_rule_wins);
  DM_RUN ("/engine/threshold/saved-and-compared", test_saved_and_compared);
  return dm_test_done ();
}
