/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file choosers the windows share: the main window's exports, the
 * sweep and a saved run from the history ask where to save the same way,
 * and every chooser (save, open, folder) hands back a path the same way.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A save dialog for parent, suggesting name, not shown yet: the caller
 * connects "response", shows it and unrefs it when done. */
GtkFileChooserNative *dm_file_dialog_new_save (GtkWindow       *parent,
                                               const char      *title,
                                               const char      *name);

/* The local path chosen in a "response", or NULL when the user cancelled
 * or chose something that is not a local file. */
char                 *dm_file_dialog_get_path (GtkNativeDialog *dialog,
                                               int              response);

G_END_DECLS
