/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The study runs on a thread of its own, as diskmeter-cli study run runs
 * it (dm_study_run_go); its progress callback only copies figures under a
 * lock and asks the main loop for one tick, where the widgets are
 * touched. Each saved scenario makes the main thread load the sheet again
 * from the history (dm_study_sheet_load, as study show does), so the
 * table, its colours and a saved CSV or workbook are the CLI's. While the
 * thread runs the window holds a reference on itself and the application
 * is held, so closing it cancels the run and lets the engine remove its
 * test file before anything goes away.
 */
#include "dm-study-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <string.h>

#include "dm-file-dialog.h"
#include "dm-format.h"
#include "dm-platform.h"
#include "dm-screenshot.h"
#include "dm-script.h"
#include "dm-study-model.h"
#include "dm-study.h"
#include "dm-tool-run.h"
#include "dm-xlsx.h"

/* What the running thread leaves for the main loop, under lock. */
typedef struct
{
  unsigned  done, total;
  double    seconds_left;
  double    step_fraction;   /* of the scenario running, 0..1 */
  gboolean  saved;           /* a scenario was saved since the last tick */
  unsigned  failed;          /* scenarios that failed */
  char      failure[256];    /* the last one's reason */
  gboolean  ended;
  int       status;          /* dm_study_run_go's */
  char      error[512];
} Shared;

struct _DmStudyWindow
{
  GtkWindow          parent_instance;

  /* template children */
  GtkWidget         *content;
  GtkWidget         *plan_label;
  GtkWidget         *green_check;
  GtkWidget         *status_label;
  GtkWidget         *time_label;
  GtkWidget         *progress_bar;
  GtkColumnView     *column_view;
  GtkWidget         *table_scroller;
  GtkWidget         *empty_label;

  DmToolRun          tool;           /* the Save chooser and the status line */
  GListStore        *store;          /* DmStudyItem, the sheet's order */
  GtkFilter         *green_filter;
  GtkFilterListModel *filtered;
  GtkSortListModel  *sorted;
  char              *columns_key;    /* the titles the view's columns have */

  dm_study_plan     *plan;           /* NULL before a plan is opened */
  char              *plan_path;
  dm_study_sheet     sheet;
  gboolean           have_sheet;

  /* the run */
  GThread           *thread;
  dm_study_run      *run;
  dm_study_scenario *scenarios;
  unsigned           n_scenarios;
  GMutex             lock;
  Shared             shared;         /* under lock */
  gboolean           tick_pending;   /* under lock */
  gboolean           close_after;    /* closed while running */
};

static void scriptable_init (DmScriptableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DmStudyWindow, dm_study_window, GTK_TYPE_WINDOW,
                               G_IMPLEMENT_INTERFACE (DM_TYPE_SCRIPTABLE, scriptable_init))

static void
set_status (DmStudyWindow *self,
            const char    *text)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
}

static void
update_actions (DmStudyWindow *self)
{
  gboolean running = self->thread != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "study.open", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "study.start", !running && self->plan);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "study.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "study.save", self->have_sheet);
}

/* --- the table ------------------------------------------------------------- */

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (label, "study-cell");
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           DmStudyWindow            *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  DmStudyItem *row = gtk_list_item_get_item (item);
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "dm-column"));
  g_autofree char *text = NULL;
  DmStudyKey key;
  guint index;
  dm_colour colour;

  if (!self->have_sheet || !row)
    return;
  dm_study_model_column (&self->sheet, column, &key, &index);
  text = dm_study_model_cell (&self->sheet, dm_study_item_row (row), key, index, &colour);
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), key == DM_STUDY_KEY_TARGET
                                           || key == DM_STUDY_KEY_TAG ? 0 : 1);
  gtk_widget_remove_css_class (label, "study-green");
  gtk_widget_remove_css_class (label, "study-red");
  if (colour == DM_COLOUR_GREEN)
    gtk_widget_add_css_class (label, "study-green");
  else if (colour == DM_COLOUR_RED)
    gtk_widget_add_css_class (label, "study-red");
}

/* The view's columns follow the sheet's: made again only when the titles
 * change (a new tag key, the first row), so a sort chosen stays. */
