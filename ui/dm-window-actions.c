/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the menus, the shortcuts and D-Bus reach: runs, copies and saves in
 * every format (with a file chooser, or to a path for scripts), the
 * limits, a folder to compare with and the zoom. The target's, the grid's
 * and the history's actions are in their own files.
 */
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include "dm-file-dialog.h"
#include "dm-latency-view.h"
#include "dm-pdf.h"
#include "dm-screenshot.h"
#include "dm-study-actions.h"
#include "dm-sustained-window.h"
#include "dm-sweep-window.h"
#include "dm-thresholds-dialog.h"
#include "dm-zoom.h"

/* --- saves ----------------------------------------------------------------- */

gboolean
dm_window_save_screenshot (DmWindow    *self,
                           const char  *path,
                           GError     **error)
{
  /* The sweep window saves its PNG the same way. A scripted screenshot
   * may ask for a larger, sharper picture. */
  double scale = dm_script_screenshot_scale (self);

  return dm_screenshot_save_scaled (GTK_WIDGET (self), self->content, scale, path, error);
}

static void
on_screenshot_after_paint (GdkFrameClock *clock,
                           DmWindow      *self)
{
  g_autofree char *path = g_object_steal_data (G_OBJECT (self), "dm-screenshot-path");
  DmExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "dm-screenshot-kind"));
  g_autoptr (GError) error = NULL;

  g_signal_handlers_disconnect_by_func (clock, on_screenshot_after_paint, self);
  if (!path)
    return;
  if (!_dm_window_export_to (self, kind, path, &error))
    dm_window_show_error (self, error->message);
  else
    {
      g_autofree char *status = g_strdup_printf (_("Saved %s"), path);
      _dm_window_set_status (self, status);
    }
}

static void
export_and_report (DmWindow     *self,
                   DmExportKind  kind,
                   const char   *path)
{
  g_autoptr (GError) error = NULL;

  /* A screenshot (or a PDF, drawn the same way) waits for the next paint,
   * when every widget's drawing is up to date (a live tile may have just
   * changed). */
  if ((kind == DM_EXPORT_PNG || kind == DM_EXPORT_PDF) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
      gboolean pending = g_object_get_data (G_OBJECT (self), "dm-screenshot-path") != NULL;

      g_object_set_data_full (G_OBJECT (self), "dm-screenshot-path", g_strdup (path), g_free);
      g_object_set_data (G_OBJECT (self), "dm-screenshot-kind", GINT_TO_POINTER (kind));
      if (!pending)
        g_signal_connect (clock, "after-paint", G_CALLBACK (on_screenshot_after_paint), self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  if (!_dm_window_export_to (self, kind, path, &error))
    dm_window_show_error (self, error->message);
  else
    {
      g_autofree char *status = g_strdup_printf (_("Saved %s"), path);
      _dm_window_set_status (self, status);
    }
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  DmWindow        *self)
{
  DmExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "dm-kind"));
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    export_and_report (self, kind, path);
  g_object_unref (dialog);
}

