/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Settings defaults (CrystalDiskMark's: 5 runs of 5 s over a 1 GiB file with
 * 5 s pauses) and their limits.
 */
#include "dm-settings.h"

#include "dm-gettext.h"

#include <errno.h>
#include <stdio.h>
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
