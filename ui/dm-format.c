/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Formatting and layout rules of the grid. The digits follow CrystalDiskMark
 * (two decimals for MB/s and latency, none from a million on, three for
 * GB/s), IOPS are whole I/Os, and the meter uses its logarithmic scale in
 * the unit the figure is shown in, so that a fuller bar is always the
 * better figure beside it.
 */
#include "dm-format.h"

#include "dm-report.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <string.h>

/* Puts the locale's thousands separator into the whole part of a figure
 * printf wrote with the locale's decimal point: "1234,57" becomes
 * "1.234,57" in German. printf's ' flag would do it on glibc but not in
 * every C library the window is built with. */
static char *
group_thousands (const char *plain)
{
  const struct lconv *lc = localeconv ();
  const char *group = lc->grouping;
  size_t whole = strspn (plain, "0123456789");
  GString *out;
  size_t marks[32];
  guint n = 0;

  if (!lc->thousands_sep || !*lc->thousands_sep || !group || !*group)
    return g_strdup (plain);
  /* Where separators go, counted from the right of the whole part: each
   * byte of grouping is a group's size, the last one repeats, CHAR_MAX
   * ends grouping. */
  for (size_t left = whole, size = 0; n < G_N_ELEMENTS (marks); )
    {
      if (*group && *group != CHAR_MAX)
        size = (size_t) *group++;
      else if (*group == CHAR_MAX || size == 0)
        break;
      if (left <= size)
        break;
      left -= size;
      marks[n++] = left;
    }
  out = g_string_new (NULL);
  for (size_t i = 0; plain[i]; i++)
    {
      for (guint k = 0; k < n; k++)
        if (marks[k] == i)
          g_string_append (out, lc->thousands_sep);
      g_string_append_c (out, plain[i]);
    }
  return g_string_free (out, FALSE);
}

char *
dm_format_value (double  value,
                 dm_unit unit)
{
  g_autofree char *plain = NULL;
  const char *format;

  if (!isfinite (value) || value < 0)
    value = 0;
  /* As saved: a figure of 20.0053 shows 20.00, as the file it is saved
   * to (20.005) does when opened again, not 20.01 until then. */
  if (unit != DM_UNIT_GBPS)
    value = dm_figure_as_saved (value);

  /* The figures on screen follow the user's locale, as the rest of the
   * desktop does: a German desktop shows 1.234,57 where the C locale
   * shows 1234.57. What leaves the window (files, the clipboard's text
   * report) comes from the engine's writers, which never localise. */
  switch (unit)
    {
    case DM_UNIT_GBPS:
      format = "%.3f";
      break;
    case DM_UNIT_IOPS:
      /* An IOPS figure counts I/Os: at 72890 its hundredths are noise, and
       * CrystalDiskMark's own Demo profile shows whole IOPS. Only a disk
       * slower than 10 IOPS keeps two decimals, or 0.4 IOPS would read 0. */
      format = value >= 10 ? "%.0f" : "%.2f";
      break;
    case DM_UNIT_US:
    case DM_UNIT_MBPS:
    default:
      /* CrystalDiskMark's: hundredths up to a million, then whole. */
      format = value >= 1e6 ? "%.0f" : "%.2f";
      break;
    }
  plain = g_strdup_printf (format, value);
  return group_thousands (plain);
}

double
dm_meter_fraction (double mb_per_s)
{
  return dm_meter_fraction_in (mb_per_s, DM_UNIT_MBPS);
}

double
dm_meter_fraction_in (double  value,
                      dm_unit unit)
{
  double f;

  if (!isfinite (value) || value <= 0)
    return 0;
  /* Six decades each, as CrystalDiskMark's meter: MB/s from 0.1 to
   * 100,000 (GB/s the same span); IOPS from 10 to 10 million, which for
   * 4 KiB I/Os is about the same span as the MB/s scale; latency from
   * 1 s (empty) to 1 µs (full), so a faster I/O draws the longer bar. */
  switch (unit)
    {
    case DM_UNIT_GBPS:
      f = log10 (value * 1e4) / 6;
      break;
    case DM_UNIT_IOPS:
      f = log10 (value / 10) / 6;
      break;
    case DM_UNIT_US:
      f = 1 - log10 (value) / 6;
      break;
    case DM_UNIT_MBPS:
    default:
      f = log10 (value * 10) / 6;
      break;
    }
  return CLAMP (f, 0.0, 1.0);
}

static void
layout_columns (DmGridLayout *layout,
                guint         modes,
                gboolean      mix)
{
  layout->n_columns = 0;
  if (modes & DM_MODE_BIT (DM_MODE_READ))
    layout->columns[layout->n_columns++] = DM_MODE_READ;
  if (modes & DM_MODE_BIT (DM_MODE_WRITE))
    layout->columns[layout->n_columns++] = DM_MODE_WRITE;
  if (mix || (modes & DM_MODE_BIT (DM_MODE_MIX)))
    layout->columns[layout->n_columns++] = DM_MODE_MIX;
}

