/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Settings defaults (CrystalDiskMark's: 5 runs of 5 s over a 1 GiB file with
 * 5 s pauses) and their limits.
 */
#include "dm-settings.h"

#include "dm-gettext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-units.h"

void
dm_settings_init (dm_settings *s)
{
  memset (s, 0, sizeof *s);
  s->count = 5;
  s->test_size = 1ull << 30;
  s->measure_s = 5;
  s->interval_s = 5;
  s->warmup_s = 5;
  s->data = DM_DATA_RANDOM;
  s->mix_read_percent = 70;
  s->steady_margin = DM_STEADY_MARGIN_DEFAULT;
  s->steady_limit_s = DM_STEADY_LIMIT_DEFAULT;
}

int
dm_settings_check (const dm_settings *s, char *why, size_t why_size)
{
  char a[32], b[32];
  if (s->count < DM_COUNT_MIN || s->count > DM_COUNT_MAX)
    {
      snprintf (why, why_size, dm_gettext ("count must be %d to %d"), DM_COUNT_MIN, DM_COUNT_MAX);
      return -EINVAL;
    }
  if (s->test_size < DM_TEST_SIZE_MIN || s->test_size > DM_TEST_SIZE_MAX)
    {
      dm_size_format (DM_TEST_SIZE_MIN, a, sizeof a);
      dm_size_format (DM_TEST_SIZE_MAX, b, sizeof b);
      snprintf (why, why_size, dm_gettext ("test size must be %s to %s"), a, b);
      return -EINVAL;
    }
  if (s->test_size % DM_BLOCK_MAX_ALIGN)
    {
      snprintf (why, why_size, dm_gettext ("test size must be a whole number of MiB"));
      return -EINVAL;
    }
  if (!(s->measure_s >= 0.1 && s->measure_s <= 3600))
    {
      snprintf (why, why_size, dm_gettext ("measure time must be 0.1 to 3600 seconds"));
      return -EINVAL;
    }
  if (!(s->interval_s >= 0 && s->interval_s <= 3600)
      || !(s->warmup_s >= 0 && s->warmup_s <= 3600))
    {
      snprintf (why, why_size, dm_gettext ("interval and warm-up must be 0 to 3600 seconds"));
      return -EINVAL;
    }
  if (s->warmup_steady
      && (!(s->steady_margin >= 0.1 && s->steady_margin <= 100)
          || !(s->steady_limit_s >= DM_STEADY_WINDOW_S && s->steady_limit_s <= 3600)))
    {
      snprintf (why, why_size, ("a steady warm-up's margin must be 0.1 to 100 percent "
                                           "and its limit %g to 3600 seconds"), DM_STEADY_WINDOW_S);
      return -EINVAL;
    }
  if (s->precondition > DM_PRECONDITION_MAX)
    {
      snprintf (why, why_size, ("precondition must be 0 to %d passes"),
                DM_PRECONDITION_MAX);
      return -EINVAL;
    }
  if (s->mix_read_percent < DM_MIX_READ_MIN || s->mix_read_percent > DM_MIX_READ_MAX)
    {
      snprintf (why, why_size, dm_gettext ("mix read share must be %d to %d percent"),
                DM_MIX_READ_MIN, DM_MIX_READ_MAX);
      return -EINVAL;
    }
  return 0;
}

const char *
dm_data_name (dm_data data)
{
  return data == DM_DATA_ZEROS ? "zeros" : "random";
}

int
dm_data_parse (const char *text, dm_data *out)
{
  if (!dm_ascii_casecmp (text, "random"))
    *out = DM_DATA_RANDOM;
  else if (!dm_ascii_casecmp (text, "zeros") || !dm_ascii_casecmp (text, "zero")
           || !dm_ascii_casecmp (text, "0x00"))
    *out = DM_DATA_ZEROS;
  else
    return -EINVAL;
  return 0;
}

/* Its reasons are not yet in the catalogues (the lead merges them), so
 * they are not marked. */
int
dm_steady_parse (const char *text, dm_settings *s, char *why, size_t why_size)
{
  double margin = DM_STEADY_MARGIN_DEFAULT, limit = DM_STEADY_LIMIT_DEFAULT;
  char inner[160];
  if (dm_ascii_ncasecmp (text, "steady", 6) || (text[6] && text[6] != ':'))
    {
      snprintf (why, why_size, ("'%.60s' is not steady[:MARGIN[:LIMIT]]"), text);
      return -EINVAL;
    }
  const char *p = text[6] ? text + 7 : NULL;
  if (p)
    {
      char *end;
      const char *colon = strchr (p, ':');
      size_t n = colon ? (size_t) (colon - p) : strlen (p);
      if (n)
        {
          margin = strtod (p, &end);
          if (end < p + n && *end == '%')
            end++;
          if (end != p + n || !(margin >= 0.1 && margin <= 100))
            {
              snprintf (why, why_size, ("the steady margin '%.*s' is not 0.1 to 100 "
                                                   "percent"), (int) (n > 40 ? 40 : n), p);
              return -EINVAL;
            }
        }
      if (colon)
        {
          if (dm_duration_parse (colon + 1, &limit, inner, sizeof inner) < 0)
            {
              snprintf (why, why_size, ("the steady limit: %s"), inner);
              return -EINVAL;
            }
          if (!(limit >= DM_STEADY_WINDOW_S - 1e-9 && limit <= 3600 + 1e-9))
            {
              snprintf (why, why_size, ("the steady limit must be %g to 3600 seconds"),
                        DM_STEADY_WINDOW_S);
              return -EINVAL;
            }
        }
    }
  s->warmup_steady = true;
  s->steady_margin = margin;
  s->steady_limit_s = limit;
  return 0;
}

void
dm_warmup_format (const dm_settings *s, char *buf, size_t size)
{
  if (s->warmup_steady)
    snprintf (buf, size, "steady:%g%%:%gs", s->steady_margin, s->steady_limit_s);
  else
    snprintf (buf, size, "%gs", s->warmup_s);
}
