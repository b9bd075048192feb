/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The list is read from the history folder with dm_history_list each time
 * it is shown or changed; runs are acted on by their path, never by their
 * position, so a file added meanwhile cannot shift what a button hits.
 * Opening and comparing are the main window's business: this window asks
 * for them with its open-run and compare-runs signals and shows the answer.
 * The checked runs go into one Excel workbook through the writer
 * diskmeter-cli uses (export/dm-xlsx.c), so both write the same file; the
 * history.export-xlsx-to action does it without a file chooser.
 */
#include "dm-history-window.h"
#include "dm-i18n-ui.h"

#include <errno.h>
#include <string.h>

#include "dm-compare.h"
#include "dm-format.h"
#include "dm-history.h"
#include "dm-platform.h"
#include "dm-profile.h"
#include "dm-file-dialog.h"
#include "dm-xlsx.h"

struct _DmHistoryWindow
{
  GtkWindow         parent_instance;

  GtkWidget        *list;
  GtkWidget        *comment_entry;
  GtkWidget        *comment_button;
  GtkWidget        *status_label;
  GtkWidget        *delete_button;
  GtkWidget        *export_button;
  GtkWidget        *compare_button;
  GtkWidget        *open_button;
  GtkWidget        *reload_button;
  GtkWidget        *xlsx_button;

  dm_history_entry *entries;
  unsigned          n_entries;
  GPtrArray        *checks;       /* GtkCheckButton per entry (NULL if unreadable) */
};

G_DEFINE_FINAL_TYPE (DmHistoryWindow, dm_history_window, GTK_TYPE_WINDOW)

enum { OPEN_RUN, COMPARE_RUNS, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
set_status (DmHistoryWindow *self,
            const char      *text)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  gtk_widget_set_tooltip_text (self->status_label, text);
}

/* The checked runs' paths, in list order (newest first). */
static GPtrArray *
checked_paths (DmHistoryWindow *self)
{
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; i < self->checks->len && i < self->n_entries; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (check && gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        g_ptr_array_add (paths, self->entries[i].path);
    }
  return paths;
}

static const dm_history_entry *
checked_entry (DmHistoryWindow *self)
{
  for (guint i = 0; i < self->checks->len && i < self->n_entries; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (check && gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        return &self->entries[i];
    }
  return NULL;
}

static void
update_buttons (DmHistoryWindow *self)
{
  g_autoptr (GPtrArray) paths = checked_paths (self);
  const dm_history_entry *one = paths->len == 1 ? checked_entry (self) : NULL;

  gtk_widget_set_sensitive (self->open_button, paths->len == 1);
  gtk_widget_set_sensitive (self->export_button, paths->len == 1);
  gtk_widget_set_sensitive (self->delete_button, paths->len == 1);
  gtk_widget_set_sensitive (self->comment_button, paths->len == 1);
  gtk_widget_set_sensitive (self->compare_button,
                            paths->len >= 2 && paths->len <= DM_COMPARE_MAX);
  /* The Excel button follows these (it is bound to history.export-xlsx). */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-xlsx",
                                 dm_xlsx_available && paths->len >= 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-xlsx-to",
                                 dm_xlsx_available && paths->len >= 1);
  /* GTK takes only UTF-8; a comment saved from another locale shows
   * U+FFFD where its bytes are not (README, "Text in the reports"). */
  g_autofree char *comment = g_utf8_make_valid (one ? one->comment : "", -1);
  gtk_editable_set_text (GTK_EDITABLE (self->comment_entry), comment);
}

