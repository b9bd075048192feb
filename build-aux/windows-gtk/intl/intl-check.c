/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints what libintl-8.dll makes of a few of Diskmeter's messages, for the
 * Wine smoke test of build-aux/windows-gtk-build to compare per language:
 * one message, a plural for 0, 1 and 2, the header's language, and the
 * same through a domain bound to a second folder (a big-endian catalogue).
 *
 *   intl-check.exe LOCALEDIR [BIG-ENDIAN-LOCALEDIR]
 */
#include <stdio.h>
#include <string.h>
#include "libintl.h"

int
main (int argc, char **argv)
{
  const char *header, *lang;

  if (argc < 2)
    {
      fprintf (stderr, "usage: intl-check LOCALEDIR [BIG-ENDIAN-LOCALEDIR]\n");
      return 2;
    }
  bindtextdomain ("diskmeter", argv[1]);
  bind_textdomain_codeset ("diskmeter", "UTF-8");
  textdomain ("diskmeter");
  printf ("Read=%s\n", gettext ("Read"));
  for (unsigned long n = 0; n <= 2; n++)
    printf ("runs%lu=%s\n", n, ngettext ("%u saved run", "%u saved runs", n));
  /* The catalogue's own Language: header, "" when English. */
  header = gettext ("");
  lang = header ? strstr (header, "Language: ") : NULL;
  printf ("Language=%.*s\n", lang ? (int) strcspn (lang + 10, "\n") : 0, lang ? lang + 10 : "");
  if (argc > 2)
    {
      bindtextdomain ("diskmeter-be", argv[2]);
      printf ("be-Write=%s\n", dgettext ("diskmeter-be", "Write"));
      printf ("be-runs2=%s\n", dngettext ("diskmeter-be", "%u saved run", "%u saved runs", 2));
    }
  printf ("untranslated=%s\n", dgettext ("no-such-domain", "Read"));
  return 0;
}
