/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where diskmeter-cli finds its translations (see dm-i18n.h). Only the
 * message catalogue follows the user's locale: LC_NUMERIC stays "C", since
 * what the CLI prints is read by scripts and other programs.
 */
#include "dm-i18n.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#endif

#if DM_ENABLE_NLS
/* The folder of the catalogues: on Windows, which installs anywhere,
 * share\locale beside the program (or beside its bin folder, as GLib finds
 * its own data); the configured one else. */
static const char *
locale_dir (void)
{
  const char *env = getenv ("DISKMETER_LOCALEDIR");
  if (env && *env)
    return env;
#ifdef _WIN32
  static char dir[MAX_PATH + 32];
  DWORD n = GetModuleFileNameA (NULL, dir, MAX_PATH);
  char *slash;
  if (n > 0 && n < MAX_PATH)
    {
      /* C:\...\Diskmeter\diskmeter-cli.exe -> C:\...\Diskmeter\share\locale */
      if ((slash = strrchr (dir, '\\')))
        *slash = '\0';
      if ((slash = strrchr (dir, '\\')) && !_stricmp (slash + 1, "bin"))
        *slash = '\0';
      strcat (dir, "\\share\\locale");
      return dir;
    }
#endif
  return DM_LOCALEDIR;
}
#endif

void
dm_i18n_init (void)
{
  /* Messages and their character set only: numbers, dates and sorting
   * stay the C locale's, so nothing a script reads changes with LANG. */
  setlocale (LC_CTYPE, "");
#ifdef LC_MESSAGES
  setlocale (LC_MESSAGES, "");
#endif
#if DM_ENABLE_NLS
  bindtextdomain (GETTEXT_PACKAGE, locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
#endif
}