static GtkWidget *
entry_row (DmHistoryWindow        *self,
           const dm_history_entry *e)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title, *detail, *check = NULL;
  g_autofree char *title_text = NULL;
  g_autofree char *detail_text = NULL;
  char date[64] = "";

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  if (e->ok)
    {
      check = gtk_check_button_new ();
      g_signal_connect_swapped (check, "toggled", G_CALLBACK (update_buttons), self);
      dm_format_local_time (e->started, date, sizeof date);
      title_text = g_strdup_printf ("%s · %s%s%s · %s%s", date, e->target,
                                    e->model[0] || e->device[0] ? " · " : "",
                                    e->model[0] ? e->model : e->device,
                                    /* The Profile menu's word, as the window's title. */
                                    e->n_workloads ? _("Workloads")
                                                   : _(dm_profile_title_of (e->profile)),
                                    e->status == DM_STATUS_CANCELLED ? " · stopped" : "");
      {
        GString *d = g_string_new (NULL);

        /* Only the headline figures the run has: a demo run has no RND. */
        if (e->seq_read_mb_s > 0 || e->seq_write_mb_s > 0)
          g_string_append_printf (d, "SEQ %.0f / %.0f MB/s", e->seq_read_mb_s, e->seq_write_mb_s);
        if (e->rnd_read_iops > 0 || e->rnd_write_iops > 0)
          g_string_append_printf (d, "%sRND %.0f / %.0f IOPS", d->len ? " · " : "",
                                  e->rnd_read_iops, e->rnd_write_iops);
        if (d->len)
          g_string_append (d, " (read / write)");
        /* Workload rows have no headline test: their names say what ran. */
        if (e->n_workloads)
          {
            g_autofree char *names = g_utf8_make_valid (e->workloads, -1);
            g_string_append_printf (d, "%s%s", d->len ? " · " : "", names);
          }
        if (e->comment[0])
          {
            g_autofree char *comment = g_utf8_make_valid (e->comment, -1);
            g_string_append_printf (d, "%s%s", d->len ? " · " : "", comment);
          }
        /* The user's tags: what tells this VM's run from the others'. */
        if (e->tags[0])
          {
            g_autofree char *tags = g_utf8_make_valid (e->tags, -1);
            g_string_append_printf (d, "%s%s", d->len ? " · " : "", tags);
          }
        detail_text = g_string_free (d, FALSE);
      }
    }
  else
    {
      /* Shown, not hidden and not touched: it may be a newer Diskmeter's
       * file, or one the user wants to rescue by hand. */
      check = gtk_check_button_new ();
      gtk_widget_set_sensitive (check, FALSE);
      title_text = g_filename_display_name (e->name);
      g_autofree char *reason = g_utf8_make_valid (e->error, -1);
      detail_text = g_strdup_printf (_ ("Cannot be read: %s"), reason);
    }
  gtk_box_append (GTK_BOX (box), check);
  title = gtk_label_new (title_text);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  detail = gtk_label_new (detail_text);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (detail, "dim-label");
  if (!e->ok)
    gtk_widget_add_css_class (detail, "error");
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), detail);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_tooltip_text (box, e->path);
  g_ptr_array_add (self->checks, e->ok ? check : NULL);
  return box;
}

void
dm_history_window_reload (DmHistoryWindow *self)
{
  GtkWidget *child;
  int err;

  g_return_if_fail (DM_IS_HISTORY_WINDOW (self));
  while ((child = gtk_widget_get_first_child (self->list)))
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  g_ptr_array_set_size (self->checks, 0);
  g_clear_pointer (&self->entries, dm_history_free);
  self->n_entries = 0;

  err = dm_history_list (&self->entries, &self->n_entries);
  if (err < 0)
    {
      g_autofree char *m = g_strdup_printf (_ ("Could not list the history: %s"), dm_strerror (err));
      set_status (self, m);
    }
  else
    {
      g_autofree char *m = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u saved run",
                                                         "%u saved runs", self->n_entries),
                                            self->n_entries);
      set_status (self, self->n_entries ? m : _ ("No saved runs yet: every run is kept here"));
    }
  for (unsigned i = 0; i < self->n_entries; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->list), entry_row (self, &self->entries[i]));
  update_buttons (self);
}

static void
on_open (DmHistoryWindow *self)
{
  const dm_history_entry *e = checked_entry (self);
  g_autofree char *why = NULL;

  if (!e)
    return;
  g_signal_emit (self, signals[OPEN_RUN], 0, e->path, &why);
  if (why)
    set_status (self, why);
}

