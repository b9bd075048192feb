/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Capture window runs the engine's dm_capture_run on a worker thread
 * of its own, as diskmeter-cli capture does on its main one: the worker
 * only captures and, every 100 ms, publishes how far it is under a lock;
 * the main loop polls that, draws the progress and, once the worker has
 * ended, joins it and shows the capture. Cancel sets the capture's own
 * cancel flag, which ends it with what it saw, as Ctrl-C ends the CLI's.
 * Headroom runs the captured workload as diskmeter-cli --headroom does,
 * on an ordinary DmJob (its worker thread, cancel and test-file removal
 * the main window's), and shows the engine's ladder and sentence.
 */
#include "dm-capture-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include <glib/gstdio.h>

#include "dm-capture-chart.h"
#include "dm-capture-text.h"
#include "dm-file-dialog.h"
#include "dm-headroom.h"
#include "dm-job.h"
#include "dm-platform.h"
#include "dm-reason.h"
#include "dm-screenshot.h"
#include "dm-tool-run.h"
#include "dm-units.h"

/* One capture: the worker's, then the window's once it has ended. */
typedef struct
{
  dm_capture   c;
  char        *target;
  double       seconds;
  atomic_int   cancel;
  atomic_int   ended;      /* the worker has returned */
  int          err;
  char         why[400];
  GThread     *thread;
  /* Published by the worker under lock, read by the main loop. */
  GMutex       lock;
  gboolean     begun;      /* the source is chosen: disk and from are set */
  double       done;       /* seconds captured */
  double       iops;       /* over the last second */
  char         disk[64];
  dm_capture_from from;
  char         from_why[320];
} Capture;

struct _DmCaptureWindow
{
  GtkWindow   parent_instance;

  /* template children */
  GtkWidget  *content;
  GtkWidget  *duration_entry;
  GtkWidget  *target_entry;
  GtkWidget  *status_label;
  GtkWidget  *progress_bar;
  GtkWidget  *chart;
  GtkWidget  *summary_label;
  GtkWidget  *headroom_entry;
  GtkWidget  *headroom_label;

  GSettings  *settings;   /* may be NULL */
  DmJob      *headroom;   /* the headroom running, or the last one */
  GApplication *held;     /* held while a headroom may have a test file */
  Capture    *running;    /* the capture under way, or NULL */
  Capture    *shown;      /* the last one that ended, or NULL */
  guint       poll_id;
  GtkFileChooserNative *chooser;
};

enum { USE_PROFILE, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (DmCaptureWindow, dm_capture_window, GTK_TYPE_WINDOW)

static void
capture_free (Capture *k)
{
  if (!k)
    return;
  dm_capture_clear (&k->c);
  g_mutex_clear (&k->lock);
  g_free (k->target);
  g_free (k);
}

/* --- the worker ------------------------------------------------------------ */

static void
on_progress (void             *user,
             const dm_capture *c,
             double            done)
{
  Capture *k = user;
  unsigned ticks = MIN (c->n_ticks, 10);
  uint64_t n = 0;

  /* Called between two reads of the events, never per request. */
  for (unsigned i = c->n_ticks - ticks; i < c->n_ticks; i++)
    n += c->ticks[i][0] + c->ticks[i][1];
  g_mutex_lock (&k->lock);
  if (!k->begun)
    {
      k->begun = TRUE;
      g_strlcpy (k->disk, c->disk, sizeof k->disk);
      k->from = c->from;
      g_strlcpy (k->from_why, c->from_why, sizeof k->from_why);
    }
  k->done = done;
  k->iops = ticks ? (double) n * 10 / ticks : 0;
  g_mutex_unlock (&k->lock);
}

static gpointer
capture_thread (gpointer data)
{
  Capture *k = data;

  k->err = dm_capture_run (&k->c, k->target, k->seconds, &k->cancel, on_progress, k, k->why,
                           sizeof k->why);
  atomic_store (&k->ended, 1);
  return NULL;
}

/* --- the main loop's side --------------------------------------------------- */

static void
update_actions (DmCaptureWindow *self)
{
  gboolean rows = self->shown && self->shown->c.from == DM_CAPTURE_FROM_EVENTS
                  && self->shown->c.dir[DM_CAPTURE_ALL].requests > 0;

  gboolean busy = self->running || (self->headroom && dm_job_is_running (self->headroom));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "capture.start", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "capture.stop", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "capture.use-row", rows && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "capture.headroom", rows && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "capture.save", self->shown && !busy);
  gtk_widget_set_visible (self->progress_bar, busy);
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  DmCaptureWindow *self = data;

  dm_capture_chart_draw (GTK_WIDGET (area), cr, width, height,
                         self->shown ? &self->shown->c : NULL);
}

static void
finish (DmCaptureWindow *self)
{
  Capture *k = g_steal_pointer (&self->running);
  char shown[400];

  g_thread_join (k->thread);
  k->thread = NULL;
  if (k->err < 0)
    {
      g_autofree char *text = g_strdup_printf (_("Cannot capture: %s"),
                                               dm_reason_shown (k->why, shown, sizeof shown));

      gtk_label_set_text (GTK_LABEL (self->status_label), text);
      capture_free (k);
    }
  else
    {
      g_autofree char *summary = dm_capture_text_summary (&k->c);

      capture_free (self->shown);
      self->shown = k;
      gtk_label_set_text (GTK_LABEL (self->summary_label), summary);
      gtk_label_set_text (GTK_LABEL (self->status_label),
                          k->c.interrupted ? _("Cancelled: this is what it saw until then.")
                                           : _("Done."));
    }
  gtk_widget_queue_draw (self->chart);
  update_actions (self);
}

static gboolean
poll_capture (gpointer data)
{
  DmCaptureWindow *self = data;
  Capture *k = self->running;
  g_autofree char *text = NULL;
  char shown[400];

  if (atomic_load (&k->ended))
    {
      self->poll_id = 0;
      finish (self);
      return G_SOURCE_REMOVE;
    }
  g_mutex_lock (&k->lock);
  if (k->begun && k->from == DM_CAPTURE_FROM_EVENTS)
    text = g_strdup_printf (_("Capturing %s from the kernel's request events: %.1f s of %g s, "
                              "%.0f IOPS"), k->disk, k->done, k->seconds, k->iops);
  else if (k->begun)
    text = g_strdup_printf (_("Capturing %s from the disk's counters (no request events: %s): "
                              "%.1f s of %g s, %.0f IOPS"), k->disk,
                            dm_reason_shown (k->from_why, shown, sizeof shown), k->done,
                            k->seconds, k->iops);
  if (text)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                   CLAMP (k->done / k->seconds, 0, 1));
  g_mutex_unlock (&k->lock);
  if (text)
    gtk_label_set_text (GTK_LABEL (self->status_label), text);
  return G_SOURCE_CONTINUE;
}

