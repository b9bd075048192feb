/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the grid prints and draws, without a display: the digits in every
 * unit as CrystalDiskMark shows them, the meter on its logarithmic scale,
 * the rows and columns of each profile, and the sentence a screen reader
 * speaks for a tile, flags of the disk's counters included.
 */
#include <math.h>
#include <locale.h>
#include <string.h>

#include "dm-format.h"
#include "dm-tile.h"

static void
test_value_units (void)
{
  static const struct { double value; dm_unit unit; const char *want; } cases[] = {
    { 0, DM_UNIT_MBPS, "0.00" },
    { 1234.567, DM_UNIT_MBPS, "1234.57" },
    { 7012.3, DM_UNIT_MBPS, "7012.30" },
    { 0.004, DM_UNIT_MBPS, "0.00" },
    { 1.234567, DM_UNIT_GBPS, "1.235" },
    { 0, DM_UNIT_GBPS, "0.000" },
    { 12.5, DM_UNIT_GBPS, "12.500" },
    /* Whole IOPS: "72890.00" had hundredths of an I/O per second. */
    { 72890.004, DM_UNIT_IOPS, "72890" },
    { 3224.4, DM_UNIT_IOPS, "3224" },
    { 301234.567, DM_UNIT_IOPS, "301235" },
    { 1500000.4, DM_UNIT_IOPS, "1500000" },
    /* Only a disk slower than 10 IOPS keeps its hundredths. */
    { 3.456, DM_UNIT_IOPS, "3.46" },
    { 0, DM_UNIT_IOPS, "0.00" },
    { 88.123, DM_UNIT_US, "88.12" },
    { 12345.678, DM_UNIT_US, "12345.68" },
    /* CrystalDiskMark's: hundredths up to a million, then whole. */
    { 999999.99, DM_UNIT_US, "999999.99" },
    { 1234567.8, DM_UNIT_US, "1234568" },
    { 999999.99, DM_UNIT_MBPS, "999999.99" },
    { 1234567.8, DM_UNIT_MBPS, "1234568" },
    { -3, DM_UNIT_MBPS, "0.00" },
    { NAN, DM_UNIT_IOPS, "0.00" },
    { INFINITY, DM_UNIT_MBPS, "0.00" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = dm_format_value (cases[i].value, cases[i].unit);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

static void
test_value_locale (void)
{
  g_autofree char *got = NULL;

  if (!setlocale (LC_NUMERIC, "de_DE.UTF-8"))
    {
      /* The build generates de_DE.UTF-8 (LOCPATH) and names it, so this
       * check fails rather than drops out where the locale is missing. */
      if (g_getenv ("DM_DECIMAL_COMMA_LOCALE"))
        {
          g_test_message ("%s (LOCPATH=%s) cannot be loaded; build-aux/dev installs the "
                          "locales package that generates it",
                          g_getenv ("DM_DECIMAL_COMMA_LOCALE"), g_getenv ("LOCPATH"));
          g_test_fail ();
          return;
        }
      g_test_skip ("de_DE.UTF-8 is not installed");
      return;
    }
  {
    /* A German desktop shows 1.234,57, as its other programs would:
     * written out here, not built from the locale the code reads too. */
    g_autofree char *iops = dm_format_value (1234567, DM_UNIT_IOPS);
    g_autofree char *small = dm_format_value (123.456, DM_UNIT_MBPS);
    g_autofree char *gbps = dm_format_value (1.234567, DM_UNIT_GBPS);
    got = dm_format_value (1234.567, DM_UNIT_MBPS);
    g_assert_cmpstr (got, ==, "1.234,57");
    g_assert_cmpstr (iops, ==, "1.234.567");
    g_assert_cmpstr (small, ==, "123,46");
    g_assert_cmpstr (gbps, ==, "1,235");
  }
  setlocale (LC_NUMERIC, "C");
  {
    g_autofree char *iops = dm_format_value (1234567, DM_UNIT_IOPS);
    g_autofree char *gbps = dm_format_value (1.234567, DM_UNIT_GBPS);

    g_clear_pointer (&got, g_free);
    got = dm_format_value (1234.567, DM_UNIT_MBPS);
    g_assert_cmpstr (got, ==, "1234.57");
    g_assert_cmpstr (iops, ==, "1234567");
    g_assert_cmpstr (gbps, ==, "1.235");
  }
}

static void
test_meter_fraction (void)
{
  /* CrystalDiskMark's scale: log10(MB/s * 10) / 6, so 0.1 MB/s is empty,
   * 100,000 MB/s (100 GB/s) is full and each decade is a sixth. */
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (0.1), 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (1), 1.0 / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (100), 3.0 / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (1000), 4.0 / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (7000), log10 (70000) / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction (100000), 1.0, 1e-9);
  /* Clamped at both ends, and nothing for nonsense. */
  g_assert_cmpfloat (dm_meter_fraction (1e9), ==, 1.0);
  g_assert_cmpfloat (dm_meter_fraction (0.01), ==, 0.0);
  g_assert_cmpfloat (dm_meter_fraction (0), ==, 0.0);
  g_assert_cmpfloat (dm_meter_fraction (-5), ==, 0.0);
  g_assert_cmpfloat (dm_meter_fraction (NAN), ==, 0.0);
  /* More is always fuller. */
  for (double v = 0.2; v < 1e5; v *= 1.7)
    g_assert_cmpfloat (dm_meter_fraction (v), <, dm_meter_fraction (v * 1.7));
}

/* The meter follows the figure beside it in every unit: more MB/s, GB/s
 * or IOPS is fuller, and less latency is fuller (CrystalDiskMark's µs
 * meter: 1 s empty, 1 µs full). */
static void
test_meter_units (void)
{
  /* The two figures: 72,890 IOPS (RND4K) drew a shorter bar than
   * 3,224 IOPS (SEQ1M) because the bar followed their MB/s. */
  g_assert_cmpfloat (dm_meter_fraction_in (72890, DM_UNIT_IOPS), >,
                     dm_meter_fraction_in (3224, DM_UNIT_IOPS));
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (10, DM_UNIT_IOPS), 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (1e4, DM_UNIT_IOPS), 3.0 / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (1e7, DM_UNIT_IOPS), 1.0, 1e-9);
  /* GB/s draws what the same MB/s draws. */
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (3.51972, DM_UNIT_GBPS),
                                  dm_meter_fraction_in (3519.72, DM_UNIT_MBPS), 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (3519.72, DM_UNIT_MBPS),
                                  dm_meter_fraction (3519.72), 1e-12);
  /* Latency: 1 µs full, 1 s empty, a decade a sixth. */
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (1, DM_UNIT_US), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (1000, DM_UNIT_US), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (dm_meter_fraction_in (1e6, DM_UNIT_US), 0.0, 1e-9);
  g_assert_cmpfloat (dm_meter_fraction_in (0.2, DM_UNIT_US), ==, 1.0);
  g_assert_cmpfloat (dm_meter_fraction_in (5e6, DM_UNIT_US), ==, 0.0);
  for (dm_unit u = 0; u < DM_N_UNITS; u++)
    {
      g_assert_cmpfloat (dm_meter_fraction_in (0, u), ==, 0.0);
      g_assert_cmpfloat (dm_meter_fraction_in (NAN, u), ==, 0.0);
      g_assert_cmpfloat (dm_meter_fraction_in (-1, u), ==, 0.0);
    }
  for (double v = 11; v < 1e5; v *= 1.7)
    {
      g_assert_cmpfloat (dm_meter_fraction_in (v, DM_UNIT_IOPS), <,
                         dm_meter_fraction_in (v * 1.7, DM_UNIT_IOPS));
      g_assert_cmpfloat (dm_meter_fraction_in (v, DM_UNIT_US), >,
                         dm_meter_fraction_in (v * 1.7, DM_UNIT_US));
    }
}