static void
refresh_columns (DmStudyWindow *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr (GString) key = g_string_new (NULL);
  guint n = self->have_sheet ? dm_study_model_n_columns (&self->sheet) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = dm_study_model_title (&self->sheet, i);
      g_string_append_printf (key, "%s\n", title);
    }
  if (g_strcmp0 (key->str, self->columns_key) == 0)
    return;
  g_free (self->columns_key);
  self->columns_key = g_strdup (key->str);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (self->column_view, c);
    }
  for (guint i = 0; i < n; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autofree char *title = dm_study_model_title (&self->sheet, i);
      g_autoptr (GtkColumnViewColumn) c = NULL;
      DmStudyKey k;
      guint index;

      g_object_set_data (G_OBJECT (factory), "dm-column", GUINT_TO_POINTER (i));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      c = gtk_column_view_column_new (title, factory);
      dm_study_model_column (&self->sheet, i, &k, &index);
      gtk_column_view_column_set_sorter (c, dm_study_model_sorter (k, index));
      gtk_column_view_column_set_resizable (c, TRUE);
      gtk_column_view_append_column (self->column_view, c);
    }
}

/* Loads the study's sheet from the history, as diskmeter-cli study show
 * NAME does: cells coloured by each run's saved rules, the plan's at its
 * Q x T. FALSE (and the reason) when there is none yet. */
static gboolean
load_sheet (DmStudyWindow *self,
            char          *why,
            gsize          why_size)
{
  if (self->have_sheet)
    dm_study_sheet_free (&self->sheet);
  memset (&self->sheet, 0, sizeof self->sheet);
  self->have_sheet = self->plan
                     && dm_study_sheet_load (self->plan->name, NULL, 0, &self->sheet, why,
                                             why_size) == 0;
  if (!self->have_sheet)
    memset (&self->sheet, 0, sizeof self->sheet);
  return self->have_sheet;
}

static void
refresh_table (DmStudyWindow *self)
{
  char why[600];
  gboolean any = load_sheet (self, why, sizeof why);

  /* A plan none of whose scenarios is saved yet says so, rather than
   * showing a table without columns. */
  gtk_widget_set_visible (self->table_scroller, any);
  gtk_widget_set_visible (self->empty_label, !any);
  if (!any)
    {
      g_list_store_remove_all (self->store);
      refresh_columns (self);
      return;
    }
  /* The columns before the rows: a bound cell reads the sheet's columns. */
  g_list_store_remove_all (self->store);
  refresh_columns (self);
  dm_study_model_fill (self->store, &self->sheet);
}

/* --- the plan -------------------------------------------------------------- */

static unsigned
count_done (DmStudyWindow *self,
            unsigned      *total)
{
  dm_system_info sys;
  dm_target_info *targets;
  unsigned done = 0;

  g_clear_pointer (&self->scenarios, free);
  self->n_scenarios = 0;
  *total = 0;
  memset (&sys, 0, sizeof sys);
  dm_system_info_get (&sys);
  targets = g_new0 (dm_target_info, self->plan->n_targets);
  /* A target that cannot be probed now fails when its scenario runs, with
   * the runner's reason, as in diskmeter-cli. */
  for (unsigned i = 0; i < self->plan->n_targets; i++)
    if (dm_target_probe (self->plan->targets[i].path, &targets[i]) < 0)
      memset (&targets[i], 0, sizeof targets[i]);
  if (dm_study_scenarios (self->plan, &sys, targets, &self->scenarios, &self->n_scenarios) == 0)
    {
      int d = dm_study_mark_done_in_history (self->plan, self->scenarios, self->n_scenarios);
      done = d > 0 ? (unsigned) d : 0;
    }
  g_free (targets);
  *total = self->n_scenarios;
  return done;
}

static void
show_plan_state (DmStudyWindow *self)
{
  unsigned total, done = count_done (self, &total);
  g_autofree char *msg = NULL;
  g_autofree char *t = dm_format_seconds_left ((total - done)
                                               * dm_study_scenario_seconds (self->plan));
  if (done == total)
    msg = g_strdup_printf (_("Study %s: all %u scenarios are saved."), self->plan->name, total);
  else
    msg = g_strdup_printf (_("Study %s: %u scenarios, %u saved, %u to run (%s, plus "
                             "preparing the test files)."),
                           self->plan->name, total, done, total - done, t);
  set_status (self, msg);
}