static void
on_compare (DmHistoryWindow *self)
{
  g_autoptr (GPtrArray) paths = checked_paths (self);
  g_autofree char *why = NULL;

  if (paths->len < 2)
    return;
  /* Oldest first: the first column is the reference the others are
   * measured against, and "before" usually means earlier. */
  for (guint i = 0; i < paths->len / 2; i++)
    {
      gpointer t = paths->pdata[i];

      paths->pdata[i] = paths->pdata[paths->len - 1 - i];
      paths->pdata[paths->len - 1 - i] = t;
    }
  g_ptr_array_add (paths, NULL);
  g_signal_emit (self, signals[COMPARE_RUNS], 0, (const char *const *) paths->pdata, &why);
  if (why)
    set_status (self, why);
}

static void
on_set_comment (DmHistoryWindow *self)
{
  const dm_history_entry *e = checked_entry (self);
  char why[256] = "";

  if (!e)
    return;
  if (dm_history_set_comment (e->path, gtk_editable_get_text (GTK_EDITABLE (self->comment_entry)),
                              why, sizeof why) < 0)
    {
      g_autofree char *m = g_strdup_printf (_ ("The comment was not changed: %s"), why);
      set_status (self, m);
      return;
    }
  dm_history_window_reload (self);
  set_status (self, _ ("Comment changed"));
}

static void
on_delete_response (GtkDialog       *dialog,
                    int              response,
                    DmHistoryWindow *self)
{
  g_autofree char *path = g_strdup (g_object_get_data (G_OBJECT (dialog), "dm-path"));
  int err;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response != GTK_RESPONSE_ACCEPT || !path)
    return;
  err = dm_history_delete (path);
  dm_history_window_reload (self);
  if (err < 0)
    {
      g_autofree char *m = g_strdup_printf (_ ("Not deleted: %s"), dm_strerror (err));
      set_status (self, m);
    }
  else
    set_status (self, _ ("Deleted"));
}

static void
on_delete (DmHistoryWindow *self)
{
  const dm_history_entry *e = checked_entry (self);
  GtkWidget *dialog;

  if (!e)
    return;
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* GtkAlertDialog is GTK 4.10; Diskmeter targets 4.8. */
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   "Delete the saved run %s?", e->name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            "Its figures cannot be compared any more afterwards.");
  gtk_dialog_add_button (GTK_DIALOG (dialog), "_Cancel", GTK_RESPONSE_CANCEL);
  gtk_widget_add_css_class (gtk_dialog_add_button (GTK_DIALOG (dialog), "_Delete",
                                                   GTK_RESPONSE_ACCEPT),
                            "destructive-action");
G_GNUC_END_IGNORE_DEPRECATIONS
  g_object_set_data_full (G_OBJECT (dialog), "dm-path", g_strdup (e->path), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_delete_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The saved runs at sources (oldest first) side by side in one workbook,
 * as `diskmeter-cli history export N,M FILE --format xlsx` writes it: a
 * row per run labelled by its comment, else its file name, coloured by the
 * limits saved with each run. Says on the status line how it went. */
static void
write_workbook (DmHistoryWindow   *self,
                const char *const *sources,
                guint              n,
                const char        *path)
{
  g_autofree dm_report *runs = g_new0 (dm_report, MAX (n, 1));
  g_autofree const dm_report **ptrs = g_new0 (const dm_report *, MAX (n, 1));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *m = NULL;
  char why[320] = "";
  guint k = 0;
  int rc = 0;

  for (; k < n; k++)
    {
      if (dm_history_load (sources[k], &runs[k], why, sizeof why) < 0)
        {
          g_autofree char *name = g_path_get_basename (sources[k]);

          m = g_strdup_printf (_ ("Could not read the saved run %s: %s"), name, why);
          dm_report_clear (&runs[k]);
          break;
        }
      ptrs[k] = &runs[k];
      g_ptr_array_add (labels, runs[k].comment[0] ? g_strdup (runs[k].comment)
                                                  : g_path_get_basename (sources[k]));
    }
  if (!m)
    {
      rc = dm_xlsx_write_runs (ptrs, (const char *const *) labels->pdata, n, NULL, 0, path, why,
                               sizeof why);
      m = rc < 0 ? g_strdup_printf (_ ("Could not save %s: %s"), path, why)
                 : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Saved %u run to %s",
                                                "Saved %u runs to %s", n), n,
                                    path);
    }
  for (guint i = 0; i < k; i++)
    dm_report_clear (&runs[i]);
  set_status (self, m);
}