gboolean
dm_capture_window_start (DmCaptureWindow *self,
                         GError         **error)
{
  const char *duration = gtk_editable_get_text (GTK_EDITABLE (self->duration_entry));
  char inner[200] = "";
  double seconds = 0;
  Capture *k;

  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), FALSE);
  if (self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("A capture is under way"));
      return FALSE;
    }
  if (dm_duration_parse (duration, &seconds, inner, sizeof inner) < 0 || seconds < 1
      || seconds > DM_CAPTURE_SECONDS_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Duration: %s"),
                   inner[0] ? inner : _("from 1 s to 24 h"));
      return FALSE;
    }
  k = g_new0 (Capture, 1);
  g_mutex_init (&k->lock);
  dm_capture_init (&k->c);
  k->target = dm_tool_run_target (self->target_entry);
  k->seconds = seconds;
  atomic_init (&k->cancel, 0);
  atomic_init (&k->ended, 0);
  k->thread = g_thread_try_new ("dm-capture", capture_thread, k, error);
  if (!k->thread)
    {
      capture_free (k);
      return FALSE;
    }
  self->running = k;
  self->poll_id = g_timeout_add (100, poll_capture, self);
  gtk_label_set_text (GTK_LABEL (self->status_label), _("Starting the capture…"));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  update_actions (self);
  return TRUE;
}

void
dm_capture_window_stop (DmCaptureWindow *self)
{
  g_return_if_fail (DM_IS_CAPTURE_WINDOW (self));

  if (self->running)
    atomic_store (&self->running->cancel, 1);
  if (self->headroom && dm_job_is_running (self->headroom))
    dm_job_cancel (self->headroom);
}

gboolean
dm_capture_window_is_running (DmCaptureWindow *self)
{
  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), FALSE);
  return self->running != NULL || (self->headroom && dm_job_is_running (self->headroom));
}

/* --- headroom ---------------------------------------------------------------- */

/* The application is held while the headroom's test file may still be
 * there to remove; a window without one (a test's) holds nothing. */