gboolean
dm_study_window_open (DmStudyWindow  *self,
                      const char     *path,
                      GError        **error)
{
  dm_study_plan *plan;
  char why[600];

  g_return_val_if_fail (DM_IS_STUDY_WINDOW (self), FALSE);

  if (self->thread)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("A study is running; stop it before opening another plan"));
      return FALSE;
    }
  plan = g_new0 (dm_study_plan, 1);
  if (dm_study_plan_load (path, plan, why, sizeof why) < 0)
    {
      g_free (plan);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, why);
      set_status (self, why);
      return FALSE;
    }
  g_free (self->plan);
  self->plan = plan;
  g_free (self->plan_path);
  self->plan_path = g_strdup (path);
  {
    g_autofree char *shown = g_filename_display_name (path);
    g_autofree char *title = g_strdup_printf (_("Study %s"), plan->name);
    g_autofree char *line = g_strdup_printf (_("Plan %s: %u targets, %u tests, Q %u values x "
                                               "T %u values"),
                                             shown, plan->n_targets, plan->n_tests, plan->n_qd,
                                             plan->n_threads);
    gtk_window_set_title (GTK_WINDOW (self), title);
    gtk_label_set_text (GTK_LABEL (self->plan_label), line);
  }
  refresh_table (self);
  show_plan_state (self);
  update_actions (self);
  return TRUE;
}

/* --- the run --------------------------------------------------------------- */

static gboolean on_tick (gpointer data);

/* On the running thread. */
static void
on_progress (void                    *user,
             const dm_study_progress *p)
{
  DmStudyWindow *self = user;
  gboolean ask;

  g_mutex_lock (&self->lock);
  self->shared.done = p->done;
  self->shared.total = p->total;
  self->shared.seconds_left = p->seconds_left;
  self->shared.step_fraction = p->step ? CLAMP (p->step->fraction, 0, 1) : 0;
  if (p->finished && p->saved_path)
    self->shared.saved = TRUE;
  else if (p->finished && p->status != DM_STATUS_CANCELLED)
    {
      self->shared.failed++;
      g_strlcpy (self->shared.failure, p->report && p->report->error[0] ? p->report->error : "",
                 sizeof self->shared.failure);
    }
  ask = !self->tick_pending;
  self->tick_pending = TRUE;
  g_mutex_unlock (&self->lock);
  if (ask)
    g_idle_add (on_tick, g_object_ref (self));
}

static gpointer
run_thread (gpointer data)
{
  DmStudyWindow *self = data;
  int status = dm_study_run_go (self->run);

  g_mutex_lock (&self->lock);
  self->shared.ended = TRUE;
  self->shared.status = status;
  g_strlcpy (self->shared.error, status < 0 && dm_study_run_error (self->run)
                                   ? dm_study_run_error (self->run) : "",
             sizeof self->shared.error);
  g_mutex_unlock (&self->lock);
  g_idle_add (on_tick, g_object_ref (self));
  return NULL;
}

static void
run_ended (DmStudyWindow *self,
           const Shared  *s)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  unsigned saved = 0;
  g_autofree char *msg = NULL;

  g_thread_join (self->thread);
  self->thread = NULL;
  g_clear_pointer (&self->run, dm_study_run_free);
  for (unsigned i = 0; i < self->n_scenarios; i++)
    saved += self->scenarios[i].done;
  gtk_widget_set_visible (self->progress_bar, FALSE);
  gtk_label_set_text (GTK_LABEL (self->time_label), "");
  if (s->status == -ECANCELED)
    msg = g_strdup_printf (_("Stopped; %u of %u scenarios are saved, Start goes on from there."),
                           saved, self->n_scenarios);
  else if (s->status < 0)
    msg = g_strdup_printf (_("The study stopped: %s; %u of %u scenarios are saved."), s->error,
                           saved, self->n_scenarios);
  else if (s->failed)
    msg = g_strdup_printf (_("Done; %u scenarios failed (%s), %u of %u are saved."), s->failed,
                           s->failure, saved, self->n_scenarios);
  else
    msg = g_strdup_printf (_("All %u scenarios are saved."), self->n_scenarios);
  set_status (self, msg);
  refresh_table (self);
  update_actions (self);
  dm_script_run_finished (self, s->status < 0 && s->status != -ECANCELED ? 1 : 0);
  if (app)
    g_application_release (app);
  if (self->close_after)
    gtk_window_destroy (GTK_WINDOW (self));
}

/* On the main thread: what the running thread left. */
static gboolean
on_tick (gpointer data)
{
  DmStudyWindow *self = data;
  Shared s;

  g_mutex_lock (&self->lock);
  s = self->shared;
  self->shared.saved = FALSE;
  self->tick_pending = FALSE;
  g_mutex_unlock (&self->lock);

  if (self->thread && s.ended)
    run_ended (self, &s);
  else if (self->thread)
    {
      double fraction = s.total ? (s.done + s.step_fraction) / s.total : 0;
      g_autofree char *msg = g_strdup_printf (_("Scenario %u of %u"), MIN (s.done + 1, s.total),
                                              s.total);

      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), CLAMP (fraction, 0, 1));
      {
        g_autofree char *t = dm_format_seconds_left (s.seconds_left);
        gtk_label_set_text (GTK_LABEL (self->time_label), t);
      }
      set_status (self, msg);
      if (s.saved)
        refresh_table (self);
    }
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

