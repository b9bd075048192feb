/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target drop-down's rows. Every label that may be long (a path, a
 * loop device's backing file) is shortened in the middle, and the figures
 * beside it keep their full width. The button's labels ask for little
 * natural width (the window sets the drop-down's); the popup's rows ask
 * for what a file manager shows, never more than the window's width.
 */
#include "dm-target-factory.h"

#include "dm-target-item.h"
#include "dm-target-row.h"
#include "dm-tooltip.h"

/* A long label's natural width in characters: in the button little, as
 * the window decides the drop-down's width and the label shows all it
 * can of that; in the popup as much as a file manager's list shows, up
 * to the window's width (DmTargetRow). */
#define BUTTON_NATURAL_CHARS 12
#define POPUP_NATURAL_CHARS 60

typedef struct
{
  GtkWidget *name;
  GtkWidget *figures;
  GtkWidget *mark;
  GtkWidget *detail;  /* the popup's second line, NULL in the button */
} Row;

static GtkWidget *
new_label (const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* A label that gives way: shortened in the middle, so both the start of
 * a path and the name of its last folder stay. */
static GtkWidget *
new_shrinking_label (const char *css_class,
                     gboolean    button)
{
  GtkWidget *label = new_label (css_class);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (label), 4);
  gtk_label_set_max_width_chars (GTK_LABEL (label),
                                 button ? BUTTON_NATURAL_CHARS : POPUP_NATURAL_CHARS);
  gtk_widget_set_hexpand (label, TRUE);
  return label;
}

/* The grid of labels; the popup's rows get a second line. */
static GtkWidget *
row_new (gboolean button)
{
  Row *row = g_new0 (Row, 1);
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  row->name = new_shrinking_label (NULL, button);
  row->figures = new_label ("numeric");
  row->mark = new_label ("dim-label");
  gtk_widget_add_css_class (grid, "dm-target-row");
  gtk_grid_attach (GTK_GRID (grid), row->name, 0, 0, 1, 1);
  if (button)
    {
      /* One line, centred as the other drop-downs' labels are: the name,
       * the figures, the mark. */
      gtk_widget_set_valign (grid, GTK_ALIGN_CENTER);
      gtk_grid_attach (GTK_GRID (grid), row->figures, 1, 0, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), row->mark, 2, 0, 1, 1);
    }
  else
    {
      /* Two lines, as a file manager lists places: the name over what it
       * is, the figures over the mark, right-aligned. */
      row->detail = new_shrinking_label ("dim-label", FALSE);
      gtk_widget_add_css_class (row->detail, "caption");
      gtk_label_set_xalign (GTK_LABEL (row->figures), 1);
      gtk_label_set_xalign (GTK_LABEL (row->mark), 1);
      gtk_grid_attach (GTK_GRID (grid), row->figures, 1, 0, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), row->mark, 1, 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), row->detail, 0, 1, 1, 1);
    }
  g_object_set_data_full (G_OBJECT (grid), "dm-target-row", row, g_free);
  return grid;
}

static void
item_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  gtk_list_item_set_child (item, dm_target_row_new (row_new (FALSE)));
}

static void
show_text (GtkWidget  *label,
           const char *text)
{
  if (!label)
    return;
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_visible (label, text[0] != '\0');
}

/* Shows target in child: a popup row (a DmTargetRow) or the button's grid. */
static void
row_show (GtkWidget    *child,
          DmTargetItem *target,
          gboolean      button)
{
  GtkWidget *grid = DM_IS_TARGET_ROW (child) ? gtk_widget_get_first_child (child) : child;
  Row *row = g_object_get_data (G_OBJECT (grid), "dm-target-row");
  gboolean heading = dm_target_item_get_kind (target) == DM_TARGET_ITEM_HEADING;
  g_autofree char *spoken = NULL;

  if (heading)
    {
      gtk_widget_add_css_class (row->name, "heading");
      gtk_widget_add_css_class (row->name, "dim-label");
    }
  else
    {
      gtk_widget_remove_css_class (row->name, "heading");
      gtk_widget_remove_css_class (row->name, "dim-label");
    }
  gtk_label_set_text (GTK_LABEL (row->name), dm_target_item_get_name (target));
  show_text (row->figures, dm_target_item_get_figures (target));
  show_text (row->mark, dm_target_item_get_mark (target));
  show_text (row->detail, dm_target_item_get_detail (target));
  spoken = dm_target_item_describe (target, !button);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, spoken,
                                  -1);
  dm_tooltip_set (child, button ? NULL : dm_target_item_get_path (target));
}

static void
item_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  DmTargetItem *target = gtk_list_item_get_item (item);
  gboolean heading;

  if (!target)
    return;
  heading = dm_target_item_get_kind (target) == DM_TARGET_ITEM_HEADING;
  /* A heading names a section; it is not a place to pick. */
  gtk_list_item_set_selectable (item, !heading);
  gtk_list_item_set_activatable (item, !heading);
  row_show (gtk_list_item_get_child (item), target, FALSE);
}

GtkListItemFactory *
dm_target_factory_new (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (item_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (item_bind), NULL);
  return factory;
}

GtkWidget *
dm_target_factory_button (DmChoice  *choice,
                          gpointer   item,
                          GtkWidget *old_child,
                          gpointer   unused)
{
  GtkWidget *grid = old_child ? old_child : row_new (TRUE);

  if (item)
    row_show (grid, item, TRUE);
  return grid;
}
