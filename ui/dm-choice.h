/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A drop-down that costs a button until it is opened: the same model,
 * "selected" and list factory as GtkDropDown, but its popover and list
 * are made on the first open, so a window's first frame does not build a
 * list view for every choice in it. The button shows the selected item
 * through a function, not a list item factory (a GtkListItem can only be
 * made by a list view, the very thing that is put off).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DM_TYPE_CHOICE (dm_choice_get_type ())
G_DECLARE_FINAL_TYPE (DmChoice, dm_choice, DM, CHOICE, GtkWidget)

/* Makes or updates the button's content for item (NULL when nothing is
 * selected). old_child is what the last call returned, NULL the first
 * time: return it, changed, to keep it, or a new widget to replace it. */
typedef GtkWidget *(*DmChoiceButtonFunc) (DmChoice  *self,
                                          gpointer   item,
                                          GtkWidget *old_child,
                                          gpointer   user_data);

GtkWidget          *dm_choice_new               (GListModel         *model);
GListModel         *dm_choice_get_model         (DmChoice           *self);
void                dm_choice_set_model         (DmChoice           *self,
                                                 GListModel         *model);
/* GTK_INVALID_LIST_POSITION when nothing is. */
guint               dm_choice_get_selected      (DmChoice           *self);
void                dm_choice_set_selected      (DmChoice           *self,
                                                 guint               position);
/* The selected item (owned by the model), or NULL. */
gpointer            dm_choice_get_selected_item (DmChoice           *self);
/* NULL: a label with the GtkStringObject's string. */
void                dm_choice_set_button_func   (DmChoice           *self,
                                                 DmChoiceButtonFunc  func,
                                                 gpointer            user_data,
                                                 GDestroyNotify      destroy);
/* The popover's rows; NULL: labels of GtkStringObjects, the chosen one
 * checked. */
GtkListItemFactory *dm_choice_get_list_factory  (DmChoice           *self);
void                dm_choice_set_list_factory  (DmChoice           *self,
                                                 GtkListItemFactory *factory);

G_END_DECLS