static void
hold (DmCaptureWindow *self,
      gboolean         on)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (on && app && !self->held)
    {
      self->held = G_APPLICATION (g_object_ref (app));
      g_application_hold (self->held);
    }
  else if (!on && self->held)
    {
      g_application_release (self->held);
      g_clear_object (&self->held);
    }
}

static void
on_headroom_progress (DmJob           *job,
                      DmCaptureWindow *self)
{
  const DmJobProgress *p = dm_job_get_progress (job);
  g_autofree char *text = NULL;

  if (p->phase == DM_PHASE_PREPARE || p->result_index < 0)
    text = g_strdup (_("Headroom: preparing the test file…"));
  else
    {
      unsigned i = (unsigned) p->result_index % DM_HEADROOM_ROWS;
      const dm_result *live = dm_job_peek_result (job, (guint) p->result_index);

      text = i == 0 ? g_strdup_printf (_("Headroom: the captured rate, %.0f IOPS"),
                                       live ? live->iops : 0)
             : i == 1 ? g_strdup_printf (_("Headroom: as fast as it goes, %.0f IOPS"),
                                         live ? live->iops : 0)
                      : g_strdup_printf (_("Headroom: %u %% of the maximum, %.0f IOPS"),
                                         dm_headroom_percent ((unsigned) p->result_index),
                                         live ? live->iops : 0);
    }
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 CLAMP ((MAX (p->result_index, 0) + p->fraction)
                                          / DM_HEADROOM_ROWS, 0, 1));
}

static void
on_headroom_finished (DmJob           *job,
                      int              code,
                      DmCaptureWindow *self)
{
  const dm_report *r = dm_job_get_report (job);
  char shown[600];
  dm_buf out;

  dm_buf_init (&out);
  dm_headroom_write_text (r, 0, true, &out);
  gtk_label_set_text (GTK_LABEL (self->headroom_label), out.data ? out.data : "");
  dm_buf_free (&out);
  if (code == -ECANCELED)
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        _("Headroom cancelled: the rates measured are kept; the test file was "
                          "removed."));
  else if (code < 0)
    {
      g_autofree char *text = g_strdup_printf (_("Headroom failed: %s"),
                                               r->error[0] ? dm_reason_shown (r->error, shown,
                                                                              sizeof shown)
                                                           : g_strerror (-code));

      gtk_label_set_text (GTK_LABEL (self->status_label), text);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        _("Headroom done; the test file was removed."));
  hold (self, FALSE);
  update_actions (self);
}

gboolean
dm_capture_window_headroom (DmCaptureWindow *self,
                            GError         **error)
{
  dm_workload w;
  dm_settings s;
  dm_report r;
  char why[600], shown[600];
  g_autofree char *target = NULL;

  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), FALSE);
  if (dm_capture_window_is_running (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("A capture is under way"));
      return FALSE;
    }
  if (!self->shown || dm_capture_workload (&self->shown->c, &w, why, sizeof why) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No workload: %s"),
                   self->shown ? dm_reason_shown (why, shown, sizeof shown)
                               : _("nothing was captured yet"));
      return FALSE;
    }
  /* The grid's test size and data; the sweep's 1 x 3 s a rate after 2 s
   * of warm-up, as diskmeter-cli --headroom has them. */
  dm_settings_init (&s);
  if (self->settings)
    {
      g_autofree char *size = g_settings_get_string (self->settings, "size");
      g_autofree char *data = g_settings_get_string (self->settings, "test-data");
      uint64_t bytes;

      if (dm_size_parse (size, &bytes, NULL, 0) == 0)
        s.test_size = bytes;
      if (dm_data_parse (data, &s.data) != 0)
        s.data = DM_DATA_RANDOM;
    }
  s.count = 1;
  s.measure_s = 3;
  s.warmup_s = 2;
  s.interval_s = 0;
  if (dm_headroom_report_init (&r, &w, 1, &s, why, sizeof why) < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           dm_reason_shown (why, shown, sizeof shown));
      return FALSE;
    }
  if (self->headroom)
    {
      g_signal_handlers_disconnect_by_data (self->headroom, self);
      g_clear_object (&self->headroom);
    }
  target = dm_tool_run_target (self->headroom_entry);
  self->headroom = dm_job_new (&r, target, NULL);
  dm_job_set_headroom (self->headroom);
  g_signal_connect (self->headroom, "progress", G_CALLBACK (on_headroom_progress), self);
  g_signal_connect (self->headroom, "finished", G_CALLBACK (on_headroom_finished), self);
  if (!dm_job_start (self->headroom, error))
    {
      g_clear_object (&self->headroom);
      return FALSE;
    }
  hold (self, TRUE);
  gtk_label_set_text (GTK_LABEL (self->headroom_label), "");
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  update_actions (self);
  return TRUE;
}