typedef struct
{
  const char *profile;
  gboolean    nvme;
  const char *rows[4];
} LayoutCase;

static void
check_rows (const DmGridLayout *layout,
            const char *const  *want)
{
  guint n = 0;

  while (n < 4 && want[n])
    n++;
  g_assert_cmpuint (layout->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      char label[64];
      dm_spec_label (&layout->rows[i], label, sizeof label);
      g_assert_cmpstr (label, ==, want[i]);
    }
}

static void
test_layout_profiles (void)
{
  /* The row buttons as CrystalDiskMark 8 labels them, top to bottom. */
  static const LayoutCase cases[] = {
    { "default", FALSE, { "SEQ1M / Q8T1", "SEQ1M / Q1T1", "RND4K / Q32T1", "RND4K / Q1T1" } },
    { "default", TRUE, { "SEQ1M / Q8T1", "SEQ128K / Q32T1", "RND4K / Q32T16", "RND4K / Q1T1" } },
    { "peak", FALSE, { "SEQ1M / Q8T1", "RND4K / Q32T1" } },
    { "peak", TRUE, { "SEQ1M / Q8T1", "RND4K / Q32T16" } },
    { "realworld", FALSE, { "SEQ1M / Q1T1", "RND4K / Q1T1" } },
    { "realworld", TRUE, { "SEQ1M / Q1T1", "RND4K / Q1T1" } },
    { "demo", FALSE, { "SEQ1M / Q8T1" } },
    { "demo", TRUE, { "SEQ1M / Q8T1" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const dm_profile *profile = dm_profile_find (cases[i].profile);
      DmGridLayout layout;

      g_assert_nonnull (profile);
      for (int mix = 0; mix <= 1; mix++)
        {
          dm_grid_layout_init (&layout, profile, cases[i].nvme, mix);
          check_rows (&layout, cases[i].rows);
          g_assert_cmpuint (layout.n_columns, ==, mix ? 3 : 2);
          g_assert_cmpint (layout.columns[0], ==, DM_MODE_READ);
          g_assert_cmpint (layout.columns[1], ==, DM_MODE_WRITE);
          if (mix)
            g_assert_cmpint (layout.columns[2], ==, DM_MODE_MIX);
          g_assert_cmpuint (dm_grid_layout_modes (&layout), ==,
                            DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE)
                            | (mix ? DM_MODE_BIT (DM_MODE_MIX) : 0));
        }
    }
}

static void
test_layout_custom (void)
{
  dm_spec specs[2];
  DmGridLayout layout;
  const char *const want[] = { "SEQ128K / Q32T1", "RND4K / Q64T4", NULL };

  g_assert_cmpint (dm_spec_parse ("SEQ128K_Q32T1", &specs[0], NULL, 0), ==, 0);
  g_assert_cmpint (dm_spec_parse ("RND4K_Q64T4", &specs[1], NULL, 0), ==, 0);
  dm_grid_layout_custom (&layout, specs, 2, TRUE);
  check_rows (&layout, want);
  g_assert_cmpuint (layout.n_columns, ==, 3);
}

static void
test_describe (void)
{
  dm_spec spec;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &spec, NULL, 0), ==, 0);
  a = dm_tile_describe (&spec, DM_MODE_READ, 1234.56, DM_UNIT_MBPS, TRUE);
  g_assert_cmpstr (a, ==, "SEQ1M Q8T1 Read: 1234.56 MB/s");
  b = dm_tile_describe (&spec, DM_MODE_WRITE, 0.5, DM_UNIT_GBPS, TRUE);
  g_assert_cmpstr (b, ==, "SEQ1M Q8T1 Write: 0.500 GB/s");
  c = dm_tile_describe (&spec, DM_MODE_MIX, 42.1, DM_UNIT_US, TRUE);
  g_assert_cmpstr (c, ==, "SEQ1M Q8T1 Mix: 42.10 us");
  d = dm_tile_describe (&spec, DM_MODE_READ, 0, DM_UNIT_IOPS, FALSE);
  g_assert_cmpstr (d, ==, "SEQ1M Q8T1 Read: not measured");
}

