/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The program's arguments in UTF-8. Windows hands main() its arguments in
 * the ANSI code page, where a folder named "Prüfung-диск" turns into
 * question marks; the UTF-16 command line is the only lossless source.
 * The console is switched to UTF-8 output for as long as we run.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <shellapi.h>
#include <stdlib.h>

static UINT saved_output_cp;

static void
restore_console (void)
{
  SetConsoleOutputCP (saved_output_cp);
}

int
dm_args_utf8 (int *argc, char ***argv)
{
  wchar_t **wargv;
  char **out, *p;
  size_t total = 0;
  int n = 0;

  wargv = CommandLineToArgvW (GetCommandLineW (), &n);
  if (wargv == NULL)
    return _dm_win_error (GetLastError ());
  for (int i = 0; i < n; i++)
    total += (size_t) WideCharToMultiByte (CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);

  /* One block for the array and the strings, kept for the process's life
   * as argv is. */
  out = malloc ((size_t) (n + 1) * sizeof *out + total);
  if (out == NULL)
    {
      LocalFree (wargv);
      return -ENOMEM;
    }
  p = (char *) (out + n + 1);
  for (int i = 0; i < n; i++)
    {
      int len = WideCharToMultiByte (CP_UTF8, 0, wargv[i], -1, p, (int) total, NULL, NULL);
      out[i] = p;
      p += len;
      total -= (size_t) len;
    }
  out[n] = NULL;
  LocalFree (wargv);
  *argc = n;
  *argv = out;

  /* Reports and messages are UTF-8; a console in its OEM code page would
   * garble every non-ASCII path. The code page belongs to the console, not
   * to us, so the user's shell gets its own back when we exit. */
  saved_output_cp = GetConsoleOutputCP ();
  if (saved_output_cp != 0 && saved_output_cp != CP_UTF8 && SetConsoleOutputCP (CP_UTF8))
    atexit (restore_console);
  return 0;
}
