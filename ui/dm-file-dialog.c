/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One place for the file choosers, so a change of GTK API (GtkFileDialog
 * once Diskmeter needs more than GTK 4.8) is made once for every window.
 */
#include "dm-file-dialog.h"

GtkFileChooserNative *
dm_file_dialog_new_save (GtkWindow  *parent,
                    const char *title,
                    const char *name)
{
  GtkFileChooserNative *chooser;

  /* GtkFileChooserNative: GTK 4.8 has no GtkFileDialog yet, and the native
   * dialog goes through the portal inside a sandbox. */
  chooser = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, "_Save",
                                         "_Cancel");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  return chooser;
}

char *
dm_file_dialog_get_path (GtkNativeDialog *dialog,
                         int              response)
{
  g_autoptr (GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return NULL;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  return file ? g_file_get_path (file) : NULL;
}
