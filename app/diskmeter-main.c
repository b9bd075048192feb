/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * main() of the Diskmeter window. Everything happens in DmApplication;
 * this only sets the locale and passes back a scripted run's exit status.
 */
#include <locale.h>

#include "dm-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr (DmApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  app = dm_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status ? status : dm_application_get_exit_status (app);
}
