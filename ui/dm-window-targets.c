/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folder to test: the dropdown of mounted filesystems, then whole
 * disks and partitions for read tests (listed in the background, so the
 * first frame does not wait on a slow mount), the folder chooser, the
 * target key, and the footer and title that say what was measured, on what.
 */
#include "dm-footer.h"
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-file-dialog.h"
#include "dm-format.h"
#include "dm-platform.h"
#include "dm-profile.h"

static const char *const choose_folder_label = N_("Choose folder…");

/* --- targets --------------------------------------------------------------- */

static char *
format_gib (uint64_t bytes)
{
  double gib = bytes / 1073741824.0;

  if (bytes < (1ull << 30))
    return g_strdup_printf ("%.0fMiB", bytes / 1048576.0);
  if (gib >= 1000)
    return g_strdup_printf ("%.1fTiB", gib / 1024);
  if (gib >= 10)
    return g_strdup_printf ("%.0fGiB", gib);
  return g_strdup_printf ("%.1fGiB", gib);
}

static char *
target_label (const dm_target_info *t)
{
  g_autofree char *size = format_gib (t->size_bytes);
  g_autofree char *free_space = format_gib (MIN (t->free_bytes, t->size_bytes));
  GString *s = g_string_new (t->path[0] ? t->path : t->mount_point);

  if (t->is_block_device)
    {
      /* A disk is picked by what it is and how it is attached; it is only
       * read, so free space does not matter. */
      g_string_append_printf (s, "  %s", size);
      if (t->bus[0])
        g_string_append_printf (s, "  %s", t->bus);
      if (t->model[0])
        g_string_append_printf (s, "  %s", t->model);
      if (t->filesystem[0])
        g_string_append_printf (s, "  %s", t->filesystem);
      if (t->label[0])
        g_string_append_printf (s, " “%s”", t->label);
      g_string_append_printf (s, "  (%s)", _("read tests only"));
      return g_string_free (s, FALSE);
    }
  /* What the pick depends on: room for the test file, and which disk. */
  g_string_append (s, "  ");
  /* TRANSLATORS: free space of a drive in the target list, e.g. "70GiB
   * free of 252GiB". */
  g_string_append_printf (s, _("%s free of %s"), free_space, size);
  if (t->filesystem[0])
    g_string_append_printf (s, "  %s", t->filesystem);
  if (t->model[0])
    g_string_append_printf (s, "  %s", t->model);
  return g_string_free (s, FALSE);
}

static void on_target_selected (DmWindow *self);

/* The dropdown is set from the target key, not the other way round. */
static void
block_selection (DmWindow *self,
                 gboolean  block)
{
  if (block)
    g_signal_handlers_block_by_func (self->target_dropdown, on_target_selected, self);
  else
    g_signal_handlers_unblock_by_func (self->target_dropdown, on_target_selected, self);
}

/* Selects target in the dropdown, adding it if it is not a listed mount.
 * Its label needs a probe, which waits for the background scan at start
 * (probe = FALSE) so the first frame does not wait on the disk. */
static void
select_target (DmWindow   *self,
               const char *target,
               gboolean    probe)
{
  guint i;

  for (i = 0; i < self->target_paths->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->target_paths, i), target) == 0)
      break;

  if (i == self->target_paths->len)
    {
      dm_target_info info;
      g_autofree char *label = NULL;

      memset (&info, 0, sizeof info);
      if (self->have_target_info && g_strcmp0 (self->target_info.path, target) == 0)
        label = target_label (&self->target_info);
      else if (probe && dm_target_probe (target, &info) == 0)
        {
          g_strlcpy (info.path, target, sizeof info.path);
          label = target_label (&info);
        }
      else
        label = g_strdup (target);
      g_ptr_array_add (self->target_paths, g_strdup (target));
      block_selection (self, TRUE);
      gtk_string_list_splice (self->target_model, i, 0, (const char *const[]) { label, NULL });
      block_selection (self, FALSE);
    }

  block_selection (self, TRUE);
  gtk_drop_down_set_selected (self->target_dropdown, i);
  block_selection (self, FALSE);
}