static void
save_with_chooser (DmWindow     *self,
                   DmExportKind  kind)
{
  static const char *const ext[] = { "txt", "json", "csv", "png", "pdf" };
  static const char *const titles[] = { N_("Save Results as Text"), N_("Save Results as JSON"),
                                        N_("Save Results as CSV"), N_("Save Screenshot"),
                                        N_("Save as PDF") };
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d%H%M%S");
  g_autofree char *name = g_strdup_printf ("Diskmeter_%s.%s", stamp, ext[kind]);
  GtkFileChooserNative *chooser;

  chooser = dm_file_dialog_new_save (GTK_WINDOW (self), _(titles[kind]), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "dm-kind", GINT_TO_POINTER (kind));
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A page of the latency detail of res (finished), as opening its tile
 * shows it; run names the comparison's run it is of, or is NULL. */
static gboolean
add_latency_page (DmWindow         *self,
                  DmPdf            *pdf,
                  const dm_report  *report,
                  const dm_result  *res,
                  const char       *run,
                  GError          **error)
{
  g_autofree char *title = NULL;
  g_autoptr (GtkWidget) view = NULL;
  gboolean added;
  char label[64];

  dm_spec_label (&res->spec, label, sizeof label);
  /* A workload row by its name, as its tile's detail opens it. */
  if (res->shaped && res->workload.name[0])
    title = g_strdup (res->workload.name);
  else if (run)
    title = g_strdup_printf ("%s %s (%s)", label, dm_mode_title (res->mode), run);
  else
    title = g_strdup_printf ("%s %s", label, dm_mode_title (res->mode));
  /* Held: closed by hand while it is drawn, it is still destroyed once. */
  view = g_object_ref (dm_latency_view_new (GTK_WINDOW (self), title, res));
  dm_latency_view_set_device_note (DM_LATENCY_VIEW (view), report->device_note);
  added = dm_pdf_add_presented (pdf, GTK_WINDOW (view), error);
  gtk_window_destroy (GTK_WINDOW (view));
  return added;
}

/* Save as PDF: the window as on screen (the grid or the comparison, with
 * its footer), then the latency detail of each test it shows, in its
 * order (for a comparison each run's, side by side), then the Sweep and
 * Sustained windows that show a run. */
static gboolean
write_pdf (DmWindow    *self,
           const char  *path,
           GError     **error)
{
  g_autoptr (DmPdf) pdf = dm_pdf_new (gtk_window_get_title (GTK_WINDOW (self)));
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  const dm_compare *compare = dm_comparison_get_compare (self->comparison);
  g_autolist (GtkWindow) windows = NULL;

  if (!dm_pdf_add_window (pdf, GTK_WIDGET (self), self->content, error))
    return FALSE;
  for (guint r = 0; compare && r < compare->n_rows; r++)
    for (guint i = 0; i < compare->n_runs; i++)
      {
        const dm_result *res = dm_report_find (compare->runs[i], &compare->rows[r].spec,
                                               compare->rows[r].mode);

        if (res && res->status == DM_STATUS_COMPLETE
            && !add_latency_page (self, pdf, compare->runs[i], res, compare->names[i], error))
          return FALSE;
      }
  for (guint i = 0; !compare && self->shaped && i < self->report.n_results; i++)
    if (self->report.results[i].status == DM_STATUS_COMPLETE
        && !add_latency_page (self, pdf, &self->report, &self->report.results[i], NULL, error))
      return FALSE;
  for (guint r = 0; !compare && !self->shaped && r < self->layout.n_rows; r++)
    for (guint c = 0; c < self->layout.n_columns; c++)
      {
        const dm_result *res = dm_report_find (&self->report, &self->layout.rows[r],
                                               self->layout.columns[c]);

        if (res && res->status == DM_STATUS_COMPLETE
            && !add_latency_page (self, pdf, &self->report, res, NULL, error))
          return FALSE;
      }
  /* The sweeps first, then the sustained runs, whichever was in front;
   * from a copy of the list, which presenting each one reorders, each
   * held while the main loop runs (its user may close it meanwhile). */
  windows = app ? g_list_copy (gtk_application_get_windows (app)) : NULL;
  g_list_foreach (windows, (GFunc) (void (*) (void)) g_object_ref, NULL);
  for (int pass = 0; pass < 2; pass++)
    for (GList *l = windows; l; l = l->next)
      {
        gboolean shows = pass == 0 ? DM_IS_SWEEP_WINDOW (l->data)
                                     && dm_sweep_window_has_results (l->data)
                                   : DM_IS_SUSTAINED_WINDOW (l->data)
                                     && dm_sustained_window_count_samples (l->data) > 0;

        if (shows && gtk_widget_get_visible (l->data)
            && !dm_pdf_add_presented (pdf, l->data, error))
          return FALSE;
      }
  /* The Save came from here: back in front once the others were drawn. */
  if (dm_pdf_get_n_pages (pdf) > 1)
    gtk_window_present (GTK_WINDOW (self));
  return dm_pdf_save (pdf, path, error);
}

gboolean
_dm_window_save_pdf (DmWindow    *self,
                     const char  *path,
                     GError     **error)
{
  g_autoptr (DmWindow) held = g_object_ref (self);
  gboolean ok;

  /* The main loop runs while the pages are drawn: a second Save as PDF
   * (the menu, D-Bus) meanwhile waits for none and is refused; the window
   * is held, should it be closed meanwhile. */
  if (g_object_get_data (G_OBJECT (self), "dm-pdf-saving"))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("A PDF is being saved already; try again when it is done"));
      return FALSE;
    }
  g_object_set_data (G_OBJECT (self), "dm-pdf-saving", GINT_TO_POINTER (1));
  ok = write_pdf (self, path, error);
  g_object_set_data (G_OBJECT (self), "dm-pdf-saving", NULL);
  return ok;
}

