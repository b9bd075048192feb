/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's instance struct and the functions its files share
 * (dm-window.c, -actions, -compare, -script, -settings, -targets and
 * -zoom), plus views into it for the widget tests. Nothing else includes
 * this: the rest of ui/ talks to the window through dm-window.h, its
 * properties and signals.
 */
#pragma once

#include "dm-compare.h"
#include "dm-format.h"
#include "dm-history-window.h"
#include "dm-job.h"
#include "dm-platform.h"
#include "dm-report.h"
#include "dm-script.h"
#include "dm-thresholds-dialog.h"
#include "dm-window.h"

G_BEGIN_DECLS

struct _DmWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget     *content;
  GtkWidget     *zoom;            /* between the window and content */
  GtkWidget     *all_button;
  GtkDropDown   *count_dropdown;
  GtkDropDown   *size_dropdown;
  GtkDropDown   *target_dropdown;
  GtkDropDown   *units_dropdown;
  GtkDropDown   *modes_dropdown;  /* All, Read only, Write only */
  GtkStringList *modes_model;
  GtkStringList *target_model;
  GtkWidget     *grid;
  GtkWidget     *error_revealer;
  GtkWidget     *error_label;
  GtkWidget     *comment_entry;
  GtkWidget     *status_label;
  GtkWidget     *progress_bar;
  GtkWidget     *time_label;
  GtkWidget     *footer_label;
  GtkSizeGroup  *row_size_group;

  GSettings     *settings;
  gboolean       syncing;         /* widgets are being set from settings */
  int            zoom_percent;    /* as last applied, 100..300 */

  /* what the grid shows */
  DmGridLayout   layout;
  guint          run_modes;       /* the columns the grid's report holds */
  dm_unit        unit;
  dm_report      report;          /* the grid's figures, exported as they are */
  gboolean       layout_stale;    /* settings changed during a run */
  GtkWidget     *row_buttons[DM_GRID_MAX_ROWS];
  GtkWidget     *tiles[DM_GRID_MAX_ROWS][DM_N_MODES];

  /* targets: target_model holds their labels, then "Choose folder…" */
  GPtrArray     *target_paths;
  dm_target_info target_info;     /* of the current target, for the footer */
  gboolean       have_target_info;
  dm_system_info system;
  gboolean       have_system;
  GCancellable  *cancellable;
  GtkFileChooserNative *chooser;

  DmJob         *job;
  gboolean       close_after_job; /* the window was closed mid-run */
  guint          reported;        /* results already logged by a script (bits) */

  /* comparison: a second target run interleaved with the first */
  GtkWidget     *compare_view;
  char          *compare_target;  /* NULL: plain runs */
  dm_report      compare_b;       /* the second target's finished figures */
  dm_report      live_a, live_b;  /* shallow views of a running job's figures */
  dm_compare     compare;
  gboolean       comparing;       /* the view (and exports) show the comparison */
  guint          live_complete;   /* completed results when the view was built */
  dm_report     *saved;           /* saved runs being compared, from the history */
  char         **saved_names;
  guint          n_saved;
  GtkWidget     *history_window;  /* weak: open while the user keeps it */
  gboolean       running;         /* the property: a job is on */
  dm_threshold   rules[DM_THRESHOLDS_MAX]; /* green/red limits, from settings */
  unsigned       n_rules;
};

typedef enum { DM_EXPORT_TEXT, DM_EXPORT_JSON, DM_EXPORT_CSV, DM_EXPORT_PNG } DmExportKind;

/* dm-window.c */
void        _dm_window_set_status          (DmWindow        *self,
                                            const char      *text);
char       *_dm_window_current_target      (DmWindow        *self);
void        _dm_window_engine_settings     (DmWindow        *self,
                                            dm_settings     *s);
void        _dm_window_rebuild_grid        (DmWindow        *self);
void        _dm_window_start               (DmWindow        *self,
                                            int              only_row);
void        _dm_window_reset_report        (DmWindow        *self);
void        _dm_window_update_column_titles (DmWindow       *self);
void        _dm_window_show_progress       (DmWindow        *self);

/* dm-window-settings.c */
void        _dm_window_settings_start      (DmWindow        *self);
void        _dm_window_modes_init          (DmWindow        *self);
void        _dm_window_sync_modes          (DmWindow        *self);
void        _dm_window_modes_changed       (DmWindow        *self);
guint       _dm_window_run_modes           (DmWindow        *self);
gboolean    _dm_window_target_is_device    (DmWindow        *self);

/* dm-window-targets.c */
void        _dm_window_targets_init        (DmWindow        *self);
void        _dm_window_targets_start       (DmWindow        *self);
void        _dm_window_choose_folder       (DmWindow        *self);
void        _dm_window_select_target       (DmWindow        *self,
                                            const char      *target,
                                            gboolean         probe);
void        _dm_window_update_target_info  (DmWindow        *self);
void        _dm_window_update_footer       (DmWindow        *self);

/* dm-window-actions.c */
void        _dm_window_class_actions_init  (GtkWidgetClass  *widget_class);
void        _dm_window_actions_update      (DmWindow        *self);
void        _dm_window_sync_comment        (DmWindow        *self);
gboolean    _dm_window_export_to           (DmWindow        *self,
                                            DmExportKind     kind,
                                            const char      *path,
                                            GError         **error);
gboolean    _dm_window_open_latency_view   (DmWindow        *self,
                                            guint            r,
                                            guint            c);

/* dm-window-script.c */
void        _dm_window_scriptable_init     (DmScriptableInterface *iface);

/* dm-window-compare.c */
void        _dm_window_history_save        (DmWindow        *self,
                                            const dm_report *r);
void        _dm_window_compare_show        (DmWindow        *self,
                                            gboolean         show);
void        _dm_window_compare_prepare     (DmWindow        *self,
                                            DmJob           *job,
                                            int              only_row);
void        _dm_window_compare_live        (DmWindow        *self,
                                            DmJob           *job);
void        _dm_window_compare_finished    (DmWindow        *self,
                                            DmJob           *job);
gboolean    _dm_window_compare_export      (DmWindow        *self,
                                            int              kind,
                                            dm_buf          *buf);
void        _dm_window_compare_reunit      (DmWindow        *self);
void        _dm_window_thresholds_changed  (DmWindow        *self);
void        _dm_window_connect_history     (DmWindow        *self,
                                            DmHistoryWindow *history);

/* dm-window-zoom.c: the content, scaled by the zoom setting. */
#define DM_ZOOM_MIN 100
#define DM_ZOOM_MAX 300
#define DM_TYPE_WINDOW_ZOOM (dm_window_zoom_get_type ())
G_DECLARE_FINAL_TYPE (DmWindowZoom, dm_window_zoom, DM, WINDOW_ZOOM, GtkWidget)
GtkWidget  *dm_window_zoom_new           (GtkWidget    *child);
void        dm_window_zoom_set_percent   (DmWindowZoom *self,
                                          int           percent);
/* The next zoom step up (direction 1), down (-1), or 100 % (0). */
int         dm_window_zoom_step          (int           percent,
                                          int           direction);

/* For the widget tests. */
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
/* Shows the grid's report in its tiles. */
void        _dm_window_refresh           (DmWindow *self);

G_END_DECLS
