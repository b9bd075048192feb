/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window's way to the Study window: the Tools menu's Study… and
 * the actions a script reaches over D-Bus (`gapplication action ID
 * study-open "'/path/plan.txt'"`, study-start, study-stop,
 * study-green-only true, study-sort "'-Read SEQ1M MB/s'", study-save-csv-to,
 * study-save-xlsx-to, study-save-png-to). Each finds the application's
 * Study window, or opens one; the window does the rest.
 */
#include "dm-study-actions.h"

#include "dm-frame-wait.h"
#include "dm-study-window.h"

static DmStudyWindow *
study_window (GtkWidget *widget,
              gboolean   create)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (widget));

  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l; l = l->next)
    if (DM_IS_STUDY_WINDOW (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  if (!create)
    return NULL;
  return DM_STUDY_WINDOW (dm_study_window_new (app));
}

static void
action_study (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_present (GTK_WINDOW (study_window (widget, TRUE)));
}

static void
action_study_open (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DmStudyWindow *study = study_window (widget, TRUE);
  g_autoptr (GError) error = NULL;

  gtk_window_present (GTK_WINDOW (study));
  /* A bad plan: its reason on the window's status line and on stderr,
   * for the script that asked. */
  if (!dm_study_window_open (study, g_variant_get_string (parameter, NULL), &error))
    g_printerr ("diskmeter: %s\n", error->message);
}

static void
action_study_run (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DmStudyWindow *study = study_window (widget, FALSE);

  if (!study)
    return;
  if (g_str_equal (action_name, "win.study-start"))
    dm_study_window_start (study);
  else
    dm_study_window_stop (study);
}

static void
action_study_green_only (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  DmStudyWindow *study = study_window (widget, FALSE);

  if (study)
    dm_study_window_set_green_only (study, g_variant_get_boolean (parameter));
}

static void
action_study_sort (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DmStudyWindow *study = study_window (widget, FALSE);
  const char *title = g_variant_get_string (parameter, NULL);
  gboolean descending = title[0] == '-';

  if (study && !dm_study_window_sort_by (study, title + descending, descending))
    g_printerr ("diskmeter: study-sort: no column %s\n", title + descending);
}

/* A PNG right after a paint, so it shows the table as last filled. */
static void
save_png_after_paint (GtkWidget *window)
{
  g_autofree char *path = g_object_steal_data (G_OBJECT (window), "dm-study-png");
  g_autoptr (GError) error = NULL;

  if (path && !dm_study_window_save (DM_STUDY_WINDOW (window), "png", path, &error))
    g_printerr ("diskmeter: %s\n", error->message);
}

static void
action_study_save_to (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DmStudyWindow *study = study_window (widget, FALSE);
  const char *path = g_variant_get_string (parameter, NULL);
  g_autoptr (GError) error = NULL;
  const char *format = g_str_equal (action_name, "win.study-save-csv-to")    ? "csv"
                       : g_str_equal (action_name, "win.study-save-xlsx-to") ? "xlsx"
                                                                              : "png";

  if (!study)
    {
      g_printerr ("diskmeter: %s: no Study window is open\n", action_name + 4);
      return;
    }
  if (g_str_equal (format, "png"))
    {
      g_object_set_data_full (G_OBJECT (study), "dm-study-png", g_strdup (path), g_free);
      dm_frame_wait_paint (GTK_WIDGET (study), save_png_after_paint);
      return;
    }
  if (!dm_study_window_save (study, format, path, &error))
    g_printerr ("diskmeter: %s\n", error->message);
}

void
dm_study_actions_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.study", NULL, action_study);
  gtk_widget_class_install_action (widget_class, "win.study-open", "s", action_study_open);
  gtk_widget_class_install_action (widget_class, "win.study-start", NULL, action_study_run);
  gtk_widget_class_install_action (widget_class, "win.study-stop", NULL, action_study_run);
  gtk_widget_class_install_action (widget_class, "win.study-green-only", "b",
                                   action_study_green_only);
  gtk_widget_class_install_action (widget_class, "win.study-sort", "s", action_study_sort);
  gtk_widget_class_install_action (widget_class, "win.study-save-csv-to", "s",
                                   action_study_save_to);
  gtk_widget_class_install_action (widget_class, "win.study-save-xlsx-to", "s",
                                   action_study_save_to);
  gtk_widget_class_install_action (widget_class, "win.study-save-png-to", "s",
                                   action_study_save_to);
}