/* --- actions --------------------------------------------------------------- */

static void
action_run_all (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  _dm_window_start (DM_WINDOW (widget), -1);
}

static void
action_run_row (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  int row = g_variant_get_int32 (param);

  if (self->layout_stale)
    _dm_window_rebuild_grid (self);
  if (row < 0 || (guint) row >= (self->shaped ? self->report.n_results : self->layout.n_rows))
    {
      g_autofree char *m = g_strdup_printf (_("There is no test row %d in this profile."), row);
      dm_window_show_error (self, m);
      return;
    }
  _dm_window_start (self, row);
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);

  if (self->job)
    {
      dm_job_cancel (self->job);
      _dm_window_set_status (self, _("Stopping…"));
    }
}

static void
action_copy_text (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  dm_buf buf;

  _dm_window_sync_comment (self);
  dm_buf_init (&buf);
  _dm_window_write (self, DM_EXPORT_TEXT, &buf);
  if (!buf.error && buf.data)
    {
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), buf.data);
      _dm_window_set_status (self, _("Results copied as text"));
    }
  dm_buf_free (&buf);
}

/* Ctrl+C. Application shortcuts come before the focused widget's in GTK 4,
 * so with text selected in the comment this copies that text, as Ctrl+C
 * does anywhere; otherwise the results. */
static void
action_copy (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  int start, end;

  if (focus && GTK_IS_EDITABLE (focus)
      && gtk_editable_get_selection_bounds (GTK_EDITABLE (focus), &start, &end))
    gtk_widget_activate_action (focus, "clipboard.copy", NULL);
  else
    action_copy_text (widget, "win.copy-text", param);
}

/* save-text, save-json-to, ...: the format is in the action's name. */
static DmExportKind
export_kind_of (const char *name)
{
  if (g_str_has_prefix (name, "win.save-json"))
    return DM_EXPORT_JSON;
  if (g_str_has_prefix (name, "win.save-csv"))
    return DM_EXPORT_CSV;
  if (g_str_has_prefix (name, "win.save-screenshot"))
    return DM_EXPORT_PNG;
  if (g_str_has_prefix (name, "win.save-pdf"))
    return DM_EXPORT_PDF;
  return DM_EXPORT_TEXT;
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  save_with_chooser (DM_WINDOW (widget), export_kind_of (action_name));
}

static void
action_save_to (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  export_and_report (DM_WINDOW (widget), export_kind_of (action_name),
                     g_variant_get_string (param, NULL));
}

static void
action_thresholds (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);

  gtk_window_present (GTK_WINDOW (dm_thresholds_dialog_new (GTK_WINDOW (self), self->settings)));
}

static void
on_compare_folder_chosen (GtkNativeDialog *dialog,
                          int              response,
                          DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    {
      g_autofree char *status = g_strdup_printf (_("All compares with %s, measured in turns"), path);
      dm_window_set_compare_target (self, path);
      _dm_window_set_status (self, status);
    }
  g_object_unref (dialog);
}

static void
action_compare_folder (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Compare With Folder"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Select",
                                         "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_compare_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
action_compare_off (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);

  dm_window_set_compare_target (self, NULL);
  if (!self->job)
    dm_comparison_hide (self->comparison);
  _dm_window_set_status (self, _("All measures the target alone"));
}

/* Open Profile…: a profile file of the user's, loaded before it is kept
 * (the profile-file property refuses one that does not load). */
static void
on_profile_chosen (GtkNativeDialog *dialog,
                   int              response,
                   DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    g_object_set (self, "profile-file", path, NULL);
  g_object_unref (dialog);
}

