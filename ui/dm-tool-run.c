/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run that the Sweep and Sustained windows each have: one DmJob on the
 * main window's machinery (thread, progress, cancellation), or a saved run
 * shown instead, the Save menu's chooser, and a disk as target only ever
 * read. The windows decide what their figures mean; this decides how a run
 * is held, ended and written, the same way in both.
 */
#include "dm-tool-run.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-file-dialog.h"
#include "dm-format.h"
#include "dm-platform.h"

/* The main window's words for a disk as target, so one sentence says it
 * wherever a disk is fixed to Read. */
static const char *const device_read_only =
  N_("A disk or partition is only read: writing to it would destroy its data "
     "(diskmeter-cli --destroy-data-on does that).");

void
dm_tool_run_init (DmToolRun     *run,
                  GtkWindow     *window,
                  GtkWidget     *status_label,
                  GtkWidget     *time_label,
                  GtkWidget     *progress_bar,
                  DmToolRunSave  save)
{
  *run = (DmToolRun) { .window = window, .status_label = status_label, .time_label = time_label,
                       .progress_bar = progress_bar, .save = save };
}

static void
drop_job (DmToolRun *run)
{
  if (run->job)
    {
      g_signal_handlers_disconnect_by_data (run->job, run->window);
      g_clear_object (&run->job);
    }
}

static void
release_app (DmToolRun *run)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (run->window));

  if (app)
    g_application_release (app);
}

void
dm_tool_run_dispose (DmToolRun *run)
{
  if (run->chooser)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (run->chooser));
      g_clear_object (&run->chooser);
    }
  /* The job's own dispose cancels and joins a run still going, and the
   * engine removes its test file before it returns. */
  if (dm_tool_run_is_running (run))
    release_app (run);
  drop_job (run);
}

void
dm_tool_run_finalize (DmToolRun *run)
{
  if (run->have_loaded)
    dm_report_clear (&run->loaded);
  run->have_loaded = FALSE;
  g_clear_pointer (&run->save_format, g_free);
}

gboolean
dm_tool_run_is_running (DmToolRun *run)
{
  return run->job && dm_job_is_running (run->job);
}

const dm_report *
dm_tool_run_shown (DmToolRun *run)
{
  if (run->job)
    return dm_tool_run_is_running (run) ? NULL : dm_job_get_report (run->job);
  return run->have_loaded ? &run->loaded : NULL;
}

void
dm_tool_run_clear (DmToolRun *run)
{
  drop_job (run);
  if (run->have_loaded)
    {
      dm_report_clear (&run->loaded);
      run->have_loaded = FALSE;
    }
}

void
dm_tool_run_take_loaded (DmToolRun *run,
                         dm_report *r)
{
  dm_tool_run_clear (run);
  run->loaded = *r;
  run->have_loaded = TRUE;
}

gboolean
dm_tool_run_read_file (const char  *path,
                       dm_report   *r,
                       char       **text,
                       gsize       *len,
                       GError     **error)
{
  char why[256] = "";

  memset (r, 0, sizeof *r);
  if (!g_file_get_contents (path, text, len, error))
    return FALSE;
  if (dm_report_load_json (r, *text, *len, why, sizeof why) < 0)
    {
      dm_report_clear (r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", path, why);
      return FALSE;
    }
  return TRUE;
}

gboolean
dm_tool_run_start (DmToolRun  *run,
                   DmJob      *job,
                   GCallback   on_progress,
                   GCallback   on_finished,
                   GError    **error)
{
  GApplication *app;

  drop_job (run);
  run->job = job;
  g_signal_connect (run->job, "progress", on_progress, run->window);
  g_signal_connect (run->job, "finished", on_finished, run->window);
  if (!dm_job_start (run->job, error))
    {
      drop_job (run);
      return FALSE;
    }
  /* Like the main window's runs: the application stays while the engine
   * still has to remove its test file. */
  app = G_APPLICATION (gtk_window_get_application (run->window));
  if (app)
    g_application_hold (app);
  return TRUE;
}

void
dm_tool_run_progress (DmToolRun           *run,
                      const DmJobProgress *p)
{
  g_autofree char *left = dm_format_seconds_left (p->seconds_left);

  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (run->progress_bar), CLAMP (p->fraction, 0, 1));
  gtk_label_set_text (GTK_LABEL (run->time_label), left);
}

