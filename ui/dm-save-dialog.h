/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "Save" file chooser the windows share: the main window's exports, the
 * sweep and a saved run from the history all ask for a file the same way.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A save dialog for parent, suggesting name, not shown yet: the caller
 * connects "response", shows it and unrefs it when done. */
GtkFileChooserNative *dm_save_dialog_new      (GtkWindow       *parent,
                                               const char      *title,
                                               const char      *name);

/* The local path chosen in a "response", or NULL when the user cancelled
 * or chose something that is not a local file. */
char                 *dm_save_dialog_get_path (GtkNativeDialog *dialog,
                                               int              response);

G_END_DECLS