static void
action_open_profile (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr (GtkFileFilter) ini = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Open Profile"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (ini, _("Profile files"));
  gtk_file_filter_add_pattern (ini, "*.ini");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), ini);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_profile_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Ctrl+plus, Ctrl+minus, Ctrl+0: the zoom is a setting, kept for next time. */
static void
action_zoom (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  DmWindow *self = DM_WINDOW (widget);
  int direction = g_str_equal (action_name, "win.zoom-in") ? 1
                  : g_str_equal (action_name, "win.zoom-out") ? -1 : 0;

  g_settings_set_int (self->settings, "zoom",
                      dm_zoom_step (g_settings_get_int (self->settings, "zoom"), direction));
}

/* The window's actions, for its menus, buttons and shortcuts. The
 * application forwards each to the main window under the same name
 * without "win.", which is what `gapplication action` reaches. */
void
_dm_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.run-all", NULL, action_run_all);
  gtk_widget_class_install_action (widget_class, "win.run-row", "i", action_run_row);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "win.copy", NULL, action_copy);
  gtk_widget_class_install_action (widget_class, "win.copy-text", NULL, action_copy_text);
  gtk_widget_class_install_action (widget_class, "win.save-text", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-json", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-csv", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-pdf", NULL, action_save);
  /* For scripts: `gapplication action ID save-json-to "'/tmp/r.json'"`. */
  gtk_widget_class_install_action (widget_class, "win.save-text-to", "s", action_save_to);
  gtk_widget_class_install_action (widget_class, "win.save-json-to", "s", action_save_to);
  gtk_widget_class_install_action (widget_class, "win.save-csv-to", "s", action_save_to);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot-to", "s", action_save_to);
  gtk_widget_class_install_action (widget_class, "win.save-pdf-to", "s", action_save_to);
  gtk_widget_class_install_action (widget_class, "win.thresholds", NULL, action_thresholds);
  gtk_widget_class_install_action (widget_class, "win.compare-folder", NULL, action_compare_folder);
  gtk_widget_class_install_action (widget_class, "win.compare-off", NULL, action_compare_off);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-reset", NULL, action_zoom);
  /* All, Read only, Write only: stateful, its state the modes setting. */
  gtk_widget_class_install_property_action (widget_class, "win.modes", "modes");
  /* The Profile menu's workloads, and for scripts any profile file:
   * `gapplication action ID profile-file "'/path/oltp.ini'"`. */
  gtk_widget_class_install_property_action (widget_class, "win.profile-file", "profile-file");
  gtk_widget_class_install_action (widget_class, "win.open-profile", NULL, action_open_profile);
  dm_study_actions_install (widget_class);
  gtk_widget_class_bind_template_child_full (widget_class, "menu_button", FALSE, 0);
}

/* --- the main menu --------------------------------------------------------- */

/* Its popover holds a button for each entry, which the first frame does
 * not show: it is made when the menu is first opened (by the pointer, F10
 * or a script), not at start, where it raised the start-up peak memory by
 * some 0.7 MB. Its model, half of the window's template when it was in
 * it, is read from its own file then too. */
static GtkMenuButton *
menu_button (DmWindow *self)
{
  return GTK_MENU_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (self), DM_TYPE_WINDOW,
                                                         "menu_button"));
}

static void
create_menu (GtkMenuButton *button,
             gpointer       unused)
{
  if (!gtk_menu_button_get_menu_model (button))
    {
      g_autoptr (GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/diskmeter/Diskmeter/dm-window-menu.ui");

      gtk_menu_button_set_menu_model (
        button, G_MENU_MODEL (gtk_builder_get_object (builder, "primary_menu")));
    }
}

void
_dm_window_menu_init (DmWindow *self)
{
  gtk_menu_button_set_create_popup_func (menu_button (self), create_menu, NULL, NULL);
}

/* Which actions make sense now: one run at a time, Stop only during one,
 * Stop Comparing only with a folder to compare with or runs compared on
 * screen. */
void
_dm_window_actions_update (DmWindow *self)
{
  gboolean running = self->job != NULL;
  gboolean comparing = self->comparison
                       && (dm_comparison_get_target (self->comparison)
                           || dm_comparison_get_shown (self->comparison));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-all", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-row", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-off", comparing);
}