void
dm_tool_run_finished (DmToolRun       *run,
                      const dm_report *r)
{
  release_app (run);
  gtk_label_set_text (GTK_LABEL (run->time_label), "");
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (run->progress_bar),
                                 r->status == DM_STATUS_COMPLETE ? 1 : 0);
}

void
dm_tool_run_stop (DmToolRun *run)
{
  if (dm_tool_run_is_running (run))
    {
      dm_job_cancel (run->job);
      gtk_label_set_text (GTK_LABEL (run->status_label), _("Stopping…"));
    }
}

/* --- saving ---------------------------------------------------------------- */

gboolean
dm_tool_run_write (dm_buf      *buf,
                   const char  *path,
                   GError     **error)
{
  int err = buf->error ? buf->error : dm_write_file_atomic (path, buf);

  dm_buf_free (buf);
  if (err < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-err), _("Could not write %s: %s"),
                   path, g_strerror (-err));
      return FALSE;
    }
  return TRUE;
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  DmToolRun       *run)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);
  g_autoptr (GError) error = NULL;

  g_clear_object (&run->chooser);
  if (!path)
    return;
  if (!run->save (run->window, run->save_format, path, &error))
    gtk_label_set_text (GTK_LABEL (run->status_label), error->message);
  else
    {
      g_autofree char *msg = g_strdup_printf (_("Saved %s"), path);
      gtk_label_set_text (GTK_LABEL (run->status_label), msg);
    }
}

void
dm_tool_run_save_as (DmToolRun  *run,
                     const char *format,
                     const char *title,
                     const char *name)
{
  if (run->chooser)
    return;
  g_free (run->save_format);
  run->save_format = g_strdup (format);
  run->chooser = dm_file_dialog_new_save (run->window, title, name);
  g_signal_connect (run->chooser, "response", G_CALLBACK (on_save_response), run);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (run->chooser));
}

/* --- the target ------------------------------------------------------------ */

char *
dm_tool_run_first_target (GSettings *settings)
{
  g_autofree char *target = settings ? g_settings_get_string (settings, "target") : NULL;

  if (!target || !target[0])
    return g_strdup (g_get_home_dir ());
  return g_steal_pointer (&target);
}

char *
dm_tool_run_target (GtkWidget *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  return g_strdup (text[0] ? text : g_get_home_dir ());
}

void
dm_tool_run_set_mode (DmToolRun   *run,
                      GtkDropDown *mode_dropdown,
                      guint        read_index)
{
  run->mode_dropdown = mode_dropdown;
  run->read_index = read_index;
}

gboolean
dm_tool_run_check_target (DmToolRun  *run,
                          const char *target)
{
  dm_target_info t;
  /* A folder is told by one stat, as the path is typed; anything else is
   * probed (a disk, or \\.\PhysicalDrive1 on Windows). */
  gboolean device = target && target[0] && !g_file_test (target, G_FILE_TEST_IS_DIR)
                    && dm_target_probe (target, &t) == 0 && t.is_block_device;
  gboolean was = run->device;

  run->device = device;
  if (!run->mode_dropdown || device == was)
    return device;
  /* A disk holds someone's data: it is read, whatever was chosen for a
   * folder, and that choice comes back with a folder. */
  if (device)
    {
      run->mode_before = gtk_drop_down_get_selected (run->mode_dropdown);
      gtk_drop_down_set_selected (run->mode_dropdown, run->read_index);
    }
  else
    gtk_drop_down_set_selected (run->mode_dropdown, run->mode_before);
  gtk_widget_set_sensitive (GTK_WIDGET (run->mode_dropdown), !device);
  gtk_widget_set_tooltip_text (GTK_WIDGET (run->mode_dropdown),
                               device ? _(device_read_only) : NULL);
  return device;
}

const char *
dm_tool_run_device_note (void)
{
  return _(device_read_only);
}
