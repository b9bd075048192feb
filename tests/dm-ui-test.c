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

void
dm_ui_test_reset_settings (GSettings *settings)
{
  const char *keys[] = { "profile", "nvme", "mix", "mix-ratio", "units", "count", "size", "modes" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  dm_ui_test_spin ();
}

void
dm_ui_test_assert_label (GtkWidget  *widget,
                         const char *want)
{
  g_autofree char *wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                               GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                               want);
  if (wrong)
    g_error ("accessible label is \"%s\", not \"%s\"", wrong, want);
}

const char *
dm_ui_test_selected_label (DmChoice *dropdown)
{
  GtkStringObject *item = dm_choice_get_selected_item (dropdown);

  return item ? gtk_string_object_get_string (item) : NULL;
}

static void
on_clipboard_text (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  char **out = data;

  *out = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (!*out)
    *out = g_strdup ("");
}

char *
dm_ui_test_copy_as_text (DmApplication *app,
                         DmWindow      *window)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  char *text = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (app), "copy-text", NULL);
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (window)), NULL,
                                 on_clipboard_text, &text);
  /* Not a blocking iteration: with nothing to dispatch it would never
   * come back to look at the clock. */
  while (!text && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  if (!text)
    g_error ("the clipboard gave no text within 5 s of Copy as Text");
  return text;
}
