/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's instance struct and the functions its files share. The files
 * form a star: dm-window.c is the hub, and each topic file (-actions, -grid,
 * -history, -script, -settings, -targets) calls dm-window.c only, never
 * another topic file (tests/gui-layers.sh checks it). Nothing else includes
 * this but the widget tests, which use the views at the end.
 */
#pragma once

#include "dm-choice.h"
#include "dm-comparison.h"
#include "dm-format.h"
#include "dm-job.h"
#include "dm-platform.h"
#include "dm-profile-file.h"
#include "dm-report.h"
#include "dm-script.h"
#include "dm-tags-field.h"
#include "dm-window.h"

G_BEGIN_DECLS

/* Rows of the grid: a plain profile's tests, or a profile file's workloads. */
#define DM_WINDOW_MAX_ROWS DM_PROFILE_FILE_ROWS
/* The columns a workload row's one tile spans: those of Read and Write, so
 * a workload grid is as wide as a plain one. */
#define DM_WORKLOAD_SPAN   2

struct _DmWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget     *content;
  GtkWidget     *zoom;            /* a DmZoom between the window and content */
  guint          fit_height_source; /* idle that fits the height to the content */
  GtkWidget     *all_button;
  DmChoice      *count_dropdown;
  DmChoice      *size_dropdown;
  DmChoice      *target_dropdown;
  DmChoice      *units_dropdown;
  DmChoice      *modes_dropdown;  /* All, Read only, Write only */
  GtkStringList *modes_model;
  GtkWidget     *grid;
  GtkWidget     *error_revealer;
  GtkWidget     *error_label;
  GtkWidget     *comment_entry;
  GtkWidget     *tags_field;      /* dm-tags-field.h, beside the comment */
  GtkWidget     *status_label;
  GtkWidget     *progress_bar;
  GtkWidget     *time_label;
  GtkWidget     *footer_label;
  GtkSizeGroup  *row_size_group;

  GSettings     *settings;

  /* what the grid shows */
  DmGridLayout   layout;
  guint          run_modes;       /* the columns the grid's report holds */
  dm_unit        unit;
  dm_report      report;          /* the grid's figures, exported as they are */
  gboolean       layout_stale;    /* settings changed during a run */
  gboolean       columns_stale;   /* only the columns did (Mix): figures stay */
  dm_report      columns_kept;    /* a hidden column's figures, for its return */
  GtkWidget     *row_buttons[DM_WINDOW_MAX_ROWS];
  GtkWidget     *tiles[DM_WINDOW_MAX_ROWS][DM_N_MODES];
  /* A workload profile (profile "workloads"): the grid's rows are the
   * report's results in order, each one wide tile (tiles[r][0]), and the
   * layout has no rows or columns. The workloads come from profile-file
   * or from a saved run that was opened. */
  gboolean       shaped;
  dm_workload   *workloads;
  guint          n_workloads;
  char          *workloads_from;  /* what they were loaded from, "" for a saved run */
  dm_threshold   rules[DM_THRESHOLDS_MAX]; /* green/red limits, from settings */
  unsigned       n_rules;

  /* targets: DmTargetItems, in sections (dm-window-targets.c) */
  GListStore    *target_store;
  dm_target_info target_info;     /* of the current target, for the footer */
  gboolean       have_target_info;
  dm_system_info system;
  gboolean       have_system;
  GCancellable  *cancellable;
  GtkFileChooserNative *chooser;

  DmJob         *job;
  gboolean       close_after_job; /* the window was closed mid-run */
  guint          reported;        /* results already logged by a script (bits) */
  gboolean       running;         /* the property: a job is on */
  gboolean       settled;         /* the property: the work after the first frame is done */

  DmComparison  *comparison;      /* shown in place of the grid */
  GtkWidget     *history_window;  /* weak: open while the user keeps it */
};

typedef enum { DM_EXPORT_TEXT, DM_EXPORT_JSON, DM_EXPORT_CSV, DM_EXPORT_PNG,
               DM_EXPORT_PDF } DmExportKind;

/* dm-window.c, for the topic files */
void        _dm_window_set_status          (DmWindow        *self,
                                            const char      *text);
char       *_dm_window_current_target      (DmWindow        *self);
void        _dm_window_set_settled         (DmWindow        *self);
guint       _dm_window_run_modes           (DmWindow        *self);
gboolean    _dm_window_target_is_device    (DmWindow        *self);
void        _dm_window_modes_changed       (DmWindow        *self);
char       *_dm_window_column_title        (DmWindow        *self,
                                            dm_mode          mode);
void        _dm_window_update_column_titles (DmWindow       *self);
void        _dm_window_rebuild_grid        (DmWindow        *self);
/* Mix on or off: new columns, the figures of those still shown kept. */
void        _dm_window_rebuild_columns     (DmWindow        *self);
/* Shows the grid's report: its tiles, and the footer and title. */
void        _dm_window_refresh             (DmWindow        *self);
void        _dm_window_show_progress       (DmWindow        *self);
void        _dm_window_start               (DmWindow        *self,
                                            int              only_row);
