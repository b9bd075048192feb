/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4 asks the display server where the pointer is each time a visible
 * widget's tooltip is set, in case the tooltip under it must change: on X
 * three round trips, for the same text too, and for a widget not yet on
 * screen. The window sets tooltips on the widgets it has just made (tiles,
 * row buttons, the target list's rows) and sets the same ones again on
 * each refresh; before its first frame that was some 60 round trips, each
 * a wait on the X server, long on a busy machine. A tooltip unchanged is
 * left alone, and one for a widget not on screen, where no pointer can be,
 * is set while the widget is held hidden, which GTK does not ask about.
 */
#include "dm-tooltip.h"

/* The root's focus is this widget or inside it: hiding it, even for a
 * moment, would take the focus away. */
static gboolean
holds_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  return focus && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

void
dm_tooltip_set (GtkWidget  *widget,
                const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) == 0)
    return;
  if (gtk_widget_get_visible (widget) && !gtk_widget_get_mapped (widget)
      && !holds_focus (widget))
    {
      gtk_widget_set_visible (widget, FALSE);
      gtk_widget_set_tooltip_text (widget, text);
      gtk_widget_set_visible (widget, TRUE);
    }
  else
    gtk_widget_set_tooltip_text (widget, text);
}