void
_dm_window_update_target_info (DmWindow *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  memset (&self->target_info, 0, sizeof self->target_info);
  self->have_target_info = dm_target_probe (target, &self->target_info) == 0;
  if (self->have_target_info)
    g_strlcpy (self->target_info.path, target, sizeof self->target_info.path);
  _dm_window_update_footer (self);
}

typedef struct
{
  dm_target_info *list;
  unsigned        n;
  dm_system_info  system;
  gboolean        have_system;
  char           *target;       /* the current target when the scan began */
  dm_target_info  target_info;
  gboolean        have_target_info;
} TargetScan;

static void
target_scan_free (gpointer data)
{
  TargetScan *scan = data;

  if (scan->list)
    dm_target_list_free (scan->list);
  g_free (scan->target);
  g_free (scan);
}

static void
scan_targets_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  TargetScan *scan = g_new0 (TargetScan, 1);

  /* Mount tables, sysfs and statvfs can be slow on a busy or networked
   * machine; the first frame does not wait for them. */
  scan->target = g_strdup (task_data);
  scan->have_target_info = dm_target_probe (scan->target, &scan->target_info) == 0;
  if (scan->have_target_info)
    g_strlcpy (scan->target_info.path, scan->target, sizeof scan->target_info.path);
  if (dm_target_list_full (&scan->list, &scan->n, DM_TARGET_LIST_DEVICES) != 0)
    {
      scan->list = NULL;
      scan->n = 0;
    }
  scan->have_system = dm_system_info_get (&scan->system) == 0;
  g_task_return_pointer (task, scan, target_scan_free);
}

static void
on_targets_scanned (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  DmWindow *self;
  TargetScan *scan = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *target = NULL;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  if (!scan)
    return;  /* cancelled: the window is gone */
  self = DM_WINDOW (source);

  if (scan->have_system)
    {
      self->system = scan->system;
      self->have_system = TRUE;
      /* A run on screen (finished, or opened from a file) keeps the
       * machine and drive it was measured on: its figures are theirs. */
      if (!self->job && !self->report.finished)
        self->report.system = scan->system;
    }

  g_ptr_array_set_size (self->target_paths, 0);
  for (unsigned i = 0; i < scan->n; i++)
    {
      const dm_target_info *t = &scan->list[i];

      /* A device has no mount point: its node is the target. */
      g_ptr_array_add (self->target_paths,
                       g_strdup (t->is_block_device || !t->mount_point[0] ? t->path
                                                                          : t->mount_point));
      g_ptr_array_add (labels, target_label (&scan->list[i]));
    }
  g_ptr_array_add (labels, g_strdup (_(choose_folder_label)));
  g_ptr_array_add (labels, NULL);

  block_selection (self, TRUE);
  gtk_string_list_splice (self->target_model, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->target_model)),
                          (const char *const *) labels->pdata);
  block_selection (self, FALSE);

  target = _dm_window_current_target (self);
  if (g_strcmp0 (target, scan->target) == 0)
    {
      self->target_info = scan->target_info;
      self->have_target_info = scan->have_target_info;
      if (!self->job && !self->report.finished && self->have_target_info)
        self->report.target = self->target_info;
    }
  select_target (self, target, TRUE);
  _dm_window_update_footer (self);
  /* Now it is known whether the target is a device, which is only read. */
  if (self->have_target_info)
    _dm_window_modes_changed (self);
  target_scan_free (scan);
}

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    g_settings_set_string (self->settings, "target", path);
  else
    {
      /* The list shows "Choose folder…" until it shows a folder again. */
      g_autofree char *target = _dm_window_current_target (self);
      select_target (self, target, TRUE);
    }
  g_clear_object (&self->chooser);
}

static void
choose_folder (DmWindow *self)
{
  if (self->chooser)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Folder to Test"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               "_Select", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
target_item_setup (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize)
    {
      /* The closed dropdown shares the row with four other controls; the
       * full line is in the open list and in the footer. */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 20);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 44);
    }
  gtk_list_item_set_child (item, label);
}

