/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table is rebuilt from the engine's dm_compare on every change: a
 * comparison has a few dozen cells at most, and rebuilding keeps the view a
 * plain function of the comparison, whatever order it was sorted into.
 */
#include "dm-compare-view.h"
#include "dm-i18n-ui.h"

#include "dm-compare-format.h"
#include "dm-format.h"
#include "dm-platform.h"

struct _DmCompareView
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkWidget  *settings_label; /* the settings that differ, above the table */
  GtkWidget  *table;
  GtkWidget  *legend_label;

  GtkSizeGroup *columns;   /* the runs' cells: one width, so bars compare */
  dm_compare *compare;     /* borrowed from the window */
  int         sort_column; /* -1: the order the runs were measured in */
};

G_DEFINE_FINAL_TYPE (DmCompareView, dm_compare_view, GTK_TYPE_WIDGET)

static void
clear_table (DmCompareView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->table)))
    gtk_grid_remove (GTK_GRID (self->table), child);
}

static void
on_header_clicked (GtkButton     *button,
                   DmCompareView *self)
{
  int column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "dm-column"));

  if (!self->compare)
    return;
  /* A second click on the same column goes back to the measured order. */
  self->sort_column = column == self->sort_column ? -1 : column;
  dm_compare_sort (self->compare, self->sort_column);
  dm_compare_view_refresh (self);
}

static GtkWidget *
header_button (DmCompareView *self,
               const char    *text,
               int            column)
{
  GtkWidget *button = gtk_button_new_with_label (text);
  GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "column-title");
  if (GTK_IS_LABEL (label))
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_xalign (GTK_LABEL (label), column < 0 ? 0 : 1);
    }
  gtk_widget_set_tooltip_text (button, column < 0 ? _ ("Sort in the order the tests ran")
                                                  : _ ("Sort by this run's figures"));
  g_object_set_data (G_OBJECT (button), "dm-column", GINT_TO_POINTER (column));
  g_signal_connect (button, "clicked", G_CALLBACK (on_header_clicked), self);
  return button;
}