char *
dm_capture_window_get_headroom (DmCaptureWindow *self)
{
  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), NULL);
  return g_strdup (gtk_label_get_text (GTK_LABEL (self->headroom_label)));
}

const dm_capture *
dm_capture_window_get_capture (DmCaptureWindow *self)
{
  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), NULL);
  return self->shown ? &self->shown->c : NULL;
}

char *
dm_capture_window_get_summary (DmCaptureWindow *self)
{
  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), NULL);
  return g_strdup (gtk_label_get_text (GTK_LABEL (self->summary_label)));
}

/* What the window writes: the capture's JSON or its profile, in buf. */
static gboolean
write_format (DmCaptureWindow *self,
              const char      *format,
              dm_buf          *buf,
              GError         **error)
{
  char why[400], shown[400];

  if (!self->shown)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing was captured yet"));
      return FALSE;
    }
  if (g_str_equal (format, "json"))
    dm_capture_write_json (&self->shown->c, buf);
  else if (dm_capture_write_profile (&self->shown->c, buf, why, sizeof why) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No workload: %s"),
                   dm_reason_shown (why, shown, sizeof shown));
      return FALSE;
    }
  return TRUE;
}

gboolean
dm_capture_window_save (DmCaptureWindow *self,
                        const char      *format,
                        const char      *path,
                        GError         **error)
{
  dm_buf buf;
  int err;

  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), FALSE);
  if (g_str_equal (format, "png"))
    return dm_screenshot_save (GTK_WIDGET (self), self->content, path, error);
  if (g_str_equal (format, "headroom-json"))
    {
      if (!self->headroom || dm_job_is_running (self->headroom))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("No headroom has been measured yet"));
          return FALSE;
        }
      dm_buf_init (&buf);
      dm_headroom_write_json (dm_job_get_report (self->headroom), 0, &buf);
    }
  else if (!g_str_equal (format, "json") && !g_str_equal (format, "profile"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: a capture is saved as json, profile or png"), format);
      return FALSE;
    }
  else
    {
      dm_buf_init (&buf);
      if (!write_format (self, format, &buf, error))
        {
          dm_buf_free (&buf);
          return FALSE;
        }
    }
  err = dm_file_replace_contents (path, buf.data, buf.len);
  dm_buf_free (&buf);
  if (err < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write %s: %s"), path,
                   dm_strerror (err));
      return FALSE;
    }
  return TRUE;
}

gboolean
dm_capture_window_use_as_row (DmCaptureWindow *self,
                              GError         **error)
{
  char dir[1024];
  g_autofree char *folder = NULL, *name = NULL, *path = NULL, *status = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  gboolean taken = FALSE;
  int err;

  g_return_val_if_fail (DM_IS_CAPTURE_WINDOW (self), FALSE);
  if (self->shown && self->shown->c.from != DM_CAPTURE_FROM_EVENTS)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The disk's counters tell no size split nor random share: a grid "
                             "row needs the kernel's request events"));
      return FALSE;
    }
  /* The profile is a file of the user's, as diskmeter-cli capture
   * --profile-file writes it, so the grid loads it as any other and it is
   * there again after a restart. */
  if ((err = dm_data_dir (dir, sizeof dir)) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No folder for the profile: %s"),
                   dm_strerror (err));
      return FALSE;
    }
  folder = g_build_filename (dir, "captures", NULL);
  name = g_date_time_format (now, "capture-%Y%m%d-%H%M%S.ini");
  path = g_build_filename (folder, name, NULL);
  if (g_mkdir_with_parents (folder, 0700) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot make %s: %s"), folder,
                   g_strerror (errno));
      return FALSE;
    }
  if (!dm_capture_window_save (self, "profile", path, error))
    return FALSE;
  g_signal_emit (self, signals[USE_PROFILE], 0, path, &taken);
  status = taken ? g_strdup_printf (_("The grid's row is this workload now, saved as %s"), path)
                 : g_strdup_printf (_("Saved as %s; the main window did not take it (see its "
                                      "message), open it there with Open Profile…"), path);
  gtk_label_set_text (GTK_LABEL (self->status_label), status);
  return TRUE;
}

