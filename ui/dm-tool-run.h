/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Sweep and Sustained windows share about their one run: the
 * DmJob, or the saved run shown instead of it, the progress bar and time
 * it drives, the application held while the engine may still have a test
 * file to remove, the Save menu's file chooser, and the Mode control fixed
 * to Read while the target is a disk, as the main grid fixes it. Each
 * window embeds a DmToolRun and keeps only what it shows of its own.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-job.h"
#include "dm-report.h"

G_BEGIN_DECLS

/* The window's own Save (dm_sweep_window_save, dm_sustained_window_save):
 * format ("json", "csv", "text", "png") to path. */
typedef gboolean (*DmToolRunSave) (gpointer     window,
                                   const char  *format,
                                   const char  *path,
                                   GError     **error);

typedef struct
{
  GtkWindow     *window;          /* the owner, not a reference */
  GtkWidget     *status_label;
  GtkWidget     *time_label;
  GtkWidget     *progress_bar;
  DmToolRunSave  save;

  DmJob         *job;             /* running, or finished and shown */
  dm_report      loaded;          /* a saved run, shown when there is no job */
  gboolean       have_loaded;
  GtkFileChooserNative *chooser;
  char          *save_format;

  GtkDropDown   *mode_dropdown;   /* fixed to read_index on a disk */
  guint          read_index;
  guint          mode_before;     /* the choice it had before the disk */
  gboolean       device;          /* the target is a disk or partition */
} DmToolRun;

void             dm_tool_run_init         (DmToolRun      *run,
                                           GtkWindow      *window,
                                           GtkWidget      *status_label,
                                           GtkWidget      *time_label,
                                           GtkWidget      *progress_bar,
                                           DmToolRunSave   save);
/* The window's dispose and finalize: a run still going is cancelled and
 * joined by the job, and the application let go. */
void             dm_tool_run_dispose      (DmToolRun      *run);
void             dm_tool_run_finalize     (DmToolRun      *run);

gboolean         dm_tool_run_is_running   (DmToolRun      *run);
/* The report to analyse and save: a finished job's, or a loaded one;
 * NULL while running or before anything. */
const dm_report *dm_tool_run_shown        (DmToolRun      *run);
/* Forgets the job (its signals to the window too) and the loaded run. */
void             dm_tool_run_clear        (DmToolRun      *run);
/* Shows r (taken, left as it was) instead of any job. */
void             dm_tool_run_take_loaded  (DmToolRun      *run,
                                           dm_report      *r);
/* Reads and parses a saved run; text (the file's) for the window's own
 * look at it. FALSE with error, and r cleared, when it cannot. */
gboolean         dm_tool_run_read_file    (const char     *path,
                                           dm_report      *r,
                                           char          **text,
                                           gsize          *len,
                                           GError        **error);

/* Starts job (taken), its "progress" and "finished" sent to the window;
 * the application is held until dm_tool_run_finished. */
gboolean         dm_tool_run_start        (DmToolRun      *run,
                                           DmJob          *job,
                                           GCallback       on_progress,
                                           GCallback       on_finished,
                                           GError        **error);
/* The progress bar and the time left at a tick. */
void             dm_tool_run_progress     (DmToolRun      *run,
                                           const DmJobProgress *p);
/* The end of a run: the application let go, the bar full or empty. */
void             dm_tool_run_finished     (DmToolRun      *run,
                                           const dm_report *r);
void             dm_tool_run_stop         (DmToolRun      *run);

/* The Save menu: a chooser for format, then the window's Save and the
 * outcome on the status line. */
void             dm_tool_run_save_as      (DmToolRun      *run,
                                           const char     *format,
                                           const char     *title,
                                           const char     *name);
/* Writes buf (freed) to path atomically. */
gboolean         dm_tool_run_write        (dm_buf         *buf,
                                           const char     *path,
                                           GError        **error);

/* The folder a window opens with: the main window's target, or home. */
char            *dm_tool_run_first_target (GSettings      *settings);
/* The target typed, home when there is none. */
char            *dm_tool_run_target       (GtkWidget      *entry);

/* The window's Mode control, whose item read_index is Read. */
void             dm_tool_run_set_mode     (DmToolRun      *run,
                                           GtkDropDown    *mode_dropdown,
                                           guint           read_index);
/* Probes target (cheap): on a disk or partition the Mode control is
 * fixed to Read, insensitive, its tooltip saying why; off it, it is as it
 * was. TRUE on a disk. */
gboolean         dm_tool_run_check_target (DmToolRun      *run,
                                           const char     *target);
/* Why a disk is only read, for the status line. */
const char      *dm_tool_run_device_note  (void);

G_END_DECLS
