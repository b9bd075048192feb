/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of the target popup that is never wider than its window. DmChoice,
 * as GtkDropDown, makes its popup at least as wide as itself and as wide
 * as the rows need; a row here needs its labels' natural width up to the
 * window's.
 */
#include "dm-target-row.h"

/* What the popup adds around a row (its frame, padding and shadow), so
 * the popup as a whole fits in the window, not just its rows. */
#define POPUP_FRAME_PX 32

struct _DmTargetRow
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (DmTargetRow, dm_target_row, GTK_TYPE_WIDGET)

static void
dm_target_row_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (!child)
    return;
  gtk_widget_measure (child, orientation, for_size, minimum, natural, minimum_baseline,
                      natural_baseline);
  /* The popup's scrolled list is as wide as its rows' minimum, not their
   * natural width: the row asks for its natural width as its minimum. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL && root
      && gtk_widget_get_width (GTK_WIDGET (root)) > 0)
    *minimum = *natural = MAX (*minimum, MIN (*natural, gtk_widget_get_width (GTK_WIDGET (root))
                                                          - POPUP_FRAME_PX));
}

static void
dm_target_row_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child)
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static void
dm_target_row_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (dm_target_row_parent_class)->dispose (object);
}

static void
dm_target_row_class_init (DmTargetRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dm_target_row_dispose;
  widget_class->measure = dm_target_row_measure;
  widget_class->size_allocate = dm_target_row_size_allocate;
}

static void
dm_target_row_init (DmTargetRow *self)
{
}

GtkWidget *
dm_target_row_new (GtkWidget *child)
{
  GtkWidget *self = g_object_new (DM_TYPE_TARGET_ROW, NULL);

  gtk_widget_set_parent (child, self);
  return self;
}
