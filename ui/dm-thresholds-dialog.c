/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Administrators keep their limits in spreadsheets as short sentences, so
 * the dialog takes them as text rather than a form of dropdowns; a rule
 * that does not parse keeps the dialog open with the engine's reason.
 */
#include "dm-thresholds-dialog.h"

#include <errno.h>
#include <string.h>

struct _DmThresholdsDialog
{
  GtkWindow  parent_instance;

  GtkWidget *text_view;
  GtkWidget *error_label;
  GtkWidget *save_button;
  GtkWidget *cancel_button;

  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (DmThresholdsDialog, dm_thresholds_dialog, GTK_TYPE_WINDOW)

int
dm_thresholds_parse_lines (const char   *text,
                           dm_threshold *rules,
                           unsigned     *n_rules,
                           char         *why,
                           size_t        why_size)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  *n_rules = 0;
  for (guint i = 0; lines[i]; i++)
    {
      const char *line = g_strstrip (lines[i]);
      char reason[200] = "";

      if (!line[0] || line[0] == '#')
        continue;
      if (*n_rules >= DM_THRESHOLDS_MAX)
        {
          g_snprintf (why, why_size, "Line %u: at most %d rules", i + 1, DM_THRESHOLDS_MAX);
          return -EINVAL;
        }
      if (dm_threshold_parse (line, &rules[*n_rules], reason, sizeof reason) < 0)
        {
          g_snprintf (why, why_size, "Line %u: %s", i + 1, reason);
          return -EINVAL;
        }
      (*n_rules)++;
    }
  return 0;
}

unsigned
dm_thresholds_from_settings (GSettings    *settings,
                             dm_threshold *rules)
{
  g_auto (GStrv) saved = g_settings_get_strv (settings, "thresholds");
  unsigned n = 0;

  for (guint i = 0; saved[i] && n < DM_THRESHOLDS_MAX; i++)
    if (dm_threshold_parse (saved[i], &rules[n], NULL, 0) == 0)
      n++;
  return n;
}

static void
on_save (DmThresholdsDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  dm_threshold rules[DM_THRESHOLDS_MAX];
  const char *strv[DM_THRESHOLDS_MAX + 1];
  char formatted[DM_THRESHOLDS_MAX][200];
  unsigned n;
  char why[256];

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (dm_thresholds_parse_lines (text, rules, &n, why, sizeof why) < 0)
    {
      gtk_label_set_text (GTK_LABEL (self->error_label), why);
      return;
    }
  /* Saved in the engine's own spelling, so the key reads the same
   * whichever way a rule was typed. */
  for (unsigned i = 0; i < n; i++)
    {
      dm_threshold_format (&rules[i], formatted[i], sizeof formatted[i]);
      strv[i] = formatted[i];
    }
  strv[n] = NULL;
  g_settings_set_strv (self->settings, "thresholds", strv);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
dm_thresholds_dialog_dispose (GObject *object)
{
  DmThresholdsDialog *self = DM_THRESHOLDS_DIALOG (object);

  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), DM_TYPE_THRESHOLDS_DIALOG);
  G_OBJECT_CLASS (dm_thresholds_dialog_parent_class)->dispose (object);
}

static void
dm_thresholds_dialog_class_init (DmThresholdsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_thresholds_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-thresholds-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DmThresholdsDialog, text_view);
  gtk_widget_class_bind_template_child (widget_class, DmThresholdsDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DmThresholdsDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, DmThresholdsDialog, cancel_button);
}

static void
dm_thresholds_dialog_init (DmThresholdsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (on_save), self);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (gtk_window_destroy), self);
}

DmThresholdsDialog *
dm_thresholds_dialog_new (GtkWindow *parent,
                          GSettings *settings)
{
  DmThresholdsDialog *self = g_object_new (DM_TYPE_THRESHOLDS_DIALOG, "transient-for", parent,
                                           NULL);
  g_auto (GStrv) saved = g_settings_get_strv (settings, "thresholds");
  g_autofree char *text = g_strjoinv ("\n", saved);

  self->settings = g_object_ref (settings);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)), text, -1);
  return self;
}
