/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steady form is parsed by the engine's dm_steady_parse, the one
 * diskmeter-cli's --warmup calls, so the window and the CLI take and
 * refuse the same words; it is kept as text, the way it was typed.
 */
#include "dm-warmup-setting.h"

#include <string.h>

void
dm_warmup_setting_get (GSettings   *settings,
                       dm_settings *s)
{
  g_autofree char *steady = g_settings_get_string (settings, "warmup-steady");
  char why[200];

  s->warmup_s = g_settings_get_double (settings, "warmup");
  s->warmup_steady = false;
  /* One that does not parse changes nothing: the seconds count. */
  if (steady[0])
    (void) dm_steady_parse (steady, s, why, sizeof why);
}

void
dm_warmup_setting_set (GSettings         *settings,
                       const dm_settings *s)
{
  char text[64] = "";

  g_settings_set_double (settings, "warmup", s->warmup_s);
  if (s->warmup_steady)
    dm_warmup_format (s, text, sizeof text);
  g_settings_set_string (settings, "warmup-steady", text);
}

gboolean
dm_warmup_setting_check (const char *text,
                         char       *why,
                         gsize       why_size)
{
  dm_settings s;

  dm_settings_init (&s);
  return !text[0] || dm_steady_parse (text, &s, why, why_size) == 0;
}