static void
target_item_bind (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  ellipsize)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      string ? gtk_string_object_get_string (string) : "");
}

static GtkListItemFactory *
target_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (target_item_setup), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (target_item_bind), GINT_TO_POINTER (ellipsize));
  return factory;
}

static void
on_target_selected (DmWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->target_dropdown);

  if (i == GTK_INVALID_LIST_POSITION)
    return;
  if (i >= self->target_paths->len)
    choose_folder (self);
  else
    g_settings_set_string (self->settings, "target", g_ptr_array_index (self->target_paths, i));
}

/* --- footer and title ------------------------------------------------------ */

/* "Diskmeter – /mnt/data – Default": the title bar says what the grid
 * measures, as CrystalDiskMark's carries its mode, so a screenshot of the
 * whole window or a list of windows tells one run from another. */
static void
update_title (DmWindow   *self,
              const char *where)
{
  const dm_profile *profile = dm_profile_find (self->report.profile);
  g_autofree char *title = NULL;

  title = g_strdup_printf ("Diskmeter – %s – %s%s", where,
                           /* The profiles' titles are the Profile menu's words. */
                           profile ? _(profile->title) : _("Custom"),
                           self->report.nvme && profile ? " (NVMe SSD)" : "");
  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
_dm_window_update_footer (DmWindow *self)
{
  const dm_target_info *t = self->report.finished ? &self->report.target
                                                  : (self->have_target_info ? &self->target_info
                                                                            : NULL);
  const dm_system_info *sys = self->report.finished ? &self->report.system
                                                    : (self->have_system ? &self->system : NULL);
  g_autofree char *target = _dm_window_current_target (self);
  const char *where = t && t->path[0] ? t->path : target;
  /* The same footer as every window that saves a picture (dm-footer.c). */
  g_autofree char *text = dm_footer_text (where, t, sys, self->report.finished,
                                          self->report.cached,
                                          dm_comparison_get_target (self->comparison));

  gtk_label_set_text (GTK_LABEL (self->footer_label), text);
  update_title (self, where);
}

/* --- set-up ---------------------------------------------------------------- */

void
_dm_window_targets_init (DmWindow *self)
{
  g_autoptr (GtkListItemFactory) button = target_factory (TRUE);
  g_autoptr (GtkListItemFactory) list = target_factory (FALSE);

  self->target_paths = g_ptr_array_new_with_free_func (g_free);
  gtk_drop_down_set_factory (self->target_dropdown, button);
  gtk_drop_down_set_list_factory (self->target_dropdown, list);
  /* Until the scan lists the mounts, the list holds the saved target. */
  gtk_string_list_append (self->target_model, _(choose_folder_label));
}

/* The target key changed (the dropdown, the chooser, a saved run, the
 * command line or D-Bus): its label needs a probe, and whether it is a
 * device decides the columns a run measures. */
static void
on_target_changed (GSettings  *settings,
                   const char *key,
                   DmWindow   *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  _dm_window_update_target_info (self);
  select_target (self, target, TRUE);
  if (!self->job && !self->report.finished && self->have_target_info)
    self->report.target = self->target_info;
  _dm_window_modes_changed (self);
}

static void
action_choose_folder (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  choose_folder (DM_WINDOW (widget));
}

void
_dm_window_class_targets_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, action_choose_folder);
}

/* Once the settings are on the widgets: the dropdown shows the target
 * (the background scan probes it, so the first frame does not wait on the
 * disk), follows the dropdown and the key, and lists the mounts. */
void
_dm_window_targets_start (DmWindow *self)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *target = _dm_window_current_target (self);

  select_target (self, target, FALSE);
  g_signal_connect_swapped (self->target_dropdown, "notify::selected",
                            G_CALLBACK (on_target_selected), self);
  g_signal_connect (self->settings, "changed::target", G_CALLBACK (on_target_changed), self);
  task = g_task_new (self, self->cancellable, on_targets_scanned, NULL);
  g_task_set_task_data (task, g_strdup (target), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, scan_targets_thread);
}