/* SEQ1M_Q8T1 Read as a run on vda leaves it: counted, and flagged as the
 * caller asks. */
static void
fill_flagged (dm_result *res,
              unsigned   flags)
{
  memset (res, 0, sizeof *res);
  g_assert_cmpint (dm_spec_parse ("SEQ1M_Q8T1", &res->spec, NULL, 0), ==, 0);
  res->mode = DM_MODE_READ;
  res->read_percent = 100;
  res->status = DM_STATUS_COMPLETE;
  res->device.counted = true;
  g_strlcpy (res->device.name, "vda", sizeof res->device.name);
  res->device.reads = 800;
  res->device.read_bytes = 800ull << 19;
  res->device.seconds = 1;
  res->device.counted_bytes = 400ull << 20;
  res->device.avg_queue = 1.1;
  res->device.busy_percent = 55;
  res->device.flags = flags;
}

static void
test_describe_flags (void)
{
  dm_result res;
  dm_device_ask ask;
  char host[240], cache[240];
  g_autofree char *one = NULL;
  g_autofree char *both = NULL;
  g_autofree char *want = NULL;

  /* No flag, or no counters at all: nothing to say. */
  g_assert_null (dm_tile_describe_flags (NULL, " "));
  fill_flagged (&res, 0);
  g_assert_null (dm_tile_describe_flags (&res, " "));
  fill_flagged (&res, DM_FLAG_HOST_BOUND);
  res.device.counted = false;
  g_assert_null (dm_tile_describe_flags (&res, " "));

  /* A flag is the report's line as a sentence: capital, full stop. */
  fill_flagged (&res, DM_FLAG_HOST_BOUND);
  ask = dm_result_device_ask (&res);
  dm_device_flag_explain (DM_FLAG_HOST_BOUND, &res.device, &ask, host, sizeof host);
  dm_device_flag_explain (DM_FLAG_CACHE_SUSPECTED, &res.device, &ask, cache, sizeof cache);
  one = dm_tile_describe_flags (&res, " ");
  g_assert_nonnull (one);
  g_assert_true (g_str_has_prefix (one, "Host bound: vda held "));
  g_assert_nonnull (strstr (one, "of the 8 I/Os asked"));
  want = g_strdup_printf ("%s.", host + 1);
  g_assert_cmpstr (one + 1, ==, want);

  /* Both flags, in the report's order, apart by the separator. */
  fill_flagged (&res, DM_FLAG_HOST_BOUND | DM_FLAG_CACHE_SUSPECTED);
  both = dm_tile_describe_flags (&res, "\n");
  g_assert_true (g_str_has_prefix (both, "Cache suspected: vda moved "));
  g_assert_nonnull (strstr (both, cache + 1));
  g_assert_nonnull (strstr (both, ".\nHost bound: vda held "));
  g_assert_true (g_str_has_suffix (both, "."));

  /* The advice follows the flags, and alone it is worth a word too. */
  {
    g_autofree char *advised = NULL;
    g_autofree char *alone = NULL;

    fill_flagged (&res, DM_FLAG_HOST_BOUND);
    snprintf (res.advice.sentence, sizeof res.advice.sentence, "Q8T1 asks for 8 I/Os; loop "
              "admits 4 per hardware queue here (queue/nr_requests)");
    snprintf (res.advice.setting, sizeof res.advice.setting, "echo 8 > nr_requests");
    snprintf (res.advice.source, sizeof res.advice.source, "sysfs-block");
    advised = dm_tile_describe_flags (&res, "\n");
    g_assert_true (g_str_has_prefix (advised, "Host bound: vda held "));
    g_assert_nonnull (strstr (advised, ".\nAdvice: Q8T1 asks for 8 I/Os; loop admits 4 per "
                                       "hardware queue here (queue/nr_requests).\nChange: echo 8 "
                                       "> nr_requests.\nSource: sysfs-block."));
    res.device.flags = 0;
    alone = dm_tile_describe_flags (&res, " ");
    g_assert_true (g_str_has_prefix (alone, "Advice: Q8T1 asks"));
  }
  /* Where the flagged figure's time went, after the flags, where counted. */
  g_clear_pointer (&one, g_free);
  fill_flagged (&res, DM_FLAG_HOST_BOUND);
  res.device.split[DM_DEVICE_READ] = (dm_device_split) { true, 5000, true, 40 };
  one = dm_tile_describe_flags (&res, "\n");
  g_assert_nonnull (strstr (one, ".\nReads 5000 µs at the device (r_await), 40 µs above it in this machine."));
}

static void
test_seconds_left (void)
{
  g_autofree char *a = dm_format_seconds_left (0.2);
  g_autofree char *b = dm_format_seconds_left (75);
  g_autofree char *c = dm_format_seconds_left (3725);
  g_autofree char *d = dm_format_seconds_left (-1);

  g_assert_cmpstr (a, ==, "0:01 left");
  g_assert_cmpstr (b, ==, "1:15 left");
  g_assert_cmpstr (c, ==, "1:02:05 left");
  g_assert_cmpstr (d, ==, "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/format/value-units", test_value_units);
  g_test_add_func ("/ui/format/value-locale", test_value_locale);
  g_test_add_func ("/ui/format/meter-fraction", test_meter_fraction);
  g_test_add_func ("/ui/format/meter-units", test_meter_units);
  g_test_add_func ("/ui/format/layout-profiles", test_layout_profiles);
  g_test_add_func ("/ui/format/layout-custom", test_layout_custom);
  g_test_add_func ("/ui/format/describe", test_describe);
  g_test_add_func ("/ui/format/seconds-left", test_seconds_left);
  g_test_add_func ("/ui/format/describe-flags", test_describe_flags);
  return g_test_run ();
}
