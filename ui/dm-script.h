/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scripted run (--run, --save-*, --quit-when-done) is one DmScript,
 * whatever window it drives: the grid, the Sweep or the Sustained window,
 * and the windows that come next. A window takes part by implementing
 * DmScriptable (start a run, save in a format to a path, say whether it
 * is running) and by telling the script when its run ends; the script
 * does the waiting, the saving, the log lines, the closing and the exit
 * status.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What a scripted start (command-line options) asks of a window once it
 * is on screen. */
typedef struct
{
  gboolean  run;               /* start a run first */
  gboolean  quit_when_done;    /* close the window after the saves */
  char     *screenshot;        /* absolute paths, or NULL */
  double    screenshot_scale;  /* the PNG at this times the window's size; 0 is 1 */
  char     *json;
  char     *text;
  char     *csv;
  char     *pdf;               /* Save as PDF, while the window is on screen */
} DmScript;

DmScript *dm_script_new      (void);
void      dm_script_free     (DmScript       *script);
/* TRUE when it asks for nothing: no run, no file, no quit. */
gboolean  dm_script_is_empty (const DmScript *script);
/* TRUE when it asks for a file or to quit (a reason to run at all). */
gboolean  dm_script_has_outputs (const DmScript *script);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DmScript, dm_script_free)

#define DM_TYPE_SCRIPTABLE (dm_scriptable_get_type ())
G_DECLARE_INTERFACE (DmScriptable, dm_scriptable, DM, SCRIPTABLE, GtkWindow)

struct _DmScriptableInterface
{
  GTypeInterface parent_iface;

  /* Starts a run with what the window shows; FALSE, with the reason shown
   * by the window, when it cannot. */
  gboolean (*start)      (DmScriptable  *self);
  /* Writes what the window shows: format "json", "text", "csv", "png"
   * (drawn at dm_script_screenshot_scale) or "pdf" to path. */
  gboolean (*save)       (DmScriptable  *self,
                          const char    *format,
                          const char    *path,
                          GError       **error);
  gboolean (*is_running) (DmScriptable  *self);
  /* Optional: shows a message where the user looks (the default prints
   * it on stderr). */
  void     (*show_error) (DmScriptable  *self,
                          const char    *message);
  /* Optional: one line for the log once the files are written, or NULL
   * ("sustained: cliff after ..."). */
  char    *(*summary)    (DmScriptable  *self);
};

/* Called once, when the script is over, with the exit status it asks for:
 * 0, or 1 when the run failed, a file could not be written or the window
 * went before its files. */
typedef void (*DmScriptDone) (gpointer user_data,
                              int      status);

/* Drives window with script (taken): from the window's first frame on
 * screen (and a moment to settle) it starts a run if asked, and once the
 * last figure is drawn writes the files, closes the window if told to and
 * calls done. A window already running, or already scripted, keeps that
 * and ignores the new script. */
void     dm_script_run          (DmScript     *script,
                                 DmScriptable *window,
                                 DmScriptDone  done,
                                 gpointer      user_data);

/* For the windows. The script driving window, or NULL (an unattended run
 * logs its figures). */
const DmScript *dm_script_get   (gpointer      window);
/* The scale a screenshot of window is drawn at: the script's, else 1. */
double   dm_script_screenshot_scale (gpointer  window);
/* A window's run has ended (status 0, or 1 when it failed): the script
 * saves after the next paint. Nothing without a script. */
void     dm_script_run_finished (gpointer      window,
                                 int           status);
/* The window closes for good right after its run ended (status as above):
 * the script writes what it can now, without the screenshot, and is over.
 * Nothing without a script. */
void     dm_script_save_before_close (gpointer window,
                                      int      status);

G_END_DECLS
