/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * main() of the Diskmeter window. Everything happens in DmApplication;
 * this picks the renderer, sets the locale and passes back a scripted
 * run's exit status.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "dm-application.h"
#include "dm-i18n-ui.h"

#ifdef G_OS_WIN32
#include <windows.h>

/* diskmeter.exe is a Windows GUI program, so a double click opens no
 * console window. Started from a prompt, it writes its lines (a scripted
 * run's figures, the files it saved, errors) to that prompt; output the
 * caller redirected stays where it was sent. */
static void
use_parent_console (void)
{
  HANDLE out = GetStdHandle (STD_OUTPUT_HANDLE);
  HANDLE err = GetStdHandle (STD_ERROR_HANDLE);
  gboolean have_out = out && out != INVALID_HANDLE_VALUE;
  gboolean have_err = err && err != INVALID_HANDLE_VALUE;

  if ((have_out && have_err) || !AttachConsole (ATTACH_PARENT_PROCESS))
    return;
  if (!have_out)
    (void) freopen ("CONOUT$", "w", stdout);
  if (!have_err)
    (void) freopen ("CONOUT$", "w", stderr);
}
#endif

/* The catalogues' folder: $DISKMETER_LOCALEDIR (tests, a run from the build
 * tree); on Windows, which installs anywhere, share\locale beside the
 * program (or its bin folder); else the configured one. */
static void
bind_translations (void)
{
  const char *env = g_getenv ("DISKMETER_LOCALEDIR");
  g_autofree char *dir = NULL;

  if (env && *env)
    dir = g_strdup (env);
#ifdef G_OS_WIN32
  else
    {
      g_autofree char *top = g_win32_get_package_installation_directory_of_module (NULL);
      dir = g_build_filename (top, "share", "locale", NULL);
    }
#else
  else
    dir = g_strdup (DM_LOCALEDIR);
#endif
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (DmApplication) app = NULL;
  const char *renderer = g_getenv ("GSK_RENDERER");
  const char *gl = g_getenv ("DISKMETER_GL");
  int status;

#ifdef G_OS_WIN32
  use_parent_console ();
#endif
  /* The window draws a few dozen rectangles and labels, which the cairo
   * renderer does in well under a millisecond. Setting up GL instead costs
   * about 60 MB and a few hundred milliseconds at start, more in the VMs
   * with software GL where many users run Diskmeter. DISKMETER_GL=1, or
   * choosing a GL renderer or GDK_DEBUG flags, leaves the choice to GTK. */
  if ((!gl || !*gl || strcmp (gl, "0") == 0) && !g_getenv ("GDK_DEBUG")
      && (!renderer || strcmp (renderer, "cairo") == 0))
    {
      g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
      g_setenv ("GSK_RENDERER", "cairo", TRUE);
    }

  /* The window's figures follow the locale (1.234,56 in German); reports
   * and exports keep their '.' on their own (dm_buf_add_double, dm-xlsx). */
  setlocale (LC_ALL, "");
  bind_translations ();
  app = dm_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status ? status : dm_application_get_exit_status (app);
}
