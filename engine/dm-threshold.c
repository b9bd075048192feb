/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parsing and applying green/red limits.
 */
#include "dm-threshold.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "green>90000", "red<=50000": the colour, the direction and the limit. */
static int
parse_limit (const char *word, dm_threshold *t, char *why, size_t ws)
{
  bool green = !dm_ascii_ncasecmp (word, "green", 5);
  bool red = !dm_ascii_ncasecmp (word, "red", 3);
  const char *p = word + (green ? 5 : 3);
  bool above;
  if (!green && !red)
    return dm_why (why, ws, "'%s' is not a limit", word);
  if (*p == '>')
    above = true;
  else if (*p == '<')
    above = false;
  else
    return dm_why (why, ws, "'%s': write green>N, green<N, red>N or red<N", word);
  p++;
  bool inclusive = *p == '=';
  if (inclusive)
    p++;
  double v = 0, scale = 0;
  int digits = 0;
  for (; (*p >= '0' && *p <= '9') || (*p == '.' && scale == 0); p++)
    {
      if (*p == '.')
        {
          scale = 1;
          continue;
        }
      if (++digits > 15)
        return dm_why (why, ws, "'%s': the limit has too many digits", word);
      v = v * 10 + (*p - '0');
      if (scale)
        scale *= 10;
    }
  if (!digits || *p)
    return dm_why (why, ws, "'%s': the limit is not a number", word);
  if (scale)
    v /= scale;
  if (green)
    {
      t->has_green = true;
      t->green_above = above;
      t->green_inclusive = inclusive;
      t->green = v;
    }
  else
    {
      t->has_red = true;
      t->red_above = above;
      t->red_inclusive = inclusive;
      t->red = v;
    }
  return 0;
}

int
dm_threshold_parse (const char *text, dm_threshold *out, char *why, size_t why_size)
{
  dm_threshold t;
  bool has_unit = false;
  const char *p = text;
  memset (&t, 0, sizeof t);
  if (!p)
    return dm_why (why, why_size, "no threshold given");
  while (*p)
    {
      char word[64];
      size_t n = strcspn (p, " \t");
      if (n == 0)
        {
          p++;
          continue;
        }
      if (n >= sizeof word)
        return dm_why (why, why_size, "'%.20s...' is not part of a threshold", p);
      memcpy (word, p, n);
      word[n] = '\0';
      p += n;

      dm_mode mode;
      dm_unit unit;
      if (dm_mode_parse (word, &mode) == 0)
        {
          if (t.has_mode)
            return dm_why (why, why_size, "'%s': a threshold names one column", text);
          t.has_mode = true;
          t.mode = mode;
        }
      else if (dm_unit_parse (word, &unit) == 0)
        {
          if (has_unit)
            return dm_why (why, why_size, "'%s': a threshold names one unit", text);
          has_unit = true;
          t.unit = unit;
        }
      else if (!dm_ascii_ncasecmp (word, "green", 5) || !dm_ascii_ncasecmp (word, "red", 3))
        {
          if (parse_limit (word, &t, why, why_size) < 0)
            return -EINVAL;
        }
      else if (dm_spec_parse (word, &t.spec, NULL, 0) == 0)
        {
          if (t.has_spec)
            return dm_why (why, why_size, "'%s': a threshold names one test", text);
          t.has_spec = true;
        }
      else
        return dm_why (why, why_size,
                     "'%s' in '%s' is not a column, test, unit or limit "
                     "(e.g. \"read RND4K_Q32T1 IOPS green>90000 red<50000\")", word, text);
    }
  if (!has_unit)
    return dm_why (why, why_size, "'%s' names no unit (MB/s, GB/s, IOPS or us)", text);
  if (!t.has_green && !t.has_red)
    return dm_why (why, why_size, "'%s' sets no limit (green>N, red<N...)", text);
  *out = t;
  return 0;
}

void
dm_threshold_format (const dm_threshold *t, char *buf, size_t size)
{
  char name[32] = "";
  if (t->has_spec)
    dm_spec_name (&t->spec, name, sizeof name);
  snprintf (buf, size, "%s%s%s%s%s", t->has_mode ? dm_mode_name (t->mode) : "",
            t->has_mode ? " " : "", name, name[0] ? " " : "", dm_unit_name (t->unit));
  size_t n = strlen (buf);
  if (t->has_green)
    n += (size_t) snprintf (buf + n, size > n ? size - n : 0, " green%c%s%.10g",
                            t->green_above ? '>' : '<', t->green_inclusive ? "=" : "", t->green);
  if (t->has_red && n < size)
    snprintf (buf + n, size - n, " red%c%s%.10g", t->red_above ? '>' : '<',
              t->red_inclusive ? "=" : "", t->red);
  for (char *q = buf; *q; q++)
    if (*q == ',')
      *q = '.';
}

static bool
crosses (double value, bool above, bool inclusive, double limit)
{
  if (inclusive && value == limit)
    return true;
  return above ? value > limit : value < limit;
}

dm_colour
dm_threshold_colour (const dm_threshold *rules, unsigned n, const dm_spec *spec, dm_mode mode,
                     dm_unit unit, double value)
{
  const dm_threshold *best = NULL;
  int best_rank = -1;
  for (unsigned i = 0; i < n; i++)
    {
      const dm_threshold *t = &rules[i];
      if (t->unit != unit || (t->has_mode && t->mode != mode)
          || (t->has_spec && !dm_spec_equal (&t->spec, spec)))
        continue;
      int rank = (t->has_spec ? 2 : 0) + (t->has_mode ? 1 : 0);
      if (rank >= best_rank)
        {
          best = t;
          best_rank = rank;
        }
    }
  if (!best || !(value > 0))
    return DM_COLOUR_NONE;
  if (best->has_red && crosses (value, best->red_above, best->red_inclusive, best->red))
    return DM_COLOUR_RED;
  if (best->has_green
      && crosses (value, best->green_above, best->green_inclusive, best->green))
    return DM_COLOUR_GREEN;
  return DM_COLOUR_NONE;
}

const char *
dm_colour_name (dm_colour c)
{
  return c == DM_COLOUR_GREEN ? "green" : c == DM_COLOUR_RED ? "red" : "";
}