/* --- actions --------------------------------------------------------------- */

static void
action_start (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (widget);
  g_autoptr (GError) error = NULL;

  if (!dm_capture_window_start (self, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  dm_capture_window_stop (DM_CAPTURE_WINDOW (widget));
}

static void
action_use_row (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (widget);
  g_autoptr (GError) error = NULL;

  if (!dm_capture_window_use_as_row (self, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
action_headroom (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (widget);
  g_autoptr (GError) error = NULL;

  if (!dm_capture_window_headroom (self, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  DmCaptureWindow *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);
  g_autoptr (GError) error = NULL;

  if (path && !dm_capture_window_save (self, "json", path, &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
  g_clear_object (&self->chooser);
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (widget);

  if (self->chooser)
    return;
  self->chooser = dm_file_dialog_new_save (GTK_WINDOW (self), _("Save Capture"),
                                           "diskmeter-capture.json");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* --- the object ------------------------------------------------------------ */

static void
dm_capture_window_dispose (GObject *object)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (object);

  /* A capture under way ends within a tick (100 ms) of its cancel. */
  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (self->running)
    {
      atomic_store (&self->running->cancel, 1);
      g_thread_join (self->running->thread);
      capture_free (g_steal_pointer (&self->running));
    }
  /* A headroom still running is cancelled; the job joins its worker,
   * which removes the test file, when it goes. */
  if (self->headroom)
    {
      g_signal_handlers_disconnect_by_data (self->headroom, self);
      if (dm_job_is_running (self->headroom))
        dm_job_cancel (self->headroom);
      g_clear_object (&self->headroom);
    }
  hold (self, FALSE);
  g_clear_object (&self->settings);
  g_clear_object (&self->chooser);
  G_OBJECT_CLASS (dm_capture_window_parent_class)->dispose (object);
}

static void
dm_capture_window_finalize (GObject *object)
{
  DmCaptureWindow *self = DM_CAPTURE_WINDOW (object);

  capture_free (self->shown);
  G_OBJECT_CLASS (dm_capture_window_parent_class)->finalize (object);
}

static void
dm_capture_window_class_init (DmCaptureWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_capture_window_dispose;
  object_class->finalize = dm_capture_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-capture-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, duration_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, target_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, chart);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, headroom_entry);
  gtk_widget_class_bind_template_child (widget_class, DmCaptureWindow, headroom_label);
  gtk_widget_class_install_action (widget_class, "capture.start", NULL, action_start);
  gtk_widget_class_install_action (widget_class, "capture.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "capture.use-row", NULL, action_use_row);
  gtk_widget_class_install_action (widget_class, "capture.save", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "capture.headroom", NULL, action_headroom);
  /* A handler returns whether the grid took the profile. */
  signals[USE_PROFILE] = g_signal_new ("use-profile", G_TYPE_FROM_CLASS (klass),
                                       G_SIGNAL_RUN_LAST, 0, g_signal_accumulator_true_handled,
                                       NULL, NULL, G_TYPE_BOOLEAN, 1, G_TYPE_STRING);
}

static void
dm_capture_window_init (DmCaptureWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->chart), draw_chart, self, NULL);
}

GtkWidget *
dm_capture_window_new (GtkApplication *app,
                       GSettings      *settings)
{
  DmCaptureWindow *self = g_object_new (DM_TYPE_CAPTURE_WINDOW, "application", app, NULL);
  g_autofree char *target = dm_tool_run_first_target (settings);

  self->settings = settings ? g_object_ref (settings) : NULL;
  gtk_editable_set_text (GTK_EDITABLE (self->target_entry), target);
  gtk_editable_set_text (GTK_EDITABLE (self->headroom_entry), target);
  update_actions (self);
  return GTK_WIDGET (self);
}

void
dm_capture_window_set_plan (DmCaptureWindow *self,
                            const char      *duration,
                            const char      *target,
                            const char      *headroom_folder)
{
  g_return_if_fail (DM_IS_CAPTURE_WINDOW (self));

  if (headroom_folder)
    gtk_editable_set_text (GTK_EDITABLE (self->headroom_entry), headroom_folder);
  if (duration)
    gtk_editable_set_text (GTK_EDITABLE (self->duration_entry), duration);
  if (target)
    gtk_editable_set_text (GTK_EDITABLE (self->target_entry), target);
}
