/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dm-ui-test.h"

#include <stdlib.h>

void
dm_ui_test_spin (void)
{
  for (int i = 0; i < 50 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

DmWindow *
dm_ui_test_open_window (const char     *profile,
                        DmApplication **app,
                        GSettings     **settings)
{
  g_autoptr (GError) error = NULL;
  DmWindow *window;

  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display (run through tests/gui-run.sh)\n");
      exit (77);
    }
  *app = dm_application_new ();
  g_application_set_flags (G_APPLICATION (*app),
                           G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (*app), NULL, &error))
    g_error ("register: %s", error->message);
  *settings = g_settings_new (DM_APPLICATION_ID);
  if (profile)
    g_settings_set_string (*settings, "profile", profile);
  window = dm_window_new (GTK_APPLICATION (*app), *settings);
  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < 200 && !gtk_widget_get_mapped (GTK_WIDGET (window)); i++)
    g_main_context_iteration (NULL, TRUE);
  dm_ui_test_spin ();
  return window;
}