void
dm_grid_layout_init (DmGridLayout     *layout,
                     const dm_profile *profile,
                     gboolean          nvme,
                     gboolean          mix)
{
  const dm_spec *specs;
  unsigned n = 0;

  memset (layout, 0, sizeof *layout);
  specs = dm_profile_specs (profile, nvme, &n);
  layout->n_rows = MIN (n, DM_GRID_MAX_ROWS);
  memcpy (layout->rows, specs, layout->n_rows * sizeof (dm_spec));
  layout_columns (layout, profile->modes, mix);
}

void
dm_grid_layout_custom (DmGridLayout  *layout,
                       const dm_spec *specs,
                       guint          n_specs,
                       gboolean       mix)
{
  memset (layout, 0, sizeof *layout);
  layout->n_rows = MIN (n_specs, DM_GRID_MAX_ROWS);
  memcpy (layout->rows, specs, layout->n_rows * sizeof (dm_spec));
  layout_columns (layout, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE), mix);
}

guint
dm_grid_layout_modes (const DmGridLayout *layout)
{
  guint modes = 0;

  for (guint i = 0; i < layout->n_columns; i++)
    modes |= DM_MODE_BIT (layout->columns[i]);
  return modes;
}

const char *
dm_unit_display_name (dm_unit unit)
{
  /* The engine spells microseconds "us" for terminals; the window can
   * afford the real symbol. */
  if (unit == DM_UNIT_US)
    return "μs";
  return dm_unit_name (unit);
}

char *
dm_tile_describe (const dm_spec *spec,
                  dm_mode        mode,
                  double         value,
                  dm_unit        unit,
                  gboolean       has_value)
{
  char name[64];
  char *p;

  /* "SEQ1M / Q8T1" reads better to a screen reader without the slash. */
  dm_spec_label (spec, name, sizeof name);
  p = strstr (name, " / ");
  if (p)
    memmove (p + 1, p + 3, strlen (p + 3) + 1);

  if (!has_value)
    return g_strdup_printf ("%s %s: not measured", name, dm_mode_title (mode));
  else
    {
      g_autofree char *digits = dm_format_value (value, unit);
      return g_strdup_printf ("%s %s: %s %s", name, dm_mode_title (mode), digits,
                              unit == DM_UNIT_US ? "us" : dm_unit_name (unit));
    }
}

char *
dm_format_seconds_left (double seconds)
{
  guint s;

  if (!isfinite (seconds) || seconds < 0)
    return g_strdup ("");
  s = (guint) ceil (seconds);
  if (s >= 3600)
    return g_strdup_printf ("%u:%02u:%02u left", s / 3600, (s / 60) % 60, s % 60);
  return g_strdup_printf ("%u:%02u left", s / 60, s % 60);
}

char *
dm_format_latency_us (double us)
{
  static const struct { double scale; const char *unit; } units[] = {
    { 1, "µs" }, { 1e3, "ms" }, { 1e6, "s" },
  };
  guint u = 0;
  double v;
  int decimals;

  if (!(us > 0) || !isfinite (us))
    return g_strdup ("–");
  /* The unit the figure reads in once rounded to three digits: 999.96 µs
   * is "1.00 ms", not "1000 µs". */
  while (u + 1 < G_N_ELEMENTS (units) && us / units[u].scale >= 999.5)
    u++;
  v = us / units[u].scale;
  /* Three significant digits, the zeros kept: "1.70 ms" beside "2.74 ms",
   * never "1.7 ms". Decimals from the rounded figure, so 9.996 is "10.0". */
  decimals = 2 - (int) floor (log10 (v));
  if (decimals > 0 && fabs (v) * pow (10, decimals) >= 999.5)
    decimals--;
  return g_strdup_printf ("%.*f %s", CLAMP (decimals, 0, 9), v, units[u].unit);
}

gboolean
dm_modes_setting_parse (const char *text,
                        guint      *mask,
                        char       *why,
                        gsize       why_size)
{
  unsigned m = 0;

  if (text && (!g_ascii_strcasecmp (text, "all") || !text[0]))
    {
      *mask = DM_MODES_ALL;
      return TRUE;
    }
  if (dm_modes_parse (text, &m, why, why_size) != 0)
    return FALSE;
  *mask = m;
  return TRUE;
}

char *
dm_modes_setting_format (guint mask)
{
  GString *s;

  if ((mask & DM_MODES_ALL) == DM_MODES_ALL || !(mask & DM_MODES_ALL))
    return g_strdup ("all");
  s = g_string_new (NULL);
  for (int m = 0; m < DM_N_MODES; m++)
    if (mask & DM_MODE_BIT (m))
      g_string_append_printf (s, "%s%s", s->len ? "," : "", dm_mode_name (m));
  return g_string_free (s, FALSE);
}