gboolean
dm_study_window_start (DmStudyWindow *self)
{
  GApplication *app;
  unsigned total, done;

  g_return_val_if_fail (DM_IS_STUDY_WINDOW (self), FALSE);

  if (self->thread)
    return FALSE;
  if (!self->plan)
    {
      set_status (self, _("Open a study plan first"));
      return FALSE;
    }
  done = count_done (self, &total);
  if (done == total)
    {
      show_plan_state (self);
      return FALSE;
    }
  self->run = dm_study_run_new (self->plan, self->scenarios, self->n_scenarios, FALSE);
  if (!self->run)
    {
      set_status (self, _("Out of memory"));
      return FALSE;
    }
  memset (&self->shared, 0, sizeof self->shared);
  self->shared.done = done;
  self->shared.total = total;
  self->tick_pending = FALSE;
  dm_study_run_set_progress (self->run, on_progress, self);
  app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  /* Until the thread is joined: the last scenario's test file is the
   * engine's to remove before the process may end. */
  if (app)
    g_application_hold (app);
  self->thread = g_thread_new ("dm-study", run_thread, self);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), (double) done / total);
  gtk_widget_set_visible (self->progress_bar, TRUE);
  {
    g_autofree char *msg = g_strdup_printf (_("Scenario %u of %u: preparing the test file"),
                                            done + 1, total);
    set_status (self, msg);
  }
  update_actions (self);
  return TRUE;
}

void
dm_study_window_stop (DmStudyWindow *self)
{
  g_return_if_fail (DM_IS_STUDY_WINDOW (self));

  if (self->run)
    {
      dm_study_run_cancel (self->run);
      set_status (self, _("Stopping…"));
    }
}

gboolean
dm_study_window_is_running (DmStudyWindow *self)
{
  g_return_val_if_fail (DM_IS_STUDY_WINDOW (self), FALSE);
  return self->thread != NULL;
}

/* --- the view's choices ------------------------------------------------------ */

void
dm_study_window_set_green_only (DmStudyWindow *self,
                                gboolean       green_only)
{
  g_return_if_fail (DM_IS_STUDY_WINDOW (self));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->green_check), green_only);
}

static void
on_green_toggled (DmStudyWindow *self)
{
  gboolean on = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->green_check));

  gtk_filter_list_model_set_filter (self->filtered, on ? self->green_filter : NULL);
}

gboolean
dm_study_window_sort_by (DmStudyWindow *self,
                         const char    *title,
                         gboolean       descending)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  g_return_val_if_fail (DM_IS_STUDY_WINDOW (self), FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (c), title) == 0)
        {
          gtk_column_view_sort_by_column (self->column_view, c,
                                          descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
          return TRUE;
        }
    }
  return FALSE;
}

guint
dm_study_window_n_shown (DmStudyWindow *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

/* --- saving ---------------------------------------------------------------- */

gboolean
dm_study_window_save (DmStudyWindow  *self,
                      const char     *format,
                      const char     *path,
                      GError        **error)
{
  char why[600];
  dm_buf buf;

  g_return_val_if_fail (DM_IS_STUDY_WINDOW (self), FALSE);

  if (g_strcmp0 (format, "png") == 0)
    return dm_screenshot_save_scaled (GTK_WIDGET (self), self->content,
                                      dm_script_screenshot_scale (self), path, error);
  if (g_strcmp0 (format, "csv") != 0 && g_strcmp0 (format, "xlsx") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("A study is saved as CSV, an Excel workbook or a PNG, not %s"), format);
      return FALSE;
    }
  /* The sheet as the history holds it now, the same the CLI would read:
   * the whole study, whatever the table's sort and filter. */
  if (!self->plan || !load_sheet (self, why, sizeof why))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           self->plan ? why : _("Open a study plan first"));
      return FALSE;
    }
  if (g_strcmp0 (format, "xlsx") == 0)
    {
      if (dm_xlsx_write_study (&self->sheet, path, why, sizeof why) < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write %s: %s"), path,
                       why);
          return FALSE;
        }
      return TRUE;
    }
  dm_buf_init (&buf);
  dm_study_sheet_write_csv (&self->sheet, &buf);
  return dm_tool_run_write (&buf, path, error);
}