void        _dm_window_sync_comment        (DmWindow        *self);
/* The grid's report, or the comparison while it is shown. */
void        _dm_window_write               (DmWindow        *self,
                                            DmExportKind     kind,
                                            dm_buf          *buf);
gboolean    _dm_window_export_to           (DmWindow        *self,
                                            DmExportKind     kind,
                                            const char      *path,
                                            GError         **error);

/* The topic files, for dm-window.c only. Each installs the actions it
 * handles. */

/* dm-window-actions.c */
void        _dm_window_class_actions_init  (GtkWidgetClass  *widget_class);
gboolean    _dm_window_save_pdf            (DmWindow        *self,
                                            const char      *path,
                                            GError         **error);
void        _dm_window_actions_update      (DmWindow        *self);
void        _dm_window_menu_init           (DmWindow        *self);

/* dm-window-grid.c */
void        _dm_window_class_grid_init     (GtkWidgetClass  *widget_class);
void        _dm_window_grid_build          (DmWindow        *self);
/* Every tile from the grid's report, not live. */
void        _dm_window_grid_show_all       (DmWindow        *self);
void        _dm_window_grid_show           (DmWindow        *self,
                                            guint            r,
                                            guint            c,
                                            const dm_result *res,
                                            gboolean         live);
/* Mix on or off: old's figures of the columns still shown, and those a
 * column shown again had, into the grid's new report. */
void        _dm_window_grid_keep           (DmWindow        *self,
                                            const dm_report *old);
/* The tile of res, the index-th result of a run of the grid's rows. */
gboolean    _dm_window_grid_find           (DmWindow        *self,
                                            guint            index,
                                            const dm_result *res,
                                            guint           *row,
                                            guint           *col);
/* The finished job's figures into the grid's report: only the rows that
 * ran, so a single-row run keeps the others. */
void        _dm_window_grid_merge          (DmWindow        *self,
                                            DmJob           *job,
                                            const dm_report *done);
/* Which of r's results a run of row only_row (-1: all) measures, NULL for
 * all; those rows of the grid's report start from nothing. */
bool       *_dm_window_grid_select         (DmWindow        *self,
                                            const dm_report *r,
                                            int              only_row);

/* dm-window-history.c */
void        _dm_window_class_history_init  (GtkWidgetClass  *widget_class);
void        _dm_window_history_save        (DmWindow        *self,
                                            const dm_report *r);

/* dm-window-script.c */
void        _dm_window_scriptable_init     (DmScriptableInterface *iface);

/* dm-window-settings.c */
void        _dm_window_settings_start      (DmWindow        *self);
void        _dm_window_settings_stop       (DmWindow        *self);
/* The window's height to its content's, keeping its width. */
void        _dm_window_fit_height          (DmWindow        *self);
void        _dm_window_compute_layout      (DmWindow        *self,
                                            DmGridLayout    *layout);
void        _dm_window_engine_settings     (DmWindow        *self,
                                            dm_settings     *s);
void        _dm_window_reset_report        (DmWindow        *self);
/* An empty report of the grid's rows (workloads or tests), run as s says:
 * 0, or a negative errno. */
int         _dm_window_init_report         (DmWindow        *self,
                                            const dm_settings *s,
                                            dm_report       *r);
/* The profile-file property: the profile file the grid shows, "" when it
 * shows a plain profile. Choosing one loads it first: a file that does
 * not load is refused with its reason in the error bar, the grid as it
 * was. */
char       *_dm_window_get_profile_file    (DmWindow        *self);
void        _dm_window_choose_profile_file (DmWindow        *self,
                                            const char      *where);
void        _dm_window_sync_modes          (DmWindow        *self,
                                            gboolean         tell);
void        _dm_window_set_modes           (DmWindow        *self,
                                            const char      *text);

/* dm-window-targets.c */
void        _dm_window_class_targets_init  (GtkWidgetClass  *widget_class);
void        _dm_window_targets_init        (DmWindow        *self);
void        _dm_window_targets_start       (DmWindow        *self);
void        _dm_window_targets_scan        (DmWindow        *self);
void        _dm_window_update_target_info  (DmWindow        *self);
void        _dm_window_update_footer       (DmWindow        *self);

/* For the widget tests (dm-window-grid.c). */
guint       _dm_window_get_n_rows        (DmWindow *self);
guint       _dm_window_get_n_columns     (DmWindow *self);
GtkWidget  *_dm_window_get_row_button    (DmWindow *self,
                                          guint     row);
GtkWidget  *_dm_window_get_tile          (DmWindow *self,
                                          guint     row,
                                          guint     column);
char       *_dm_window_get_column_title  (DmWindow *self,
                                          guint     column);
dm_report  *_dm_window_get_report        (DmWindow *self);

G_END_DECLS
