/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sustained window: one pattern written (or read) once through a test
 * file as large as the span, on an ordinary DmJob, with the rate over time
 * drawn as it is measured and the cliff where a write cache runs out
 * marked, with the rates before and after; a saved sustained JSON (from
 * diskmeter-cli sustained or this window) is shown the same way. A disk
 * or partition as target is only read.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

#define DM_TYPE_SUSTAINED_WINDOW (dm_sustained_window_get_type ())
G_DECLARE_FINAL_TYPE (DmSustainedWindow, dm_sustained_window, DM, SUSTAINED_WINDOW, GtkWindow)

/* settings (may be NULL) supplies the folder and the test data. */
GtkWidget *dm_sustained_window_new        (GtkApplication *app,
                                           GSettings      *settings);
/* Sets the span ("free" or a size), the duration in seconds and the
 * folder, as a person would type them; NULL leaves one as it is. */
void       dm_sustained_window_set_plan   (DmSustainedWindow *self,
                                           const char        *span,
                                           const char        *duration,
                                           const char        *folder);
/* The pass: DM_MODE_WRITE (the default) or DM_MODE_READ, which fills the
 * span first, then reads it; a disk is only read, whatever is set. */
void       dm_sustained_window_set_mode   (DmSustainedWindow *self,
                                           dm_mode            mode);
gboolean   dm_sustained_window_is_running (DmSustainedWindow *self);
/* The Mode control (Write, Read): on a disk fixed to Read. */
GtkWidget *dm_sustained_window_get_mode_control (DmSustainedWindow *self);
/* Starts a run with the plan shown; FALSE with error when it cannot. */
gboolean   dm_sustained_window_start      (DmSustainedWindow *self,
                                           GError           **error);
/* Shows a sustained run saved by diskmeter-cli sustained or this window. */
gboolean   dm_sustained_window_load       (DmSustainedWindow *self,
                                           const char        *path,
                                           GError           **error);
/* format: "json", "csv" or "png". */
gboolean   dm_sustained_window_save       (DmSustainedWindow *self,
                                           const char        *format,
                                           const char        *path,
                                           GError           **error);
/* The cliff as shown (found FALSE before any figures). */
void       dm_sustained_window_get_cliff  (DmSustainedWindow *self,
                                           gboolean          *found,
                                           guint64           *cache_bytes,
                                           double            *before_mb_per_s,
                                           double            *after_mb_per_s);

/* How many samples the timeline shows (a run's grow as they close). */
guint      dm_sustained_window_count_samples (DmSustainedWindow *self);

/* What a script asks of the window: the application's command line. */
typedef struct
{
  gboolean    run;
  gboolean    quit_when_done;
  const char *screenshot;        /* each NULL or a path */
  const char *json;
  const char *text;
  const char *csv;
  double      screenshot_scale;  /* the PNG at this times the window's size; 0 is 1 */
} DmSustainedScript;

/* Called once a script is over, with the exit status it asks for. */
typedef void (*DmSustainedScriptDone) (gpointer user_data,
                                       int      status);
/* A script (--sustained, or --open of a sustained run): from the first
 * frame on screen it starts a run if script->run is set, then writes the
 * script's files once the last figure is drawn and closes the window if
 * told to. The script is copied. */
void       dm_sustained_window_run_script (DmSustainedWindow       *self,
                                           const DmSustainedScript *script,
                                           DmSustainedScriptDone    done,
                                           gpointer                 user_data);

G_END_DECLS