/* The checked runs' paths, oldest first, as the workbook's rows go. */
static GPtrArray *
checked_paths_oldest_first (DmHistoryWindow *self)
{
  GPtrArray *paths = checked_paths (self);

  for (guint i = 0; i < paths->len / 2; i++)
    {
      gpointer t = paths->pdata[i];

      paths->pdata[i] = paths->pdata[paths->len - 1 - i];
      paths->pdata[paths->len - 1 - i] = t;
    }
  return paths;
}

static void
action_export_xlsx_to (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DmHistoryWindow *self = DM_HISTORY_WINDOW (widget);
  g_autoptr (GPtrArray) paths = checked_paths_oldest_first (self);

  if (paths->len)
    write_workbook (self, (const char *const *) paths->pdata, paths->len,
                    g_variant_get_string (parameter, NULL));
}

static void
on_export_xlsx_response (GtkNativeDialog *chooser,
                         int              response,
                         DmHistoryWindow *self)
{
  g_autofree char *path = dm_file_dialog_get_path (chooser, response);

  /* The runs checked when the chooser opened: it is modal. */
  if (path)
    gtk_widget_activate_action (GTK_WIDGET (self), "history.export-xlsx-to", "s", path);
  g_object_unref (chooser);
}

static void
action_export_xlsx (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DmHistoryWindow *self = DM_HISTORY_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = dm_file_dialog_new_save (GTK_WINDOW (self), _ ("Export to Excel"), "Diskmeter_runs.xlsx");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_xlsx_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_export_response (GtkNativeDialog *chooser,
                    int              response,
                    DmHistoryWindow *self)
{
  const char *source = g_object_get_data (G_OBJECT (chooser), "dm-path");
  g_autofree char *path = dm_file_dialog_get_path (chooser, response);
  char why[256] = "";
  dm_report r;
  dm_buf buf;
  int rc;

  if (!path)
    goto out;
  if (g_str_has_suffix (path, ".xlsx"))
    {
      /* A workbook of this one run, as the Excel button writes it. */
      if (dm_xlsx_available)
        write_workbook (self, &source, 1, path);
      else
        set_status (self, _ ("This Diskmeter was built without Excel support (libxlsxwriter)"));
      goto out;
    }
  memset (&r, 0, sizeof r);
  if (dm_history_load (source, &r, why, sizeof why) < 0)
    {
      g_autofree char *m = g_strdup_printf (_ ("Could not read the saved run: %s"), why);
      dm_report_clear (&r);
      set_status (self, m);
      goto out;
    }
  /* The engine's writers, so an export from here reads like one from the
   * main window or diskmeter-cli. */
  dm_buf_init (&buf);
  if (g_str_has_suffix (path, ".json"))
    dm_report_write_json (&r, &buf);
  else if (g_str_has_suffix (path, ".csv"))
    dm_report_write_csv (&r, &buf);
  else
    dm_report_write_text (&r, &buf);
  rc = buf.error ? buf.error : dm_write_file_atomic (path, &buf);
  dm_buf_free (&buf);
  dm_report_clear (&r);
  {
    g_autofree char *m = rc < 0 ? g_strdup_printf (_ ("Could not save %s: %s"), path, dm_strerror (rc))
                                : g_strdup_printf (_ ("Saved %s"), path);
    set_status (self, m);
  }
out:
  g_object_unref (chooser);
}

static void
on_export (DmHistoryWindow *self)
{
  const dm_history_entry *e = checked_entry (self);
  GtkFileChooserNative *chooser;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  if (!e)
    return;
  base = g_strndup (e->name, strlen (e->name) - (g_str_has_suffix (e->name, ".json") ? 5 : 0));
  name = g_strdup_printf ("Diskmeter_%s.txt", base);
  chooser = dm_file_dialog_new_save (GTK_WINDOW (self), _ ("Export Saved Run"), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data_full (G_OBJECT (chooser), "dm-path", g_strdup (e->path), g_free);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
dm_history_window_dispose (GObject *object)
{
  DmHistoryWindow *self = DM_HISTORY_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DM_TYPE_HISTORY_WINDOW);
  G_OBJECT_CLASS (dm_history_window_parent_class)->dispose (object);
}

static void
dm_history_window_finalize (GObject *object)
{
  DmHistoryWindow *self = DM_HISTORY_WINDOW (object);

  g_clear_pointer (&self->entries, dm_history_free);
  g_ptr_array_unref (self->checks);
  G_OBJECT_CLASS (dm_history_window_parent_class)->finalize (object);
}

static void
dm_history_window_class_init (DmHistoryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dm_history_window_dispose;
  object_class->finalize = dm_history_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-history-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, list);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, comment_entry);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, comment_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, delete_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, compare_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, reload_button);
  gtk_widget_class_bind_template_child (widget_class, DmHistoryWindow, xlsx_button);

  /* The checked runs into one Excel workbook: through a file chooser, or
   * straight to the path given (scripts and tests). */
  gtk_widget_class_install_action (widget_class, "history.export-xlsx", NULL, action_export_xlsx);
  gtk_widget_class_install_action (widget_class, "history.export-xlsx-to", "s",
                                   action_export_xlsx_to);

  /**
   * DmHistoryWindow::open-run:
   * @path: the saved run's file
   *
   * Open asks for one saved run to be shown. Returns: (transfer full)
   * (nullable): NULL once it is shown, else why not, for the status line.
   */
  signals[OPEN_RUN] = g_signal_new ("open-run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_STRING, 1,
                                    G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  /**
   * DmHistoryWindow::compare-runs:
   * @paths: two or more saved runs' files, oldest first (the reference)
   *
   * Compare asks for the runs side by side. Returns: as ::open-run.
   */
  signals[COMPARE_RUNS] = g_signal_new ("compare-runs", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_STRING, 1,
                                        G_TYPE_STRV | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
dm_history_window_init (DmHistoryWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->checks = g_ptr_array_new ();
  if (!dm_xlsx_available)
    gtk_widget_set_tooltip_text (self->xlsx_button,
                                 "This Diskmeter was built without Excel support (libxlsxwriter)");
  g_signal_connect_swapped (self->open_button, "clicked", G_CALLBACK (on_open), self);
  g_signal_connect_swapped (self->compare_button, "clicked", G_CALLBACK (on_compare), self);
  g_signal_connect_swapped (self->export_button, "clicked", G_CALLBACK (on_export), self);
  g_signal_connect_swapped (self->delete_button, "clicked", G_CALLBACK (on_delete), self);
  g_signal_connect_swapped (self->comment_button, "clicked", G_CALLBACK (on_set_comment), self);
  g_signal_connect_swapped (self->comment_entry, "activate", G_CALLBACK (on_set_comment), self);
  g_signal_connect_swapped (self->reload_button, "clicked",
                            G_CALLBACK (dm_history_window_reload), self);
}

DmHistoryWindow *
dm_history_window_new (GtkWindow *parent)
{
  DmHistoryWindow *self = g_object_new (DM_TYPE_HISTORY_WINDOW,
                                        "transient-for", parent,
                                        "destroy-with-parent", TRUE,
                                        "application", gtk_window_get_application (parent),
                                        NULL);

  dm_history_window_reload (self);
  return self;
}