void
dm_compare_view_refresh (DmCompareView *self)
{
  dm_compare *c = self->compare;
  g_autofree char *legend = NULL;
  g_autofree char *differ = NULL;

  g_return_if_fail (DM_IS_COMPARE_VIEW (self));
  clear_table (self);
  g_clear_object (&self->columns);
  if (!c)
    {
      gtk_label_set_text (GTK_LABEL (self->legend_label), "");
      gtk_label_set_text (GTK_LABEL (self->settings_label), "");
      gtk_widget_set_visible (self->settings_label, FALSE);
      return;
    }

  /* Runs made another way say so before any figure is read. */
  differ = dm_compare_settings_line (c);
  gtk_label_set_text (GTK_LABEL (self->settings_label), differ ? differ : "");
  gtk_widget_set_visible (self->settings_label, differ != NULL);

  /* Every run's column as wide as the widest: a bar's length is a share of
   * its cell, so cells of one width keep the bars' lengths in the figures'
   * ratio on screen. */
  self->columns = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  gtk_grid_attach (GTK_GRID (self->table), header_button (self, _ ("Test"), -1), 0, 0, 1, 1);
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      g_autofree char *letter = dm_compare_run_letter (i);
      g_autofree char *title = g_strdup_printf ("%s  %s", letter, dm_unit_display_name (c->unit));

      gtk_grid_attach (GTK_GRID (self->table), header_button (self, title, i), i + 1, 0, 1, 1);
    }

  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      g_autofree char *test = dm_compare_row_title (row);
      g_autofree char *shape = dm_compare_row_shape (row);
      GtkWidget *label;

      label = gtk_label_new (test);
      /* A workload row is matched by its shape too: the tooltip says it. */
      if (shape)
        gtk_widget_set_tooltip_text (label, shape);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "compare-test");
      gtk_grid_attach (GTK_GRID (self->table), label, 0, r + 1, 1, 1);

      for (unsigned i = 0; i < c->n_runs; i++)
        {
          const dm_compare_cell *cell = &row->cells[i];
          g_autofree char *text = dm_compare_cell_format (cell, c->unit, i == 0);
          const char *verdict = dm_compare_cell_class (cell, i == 0);
          const char *note = dm_compare_cell_note (cell, i == 0);
          g_autofree char *spoken = dm_compare_cell_describe (c, r, i);
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
          GtkWidget *meter;

          label = gtk_label_new (text);
          gtk_label_set_xalign (GTK_LABEL (label), 1);
          gtk_box_append (GTK_BOX (box), label);
          if (note)
            {
              /* Smaller, under the figure: why this difference is grey. */
              PangoAttrList *small = pango_attr_list_new ();
              GtkWidget *why = gtk_label_new (note);

              pango_attr_list_insert (small, pango_attr_scale_new (0.6));
              gtk_label_set_attributes (GTK_LABEL (why), small);
              pango_attr_list_unref (small);
              gtk_label_set_xalign (GTK_LABEL (why), 1);
              gtk_widget_add_css_class (why, "compare-note");
              gtk_box_append (GTK_BOX (box), why);
            }
          /* The bar under the figure, as under a tile's, but linear against
           * the row's largest figure: the picture of a comparison is the
           * ratio, which a logarithmic bar would flatten. One colour; the
           * verdict is the text's. */
          meter = gtk_level_bar_new_for_interval (0, 1);
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (meter), GTK_LEVEL_BAR_OFFSET_LOW);
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (meter), GTK_LEVEL_BAR_OFFSET_HIGH);
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (meter), GTK_LEVEL_BAR_OFFSET_FULL);
          gtk_level_bar_set_value (GTK_LEVEL_BAR (meter),
                                   dm_compare_cell_meter (row, c->n_runs, i));
          gtk_widget_add_css_class (meter, "compare-meter");
          gtk_widget_set_visible (meter, cell->present);
          gtk_box_append (GTK_BOX (box), meter);

          /* One sentence per cell for a screen reader: the figure, its
           * difference and what that difference rests on. */
          gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          spoken, -1);
          gtk_widget_set_tooltip_text (box, note ? spoken : NULL);
          gtk_widget_set_hexpand (box, TRUE);
          gtk_size_group_add_widget (self->columns, box);
          gtk_widget_add_css_class (box, "compare-cell");
          if (verdict)
            gtk_widget_add_css_class (box, verdict);
          if (cell->present && cell->colour != DM_COLOUR_NONE)
            gtk_widget_add_css_class (box, dm_colour_name (cell->colour));
          gtk_grid_attach (GTK_GRID (self->table), box, i + 1, r + 1, 1, 1);
        }
    }

  legend = dm_compare_legend (c);
  gtk_label_set_text (GTK_LABEL (self->legend_label), legend);
}

void
dm_compare_view_set_comparison (DmCompareView *self,
                                dm_compare    *c)
{
  g_return_if_fail (DM_IS_COMPARE_VIEW (self));
  self->compare = c;
  self->sort_column = -1;
  dm_compare_view_refresh (self);
}

static void
dm_compare_view_dispose (GObject *object)
{
  DmCompareView *self = DM_COMPARE_VIEW (object);

  self->compare = NULL;
  g_clear_object (&self->columns);
  gtk_widget_dispose_template (GTK_WIDGET (self), DM_TYPE_COMPARE_VIEW);
  G_OBJECT_CLASS (dm_compare_view_parent_class)->dispose (object);
}

static void
dm_compare_view_class_init (DmCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_compare_view_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DmCompareView, box);
  gtk_widget_class_bind_template_child (widget_class, DmCompareView, settings_label);
  gtk_widget_class_bind_template_child (widget_class, DmCompareView, table);
  gtk_widget_class_bind_template_child (widget_class, DmCompareView, legend_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "compareview");
}

static void
dm_compare_view_init (DmCompareView *self)
{
  self->sort_column = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dm_compare_view_new (void)
{
  return g_object_new (DM_TYPE_COMPARE_VIEW, NULL);
}