/* --- actions --------------------------------------------------------------- */

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  DmStudyWindow   *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);
  g_autoptr (GError) error = NULL;

  g_object_unref (dialog);
  if (path)
    dm_study_window_open (self, path, &error);
}

static void
action_open (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkFileChooserNative *chooser
    = gtk_file_chooser_native_new (_("Open a Study Plan"), GTK_WINDOW (widget),
                                   GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_response), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
action_start (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  dm_study_window_start (DM_STUDY_WINDOW (widget));
}

static void
action_stop (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  dm_study_window_stop (DM_STUDY_WINDOW (widget));
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  const char *format = g_variant_get_string (parameter, NULL);
  DmStudyWindow *self = DM_STUDY_WINDOW (widget);
  g_autofree char *name = g_strdup_printf ("%s.%s", self->plan ? self->plan->name : "study",
                                           format);

  dm_tool_run_save_as (&self->tool, format, _("Save Study"), name);
}

/* --- scripts --------------------------------------------------------------- */

static gboolean
scriptable_start (DmScriptable *window)
{
  return dm_study_window_start (DM_STUDY_WINDOW (window));
}

static gboolean
scriptable_save (DmScriptable *window,
                 const char   *format,
                 const char   *path,
                 GError      **error)
{
  return dm_study_window_save (DM_STUDY_WINDOW (window), format, path, error);
}

static gboolean
scriptable_is_running (DmScriptable *window)
{
  return dm_study_window_is_running (DM_STUDY_WINDOW (window));
}

static void
scriptable_init (DmScriptableInterface *iface)
{
  iface->start = scriptable_start;
  iface->save = scriptable_save;
  iface->is_running = scriptable_is_running;
}

/* --- life ------------------------------------------------------------------ */

static gboolean
on_close_request (GtkWindow *window)
{
  DmStudyWindow *self = DM_STUDY_WINDOW (window);

  if (!self->thread)
    return FALSE;
  /* Gone from the screen now; destroyed once the engine has stopped and
   * removed the test file (run_ended). */
  self->close_after = TRUE;
  dm_study_run_cancel (self->run);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  return TRUE;
}

static void
dm_study_window_dispose (GObject *object)
{
  DmStudyWindow *self = DM_STUDY_WINDOW (object);

  dm_tool_run_dispose (&self->tool);
  G_OBJECT_CLASS (dm_study_window_parent_class)->dispose (object);
}

static void
dm_study_window_finalize (GObject *object)
{
  DmStudyWindow *self = DM_STUDY_WINDOW (object);

  /* The thread holds a reference while it runs: none here. */
  dm_tool_run_finalize (&self->tool);
  g_clear_object (&self->store);
  g_clear_object (&self->green_filter);
  g_clear_object (&self->filtered);
  g_clear_object (&self->sorted);
  g_free (self->columns_key);
  if (self->have_sheet)
    dm_study_sheet_free (&self->sheet);
  g_free (self->plan);
  g_free (self->plan_path);
  free (self->scenarios);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dm_study_window_parent_class)->finalize (object);
}

static void
dm_study_window_class_init (DmStudyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dm_study_window_dispose;
  object_class->finalize = dm_study_window_finalize;
  window_class->close_request = on_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-study-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, content);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, plan_label);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, green_check);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, time_label);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, column_view);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, table_scroller);
  gtk_widget_class_bind_template_child (widget_class, DmStudyWindow, empty_label);

  gtk_widget_class_install_action (widget_class, "study.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "study.start", NULL, action_start);
  gtk_widget_class_install_action (widget_class, "study.stop", NULL, action_stop);
  gtk_widget_class_install_action (widget_class, "study.save", "s", action_save);
}

static void
dm_study_window_init (DmStudyWindow *self)
{
  GtkNoSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  g_mutex_init (&self->lock);
  dm_tool_run_init (&self->tool, GTK_WINDOW (self), self->status_label, self->time_label,
                    self->progress_bar, (DmToolRunSave) dm_study_window_save);
  self->store = g_list_store_new (DM_TYPE_STUDY_ITEM);
  self->green_filter = dm_study_model_green_filter ();
  /* store -> filter -> sort -> view: the view's sorter sorts what passed. */
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)), NULL);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_swapped (self->green_check, "toggled", G_CALLBACK (on_green_toggled), self);
  set_status (self, _("Open a study plan: its scenarios already in the history are shown, "
                      "Start runs the others."));
  update_actions (self);
}

GtkWidget *
dm_study_window_new (GtkApplication *app)
{
  return g_object_new (DM_TYPE_STUDY_WINDOW, "application", app, NULL);
}
